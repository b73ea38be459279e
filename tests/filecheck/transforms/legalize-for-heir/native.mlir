// A function HEIR compiles as it is at the depth bound is left alone: unit-stride convs
// and x², or one conv of any stride, with a 4-D result (HEIR's convs keep their small
// filters; heir-opt compiles @unit_strides at 3 levels, @single_strided at 1). With a
// stride-2 conv before a second conv (HEIR's gap rule, its layout conversions) the net
// is legalized: matvec 18x36 with zero rows up to 32 (a power of two), x², and the last
// stage as a conv laid out as the result (ResultThroughConv; heir-opt: 3 levels, the
// bound).
// RUN: heirpy-opt %s --split-input-file -p legalize-for-heir | filecheck %s

func.func @unit_strides(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x2x2xf32> {
  %w1 = arith.constant dense<0.5> : tensor<2x1x3x3xf32>
  %b1 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%b1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x2x4x4xf32>
  %w2 = arith.constant dense<0.25> : tensor<2x2x3x3xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x2x2x2xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) outs(%b2 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %c2 : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @unit_strides
// CHECK-NOT:  linalg.matvec
// CHECK:      %[[C1:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>)
// CHECK-NOT:  linalg.matvec
// CHECK:      %[[C2:.*]] = linalg.conv_2d_nchw_fchw {{.*}} : tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>)
// CHECK-NEXT: return %[[C2]]

// -----

func.func @strided(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x2x2xf32> {
  %w1 = arith.constant dense<0.5> : tensor<2x1x2x2xf32>
  %b1 = arith.constant dense<0.0> : tensor<1x2x3x3xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%b1 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x2x3x3xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x2x3x3xf32>
  %w2 = arith.constant dense<0.25> : tensor<2x2x2x2xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x2x2x2xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) outs(%b2 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %c2 : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @strided
// CHECK-NOT:  linalg.conv_2d_nchw_fchw
// CHECK:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<32x36xf32>, tensor<36xf32>)
// CHECK:      arith.mulf
// CHECK:      tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2, 3]] output_shape [1, 32, 1, 1]
// CHECK:      tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:      %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} : tensor<1x32x3x3xf32>, tensor<2x32x2x2xf32>) outs(%{{.*}} : tensor<1x2x2x2xf32>)
// CHECK-NOT:  tensor.insert_slice
// CHECK:      return %[[C]]

// -----

// One strided conv (e.g. a conv fused with its pool) returning a 4-D result: HEIR runs
// the conv in one level, the flat form would need one more to return the pieces.
func.func @single_strided(%x: tensor<1x1x8x8xf32>) -> tensor<1x2x2x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x1x4x4xf32>
  %b = arith.constant dense<0.0> : tensor<1x2x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {strides = dense<4> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x8x8xf32>, tensor<2x1x4x4xf32>) outs(%b : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %c : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @single_strided
// CHECK-NOT:  linalg.matvec
// CHECK:      %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x1x8x8xf32>, tensor<2x1x4x4xf32>)
// CHECK-NEXT: return %[[C]]
