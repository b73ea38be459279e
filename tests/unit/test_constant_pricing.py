"""How the weight budget prices constants (`heirpy.analysis.kernels.constant_bytes`'s
`element_size`, `constant_elements`): every element alike, whatever its storage type,
as CKKS encodes them; a splat is one element."""

from __future__ import annotations

from heirpy.analysis.kernels import constant_bytes, constant_elements
from heirpy.api import parse

TEXT = """
func.func @f(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf16>
  %s = arith.constant dense<2.0> : tensor<2x3xf16>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = arith.mulf %x, %w : tensor<2x3xf16>
  %1 = arith.addf %0, %s : tensor<2x3xf16>
  return %1 : tensor<2x3xf16>
}
"""


def test_stored_bytes_follow_the_type_priced_bytes_count_elements() -> None:
    module = parse(TEXT)
    assert constant_elements(module) == 6 + 1 + 4
    assert constant_bytes(module) == 6 * 2 + 2 + 4 * 4
    assert constant_bytes(module, element_size=4) == 4 * 11
    assert constant_bytes(module, element_size=1) == 11
