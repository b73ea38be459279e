"""`report-depth`: print the multiplicative depth of every function; the IR is unchanged.

The analysis and its CKKS cost model are `heirpy.analysis.depth`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heirpy.analysis.depth import CostModel, analyze_module, format_depth_table
from heirpy.ir.diagnostics import HeirpyError


def _parse_indices(text: str) -> frozenset[int]:
    parts = [part for part in text.replace(" ", "").split(",") if part]
    if not all(part.isdigit() for part in parts):
        raise HeirpyError(
            f'error: report-depth{{plaintext-args="{text}"}}: expected argument indices, e.g. plaintext-args="1,2"'
        )
    return frozenset(int(part) for part in parts)


@dataclass(frozen=True)
class ReportDepthPass(ModulePass):
    """Print each function's multiplicative depth (CKKS cost model) to stderr; IR unchanged.

        func.func @sq(%x: tensor<4xf32>) -> tensor<4xf32> {
          %e = tensor.empty() : tensor<4xf32>
          %y = linalg.generic {...} ins(%x, %x : ...) outs(%e : ...) {
            ^bb0(%a: f32, %b: f32, %o: f32):
              %m = arith.mulf %a, %b : f32
              linalg.yield %m : f32
          } -> tensor<4xf32>
          return %y : tensor<4xf32>
        }
      prints
        function  depth  result depths  linear ops  weight bytes  ct x ct muls  not modelled
        @sq       1      1              0           0             1             -

    Options: `plaintext-args="1,2"` (argument indices that are plaintext, e.g.
    weights) and `scalar-mul-levels=1` (charge a level for a uniform scale). The model
    is documented in `heirpy.analysis.depth` (tests/filecheck/transforms/report-depth/
    docstring.mlir runs this example).
    """

    name = "report-depth"

    plaintext_args: str = ""
    scalar_mul_levels: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        model = CostModel(_parse_indices(self.plaintext_args), self.scalar_mul_levels)
        print(format_depth_table(analyze_module(op, model)), file=sys.stderr)
