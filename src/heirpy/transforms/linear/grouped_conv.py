"""Fold a batch-norm into the grouped conv before it (`linalg-fuse-linear-ops`).

torch-mlir writes `nn.Conv2d(groups=G)` (1 < G < channels: RegNet's, ResNeXt's 3x3)
as a `linalg.conv_2d_ngchw_gfchw` between an `expand_shape` of the input's channels
into `[G, C/G]` and a `collapse_shape` of the output's `[G, F]` back into `G*F`
channels; the batch-norm after it reads the collapsed tensor. `FuseElementwiseIntoLinearOp`
folds a per-channel scale into a conv whose result it reads directly, so without this
pattern every grouped conv's scale stays a multiply: one CKKS level each that the depth
bound does not charge (`heirpy.analysis.depth`: a scale after a linear op is free).
Output channel `g*F + f` is made by filter `W[g, f]` alone, so a scale along the
collapsed channel axis is a scale of `W` viewed as `[G*F, C/G, kh, kw]`:

    %c = linalg.conv_2d_ngchw_gfchw ins(%x, %w : tensor<1x3x8x34x34xf32>, tensor<3x8x8x3x3xf32>)
           outs(%zero : tensor<1x3x8x16x16xf32>)
    %o = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : ... into tensor<1x24x16x16xf32>
    %s = linalg.generic {maps = [id, (d0, d1, d2, d3) -> (d1, 0, 0), id]} ins(%o, %k) { mulf }
  ->
    %c = linalg.conv_2d_ngchw_gfchw ins(%x, %w_times_k : ...) outs(%zero_times_k : ...)
    %s = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : ... into tensor<1x24x16x16xf32>

The arithmetic is `elementwise_folds.fold_elementwise`'s on that view (the init
scaled too; an add or sub goes into the init under the same `bias_fold_allowed` rule).
Legality: the weight and init are constants (a `tensor.empty` init stays undefined
under a scale), the collapse merges exactly the group and filter axes, and the conv and
the collapse have no other user.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg_structured import Conv2DNgchwGfchwOp
from heirpy.ir.utils import reassociation_groups, static_shape
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    build_init,
    erase_dead_constant_slices,
)
from heirpy.transforms.linear.elementwise_folds import bias_fold_allowed, fold_elementwise, scale_follows
from heirpy.transforms.linear.linear_match import LinearOpView, match_elementwise_affine
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, constant_insertion_point, in_generic_body

GROUP_COLLAPSE = [[0], [1, 2], [3], [4]]
"""The reassociation that merges a grouped conv's `[N, G, F, H, W]` into `[N, G*F, H, W]`."""


def grouped_conv_behind(value_owner: Operation | None) -> tuple[tensor.CollapseShapeOp, Conv2DNgchwGfchwOp] | None:
    """The `collapse_shape` and the grouped conv it merges, when `value_owner` is such a
    collapse (group and filter axes merged, both single-use, static shapes); else None."""
    if not isinstance(value_owner, tensor.CollapseShapeOp) or not value_owner.results[0].has_one_use():
        return None
    conv = value_owner.operands[0].owner
    if not isinstance(conv, Conv2DNgchwGfchwOp) or not conv.results[0].has_one_use():
        return None
    if len(conv.operands) != 3 or any(static_shape(v.type) is None for v in conv.operands):
        return None
    if reassociation_groups(value_owner.properties["reassociation"]) != GROUP_COLLAPSE:
        return None
    return value_owner, conv


class FuseElementwiseIntoGroupedConv(OpPattern[Operation], OutsideGenericBodies):
    """Absorb `collapse(grouped_conv(x, W)) <op> K` (op in + - * /, K per channel) into
    the grouped conv's weight and init (module docstring).

        %o = tensor.collapse_shape (linalg.conv_2d_ngchw_gfchw ins(%x, %w) outs(%z)) [[0], [1, 2], [3], [4]]
        %s = linalg.generic ins(%o, %k) { mulf }
      ->
        %o = tensor.collapse_shape (linalg.conv_2d_ngchw_gfchw ins(%x, %w * k) outs(%z * k)) [[0], [1, 2], [3], [4]]
    """

    op_types = (Operation,)  # the scale or shift: an arith op or a linalg.generic, as FuseElementwiseIntoLinearOp

    def __init__(self, reader: ConstantFolder, bias_into_init: bool = True):
        self.reader = reader
        self.bias_into_init = bias_into_init

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or not any(isinstance(v.owner, tensor.CollapseShapeOp) for v in op.operands):
            return  # cheap: spares the constant folds below
        elementwise = match_elementwise_affine(op, self.reader)
        if elementwise is None:
            return
        found = grouped_conv_behind(elementwise.operand.owner if isinstance(elementwise.operand.owner, Operation)
                                    else None)
        if found is None or elementwise.operand.type != elementwise.result.type:
            return
        collapse, conv = found
        x, w, init_value = conv.operands
        weight = self.reader.fold_unrounded(w)
        init = self.reader.init_value(init_value)
        if weight is None or init is None or self.reader.fold(x) is not None:
            return
        if elementwise.kind in ("add", "sub") and not (
            self.bias_into_init
            or bias_fold_allowed(not np.any(init), scale_follows(elementwise.result, self.reader))
        ):
            return
        groups, filters = weight.shape[:2]
        init_shape = init.shape
        flat_init = init.reshape(init_shape[0], groups * filters, *init_shape[3:])
        view = LinearOpView(conv, 0, 1, 1, 0, weight.reshape(groups * filters, *weight.shape[2:]))
        folded = fold_elementwise(view, flat_init, elementwise)
        if folded is None:
            return
        weight_type, init_type = w.type, init_value.type
        assert isinstance(weight_type, TensorType) and isinstance(init_type, TensorType)
        weight_op = dense_constant(folded.weight.reshape(weight.shape).astype(element_dtype(weight_type)),
                                   weight_type)
        if elementwise.kind in ("mul", "div") and isinstance(init_value.owner, tensor.EmptyOp):
            init_ops: list[Operation] = []  # a scaled undefined init is still undefined
            new_init = init_value
        else:
            init_ops, new_init = build_init(folded.init.reshape(init_shape).astype(element_dtype(init_type)),
                                            init_type)
        new_conv = conv.clone()
        new_conv.operands[1] = weight_op.result
        new_conv.operands[2] = new_init
        # f16/bf16: the next fold (batch norm's next scale) starts from the unrounded values.
        self.reader.remember_unrounded(weight_op.result, folded.weight.reshape(weight.shape))
        if init_ops:
            self.reader.remember_unrounded(new_init, folded.init.reshape(init_shape))
        new_collapse = collapse.clone()
        new_collapse.operands[0] = new_conv.results[0]
        rewriter.insert(weight_op, constant_insertion_point(conv))
        rewriter.insert([*init_ops, new_conv, new_collapse], InsertPoint.before(conv))
        old_operands = [*op.operands, *conv.operands]
        rewriter.replace(op, [], [new_collapse.results[0]])
        rewriter.erase(collapse)
        rewriter.erase(conv)
        erase_dead_constant_slices(rewriter, old_operands)
