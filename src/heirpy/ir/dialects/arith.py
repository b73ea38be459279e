"""heirpy's `arith` dialect: xDSL's, with the ops MLIR applies elementwise to tensors and
vectors that xDSL 0.74 types on scalars only.

In MLIR every arith op is ElementwiseMappable: its operands may be scalars, or vectors or
tensors of them, all of one shape. xDSL 0.74 gives `arith.cmpf` / `arith.cmpi` an `i1`
result whatever their operands, `arith.select` only an `i1` condition and a single type,
and the integer casts (`sitofp`, `uitofp`, `fptosi`, `fptoui`, `extsi`, `extui`, `trunci`,
`index_cast`) scalar operands only; `index_castui` is missing. Those ops are replaced here
by subclasses (so `isinstance(op, xdsl.dialects.arith.CmpfOp)` still holds) that follow
MLIR's rules and messages:

    %m = arith.cmpf ugt, %x, %c : tensor<4xf32>                 // -> tensor<4xi1>
    %s = arith.select %m, %x, %c : tensor<4xi1>, tensor<4xf32>  // condition of the same shape
    %t = arith.select %b, %x, %c : tensor<4xf32>                // or one i1 for all
    %f = arith.sitofp %i : tensor<4xi32> to tensor<4xf32>

The evaluator's handlers work on whole arrays already; `linalg-canonicalizations` turns
elementwise generics using these ops into tensor arith, as HEIR does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnrankedTensorType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Dialect, Operation, OpResult, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "ARITH_OPS",
    "Arith",
    "CmpfOp",
    "CmpiOp",
    "SelectOp",
    "element_type",
    "with_element_type",
]


def element_type(type_: Attribute) -> Attribute:
    """The element type of a vector or tensor type, or the type itself."""
    if isinstance(type_, TensorType | VectorType | UnrankedTensorType):
        return type_.get_element_type()
    return type_


def with_element_type(type_: Attribute, element: Attribute) -> Attribute:
    """`type_` with its elements (or itself, for a scalar) of type `element`: MLIR's
    `getI1SameShape` and the cast ops' result types."""
    if isinstance(type_, TensorType):
        return TensorType(element, type_.get_shape(), type_.encoding)
    if isinstance(type_, VectorType):
        return VectorType(element, type_.get_shape(), type_.scalable_dims)
    if isinstance(type_, UnrankedTensorType):
        return UnrankedTensorType(element)
    return element


def _same_shape(types: Sequence[Attribute]) -> bool:
    """MLIR's SameOperandsAndResultShape: all scalars, or all vectors or all tensors of
    one shape (the element types may differ)."""
    return len({with_element_type(t, i1) for t in types}) == 1


def _is_float(type_: Attribute) -> bool:
    return isinstance(type_, AnyFloat)


def _is_signless_int(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.signedness.data.name == "SIGNLESS"


def _is_int_or_index(type_: Attribute) -> bool:
    return _is_signless_int(type_) or isinstance(type_, IndexType)


# --------------------------------------------------------------------------- comparisons
def _predicate(mnemonic: str, names: Sequence[str]) -> int:
    if mnemonic not in names:
        raise VerifyException(f"Unknown comparison mnemonic: {mnemonic}")
    return list(names).index(mnemonic)


def _check_comparison(op: Operation, accepts: str) -> None:
    lhs, rhs = op.operands[0].type, op.operands[1].type
    if lhs != rhs:
        raise VerifyException("requires all operands to have the same type")
    check = _is_float if accepts == "floating-point-like" else _is_int_or_index
    if not check(element_type(lhs)):
        raise VerifyException(f"operand #0 must be {accepts}, but got '{lhs}'")
    if op.results[0].type != with_element_type(lhs, i1):
        raise VerifyException(
            "failed to verify that result type has i1 element type and same shape as operands"
        )


@irdl_op_definition
class CmpiOp(xarith.CmpiOp):
    """`arith.cmpi` on integers, or vectors or tensors of them: an `i1` per element."""

    name = "arith.cmpi"
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    result: OpResult[Any] = result_def(AnyAttr())  # xDSL types it i1: here i1 or shaped i1

    def __init__(self, operand1: Operation | SSAValue, operand2: Operation | SSAValue, arg: int | str):
        lhs = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = _predicate(arg, xarith.CMPI_COMPARISON_OPERATIONS)
        IRDLOperation.__init__(
            self,
            operands=[lhs, operand2],
            result_types=[with_element_type(lhs.type, i1)],
            properties={"predicate": IntegerAttr(arg, 64)},
        )

    def verify_(self) -> None:
        _check_comparison(self, "signless-non-zero-bitwidth-integer-like")


_NO_FASTMATH = xarith.FastMathFlagsAttr("none")


@irdl_op_definition
class CmpfOp(xarith.CmpfOp):
    """`arith.cmpf` on floats, or vectors or tensors of them: an `i1` per element."""

    name = "arith.cmpf"
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    fastmath = prop_def(xarith.FastMathFlagsAttr, default_value=xarith.FastMathFlagsAttr("none"))
    result: OpResult[Any] = result_def(AnyAttr())  # xDSL types it i1: here i1 or shaped i1

    def __init__(
        self,
        operand1: SSAValue | Operation,
        operand2: SSAValue | Operation,
        arg: int | str,
        fastmath: xarith.FastMathFlagsAttr = _NO_FASTMATH,
    ):
        lhs = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = _predicate(arg, xarith.CMPF_COMPARISON_OPERATIONS)
        IRDLOperation.__init__(
            self,
            operands=[lhs, operand2],
            result_types=[with_element_type(lhs.type, i1)],
            properties={"predicate": IntegerAttr(arg, 64), "fastmath": fastmath},
        )

    def verify_(self) -> None:
        _check_comparison(self, "floating-point-like")


# --------------------------------------------------------------------------- select
@irdl_op_definition
class SelectOp(xarith.SelectOp):
    """`arith.select` with MLIR's two condition forms: one `i1` for the whole value, or
    (for a vector or tensor result) an `i1` vector or tensor of the result's shape,
    spelled `arith.select %m, %a, %b : tensor<4xi1>, tensor<4xf32>`."""

    name = "arith.select"
    cond = operand_def(AnyAttr())
    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    assembly_format = None  # type: ignore[assignment]  # xDSL declares a str: this op parses itself

    def verify_(self) -> None:
        if not (self.lhs.type == self.rhs.type == self.result.type):
            raise VerifyException(
                "failed to verify that all of {true_value, false_value, result} have same type"
            )
        condition = self.cond.type
        if condition == i1:
            return
        result = self.result.type
        if not isinstance(result, TensorType | VectorType | UnrankedTensorType) or (
            condition != with_element_type(result, i1)
        ):
            raise VerifyException(
                "failed to verify that condition is signless i1 or has matching shape"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        pos = parser.pos
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(unresolved) != 3 or len(types) > 2:
            parser.raise_error("expected three operands and one or two types", pos, parser.pos)
        result = types[-1]
        condition = types[0] if len(types) == 2 else i1
        cond, lhs, rhs = parser.resolve_operands(unresolved, [condition, result, result], pos)
        op = cls(cond, lhs, rhs)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if isinstance(self.cond.type, TensorType | VectorType | UnrankedTensorType):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


# --------------------------------------------------------------------------- casts
_INT = "signless-fixed-width-integer-like"
_FLOAT = "floating-point-like"
_INT_OR_INDEX = "signless-integer-like or memref of signless-integer"


def _kind_ok(kind: str, type_: Attribute) -> bool:
    if kind == _INT:
        return _is_signless_int(type_)
    if kind == _FLOAT:
        return _is_float(type_)
    return _is_int_or_index(type_)


class _ElementwiseCast(IRDLOperation):
    """A cast applied to every element: `%r = arith.<op> %x : T1 to T2` with T1 and T2
    scalars, or vectors or tensors of one shape. MLIR's checks in its order: the operand's
    and the result's element kinds, the shapes, then the op's own rule."""

    # Each subclass also derives from xDSL's op of its name (so isinstance checks against
    # xDSL's class hold), which types `input` and `result` as scalars and gives the op a
    # declarative format: hence Any, and one ignore here for the format that this class
    # turns off (None) where xDSL's classes declare a str.
    input: SSAValue[Any] = operand_def(AnyAttr())
    result: OpResult[Any] = result_def(AnyAttr())
    assembly_format: ClassVar[str] = None  # type: ignore[assignment]
    SOURCE: ClassVar[str]
    TARGET: ClassVar[str]

    def __init__(self, op: SSAValue | Operation, target_type: Attribute):
        IRDLOperation.__init__(self, operands=[op], result_types=[target_type])

    def compatible(self, source: Attribute, target: Attribute) -> bool:
        return True

    def verify_(self) -> None:
        source, target = self.input.type, self.result.type
        if not _kind_ok(self.SOURCE, element_type(source)):
            raise VerifyException(f"operand #0 must be {self.SOURCE}, but got '{source}'")
        if not _kind_ok(self.TARGET, element_type(target)):
            raise VerifyException(f"result #0 must be {self.TARGET}, but got '{target}'")
        if not _same_shape([source, target]):
            raise VerifyException(
                "failed to verify that input and output have the same tensor dimensions"
            )
        if not self.compatible(element_type(source), element_type(target)):
            raise VerifyException(
                f"operand type '{source}' and result type '{target}' are cast incompatible"
            )

    @classmethod
    def parse(cls, parser: Parser) -> _ElementwiseCast:
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source = parser.parse_type()
        parser.parse_keyword("to")
        target = parser.parse_type()
        op = cls(parser.resolve_operand(operand, source), target)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)


def _width(type_: Attribute) -> int:
    assert isinstance(type_, IntegerType)
    return type_.width.data


@irdl_op_definition
class ExtSIOp(_ElementwiseCast, xarith.ExtSIOp):
    name = "arith.extsi"
    SOURCE: ClassVar[str] = _INT
    TARGET: ClassVar[str] = _INT

    def compatible(self, source: Attribute, target: Attribute) -> bool:
        return _width(target) > _width(source)


@irdl_op_definition
class ExtUIOp(_ElementwiseCast, xarith.ExtUIOp):
    name = "arith.extui"
    SOURCE: ClassVar[str] = _INT
    TARGET: ClassVar[str] = _INT

    def compatible(self, source: Attribute, target: Attribute) -> bool:
        return _width(target) > _width(source)


@irdl_op_definition
class TruncIOp(_ElementwiseCast, xarith.TruncIOp):
    name = "arith.trunci"
    SOURCE: ClassVar[str] = _INT
    TARGET: ClassVar[str] = _INT

    def compatible(self, source: Attribute, target: Attribute) -> bool:
        return _width(target) < _width(source)


@irdl_op_definition
class SIToFPOp(_ElementwiseCast, xarith.SIToFPOp):
    name = "arith.sitofp"
    SOURCE: ClassVar[str] = _INT
    TARGET: ClassVar[str] = _FLOAT


@irdl_op_definition
class UIToFPOp(_ElementwiseCast, xarith.UIToFPOp):
    name = "arith.uitofp"
    SOURCE: ClassVar[str] = _INT
    TARGET: ClassVar[str] = _FLOAT


@irdl_op_definition
class FPToSIOp(_ElementwiseCast, xarith.FPToSIOp):
    name = "arith.fptosi"
    SOURCE: ClassVar[str] = _FLOAT
    TARGET: ClassVar[str] = _INT


@irdl_op_definition
class FPToUIOp(_ElementwiseCast, xarith.FPToUIOp):
    name = "arith.fptoui"
    SOURCE: ClassVar[str] = _FLOAT
    TARGET: ClassVar[str] = _INT


def _one_index(source: Attribute, target: Attribute) -> bool:
    # One side index, the other a signless integer (MLIR's areIndexCastCompatible).
    return isinstance(source, IndexType) != isinstance(target, IndexType)


@irdl_op_definition
class IndexCastOp(_ElementwiseCast, xarith.IndexCastOp):
    name = "arith.index_cast"
    SOURCE: ClassVar[str] = _INT_OR_INDEX
    TARGET: ClassVar[str] = _INT_OR_INDEX

    def compatible(self, source: Attribute, target: Attribute) -> bool:
        return _one_index(source, target)


@irdl_op_definition
class IndexCastUIOp(_ElementwiseCast):
    name = "arith.index_castui"
    SOURCE: ClassVar[str] = _INT_OR_INDEX
    TARGET: ClassVar[str] = _INT_OR_INDEX

    def compatible(self, source: Attribute, target: Attribute) -> bool:
        return _one_index(source, target)


_REPLACED: tuple[type[Operation], ...] = (
    CmpiOp,
    CmpfOp,
    SelectOp,
    ExtSIOp,
    ExtUIOp,
    TruncIOp,
    SIToFPOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    IndexCastOp,
)

ARITH_OPS: dict[str, type[Operation]] = {
    **{op.name: op for op in xarith.Arith.operations},
    **{op.name: op for op in _REPLACED},
    IndexCastUIOp.name: IndexCastUIOp,
}
"""Every op of heirpy's arith dialect by name."""

Arith = Dialect(
    "arith",
    list(ARITH_OPS.values()),
    list(xarith.Arith.attributes),
    list(xarith.Arith._interfaces),  # pyright: ignore[reportPrivateUsage]
)
