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
from math import prod

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ShapedType
from xdsl.dialects.linalg.ops import BroadcastOp, TransposeOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from heirpy.transforms.axis_map import (
    AxisMap,
    Broadcast,
    CollapseShape,
    ExpandShape,
    LayoutStep,
    Reshape,
    Transpose,
)

LAYOUT_OPS: tuple[type[Operation], ...] = (
    tensor.ExpandShapeOp,
    tensor.CollapseShapeOp,
    tensor.ReshapeOp,
    TransposeOp,
    BroadcastOp,
)


def shape_of(value: SSAValue) -> tuple[int, ...] | None:
    t = value.type
    return tuple(t.get_shape()) if isinstance(t, ShapedType) else None


def _groups(attr: ArrayAttr) -> list[list[int]]:
    return [[int(i.value.data) for i in group] for group in attr]  # type: ignore[union-attr]


def layout_step(op: Operation) -> tuple[SSAValue, LayoutStep] | None:
    """The input of a layout op and the axis-map step it performs, or None."""
    if isinstance(op, tensor.ExpandShapeOp):
        return op.src, ExpandShape(_groups(op.reassociation), op.result.type.get_shape())
    if isinstance(op, tensor.CollapseShapeOp):
        return op.src, CollapseShape(_groups(op.reassociation))
    if isinstance(op, tensor.ReshapeOp):
        return op.source, Reshape(op.result.type.get_shape())
    if isinstance(op, TransposeOp) and len(op.inputs) == 1 and len(op.res) == 1:
        return op.inputs[0], Transpose(tuple(op.permutation.get_values()))
    if isinstance(op, BroadcastOp) and len(op.result) == 1:
        shape = op.init.type.get_shape()  # type: ignore[union-attr]
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


def loop_sizes(maps: Sequence[AffineMap], shapes: Sequence[Sequence[int]]) -> list[int] | None:
    """Each loop's size from the operand axes it indexes bare; None if one is unknown."""
    if not maps:
        return []
    sizes: list[int | None] = [None] * maps[0].num_dims
    for amap, shape in zip(maps, shapes):
        for expr, size in zip(amap.results, shape):
            if isinstance(expr, AffineDimExpr) and sizes[expr.position] is None:
                sizes[expr.position] = size
    if any(s is None for s in sizes):
        return None
    return [int(s) for s in sizes]  # type: ignore[arg-type]


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


def read_factorizations(
    amap: AffineMap, axis_map: AxisMap
) -> dict[int, list[int]] | None:
    """How the loops reading a layout chain's result must be split to read its source.

    `amap` is the consumer's map for the chain's result (bare dims or constant 0), and
    `axis_map` the chain's trace. Returns loop -> refined factor sizes (major first).
    """
    dims = bare_dims(amap)
    if dims is None:
        return None
    out: dict[int, list[int]] = {}
    for axis, dim in enumerate(dims):
        if dim is not None:
            out[dim] = [axis_map.refined[r] for r in axis_map.consumer_axis_dims(axis)]
    return out


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
    amap: AffineMap, axis_map: AxisMap, runs: Sequence[Sequence[int]], num_new_dims: int
) -> AffineMap:
    """The map that reads a layout chain's *source* in the refined loop space.

    `amap` reads the chain's result; loop `d` reading result axis `j` has been split
    (`read_factorizations`) into exactly the refined dims of axis `j`, so the k-th
    refined dim of axis `j` is loop `runs[d][k]`. Constant-0 (unit) axes pin their
    refined dim to 0. Each source axis is then its producer terms over those loops.
    """
    dims = bare_dims(amap)
    assert dims is not None
    refined_expr: dict[int, AffineExpr] = {}
    for axis, dim in enumerate(dims):
        for k, r in enumerate(axis_map.consumer_axis_dims(axis)):
            refined_expr[r] = (
                AffineExpr.constant(0) if dim is None else AffineExpr.dimension(runs[dim][k])
            )
    results: list[AffineExpr] = []
    for terms in axis_map.producer:
        expr: AffineExpr = AffineExpr.constant(0)
        for r, stride in terms:
            expr = expr + refined_expr[r] * stride
        results.append(expr)
    return AffineMap(num_new_dims, 0, tuple(results))


def no_recompute(amap: AffineMap, sizes: Sequence[int]) -> bool:
    """Fusing a producer read through `amap` computes each of its elements once only
    if every non-unit consumer loop takes part in the index (no broadcast)."""
    used = amap.used_dims()
    return all(d in used for d, s in enumerate(sizes) if s != 1)


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


def int_attr(value: int) -> IntegerAttr:
    return IntegerAttr.from_int_and_width(value, 64)
