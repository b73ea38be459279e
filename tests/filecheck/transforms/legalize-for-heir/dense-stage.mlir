// DenseStageToMatvec: a conv or sum pool (with its zero pad) on a secret input becomes
// one matvec with the stage's dense matrix; it stays when it does not fit the slots or
// its filter is not a constant.
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=64}' | filecheck %s

// A 2x2 sum pool, stride 2, on 1x1x4x4: each output row sums four inputs.
func.func @pool(%x: tensor<1x1x4x4xf32>) -> tensor<4xf32> {
  %win = tensor.empty() : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x1x2x2xf32>
  %y = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %win : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %f = tensor.collapse_shape %y [[0, 1, 2, 3]] : tensor<1x1x2x2xf32> into tensor<4xf32>
  return %f : tensor<4xf32>
}
// CHECK-LABEL: func.func @pool
// CHECK-NEXT: %[[XF:.*]] = tensor.collapse_shape %x {{\[}}[0, 1, 2, 3]] : tensor<1x1x4x4xf32> into tensor<16xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00,
// CHECK-NEXT: %[[V:.*]] = linalg.matvec ins(%[[A]], %[[XF]] : tensor<4x16xf32>, tensor<16xf32>) outs(%[[Z]] : tensor<4xf32>)
// CHECK-NEXT: return %[[V]] : tensor<4xf32>

// -----

// The zero pad folds into the matrix: the matvec reads the 4x4 input, not the 6x6.
func.func @padded_conv(%x: tensor<1x1x4x4xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x4x4xf32> to tensor<1x1x6x6xf32>
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %b = arith.constant dense<0.5> : tensor<1x1x4x4xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%b : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<1x1x4x4xf32>) outs(%e : tensor<1x1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x1x4x4xf32>
  %f = tensor.collapse_shape %s [[0, 1, 2, 3]] : tensor<1x1x4x4xf32> into tensor<16xf32>
  %w2 = arith.constant dense<0.25> : tensor<2x16xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %r = linalg.matvec ins(%w2, %f : tensor<2x16xf32>, tensor<16xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @padded_conv
// CHECK-NEXT: %[[XF:.*]] = tensor.collapse_shape %x {{.*}} : tensor<1x1x4x4xf32> into tensor<16xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<5.000000e-01> : tensor<16xf32>
// CHECK-NEXT: %[[A:.*]] = arith.constant dense<"0x0000803F0000803F00000000{{.*}}"> : tensor<16x16xf32>
// CHECK-NEXT: %[[H:.*]] = linalg.matvec ins(%[[A]], %[[XF]] : tensor<16x16xf32>, tensor<16xf32>) outs(%[[B]] : tensor<16xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<16xf32>
// CHECK-NEXT: %[[S:.*]] = linalg.generic {{.*}} ins(%[[H]] : tensor<16xf32>) outs(%[[E]] : tensor<16xf32>)
// CHECK:      } -> tensor<16xf32>
// CHECK-NEXT: %[[W2:.*]] = arith.constant dense<2.500000e-01> : tensor<2x16xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matvec ins(%[[W2]], %[[S]] : tensor<2x16xf32>, tensor<16xf32>) outs(%[[Z]] : tensor<2xf32>)
// CHECK-NEXT: return %[[R]]

// -----

// A batch of 2: one block-diagonal matrix, each sample's rows read its own inputs.
func.func @batch(%x: tensor<2x1x2x2xf32>) -> tensor<2x1x1x1xf32> {
  %win = tensor.empty() : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<2x1x1x1xf32>
  %y = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %win : tensor<2x1x2x2xf32>, tensor<2x2xf32>) outs(%z : tensor<2x1x1x1xf32>) -> tensor<2x1x1x1xf32>
  return %y : tensor<2x1x1x1xf32>
}
// CHECK-LABEL: func.func @batch
// CHECK:      arith.constant dense<{{\[}}[1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<2x8xf32>
// CHECK:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<8xf32>)

// -----

// Negative: 1x1x9x9 = 81 inputs do not fit 64 slots; the conv stays.
func.func @too_big(%x: tensor<1x1x9x9xf32>) -> tensor<1x1x8x8xf32> {
  %w = arith.constant dense<1.0> : tensor<1x1x2x2xf32>
  %b = arith.constant dense<0.0> : tensor<1x1x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x9x9xf32>, tensor<1x1x2x2xf32>) outs(%b : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  %e = tensor.empty() : tensor<1x1x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<1x1x8x8xf32>) outs(%e : tensor<1x1x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x1x8x8xf32>
  return %s : tensor<1x1x8x8xf32>
}
// CHECK-LABEL: func.func @too_big
// CHECK-NOT:  linalg.matvec
// CHECK:      %[[Y:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%x, %{{.*}} : tensor<1x1x9x9xf32>, tensor<1x1x2x2xf32>)
// CHECK-NOT:  linalg.matvec
// CHECK:      return

// -----

// Negative: the filter is an argument (a ciphertext in HEIR), not a plaintext matrix.
func.func @secret_filter(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32> {
  %b = arith.constant dense<0.0> : tensor<1x1x1x1xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) outs(%b : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}
// CHECK-LABEL: func.func @secret_filter
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<0.000000e+00> : tensor<1x1x1x1xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%x, %w : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) outs(%[[B]]
// CHECK-NEXT: return %[[Y]]

// -----

// A depthwise conv (HEIR has no kernel for it): channel c reads only channel c, so the
// matrix rows of channel 0 are zero on channel 1's inputs.
func.func @depthwise(%x: tensor<1x2x2x2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, 2.0]]]> : tensor<2x2x2xf32>
  %b = arith.constant dense<1.0> : tensor<1x2x1x1xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x2xf32>, tensor<2x2x2xf32>) outs(%b : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %f = tensor.collapse_shape %y [[0, 1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<2xf32>
  return %f : tensor<2xf32>
}
// CHECK-LABEL: func.func @depthwise
// CHECK-NEXT: %[[XF:.*]] = tensor.collapse_shape %x {{.*}} : tensor<1x2x2x2xf32> into tensor<8xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[A:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+00, 5.000000e-01, 2.500000e-01, 2.000000e+00]]> : tensor<2x8xf32>
// CHECK-NEXT: %[[V:.*]] = linalg.matvec ins(%[[A]], %[[XF]] : tensor<2x8xf32>, tensor<8xf32>) outs(%[[B]] : tensor<2xf32>)
// CHECK-NEXT: return %[[V]]

// -----

// A pool whose output stops short of the input's last window (2x2 of the 3x3 windows a
// 7x7 input holds; MLIR allows it): the matrix reads the windows the output holds only.
func.func @cropped_pool(%x: tensor<1x1x7x7xf32>) -> tensor<4xf32> {
  %win = tensor.empty() : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x1x2x2xf32>
  %y = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %win : tensor<1x1x7x7xf32>, tensor<2x2xf32>) outs(%z : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %f = tensor.collapse_shape %y [[0, 1, 2, 3]] : tensor<1x1x2x2xf32> into tensor<4xf32>
  return %f : tensor<4xf32>
}
// CHECK-LABEL: func.func @cropped_pool
// CHECK-NOT:  linalg.pooling_nchw_sum
// CHECK:      %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0, 1, 2, 3]] : tensor<1x1x7x7xf32> into tensor<49xf32>
// CHECK:      %[[Y:.*]] = linalg.matvec ins(%{{.*}}, %[[X]] : tensor<4x49xf32>, tensor<49xf32>) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[Y]]
