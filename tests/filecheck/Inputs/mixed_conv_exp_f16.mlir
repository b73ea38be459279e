// issue 34: as mixed_conv_f16.mlir, the conv's input computed (exp) in f32 before the
// truncf, its f16 filter a reshaped constant, its result rounded to f16 again.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @main(%arg0: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf16> {
    %w = arith.constant dense<[1.2573e-01, -1.3208e-01, 6.4062e-01, 1.0492e-01, -5.3564e-01, 3.6157e-01, 1.3037e+00, 9.4727e-01, -7.0361e-01, -1.2656e+00, -6.2305e-01, 4.1321e-02, -2.3242e+00, -2.1875e-01, -1.2461e+00, -7.3242e-01, -5.4443e-01, -3.1641e-01, 4.1162e-01, 1.0430e+00, -1.2854e-01, 1.3662e+00, -6.6504e-01, 3.5156e-01, 9.0332e-01, 9.3994e-02, -7.4365e-01, -9.2188e-01, -4.5776e-01, 2.2021e-01, -1.0098e+00, -2.0923e-01, -1.5918e-01, 5.4102e-01, 2.1460e-01, 3.5547e-01, -6.5381e-01, -1.2964e-01, 7.8418e-01, 1.4932e+00, -1.2588e+00, 1.5137e+00, 1.3457e+00, 7.8125e-01, 2.6440e-01, -3.1396e-01, 1.4580e+00, 1.9600e+00, 1.8018e+00, 1.3154e+00, 3.5742e-01, -1.2080e+00, -4.4556e-03, 6.5625e-01, -1.2881e+00, 3.9502e-01, 4.2993e-01, 6.9580e-01, -1.1846e+00, -6.6162e-01, -4.3652e-01, -1.1699e+00, 1.7393e+00, -4.9585e-01]> : tensor<64xf16>
    %w4 = tensor.expand_shape %w [[0, 1, 2, 3]] output_shape [8, 8, 1, 1] : tensor<64xf16> into tensor<8x8x1x1xf16>
    %zero = arith.constant 0.000000e+00 : f32
    %e16 = tensor.empty() : tensor<1x8x4x4xf16>
    %e32 = tensor.empty() : tensor<1x8x4x4xf32>
    %s = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x8x4x4xf32>) outs(%e32 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      %x = math.exp %n : f32
      linalg.yield %x : f32
    } -> tensor<1x8x4x4xf32>
    %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x8x4x4xf32>) outs(%e16 : tensor<1x8x4x4xf16>) {
    ^bb0(%in: f32, %out: f16):
      %r = arith.truncf %in : f32 to f16
      linalg.yield %r : f16
    } -> tensor<1x8x4x4xf16>
    %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t, %w4 : tensor<1x8x4x4xf16>, tensor<8x8x1x1xf16>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %o = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x8x4x4xf32>) outs(%e16 : tensor<1x8x4x4xf16>) {
    ^bb0(%in: f32, %out: f16):
      %r = arith.truncf %in : f32 to f16
      linalg.yield %r : f16
    } -> tensor<1x8x4x4xf16>
    return %o : tensor<1x8x4x4xf16>
  }
}
