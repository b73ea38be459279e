"""The evaluator on reductions into every family of output map, against a literal numpy loop nest.

torch-mlir reduces into maps that keep the reduced axes as unit dims (`(d0, d1, 0, 0)` for
AdaptiveAvgPool2d(1), `(d0, d1, d2, 0)` for softmax's sum), drops them (`(d0, d1)`), permutes the
kept ones, or reduces everything into a rank-0 or all-unit output. The reference below runs MLIR's
semantics word for word: every point of the loop space in lexicographic order, the body on scalars,
the running value read from and written back to the output element the map names. It shares no
code with the evaluator, which vectorises (numpy reductions, einsum, or a loop over reduction
points only).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heirpy.interp import load_module, run_function

# How the output map keeps the loops that are not reduced (and what it does with the reduced ones).
# "parallel": no reduction; the output map keeps some loops, permuted, with unit dims, and the
# loops it drops write the same element repeatedly (the last write wins).
FAMILIES = ("dropped", "unit", "permuted", "unit-permuted", "all-unit", "rank-0", "parallel")
# body kinds: a combiner the evaluator reduces with numpy, a contraction it hands to einsum, and a
# body that reads the running value twice, which it must run in loop order.
BODIES = ("add", "mul", "max", "min", "contract", "loop-order")

_SCALAR: dict[str, Callable[[float, float], float]] = {
    "add": lambda acc, v: acc + v,
    "mul": lambda acc, v: acc * v,
    "max": max,
    "min": min,
}
_ARITH = {"add": "arith.addf", "mul": "arith.mulf", "max": "arith.maximumf", "min": "arith.minimumf"}


@dataclass(frozen=True)
class Case:
    sizes: tuple[int, ...]
    reduced: tuple[int, ...]  # loop dims with the "reduction" iterator
    input_dims: tuple[int, ...]  # input 0's map: a permutation of all loops
    weight_dims: tuple[int, ...]  # input 1's map (contract only): a subset of loops, in order
    out_exprs: tuple[int | str, ...]  # output map results: a loop dim or the constant "0"
    body: str

    @property
    def out_shape(self) -> tuple[int, ...]:
        return tuple(1 if e == "0" else self.sizes[e] for e in self.out_exprs)


@st.composite
def cases(draw: st.DrawFn, family: str) -> Case:
    rank = draw(st.integers(1, 4))
    sizes = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    reduced = tuple(sorted(draw(st.sets(st.integers(0, rank - 1), min_size=1))))
    if family in ("all-unit", "rank-0"):
        reduced = tuple(range(rank))
    kept = [d for d in range(rank) if d not in reduced]
    if family == "parallel":
        reduced = ()
        kept = sorted(draw(st.sets(st.integers(0, rank - 1))))
    exprs: list[int | str] = list(kept)
    if family in ("permuted", "unit-permuted", "parallel"):
        exprs = list(draw(st.permutations(kept)))
    if family in ("unit", "unit-permuted") or (family == "parallel" and draw(st.booleans())):
        for _ in range(draw(st.integers(1, 2))):
            exprs.insert(draw(st.integers(0, len(exprs))), "0")
    if family == "all-unit":
        exprs = ["0"] * draw(st.integers(1, 3))
    input_dims = tuple(draw(st.permutations(range(rank))))
    weight_dims = tuple(d for d in range(rank) if draw(st.booleans()) or d in reduced)
    body = "copy" if family == "parallel" else draw(st.sampled_from(BODIES))
    return Case(sizes, reduced, input_dims, weight_dims, tuple(exprs), body)


def _map(rank: int, results: tuple[int | str, ...]) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    body = ", ".join(r if isinstance(r, str) else f"d{r}" for r in results)
    return f"affine_map<({dims}) -> ({body})>"


def _type(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def program(case: Case) -> str:
    rank = len(case.sizes)
    x_shape = tuple(case.sizes[d] for d in case.input_dims)
    w_shape = tuple(case.sizes[d] for d in case.weight_dims)
    iterators = ", ".join('"reduction"' if d in case.reduced else '"parallel"' for d in range(rank))
    maps = [_map(rank, case.input_dims)]
    ins, in_types, block_args = "%x", _type(x_shape), "%in: f32"
    if case.body == "contract":
        maps.append(_map(rank, case.weight_dims))
        ins, in_types, block_args = "%x, %w", f"{_type(x_shape)}, {_type(w_shape)}", "%in: f32, %wt: f32"
    maps.append(_map(rank, case.out_exprs))
    if case.body == "contract":
        body = "%p = arith.mulf %in, %wt : f32\n      %r = arith.addf %out, %p : f32"
    elif case.body == "copy":
        body = "%r = arith.mulf %in, %two : f32"
    elif case.body == "loop-order":
        # acc/2 + in * acc/2: the running value feeds two ops, so no numpy reduction applies.
        body = ("%h = arith.mulf %out, %half : f32\n      %q = arith.mulf %in, %h : f32\n"
                "      %r = arith.addf %h, %q : f32")
    else:
        body = f"%r = {_ARITH[case.body]} %out, %in : f32"
    out = _type(case.out_shape)
    return f"""
func.func @main(%x: {_type(x_shape)}, %w: {_type(w_shape)}, %init: {out}) -> {out} {{
  %half = arith.constant 0.5 : f32
  %two = arith.constant 2.0 : f32
  %0 = linalg.generic {{indexing_maps = [{", ".join(maps)}], iterator_types = [{iterators}]}}
      ins({ins} : {in_types}) outs(%init : {out}) {{
    ^bb0({block_args}, %out: f32):
      {body}
      linalg.yield %r : f32
  }} -> {out}
  func.return %0 : {out}
}}
"""


def reference(case: Case, x: np.ndarray, w: np.ndarray, init: np.ndarray) -> np.ndarray:
    """MLIR's loop nest, literally, in float64 (the evaluator's float32 is compared with a tolerance)."""
    out = init.astype(np.float64).copy()
    for point in itertools.product(*(range(n) for n in case.sizes)):
        where = tuple(0 if e == "0" else point[e] for e in case.out_exprs)
        value = float(x[tuple(point[d] for d in case.input_dims)])
        acc = float(out[where])
        if case.body == "contract":
            acc = acc + value * float(w[tuple(point[d] for d in case.weight_dims)])
        elif case.body == "copy":
            acc = 2.0 * value
        elif case.body == "loop-order":
            acc = acc * 0.5 + value * (acc * 0.5)
        else:
            acc = _SCALAR[case.body](acc, value)
        out[where] = acc
    return out


def check(case: Case, seed: int) -> None:
    rng = np.random.default_rng(seed)
    # Near 1, so a product or the loop-order body over 256 points stays finite in float32.
    x = rng.uniform(0.8, 1.2, tuple(case.sizes[d] for d in case.input_dims)).astype(np.float32)
    w = rng.uniform(-1, 1, tuple(case.sizes[d] for d in case.weight_dims)).astype(np.float32)
    init = rng.uniform(-1, 1, case.out_shape).astype(np.float32)
    loaded = load_module(program(case))
    (got,) = run_function(loaded.module, "main", [x, w, init])
    want = reference(case, x, w, init)
    assert got.shape == want.shape, program(case)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=program(case))


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_reduction_into_output_map_family(family: str, data: st.DataObject) -> None:
    check(data.draw(cases(family)), data.draw(st.integers(0, 2**16)))


# The two maps that failed before (issue 11), as torch-mlir emits them, at their real sizes.
@pytest.mark.parametrize(
    "case",
    [
        # AdaptiveAvgPool2d(1): sum over H, W into (d0, d1, 0, 0)
        Case((1, 64, 32, 32), (2, 3), (0, 1, 2, 3), (), (0, 1, "0", "0"), "add"),
        # softmax's denominator: sum over the last axis into (d0, d1, d2, 0)
        Case((1, 3, 197, 197), (3,), (0, 1, 2, 3), (), (0, 1, 2, "0"), "add"),
    ],
    ids=["global-avg-pool", "softmax-sum"],
)
def test_torch_unit_dim_reductions(case: Case) -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal(case.sizes).astype(np.float32)
    init = np.zeros(case.out_shape, np.float32)
    loaded = load_module(program(case))
    (got,) = run_function(loaded.module, "main", [x, np.zeros((), np.float32), init])
    axes = tuple(case.reduced)
    np.testing.assert_allclose(got, x.sum(axis=axes, keepdims=True, dtype=np.float64), rtol=1e-5, atol=1e-4)
