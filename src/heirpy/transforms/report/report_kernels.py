"""`report-kernels`: print each function's kernel count and intermediate bytes; the IR
is unchanged. The analysis (what counts as a kernel) is `heirpy.analysis.kernels`."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heirpy.analysis.kernels import analyze_module, format_kernel_table


@dataclass(frozen=True)
class ReportKernelsPass(ModulePass):
    """Print each function's kernels and intermediate bytes to stderr; IR unchanged.

        func.func @f(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
          %a = linalg.generic {...} ins(%x) outs(%e0 : tensor<4x6xf32>) { exp }
          %t = linalg.transpose ins(%a) outs(%e1 : tensor<6x4xf32>) permutation = [1, 0]
          return %t : tensor<6x4xf32>
        }
      prints
        function  kernels  intermediate bytes  dynamic  kernel ops
        @f        2        96                  0        linalg.generic, linalg.transpose

    (tests/filecheck/transforms/report-kernels/docstring.mlir runs this example.)
    """

    name = "report-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        print(format_kernel_table(analyze_module(op)), file=sys.stderr)
