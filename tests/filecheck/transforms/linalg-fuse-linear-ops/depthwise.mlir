// Batch-norm after a depthwise conv (MobileNet): the per-channel scale multiplies the
// channel's filter K[c], the shift goes into the init.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-ops | filecheck %s --check-prefix=UMBRELLA

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @dw_bn(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  %mean = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[0.25]], [[-0.25]]]> : tensor<2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2xf32>) outs(%z : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %mean : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %v = arith.subf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  %m = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %inv : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %v = arith.mulf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %beta : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %v = arith.addf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  return %a : tensor<1x2x3x3xf32>
}
// Filter rows scaled by [2, 0.5]; init (0 - mean) * inv + beta = [-1.75, 0.25].
// CHECK-LABEL: func.func @dw_bn(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{\[\[\[}}2.000000e+00, 4.000000e+00], [6.000000e+00, 8.000000e+00]], {{\[\[}}2.500000e+00, 3.000000e+00], [3.500000e+00, 4.000000e+00]]]> : tensor<2x2x2xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[-1.750000e+00, 2.500000e-01]> : tensor<2xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT: %[[I:.*]] = linalg.broadcast ins(%[[B]] : tensor<2xf32>) outs(%[[E]] : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
// CHECK-NEXT: %[[R:.*]] = linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2xf32>) outs(%[[I]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT: return %[[R]]
// The main fusion pass folds it too (its first group is this pass).
// UMBRELLA-LABEL: func.func @dw_bn(
// UMBRELLA-NOT: linalg.generic
// UMBRELLA: linalg.depthwise_conv_2d_nchw_chw
// UMBRELLA-NEXT: return

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// Must not fire: a scale that varies along a spatial axis is not a filter scale.
// UMBRELLA-LABEL: func.func @dw_spatial_scale(
func.func @dw_spatial_scale(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  %k = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2xf32>) outs(%z : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %m = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2, d3) -> (d3)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %k : tensor<1x2x3x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %v = arith.mulf %in, %kk : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  return %m : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @dw_spatial_scale(
// CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nchw_chw
// CHECK-NEXT: %[[M:.*]] = linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<1x2x3x3xf32>, tensor<3xf32>)
// CHECK: arith.mulf
// CHECK: return %[[M]]

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// Must not fire: the filter is a function argument (not a compile-time constant).
func.func @dw_argument_filter(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x2xf32>) -> tensor<1x2x3x3xf32> {
  %inv = arith.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2xf32>) outs(%z : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %m = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %inv : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %v = arith.mulf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  return %m : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @dw_argument_filter(
// CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%x, %w :
// CHECK-NEXT: %[[M:.*]] = linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>)
// CHECK: return %[[M]]
