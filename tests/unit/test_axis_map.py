"""Tests for heirpy.transforms.pointwise.axis_map: worked examples plus numpy-checked properties.

The property tests run a random layout chain with numpy on `np.arange(size)` and check
that, at every point of the refined loop space, the producer element read through the
producer terms is the element the consumer holds at the consumer terms.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import prod

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from xdsl.ir.affine import AffineMap

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)
from heirpy.transforms.pointwise.axis_map import (
    AxisMap,
    AxisTerms,
    Broadcast,
    CollapseShape,
    ExpandShape,
    LayoutStep,
    Reshape,
    Transpose,
    align,
    to_affine_map,
    trace,
)

YOLO_STEPS: list[LayoutStep] = [
    ExpandShape([[0], [1, 2], [3], [4]], [1, 3, 85, 80, 80]),
    Transpose([0, 1, 3, 4, 2]),
]


# ------------------------------------------------------------------ numpy reference


def run_numpy(array: np.ndarray, steps: Sequence[LayoutStep]) -> np.ndarray:
    """What the layout chain computes, with numpy's (row-major) semantics."""
    for step in steps:
        match step:
            case Reshape(new_shape=shape) | ExpandShape(new_shape=shape):
                array = array.reshape(shape)
            case CollapseShape(reassociation=groups):
                array = array.reshape([prod(array.shape[i] for i in g) for g in groups])
            case Transpose(permutation=perm):
                array = np.transpose(array, perm)
            case Broadcast(dimensions=dims, new_shape=shape):
                array = np.broadcast_to(np.expand_dims(array, tuple(sorted(dims))), shape)
    return array


def evaluate(axis_terms: Sequence[AxisTerms], points: np.ndarray) -> tuple[np.ndarray, ...]:
    """Axis indices at every refined point; `points` is (num_dims, num_points)."""
    zeros = np.zeros(points.shape[1], dtype=np.int64)
    return tuple(sum((stride * points[d] for d, stride in terms), zeros) for terms in axis_terms)


def check_map(m: AxisMap, producer_shape: Sequence[int], consumer: np.ndarray) -> None:
    """The map is a bijection onto the consumer that reads the right producer elements."""
    assert all(size >= 1 for size in m.refined)
    points = np.indices(m.refined).reshape(len(m.refined), prod(m.refined))
    producer = np.arange(prod(producer_shape)).reshape(producer_shape)
    p_idx, c_idx = evaluate(m.producer, points), evaluate(m.consumer, points)
    assert len(p_idx) == producer.ndim and len(c_idx) == consumer.ndim
    for idx, shape in [(p_idx, producer.shape), (c_idx, consumer.shape)]:
        for axis_index, size in zip(idx, shape):
            assert axis_index.min() >= 0 and axis_index.max() < size
    # Every consumer element is written exactly once.
    flat = np.ravel_multi_index(c_idx, consumer.shape) if consumer.ndim else np.zeros(1, int)
    assert prod(m.refined) == consumer.size
    assert len(np.unique(flat)) == consumer.size
    np.testing.assert_array_equal(producer[p_idx], consumer[c_idx])
    # Broadcast dims are exactly the ones the producer does not read.
    read = {d for terms in m.producer for d, _ in terms}
    assert set(m.broadcast) == set(range(len(m.refined))) - read
    # The xDSL maps agree with the terms (spot-check a few points, eval is slow).
    p_map, c_map = m.producer_map(), m.consumer_map()
    assert p_map.num_dims == c_map.num_dims == len(m.refined)
    for k in np.linspace(0, points.shape[1] - 1, num=min(5, points.shape[1])).astype(int):
        at = [int(v) for v in points[:, k]]
        assert p_map.eval(at, []) == tuple(int(i[k]) for i in p_idx)
        assert c_map.eval(at, []) == tuple(int(i[k]) for i in c_idx)


def trace_and_check(shape: Sequence[int], steps: Sequence[LayoutStep]) -> AxisMap:
    m = trace(shape, steps)
    assert m is not None
    check_map(m, shape, run_numpy(np.arange(prod(shape)).reshape(shape), steps))
    return m


# ------------------------------------------------------------------ worked examples


def test_yolo_head() -> None:
    m = trace_and_check([1, 255, 80, 80], YOLO_STEPS)
    assert m.refined == (1, 3, 80, 80, 85)
    assert m.producer == (((0, 1),), ((1, 85), (4, 1)), ((2, 1),), ((3, 1),))
    assert str(m.producer_map()) == "(d0, d1, d2, d3, d4) -> (d0, ((d1 * 85) + d4), d2, d3)"
    assert m.consumer_map() == AffineMap.identity(5)
    assert m.broadcast == ()
    assert not m.is_producer_axis_whole(1)
    assert m.producer_axis_dims(1) == (1, 4)
    assert [m.producer_axis_dim(k) for k in (0, 2, 3)] == [0, 2, 3]
    assert m.producer_axis_of(4) == 1 and m.producer_axis_of(2) == 2


def test_yolo_head_via_reshape_matches_expand_shape() -> None:
    via_reshape = trace([1, 255, 80, 80], [Reshape([1, 3, 85, 80, 80]), YOLO_STEPS[1]])
    assert via_reshape == trace([1, 255, 80, 80], YOLO_STEPS)


def test_flatten_collapse() -> None:
    m = trace_and_check([1, 16, 2, 2], [CollapseShape([[0], [1, 2, 3]])])
    assert m.refined == (1, 16, 2, 2)
    assert m.producer_map() == AffineMap.identity(4)
    assert m.consumer == (((0, 1),), ((1, 4), (2, 2), (3, 1)))
    assert all(m.is_producer_axis_whole(k) for k in range(4))


def test_transpose_only() -> None:
    m = trace_and_check([2, 3, 4], [Transpose([2, 0, 1])])
    assert m.refined == (4, 2, 3)
    assert str(m.producer_map()) == "(d0, d1, d2) -> (d1, d2, d0)"
    assert m.consumer_map() == AffineMap.identity(3)
    assert [m.producer_axis_dim(k) for k in range(3)] == [1, 2, 0]


def test_bias_viewed_as_3x85_and_broadcast() -> None:
    steps: list[LayoutStep] = [
        ExpandShape([[0, 1]], [3, 85]),
        Broadcast([0, 3, 4], [1, 3, 85, 80, 80]),
        YOLO_STEPS[1],
    ]
    m = trace_and_check([255], steps)
    assert m.refined == (1, 3, 80, 80, 85)
    assert m.producer == (((1, 85), (4, 1)),)
    assert m.broadcast == (0, 2, 3)
    assert str(m.producer_map()) == "(d0, d1, d2, d3, d4) -> (((d1 * 85) + d4))"
    # Broadcasting first and reshaping after gives the same map ...
    other = [Broadcast([0, 2, 3], [1, 255, 80, 80]), *YOLO_STEPS]
    assert trace_and_check([255], other) == m
    # ... and it shares the conv's loop space, so both are operands of one generic.
    conv = trace([1, 255, 80, 80], YOLO_STEPS)
    assert conv is not None and align([conv, m]) == (conv, m)


def test_no_common_refinement() -> None:
    assert trace([6, 35], [Reshape([3, 7, 2, 5])]) is None
    # Transposed data cannot be re-split: flat index 3a+b is not affine in (i, j).
    steps = [Transpose([1, 0]), CollapseShape([[0, 1]]), ExpandShape([[0, 1]], [2, 3])]
    assert trace([2, 3], steps) is None


def test_merge_then_split() -> None:
    m = trace_and_check([6, 4], [Reshape([24]), Reshape([2, 12])])
    assert m.refined == (2, 3, 4)
    assert m.producer == (((0, 3), (1, 1)), ((2, 1),))
    assert m.consumer == (((0, 1),), ((1, 4), (2, 1)))
    assert trace([6, 4], [Reshape([24]), Reshape([4, 6])]) is None


def test_unit_dims_are_normalised() -> None:
    # A unit axis merged into a real one disappears; a new unit axis is a fresh dim.
    m = trace_and_check([1, 85], [CollapseShape([[0, 1]]), ExpandShape([[0, 1]], [85, 1])])
    assert m.refined == (85, 1)
    assert m.producer == ((), ((0, 1),))
    assert m.broadcast == (1,)
    assert not m.is_producer_axis_whole(0)


def test_rank_zero() -> None:
    m = trace_and_check([1, 1], [CollapseShape([])])
    assert m.refined == () and m.producer == ((), ())
    m = trace_and_check([], [ExpandShape([], [1, 1]), Broadcast([2], [1, 1, 3])])
    assert m.refined == (1, 1, 3) and m.broadcast == (0, 1, 2)


def test_affine_map_helper() -> None:
    amap = to_affine_map([((1, 85), (4, 1)), (), ((0, 1),)], 5)
    assert str(amap) == "(d0, d1, d2, d3, d4) -> (((d1 * 85) + d4), 0, d0)"
    assert amap.eval([7, 2, 0, 0, 3], []) == (173, 0, 7)


def test_empty_tensors_are_refused() -> None:
    assert trace([0, 4], [Transpose([1, 0])]) is None
    assert trace([4], [Broadcast([0], [0, 4])]) is None


@pytest.mark.parametrize(
    "shape, step",
    [
        ([2, 3], Transpose([0, 0])),
        ([2, 3], Reshape([5])),
        ([6], ExpandShape([[0, 1]], [2, 2])),
        ([6], ExpandShape([[0], [1]], [2, 3])),
        ([2, 3], CollapseShape([[1], [0]])),
        ([2, 3], Broadcast([0], [4, 2, 5])),
        ([2, 3], Broadcast([0, 0], [4, 2, 3])),
        ([2, 3], CollapseShape([])),
    ],
)
def test_malformed_steps_raise(shape: list[int], step: LayoutStep) -> None:
    with pytest.raises(ValueError):
        trace(shape, [step])


# ------------------------------------------------------------------ dynamic sizes


def concretise(m: AxisMap, size: int) -> AxisMap:
    refined = tuple(size if s < 0 else s for s in m.refined)
    return AxisMap(refined, m.producer, m.consumer, m.broadcast)


def concretise_steps(steps: Sequence[LayoutStep], size: int) -> list[LayoutStep]:
    def fix(shape: Sequence[int]) -> list[int]:
        return [size if s < 0 else s for s in shape]

    out: list[LayoutStep] = []
    for step in steps:
        match step:
            case Reshape(new_shape=shape):
                out.append(Reshape(fix(shape)))
            case ExpandShape(reassociation=groups, new_shape=shape):
                out.append(ExpandShape(groups, fix(shape)))
            case Broadcast(dimensions=dims, new_shape=shape):
                out.append(Broadcast(dims, fix(shape)))
            case _:
                out.append(step)
    return out


@pytest.mark.parametrize(
    "shape, steps, refined",
    [
        ([-1, 4, 5], [Transpose([2, 0, 1])], (5, -1, 4)),
        ([-1, 4], [Broadcast([0, 3], [2, -1, 4, 3])], (2, -1, 4, 3)),
        ([1, -1, 4], [CollapseShape([[0, 1], [2]])], (-1, 4)),
        ([-1, 6], [ExpandShape([[0, 1], [2, 3]], [1, -1, 2, 3])], (1, -1, 2, 3)),
        ([2, -1, 6], [Reshape([2, -1, 2, 3])], (2, -1, 2, 3)),
        ([1, -1, 12], [Reshape([-1, 3, 4]), Transpose([2, 0, 1])], (4, -1, 3)),
    ],
)
def test_dynamic_dims_that_pass_through(
    shape: list[int], steps: list[LayoutStep], refined: tuple[int, ...]
) -> None:
    m = trace(shape, steps)
    assert m is not None and m.refined == refined
    for n in (1, 3):  # the map must be right whatever the dynamic size turns out to be
        concrete = [n if s < 0 else s for s in shape]
        producer = np.arange(prod(concrete)).reshape(concrete)
        consumer = run_numpy(producer, concretise_steps(steps, n))
        check_map(concretise(m, n), concrete, consumer)


@pytest.mark.parametrize(
    "shape, steps",
    [
        ([-1, 4], [CollapseShape([[0, 1]])]),  # merging a dynamic dim: stride of the major is ?
        ([-1], [ExpandShape([[0, 1]], [-1, 4])]),  # splitting a dynamic dim
        ([-1, 2, -1], [Reshape([-1, 2, -1])]),  # [3,2,4] -> [4,2,3] fits this too
        ([2, -1], [Reshape([-1, 2])]),
        ([-1, 6], [Reshape([-1, 4])]),
    ],
)
def test_dynamic_dims_refused(shape: list[int], steps: list[LayoutStep]) -> None:
    assert trace(shape, steps) is None


# ------------------------------------------------------------------ random chains


def prime_factors(n: int) -> list[int]:
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out + ([n] if n > 1 else [])


@st.composite
def regroup(draw: st.DrawFn, primes: Sequence[int]) -> list[int]:
    """Cut a prime sequence into contiguous groups and sprinkle in a few unit dims."""
    groups: list[int] = []
    current = 1
    for i, p in enumerate(primes):
        current *= p
        if i == len(primes) - 1 or draw(st.booleans()):
            groups.append(current)
            current = 1
    for _ in range(draw(st.integers(0, 2 if groups else 1))):
        groups.insert(draw(st.integers(0, len(groups))), 1)
    return groups


@st.composite
def factorization(draw: st.DrawFn, shape: Sequence[int]) -> list[int]:
    """A new shape of the same size: often a regrouping of `shape`'s primes, else shuffled."""
    primes = [p for size in shape for p in prime_factors(size)]
    if draw(st.booleans()):
        primes = draw(st.permutations(primes))
    return draw(regroup(primes))


@st.composite
def layout_step(draw: st.DrawFn, shape: list[int], kinds: Sequence[str]) -> LayoutStep:
    kind = draw(st.sampled_from([k for k in kinds if k != "broadcast" or prod(shape) <= 4096]))
    rank = len(shape)
    if kind == "reshape":
        return Reshape(draw(factorization(shape)))
    if kind == "expand" and rank > 0:
        groups, new_shape = [], []
        for size in shape:
            pieces = draw(regroup(draw(st.permutations(prime_factors(size)))))
            pieces = pieces or [1]
            groups.append(list(range(len(new_shape), len(new_shape) + len(pieces))))
            new_shape.extend(pieces)
        return ExpandShape(groups, new_shape)
    if kind == "collapse" and rank > 0:
        cuts = [draw(st.booleans()) for _ in range(rank - 1)]
        groups, current = [], [0]
        for i, cut in enumerate(cuts, start=1):
            if cut:
                groups.append(current)
                current = []
            current.append(i)
        return CollapseShape([*groups, current])
    if kind == "broadcast":
        added = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
        new_rank = rank + len(added)
        positions = st.integers(0, new_rank - 1)
        n = len(added)
        dims = sorted(draw(st.lists(positions, min_size=n, max_size=n, unique=True)))
        sizes = iter(shape)
        new_shape = [added[dims.index(j)] if j in dims else next(sizes) for j in range(new_rank)]
        return Broadcast(dims, new_shape)
    return Transpose(draw(st.permutations(range(rank))))


def shape_after(shape: list[int], step: LayoutStep) -> list[int]:
    return list(run_numpy(np.zeros(shape, dtype=np.int8), [step]).shape)


ALL_KINDS = ("reshape", "expand", "collapse", "transpose", "broadcast")
Chain = tuple[list[int], list[LayoutStep]]


@st.composite
def chains(
    draw: st.DrawFn, kinds: Sequence[str] = ALL_KINDS
) -> Chain:
    shape = draw(st.lists(st.integers(1, 12), max_size=4).filter(lambda s: prod(s) <= 4096))
    steps: list[LayoutStep] = []
    current = shape
    for _ in range(draw(st.integers(1, 4))):
        step = draw(layout_step(current, kinds))
        steps.append(step)
        current = shape_after(current, step)
    return shape, steps


@settings(max_examples=budget(400))
@given(chains())
def test_random_chains_read_the_right_elements(chain: Chain) -> None:
    shape, steps = chain
    m = trace(shape, steps)
    if m is not None:
        check_map(m, shape, run_numpy(np.arange(prod(shape)).reshape(shape), steps))
        assert align([m]) == (m,)  # a map is already aligned with itself


@settings(max_examples=budget(150))
@given(chains(kinds=("collapse", "transpose", "broadcast")))
def test_merging_moving_and_broadcasting_always_refine(chain: Chain) -> None:
    shape, steps = chain
    trace_and_check(shape, steps)  # nothing is split, so a refinement always exists


@settings(max_examples=budget(150))
@given(chains(), st.data())
def test_align_two_producers(chain: Chain, data: st.DataObject) -> None:
    """A second producer reshaped straight into the same consumer shape shares the loops."""
    shape, steps = chain
    first = trace(shape, steps)
    consumer_shape = shape_after_all(shape, steps)
    other_shape = data.draw(factorization(consumer_shape))
    second = trace(other_shape, [Reshape(consumer_shape)])
    assume(first is not None and second is not None)
    aligned = align([first, second])
    assume(aligned is not None)
    a, b = aligned
    assert a.refined == b.refined
    check_map(a, shape, run_numpy(np.arange(prod(shape)).reshape(shape), steps))
    other = np.arange(prod(other_shape)).reshape(other_shape).reshape(consumer_shape)
    check_map(b, other_shape, other)


def shape_after_all(shape: list[int], steps: Sequence[LayoutStep]) -> list[int]:
    for step in steps:
        shape = shape_after(shape, step)
    return shape


def test_align_refuses_cuts_that_do_not_nest() -> None:
    a, b = trace([6, 4], [Reshape([24])]), trace([4, 6], [Reshape([24])])
    assert a is not None and b is not None and align([a, b]) is None
    c = trace([2, 12], [Reshape([24])])
    assert c is not None
    aligned = align([a, c])
    assert aligned is not None
    assert aligned[0].refined == (2, 3, 4)
    assert str(aligned[0].producer_map()) == "(d0, d1, d2) -> (((d0 * 3) + d1), d2)"


# ------------------------------------------- reshape pairs against a brute-force oracle


@lru_cache(maxsize=None)
def ordered_factorizations(n: int) -> tuple[tuple[int, ...], ...]:
    """Every way to write n as an ordered product of factors > 1."""
    if n == 1:
        return ((),)
    return tuple(
        (d, *rest) for d in range(2, n + 1) if n % d == 0 for rest in ordered_factorizations(n // d)
    )


def prefix_products(shape: Sequence[int]) -> set[int]:
    return {prod(shape[: i + 1]) for i in range(len(shape))}


def refinement_exists(a: Sequence[int], b: Sequence[int]) -> bool:
    """By definition: some factor list groups into both shapes (each axis a contiguous run).

    A shape is a grouping of a factor list iff the list cuts at every prefix product of
    the shape; unit axes are empty runs, so they never matter.
    """
    needed = prefix_products(a) | prefix_products(b)
    return any(needed <= prefix_products(f) | {1} for f in ordered_factorizations(prod(a)))


@settings(max_examples=budget(300))
@given(st.lists(st.integers(1, 12), min_size=1, max_size=4).filter(lambda s: prod(s) <= 720),
       st.data())
def test_reshape_refuses_only_when_it_must(shape: list[int], data: st.DataObject) -> None:
    # Shuffled primes: about half of these pairs have no common refinement.
    primes = data.draw(st.permutations([p for size in shape for p in prime_factors(size)]))
    target = data.draw(regroup(primes))
    m = trace(shape, [Reshape(target)])
    assert (m is not None) == refinement_exists(shape, target)
    if m is not None:
        check_map(m, shape, np.arange(prod(shape)).reshape(target))
