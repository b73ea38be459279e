"""A sum over a linear op's output channels, composed into a linear op of its input.

LayerNorm's mean (ConvNeXt after its depthwise conv, ViT/DeiT and MobileViT after the
attention projection or the MLP's fc2 plus the residual) sums the channels of a linear
op's output: under CKKS one plaintext-ciphertext level for the op, one more for the
sum. The sum of the output channels of a linear op is itself a linear op of the op's
input, with ONE output channel:

    sum_f (W x + init)[f]  =  (sum_f W[f]) x + sum_f init[f]

(a matmul `x @ W` gets the column `W @ 1`, a batch_matmul with a constant right
operand one column per batch, a conv the filter `sum_f W[f]`, a depthwise
conv the dense one-output conv whose filter for input channel c is `W[c]`), so the mean
reads the op's input at the op's own depth, one level earlier. The op itself stays for
its other readers (the centring `x - mean` and the normalisation), so the weights grow
by one output channel's worth (a depthwise conv's filter once more, a matmul's
column): priced by the cost rule (`linalg-fuse-ops` passes its own to the linear-op group,
where this pattern runs first) as a fusion that saves one level.

Between the op and the sum the pattern follows:

* casts of the whole tensor (`arith.extf` / `arith.truncf`, or a one-op cast generic:
  torch-mlir computes LayerNorm's statistics in f64, and the f16 form rounds the op's
  f32 accumulator to f16 first), replayed on the new op's result;
* layout ops that keep the summed channel whole (transpose, expand/collapse_shape),
  replayed with the channel of size 1;
* constant affine steps right after the op (a bias, a layer scale: `x * s + t` with `s`
  along the channel), folded into the new op's weight and init;
* adds of two tensors (the residual): the sum of an add is the sum of each side; a side
  that reaches no linear op keeps a sum of its own (the residual's, at the residual's
  depth, shallower than the op).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import (
    BatchMatmulOp,
    Conv2DNchwFchwOp,
    DepthwiseConv2DNchwChwOp,
    GenericOp,
    MatmulOp,
    TransposeOp,
    YieldOp,
)
from heirpy.ir.utils import (
    affine_maps,
    all_parallel,
    i64_vector,
    is_identity,
    reassociation_attr,
    reassociation_groups,
    static_shape,
)
from heirpy.transforms.linear.affine_runs import compose_run
from heirpy.transforms.linear.constant_folding import ConstantFolder, build_init, init_elements
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost
from heirpy.transforms.linear.linear_match import (
    ElementwiseAffine,
    LinearOpView,
    linear_op_view,
    match_elementwise_affine,
    match_sum_reduction,
)
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, constant_insertion_point

_SAME_KIND = (MatmulOp, BatchMatmulOp, Conv2DNchwFchwOp)  # the one-channel op: same op, new shapes


@dataclass(frozen=True)
class PathStep:
    """A cast or layout op on the way from a term to the sum, with the channel axis at
    its result."""

    op: Operation
    axis: int


@dataclass(frozen=True)
class Term:
    """One addend of the summed value: `leaf` carried to the sum by `path` (casts and
    layout ops, leaf first). A linear term's leaf is the result of `view`'s op followed
    by the constant affine `steps`; any other term is summed as it is."""

    leaf: SSAValue  # for a linear term, the last step's result (the op's without steps)
    axis: int  # the channel axis at the leaf
    path: tuple[PathStep, ...]
    view: LinearOpView | None = None
    steps: tuple[ElementwiseAffine, ...] = ()


# ------------------------------------------------------------------------ pure helpers
def channel_sum_weights(view_kind: str, weight: np.ndarray, weight_axis: int, scale: np.ndarray,
                        ) -> np.ndarray:
    """Pure: the weight of the one-output-channel op computing `sum_f s[f] * L(x)[f]`
    (float64): a depthwise filter `[C, kh, kw]` becomes the dense `[1, C, kh, kw]`, any
    other weight is summed along its output axis `weight_axis`, kept with size 1."""
    w = weight.astype(np.float64)
    along = [1] * w.ndim
    along[weight_axis] = w.shape[weight_axis]
    scaled = w * np.broadcast_to(scale.astype(np.float64), (w.shape[weight_axis],)).reshape(along)
    if view_kind == "depthwise":
        return scaled[None]
    return scaled.sum(axis=weight_axis, keepdims=True)


def channel_sum_init(init: np.ndarray, scale: np.ndarray, shift: np.ndarray, axis: int) -> np.ndarray:
    """Pure: `sum over axis of (init * scale + shift)`, kept with size 1 (float64; all
    three at the op's output shape)."""
    full = init.astype(np.float64) * scale + shift
    return full.sum(axis=axis, keepdims=True)


def _source_axis(op: Operation, axis: int) -> int | None:
    """The axis of the layout op `op`'s source that its result `axis` holds whole, or
    None (a reshape that splits or merges the channel with a non-unit dimension)."""
    source = static_shape(op.operands[0].type)
    result = static_shape(op.results[0].type)
    if source is None or result is None:
        return None
    if isinstance(op, TransposeOp):
        return list(op.permutation.get_values())[axis]
    if isinstance(op, tensor.CollapseShapeOp):
        group = reassociation_groups(op.properties["reassociation"])[axis]
        wide = [d for d in group if source[d] != 1]
        return wide[0] if len(wide) == 1 else None
    if isinstance(op, tensor.ExpandShapeOp):
        for index, group in enumerate(reassociation_groups(op.properties["reassociation"])):
            if axis in group:
                return index if all(result[d] == 1 for d in group if d != axis) else None
    return None


def _cast_kind(op: Operation) -> type[arith.ExtFOp] | type[arith.TruncFOp] | None:
    """`arith.extf` / `arith.truncf` for a cast of a whole tensor (the arith op on a
    tensor, or a one-op generic with identity maps), else None."""
    if isinstance(op, (arith.ExtFOp, arith.TruncFOp)):
        return type(op) if isinstance(op.results[0].type, TensorType) else None
    if not isinstance(op, GenericOp) or len(op.inputs) != 1 or len(op.res) != 1:
        return None
    body = list(op.body.block.ops)
    if len(body) != 2 or not isinstance(body[0], (arith.ExtFOp, arith.TruncFOp)) or not isinstance(body[1], YieldOp):
        return None
    if body[0].operands[0] is not op.body.block.args[0] or body[1].operands[0] is not body[0].results[0]:
        return None
    if not all_parallel(op.iterator_types) or not all(is_identity(m) for m in affine_maps(op.indexing_maps)):
        return None
    return type(body[0])


def _tensor_add(op: Operation, reader: ConstantFolder) -> tuple[SSAValue, SSAValue] | None:
    """The two non-constant addends of an add of same-shaped tensors (`arith.addf` on
    tensors, or a generic adding two inputs read through identity maps)."""
    if isinstance(op, arith.AddfOp) and isinstance(op.result.type, TensorType):
        pair = (op.lhs, op.rhs)
    elif isinstance(op, GenericOp) and len(op.inputs) == 2 and len(op.res) == 1:
        body = list(op.body.block.ops)
        args = op.body.block.args
        if len(body) != 2 or not isinstance(body[0], arith.AddfOp) or not isinstance(body[1], YieldOp):
            return None
        if {body[0].lhs, body[0].rhs} != {args[0], args[1]} or body[1].operands[0] is not body[0].result:
            return None
        if not all_parallel(op.iterator_types) or not all(is_identity(m) for m in affine_maps(op.indexing_maps)):
            return None
        pair = (op.inputs[0], op.inputs[1])
    else:
        return None
    if any(v.type != op.results[0].type or reader.fold(v) is not None for v in pair):
        return None
    return pair


def _linear_term(value: SSAValue, axis: int, path: tuple[PathStep, ...], reader: ConstantFolder) -> Term | None:
    """`value` as a linear op's result (through constant affine steps along the op's
    output channel) whose output channel is `axis`; None otherwise."""
    steps: list[ElementwiseAffine] = []
    start = value
    while True:
        owner = value.owner
        if not isinstance(owner, Operation):
            return None
        view = linear_op_view(owner, reader) or _batch_matmul_view(owner, reader)
        if view is not None:
            if view.out_axis != axis or not isinstance(owner, (*_SAME_KIND, DepthwiseConv2DNchwChwOp)):
                return None
            return Term(start, axis, path, view, tuple(reversed(steps)))
        step = match_elementwise_affine(owner, reader)
        if step is None or not step.is_affine() or step.operand.type != step.result.type:
            return None
        steps.append(step)
        value = step.operand


def _batch_matmul_view(op: Operation, reader: ConstantFolder) -> LinearOpView | None:
    """`x[B, M, K] @ W[B, K, N]` with a constant W (MobileViT's attention projection: a
    Linear's weight broadcast over the patches) as a linear op of x whose output channel
    is N; None for any other op."""
    if not isinstance(op, BatchMatmulOp) or len(op.operands) != 3 or len(op.results) != 1:
        return None
    if any(static_shape(v.type) is None for v in (*op.operands, op.results[0])):
        return None
    weight = reader.fold_unrounded(op.operands[1])
    if weight is None or reader.fold(op.operands[0]) is not None:
        return None
    return LinearOpView(op, 0, 1, 2, 2, weight)


def summed_terms(value: SSAValue, axis: int, reader: ConstantFolder,
                 path: tuple[PathStep, ...] = (), adds: int = 1) -> list[Term]:
    """The addends of `value` (summed over `axis`) down through casts, layout ops and
    at most `adds` tensor adds: a linear term where one is reached (`_linear_term`),
    else the value. One add is the residual's; below it the residual stream is a sum of
    every earlier block's output, and splitting it would give each LayerNorm a
    one-channel op per earlier block for no level (the residual is shallower)."""
    owner = value.owner
    if isinstance(owner, Operation) and len(owner.results) == 1:
        if _cast_kind(owner) is not None:
            return summed_terms(owner.operands[0], axis, reader, (PathStep(owner, axis), *path), adds)
        if isinstance(owner, (TransposeOp, tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
            source_axis = _source_axis(owner, axis)
            if source_axis is not None:
                return summed_terms(owner.operands[0], source_axis, reader, (PathStep(owner, axis), *path), adds)
        addends = _tensor_add(owner, reader) if adds > 0 else None
        if addends is not None:
            return [t for v in addends for t in summed_terms(v, axis, reader, path, adds - 1)]
    term = _linear_term(value, axis, path, reader)
    return [term] if term is not None else [Term(value, axis, path)]


# ------------------------------------------------------------------------ emission
def _with_unit_channel(type_: TensorType, axis: int) -> TensorType:
    shape = list(type_.get_shape())
    shape[axis] = 1
    return TensorType(type_.get_element_type(), shape)


def _replay(value: SSAValue, path: tuple[PathStep, ...], unit: bool) -> list[Operation]:
    """The path's casts and layout ops applied to `value` (each result's channel of size
    1 when `unit`: `value` is a one-channel sum)."""
    ops: list[Operation] = []
    for step in path:
        out = step.op.results[0].type
        assert isinstance(out, TensorType)
        out = _with_unit_channel(out, step.axis) if unit else out
        kind = _cast_kind(step.op)
        if kind is not None:
            new: Operation = kind(value, out)
        elif isinstance(step.op, TransposeOp):
            empty = tensor.EmptyOp([], out)
            ops.append(empty)
            new = TransposeOp(value, empty.tensor, step.op.permutation)
        elif isinstance(step.op, tensor.CollapseShapeOp):
            new = tensor.CollapseShapeOp(operands=[value], result_types=[out],
                                         properties={"reassociation": step.op.properties["reassociation"]})
        else:
            assert isinstance(step.op, tensor.ExpandShapeOp)
            groups = reassociation_groups(step.op.properties["reassociation"])
            new = tensor.ExpandShapeOp(value, [], reassociation_attr(groups), list(out.get_shape()), out)
        ops.append(new)
        value = new.results[0]
    return ops


@dataclass(frozen=True)
class OneChannelOp:
    """A linear term's one-output-channel op: its weight and init (float64)."""

    term: Term
    weight: np.ndarray
    init: np.ndarray


def one_channel_op(term: Term, reader: ConstantFolder) -> OneChannelOp | None:
    """The weight and init of `term`'s one-channel op, or None when its steps do not
    scale along the op's output channel only or its init is not constant."""
    view = term.view
    assert view is not None
    out_type = view.op.results[0].type
    assert isinstance(out_type, TensorType)
    shape = tuple(out_type.get_shape())
    init = reader.init_value(view.init)
    if init is None:
        return None
    scale, shift = np.ones(shape), np.zeros(shape)
    if term.steps:
        composed = compose_run(list(term.steps))
        if composed is None:
            return None
        scale = np.broadcast_to(composed.scale, shape)
        shift = np.broadcast_to(composed.shift, shape)
    moved = np.moveaxis(scale, view.out_axis, 0).reshape(shape[view.out_axis], -1)
    if not np.all(moved == moved[:, :1]):
        return None
    vector = moved[:, 0]
    kind = "depthwise" if isinstance(view.op, DepthwiseConv2DNchwChwOp) else "dense"
    weight = channel_sum_weights(kind, view.weight, view.weight_axis, vector)
    full_init = channel_sum_init(np.broadcast_to(init, shape), scale, shift, view.out_axis)
    return OneChannelOp(term, weight, full_init)


def _emit_one_channel(plan: OneChannelOp) -> tuple[Operation, list[Operation], SSAValue]:
    """The weight constant, the ops computing the one-channel op, and its result."""
    view = plan.term.view
    assert view is not None
    op = view.op
    out_type = op.results[0].type
    weight_type = op.operands[view.weight_index].type
    assert isinstance(out_type, TensorType) and isinstance(weight_type, TensorType)
    new_out = _with_unit_channel(out_type, view.out_axis)
    new_weight_type = TensorType(weight_type.get_element_type(), list(plan.weight.shape))
    weight = dense_constant(plan.weight.astype(element_dtype(new_weight_type)), new_weight_type)
    init_array = plan.init.astype(element_dtype(new_out))
    if np.any(init_array):
        init_ops, init = build_init(init_array, new_out)
    else:  # zeros as linalg-canonicalizations writes them (a fill would be rewritten on a rerun)
        zeros = dense_constant(init_array, new_out)
        init_ops, init = [zeros], zeros.result
    operands = list(op.operands)
    operands[view.weight_index] = weight.result
    operands[2] = init
    if isinstance(op, DepthwiseConv2DNchwChwOp):
        new: Operation = Conv2DNchwFchwOp(
            operands[:2], [init], [new_out],
            strides=i64_vector(op.window_strides()), dilations=i64_vector(op.window_dilations()),
        )
    else:
        new = type(op).create(
            operands=operands, result_types=[new_out], properties=dict(op.properties),
            attributes=dict(op.attributes), regions=[r.clone() for r in op.regions],
        )
    return weight, [*init_ops, new], new.results[0]


def _positions(plan: OneChannelOp) -> int:
    """Output positions per output channel of the plan's linear op (its MACs per weight)."""
    view = plan.term.view
    assert view is not None
    shape = static_shape(view.op.results[0].type)
    assert shape is not None
    return prod(shape) // shape[view.out_axis]


def sum_cost(plans: list[OneChannelOp], positions: list[int]) -> FusionCost:
    """Pure: one level saved for the weights of the new one-channel ops (the linear ops
    stay for their other readers; weights and MACs per sample)."""
    before = sum(p.term.view.weight.size for p in plans if p.term.view is not None)
    added = sum(p.weight.size for p in plans)
    macs = sum(p.term.view.weight.size * n for p, n in zip(plans, positions) if p.term.view is not None)
    added_macs = sum(p.weight.size * n for p, n in zip(plans, positions))
    inits = sum(init_elements(p.init) for p in plans)
    return FusionCost(1, before, before + added, macs, macs + added_macs,
                      constants_before=before, constants_after=before + added + inits)


class FoldChannelSumIntoLinearOp(OpPattern[GenericOp], OutsideGenericBodies):
    """Sum a linear op's output channels with a one-output-channel linear op of its input
    (LayerNorm's mean after a depthwise conv, a projection, fc2 + residual).

        %c = linalg.depthwise_conv_2d_nchw_chw ins(%y, %w : tensor<1x8x6x6xf32>, tensor<8x3x3xf32>)
               outs(%init : tensor<1x8x4x4xf32>)
        %t = linalg.transpose ins(%c : tensor<1x8x4x4xf32>) ... permutation = [0, 2, 3, 1]
        %s = linalg.generic {(d0, d1, d2, d3) -> (d0, d1, d2, d3), -> (d0, d1, d2, 0);
               parallel, parallel, parallel, reduction} ins(%t) outs(%zeros : tensor<1x4x4x1xf32>) { addf }
      ->
        %m = linalg.conv_2d_nchw_fchw ins(%y, %w1 : tensor<1x8x6x6xf32>, tensor<1x8x3x3xf32>)
               outs(%init1 : tensor<1x1x4x4xf32>)        // w1[0, c] = w[c], init1 = sum_c init[c]
        %s = linalg.transpose ins(%m : tensor<1x1x4x4xf32>) ... permutation = [0, 2, 3, 1]

    With an add on the way (`%t = %r + proj(%a)`), the sum is `sum(%r) + m(%a)`.

    Legality (`summed_terms`, `one_channel_op`): the generic sums its one input over ONE
    axis of size > 1 into a zero init, keeping the other axes in place (the summed one as
    size 1); down casts, layout ops that keep that axis whole and tensor adds, at least
    one addend is a matmul / conv_2d_nchw_fchw / depthwise_conv_2d_nchw_chw with constant
    weight and init whose output channel is the summed axis, through constant affine
    steps that scale along that channel only; and the cost rule allows one level for the
    one-channel ops' weights (`sum_cost`); a batch_matmul counts when its right operand is
    constant (`_batch_matmul_view`); the generic is none of the sums it wrote for
    the addends it left.
    """

    op_types = (GenericOp,)

    def __init__(self, reader: ConstantFolder | None = None, rule: CostRule | None = None):
        self.reader = ConstantFolder() if reader is None else reader
        self.rule = CostRule() if rule is None else rule
        # The sums this pattern wrote for the addends it left (the residual's): never
        # split again, or each LayerNorm would split the whole residual stream below it.
        self.written: set[Operation] = set()

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        reduction = match_sum_reduction(op) if op not in self.written else None
        if reduction is None or len(reduction.reduced_axes) != 1:
            return
        (axis,) = reduction.reduced_axes
        in_type, out_type = reduction.operand.type, op.res[0].type
        assert isinstance(in_type, TensorType) and isinstance(out_type, TensorType)
        if in_type.get_shape()[axis] < 2 or out_type != _with_unit_channel(in_type, axis):
            return
        init = self.reader.fold(reduction.init)
        if init is None or np.any(init != 0):
            return
        terms = summed_terms(reduction.operand, axis, self.reader)
        plans = [one_channel_op(t, self.reader) if t.view is not None else None for t in terms]
        if not any(plans):
            return
        chosen = [p for p in plans if p is not None]
        if not self.rule.allows(sum_cost(chosen, [_positions(p) for p in chosen])):
            return
        self._rewrite(op, terms, plans, rewriter)

    def _rewrite(self, op: GenericOp, terms: list[Term], plans: list[OneChannelOp | None],
                 rewriter: PatternRewriter) -> None:
        new_ops: list[Operation] = []
        summands: list[SSAValue] = []
        for term, plan in zip(terms, plans):
            if plan is not None:
                weight, ops, result = _emit_one_channel(plan)
                rewriter.insert(weight, constant_insertion_point(op))
                replayed = _replay(result, term.path, unit=True)
                new_ops += [*ops, *replayed]
                summands.append(replayed[-1].results[0] if replayed else result)
                continue
            replayed = _replay(term.leaf, term.path, unit=False)
            source = replayed[-1].results[0] if replayed else term.leaf
            own = op.clone()
            own.operands[0] = source
            self.written.add(own)
            new_ops += [*replayed, own]
            summands.append(own.results[0])
        total = summands[0]
        for value in summands[1:]:
            add = arith.AddfOp(total, value)
            new_ops.append(add)
            total = add.result
        rewriter.insert(new_ops, InsertPoint.before(op))
        rewriter.replace(op, [], [total])


__all__ = [
    "FoldChannelSumIntoLinearOp",
    "OneChannelOp",
    "PathStep",
    "Term",
    "channel_sum_init",
    "channel_sum_weights",
    "one_channel_op",
    "sum_cost",
    "summed_terms",
]
