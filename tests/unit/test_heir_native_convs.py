"""`RowMajorValues.native_conv` on the axes test_heir_prepare's NATIVE leaves out: a
dilated conv, a batch-2 conv, a conv whose strides and dilations are left to their
defaults, an unpadded conv of the argument, and a generic reading its input through a
transposing map. Found by issue 35's mutation habit."""

from __future__ import annotations

from heirpy.api import parse
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
from heirpy.transforms.heir.heir_native_convs import RowMajorValues
from heirpy.transforms.linear.constant_folding import ConstantFolder

TEXT = """
func.func @f(%x: tensor<1x4x8x8xf32>, %y: tensor<2x4x8x8xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x4x4xf32>, tensor<2x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %w = arith.constant dense<0.5> : tensor<4x4x3x3xf32>
  %b6 = arith.constant dense<0.0> : tensor<1x4x6x6xf32>
  %b4 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %b2 = arith.constant dense<0.0> : tensor<2x4x6x6xf32>
  %plain = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%b6 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %dilated = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%b4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %batch = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %w : tensor<2x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%b2 : tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32>
  %bare = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%b6 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %te = tensor.empty() : tensor<1x4x8x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x8x8xf32>) outs(%te : tensor<1x4x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  %after_t = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%b6 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %se = tensor.empty() : tensor<1x4x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x8x8xf32>) outs(%se : tensor<1x4x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  %after_s = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%b6 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %plain, %dilated, %batch, %bare, %after_t, %after_s : tensor<1x4x6x6xf32>, tensor<1x4x4x4xf32>, tensor<2x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}
"""


def test_native_convs_on_each_axis() -> None:
    module = parse(TEXT)
    convs = {op.results[0].name_hint: op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)}
    layouts = RowMajorValues(ConstantFolder())
    assert {name: layouts.native_conv(op) for name, op in convs.items()} == {
        "plain": True, "dilated": False, "batch": False, "bare": True, "after_t": False, "after_s": True,
    }
    assert not layouts.native_conv(next(op for op in module.walk() if op.name == "linalg.generic"))
