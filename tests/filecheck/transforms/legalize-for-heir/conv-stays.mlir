// DenseStageToMatvec keeps a conv when the next linear stage after it (through x² and
// other elementwise ops) stays a conv: a dense matvec's flat result could reach that conv
// only through an expand_shape to several non-unit dims, which HEIR rejects (LeNet-5:
// conv1 fits 8192 slots as a matrix, the pool-fused conv2 after it does not).
// conv B is strided; strided-on-grid=false keeps it so (strided-grid.mlir has its grid form).
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=64 strided-on-grid=false}' | filecheck %s

// conv A (16 -> 32 elements) fits 64 slots, conv B (32 -> 80) does not: both stay.
func.func @consumer_stays(%x: tensor<1x1x4x4xf32>) -> tensor<2xf32> {
  %wa = arith.constant dense<0.5> : tensor<2x1x1x1xf32>
  %ba = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) outs(%ba : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x2x4x4xf32>
  %wb = arith.constant dense<0.25> : tensor<20x2x2x2xf32>
  %bb = arith.constant dense<0.0> : tensor<1x20x2x2xf32>
  %b = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%s, %wb : tensor<1x2x4x4xf32>, tensor<20x2x2x2xf32>) outs(%bb : tensor<1x20x2x2xf32>) -> tensor<1x20x2x2xf32>
  %f = tensor.collapse_shape %b [[0, 1, 2, 3]] : tensor<1x20x2x2xf32> into tensor<80xf32>
  %w = arith.constant dense<0.125> : tensor<2x80xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %r = linalg.matvec ins(%w, %f : tensor<2x80xf32>, tensor<80xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @consumer_stays
// CHECK-NOT:   linalg.matvec
// CHECK-NOT:   tensor.expand_shape
// CHECK:       %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>)
// CHECK:       %[[S:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<1x2x4x4xf32>)
// CHECK:       %[[B:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<20x2x2x2xf32>)
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<2x80xf32>, tensor<80xf32>)

// -----

// The same net with a conv B that fits (32 -> 8 elements): both become matvecs.
func.func @consumer_fits(%x: tensor<1x1x4x4xf32>) -> tensor<2xf32> {
  %wa = arith.constant dense<0.5> : tensor<2x1x1x1xf32>
  %ba = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) outs(%ba : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x2x4x4xf32>
  %wb = arith.constant dense<0.25> : tensor<2x2x2x2xf32>
  %bb = arith.constant dense<0.0> : tensor<1x2x2x2xf32>
  %b = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%s, %wb : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%bb : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %f = tensor.collapse_shape %b [[0, 1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<8xf32>
  %w = arith.constant dense<0.125> : tensor<2x8xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %r = linalg.matvec ins(%w, %f : tensor<2x8xf32>, tensor<8xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @consumer_fits
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<32x16xf32>, tensor<16xf32>)
// CHECK:       linalg.generic
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<2x32xf32>, tensor<32xf32>)
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       return

// -----

// conv A's square also feeds a second, elementwise, user: no single next stage to keep
// it for, so A becomes a matvec (B, too big, stays).
func.func @two_users(%x: tensor<1x1x4x4xf32>) -> (tensor<2xf32>, tensor<1x2x4x4xf32>) {
  %wa = arith.constant dense<0.5> : tensor<2x1x1x1xf32>
  %ba = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) outs(%ba : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x2x4x4xf32>
  %wb = arith.constant dense<0.25> : tensor<20x2x2x2xf32>
  %bb = arith.constant dense<0.0> : tensor<1x20x2x2xf32>
  %b = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%s, %wb : tensor<1x2x4x4xf32>, tensor<20x2x2x2xf32>) outs(%bb : tensor<1x20x2x2xf32>) -> tensor<1x20x2x2xf32>
  %f = tensor.collapse_shape %b [[0, 1, 2, 3]] : tensor<1x20x2x2xf32> into tensor<80xf32>
  %w = arith.constant dense<0.125> : tensor<2x80xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %r = linalg.matvec ins(%w, %f : tensor<2x80xf32>, tensor<80xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  return %r, %s : tensor<2xf32>, tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @two_users
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<32x16xf32>, tensor<16xf32>)
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} tensor<20x2x2x2xf32>
