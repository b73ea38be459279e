"""`linalg.softmax`, MLIR's aggregate softmax op, with its custom form and verifier.

    %r = linalg.softmax dimension(2) ins(%x : tensor<2x16x32xf32>)
           outs(%init : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>

computes `exp(x - max_d x) / sum_d exp(x - max_d x)` along `dimension` (MLIR's own
decomposition subtracts the maximum first). The init only gives the result's type.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr, ShapedType, TensorType, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from heirpy.ir.dialects.linalg_core import verify_destination_style
from heirpy.ir.dialects.linalg_structured import (
    PURE_ON_TENSORS,
    parse_operand_group,
    parse_result_types,
    print_operand_group,
    print_result_types,
    print_sorted_attr_dict,
)


def _compatible(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """MLIR's `verifyCompatibleShape`: same rank, sizes equal where both are static."""
    return len(a) == len(b) and all(x == y or x < 0 or y < 0 for x, y in zip(a, b))


@irdl_op_definition
class SoftmaxOp(IRDLOperation):
    """`linalg.softmax dimension(d) ins(%x : T) outs(%init : T) -> T` (see the module docstring)."""

    name = "linalg.softmax"
    input = operand_def(ShapedType)
    output = operand_def(ShapedType)
    dimension = prop_def(IntegerAttr[I64])
    result = var_result_def(TensorType)
    traits = PURE_ON_TENSORS

    def verify_(self) -> None:
        in_type, out_type = self.input.type, self.output.type
        assert isinstance(in_type, ShapedType) and isinstance(out_type, ShapedType)
        if not _compatible(tuple(in_type.get_shape()), tuple(out_type.get_shape())):
            raise VerifyException("incompatible output shape")
        dim = self.dimension.value.data
        if not 0 <= dim < len(in_type.get_shape()):
            raise VerifyException("incorrect dimension specified")
        verify_destination_style(self, (self.output,))

    @classmethod
    def parse(cls, parser: Parser) -> SoftmaxOp:
        attributes = dict(parser.parse_optional_attr_dict())
        parser.parse_keyword("dimension")
        parser.parse_punctuation("(")
        dimension = parser.parse_integer()
        parser.parse_punctuation(")")
        pos = parser.pos
        inputs = parse_operand_group(parser, "ins")
        outputs = parse_operand_group(parser, "outs")
        if len(inputs) != 1 or len(outputs) != 1:
            parser.raise_error("'linalg.softmax' expects one value in ins(...) and one in outs(...)", pos)
        return cls.create(
            operands=[inputs[0], outputs[0]],
            result_types=parse_result_types(parser),
            properties={"dimension": IntegerAttr(dimension, i64)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        print_sorted_attr_dict(printer, dict(self.attributes))
        printer.print_string(f" dimension({self.dimension.value.data})")
        print_operand_group(printer, "ins", (self.input,))
        print_operand_group(printer, "outs", (self.output,))
        print_result_types(printer, [r.type for r in self.result])
