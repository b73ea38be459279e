"""Lowering of `tensor_ext.kernel` to standard linalg: its body, inlined.

Part of `lower-tensor-ext` (listed in `populate_lower_tensor_ext_patterns`).
"""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from heirpy.ir.dialects.tensor_ext import KernelOp, KernelYieldOp


class LowerKernel(RewritePattern):
    """Inline a kernel's body in place of the kernel: root op + one generic.

        %r = tensor_ext.kernel ins(%x, %w : ...) -> tensor<1x2x4x4x3xf32> {
        ^bb0(%xi: ..., %wi: ...):
          %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : ...) outs(%acc : ...)
          %s = linalg.generic {... (d0, d1*3 + d4, d2, d3) ...} ins(%c : ...) outs(%o : ...)
          tensor_ext.yield %s : tensor<1x2x4x4x3xf32>
        }
      ==>
        %c = linalg.conv_2d_nchw_fchw ins(%x, %w : ...) outs(%acc : ...)
        %s = linalg.generic {... (d0, d1*3 + d4, d2, d3) ...} ins(%c : ...) outs(%o : ...)

    Always legal: the kernel's semantics are defined as those of its inlined body.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: KernelOp, rewriter: PatternRewriter) -> None:
        block = op.body.block
        terminator = block.last_op
        assert isinstance(terminator, KernelYieldOp)  # the verifier guarantees it
        values = list(terminator.values)
        rewriter.erase(terminator)
        rewriter.inline_block(block, InsertPoint.before(op), arg_values=list(op.inputs))
        rewriter.replace(op, [], values)
