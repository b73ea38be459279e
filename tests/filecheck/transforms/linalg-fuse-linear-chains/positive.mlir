// linalg-fuse-linear-chains on hand-written chains: the compositions themselves, so
// every chain is fused whatever its weights cost (`policy=depth`; the cost rule has
// its own tests in cost_rule.mlir).
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{policy=depth}' | filecheck %s

// matvec -> bias -> matvec: one matvec with A2 @ A1 and A2 @ b1 + b2.
func.func @matvec_chain(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a1 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %a2 = arith.constant dense<[[1.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %b1 = arith.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %m1 = linalg.matvec ins(%a1, %x : tensor<2x2xf32>, tensor<2xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  %s = arith.addf %m1, %b1 : tensor<2xf32>
  %m2 = linalg.matvec ins(%a2, %s : tensor<2x2xf32>, tensor<2xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  return %m2 : tensor<2xf32>
}
// CHECK-LABEL: func.func @matvec_chain(
// CHECK-NEXT: %[[A:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [4.000000e+00, 6.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matvec ins(%[[A]], %x : tensor<2x2xf32>, tensor<2xf32>) outs(%[[B]] : tensor<2xf32>)
// CHECK-NEXT: return %[[R]]

// -----

// sum-pool after a strided, dilated conv: one conv (stride 2*2, composed 5x5 filter).
func.func @pool_after_dilated_conv(%x: tensor<1x1x14x14xf32>) -> tensor<1x1x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<1x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x1x6x6xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x1x3x3xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<3> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x1x14x14xf32>, tensor<1x1x2x2xf32>) outs(%z1 : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x1x6x6xf32>, tensor<2x2xf32>) outs(%z2 : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %p : tensor<1x1x3x3xf32>
}
// CHECK-LABEL: func.func @pool_after_dilated_conv(
// CHECK-NOT: linalg.{{pooling|conv}}
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x1x14x14xf32>, tensor<1x1x6x6xf32>) outs(%[[INIT]]
// CHECK-NEXT: return %[[R]]

// -----

// tensor_ext.fused_conv_pool followed by a conv: one conv.
func.func @fused_conv_pool_then_conv(%x: tensor<1x1x10x10xf32>) -> tensor<1x1x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %w2 = arith.constant dense<2.0> : tensor<1x1x2x2xf32>
  %ci = arith.constant dense<1.0> : tensor<1x1x8x8xf32>
  %pi = arith.constant dense<0.0> : tensor<1x1x4x4xf32>
  %z = arith.constant dense<0.0> : tensor<1x1x3x3xf32>
  %f = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>, divisor = 4.0 : f64} ins(%x, %w, %ci : tensor<1x1x10x10xf32>, tensor<1x1x3x3xf32>, tensor<1x1x8x8xf32>) outs(%pi : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%f, %w2 : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) outs(%z : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %c : tensor<1x1x3x3xf32>
}
// CHECK-LABEL: func.func @fused_conv_pool_then_conv(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<1x1x6x6xf32>
// CHECK-NEXT: %[[INIT:.*]] = arith.constant dense<8.000000e+00> : tensor<1x1x3x3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %[[W]] : tensor<1x1x10x10xf32>, tensor<1x1x6x6xf32>) outs(%[[INIT]]
// CHECK-NEXT: return %[[R]]

// -----

// Uneven padding between two convs with non-square, dilated filters (stride != dilation)
// on odd sizes: the chain is one 126 x 80 matrix. The pad's low and high sides differ on
// both spatial axes, so mixing them up changes the result.
func.func @uneven_pad_between_convs(%x: tensor<1x2x9x7xf32>) -> tensor<1x2x8x5xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0, 0.5], [0.25, 1.5, -1.0]], [[-0.5, 1.0, 2.0], [1.0, 0.0, -1.5]]], [[[0.5, 0.5, -1.0], [2.0, -0.25, 1.0]], [[1.0, -1.0, 0.75], [-2.0, 0.5, 0.0]]]]> : tensor<2x2x2x3xf32>
  %z1 = arith.constant dense<0.25> : tensor<1x2x8x3xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x9x7xf32>, tensor<2x2x2x3xf32>) outs(%z1 : tensor<1x2x8x3xf32>) -> tensor<1x2x8x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %c1 low[0, 0, 1, 0] high[0, 0, 0, 3] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x3xf32> to tensor<1x2x9x6xf32>
  %w2 = arith.constant dense<[[[[1.0], [2.0]], [[-1.0], [0.5]]], [[[0.5], [-1.5]], [[2.0], [1.0]]]]> : tensor<2x2x2x1xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x2x8x5xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%p, %w2 : tensor<1x2x9x6xf32>, tensor<2x2x2x1xf32>) outs(%z2 : tensor<1x2x8x5xf32>) -> tensor<1x2x8x5xf32>
  return %c2 : tensor<1x2x8x5xf32>
}
// CHECK-LABEL: func.func @uneven_pad_between_convs(
// CHECK-NEXT:  %[[F:.*]] = tensor.collapse_shape %x {{.*}} : tensor<1x2x9x7xf32> into tensor<1x126xf32>
// CHECK-NOT:   {{tensor.pad|linalg.conv}}
// CHECK:       %[[INIT:.*]] = linalg.broadcast
// CHECK-NEXT:  %[[M:.*]] = linalg.matmul ins(%[[F]], %{{.*}} : tensor<1x126xf32>, tensor<126x80xf32>) outs(%[[INIT]]
// CHECK-NEXT:  %[[R:.*]] = tensor.expand_shape %[[M]] {{.*}} into tensor<1x2x8x5xf32>
// CHECK-NEXT:  return %[[R]]

// -----

// A stride-2, dilation-3 conv with a 3x2 filter and a 2x3 sum pool of stride (1, 2) on a
// 13x12 input (odd, non-square): one conv with the composed filter.
func.func @asymmetric_conv_pool_chain(%x: tensor<2x1x13x12xf32>) -> tensor<2x2x2x1xf32> {
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0], [-0.25, 1.0]]], [[[0.0, 1.5], [1.0, -2.0], [0.75, 0.5]]]]> : tensor<2x1x3x2xf32>
  %z = arith.constant dense<0.5> : tensor<2x2x4x5xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<3> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x1x13x12xf32>, tensor<2x1x3x2xf32>) outs(%z : tensor<2x2x4x5xf32>) -> tensor<2x2x4x5xf32>
  %win = tensor.empty() : tensor<2x3xf32>
  %pz = arith.constant dense<0.0> : tensor<2x2x3x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<[1, 2]> : vector<2xi64>} ins(%c, %win : tensor<2x2x4x5xf32>, tensor<2x3xf32>) outs(%pz : tensor<2x2x3x2xf32>) -> tensor<2x2x3x2xf32>
  %w2 = arith.constant dense<[[[[1.0, -1.0], [2.0, 0.5]], [[0.5, 1.0], [-1.0, 1.0]]], [[[0.25, 0.0], [1.0, -0.5]], [[2.0, 1.0], [0.0, -1.0]]]]> : tensor<2x2x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<2x2x2x1xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%p, %w2 : tensor<2x2x3x2xf32>, tensor<2x2x2x2xf32>) outs(%z2 : tensor<2x2x2x1xf32>) -> tensor<2x2x2x1xf32>
  return %c2 : tensor<2x2x2x1xf32>
}
// Rows: 3 taps dilated 3 (span 7), then 2 pool taps a conv stride (2) apart: span 9, and
// the second conv's 2 taps two pool rows apart, 2 more: 11. Columns likewise: 12.
// CHECK-LABEL: func.func @asymmetric_conv_pool_chain(
// CHECK-NOT:   linalg.{{pooling|conv}}
// CHECK:       %[[INIT:.*]] = linalg.broadcast
// CHECK-NEXT:  %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 4]> : vector<2xi64>} ins(%x, %{{.*}} : tensor<2x1x13x12xf32>, tensor<2x1x11x12xf32>) outs(%[[INIT]]
// CHECK-NEXT:  return %[[R]]

// -----

// A per-channel bias (x + b) between two convs: one conv, the bias folded into its init.
func.func @add_between(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]], [[[2.0, 1.0], [-1.0, 0.5]]]]> : tensor<2x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x2x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%z1 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s = arith.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %c1 : tensor<2xf32>, tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) {
  ^bb0(%k: f32, %in: f32, %o: f32):
    %q = arith.addf %in, %k : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]], [[[1.0, 1.0], [1.0, 1.0]], [[-0.5, 0.5], [0.5, -0.5]]]]> : tensor<2x2x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%d, %w2 : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @add_between(
// CHECK-NOT: linalg.generic
// CHECK: linalg.broadcast
// CHECK-NEXT: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>)
// CHECK-NEXT: return %[[C]]

// -----

// A per-channel x - b between two convs: one conv (a negated bias in its init).
func.func @sub_between(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]], [[[2.0, 1.0], [-1.0, 0.5]]]]> : tensor<2x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x2x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%z1 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s = arith.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %c1 : tensor<2xf32>, tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) {
  ^bb0(%k: f32, %in: f32, %o: f32):
    %q = arith.subf %in, %k : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]], [[[1.0, 1.0], [1.0, 1.0]], [[-0.5, 0.5], [0.5, -0.5]]]]> : tensor<2x2x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%d, %w2 : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @sub_between(
// CHECK-NOT: linalg.generic
// CHECK: linalg.broadcast
// CHECK-NEXT: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>)
// CHECK-NEXT: return %[[C]]

// -----

// A per-channel b - x between two convs (the activation on the right): one conv with a negated filter.
func.func @const_minus_between(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]], [[[2.0, 1.0], [-1.0, 0.5]]]]> : tensor<2x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x2x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%z1 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s = arith.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %c1 : tensor<2xf32>, tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) {
  ^bb0(%k: f32, %in: f32, %o: f32):
    %q = arith.subf %k, %in : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]], [[[1.0, 1.0], [1.0, 1.0]], [[-0.5, 0.5], [0.5, -0.5]]]]> : tensor<2x2x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%d, %w2 : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @const_minus_between(
// CHECK-NOT: linalg.generic
// CHECK: linalg.broadcast
// CHECK-NEXT: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>)
// CHECK-NEXT: return %[[C]]
