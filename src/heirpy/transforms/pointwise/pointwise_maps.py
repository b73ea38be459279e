"""Indexing-map arithmetic and legality checks for fusing pointwise linalg ops.

Used by `linalg-fuse-pointwise`. Everything here except `layout_chain` is a pure
function of shapes, affine maps and iterator kinds, so it is unit-tested on its own
(tests/unit/test_fuse_pointwise.py).

Vocabulary:
* *loop sizes*: the trip count of each loop of a structured op, read from an operand
  axis the loop indexes directly (a bare `d_i` result); negative = dynamic.
* *refining* a loop: replacing loop `d` of size 24 by loops of sizes [6, 4] means every
  map reads `d` as `d_a * 4 + d_b`. No map ever needs div or mod afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ShapedType, TensorType
from xdsl.dialects.linalg.ops import BroadcastOp, TransposeOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from heirpy.ir.dialects.tensor import ReshapeOp
from heirpy.ir.utils import axis_loops, reassociation_groups, shape_of
from heirpy.transforms.pointwise.axis_map import (
    AxisMap,
    Broadcast,
    CollapseShape,
    ExpandShape,
    LayoutStep,
    Reshape,
    Transpose,
    common_factors,
)

LAYOUT_OPS: tuple[type[Operation], ...] = (
    tensor.ExpandShapeOp,
    tensor.CollapseShapeOp,
    ReshapeOp,
    TransposeOp,
    BroadcastOp,
)


def layout_step(op: Operation) -> tuple[SSAValue, LayoutStep] | None:
    """The input of a layout op and the axis-map step it performs, or None."""
    if isinstance(op, tensor.ExpandShapeOp):
        groups = tuple(map(tuple, reassociation_groups(op.reassociation)))
        return op.src, ExpandShape(groups, op.result.type.get_shape())
    if isinstance(op, tensor.CollapseShapeOp):
        return op.src, CollapseShape(tuple(map(tuple, reassociation_groups(op.reassociation))))
    if isinstance(op, ReshapeOp) and isinstance(op.result.type, TensorType):
        return op.source, Reshape(op.result.type.get_shape())
    if isinstance(op, TransposeOp) and len(op.inputs) == 1 and len(op.res) == 1:
        return op.inputs[0], Transpose(tuple(op.permutation.get_values()))
    if isinstance(op, BroadcastOp) and len(op.result) == 1:
        shape = shape_of(op.init)
        assert shape is not None  # the verifier requires a shaped init
        return op.input, Broadcast(tuple(op.dimensions.get_values()), shape)
    return None


def layout_chain(value: SSAValue) -> tuple[SSAValue, list[LayoutStep], list[Operation]]:
    """Walk back from `value` through layout ops: (source, steps in order, the ops)."""
    steps: list[LayoutStep] = []
    ops: list[Operation] = []
    while isinstance(value, OpResult):
        found = layout_step(value.op)
        if found is None or not isinstance(value.type, ShapedType):
            break
        ops.insert(0, value.op)
        value, step = found
        steps.insert(0, step)
    return value, steps, ops


# ------------------------------------------------------------------ loop sizes


def loops_inferable(maps: Sequence[AffineMap], num_dims: int) -> bool:
    """MLIR infers loop bounds only if every loop is a bare result of some map."""
    bare = {
        expr.position for amap in maps for expr in amap.results if isinstance(expr, AffineDimExpr)
    }
    return bare >= set(range(num_dims))


def bare_dims(amap: AffineMap) -> list[int | None] | None:
    """Per result: the loop dim it is, None for a constant 0; None if anything else."""
    out: list[int | None] = []
    for expr in amap.results:
        if isinstance(expr, AffineDimExpr):
            out.append(expr.position)
        elif isinstance(expr, AffineConstantExpr) and expr.value == 0:
            out.append(None)
        else:
            return None
    dims = [d for d in out if d is not None]
    return out if len(dims) == len(set(dims)) else None


# ------------------------------------------------------------------ legality


@dataclass(frozen=True)
class ChainRead:
    """How a consumer's loops read a layout chain's result, refined to read its source.

    `splits`: old loop -> its new factor sizes; `pieces[j]`: the common refinement of
    result axis j (one new loop per piece, in the order of `loops[j]`'s runs).
    """

    loops: tuple[tuple[int, ...], ...]
    pieces: tuple[tuple[int, ...], ...]
    splits: dict[int, list[int]]


def read_splits(amap: AffineMap, axis_map: AxisMap, sizes: Sequence[int]) -> ChainRead | None:
    """The loop splits that let `amap`'s loops read the chain's source without div/mod.

    Each result axis is read as a mixed-radix number of loops (`axis_loops`), and the
    chain cuts it into refined dims; the loops split at the union of both cuts, which
    must nest (`common_factors`). Pure.
    """
    loops = axis_loops(amap, sizes)
    if loops is None or len(loops) != len(axis_map.consumer):
        return None
    splits: dict[int, list[int]] = {}
    pieces: list[tuple[int, ...]] = []
    for axis, read in enumerate(loops):
        chain = [axis_map.refined[r] for r in axis_map.consumer_axis_dims(axis)]
        if not read:
            if any(c != 1 for c in chain):
                return None  # a fixed index into a larger axis: not a pointwise read
            pieces.append(())
            continue
        if len(read) == 1 and len(chain) == 1:
            common: list[int] | None = [sizes[read[0]]]
        elif any(sizes[d] < 0 for d in read) or any(c < 0 for c in chain):
            return None
        else:
            common = common_factors([chain, [sizes[d] for d in read]])
        if common is None:
            return None
        at = 0
        for dim in read:
            part: list[int] = []
            covered = 1
            while covered != sizes[dim] and at < len(common):
                part.append(common[at])
                covered *= common[at]
                at += 1
            splits[dim] = part if part else [sizes[dim]]
        pieces.append(tuple(common))
    return ChainRead(tuple(loops), tuple(pieces), splits)


def split_keeps_reductions_whole(
    splits: dict[int, list[int]], iterator_kinds: Sequence[str]
) -> bool:
    """A reduced loop may move but never be split or merged (issue 6 guard).

    Splitting a reduction loop would change the order of a float reduction and, for a
    reshape that merges a reduced axis with another, mix reduced and kept elements.
    """
    return all(len(f) == 1 or iterator_kinds[d] != "reduction" for d, f in splits.items())


def refine_loops(
    sizes: Sequence[int], splits: dict[int, list[int]]
) -> tuple[list[int], list[AffineExpr], list[list[int]]] | None:
    """Split loops: (new sizes, old loop -> expr over new loops, old loop -> new loops).

    None if a split does not multiply to the loop's size or a dynamic loop would split.
    """
    new_sizes: list[int] = []
    exprs: list[AffineExpr] = []
    runs: list[list[int]] = []
    for dim, size in enumerate(sizes):
        factors = splits.get(dim, [size])
        if len(factors) > 1 and (size < 0 or any(f < 0 for f in factors) or prod(factors) != size):
            return None
        if len(factors) == 1 and factors[0] != size and not (size < 0 and factors[0] < 0):
            return None
        run = list(range(len(new_sizes), len(new_sizes) + len(factors)))
        expr: AffineExpr = AffineExpr.constant(0)
        for k, new_dim in enumerate(run):
            expr = expr + AffineExpr.dimension(new_dim) * prod(factors[k + 1 :])
        new_sizes.extend(factors)
        exprs.append(expr)
        runs.append(run)
    return new_sizes, exprs, runs


def source_map(
    read: ChainRead, axis_map: AxisMap, runs: Sequence[Sequence[int]], num_new_dims: int
) -> AffineMap:
    """The map that reads a layout chain's *source* in the refined loop space.

    Result axis j of the chain is read by the new loops `runs[d]` of its loops `d`, one
    per piece of its common refinement; each refined dim of the chain spans consecutive
    pieces, so it is a linear combination of those loops. Source axes are then their
    producer terms over the refined dims (YOLO: `(d0, d1 * 85 + d4, d2, d3)`).
    """
    refined_expr: dict[int, AffineExpr] = {}
    for axis, loops in enumerate(read.loops):
        new_loops = [n for d in loops for n in runs[d]]
        pieces = read.pieces[axis]
        at = 0
        for r in axis_map.consumer_axis_dims(axis):
            if not loops:
                refined_expr[r] = AffineExpr.constant(0)
                continue
            size, start, covered = axis_map.refined[r], at, 1
            if size < 0 or (size == 1 and at < len(pieces) and pieces[at] == 1):
                at += 1  # a dynamic axis is never split, a unit one is its unit loop
            while covered < size:
                covered *= pieces[at]
                at += 1
            expr: AffineExpr = AffineExpr.constant(0)
            for k in range(start, at):
                expr = expr + AffineExpr.dimension(new_loops[k]) * prod(pieces[k + 1 : at])
            refined_expr[r] = expr
    results: list[AffineExpr] = []
    for terms in axis_map.producer:
        expr = AffineExpr.constant(0)
        for r, stride in terms:
            expr = expr + refined_expr[r] * stride
        results.append(expr)
    return AffineMap(num_new_dims, 0, tuple(results))


def no_recompute(amap: AffineMap, sizes: Sequence[int]) -> bool:
    """Fusing a producer read through `amap` computes each of its elements once only
    if every non-unit consumer loop takes part in the index (no broadcast)."""
    used = amap.used_dims()
    return all(d in used for d, s in enumerate(sizes) if s != 1)


def recompute_only_along_reductions(amap: AffineMap, sizes: Sequence[int], kinds: Sequence[str]) -> bool:
    """Fusing a producer read through `amap` recomputes each of its elements only along
    the consumer's reduction loops: every non-unit parallel loop takes part in the index
    and no reduction loop does (so the value is invariant in the reduction, a hoistable
    recompute, never a broadcast over other outputs)."""
    used = amap.used_dims()
    return all(
        (d in used) == (kind == "parallel")
        for d, (size, kind) in enumerate(zip(sizes, kinds, strict=True))
        if size != 1
    )


def inverse_of_permutation(amap: AffineMap) -> list[int] | None:
    """For a permutation map (distinct bare dims, one per loop): loop -> result index."""
    dims = bare_dims(amap)
    if dims is None or None in dims or len(dims) != amap.num_dims:
        return None
    inverse = [0] * amap.num_dims
    for result, dim in enumerate(dims):
        inverse[dim] = result  # type: ignore[index]
    return inverse


def substitute(amap: AffineMap, exprs: Sequence[AffineExpr], num_dims: int) -> AffineMap:
    """`amap` with loop `d` replaced by `exprs[d]`, over `num_dims` new loops."""
    return amap.replace_dims_and_symbols(tuple(exprs), (), num_dims, 0)


def operand_shapes(op: Operation) -> list[tuple[int, ...]] | None:
    """The static shapes of `op`'s operands (None if one is not a static shaped value)."""
    shapes = [shape_of(v) for v in op.operands]
    if any(s is None for s in shapes):
        return None
    return shapes  # type: ignore[return-value]


def single_user(value: SSAValue) -> Operation | None:
    """The op holding the only use of `value` (None for zero or several uses)."""
    return next(iter(value.uses)).operation if value.has_one_use() else None
