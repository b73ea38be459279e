"""heirpy's `scf` dialect: xDSL's, with MLIR's result-type syntax on `scf.for` and `scf.if`.

MLIR reads the result types after `->` as a function result list: one type may stand
alone (`iter_args(%acc = %t) -> tensor<4xf32>`, `scf.if %c -> i32`), several need
brackets (`-> (i32, f32)`). xDSL's `scf.for` and `scf.if` insist on the brackets, so
IR that MLIR's own tools accept was refused. The subclasses here read both spellings;
printing, verification and building are xDSL's (which print the bracketed form, as
MLIR does for these two ops). Every other scf op is xDSL's unchanged.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import IndexType, i1
from xdsl.dialects.utils import parse_assignment
from xdsl.ir import Attribute, Dialect, Region
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator


def parse_arrow_types(parser: Parser) -> list[Attribute]:
    """The types after an `->` that has just been read: `T`, `(T, ...)` or `()`
    (MLIR's `parseFunctionResultTypes`)."""
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types: list[Attribute] = [parser.parse_type()]
    while parser.parse_optional_punctuation(",") is not None:
        types.append(parser.parse_type())
    parser.parse_punctuation(")")
    return types


class ForOp(xscf.ForOp):
    """`scf.for %i = %lb to %ub step %s iter_args(%a = %init) -> T (: i32)? { ... }`."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        bounds = [parser.parse_unresolved_operand()]
        parser.parse_keyword("to")
        bounds.append(parser.parse_unresolved_operand())
        parser.parse_keyword("step")
        bounds.append(parser.parse_unresolved_operand())

        pos = parser.pos
        carried: list[Parser.UnresolvedArgument] = []
        inits: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:
            for argument, init in parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            ):
                carried.append(argument)
                inits.append(init)
            parser.parse_punctuation("->")
            types = parse_arrow_types(parser)
        if len(types) != len(inits):
            parser.raise_error("mismatch in number of loop-carried values and defined values", pos, parser.pos)
        init_values = parser.resolve_operands(inits, types, pos)

        indvar_type: Attribute = IndexType()
        if parser.parse_optional_punctuation(":") is not None:
            indvar_type = parser.parse_type()
        lb, ub, step = (parser.resolve_operand(bound, indvar_type) for bound in bounds)
        body = parser.parse_region(
            (indvar.resolve(indvar_type), *(a.resolve(t) for a, t in zip(carried, types)))
        )
        attributes = parser.parse_optional_attr_dict()

        op = cls(lb, ub, step, init_values, body)
        op.attributes |= attributes
        if not carried:  # the yield of a loop without results may be left out
            for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(op, trait)
        return op


class IfOp(xscf.IfOp):
    """`scf.if %c -> T { ... } else { ... }`."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        condition = parser.parse_operand(i1)
        types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            types = parse_arrow_types(parser)
        then_region = cls.parse_region_with_yield(parser)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = cls.parse_region_with_yield(parser)
        attributes = parser.parse_optional_attr_dict()
        return cls(condition, types, then_region, else_region, attributes)


_OWN: dict[type, type] = {xscf.ForOp: ForOp, xscf.IfOp: IfOp}

Scf = Dialect(
    "scf",
    [_OWN.get(op, op) for op in xscf.Scf.operations],
    list(xscf.Scf.attributes),
)
