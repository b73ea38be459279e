"""`report-slots`: print the ciphertext slots each linear op on secret data needs; the IR
is unchanged.

The analysis is `heirpy.analysis.slots`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from heirpy.analysis.slots import DEFAULT_SLOT_COUNT, heir_opt_flag, linear_stages, min_slot_count, slots_needed


def format_slots_table(func: FuncOp) -> str:
    """The table `report-slots` prints for one function."""
    stages = linear_stages(func)
    rows = [("op", "matrix (out x in)", "slots")] + [(s.op.name, s.matrix, str(s.slots)) for s in stages]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"@{func.sym_name.data}: linear ops on secret data"]
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    count = min_slot_count(slots_needed(func))
    flag = " (HEIR's default)" if count == DEFAULT_SLOT_COUNT else f": heir-opt {heir_opt_flag(count)}"
    lines.append(f"  min-slot-count: {count}{flag}")
    return "\n".join(lines)


@dataclass(frozen=True)
class ReportSlotsPass(ModulePass):
    """Print each linear op's secret vector sizes and the min-slot-count HEIR needs; IR unchanged.

    For HEIR's `--torch-linalg-to-ckks`, whose linear kernels need each secret vector in
    one ciphertext: per linear op on secret data (matvec, matmul, conv, pool) the dense
    matrix it stands for (`out x in` elements) and the slots that takes, then the
    function's `min-slot-count` (a power of two, at least HEIR's default 1024) with the
    heir-opt flag that sets it (`--torch-linalg-to-ckks=min-slot-count=N`). Example
    (tests/filecheck/transforms/report-slots/docstring.mlir):

        @main: linear ops on secret data
          op             matrix (out x in)  slots
          linalg.matvec  32x64              64
          linalg.matvec  10x32              32
          min-slot-count: 1024 (HEIR's default)
    """

    name = "report-slots"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in op.walk():
            if isinstance(func, FuncOp) and func.body.blocks:
                print(format_slots_table(func), file=sys.stderr)
