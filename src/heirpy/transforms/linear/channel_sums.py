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
* layout ops (transpose, expand/collapse_shape) along which the summed channel stays
  one mixed-radix digit of some dimension (`channel_digit`): whole, or merged with
  other axes as MobileViT's unfold does (`[1, C, 8, 8] -> [C*4, 2, 4, 2] -> ... ->
  [4, 16, C]`), replayed with that digit removed (the channel of size 1);
* constant affine steps right after the op (a bias, a layer scale: `x * s + t` with `s`
  along the channel), folded into the new op's weight and init;
* adds of two tensors (the residual): the sum of an add is the sum of each side; a side
  that reaches no linear op keeps a sum of its own (the residual's, at the residual's
  depth, shallower than the op);
* where no linear op is reached otherwise: the add of a constant of the same shape (ViT's
  position embedding; its channel sum is a constant) and a `tensor.concat` along another
  axis than the summed one (ViT's class token before the patches: the sum of a concat is
  the concat of its parts' sums), each part a constant or reaching linear ops and
  constants only; and a constant shift (`x + t`, a bias broadcast along the channel)
  with a layout op between it and the op, where it cannot fold into the op's init
  (MobileViT's projection once `SharedWeightBatchMatmulToMatmul` writes it as matmul ->
  expand_shape -> bias): its channel sum is a constant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    """A cast or layout op on the way from a term to the sum, with the dimension of its
    result that holds the channel (whole, or as one digit of it: `Digit`)."""

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
    # A constant addend: its value at the leaf (its channel sum is a constant).
    constant: np.ndarray | None = field(default=None, compare=False)
    # A concat along another axis than the channel: each part's terms (paths from the part).
    parts: tuple[tuple[Term, ...], ...] = ()


def reaches_linear(term: Term) -> bool:
    """Pure: whether `term` is, or holds in a concat part, a linear term."""
    return term.view is not None or any(reaches_linear(t) for part in term.parts for t in part)


def linear_terms(term: Term) -> list[Term]:
    """Pure: the linear terms of `term` (itself, or those of its concat parts)."""
    if term.view is not None:
        return [term]
    return [t for part in term.parts for inner in part for t in linear_terms(inner)]


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


@dataclass(frozen=True)
class Digit:
    """Where the summed channel (of size `size`) sits in a tensor: index `i` of
    dimension `axis` holds channel `(i // inner) % size` (one digit of the dimension's
    mixed-radix index). The channel is the whole axis when the dimension's size is
    `size` (then `inner` is 1)."""

    axis: int
    inner: int
    size: int

    def whole(self, shape: tuple[int, ...]) -> bool:
        return self.inner == 1 and shape[self.axis] == self.size


def reshape_digit(source: tuple[int, ...], result: tuple[int, ...], digit: Digit) -> Digit | None:
    """Pure: the digit of a row-major reshape's `source` holding `result`'s `digit`, or
    None when the channel is not one digit there (a reshape that splits the channel
    across dimensions or mixes it with other indices). A reshape keeps the flat index,
    so the channel is the flat digit of stride `inner * prod(result[axis+1:])`; in the
    source it is dimension d's digit of inner stride `stride / prod(source[d+1:])`
    when that divides and the channel's `size` fits whole in dimension d above it."""
    stride = digit.inner * prod(result[digit.axis + 1:])
    for axis in range(len(source)):
        below = prod(source[axis + 1:])
        if stride % below == 0 and source[axis] % (stride // below * digit.size) == 0:
            return Digit(axis, stride // below, digit.size)
    return None


def _source_digit(op: Operation, digit: Digit) -> Digit | None:
    """The digit of the layout op `op`'s source that holds its result's `digit`, or
    None (see `reshape_digit`)."""
    source = static_shape(op.operands[0].type)
    result = static_shape(op.results[0].type)
    if source is None or result is None:
        return None
    if isinstance(op, TransposeOp):
        return Digit(list(op.permutation.get_values())[digit.axis], digit.inner, digit.size)
    if isinstance(op, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        return reshape_digit(tuple(source), tuple(result), digit)
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


def _add_operands(op: Operation) -> tuple[SSAValue, SSAValue] | None:
    """The two addends of an add of same-shaped tensors (`arith.addf` on tensors, or a
    generic adding two inputs read through identity maps)."""
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
    return pair if all(v.type == op.results[0].type for v in pair) else None


def _tensor_add(op: Operation, reader: ConstantFolder) -> tuple[SSAValue, SSAValue] | None:
    """The two addends of an add of same-shaped non-constant tensors."""
    pair = _add_operands(op)
    if pair is None or any(reader.fold(v) is not None for v in pair):
        return None
    return pair


def _constant_add(op: Operation, reader: ConstantFolder) -> tuple[SSAValue, SSAValue] | None:
    """`(x, c)` for an add `x + c` (either order) of same-shaped tensors, `c` constant."""
    pair = _add_operands(op)
    if pair is None:
        return None
    constant = [reader.fold(v) is not None for v in pair]
    if constant == [False, True]:
        return pair
    if constant == [True, False]:
        return pair[1], pair[0]
    return None


def _shift(op: Operation, reader: ConstantFolder) -> tuple[SSAValue, np.ndarray] | None:
    """`(x, t)` for `x + t` / `t + x` / `x - c` (`t = -c`) with a constant `t` broadcast
    to the result's shape (a bias generic reading `(d2)`), `x` of the result's type.
    A bias that `_linear_term` cannot fold into an op's init because a layout op stands
    between them (`SharedWeightBatchMatmulToMatmul`'s `expand_shape` after the matmul):
    its channel sum is a constant."""
    step = match_elementwise_affine(op, reader)
    if step is None or step.operand.type != step.result.type:
        return None
    if step.kind == "add":
        shift = step.constant
    elif step.kind == "sub" and step.operand_is_lhs:
        shift = -step.constant
    else:
        return None
    if np.isnan(shift).any():
        return None
    return step.operand, np.asarray(shift)


def _constant_term(value: SSAValue, axis: int, path: tuple[PathStep, ...], reader: ConstantFolder) -> Term | None:
    folded = reader.fold(value)
    if folded is None or np.isnan(folded).any():  # a tensor.empty reads as NaN
        return None
    return Term(value, axis, path, constant=folded)


def _split_terms(value: SSAValue, axis: int, reader: ConstantFolder, path: tuple[PathStep, ...],
                 adds: int) -> list[Term] | None:
    """`value`'s terms through the add of a constant (its sum a constant) or a concat
    along another axis than `axis` (the concat of its parts' sums: each part a constant
    or terms that are linear or constant), when that reaches a linear op; else None."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    pair = _constant_add(owner, reader)
    if pair is not None:
        constant = _constant_term(pair[1], axis, path, reader)
        inner = summed_terms(pair[0], axis, reader, path, adds)
        if constant is None or not any(reaches_linear(t) for t in inner):
            return None
        return [*inner, constant]
    shifted = _shift(owner, reader)
    if shifted is not None:
        inner = summed_terms(shifted[0], axis, reader, path, adds)
        if not any(reaches_linear(t) for t in inner):
            return None
        return [*inner, Term(value, axis, path, constant=shifted[1])]
    if not isinstance(owner, tensor.ConcatOp) or owner.dim.value.data == axis:
        return None
    parts: list[tuple[Term, ...]] = []
    for part in owner.inputs:
        const = _constant_term(part, axis, (), reader)
        terms = [const] if const is not None else summed_terms(part, axis, reader, (), adds)
        if any(t.view is None and t.constant is None and not t.parts for t in terms):
            return None  # a part that is neither linear nor constant: the concat is summed whole
        parts.append(tuple(terms))
    if not any(reaches_linear(t) for part in parts for t in part):
        return None
    return [Term(value, axis, path, parts=tuple(parts))]


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
                 path: tuple[PathStep, ...] = (), adds: int = 1, digit: Digit | None = None) -> list[Term]:
    """The addends of `value` (summed over `axis`) down through casts, layout ops and
    at most `adds` tensor adds: a linear term where one is reached (`_linear_term`),
    else the value. One add is the residual's; below it the residual stream is a sum of
    every earlier block's output, and splitting it would give each LayerNorm a
    one-channel op per earlier block for no level (the residual is shallower).
    `digit`: where the channel sits in `value` when a layout op on the way merged it
    with other axes (None: the whole `axis`); only layout ops and casts are followed
    until it is whole again."""
    owner = value.owner
    shape = static_shape(value.type)
    if digit is None or (shape is not None and digit.whole(tuple(shape))):
        digit = None
    if isinstance(owner, Operation) and len(owner.results) == 1:
        if _cast_kind(owner) is not None:
            return summed_terms(owner.operands[0], axis, reader, (PathStep(owner, axis), *path), adds, digit)
        if isinstance(owner, (TransposeOp, tensor.CollapseShapeOp, tensor.ExpandShapeOp)) and shape is not None:
            source = _source_digit(owner, digit or Digit(axis, 1, shape[axis]))
            if source is not None:
                return summed_terms(owner.operands[0], source.axis, reader, (PathStep(owner, axis), *path), adds,
                                    source)
        if digit is not None:  # a merged channel reaches no other step: summed as it is
            return [Term(value, axis, path)]
        addends = _tensor_add(owner, reader) if adds > 0 else None
        if addends is not None:
            return [t for v in addends for t in summed_terms(v, axis, reader, path, adds - 1)]
    term = _linear_term(value, axis, path, reader)
    if term is not None:
        return [term]
    split = _split_terms(value, axis, reader, path, adds)
    return split if split is not None else [Term(value, axis, path)]


# ------------------------------------------------------------------------ emission
def _with_unit_channel(type_: TensorType, axis: int) -> TensorType:
    shape = list(type_.get_shape())
    shape[axis] = 1
    return TensorType(type_.get_element_type(), shape)


def _replay(value: SSAValue, path: tuple[PathStep, ...], channels: int | None) -> list[Operation]:
    """The path's casts and layout ops applied to `value`; with `channels`, `value` is a
    one-channel sum and each result's channel digit is removed (its dimension divided
    by `channels`: 1 where the channel is whole; the reassociations stay valid, as the
    digit is removed on both sides of each reshape)."""
    ops: list[Operation] = []
    for step in path:
        out = step.op.results[0].type
        assert isinstance(out, TensorType)
        if channels is not None:
            shape = list(out.get_shape())
            shape[step.axis] //= channels
            out = TensorType(out.get_element_type(), shape)
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


def sum_cost(plans: list[OneChannelOp], positions: list[int], constant_sums: int = 0) -> FusionCost:
    """Pure: one level saved for the weights of the new one-channel ops (the linear ops
    stay for their other readers; weights and MACs per sample) and `constant_sums`
    elements of constants' channel sums."""
    before = sum(p.term.view.weight.size for p in plans if p.term.view is not None)
    added = sum(p.weight.size for p in plans)
    macs = sum(p.term.view.weight.size * n for p, n in zip(plans, positions) if p.term.view is not None)
    added_macs = sum(p.weight.size * n for p, n in zip(plans, positions))
    inits = sum(init_elements(p.init) for p in plans)
    return FusionCost(1, before, before + added, macs, macs + added_macs,
                      constants_before=before, constants_after=before + added + inits + constant_sums)


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
        plans = {id(t): one_channel_op(t, self.reader) for term in terms for t in linear_terms(term)}
        ready = [_ready(t, plans) for t in terms]
        if not any(r and reaches_linear(t) for t, r in zip(terms, ready)):
            return
        chosen = [p for t, r in zip(terms, ready) if r for lt in linear_terms(t) if (p := plans[id(lt)]) is not None]
        constants = sum(_constant_sum_elements(t) for t, r in zip(terms, ready) if r)
        if not self.rule.allows(sum_cost(chosen, [_positions(p) for p in chosen], constants)):
            return
        self._rewrite(op, terms, ready, plans, rewriter)

    def _rewrite(self, op: GenericOp, terms: list[Term], ready: list[bool],
                 plans: dict[int, OneChannelOp | None], rewriter: PatternRewriter) -> None:
        new_ops: list[Operation] = []
        summands: list[SSAValue] = []
        for term, is_ready in zip(terms, ready):
            if is_ready:
                ops, result = _emit_unit_sum(term, plans, op, rewriter)
                new_ops += ops
                summands.append(result)
                continue
            replayed = _replay(term.leaf, term.path, None)
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


def _ready(term: Term, plans: dict[int, OneChannelOp | None]) -> bool:
    """Whether `term`'s channel sum can be written without a sum of its own: a linear
    term with a one-channel op, a constant, a concat of parts all ready."""
    if term.view is not None:
        return plans[id(term)] is not None
    if term.constant is not None:
        return True
    return bool(term.parts) and all(_ready(t, plans) for part in term.parts for t in part)


def _constant_sum_elements(term: Term) -> int:
    """Elements of the constant channel sums written for `term` (the constants stay for
    their other readers)."""
    if term.constant is not None:
        return term.constant.size // term.constant.shape[term.axis]
    return sum(_constant_sum_elements(t) for part in term.parts for t in part)


def _emit_unit_sum(term: Term, plans: dict[int, OneChannelOp | None], op: GenericOp,
                   rewriter: PatternRewriter) -> tuple[list[Operation], SSAValue]:
    """The ops computing a ready term's channel sum (channel of size 1, after its path)
    and their result; constants go before `op`'s constant insertion point."""
    ops: list[Operation] = []
    leaf_type = term.leaf.type
    assert isinstance(leaf_type, TensorType)
    if term.view is not None:
        plan = plans[id(term)]
        assert plan is not None
        weight, ops, result = _emit_one_channel(plan)
        rewriter.insert(weight, constant_insertion_point(op))
    elif term.constant is not None:
        unit_type = _with_unit_channel(leaf_type, term.axis)
        summed = term.constant.astype(np.float64).sum(axis=term.axis, keepdims=True)
        constant = dense_constant(summed.astype(element_dtype(unit_type)), unit_type)
        rewriter.insert(constant, constant_insertion_point(op))
        result = constant.result
    else:
        parts: list[SSAValue] = []
        for part in term.parts:
            part_sum: SSAValue | None = None
            for inner in part:
                inner_ops, value = _emit_unit_sum(inner, plans, op, rewriter)
                ops += inner_ops
                if part_sum is not None:
                    add = arith.AddfOp(part_sum, value)
                    ops.append(add)
                    value = add.result
                part_sum = value
            assert part_sum is not None
            parts.append(part_sum)
        concat_op = term.leaf.owner
        assert isinstance(concat_op, tensor.ConcatOp)
        concat = tensor.ConcatOp(parts, concat_op.dim, _with_unit_channel(leaf_type, term.axis))
        ops.append(concat)
        result = concat.result
    # A ready term's channel is whole at its leaf: the channel count is the leaf's axis.
    replayed = _replay(result, term.path, leaf_type.get_shape()[term.axis])
    return [*ops, *replayed], (replayed[-1].results[0] if replayed else result)


__all__ = [
    "Digit",
    "FoldChannelSumIntoLinearOp",
    "OneChannelOp",
    "PathStep",
    "Term",
    "channel_sum_init",
    "channel_sum_weights",
    "linear_terms",
    "one_channel_op",
    "reaches_linear",
    "reshape_digit",
    "sum_cost",
    "summed_terms",
]
