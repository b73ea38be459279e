"""Fold bias, scale and batch-norm arithmetic into the preceding linear op.

Example (a conv, then its bias and a per-channel scale, as torch-mlir emits them):

    %c = linalg.conv_2d_nchw_fchw ins(%x, %w : ...) outs(%zero : tensor<1x2x3x3xf32>)
    %b = linalg.generic {maps = [id, (d0,d1,d2,d3) -> (d1)], ...}
           ins(%c, %bias) { arith.addf }
    %s = linalg.generic {...} ins(%b, %scale) { arith.mulf }

becomes one conv whose weights are `w * scale[f]` and whose init is the constant
`(0 + bias) * scale` (a `linalg.broadcast` of a 1-D constant when per-channel):

    %c = linalg.conv_2d_nchw_fchw ins(%x, %w_scaled : ...) outs(%init : ...)

Behaviour (HEIR's `linalg-fuse-linear-ops` is the reference, with these differences):

* linear ops: `linalg.matmul` (weight on either side), `matvec`, `vecmat`,
  `conv_2d_nchw_fchw`, `depthwise_conv_2d_nchw_chw` (MobileNet's batch-norm follows
  one: its per-channel scale multiplies filter `K[c]`).
* elementwise ops: `arith.addf/subf/mulf/divf` on tensors or a single-op
  `linalg.generic` (torch-mlir's form, the constant through any indexing map or a
  captured scalar).
* what is folded, and how: when the weight, the other operand and the init are
  compile-time constants (constants through transpose/expand/broadcast/sqrt ... are
  folded with heirpy's evaluator), numpy folds them and the output carries new
  constants only (`FuseElementwiseIntoLinearOp`). When one of them is plaintext known
  only at run time (a function argument not marked `secret.secret`, HEIR's rule:
  `heirpy.analysis.secretness`), the fold is written as plaintext ops before the
  linear op, as HEIR writes it (`FuseRuntimeScaleIntoWeights`,
  `FuseRuntimeBiasIntoInit`; the arith form on tensors only). Nothing secret is ever
  folded: that would turn a plaintext operation into one on ciphertexts.
* add/sub go into the init: `init' = init ± K` (`K - L(x)` negates the weights too,
  for constants only). A `tensor.empty` init counts as zeros (it is undefined, so any
  value refines it). Option `bias-into-init` (default true, HEIR's rule) moves every
  bias; with it false, as `linalg-fuse-ops` runs, a bias is moved into a zero init
  only when a scale after it needs the linear op's result directly (batch-norm's
  `- mean` before its `* 1/sqrt(var)`): an add costs no level, a bias left as an add
  becomes the epilogue of the op's kernel, and IREE moves a non-zero init of a named
  op back out into an add generic (`DetachElementwiseFromNamedOps`). An init that
  already holds a bias takes any bias (`bias_fold_allowed`).
* mul/div scale the weights along the output channel AND the existing init (HEIR scales
  only the weights, which is wrong with a pre-existing bias), and only when the
  scale is constant across every other output axis (for a run-time scale: a
  `linalg.broadcast` of a 1-D tensor); `K / L(x)` never fuses. An undefined
  (`tensor.empty`) init stays as it is.
* the linear op's result must have no other user (HEIR rewrites it in place, which
  would change the other users' values).

Batch-norm in eval mode, `(x - mean) / sqrt(var + eps) * gamma + beta`, is four such
ops and folds completely into the conv or matmul before it. With no linear op before it
(on the function's input, after an x²), a run of such ops with two or more scales is
merged into one scale and one shift (`affine_runs.MergeAffineRun`: one level, not two);
`linalg-fuse-linear-chains` then folds those into a linear op after it.

A linear op of constants only (the pooled init of HEIR's conv + pool form, which
`linalg-canonicalizations` writes as a conv of constants) is folded to its value
(`FoldPlaintextLinearOp`): plaintext work, it needs no op at run time.

A uniform scale after a product of two ciphertexts (attention's `(q kᵀ) / sqrt(d)`)
moves into the projection that made one of them (`MoveScaleIntoProjection`): the
columns of the qkv projection that become q, traced back through torch's reshape /
permute / slice views (`element_paths`), are multiplied by the scale, and the scale
op disappears.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AnyFloat, ModuleOp, TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
)
from xdsl.rewriter import InsertPoint

from heirpy.analysis.secretness import argument_sources, is_secret
from heirpy.ir.constants import MAX_FOLDED_BYTES, dense_constant, element_dtype
from heirpy.ir.dialects.linalg import BatchMatmulOp, MatmulOp
from heirpy.ir.utils import static_shape
from heirpy.transforms.linear.affine_runs import MergeAffineRun
from heirpy.transforms.linear.channel_sums import FoldChannelSumIntoLinearOp
from heirpy.transforms.linear.concat_scales import (
    FoldScaleIntoSharedLinearOp,
    SplitScaleOverConcat,
    WidenConcatOfRoundings,
)
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    build_init,
    erase_dead_constant_slices,
    is_compile_time_constant,
)
from heirpy.transforms.linear.element_paths import read_elsewhere, reads_of_path_end, trace_back
from heirpy.transforms.linear.elementwise_folds import (
    RuntimeElementwise,
    bias_fold_allowed,
    fold_elementwise,
    match_runtime_elementwise,
    scale_follows,
)
from heirpy.transforms.linear.forward_affine_folds import FoldAffineIntoNextLinearOp
from heirpy.transforms.linear.fusion_cost import CostRule
from heirpy.transforms.linear.grouped_conv import FuseElementwiseIntoGroupedConv
from heirpy.transforms.linear.linear_maps import channel_vector
from heirpy.transforms.linear.linear_match import (
    LINEAR_OP_TYPES,
    ElementwiseAffine,
    LinearOpView,
    WeightSlot,
    arith_kind,
    init_operand_index,
    insert_refolded,
    linear_op_view,
    match_elementwise_affine,
    may_be_linear_op,
    weight_slots,
)
from heirpy.transforms.linear.mixed_precision import (
    populate_mixed_precision_patterns,
    populate_narrow_unused_widening_patterns,
)
from heirpy.transforms.linear.runtime_operands import (
    broadcast_along,
    channel_source,
    hoist,
    hoist_plan,
)
from heirpy.transforms.rewrite import (
    OpPattern,
    OutsideGenericBodies,
    PatternSet,
    apply_pattern_sets,
    constant_insertion_point,
    in_generic_body,
)


def on_data_path(value: SSAValue, data: set[BlockArgument]) -> bool:
    """Is `value` computed from one of the `data` arguments (a linear op's input
    arguments, `argument_sources`)? Such a value is the network's data, not a
    parameter: a residual `conv(x) + x` keeps its add."""
    return bool(argument_sources([value]) & data)


def _is_zero_init(value: SSAValue, reader: ConstantFolder) -> bool:
    """Is the init `value` a `tensor.empty` (undefined: zeros refine it) or zeros?"""
    if isinstance(value.owner, tensor.EmptyOp):
        return True
    known = reader.init_value(value)
    return known is not None and not np.any(known)


class FuseElementwiseIntoLinearOp(OpPattern[Operation], OutsideGenericBodies):
    """Absorb `L(x) <op> K` (op in + - * /, K constant) into the linear op L.

        %l = linalg.matmul ins(%x, %w) outs(%init)
        %r = arith.mulf %l, %k            // or a linalg.generic doing the same
      ->
        %l = linalg.matmul ins(%x, %w_times_k) outs(%init_times_k)

    Legality: `fold_elementwise` (per-channel scale, no `K / L`), L has constant weights,
    a constant (or `tensor.empty`) init, static shapes, and no other user; an add/sub
    also `bias_fold_allowed` (a bias stays an add unless the init already holds one or
    a scale after it must reach L).
    """

    # Any op: an elementwise op may be an arith op or a linalg.generic.
    op_types = (Operation,)

    def __init__(self, reader: ConstantFolder | None = None, bias_into_init: bool = True):
        self.reader = ConstantFolder() if reader is None else reader
        self.bias_into_init = bias_into_init

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or not any(_single_use_of_linear_op(v) for v in op.operands):
            return  # cheap, and implied by what follows: spares the constant folds
        elementwise = match_elementwise_affine(op, self.reader)
        if elementwise is None:
            return
        linear = elementwise.operand.owner
        if not isinstance(linear, Operation) or not elementwise.operand.has_one_use():
            return
        view = linear_op_view(linear, self.reader)
        if view is None or view.op.results[0].type != elementwise.result.type:
            return
        init = self.reader.init_value(view.init)
        if init is None:
            return
        if elementwise.kind in ("add", "sub") and not (
            self.bias_into_init
            or bias_fold_allowed(not np.any(init), scale_follows(elementwise.result, self.reader))
        ):
            return
        folded = fold_elementwise(view, init, elementwise)
        if folded is None:
            return
        weight_type = view.op.operands[view.weight_index].type
        init_type = view.init.type
        assert isinstance(weight_type, TensorType) and isinstance(init_type, TensorType)
        weight_op = dense_constant(
            folded.weight.astype(element_dtype(weight_type)), weight_type
        )
        if elementwise.kind in ("mul", "div") and (isinstance(view.init.owner, tensor.EmptyOp) or not np.any(init)):
            # A scaled undefined init is still undefined: keep the `tensor.empty`
            # rather than write out the zeros it was read as; a scaled zero init is
            # the same zeros, kept as written (a fill rebuilt here would be rewritten
            # by linalg-canonicalizations on a rerun: not idempotent).
            init_ops: list[Operation] = []
            init_result = view.init
        else:
            init_ops, init_result = build_init(
                folded.init.astype(element_dtype(init_type)), init_type
            )
        new_linear = view.op.clone()
        new_linear.operands[view.weight_index] = weight_op.result
        new_linear.operands[2] = init_result
        self.reader.remember_unrounded(weight_op.result, folded.weight)  # f16: rounded once per run
        if init_ops:
            self.reader.remember_unrounded(init_result, folded.init)
        rewriter.insert(weight_op, constant_insertion_point(view.op))
        rewriter.insert([*init_ops, new_linear], InsertPoint.before(view.op))
        old_operands = [*op.operands, *view.op.operands]
        rewriter.replace(op, [], [new_linear.results[0]])
        rewriter.erase(view.op)
        erase_dead_constant_slices(rewriter, old_operands)


class FuseRuntimeScaleIntoWeights(OpPattern[Operation], OutsideGenericBodies):
    """Move a scale `L(x) * s` (or `L(x) / s`) into L's weight when the scale or the
    weight is plaintext known only at run time (a function argument not marked
    `secret.secret`): the fold becomes plaintext ops before L, and L's result no longer
    takes a multiplication (one level less under CKKS).

        %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>)
               outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
        %sb = linalg.broadcast ins(%s : tensor<4xf32>) outs(%e1 : tensor<2x4xf32>) dimensions = [0]
        %r = arith.mulf %m, %sb : tensor<2x4xf32>
      ->
        %sw = linalg.broadcast ins(%s : tensor<4xf32>) outs(%e2 : tensor<3x4xf32>) dimensions = [0]
        %w2 = arith.mulf %w, %sw : tensor<3x4xf32>
        %r = linalg.matmul ins(%x, %w2 : tensor<2x3xf32>, tensor<3x4xf32>)
               outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>

    Legality: `arith.mulf` / `arith.divf` on tensors (`s / L` never); L is the only
    user of its result and has a weight slot (`weight_slots`) whose weight is not
    secret; the scale is not secret and repeats one value per output channel: a
    constant (`channel_vector`) or, at run time, a `linalg.broadcast` of a 1-D tensor
    along the other axes, or a 1-D tensor for a 1-D result (`channel_source`); a
    non-zero init is scaled too (`init * s`, HEIR forgets this), and must not be
    secret. When the weight and the scale are both constants
    `FuseElementwiseIntoLinearOp` folds them with numpy instead.
    """

    # Any op: `arith_kind` picks the multiplies and divides, as cheaply as a type test.
    op_types = (Operation,)

    def __init__(self, reader: ConstantFolder | None = None):
        self.reader = ConstantFolder() if reader is None else reader

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if arith_kind(op) not in ("mul", "div") or in_generic_body(op):
            return
        for value in op.operands:
            if not _single_use_of_linear_op(value):
                continue
            match = match_runtime_elementwise(op, value, self.reader)
            if match is None or (match.kind == "div" and not match.value_is_lhs):
                continue
            linear = value.owner
            assert isinstance(linear, Operation)
            if self._fuse(match, linear, rewriter):
                return

    def _fuse(self, match: RuntimeElementwise, linear: Operation, rewriter: PatternRewriter) -> bool:
        slots = weight_slots(linear)
        if is_compile_time_constant(match.other) and any(is_compile_time_constant(s.weight) for s in slots):
            return False  # all constant: FuseElementwiseIntoLinearOp's (numpy) case
        constant = self.reader.fold(match.other)
        for slot in slots:
            if is_secret(slot.weight) or is_compile_time_constant(slot.activation):
                continue
            data = argument_sources([slot.activation])
            if on_data_path(match.other, data) or on_data_path(slot.weight, data):
                continue
            plan = self._plan(match, slot, constant, data)
            if plan is not None:
                self._rewrite(match, slot, plan, rewriter)
                return True
        return False

    def _plan(
        self, match: RuntimeElementwise, slot: WeightSlot, constant: np.ndarray | None,
        data: set[BlockArgument],
    ) -> _RuntimeScalePlan | None:
        weight_type = slot.weight.type
        assert isinstance(weight_type, TensorType)
        if constant is not None:
            vector = channel_vector(constant, slot.out_axis)
            if vector is None or (match.kind == "div" and np.any(vector == 0)):
                return None
            shape = [1] * len(weight_type.get_shape())
            shape[slot.weight_axis] = vector.size
            full = np.broadcast_to(vector.reshape(shape), weight_type.get_shape())
            scale_ops: list[Operation] = [dense_constant(full.astype(element_dtype(weight_type)), weight_type)]
            hoisted: list[Operation] = []
        else:
            source = channel_source(match.other, slot.out_axis)
            if source is None:
                return None
            plan = hoist_plan(source, slot.op)
            if plan is None:
                return None
            scale_ops, hoisted = broadcast_along(source, weight_type, slot.weight_axis), plan
        init_scaled = not _is_zero_init(slot.init, self.reader)
        if init_scaled:
            if is_secret(slot.init) or on_data_path(slot.init, data):
                return None
            init_hoist = hoist_plan(match.other, slot.op)
            if init_hoist is None:
                return None
            hoisted = [*hoisted, *(o for o in init_hoist if o not in hoisted)]
        return _RuntimeScalePlan(hoisted, scale_ops, init_scaled)

    def _rewrite(
        self, match: RuntimeElementwise, slot: WeightSlot, plan: _RuntimeScalePlan, rewriter: PatternRewriter
    ) -> None:
        linear = slot.op
        block = linear.parent_block()
        hoisted = set(plan.hoisted)
        hoist(rewriter, [o for o in block.ops if o in hoisted] if block is not None else [], linear)
        binary = arith.MulfOp if match.kind == "mul" else arith.DivfOp
        new_weight = binary(slot.weight, plan.scale_ops[-1].results[0])
        ops: list[Operation] = [*plan.scale_ops, new_weight]
        new_linear = linear.clone()
        new_linear.operands[slot.weight_index] = new_weight.result
        if plan.init_scaled:
            new_init = binary(slot.init, match.other)
            ops.append(new_init)
            new_linear.operands[2] = new_init.result
        rewriter.insert([*ops, new_linear], InsertPoint.before(linear))
        rewriter.replace(match.op, [], [new_linear.results[0]])
        rewriter.erase(linear)


@dataclass(frozen=True)
class _RuntimeScalePlan:
    hoisted: list[Operation]  # ops moved before the linear op (the scale's slice)
    scale_ops: list[Operation]  # build the scale at the weight's shape (last: the value)
    init_scaled: bool


class FuseRuntimeBiasIntoInit(OpPattern[Operation], OutsideGenericBodies):
    """Move a bias `L(x) + b` (or `L(x) - b`) into L's init when numpy cannot fold it:
    `b` or L's init is plaintext known only at run time (a function argument not
    marked `secret.secret`), or L's weight is, or L is a `linalg.generic` that
    accumulates into its init.

        %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>)
               outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
        %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e1 : tensor<2x4xf32>) dimensions = [0]
        %r = arith.addf %m, %bb : tensor<2x4xf32>
      ->
        %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e1 : tensor<2x4xf32>) dimensions = [0]
        %r = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>)
               outs(%bb : tensor<2x4xf32>) -> tensor<2x4xf32>

    The new init is `b` itself over an empty or zero init (`-b` for a subtraction:
    `arith.negf`, or a negated constant), else `init + b` (`init - b`); `b - L` is
    left alone (it would negate the weights). Legality: `arith.addf` / `arith.subf`
    on tensors; L computes `init + f(ins)` (`init_operand_index`) and is the only user
    of its result; neither `b` nor the init is secret; `b`'s defining ops can move
    before L (`hoist_plan`); and the pass's bias rule allows it (`bias_into_init`, or
    `bias_fold_allowed`). When L has a constant weight and `b` and the init are
    constants, `FuseElementwiseIntoLinearOp` folds them with numpy instead.
    """

    # Any op: `arith_kind` picks the adds and subtracts, as cheaply as a type test.
    op_types = (Operation,)

    def __init__(self, reader: ConstantFolder | None = None, bias_into_init: bool = True):
        self.reader = ConstantFolder() if reader is None else reader
        self.bias_into_init = bias_into_init

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if arith_kind(op) not in ("add", "sub") or in_generic_body(op):
            return
        for value in op.operands:
            linear = value.owner
            if not value.has_one_use() or not isinstance(linear, Operation):
                continue
            index = init_operand_index(linear)
            match = None if index is None else match_runtime_elementwise(op, value, self.reader)
            if index is None or match is None or (match.kind == "sub" and not match.value_is_lhs):
                continue
            if self._fuse(match, linear, index, rewriter):
                return

    def _fuse(self, match: RuntimeElementwise, linear: Operation, index: int, rewriter: PatternRewriter) -> bool:
        init = linear.operands[index]
        constant_init = isinstance(init.owner, tensor.EmptyOp) or is_compile_time_constant(init)
        if (
            constant_init
            and is_compile_time_constant(match.other)
            and any(is_compile_time_constant(s.weight) for s in weight_slots(linear))
        ):
            return False  # all constant: FuseElementwiseIntoLinearOp's (numpy) case
        if is_secret(init):
            return False
        slots = weight_slots(linear)
        inputs = [slots[0].activation] if slots else [v for i, v in enumerate(linear.operands) if i != index]
        data = argument_sources(inputs)  # a generic's inputs: all of them, to be safe
        if on_data_path(match.other, data) or on_data_path(init, data):
            return False
        zero = _is_zero_init(init, self.reader)
        if not (self.bias_into_init or bias_fold_allowed(zero, scale_follows(match.op.results[0], self.reader))):
            return False
        addend = self.reader.fold(match.other)
        known_init = self.reader.init_value(init)
        init_type = init.type
        assert isinstance(init_type, TensorType)
        hoisted: list[Operation] = []
        if addend is not None and known_init is not None:
            total = known_init + addend if match.kind == "add" else known_init - addend
            new_ops, new_init = build_init(total.astype(element_dtype(init_type)), init_type)
        else:
            plan = hoist_plan(match.other, linear)
            if plan is None:
                return False
            hoisted = plan
            new_ops, new_init = self._combine(match, init, zero)
        hoist(rewriter, hoisted, linear)
        new_linear = linear.clone()
        new_linear.operands[index] = new_init
        rewriter.insert([*new_ops, new_linear], InsertPoint.before(linear))
        rewriter.replace(match.op, [], [new_linear.results[0]])
        rewriter.erase(linear)
        return True

    @staticmethod
    def _combine(match: RuntimeElementwise, init: SSAValue, zero: bool) -> tuple[list[Operation], SSAValue]:
        """The ops making `init ± b` (just `b` or `-b` over a zero init)."""
        if zero and match.kind == "add":
            return [], match.other
        if zero:
            negated = arith.NegfOp(match.other)
            return [negated], negated.result
        binary = arith.AddfOp if match.kind == "add" else arith.SubfOp
        combined = binary(init, match.other)
        return [combined], combined.result


def _single_use_of_linear_op(value: SSAValue) -> bool:
    """Is `value` the only-used result of an op `linear_op_view` could accept?"""
    return value.has_one_use() and isinstance(value.owner, Operation) and may_be_linear_op(value.owner)


def uniform_factor(elementwise: ElementwiseAffine) -> float | None:
    """The number `y * c` or `y / c` multiplies `y` by, when `c` is one non-zero
    constant (the `1/sqrt(d)` of attention); None otherwise."""
    if elementwise.kind not in ("mul", "div") or not elementwise.is_affine():
        return None
    values = elementwise.constant.reshape(-1)
    if values.size == 0 or not np.all(values == values[0]) or values[0] == 0:
        return None
    return float(values[0]) if elementwise.kind == "mul" else 1.0 / float(values[0])


def column_scale(selected: np.ndarray, factor: float, out_axis: int) -> np.ndarray | None:
    """Pure: the per-output-channel scale that multiplies exactly the `selected`
    elements of a linear op's result by `factor` (None when the selection is not made
    of whole output channels, so no weight scale can do it)."""
    mask = np.where(selected, factor, 1.0)
    return channel_vector(mask, out_axis)


class MoveScaleIntoProjection(OpPattern[Operation], OutsideGenericBodies):
    """Move a uniform scale after a product of two ciphertexts into the projection that
    made one of them: attention's `(q kᵀ) / sqrt(d)` becomes `q' kᵀ` with q's columns of
    the qkv projection scaled by 1/sqrt(d).

        %p = linalg.matmul ins(%x, %wt) outs(%zero)           // x Wᵀ: q | k | v columns
        %b = linalg.generic ins(%p, %bias) { addf }           // + bias
        %q = tensor.extract_slice / linalg.transpose / tensor.collapse_shape of %b
        %s = linalg.batch_matmul ins(%q, %kt) outs(%z)
        %r = linalg.generic ins(%s) { mulf %in, 0.125 }
      ->
        %p = linalg.matmul ins(%x, %wt_qscaled) outs(%bias_qscaled)
        %q = ... of %p
        %r = linalg.batch_matmul ins(%q, %kt) outs(%z)

    Legality: the scale is one non-zero constant (`uniform_factor`); it is the only
    user of a `matmul`/`batch_matmul` (linear in each operand), directly or through
    single-use views (reshapes, transposes); one operand of that
    product is a static layout view (slices, transposes, reshapes) of a linear op with
    constant weights (plus a constant bias op); the elements the view reads are whole
    output columns of it (`column_scale`), and nothing else reads those elements
    (`element_paths.read_elsewhere`: k and v read other columns); the linear op (and
    its bias op) have no users but those views.
    """

    # Any op: a scale may be an arith op or a linalg.generic.
    op_types = (Operation,)

    def __init__(self, reader: ConstantFolder | None = None):
        self.reader = ConstantFolder() if reader is None else reader

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if arith_kind(op) in ("add", "sub") or in_generic_body(op):
            return  # never a scale (`uniform_factor`): spares the constant folds
        scale = match_elementwise_affine(op, self.reader)
        factor = None if scale is None else uniform_factor(scale)
        if scale is None or factor is None:
            return
        # A uniform scale commutes with the views between it and the product (torch
        # expands the batch_matmul's result back to 4-D before scaling it).
        produced, views = trace_back(scale.operand)
        if any(not v.has_one_use() for v in (produced, *(o.results[0] for o in views))):
            return
        product = produced.owner
        if not isinstance(product, (MatmulOp, BatchMatmulOp)) or len(product.operands) != 3:
            return
        a, b = product.operands[0], product.operands[1]
        if a is b or self.reader.fold(a) is not None or self.reader.fold(b) is not None:
            return  # x·x, or a plaintext factor (then linalg-fuse-linear-ops' job)
        for operand in (a, b):
            plan = self._plan(operand, product, factor)
            if plan is not None:
                self._rewrite(plan, rewriter)
                rewriter.replace(op, [], [scale.operand])
                return

    def _plan(self, operand: SSAValue, product: Operation, factor: float) -> _ScalePlan | None:
        source, path = trace_back(operand)
        owner = source.owner
        if not isinstance(owner, Operation):
            return None
        bias = match_elementwise_affine(owner, self.reader)
        if bias is not None and (bias.kind != "add" or not bias.operand.has_one_use()):
            return None
        linear_value = bias.operand if bias is not None else source
        linear = linear_value.owner
        if not isinstance(linear, Operation):
            return None
        view = linear_op_view(linear, self.reader)
        init = None if view is None else self.reader.init_value(view.init)
        if view is None or init is None or view.op.results[0].type != source.type:
            return None
        selected = reads_of_path_end(source, path)
        elsewhere = read_elsewhere(source, operand, product)
        if selected is None or elsewhere is None or np.any(selected & elsewhere):
            return None
        shape = static_shape(source.type)
        assert shape is not None
        scale = column_scale(selected.reshape(shape), factor, view.out_axis)
        if scale is None:
            return None
        return _ScalePlan(view, init, bias, scale)

    def _rewrite(self, plan: _ScalePlan, rewriter: PatternRewriter) -> None:
        view, init = plan.view, plan.init
        weight = view.weight.astype(np.float64)
        full_init = init.astype(np.float64)
        if plan.bias is not None:
            folded = fold_elementwise(view, init, plan.bias)
            assert folded is not None  # an add always folds
            weight, full_init = folded.weight, folded.init
        shape = [1] * weight.ndim
        shape[view.weight_axis] = plan.scale.size
        out_shape = [1] * full_init.ndim
        out_shape[view.out_axis] = plan.scale.size
        weight = weight * plan.scale.reshape(shape)
        full_init = full_init * plan.scale.reshape(out_shape)
        new_linear, weight_value, init_value = insert_refolded(view, weight, full_init, rewriter)
        # f16: a later fold into this projection (a second scale, a LayerNorm's gamma)
        # starts from the float64 values and rounds once, as the other folds do.
        self.reader.remember_unrounded(weight_value, weight)
        self.reader.remember_unrounded(init_value, full_init)
        old_operands = list(view.op.operands)
        if plan.bias is not None:
            old_operands += list(plan.bias.op.operands)
            rewriter.replace(plan.bias.op, [], [new_linear.results[0]])
        else:
            rewriter.replace(view.op, [], [new_linear.results[0]])
        if view.op.parent is not None:
            rewriter.erase(view.op)
        erase_dead_constant_slices(rewriter, old_operands)


@dataclass(frozen=True)
class _ScalePlan:
    view: LinearOpView
    init: np.ndarray
    bias: ElementwiseAffine | None
    scale: np.ndarray  # per output channel of the linear op


class FoldPlaintextLinearOp(OpPattern[Operation], OutsideGenericBodies):
    """A linear op whose operands are all compile-time constants is a constant:
    plaintext work that no ciphertext waits on. `linalg-canonicalizations` leaves one
    in HEIR's conv + pool form, the pooled init of the fused conv:

        %ci = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
        %k = arith.constant dense<1.0> : tensor<1x1x2x2xf32>
        %pi = arith.constant dense<0.0> : tensor<1x1x2x2xf32>
        %init = linalg.conv_2d_nchw_fchw ins(%ci, %k : ...) outs(%pi : ...)
        %r = linalg.conv_2d_nchw_fchw {strides = dense<2>} ins(%x, %w : ...) outs(%init : ...)
      ->
        %init = arith.constant dense<4.0> : tensor<1x1x2x2xf32>
        %r = linalg.conv_2d_nchw_fchw {strides = dense<2>} ins(%x, %w : ...) outs(%init : ...)

    The folded value is written in its smallest form (`build_init`: a fill, a
    per-channel broadcast, or a dense literal). Legality: one of `LINEAR_OP_TYPES`
    with a float result of static shape; every operand a compile-time constant (a
    `tensor.empty` init reads as zeros); the evaluator computes it; a dense literal
    is at most `MAX_FOLDED_BYTES` (a larger product stays an op).
    """

    op_types = LINEAR_OP_TYPES

    def __init__(self, reader: ConstantFolder | None = None):
        self.reader = ConstantFolder() if reader is None else reader

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        result_type = op.results[0].type if may_be_linear_op(op) else None
        if not isinstance(result_type, TensorType) or static_shape(result_type) is None:
            return
        if not isinstance(result_type.get_element_type(), AnyFloat):
            return
        # The cached slice test first: an activation is rarely constant.
        if any(self.reader.slice_of(v) is None for v in op.operands):
            return
        values: list[np.ndarray] = []
        for index, operand in enumerate(op.operands):
            # The init (last operand) as `init_value` reads it: a `tensor.empty` is zeros.
            known = self.reader.init_value(operand) if index == 2 else self.reader.fold(operand)
            if known is None:
                return
            values.append(known)
        result = self.reader.apply(op, values)
        if result is None:
            return
        new_ops, value = build_init(result.astype(element_dtype(result_type)), result_type)
        if isinstance(value.owner, arith.ConstantOp) and result.nbytes > MAX_FOLDED_BYTES:
            return  # a literal that large costs more to carry than the op
        old_operands = list(op.operands)
        rewriter.replace(op, new_ops, [value])
        erase_dead_constant_slices(rewriter, old_operands)


def populate_linalg_fuse_linear_ops_patterns(
    ctx: Context | None = None, bias_into_init: bool = True, rule: CostRule | None = None
) -> list[PatternSet]:
    """The patterns of this pass (`ctx` holds the blobs of `dense_resource` constants;
    without it the module's remembered context is used; `bias_into_init` is the pass
    option of that name; `rule` prices the one-channel sums, `CostRule()` by default)."""
    reader = ConstantFolder(ctx)
    concat_scale_sets: list[PatternSet] = []
    widen_concats: list[PatternSet] = []
    if rule is None or rule.max_mac_growth == 0:
        widen_concats = [PatternSet.of(WidenConcatOfRoundings())]
        concat_scale_sets = [
            PatternSet.of(SplitScaleOverConcat(reader)),
            PatternSet.of(FoldScaleIntoSharedLinearOp(reader)),
            PatternSet.of(MergeAffineRun(reader)),
        ]
    return [
        # torch-mlir's f16 form first: the folds below see the f32 arithmetic (a batch
        # norm on a concat of rounded convs too: concat_scales.py).
        *widen_concats,
        *populate_mixed_precision_patterns(),
        # A channel sum (LayerNorm's mean) reads the linear op's input, before the folds
        # below take its divide into the one-channel op (channel_sums.py).
        PatternSet.of(FoldChannelSumIntoLinearOp(reader, rule)),
        PatternSet.of(
            FuseElementwiseIntoLinearOp(reader, bias_into_init),
            FuseElementwiseIntoGroupedConv(reader, bias_into_init),
            FuseRuntimeScaleIntoWeights(reader),
            FuseRuntimeBiasIntoInit(reader, bias_into_init),
            MoveScaleIntoProjection(reader),
            FoldPlaintextLinearOp(reader),
        ),
        # After every fold into a linear op: what is left of a batch-norm is merged.
        PatternSet.of(MergeAffineRun(reader)),
        # A batch norm after a channel concat (DenseNet): its scale onto the parts, then
        # into the conv that made the deepest part, other readers of it rescaled
        # (concat_scales.py). Not under a rule that bounds MACs (IREE): only more ops.
        *concat_scale_sets,
        # What is left with no linear op before it (LayerNorm's gamma and beta, after the
        # ct x ct normalisation) goes into the linear ops after it; under a rule that
        # allows no added work (IREE's max-mac-growth=1) only when every reader takes it.
        PatternSet.of(FoldAffineIntoNextLinearOp(reader, split=rule is None or rule.max_mac_growth != 1)),
        # Last: a widening no fold used goes back to torch-mlir's narrow operands.
        *populate_narrow_unused_widening_patterns(),
    ]


@dataclass(frozen=True)
class LinalgFuseLinearOpsPass(ModulePass):
    """Fold bias, scale and batch-norm arithmetic into the preceding linear op.

    Example: `%c = conv(x, w) outs(zeros); %r = %c * k[f] + b[f]` becomes
    `%r = conv(x, w * k[f]) outs(broadcast(b))` (see the module docstring and
    tests/filecheck/transforms/linalg-fuse-linear-ops/docstring.mlir; run-time
    plaintext operands: runtime_operands.mlir there).
    """

    name = "linalg-fuse-linear-ops"

    bias_into_init: bool = True
    """HEIR's rule (true): every plaintext bias moves into the init. false: a bias
    after a zero init stays an add unless a scale after it needs the linear op's result
    (`bias_fold_allowed`), which is what `linalg-fuse-ops` does for IREE."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, populate_linalg_fuse_linear_ops_patterns(ctx, self.bias_into_init))
