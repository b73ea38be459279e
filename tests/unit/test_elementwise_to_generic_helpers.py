"""`is_tensor_elementwise` (pointwise/elementwise_to_generic.py) on each side: arith and
math ops on whole tensors of one static shape are (a select's i1 condition, a compare's
i1 result and a widening included), and a constant, a scalar op, a dynamic shape, a
tensor op and a linalg op are not. Found by issue 35's mutation habit."""

from __future__ import annotations

import pytest

from heirpy.api import parse
from heirpy.transforms.pointwise.elementwise_to_generic import is_tensor_elementwise

TEXT = """
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %s: f32, %d: tensor<?xf32>, %c: tensor<4xi1>, %m: tensor<2x2xf32>) -> tensor<4xf32> {
  %add = arith.addf %x, %y : tensor<4xf32>
  %exp = math.exp %x : tensor<4xf32>
  %sel = arith.select %c, %x, %y : tensor<4xi1>, tensor<4xf32>
  %const = arith.constant dense<1.0> : tensor<4xf32>
  %scalar = arith.mulf %s, %s : f32
  %dyn = arith.addf %d, %d : tensor<?xf32>
  %cmp = arith.cmpf olt, %x, %y : tensor<4xf32>
  %ext = arith.extf %x : tensor<4xf32> to tensor<4xf64>
  %col = tensor.collapse_shape %m [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %fill = linalg.fill ins(%s : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %add : tensor<4xf32>
}"""


@pytest.mark.parametrize(("name", "expected"), [
    ("add", True), ("exp", True), ("sel", True), ("cmp", True), ("ext", True),
    ("const", False), ("scalar", False), ("dyn", False), ("col", False), ("e", False), ("fill", False),
])
def test_is_tensor_elementwise(name: str, expected: bool) -> None:
    module = parse(TEXT)
    op = next(o for o in module.walk() if o.results and o.results[0].name_hint == name)
    assert is_tensor_elementwise(op) is expected
