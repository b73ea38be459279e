"""A per-channel constant scale / shift folded FORWARD into the linear ops after it.

LayerNorm's affine part, `x̂ * gamma + beta` (ConvNeXt, ViT/DeiT, MobileViT), follows
the ciphertext x ciphertext normalisation `(x - mean) * rstd`, so no linear op before it
can take gamma, and pointwise fusion then puts gamma into the normalisation's generic:
one plaintext multiply, one CKKS level per LayerNorm. The linear op AFTER it (the MLP's
fc1, attention's qkv projection, ConvNeXt's downsampling conv, the classifier) can:

    L(x̂ * g + b) = (W diag(g)) x̂ + (init + W b)

`W diag(g)` has W's size, `W b` is a per-output-channel vector (the init's own form), so
nothing grows. Torch writes the LayerNorm over the last axis (NHWC for ConvNeXt, whose
convs then read a `linalg.transpose` to NCHW; [tokens, C] behind a `collapse_shape` for
the ViTs' matmuls), so the channel axis is followed through the layout ops between:
transposes, reshapes that keep the channel dimension whole, slices of other axes (ViT's
class token before the head), f32 <-> f16 casts (torch-mlir's
half form rounds the LayerNorm's f32 result to f16 before the transpose) and, for a scale
only, a zero `tensor.pad` of other axes (0 * g = 0; a shift would not be zero there).

Several readers (DeiT's final LayerNorm read by two heads through the class and the
distillation token's `extract_slice`s; ConvNeXt's stem LayerNorm read by the first
depthwise conv and by the first block's residual add): each linear reader reached
through such layout ops takes its own `W diag(g)` and `W b` (its weight is replaced, so
distinct Linears grow nothing; two readers sharing one weight constant would each hold
a scaled copy). Every other reader (a residual add, a nonlinearity, a slice that cuts
the channel, a linear op contracting another axis, a pad after a shift) keeps the
scaled value, so the step stays for it, and a layout op both kinds read is copied for
the linear readers (ConvNeXt's stem: one NHWC -> NCHW transpose). The linear readers
lose the step's level, the others keep it: never deeper.

`linalg-fuse-linear-chains` folds such a step into a following NCHW conv as a 1x1 diagonal
conv, but not across the NHWC -> NCHW transpose or into a matmul's rows; this pattern runs
in `linalg-fuse-linear-ops`' group, after the backward folds and `MergeAffineRun`, before
pointwise fusion can hide the step in a generic.

f16 / bf16: the folded weight is computed in float64 from the unrounded weight a previous
fold wrote (`ConstantFolder.fold_unrounded`), rounded once to the weight's type and
remembered (`remember_unrounded`); the f32 init takes `W b` in float64, rounded once. A
cast in the path is left where it is: the rounded value becomes the normalised x̂ instead
of x̂ * g + b (for a LayerNorm |x̂| <= sqrt(C), so no new overflow), which changes the
result by the roundings only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import ShapedType, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import NO_BLOBS, constant_array
from heirpy.ir.dialects.linalg import (
    BroadcastOp,
    Conv2DNchwFchwOp,
    DepthwiseConv2DNchwChwOp,
    GenericOp,
    MatmulOp,
    MatvecOp,
    TransposeOp,
    VecmatOp,
    YieldOp,
)
from heirpy.ir.utils import affine_maps, all_parallel, is_identity, reassociation_groups, static_shape
from heirpy.transforms.linear.affine_runs import compose_run
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    erase_dead_constant_slices,
)
from heirpy.transforms.linear.linear_maps import channel_vector
from heirpy.transforms.linear.linear_match import (
    LinearOpView,
    insert_refolded,
    linear_op_view,
    match_elementwise_affine,
    may_be_linear_op,
)
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, in_generic_body

# (op class, activation operand) -> (contracted axis of the activation, of the weight)
_CONTRACTED: dict[tuple[type[Operation], int], tuple[int, int]] = {
    (MatmulOp, 0): (1, 0),  # x[M, K] @ W[K, N]
    (MatmulOp, 1): (0, 1),  # W[M, K] @ x[K, N]
    (MatvecOp, 1): (0, 1),  # W[M, K] @ x[K]
    (VecmatOp, 0): (0, 0),  # x[K] @ W[K, N]
    (Conv2DNchwFchwOp, 0): (1, 1),  # x[N, C, H, W], W[F, C, kh, kw]
    (DepthwiseConv2DNchwChwOp, 0): (1, 0),  # x[N, C, H, W], W[C, kh, kw]
}


def _is_cast(op: Operation) -> bool:
    """An f32 <-> f16/bf16 cast of a whole tensor: `arith.truncf` / `arith.extf` on
    tensors, or a one-op generic doing it with identity maps."""
    if isinstance(op, (arith.TruncFOp, arith.ExtFOp)):
        return isinstance(op.results[0].type, TensorType)
    if not isinstance(op, GenericOp) or len(op.inputs) != 1 or len(op.res) != 1:
        return False
    body = list(op.body.block.ops)
    if len(body) != 2 or not isinstance(body[0], (arith.TruncFOp, arith.ExtFOp)) or not isinstance(body[1], YieldOp):
        return False
    if body[0].operands[0] is not op.body.block.args[0] or body[1].operands[0] is not body[0].results[0]:
        return False
    return all_parallel(op.iterator_types) and all(is_identity(m) for m in affine_maps(op.indexing_maps))


def _collapsed_axis(groups: list[list[int]], source: tuple[int, ...], axis: int) -> int | None:
    """The result axis of a `collapse_shape` holding source `axis` whole (the other
    dimensions of its group of size 1), else None."""
    for index, group in enumerate(groups):
        if axis in group:
            return index if all(source[d] == 1 for d in group if d != axis) else None
    return None


def _expanded_axis(groups: list[list[int]], result: tuple[int, ...], axis: int) -> int | None:
    """The result axis of an `expand_shape` that holds source `axis` whole (the other
    dimensions of its group of size 1), else None."""
    group = groups[axis]
    wide = [d for d in group if result[d] != 1]
    if len(wide) > 1:
        return None
    return wide[0] if wide else group[0]


def _zero_pad_keeps(op: tensor.PadOp, reader: ConstantFolder, axis: int | None) -> bool:
    """A static pad with the constant 0 that does not pad `axis`."""
    if op.low or op.high:
        return False
    low, high = list(op.static_low.get_values()), list(op.static_high.get_values())
    block_ops = list(op.region.block.ops)
    if len(block_ops) != 1:
        return False
    value = reader.fold(block_ops[0].operands[0])
    if value is None or value.ndim != 0 or float(value) != 0.0:
        return False
    return axis is None or low[axis] == high[axis] == 0


@dataclass(frozen=True)
class LinearReader:
    """A linear op reading an elementwise step's result through layout ops: `path` the
    layout ops from the step on (each reads the previous one's result as operand 0),
    `index` the operand of `linear` the path enters, `axis` the channel axis there (None:
    the step is uniform), `padded` whether a zero pad is on the way."""

    path: tuple[Operation, ...]
    linear: Operation
    index: int
    axis: int | None
    padded: bool


def linear_readers(value: SSAValue, axis: int | None, reader: ConstantFolder) -> list[LinearReader]:
    """Every linear op that reads `value` through layout ops contracting the channel
    `axis` (followed along the way), in use order. Every other reader (a residual add, a
    nonlinearity, a reshape that splits the channel, a slice that cuts it, a pad that is
    not a zero pad, a linear op contracting another axis) is no linear reader: it keeps
    reading the scaled value."""
    found: list[LinearReader] = []
    pending: list[tuple[SSAValue, int | None, bool, tuple[Operation, ...]]] = [(value, axis, False, ())]
    while pending:
        value, axis, padded, path = pending.pop()
        for use in value.uses:
            user = use.operation
            if may_be_linear_op(user):
                contracted = _CONTRACTED.get((type(user), use.index))
                if contracted is not None and (axis is None or axis == contracted[0]):
                    found.append(LinearReader(path, user, use.index, axis, padded))
                continue
            moved = _through(user, use.index, value, axis, reader)
            if moved is not None:
                pending.append((user.results[0], moved[0], padded or moved[1], (*path, user)))
    return found


def only_read_by(op: Operation, readers: Sequence[LinearReader]) -> bool:
    """Pure legality: do only `readers` read `op`'s result (through layout ops on their
    paths)? Then `op` may read the unscaled value as it is; otherwise a copy of it does,
    and `op` keeps the scaled value for its other readers."""
    ends = {(r.linear, r.index) for r in readers}
    on_path = {o for r in readers for o in r.path}
    pending = [op]
    while pending:
        current = pending.pop()
        for use in current.results[0].uses:
            if (use.operation, use.index) in ends:
                continue
            if use.operation not in on_path or use.index != 0:
                return False
            pending.append(use.operation)
    return True


def _through(
    user: Operation, index: int, value: SSAValue, axis: int | None, reader: ConstantFolder
) -> tuple[int | None, bool] | None:
    """The channel axis after the layout op `user` reading `value`, and whether it is a
    (zero) pad; None when `user` is no layout op the fold may pass."""
    source = static_shape(value.type)
    result = static_shape(user.results[0].type) if len(user.results) == 1 else None
    if source is None or result is None or index != 0:
        return None
    if isinstance(user, tensor.PadOp):
        return (axis, True) if _zero_pad_keeps(user, reader, axis) else None
    if isinstance(user, tensor.ExtractSliceOp):  # ViT's class token before the head
        return (axis, False) if _slice_keeps(user, source, result, axis) else None
    if axis is None:
        layout = isinstance(user, (TransposeOp, tensor.CollapseShapeOp, tensor.ExpandShapeOp)) or _is_cast(user)
        return (None, False) if layout else None
    moved = _layout_axis(user, source, result, axis)
    return None if moved is None else (moved, False)


def _slice_keeps(op: tensor.ExtractSliceOp, source: tuple[int, ...], result: tuple[int, ...], axis: int | None) -> bool:
    """A static slice of the same rank that keeps all of `axis` (offset 0, stride 1)."""
    if op.offsets or op.sizes or op.strides or len(result) != len(source):
        return False
    offsets, sizes, strides = (list(a.get_values()) for a in (op.static_offsets, op.static_sizes, op.static_strides))
    return axis is None or (offsets[axis] == 0 and sizes[axis] == source[axis] and strides[axis] == 1)


def _layout_axis(op: Operation, source: tuple[int, ...], result: tuple[int, ...], axis: int) -> int | None:
    """Where the layout op `op` (a transpose, a reshape or a cast) puts the source
    `axis` whole; None for any other op or when the axis does not survive whole."""
    if isinstance(op, TransposeOp):
        return list(op.permutation.get_values()).index(axis)
    if isinstance(op, tensor.CollapseShapeOp):
        return _collapsed_axis(reassociation_groups(op.properties["reassociation"]), source, axis)
    if isinstance(op, tensor.ExpandShapeOp):
        return _expanded_axis(reassociation_groups(op.properties["reassociation"]), result, axis)
    return axis if _is_cast(op) else None


@dataclass(frozen=True)
class ChannelAffine:
    """`x * scale + shift` with both vectors along the channel axis of the step's
    result (`axis`), or scalars (`axis` None)."""

    axis: int | None
    scale: np.ndarray
    shift: np.ndarray


def channel_affine(full_scale: np.ndarray, full_shift: np.ndarray) -> ChannelAffine | None:
    """Pure: the step `x * full_scale + full_shift` (arrays at the result's shape) as a
    per-channel affine map, if both vary along one common axis at most."""
    scale_axes = _varying(full_scale)
    shift_axes = _varying(full_shift)
    axes = set(scale_axes) | set(shift_axes)
    if not axes:
        return ChannelAffine(None, full_scale.reshape(-1)[:1].copy(), full_shift.reshape(-1)[:1].copy())
    if len(axes) != 1:
        return None
    (axis,) = axes
    scale = channel_vector(full_scale, axis)
    shift = channel_vector(full_shift, axis)
    assert scale is not None and shift is not None
    return ChannelAffine(axis, scale, shift)


def _varying(full: np.ndarray) -> list[int]:
    return [a for a in range(full.ndim) if not np.all(full == np.take(full, [0], axis=a))]


def fold_forward(view: LinearOpView, init: np.ndarray, affine: ChannelAffine) -> tuple[np.ndarray, np.ndarray]:
    """Pure: the weight and init of `L(x * scale + shift)` as one linear op of x, in
    float64: the weight scaled along its contracted axis, `W shift` added to the init
    along the output axis (a shift is constant over every other axis, so with no pad
    on the way each output reads it through the whole weight)."""
    _, weight_in = _CONTRACTED[(type(view.op), view.activation_index)]
    weight = view.weight.astype(np.float64)
    channels = weight.shape[weight_in]
    scale = np.broadcast_to(affine.scale.astype(np.float64), (channels,))
    shift = np.broadcast_to(affine.shift.astype(np.float64), (channels,))
    along = [1] * weight.ndim
    along[weight_in] = channels
    new_weight = weight * scale.reshape(along)
    if weight_in == view.weight_axis:  # depthwise: channel c reads only W[c]
        others = tuple(a for a in range(weight.ndim) if a != weight_in)
        per_output = shift * weight.sum(axis=others)
    else:
        contracted = np.tensordot(weight, shift, axes=([weight_in], [0]))
        out_axis = view.weight_axis - (1 if view.weight_axis > weight_in else 0)
        others = tuple(a for a in range(contracted.ndim) if a != out_axis)
        per_output = contracted.sum(axis=others)
    shape = [1] * init.ndim
    shape[view.out_axis] = per_output.size
    return new_weight, init.astype(np.float64) + per_output.reshape(shape)


def _constants_of(op: Operation, activation: SSAValue) -> list[SSAValue]:
    """The operands of the elementwise step `op` other than its activation, with the
    values its generic body captures from outside (a scalar divisor)."""
    values = [v for v in op.operands if v is not activation]
    if isinstance(op, GenericOp):
        values = [v for v in op.inputs if v is not activation]
        inner = {r for o in op.body.walk() for r in o.results} | set(op.body.block.args)
        values += [v for o in op.body.walk() for v in o.operands if v not in inner]
    return values


def _one_number(value: SSAValue) -> bool:
    """Is the constant `value` written as one number (a scalar, a one-element tensor, a
    splat literal, through broadcasts, reshapes and casts)? The depth model reads such a
    scale as free, and a global pool's divide is one; a per-channel parameter vector (a
    LayerNorm's weight, ones before training) is not, whatever its values."""
    if not isinstance(value.type, ShapedType):
        return True
    shape = static_shape(value.type)
    if shape is not None and prod(shape) == 1:
        return True
    owner = value.owner
    if isinstance(owner, Operation) and owner.operands and (
        isinstance(owner, (BroadcastOp, tensor.ExpandShapeOp, tensor.CollapseShapeOp)) or _is_cast(owner)
    ):
        return _one_number(owner.operands[0])
    array = constant_array(value, NO_BLOBS)
    return array is not None and array.size > 0 and bool(np.all(array == array.flat[0]))


class FoldAffineIntoNextLinearOp(OpPattern[Operation], OutsideGenericBodies):
    """Fold `x * g + b` (g, b constant vectors along one channel axis) into each linear
    op that reads it through layout ops (LayerNorm's gamma and beta into the next Linears).

        %n = linalg.generic ins(%xc, %rstd : tensor<1x4x4x8xf32>, tensor<1x4x4x1xf32>) { mulf }
        %s = linalg.generic ins(%n, %gamma : tensor<1x4x4x8xf32>, tensor<8xf32>) { mulf }   // (d3)
        %t = linalg.generic ins(%s, %beta : tensor<1x4x4x8xf32>, tensor<8xf32>) { addf }   // (d3)
        %p = linalg.transpose ins(%t : tensor<1x4x4x8xf32>) ... permutation = [0, 3, 1, 2]
        %c = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x8x4x4xf32>, tensor<16x8x1x1xf32>)
               outs(%init : tensor<1x16x4x4xf32>)
      ->
        %p = linalg.transpose ins(%n : tensor<1x4x4x8xf32>) ... permutation = [0, 3, 1, 2]
        %c = linalg.conv_2d_nchw_fchw ins(%p, %w_g : ...) outs(%init_b : ...)

    with `w_g[f, c] = w[f, c] * gamma[c]` and `init_b = init + sum_c w[f, c] * beta[c]`
    broadcast along the output channel; the pattern fires on the add, then on the
    multiply (each step folds on its own). With a second reader of `%p` that is no
    linear op (a residual `arith.addf %p, %x`), `%p` and the step stay for it and the
    conv reads a copy `linalg.transpose ins(%n ...)`; with two slices of `%t` into two
    matmuls (DeiT's heads) each matmul takes its own `w_g`, `init_b`.

    Legality (`linear_readers`, `only_read_by`, `channel_affine`): the step is an
    elementwise affine op with a constant operand (`match_elementwise_affine`) varying
    along one axis at most, and not written as one number (a scalar or splat step is
    left to `linalg-fuse-linear-chains`, which weighs a global pool's divide with the
    Linear after it, and the depth model charges it no level; a LayerNorm weight of ones
    is a vector). A reader folds when it is a matmul / matvec / vecmat /
    conv_2d_nchw_fchw / depthwise conv reading the value as its activation through
    layout ops (transposes, reshapes and casts keeping the channel whole, slices of
    other axes, zero pads of other axes), with a constant weight and init
    (`linear_op_view`), the channel axis being the one it contracts, and no pad on its
    way when the step has a shift. At least one reader must fold, and no linear op may
    read the value twice; every other reader keeps the scaled value (with `split`
    False, IREE's rule, every reader must fold).
    """

    op_types = (GenericOp, arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp)

    def __init__(self, reader: ConstantFolder | None = None, split: bool = True):
        self.reader = ConstantFolder() if reader is None else reader
        # False (IREE's `max-mac-growth=1`): fold only when every reader folds and the
        # step goes; a split keeps the step, copies shared layout ops, and leaves its
        # producer two consumers (ConvNeXt-atto's stem under IREE: 36 -> 37 dispatches).
        self.split = split

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or len(op.results) != 1:
            return
        step = match_elementwise_affine(op, self.reader)
        if step is None or not step.is_affine() or step.operand.type != step.result.type:
            return
        composed = compose_run([step])
        if composed is None:
            return
        affine = channel_affine(composed.scale, composed.shift)
        if affine is None:
            return
        if affine.axis is None and any(_one_number(v) for v in _constants_of(step.op, step.operand)):
            return  # a scalar / splat step is the chains' (a pool's divide), and costs no level
        folds: list[tuple[LinearReader, LinearOpView, np.ndarray, np.ndarray]] = []
        for path in linear_readers(step.result, affine.axis, self.reader):
            if path.padded and np.any(affine.shift != 0):
                continue  # the padding would read the shift: this reader keeps the step
            view = linear_op_view(path.linear, self.reader)
            init = None if view is None else self.reader.init_value(view.init)
            if view is None or view.activation_index != path.index or init is None:
                continue
            folds.append((path, view, *fold_forward(view, init, affine)))
        if not folds or len({id(f[1].op) for f in folds}) != len(folds):
            return
        if not self.split and not only_read_by(op, [f[0] for f in folds]):
            return  # another reader would keep the step
        self._rewrite(step.op, step.operand, folds, rewriter)

    def _rewrite(self, op: Operation, operand: SSAValue,
                 folds: list[tuple[LinearReader, LinearOpView, np.ndarray, np.ndarray]],
                 rewriter: PatternRewriter) -> None:
        readers = [f[0] for f in folds]
        # Where each reader's path meets the unscaled value: the first layout op only
        # readers read; above it (a layout op another user reads too) a copy.
        entries: list[tuple[Operation, int, SSAValue]] = []
        for path in readers:
            value: SSAValue = op.results[0]
            for layout in path.path:
                if only_read_by(layout, readers):
                    entries.append((layout, 0, value))
                    break
                value = layout.results[0]
            else:
                entries.append((path.linear, path.index, value))
        twins: dict[SSAValue, SSAValue] = {op.results[0]: operand}
        for user, index, entry in entries:
            if user.operands[index] is entry:  # not rewired yet by a reader sharing it
                user.operands[index] = _unscaled(entry, twins, rewriter)
        for _, view, weight, init in folds:
            new_linear, weight_value, init_value = insert_refolded(view, weight, init, rewriter)
            self.reader.remember_unrounded(weight_value, weight)  # f16: rounded once per run
            self.reader.remember_unrounded(init_value, init)
            old_operands = list(view.op.operands)
            rewriter.replace(view.op, [], [new_linear.results[0]])
            erase_dead_constant_slices(rewriter, old_operands)
        if not op.results[0].uses:
            old_operands = list(op.operands)
            rewriter.erase(op)
            erase_dead_constant_slices(rewriter, old_operands)


def _unscaled(value: SSAValue, twins: dict[SSAValue, SSAValue], rewriter: PatternRewriter) -> SSAValue:
    """The value of the layout ops from the step to `value` applied to the step's input:
    `twins` maps the step's result to its input, and each layout op another user reads
    too gets a copy after it reading the copy before (made once, remembered)."""
    if value not in twins:
        layout = value.owner
        assert isinstance(layout, Operation)
        copy = layout.clone()
        copy.operands[0] = _unscaled(layout.operands[0], twins, rewriter)
        rewriter.insert(copy, InsertPoint.after(layout))
        twins[value] = copy.results[0]
    return twins[value]
