"""heirpy.analysis.slots: which pads HEIR's conv layout absorbs (report-slots' lit tests
cover the tables; this pins the pad rule's zero check, which they do not reach)."""

from __future__ import annotations

import pytest
from xdsl.dialects import tensor

from heirpy.analysis.slots import folded_pad_source
from heirpy.api import parse

PAD = """
func.func @main(%x: tensor<1x2x4x4xf32>, %v: f32) -> tensor<1x2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield VALUE : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  return %p : tensor<1x2x6x6xf32>
}
"""


@pytest.mark.parametrize(("value", "folded"), [("%zero", True), ("%v", False)])
def test_only_a_pad_with_a_zero_constant_folds_into_the_conv(value: str, folded: bool) -> None:
    """A symmetric spatial pad folds when it pads with the constant 0; padding with a
    runtime value (an argument) is not a conv's zero padding, so HEIR lays it out."""
    module = parse(PAD.replace("VALUE", value))
    (pad,) = [op for op in module.walk() if isinstance(op, tensor.PadOp)]
    assert (folded_pad_source(pad) is pad.source) == folded
