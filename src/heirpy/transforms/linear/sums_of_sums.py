"""A sum of a sum, composed into ONE sum of the first's input (`linalg-fuse-linear-chains`).

ConvNeXt's head normalises the pooled vector: its LayerNorm's mean sums the channels of
the global average pool's result, which sums the last block's output over H and W. Each
sum is a linear op (a level under CKKS, as the depth model counts it); the two are one
linear map, the sum of the block's output over every axis but the batch:

    sum_c (s * (init1 + sum_{h,w} X))[b, c]  =  s * sum_{c,h,w} X[b] + s * sum_c init1[b]

so the mean reads `X` at the pool's own level, and `chains_through_spatial_sums`
composes it with the conv branch of `X` (the residual add) as it does the pool. The
pool stays for its other readers (LayerNorm's centring and variance).

Between the two sums the pattern follows what maps each sample's elements one to one:
float casts (torch-mlir computes LayerNorm's statistics in f64 and, in its f16 form,
widens the f16 pool to f32 first), transposes and reshapes that keep the batch axis
first (LayerNorm2d's NCHW -> NHWC permute), uniform scales (the pool's `/ (H*W)`), and a
gather whose indices are the identity (torch-mlir's form of an indexing step timm's
head makes, `identity_gather_source`).

    %p = linalg.generic {sum over d2, d3} ins(%x : 1x320x2x2xf32) outs(%z1 : 1x320x1x1xf32)
    %q = arith.divf %p, 4 ; %g = <identity gather of %q> ; %t = transpose %g -> 1x1x1x320
    %e = arith.extf %t -> f64 ; %m = linalg.generic {sum over d3} ins(%e) outs(%z2 : 1x1x1x1xf64)
  ->
    %n = linalg.generic {sum over d1, d2, d3} ins(%x) outs(%zero : 1x1x1x1xf32)
    %m = arith.extf (%n * 0.25 + init) -> 1x1x1x1xf64

Legality: both sums `match_sum_reduction` (a one-input generic summing into a constant
init), neither over the batch; the second's result of size 1 on every axis but the
first, its kept axes of its operand of size 1 but the first (it sums each sample whole);
only the steps above between them (the roundings on the way are dropped, the
mixed-precision rule: the composed sum accumulates in the first sum's input type, the
wide value a `truncf` rounded where there is one, and is cast to the second's type once);
the cost rule allows it (one level saved; no weights; MACs: the input of the first sum
once more, the first sum kept when the path has other readers).
"""

from __future__ import annotations

from math import prod

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import GenericOp, TransposeOp, YieldOp
from heirpy.ir.utils import (
    affine_maps,
    all_parallel,
    element_type,
    int_values,
    iterator_attrs,
    reassociation_groups,
    static_shape,
)
from heirpy.transforms.linear.constant_folding import ConstantFolder, build_init
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost, admit_fusion
from heirpy.transforms.linear.linear_match import (
    SumReduction,
    gather_through_map,
    match_elementwise_affine,
    match_sum_reduction,
)
from heirpy.transforms.linear.mixed_precision import extf_source, truncf_source
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, in_generic_body

MAX_GATHER_ELEMENTS = 1 << 16
"""The largest gather whose indices `identity_gather_source` evaluates."""


# ------------------------------------------------------------------ identity gathers
def identity_gather_source(op: Operation, reader: ConstantFolder) -> SSAValue | None:
    """`t` when `op` is a parallel generic of constant integer index tensors whose body
    extracts one element of `t` (a tensor from outside the body, of the result's type)
    at indices that, wrapped as torch's negative indices are (`i < 0 ? i + n : i`), are
    each loop's own: a copy of `t`. Else None."""
    if not isinstance(op, GenericOp) or len(op.res) != 1 or not all_parallel(op.iterator_types):
        return None
    shape = static_shape(op.res[0].type)
    if shape is None or prod(shape) > MAX_GATHER_ELEMENTS or not op.inputs:
        return None
    body = list(op.body.block.ops)
    extracts = [o for o in body if isinstance(o, tensor.ExtractOp)]
    if len(extracts) != 1 or not isinstance(body[-1], YieldOp) or body[-1].operands[0] is not extracts[0].result:
        return None
    source = extracts[0].tensor
    if source.type != op.res[0].type or (isinstance(source.owner, Operation) and source.owner.parent_op() is op):
        return None
    maps = affine_maps(op.indexing_maps)
    args: dict[SSAValue, np.ndarray] = {}
    for value, arg, amap in zip(op.inputs, op.body.block.args, maps, strict=False):
        array = reader.fold(value)
        if array is None or not np.issubdtype(array.dtype, np.integer):
            return None
        args[arg] = gather_through_map(array, amap, shape)
    grid = np.indices(shape)
    for axis, index in enumerate(extracts[0].indices):
        read = _index_value(index, args, reader)
        if read is None or not np.array_equal(np.broadcast_to(read, shape), grid[axis]):
            return None
    return source


def _index_value(value: SSAValue, args: dict[SSAValue, np.ndarray], reader: ConstantFolder,
                 depth: int = 8) -> np.ndarray | None:
    """The integer `value` computes in a gather's body over the loop space: block
    arguments (the index tensors read through their maps), constants and `index_cast`,
    `addi`, `cmpi slt`, `select` of them (torch's negative-index wrap); else None."""
    if value in args:
        return args[value]
    owner = value.owner
    if depth <= 0 or not isinstance(owner, Operation):
        return None
    if isinstance(owner, arith.ConstantOp):
        folded = reader.fold(value)
        return None if folded is None else np.asarray(folded)
    maybe = [_index_value(v, args, reader, depth - 1) for v in owner.operands]
    operands = [o for o in maybe if o is not None]
    if len(operands) != len(maybe):
        return None
    if isinstance(owner, arith.IndexCastOp):
        return operands[0]
    if isinstance(owner, arith.AddiOp):
        return np.asarray(operands[0] + operands[1])
    if isinstance(owner, arith.CmpiOp) and owner.predicate.value.data == 2:  # slt
        return np.asarray(operands[0] < operands[1])
    if isinstance(owner, arith.SelectOp):
        return np.asarray(np.where(operands[0], operands[1], operands[2]))
    return None


# ------------------------------------------------------------------ the path
def _path_step(value: SSAValue, reader: ConstantFolder) -> tuple[SSAValue, float] | None:
    """`(v, s)` when `value` is `s * v` elementwise by a step that maps each sample's
    elements one to one, the batch axis staying first (module docstring); else None."""
    source = extf_source(value) or truncf_source(value)
    if source is not None:
        return source, 1.0
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if isinstance(owner, TransposeOp):
        permutation = list(int_values(owner.properties["permutation"]))
        return (owner.operands[0], 1.0) if permutation and permutation[0] == 0 else None
    if isinstance(owner, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        groups = reassociation_groups(owner.properties["reassociation"])
        return (owner.operands[0], 1.0) if groups and groups[0] == [0] else None
    gathered = identity_gather_source(owner, reader)
    if gathered is not None:
        return gathered, 1.0
    affine = match_elementwise_affine(owner, reader, widening=True)
    if affine is None or affine.kind not in ("mul", "div") or not affine.is_affine():
        return None
    constant = affine.constant
    if constant.size == 0 or not np.all(constant == constant.flat[0]) or constant.flat[0] == 0:
        return None
    number = float(constant.flat[0])
    return affine.operand, (number if affine.kind == "mul" else 1.0 / number)


def _trace(value: SSAValue, reader: ConstantFolder, limit: int = 16) -> tuple[SumReduction, float, bool] | None:
    """The sum whose result `value` is, through path steps: (the sum, the scale, whether
    any value on the way has another reader)."""
    scale, shared = 1.0, False
    for _ in range(limit):
        owner = value.owner
        reduction = match_sum_reduction(owner) if isinstance(owner, Operation) else None
        if reduction is not None:
            return reduction, scale, shared or not value.has_one_use()
        shared = shared or not value.has_one_use()
        step = _path_step(value, reader)
        if step is None:
            return None
        value, factor = step
        scale *= factor
    return None


def sums_each_sample(reduction: SumReduction) -> bool:
    """Pure on shapes: does the sum add up every element of each sample (its kept axes,
    the batch aside, of size 1; its result of size 1 but the first axis)?"""
    in_shape, out_shape = static_shape(reduction.operand.type), static_shape(reduction.result.type)
    if in_shape is None or out_shape is None or 0 in reduction.reduced_axes:
        return False
    kept = [a for a in range(1, len(in_shape)) if a not in reduction.reduced_axes]
    return bool(out_shape) and out_shape[0] == in_shape[0] and all(n == 1 for n in out_shape[1:]) \
        and all(in_shape[a] == 1 for a in kept)


# ------------------------------------------------------------------ the pattern
class FuseSumOfSum(OpPattern[GenericOp], OutsideGenericBodies):
    """Compose a sum of each sample with the sum its operand comes from (module docstring).

        %m = sum_{all but batch}(cast(s * layout(sum_{h,w}(%x) + init1))) + init2
      ->
        %m = cast(s * sum_{all but batch}(%x) + (init2 + s * sum init1))
    """

    op_types = (GenericOp,)

    def __init__(self, reader: ConstantFolder, rule: CostRule, pass_name: str):
        self.reader = reader
        self.rule = rule
        self.pass_name = pass_name

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op):
            return
        outer = match_sum_reduction(op)
        if outer is None or not sums_each_sample(outer):
            return
        traced = _trace(outer.operand, self.reader)
        if traced is None:
            return
        inner, scale, shared = traced
        source = truncf_source(inner.operand) or inner.operand
        in_shape, out_shape = static_shape(source.type), static_shape(outer.result.type)
        init1, init2 = self.reader.init_value(inner.init), self.reader.init_value(outer.init)
        if in_shape is None or out_shape is None or init1 is None or init2 is None or 0 in inner.reduced_axes:
            return
        if in_shape[0] != out_shape[0] or not isinstance(element_type(source.type), AnyFloat):
            return
        summed = prod(in_shape[1:])
        inner_macs = prod(in_shape[1:])
        outer_macs = prod(static_shape(outer.operand.type)[1:])  # type: ignore[index]
        cost = FusionCost(1, 0, 0, inner_macs + outer_macs, (inner_macs if shared else 0) + summed)
        if not admit_fusion(self.rule, cost, self.pass_name, op, outer.result):
            return
        batch = in_shape[0]
        offset = init2.astype(np.float64).reshape(batch, -1) \
            + scale * init1.astype(np.float64).reshape(batch, -1).sum(axis=1, keepdims=True)
        ops = _composed(source, scale, offset.reshape(out_shape), outer.result.type)
        rewriter.insert(ops, InsertPoint.before(op))
        rewriter.replace(op, [], [ops[-1].results[0]])


def _composed(source: SSAValue, scale: float, offset: np.ndarray, result_type: object) -> list[Operation]:
    """`cast(scale * sum_{all but batch}(source) + offset)` in `result_type`: the sum
    accumulates in `source`'s type, into a zero init; the scale and the offset follow as
    tensor ops (free: a uniform scale and a constant), the cast last."""
    assert isinstance(source.type, TensorType) and isinstance(result_type, TensorType)
    element = source.type.get_element_type()
    rank = len(source.type.get_shape())
    out_shape = list(result_type.get_shape())
    sum_type = TensorType(element, out_shape)
    ops: list[Operation]
    ops, zero = build_init(np.zeros(out_shape, dtype=element_dtype(sum_type)), sum_type)
    dims = [AffineExpr.dimension(i) for i in range(rank)]
    out_map = AffineMap(rank, 0, (dims[0], *(AffineExpr.constant(0) for _ in out_shape[1:])))
    block = Block(arg_types=[element, element])
    added = arith.AddfOp(block.args[0], block.args[1])
    block.add_ops([added, YieldOp(added.result)])
    summed = GenericOp([source], [zero], Region(block),
                       [AffineMapAttr(AffineMap.identity(rank)), AffineMapAttr(out_map)],
                       iterator_attrs(["parallel"] + ["reduction"] * (rank - 1)), [sum_type])
    ops.append(summed)
    value = summed.results[0]
    if scale != 1.0:
        factor = dense_constant(np.full(out_shape, scale, dtype=element_dtype(sum_type)), sum_type)
        scaled = arith.MulfOp(value, factor.result)
        ops += [factor, scaled]
        value = scaled.result
    if np.any(offset != 0):
        constant = dense_constant(offset.astype(element_dtype(sum_type)), sum_type)
        shifted = arith.AddfOp(value, constant.result)
        ops += [constant, shifted]
        value = shifted.result
    target = result_type.get_element_type()
    if target != element:
        assert isinstance(target, AnyFloat) and isinstance(element, AnyFloat)
        cast = arith.ExtFOp if target.bitwidth > element.bitwidth else arith.TruncFOp
        ops.append(cast(value, result_type))
    return ops

