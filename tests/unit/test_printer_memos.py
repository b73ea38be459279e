"""What the printer's shortcuts (issue 33) must keep: an alias collected wherever the
full printer would print it, entry block arguments included, and a plain tensor type's
text built once per type object (survivors of issue 35's third mutation sample)."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from heirpy.api import parse, print_module
from heirpy.ir.printer import MLIRPrinter

REGION_ARGUMENT = """"test.op"() ({
^bb0(%x: memref<4xf32, affine_map<(d0) -> (d0 + 1)>>):
  "test.termop"() : () -> ()
}) : () -> ()
"""


def test_an_alias_used_only_by_an_entry_block_argument_is_defined() -> None:
    printed = print_module(parse(REGION_ARGUMENT, verify=False))
    assert printed.startswith("#map = affine_map<(d0) -> (d0 + 1)>\n")
    assert "^bb0(%x: memref<4xf32, #map>):" in printed


def test_a_tensor_type_is_spelled_once_per_type_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser gives each spelling one object; printing it a second time reuses the
    text (a network prints a few dozen types thousands of times)."""
    text = """func.func @f(%a: tensor<4x3xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = arith.addf %a, %b : tensor<4x3xf32>
  %1 = arith.mulf %0, %a : tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}
"""
    module = parse(text)
    spelled: list[Attribute] = []
    body = MLIRPrinter._print_attribute_body

    def counting(self: MLIRPrinter, attribute: Attribute) -> None:
        if isinstance(attribute, TensorType):
            spelled.append(attribute)
        body(self, attribute)

    monkeypatch.setattr(MLIRPrinter, "_print_attribute_body", counting)
    out = StringIO()
    MLIRPrinter(stream=out).print_op(module)
    assert out.getvalue().count("tensor<4x3xf32>") >= 6
    assert len(spelled) == 1
