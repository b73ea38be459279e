"""Fold constant bias, scale and batch-norm arithmetic into the preceding linear op.

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
  one: its per-channel scale multiplies filter `K[c]`), whose weight is a compile-time
  constant. Weights that are
  function arguments are NOT folded (the pass does not fire): heirpy folds with numpy
  only, so the output never carries extra plaintext ops.
* elementwise ops: `arith.addf/subf/mulf/divf` on tensors or a single-op
  `linalg.generic` (torch-mlir's form, the constant through any indexing map or a
  captured scalar); the other side must fold to a constant (constants through
  transpose/expand/broadcast/sqrt ... are folded with heirpy's evaluator).
* add/sub go into the init: `init' = init ± K` (`K - L(x)` negates the weights too).
  A `tensor.empty` init counts as zeros (it is undefined, so any value refines it).
  Unlike HEIR, a bias is moved into a zero init only when a scale after it needs the
  linear op's result directly (batch-norm's `- mean` before its `* 1/sqrt(var)`):
  an add costs no level, a bias left as an add becomes the epilogue of the op's kernel,
  and IREE moves a non-zero init of a named op back out into an add generic
  (`DetachElementwiseFromNamedOps`). An init that already holds constants takes any
  bias (`bias_fold_allowed`).
* mul/div scale the weights along the output channel AND the existing init (HEIR scales
  only the weights, which is wrong with a pre-existing bias), and only when the
  scale is constant across every other output axis; `K / L(x)` never fuses.
* the linear op's result must have no other user (HEIR rewrites it in place, which
  would change the other users' values).

Batch-norm in eval mode, `(x - mean) / sqrt(var + eps) * gamma + beta`, is four such
ops and folds completely into the conv or matmul before it.

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
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import BatchMatmulOp, MatmulOp
from heirpy.ir.utils import static_shape
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    build_init,
    erase_dead_constant_slices,
)
from heirpy.transforms.linear.element_paths import read_elsewhere, reads_of_path_end, trace_back
from heirpy.transforms.linear.linear_maps import channel_vector
from heirpy.transforms.linear.linear_match import (
    ElementwiseAffine,
    LinearOpView,
    arith_kind,
    linear_op_view,
    match_elementwise_affine,
    may_be_linear_op,
)
from heirpy.transforms.rewrite import OutsideGenericBodies, PatternSet, apply_pattern_sets, in_generic_body


@dataclass(frozen=True)
class FoldedLinear:
    """The new weight and init of a linear op after absorbing an elementwise op."""

    weight: np.ndarray
    init: np.ndarray


def fold_elementwise(
    view: LinearOpView, init: np.ndarray, elementwise: ElementwiseAffine
) -> FoldedLinear | None:
    """Pure legality + arithmetic: the linear op's weight and init with `elementwise`
    absorbed, or None when it cannot be (a scale that is not per output channel, a
    division by zero, `K / L(x)`)."""
    weight = view.weight.astype(np.float64)
    base = init.astype(np.float64)
    constant = elementwise.constant.astype(np.float64)
    if elementwise.kind == "add":
        return FoldedLinear(weight, base + constant)
    if elementwise.kind == "sub":
        if elementwise.operand_is_lhs:
            return FoldedLinear(weight, base - constant)
        return FoldedLinear(-weight, constant - base)
    if not elementwise.is_affine():
        return None
    scale = channel_vector(constant, view.out_axis)
    if scale is None:
        return None
    shape = [1] * weight.ndim
    shape[view.weight_axis] = scale.size
    if elementwise.kind == "mul":
        return FoldedLinear(weight * scale.reshape(shape), base * constant)
    if np.any(scale == 0):
        return None
    return FoldedLinear(weight / scale.reshape(shape), base / constant)


def bias_fold_allowed(init_is_zero: bool, scale_follows: bool) -> bool:
    """Pure legality of moving an add/sub of a constant into a linear op's init: when
    the init already holds constants (nothing new to materialise), or when a constant
    scale follows the add (through further adds) and can only fold once the add has."""
    return not init_is_zero or scale_follows


def scale_follows(value: SSAValue, reader: ConstantFolder) -> bool:
    """Is `value` (through single-use constant adds/subs) scaled by a constant?"""
    while value.has_one_use():
        user = next(iter(value.uses)).operation
        match = match_elementwise_affine(user, reader)
        if match is None or match.operand is not value:
            return False
        if match.kind in ("mul", "div"):
            return match.is_affine()
        value = match.result
    return False


class FuseElementwiseIntoLinearOp(RewritePattern, OutsideGenericBodies):
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

    def __init__(self, reader: ConstantFolder | None = None):
        self.reader = ConstantFolder() if reader is None else reader

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
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
        if elementwise.kind in ("add", "sub") and not bias_fold_allowed(
            not np.any(init), scale_follows(elementwise.result, self.reader)
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
        init_ops, init_result = build_init(
            folded.init.astype(element_dtype(init_type)), init_type
        )
        new_linear = view.op.clone()
        new_linear.operands[view.weight_index] = weight_op.result
        new_linear.operands[2] = init_result
        rewriter.insert([weight_op, *init_ops, new_linear], InsertPoint.before(view.op))
        old_operands = [*op.operands, *view.op.operands]
        rewriter.replace(op, [], [new_linear.results[0]])
        rewriter.erase(view.op)
        erase_dead_constant_slices(rewriter, old_operands)


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


class MoveScaleIntoProjection(RewritePattern, OutsideGenericBodies):
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

    def __init__(self, reader: ConstantFolder | None = None):
        self.reader = ConstantFolder() if reader is None else reader

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
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
        weight_type = view.op.operands[view.weight_index].type
        init_type = view.init.type
        assert isinstance(weight_type, TensorType) and isinstance(init_type, TensorType)
        weight_op = dense_constant(weight.astype(element_dtype(weight_type)), weight_type)
        init_ops, init_value = build_init(full_init.astype(element_dtype(init_type)), init_type)
        new_linear = view.op.clone()
        new_linear.operands[view.weight_index] = weight_op.result
        new_linear.operands[2] = init_value
        rewriter.insert([weight_op, *init_ops, new_linear], InsertPoint.before(view.op))
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


def populate_linalg_fuse_linear_ops_patterns(ctx: Context | None = None) -> list[PatternSet]:
    """The patterns of this pass (`ctx` holds the blobs of `dense_resource` constants;
    without it the module's remembered context is used)."""
    reader = ConstantFolder(ctx)
    return [PatternSet.of(FuseElementwiseIntoLinearOp(reader), MoveScaleIntoProjection(reader))]


@dataclass(frozen=True)
class LinalgFuseLinearOpsPass(ModulePass):
    """Fold constant bias, scale and batch-norm arithmetic into the preceding linear op.

    Example: `%c = conv(x, w) outs(zeros); %r = %c * k[f] + b[f]` becomes
    `%r = conv(x, w * k[f]) outs(broadcast(b))` (see the module docstring and
    tests/filecheck/transforms/linalg-fuse-linear-ops/docstring.mlir).
    """

    name = "linalg-fuse-linear-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, populate_linalg_fuse_linear_ops_patterns(ctx))
