// issue 34: a 1x1 conv after torch-mlir's truncf (f32 input rounded to f16, f16 filter, f32
// accumulator), nothing to fold; iree-prepare once left it reading the f32 input with the
// f16 filter, which IREE's im2col rejects (tests/unit/test_iree_f16_mixed_conv.py).
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @main(%arg0: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
    %w = arith.constant dense<5.000000e-01> : tensor<8x8x1x1xf16>
    %zero = arith.constant 0.000000e+00 : f32
    %e16 = tensor.empty() : tensor<1x8x4x4xf16>
    %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x8x4x4xf32>) outs(%e16 : tensor<1x8x4x4xf16>) {
    ^bb0(%in: f32, %out: f16):
      %r = arith.truncf %in : f32 to f16
      linalg.yield %r : f16
    } -> tensor<1x8x4x4xf16>
    %e32 = tensor.empty() : tensor<1x8x4x4xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t, %w : tensor<1x8x4x4xf16>, tensor<8x8x1x1xf16>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    return %c : tensor<1x8x4x4xf32>
  }
}
