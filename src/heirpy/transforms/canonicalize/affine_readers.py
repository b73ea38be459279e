"""A batch norm after an activation, one copy per linear op that reads it.

A net with its batch norms after the activations (conv -> x² -> BN) computes each BN's
scale and shift on the activation's result. Every later conv reads that value, and in a
residual net so does the shortcut (the add, or a 1x1 conv, or an option-A slice). A BN
read by one linear op folds into it (`linalg-fuse-linear-chains` scales the filter along
its input channels and pushes the shift into its init); a BN read by two stays where it
is, and its multiply costs every reader a level. Each linear reader gets its own copy of
the BN, which fusion then folds into it; the other readers (the add of an identity
shortcut) keep the original, whose level is spent on the shortcut's path, shallower than
the block's convs. So the BN costs no level where the bound counts it inside the next
linear run (docs/heir.md, "Generated residual nets").
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation, SSAValue, Use
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.transforms.linear.chain_steps import step_of
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.linear_match import match_elementwise_affine
from heirpy.transforms.rewrite import OpPattern

MAX_RUN = 8
"""The longest affine run copied (torch-mlir writes a BN as four ops)."""


def same_use(use: Use) -> Callable[[Use], bool]:
    """A test that holds for `use` only (an operand slot of one op)."""
    target, index = use.operation, use.index
    return lambda other: other.operation is target and other.index == index


class AffineRunPerLinearReader(OpPattern[Operation]):
    """A run of constant scales and shifts read by several ops, one copy per linear reader.

        %a = x * x                                  (the activation)
        %b = linalg.generic {(%a - %mean) * %inv}   (a BN's ops: per-channel constants)
        %p = tensor.pad %b low[0, 0, 1, 1] high[0, 0, 1, 1]
        %c = linalg.conv_2d_nchw_fchw ins(%p, %w)   (the block's first conv)
        %s = arith.addf %main, %b                   (the identity shortcut)
      ==>
        %b = linalg.generic {(%a - %mean) * %inv}
        %b1 = linalg.generic {(%a - %mean) * %inv}  (the copy, read only by the conv's pad)
        %p = tensor.pad %b1 low[0, 0, 1, 1] high[0, 0, 1, 1]
        %c = linalg.conv_2d_nchw_fchw ins(%p, %w)
        %s = arith.addf %main, %b

    Why: fusion folds a run of scales only into a linear op that is its one reader; with
    a copy each, every conv takes its BN in and the level is saved (module docstring).
    Legality: the op ends a run of at most MAX_RUN elementwise affine ops with a constant
    (`match_elementwise_affine`; `x op K` with K constant, not `K / x`), every op but the
    last read only by the next, at least one a multiply or divide (a shift alone costs
    no level), not computing from a linear op's result read only by the run (the BN
    then folds into that op, for every reader: `linalg-fuse-linear-ops`); its result
    has several readers, of which at least one is a linear op
    (`step_of`'s costly steps: a conv, matmul, pool, sum) reading it directly or through
    single-use pads and reshapes. The copies go to all linear readers but one when every
    reader is linear (the original keeps that one).
    """

    op_types = (Operation,)  # the run's last op: an arith op or a linalg.generic

    def __init__(self, reader: ConstantFolder):
        self.reader = reader

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or op.results[0].uses.get_length() < 2 or not op.name.startswith(("arith.", "linalg.")):
            return
        run = self.affine_run(op)
        if run is None:
            return
        uses = sorted(op.results[0].uses, key=lambda use: (id(use.operation), use.index))
        linear = [use for use in uses if self.linear_reader(use)]
        if not linear:
            return
        if len(linear) == len(uses):
            linear = linear[1:]  # the original keeps one
        for use in linear:
            mapping: dict[SSAValue, SSAValue] = {}
            copies = [step.clone(value_mapper=mapping) for step in run]
            rewriter.insert(copies, InsertPoint.after(op))
            rewriter.replace_uses_with_if(op.results[0], copies[-1].results[0], same_use(use))

    def affine_run(self, op: Operation) -> list[Operation] | None:
        """The run ending at `op`, first op first (class docstring), or None."""
        run: list[Operation] = []
        current: Operation = op
        scales = False
        while len(run) < MAX_RUN:
            match = match_elementwise_affine(current, self.reader)
            if match is None or not match.is_affine():
                break
            run.insert(0, current)
            scales = scales or match.kind in ("mul", "div")
            source = match.operand.owner
            if not isinstance(source, Operation) or len(source.results) != 1 or not match.operand.has_one_use():
                break
            current = source
        if not run or not scales:
            return None
        start = match_elementwise_affine(run[0], self.reader)
        assert start is not None
        producer = start.operand.owner
        if start.operand.has_one_use() and isinstance(producer, Operation):
            step = step_of(producer, self.reader)
            if step is not None and step.costly:
                return None  # a BN right after a conv folds into that conv, for every reader
        return run

    def linear_reader(self, use: Use) -> bool:
        """Does `use` read the value into a linear op (directly, or through single-use
        pads and reshapes)?"""
        user, value = use.operation, use.operation.operands[use.index]
        for _ in range(MAX_RUN):
            step = step_of(user, self.reader)
            if step is None or step.activation is not value:
                return False
            if step.costly:
                return True
            if not step.reshape_only or not user.results[0].has_one_use():
                return False
            value = user.results[0]
            user = next(iter(value.uses)).operation
        return False
