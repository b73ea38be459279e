"""The base of the patterns that compose a `linalg.matmul` with the linear op it reads
through row layouts, a residual add, a fork or a sum over rows (`chains_through_adds_rows`,
`chains_through_tokens`, `chains_through_row_sums`).

They share what they hold: the constant reader, the cost rule, the pass name for remarks,
and the set of matmuls kept for a skip (shared with `FuseChainThroughAdd`, so that a kept
matmul is never composed again).
"""

from __future__ import annotations

from xdsl.ir import Operation

from heirpy.ir.dialects.linalg import MatmulOp
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.fusion_cost import CostRule
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies


class MatmulChainPattern(OpPattern[MatmulOp], OutsideGenericBodies):
    """A matmul chain pattern's state (module docstring); subclasses write `rewrite`."""

    op_types = (MatmulOp,)

    def __init__(self, reader: ConstantFolder, rule: CostRule, pass_name: str, kept: set[Operation]):
        self.reader = reader
        self.rule = rule
        self.pass_name = pass_name
        self.kept = kept
