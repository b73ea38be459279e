"""Axis maps: how a chain of layout ops re-indexes a producer's axes.

A chain of reshapes, transposes and broadcasts between two pointwise ops moves no data
when the shapes along the chain share a *common refinement*: a list of "refined" dims
such that every axis of every shape in the chain is a contiguous run of refined dims
(major to minor).  Then one `linalg.generic` can loop over the refined dims and read the
producer, and write the consumer, through affine maps whose results are plain linear
combinations `d_i * stride + d_j * stride + ...` of the loop dims -- no div or mod.

Worked example (YOLOv5s head)::

    producer  1x255x80x80                          conv + bias
    -> ExpandShape([[0], [1, 2], [3], [4]], [1, 3, 85, 80, 80])
    -> Transpose([0, 1, 3, 4, 2])                  result 1x3x80x80x85
    consumer  1x3x80x80x85                         sigmoid

    trace([1, 255, 80, 80], steps).refined  == (1, 3, 80, 80, 85)
    producer map  (d0, d1, d2, d3, d4) -> (d0, d1 * 85 + d4, d2, d3)
    consumer map  (d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)

Conventions
-----------
* The refined dims are ordered like the final consumer: its axes in order, each split
  into its refined factors major to minor.  So the consumer map is the identity whenever
  no consumer axis is split, and never needs delinearisation.
* An axis is described by *terms*, a tuple of `(refined_dim, stride)` pairs with
  `axis_index = sum(stride * refined_index)`.  An empty tuple means the index is always 0.
* Unit dims carry no information, so they are normalised: an axis keeps at most one
  size-1 refined dim and only when it has size 1 itself; a size-1 producer axis whose unit
  dim does not survive the chain gets empty terms.  A size-1 consumer axis made by a
  reshape gets a fresh unit refined dim that no producer axis reads.
* `broadcast` lists the refined dims no producer axis reads: dims added by `Broadcast`,
  plus the fresh unit dims just mentioned.
* Sizes are ints; a negative size is dynamic (MLIR's `?`).  Dynamic axes may go through
  `Transpose` and `Broadcast` unchanged and through reshapes only when they map to exactly
  one dynamic axis on the other side, next to nothing but size-1 axes.  Every other use of
  a dynamic dim (splitting or merging it with a static non-unit dim, a `Reshape` with more
  than one dynamic dim on a side) gives None, because the strides would not be constants
  or the reshape would be ambiguous.
* Malformed steps (bad permutation, products that disagree, ...) raise ValueError; a
  well-formed chain without a common refinement returns None.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.ir.affine import AffineExpr, AffineMap

Term = tuple[int, int]
"""(refined_dim, stride): one summand of an axis index."""

AxisTerms = tuple[Term, ...]


def _is_dynamic(size: int) -> bool:
    return size < 0


def _to_int_tuple(values: Sequence[int]) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def _to_groups(groups: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(_to_int_tuple(g) for g in groups)


# --------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class Reshape:
    """`tensor.reshape` (or any reshape without a reassociation) to `new_shape`."""

    new_shape: tuple[int, ...]

    def __post_init__(self) -> None:
        # Normalise lists to tuples so steps stay hashable and comparable.
        object.__setattr__(self, "new_shape", _to_int_tuple(self.new_shape))


@dataclass(frozen=True)
class ExpandShape:
    """`tensor.expand_shape`: input axis i becomes result axes `reassociation[i]`.

    Example: `ExpandShape([[0], [1, 2], [3], [4]], [1, 3, 85, 80, 80])` on 1x255x80x80.
    """

    reassociation: tuple[tuple[int, ...], ...]
    new_shape: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "reassociation", _to_groups(self.reassociation))
        object.__setattr__(self, "new_shape", _to_int_tuple(self.new_shape))


@dataclass(frozen=True)
class CollapseShape:
    """`tensor.collapse_shape`: result axis j merges input axes `reassociation[j]`.

    Example: `CollapseShape([[0], [1, 2, 3]])` flattens 1x16x2x2 to 1x64.
    """

    reassociation: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "reassociation", _to_groups(self.reassociation))


@dataclass(frozen=True)
class Transpose:
    """`linalg.transpose`: result axis i is input axis `permutation[i]`."""

    permutation: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "permutation", _to_int_tuple(self.permutation))


@dataclass(frozen=True)
class Broadcast:
    """`linalg.broadcast`: `dimensions` are the result axes that are ADDED.

    The input axes map in order to the remaining result axes.  Example: a bias of shape
    [255] broadcast to 1x255x80x80 is `Broadcast([0, 2, 3], [1, 255, 80, 80])`.
    """

    dimensions: tuple[int, ...]
    new_shape: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dimensions", _to_int_tuple(self.dimensions))
        object.__setattr__(self, "new_shape", _to_int_tuple(self.new_shape))


LayoutStep = Reshape | ExpandShape | CollapseShape | Transpose | Broadcast


# ------------------------------------------------------------------------ the result


@dataclass(frozen=True)
class AxisMap:
    """How the producer and the consumer of a layout chain index one refined loop space.

    YOLO example (see the module docstring)::

        refined   = (1, 3, 80, 80, 85)
        producer  = (((0, 1),), ((1, 85), (4, 1)), ((2, 1),), ((3, 1),))
        consumer  = (((0, 1),), ((1, 1),), ((2, 1),), ((3, 1),), ((4, 1),))
        broadcast = ()
    """

    refined: tuple[int, ...]
    """Size of each refined dim (loop dim), in consumer order; negative = dynamic."""
    producer: tuple[AxisTerms, ...]
    """For each producer axis, its index as (refined_dim, stride) terms, major first."""
    consumer: tuple[AxisTerms, ...]
    """For each consumer axis, its index as (refined_dim, stride) terms, major first."""
    broadcast: tuple[int, ...]
    """Refined dims that no producer axis reads, ascending."""

    @property
    def num_dims(self) -> int:
        return len(self.refined)

    def producer_map(self) -> AffineMap:
        """Indexing map of the producer operand, e.g. `(d0..d4) -> (d0, d1*85 + d4, d2, d3)`."""
        return to_affine_map(self.producer, self.num_dims)

    def consumer_map(self) -> AffineMap:
        """Indexing map of the consumer operand (the identity unless an axis is split)."""
        return to_affine_map(self.consumer, self.num_dims)

    def producer_axis_dims(self, axis: int) -> tuple[int, ...]:
        """Refined dims that producer `axis` spans, major first (YOLO axis 1 -> (1, 4))."""
        return tuple(dim for dim, _ in self.producer[axis])

    def consumer_axis_dims(self, axis: int) -> tuple[int, ...]:
        """Refined dims that consumer `axis` spans, major first."""
        return tuple(dim for dim, _ in self.consumer[axis])

    def producer_axis_dim(self, axis: int) -> int | None:
        """The one refined dim producer `axis` is, if it is kept whole, else None.

        "Whole" means exactly one refined dim with stride 1: the axis was neither split
        nor merged, only moved.  A size-1 axis whose unit dim was dropped is not whole.
        A legality check uses this to refuse chains that split or merge a reduced axis.
        """
        terms = self.producer[axis]
        if len(terms) == 1 and terms[0][1] == 1:
            return terms[0][0]
        return None

    def is_producer_axis_whole(self, axis: int) -> bool:
        """True iff producer `axis` is one refined dim with stride 1 (YOLO: axis 1 False)."""
        return self.producer_axis_dim(axis) is not None

    def producer_axis_of(self, refined_dim: int) -> int | None:
        """The producer axis that reads `refined_dim`, or None for a broadcast dim."""
        for axis, terms in enumerate(self.producer):
            if any(dim == refined_dim for dim, _ in terms):
                return axis
        return None


# ------------------------------------------------------------------- affine helpers


def to_affine_expr(terms: Sequence[Term]) -> AffineExpr:
    """`((1, 85), (4, 1))` -> `d1 * 85 + d4`; no terms -> the constant 0."""
    expr: AffineExpr = AffineExpr.constant(0)
    for dim, stride in terms:
        # xDSL folds `* 1` and `+ 0`, so the common cases print as bare dims.
        expr = expr + AffineExpr.dimension(dim) * stride
    return expr


def to_affine_exprs(axis_terms: Sequence[Sequence[Term]]) -> tuple[AffineExpr, ...]:
    """One expression per axis, see `to_affine_expr`."""
    return tuple(to_affine_expr(terms) for terms in axis_terms)


def to_affine_map(axis_terms: Sequence[Sequence[Term]], num_dims: int) -> AffineMap:
    """An indexing map over `num_dims` loop dims with one result per axis."""
    return AffineMap(num_dims, 0, to_affine_exprs(axis_terms))


# ---------------------------------------------------------------------- the tracer


class _Space:
    """The refined dims found so far, and which of them each producer axis spans.

    Refined dims get stable integer ids; their final positions are assigned once the
    consumer is known.  Splitting or dropping a dim must also update the producer's view,
    which is why this small bit of shared mutable state exists.
    """

    def __init__(self, producer_shape: Sequence[int]) -> None:
        self.sizes: dict[int, int] = dict(enumerate(producer_shape))
        self.producer: list[list[int]] = [[i] for i in range(len(producer_shape))]
        self.next_id = len(producer_shape)

    def fresh(self, size: int) -> int:
        dim = self.next_id
        self.next_id += 1
        self.sizes[dim] = size
        return dim

    def split(self, dim: int, outer: int) -> tuple[int, int]:
        """Replace `dim` (size outer*inner) by two dims (outer, inner), major first."""
        inner = self.sizes[dim] // outer
        major, minor = self.fresh(outer), self.fresh(inner)
        del self.sizes[dim]
        for axis in self.producer:
            if dim in axis:
                at = axis.index(dim)
                axis[at : at + 1] = [major, minor]
        return major, minor

    def drop(self, dim: int) -> None:
        """Forget a unit dim: its index is always 0, so no axis needs it."""
        assert self.sizes[dim] == 1
        del self.sizes[dim]
        for axis in self.producer:
            if dim in axis:
                axis.remove(dim)


Axes = list[list[int]]
"""The current tensor's axes, each a list of refined dim ids, major first."""


def _axis_size(space: _Space, axis: list[int]) -> int:
    sizes = [space.sizes[d] for d in axis]
    return -1 if any(_is_dynamic(s) for s in sizes) else prod(sizes)


def _shape(space: _Space, axes: Axes) -> list[int]:
    return [_axis_size(space, axis) for axis in axes]


def _split_into(space: _Space, dims: Sequence[int], target: Sequence[int]) -> Axes | None:
    """Regroup the run of refined `dims` into axes of sizes `target`.

    Greedy and complete: a refined dim either fits whole in the remaining need, or the
    need fits in it and it is split; if neither divides the other, the prefix products
    of the two shapes interleave without dividing each other and no refinement exists.
    E.g. [6, 4] -> [2, 12]: 6 splits into 2x3, then 12 = 3x4, refined [2, 3, 4].
    """
    queue = deque(dims)
    out: Axes = []
    for size in target:
        if size == 1:
            # Reuse a unit dim when one is next, so the producer keeps its `d_i`.
            unit = queue.popleft() if queue and space.sizes[queue[0]] == 1 else space.fresh(1)
            out.append([unit])
            continue
        axis: list[int] = []
        need = size
        while need != 1:
            if not queue:
                return None
            dim = queue.popleft()
            have = space.sizes[dim]
            if have == 1:
                space.drop(dim)  # Unit dims never share an axis with others.
            elif _is_dynamic(need) or _is_dynamic(have):
                if not (_is_dynamic(need) and _is_dynamic(have)):
                    return None
                axis.append(dim)
                need = 1
            elif need % have == 0:
                axis.append(dim)
                need //= have
            elif have % need == 0:
                major, minor = space.split(dim, need)
                axis.append(major)
                queue.appendleft(minor)
                need = 1
            else:
                return None
        out.append(axis)
    for dim in queue:
        if space.sizes[dim] != 1:
            return None  # Only reachable with dynamic dims; static sizes were checked.
        space.drop(dim)
    return out


def _merge(space: _Space, axes: Sequence[list[int]]) -> list[int] | None:
    """Concatenate axes into one, keeping the unit-dim normal form; None if dynamic."""
    dims = [d for axis in axes for d in axis]
    non_unit = [d for d in dims if space.sizes[d] != 1]
    if any(_is_dynamic(space.sizes[d]) for d in non_unit) and len(non_unit) > 1:
        return None  # The major dims' strides would depend on a dynamic size.
    keep = non_unit if non_unit else dims[:1]
    for dim in dims:
        if dim not in keep:
            space.drop(dim)
    return keep


def _check_groups(groups: Sequence[Sequence[int]], rank: int, what: str) -> None:
    flat = [d for g in groups for d in g]
    if flat != list(range(rank)) or any(len(g) == 0 for g in groups):
        raise ValueError(f"{what}: reassociation {groups} must cover 0..{rank - 1} in order")


def _same_size(a: int, b: int) -> bool:
    return a == b or (_is_dynamic(a) and _is_dynamic(b))


def _apply_reshape(space: _Space, axes: Axes, step: Reshape) -> Axes | None:
    old, new = _shape(space, axes), list(step.new_shape)
    dynamic_old = sum(_is_dynamic(s) for s in old)
    dynamic_new = sum(_is_dynamic(s) for s in new)
    if dynamic_old == 0 and dynamic_new == 0 and prod(old) != prod(new):
        raise ValueError(f"Reshape: {old} and {new} hold different element counts")
    if dynamic_old > 1 or dynamic_new > 1 or dynamic_old != dynamic_new:
        return None  # Which dynamic size goes where is not known statically.
    return _split_into(space, [d for axis in axes for d in axis], new)


def _apply_expand(space: _Space, axes: Axes, step: ExpandShape) -> Axes | None:
    new = step.new_shape
    if len(axes) == 0:
        # Expanding a rank-0 tensor: MLIR's reassociation is empty, all new dims are 1.
        if step.reassociation or any(s != 1 for s in new):
            raise ValueError(f"ExpandShape: rank-0 input cannot expand to {list(new)}")
        return [[space.fresh(1)] for _ in new]
    if len(step.reassociation) != len(axes):
        raise ValueError(f"ExpandShape: {len(step.reassociation)} groups for rank {len(axes)}")
    _check_groups(step.reassociation, len(new), "ExpandShape")
    out: Axes = []
    for axis, group in zip(axes, step.reassociation):
        sizes = [new[j] for j in group]
        have = _axis_size(space, axis)
        if not any(_is_dynamic(s) for s in sizes) and not _is_dynamic(have):
            if prod(sizes) != have:
                raise ValueError(f"ExpandShape: axis of size {have} cannot expand to {sizes}")
        elif sum(_is_dynamic(s) for s in sizes) != 1 or not _is_dynamic(have):
            raise ValueError(f"ExpandShape: axis of size {have} cannot expand to {sizes}")
        pieces = _split_into(space, axis, sizes)
        if pieces is None:
            return None
        out.extend(pieces)
    return out


def _apply_collapse(space: _Space, axes: Axes, step: CollapseShape) -> Axes | None:
    if not step.reassociation:
        # Collapsing to rank 0: only legal when every axis has size 1.
        if any(_axis_size(space, axis) != 1 for axis in axes):
            raise ValueError("CollapseShape: only all-unit shapes collapse to rank 0")
        for axis in axes:
            for dim in axis:
                space.drop(dim)
        return []
    _check_groups(step.reassociation, len(axes), "CollapseShape")
    out: Axes = []
    for group in step.reassociation:
        merged = _merge(space, [axes[i] for i in group])
        if merged is None:
            return None
        out.append(merged)
    return out


def _apply_transpose(axes: Axes, step: Transpose) -> Axes:
    if sorted(step.permutation) != list(range(len(axes))):
        perm = list(step.permutation)
        raise ValueError(f"Transpose: {perm} is not a permutation of rank {len(axes)}")
    return [axes[i] for i in step.permutation]


def _apply_broadcast(space: _Space, axes: Axes, step: Broadcast) -> Axes:
    new, added = step.new_shape, set(step.dimensions)
    if len(added) != len(step.dimensions) or not added <= set(range(len(new))):
        raise ValueError(f"Broadcast: bad dimensions {list(step.dimensions)} for {list(new)}")
    if len(new) - len(added) != len(axes):
        raise ValueError(f"Broadcast: rank {len(axes)} plus {len(added)} dims is not {len(new)}")
    inputs = iter(axes)
    out: Axes = []
    for j, size in enumerate(new):
        if j in added:
            out.append([space.fresh(size)])
            continue
        axis = next(inputs)
        have = _axis_size(space, axis)
        if not _same_size(have, size):
            raise ValueError(f"Broadcast: result dim {j} is {size}, input has {have}")
        out.append(axis)
    return out


def _apply(space: _Space, axes: Axes, step: LayoutStep) -> Axes | None:
    match step:
        case Reshape():
            return _apply_reshape(space, axes, step)
        case ExpandShape():
            return _apply_expand(space, axes, step)
        case CollapseShape():
            return _apply_collapse(space, axes, step)
        case Transpose():
            return _apply_transpose(axes, step)
        case Broadcast():
            return _apply_broadcast(space, axes, step)


def _sizes_in(step: LayoutStep) -> tuple[int, ...]:
    match step:
        case Reshape() | ExpandShape() | Broadcast():
            return step.new_shape
        case CollapseShape() | Transpose():
            return ()


def _terms(space: _Space, axis: Sequence[int], position: dict[int, int]) -> AxisTerms:
    """Row-major strides of one axis; unit/dynamic dims sit alone, so strides are static."""
    terms: list[Term] = []
    stride = 1
    for dim in reversed(axis):
        terms.append((position[dim], stride))
        stride *= space.sizes[dim]
    return tuple(reversed(terms))


def trace(producer_shape: Sequence[int], steps: Sequence[LayoutStep]) -> AxisMap | None:
    """Follow `steps` from a producer of `producer_shape`; None if no common refinement.

    >>> m = trace([1, 255, 80, 80], [ExpandShape([[0], [1, 2], [3], [4]], [1, 3, 85, 80, 80]),
    ...                             Transpose([0, 1, 3, 4, 2])])
    >>> m.refined
    (1, 3, 80, 80, 85)
    >>> str(m.producer_map())
    '(d0, d1, d2, d3, d4) -> (d0, ((d1 * 85) + d4), d2, d3)'
    >>> trace([6, 35], [Reshape([3, 7, 2, 5])]) is None
    True
    """
    if 0 in producer_shape or any(0 in _sizes_in(step) for step in steps):
        return None  # Empty tensors: nothing to fuse, and 0 would break the divisibility walk.
    space = _Space(producer_shape)
    # Normal form from the start: a unit axis is exactly one unit refined dim.
    axes: Axes = [[i] for i in range(len(producer_shape))]
    for step in steps:
        result = _apply(space, axes, step)
        if result is None:
            return None
        axes = result
    order = [dim for axis in axes for dim in axis]
    position = {dim: i for i, dim in enumerate(order)}
    read = {dim for axis in space.producer for dim in axis}
    return AxisMap(
        refined=tuple(space.sizes[dim] for dim in order),
        producer=tuple(_terms(space, axis, position) for axis in space.producer),
        consumer=tuple(_terms(space, axis, position) for axis in axes),
        broadcast=tuple(position[dim] for dim in order if dim not in read),
    )


# ------------------------------------------------------------ several operands at once


def _axis_size_of(factors: Sequence[int]) -> int:
    return -1 if any(_is_dynamic(f) for f in factors) else prod(factors)


def _common_factors(factorizations: Sequence[Sequence[int]]) -> list[int] | None:
    """Finest split of one axis that refines every factorization, or None.

    A split's cut points are its prefix products; the common refinement cuts at all of
    them, which only works if the sorted cuts divide each other: [2, 6] and [3, 4] give
    cuts {2, 3, 12} and fail, [2, 6] and [6, 2] give cuts {2, 6, 12} -> [2, 3, 2].
    """
    if any(_is_dynamic(f) for fs in factorizations for f in fs):
        return [-1]  # Dynamic axes are never split: every map has one dim there.
    cuts: set[int] = set()
    for factors in factorizations:
        running = 1
        for factor in factors:
            running *= factor
            cuts.add(running)
    out: list[int] = []
    previous = 1
    for cut in sorted(cuts):
        if cut % previous != 0:
            return None
        out.append(cut // previous)
        previous = cut
    return out


def common_factors(factorizations: Sequence[Sequence[int]]) -> list[int] | None:
    """Finest split of one axis refining every factorization (see `_common_factors`)."""
    return _common_factors(factorizations)


def _refine_map(m: AxisMap, per_axis: Sequence[Sequence[int]]) -> AxisMap:
    """Re-express `m` over the loop space `concat(per_axis)` (which refines m's)."""
    # Each old refined dim becomes a run of new dims: new_dim -> stride inside the old one.
    pieces: dict[int, list[Term]] = {}
    first_new = 0
    for axis, factors in enumerate(per_axis):
        old_dims = m.consumer_axis_dims(axis)
        if len(factors) == 1:
            # Unit, dynamic or unsplit axis: every map has exactly one dim here.
            pieces[old_dims[0]] = [(first_new, 1)]
        else:
            at = 0  # all sizes are static and > 1 here (unit-dim normal form)
            for old in old_dims:
                start, covered = at, 1
                while covered < m.refined[old]:
                    covered *= factors[at]
                    at += 1
                pieces[old] = [(first_new + j, prod(factors[j + 1 : at])) for j in range(start, at)]
        first_new += len(factors)

    def rewrite(terms: AxisTerms) -> AxisTerms:
        return tuple((new, stride * inner) for old, stride in terms for new, inner in pieces[old])

    broadcast = sorted(new for old in m.broadcast for new, _ in pieces[old])
    return AxisMap(
        refined=tuple(f for factors in per_axis for f in factors),
        producer=tuple(rewrite(terms) for terms in m.producer),
        consumer=tuple(rewrite(terms) for terms in m.consumer),
        broadcast=tuple(broadcast),
    )


def align(maps: Sequence[AxisMap]) -> tuple[AxisMap, ...] | None:
    """Put several maps with the same consumer shape on one common loop space.

    A fused generic with several operands needs one iteration space.  Each consumer axis
    is cut at the split points of every map; None if those cuts do not nest.  Example:
    consumer [24] reached by `Reshape([24])` from producers [6, 4] and [2, 12] (refined
    [6, 4] and [2, 12]) aligns on [2, 3, 4]; the first producer is then read with
    `(d0, d1, d2) -> (d0 * 3 + d1, d2)`.  Producers [6, 4] and [4, 6] would need cuts
    {4, 6} of 24, which do not nest: None.
    """
    if not maps:
        return ()
    rank = len(maps[0].consumer)
    if any(len(m.consumer) != rank for m in maps):
        raise ValueError("align: maps must share the consumer rank")
    per_axis: list[list[int]] = []
    for axis in range(rank):
        factorizations = [[m.refined[d] for d in m.consumer_axis_dims(axis)] for m in maps]
        sizes = {_axis_size_of(f) for f in factorizations}
        if len(sizes) != 1:
            raise ValueError(f"align: consumer axis {axis} has sizes {sorted(sizes)}")
        factors = _common_factors(factorizations)
        if factors is None:
            return None
        per_axis.append(factors)
    return tuple(_refine_map(m, per_axis) for m in maps)
