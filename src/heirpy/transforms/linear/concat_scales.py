"""A batch norm after a channel concat: its scale split over the parts, and folded into
the linear op that made the deepest part even when other ops read that op's result.

DenseNet's dense layer `i` normalises `concat(x0, f1, ..., f(i-1))` (its `norm1`), where
`fj` is layer j's 3x3 conv and every later layer reads it again through its own concat
and its own batch norm. The concat is as deep as its deepest part, the fresh conv
`f(i-1)`, and the batch norm's multiply costs one level more; the depth bound counts it
folded into that conv. Two patterns take that level back with no constant growth:

1. `SplitScaleOverConcat`: a per-channel scale on a channel concat is the concat of the
   parts, each scaled by its slice of the scale (`concat(a, b) * s = concat(a * s[:Ca],
   b * s[Ca:])`); the shift stays after the concat (an add costs no level). No part gets
   deeper than the concat was, and the slices hold as many constants as the scale did.
2. `FoldScaleIntoSharedLinearOp`: a linear op (conv) whose result every reader scales
   per channel: one reader's scale `s` goes into the op's filter and init (`conv * s`),
   every other reader's scale `k` becomes `k / s` on the scaled result. The reader
   whose concat has no part deeper than the conv's input loses its level; the others
   keep one multiply each, as before. The weights keep their size.

In torch-mlir's half form each part is `truncf(conv)` and the batch norm's first
generic widens the concat (`extf` in its body); `WidenConcatOfRoundings` moves the
roundings past the concat (`concat(truncf(a), truncf(b)) = truncf(concat(a, b))`, exact),
so `mixed_precision.WidenElementwise` computes the batch norm on the f32 parts and the
two patterns see the f32 form.

Not under a cost rule that bounds MACs (`iree-prepare`): there the split is only more
ops.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.dialects.linalg import GenericOp
from heirpy.transforms.linear.affine_runs import AffineMapOfRun, _emit, compose_run, scales_in
from heirpy.transforms.linear.chains_through_concats import channel_concat_parts
from heirpy.transforms.linear.constant_folding import ConstantFolder, erase_dead_constant_slices
from heirpy.transforms.linear.linear_maps import channel_vector
from heirpy.transforms.linear.linear_match import (
    ElementwiseAffine,
    LinearOpView,
    insert_refolded,
    linear_op_view,
    match_elementwise_affine,
    weight_slots,
)
from heirpy.transforms.linear.mixed_precision import cast_generic, extf_source, truncf_source
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, constant_insertion_point

MAX_RUN = 8
"""The longest affine run split over a concat (torch-mlir writes a batch norm as four ops)."""

ANCESTORS = 4096
"""Producers visited looking for a concat's other parts among the conv input's ancestors."""

MAX_AFFINE_PREFIX = 4
"""Elementwise affine ops looked through from a concat part to the value it scales."""


def _affine_step(op: Operation, reader: ConstantFolder) -> ElementwiseAffine | None:
    """`op` as `x op K` (K constant, affine in x, same type in and out), or None."""
    step = match_elementwise_affine(op, reader)
    if step is None or not step.is_affine() or step.operand.type != step.result.type:
        return None
    return step


def _channel_producer(value: SSAValue) -> bool:
    """Is `value` the result of a linear op that writes channels along axis 1 of a 4-d
    tensor (a conv), into whose weights a per-channel scale of it can go?"""
    owner = value.owner
    if not isinstance(owner, Operation):
        return False
    return any(slot.out_axis == 1 for slot in weight_slots(owner)) and _rank(value) == 4


def _rank(value: SSAValue) -> int:
    return len(value.type.get_shape()) if isinstance(value.type, TensorType) else -1


def _ancestors(value: SSAValue, limit: int = ANCESTORS) -> set[SSAValue]:
    """`value` and the values it is computed from, breadth first, at most `limit`."""
    seen = {value}
    pending = deque([value])
    while pending and len(seen) < limit:
        owner = pending.popleft().owner
        if not isinstance(owner, Operation):
            continue
        for operand in owner.operands:
            if operand not in seen:
                seen.add(operand)
                pending.append(operand)
    return seen


def _scaled_source(value: SSAValue, reader: ConstantFolder) -> SSAValue:
    """The value `value` is computed from through at most MAX_AFFINE_PREFIX elementwise
    affine ops and exact widenings (`extf`; itself when its producer is neither): one
    level at most above it."""
    for _ in range(MAX_AFFINE_PREFIX):
        owner = value.owner
        step = _affine_step(owner, reader) if isinstance(owner, Operation) else None
        source = step.operand if step is not None else extf_source(value)
        if source is None:
            break
        value = source
    return value


class WidenConcatOfRoundings(OpPattern[tensor.ConcatOp], OutsideGenericBodies):
    """A narrow concat of rounded wide values, widened by its one reader: the roundings
    after the concat.

        %ta = arith.truncf %a : tensor<1x2x4x4xf32> to tensor<1x2x4x4xf16>
        %c = tensor.concat dim(1) %ta, %p : (tensor<1x2x4x4xf16>, tensor<1x3x4x4xf16>) -> tensor<1x5x4x4xf16>
        %s = linalg.generic ins(%c, %mean : ..xf16, 5x1x1xf32) outs(.. : ..xf32) { extf; subf }
      ->
        %pw = linalg.generic ins(%p : ..xf16) { extf } -> tensor<1x3x4x4xf32>
        %cw = tensor.concat dim(1) %a, %pw : (...) -> tensor<1x5x4x4xf32>
        %c = linalg.generic ins(%cw : ..xf32) { truncf } -> tensor<1x5x4x4xf16>
        %s = linalg.generic ins(%c, %mean ...) { extf; subf }           (unchanged)

    Why: rounding commutes with a concat, and `extf` then `truncf` is the identity, so
    the values are the same; `WidenElementwise` then reads `%cw` and the batch norm
    computes on the f32 parts, where `SplitScaleOverConcat` and the folds work (the
    mixed-precision rule: a linear run rounds once, where it ends).
    Legality: the concat's result is a narrower float than the parts' sources; it has
    one reader, a `linalg.generic` whose body uses the concat's element only in
    `arith.extf`s; at least one part is `truncf(y)` of a value `y` of one wide float
    type (`mixed_precision.truncf_source`), every other part is widened by an exact
    `extf`. A `truncf` no other op reads goes.
    """

    op_types = (tensor.ConcatOp,)

    def rewrite(self, op: tensor.ConcatOp, rewriter: PatternRewriter) -> None:
        if not op.result.has_one_use() or not isinstance(op.result.type, TensorType):
            return
        use = next(iter(op.result.uses))
        reader = use.operation
        if not isinstance(reader, GenericOp) or use.index >= len(reader.inputs):
            return
        arg = reader.body.block.args[use.index]
        if not arg.uses or not all(isinstance(u.operation, arith.ExtFOp) for u in arg.uses):
            return
        sources = [truncf_source(value) for value in op.inputs]
        wide_types = {source.type.get_element_type() for source in sources if source is not None}  # type: ignore[attr-defined]
        if len(wide_types) != 1:
            return
        wide = wide_types.pop()
        new_ops: list[Operation] = []
        inputs: list[SSAValue] = []
        for value, source in zip(op.inputs, sources):
            if source is None:
                new_ops += cast_generic(value, wide, arith.ExtFOp)
                source = new_ops[-1].results[0]
            inputs.append(source)
        shape = op.result.type.get_shape()
        concat = tensor.ConcatOp(inputs, op.dim, TensorType(wide, shape))
        new_ops.append(concat)
        new_ops += cast_generic(concat.result, op.result.type.get_element_type(), arith.TruncFOp)
        rounded = [value.owner for value, source in zip(op.inputs, sources) if source is not None]
        rewriter.insert(new_ops, InsertPoint.before(op))
        rewriter.replace(op, [], [new_ops[-1].results[0]])
        for owner in dict.fromkeys(rounded):
            if isinstance(owner, Operation) and not owner.results[0].uses:
                rewriter.erase(owner)


class SplitScaleOverConcat(OpPattern[tensor.ConcatOp], OutsideGenericBodies):
    """A per-channel affine run on a channel concat: the scale onto each part, the shift after.

        %c = tensor.concat dim(1) %a, %f : (tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x5x4x4xf32>
        %s = linalg.generic ins(%c, %scale : tensor<1x5x4x4xf32>, tensor<5x1x1xf32>) { mulf }
        %r = linalg.generic ins(%s, %shift : tensor<1x5x4x4xf32>, tensor<5x1x1xf32>) { addf }
      ->
        %sa = linalg.generic ins(%a, %scale[0:2] : ..., tensor<2x1x1xf32>) { mulf }
        %sf = linalg.generic ins(%f, %scale[2:5] : ..., tensor<3x1x1xf32>) { mulf }
        %c2 = tensor.concat dim(1) %sa, %sf
        %r = linalg.generic ins(%c2, %shift : tensor<1x5x4x4xf32>, tensor<5x1x1xf32>) { addf }

    Why: `%f`'s slice is then a scale right after a conv, which `FoldScaleIntoSharedLinearOp`
    (or `linalg-fuse-linear-ops` when the conv has no other reader) takes into the conv:
    the concat is then as deep as the conv, not one level deeper (module docstring).
    Legality: the concat joins static 4-d tensors along axis 1 and has one reader, the
    first op of a run of at most MAX_RUN elementwise affine ops with constants (`x op K`,
    each result but the last read only by the next op), with at least one multiply or
    divide; the run's composed scale and shift vary along axis 1 only; at least one part
    is the result of a linear op writing channels along axis 1 (a conv: there is
    something to fold into) that only channel concats and per-channel scales read (any
    other reader would keep the fold out, and the split would only be more ops). A part
    whose slice of the scale is all ones is not multiplied; a zero shift is no add. The
    constants keep their number of elements.
    """

    op_types = (tensor.ConcatOp,)

    def __init__(self, reader: ConstantFolder):
        self.reader = reader

    def rewrite(self, op: tensor.ConcatOp, rewriter: PatternRewriter) -> None:
        parts = channel_concat_parts(op)
        if parts is None or not op.result.has_one_use():
            return
        if not any(self._foldable(value) for value, _, _ in parts):
            return
        run = self._run(op.result)
        if run is None:
            return
        composed = compose_run(run)
        if composed is None:
            return
        scale, shift = channel_vector(composed.scale, 1), channel_vector(composed.shift, 1)
        if scale is None or shift is None:
            return
        shape = composed.scale.shape
        new_ops: list[Operation] = []
        constants: list[Operation] = []
        inputs: list[SSAValue] = []
        for value, offset, channels in parts:
            part_scale = scale[offset : offset + channels]
            if np.all(part_scale == 1.0):
                inputs.append(value)
                continue
            full = np.broadcast_to(
                part_scale.reshape(1, channels, 1, 1), (shape[0], channels, *shape[2:])
            )
            ops, consts, scaled = _emit(value, AffineMapOfRun(full, np.zeros(full.shape)))
            new_ops += ops
            constants += consts
            inputs.append(scaled)
        concat = tensor.ConcatOp(inputs, op.dim, op.result.type)
        new_ops.append(concat)
        ops, consts, result = _emit(
            concat.result, AffineMapOfRun(np.ones(shape), np.broadcast_to(shift.reshape(1, -1, 1, 1), shape))
        )
        new_ops += ops
        constants += consts
        last = run[-1].op
        for constant in constants:
            rewriter.insert(constant, constant_insertion_point(op))
        rewriter.insert(new_ops, InsertPoint.before(last))
        old_operands = [v for step in run for v in step.op.operands]
        rewriter.replace(last, [], [result])
        for step in reversed(run[:-1]):
            rewriter.erase(step.op)
        rewriter.erase(op)
        erase_dead_constant_slices(rewriter, old_operands)

    def _foldable(self, value: SSAValue) -> bool:
        """Could a scale of part `value` go into the conv that made it: a conv whose
        every reader is a channel concat or a per-channel multiply or divide (what
        `FoldScaleIntoSharedLinearOp` needs once the concats are split)?"""
        if not _channel_producer(value):
            return False
        for use in value.uses:
            if channel_concat_parts(use.operation) is not None:
                continue
            step = _affine_step(use.operation, self.reader)
            if step is None or step.kind not in ("mul", "div") or channel_vector(step.constant, 1) is None:
                return False
        return True

    def _run(self, value: SSAValue) -> list[ElementwiseAffine] | None:
        """The run of affine ops reading `value` (class docstring), or None."""
        run: list[ElementwiseAffine] = []
        while len(run) < MAX_RUN and value.has_one_use():
            step = _affine_step(next(iter(value.uses)).operation, self.reader)
            if step is None or step.operand is not value:
                break
            run.append(step)
            value = step.result
        if not run or scales_in(run) == 0:
            return None
        return run


class FoldScaleIntoSharedLinearOp(OpPattern[Operation], OutsideGenericBodies):
    """A conv whose every reader scales it per channel: one reader's scale into the conv.

        %f = linalg.conv_2d_nchw_fchw ins(%x, %w) outs(%init)
        %a = linalg.generic ins(%f, %s : ..., tensor<3x1x1xf32>) { mulf }   (into a concat
                                                   whose other parts are older than %x)
        %b = linalg.generic ins(%f, %k : ..., tensor<3x1x1xf32>) { mulf }   (a later reader)
      ->
        %f2 = linalg.conv_2d_nchw_fchw ins(%x, %w * s[f]) outs(%init * s)  (replaces %a)
        %b = linalg.generic ins(%f2, %k / %s : ..., tensor<3x1x1xf32>) { mulf }

    Why: `linalg-fuse-linear-ops` folds a scale into a linear op only when the scale is
    its one reader; DenseNet's conv `fj` is read by every later layer's concat, each
    through its own batch norm (`SplitScaleOverConcat` left one multiply per reader).
    Folding one of them saves that reader's level; the others still cost one multiply
    each, so no path gets deeper, and the filter keeps its size.
    Legality: the op is a linear op with a constant weight writing channels along axis 1
    of a 4-d result (`linear_op_view`, `out_axis == 1`); its result has readers (one
    only when it goes into a channel concat: a lone scale going elsewhere is
    `FuseElementwiseIntoLinearOp`'s), each an elementwise multiply or divide (`x * K`, `x / K`) by a constant
    that varies along axis 1 only; the scale folded has no zero (the others are divided
    by it); the reader taken is the first whose result is read by something other than
    a channel concat, or by a channel concat whose other parts are, up to
    MAX_AFFINE_PREFIX elementwise affine ops, among the conv input's first ANCESTORS
    ancestors (so at least one level shallower than the conv's result): its level is
    the one saved. With no such reader nothing changes.
    """

    op_types = (Operation,)  # a conv_2d_nchw_fchw or depthwise conv (`linear_op_view`)

    def __init__(self, reader: ConstantFolder):
        self.reader = reader

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or not op.results[0].uses or _rank(op.results[0]) != 4:
            return
        if not any(slot.out_axis == 1 for slot in weight_slots(op)):
            return
        view = linear_op_view(op, self.reader)
        if view is None or view.out_axis != 1:
            return
        scales = self._reader_scales(op.results[0])
        if scales is None:
            return
        taken = self._taken(view, [reader for reader, _ in scales])
        if taken is None or (len(scales) == 1 and not _into_concat(scales[0][0])):
            return  # one reader not into a concat: `FuseElementwiseIntoLinearOp`'s
        scale = scales[taken][1]
        if np.any(scale == 0) or not np.all(np.isfinite(1.0 / scale)):
            return
        init = self.reader.init_value(view.init)
        if init is None:
            return
        self._fold(view, scales, taken, init, rewriter)

    def _reader_scales(self, value: SSAValue) -> list[tuple[ElementwiseAffine, np.ndarray]] | None:
        """Each reader of `value` with its per-channel scale (float64), or None unless
        every reader is a per-channel multiply or divide of it."""
        scales: list[tuple[ElementwiseAffine, np.ndarray]] = []
        seen: set[Operation] = set()
        for use in value.uses:
            step = _affine_step(use.operation, self.reader)
            if step is None or step.operand is not value or step.kind not in ("mul", "div"):
                return None
            if step.op in seen:
                return None  # one op reading it twice: not a scale of it
            seen.add(step.op)
            vector = channel_vector(step.constant, 1)
            if vector is None:
                return None
            vector = vector.astype(np.float64)
            if step.kind == "div":
                if np.any(vector == 0):
                    return None
                vector = 1.0 / vector
            scales.append((step, vector))
        scales.sort(key=lambda item: _position(item[0].op))
        return scales

    def _taken(self, view: LinearOpView, readers: list[ElementwiseAffine]) -> int | None:
        """The index of the reader whose scale goes into the op (class docstring), or None."""
        ancestors: set[SSAValue] | None = None
        for index, step in enumerate(readers):
            if not _into_concat(step):
                return index
            concat = next(iter(step.result.uses)).operation
            if ancestors is None:
                ancestors = _ancestors(view.activation)
            others = [v for v in concat.operands if v is not step.result]
            if all(_scaled_source(v, self.reader) in ancestors for v in others):
                return index
        return None

    def _fold(
        self,
        view: LinearOpView,
        scales: list[tuple[ElementwiseAffine, np.ndarray]],
        taken: int,
        init: np.ndarray,
        rewriter: PatternRewriter,
    ) -> None:
        scale = scales[taken][1]
        weight_shape = [1] * view.weight.ndim
        weight_shape[view.weight_axis] = scale.size
        init_shape = [1] * init.ndim
        init_shape[1] = scale.size
        weight = view.weight.astype(np.float64) * scale.reshape(weight_shape)
        new_init = init.astype(np.float64) * scale.reshape(init_shape)
        new_linear, _, _ = insert_refolded(view, weight, new_init, rewriter)
        result = new_linear.results[0]
        old_operands = list(view.op.operands)
        for index, (step, vector) in enumerate(scales):
            old = [*step.op.operands]
            if index == taken:
                rewriter.replace(step.op, [], [result])
            else:
                shape = step.constant.shape
                ratio = np.broadcast_to((vector / scale).reshape(1, -1, 1, 1), shape)
                ops, constants, value = _emit(result, AffineMapOfRun(ratio, np.zeros(shape)))
                for constant in constants:
                    rewriter.insert(constant, constant_insertion_point(step.op))
                rewriter.insert(ops, InsertPoint.before(step.op))
                rewriter.replace(step.op, [], [value])
            erase_dead_constant_slices(rewriter, old)
        rewriter.erase(view.op)
        erase_dead_constant_slices(rewriter, old_operands)


def _into_concat(step: ElementwiseAffine) -> bool:
    """Is the step's result read once, by a channel concat?"""
    uses = list(step.result.uses)
    return len(uses) == 1 and channel_concat_parts(uses[0].operation) is not None


def _position(op: Operation) -> int:
    """`op`'s index in its block (readers are ordered by it, so the first one is taken)."""
    block = op.parent_block()
    if block is None:
        return 0
    return block.get_operation_index(op)
