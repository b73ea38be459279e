// legalize-for-heir gives a conv left to HEIR's conv kernel an even zero pad: HEIR folds
// only a pad that is the same on all four sides, and lays any other out in slots at about
// a level per bit of the slot count (a 4x4 conv padded 1 before and 2 after compiles at
// 14 levels for a depth of 3 in 2048 slots, padded 1 and 1 at 3). The filter gets zero
// taps where the pad grew, so every output reads the same values. slot-count=16 keeps
// the convs convs (no dense matrix fits 16 slots).
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16}' | filecheck %s

// A 4x4 filter padded 1 before and 2 after (a "same" pad): pad 2 on all sides, a zero first row and column.
func.func @one_before_two_after(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.25,  0.79,  0.55, -0.55],   [-0.4 ,  0.75, -0.99,  0.64],   [ 0.59, -0.06, -0.39, -0.44],   [-0.49, -0.11,  0.01,  0.11]],  [[ 0.99,  0.59,  0.24,  0.98],   [-0.57, -0.68,  0.23, -0.91],   [-0.93,  0.03, -0.07,  0.83],   [ 0.26,  0.03, -0.01, -0.5 ]]], [[[-0.98, -0.62,  0.38, -0.6 ],   [-0.26, -0.99,  0.66, -0.69],   [-0.46,  0.76,  0.02,  0.69],   [ 0.28,  0.48, -0.82,  0.08]],  [[ 0.02,  0.74, -0.28,  0.2 ],   [-0.88, -0.22, -0.35, -0.7 ],   [ 0.63, -0.24,  0.96,  0.18],   [ 0.21,  0.28,  0.35, -0.7 ]]]]> : tensor<2x2x4x4xf32>
  %b = arith.constant dense<[[[[-0.12, -0.52, -0.2 , -0.81,  0.94, -0.57],   [ 0.34, -0.4 ,  0.75,  0.32, -0.74,  0.69],   [ 0.89,  0.81,  0.14, -0.71, -0.62,  0.86],   [ 0.1 , -0.64,  0.77,  0.28,  0.14, -0.25],   [-0.18, -0.52, -0.92,  0.75, -0.06,  0.1 ],   [-0.36,  0.5 , -0.95, -0.26, -0.94, -0.75]],  [[ 0.93,  0.32, -0.14,  0.05,  0.75, -0.31],   [ 0.18,  0.37, -0.29,  0.04,  0.53,  0.82],   [-0.7 ,  0.87, -0.99,  0.51,  0.62, -0.73],   [-0.16,  0.63, -0.97,  0.26,  0.59,  0.03],   [ 0.45, -0.55, -0.6 , -0.27, -0.64, -0.31],   [ 0.9 ,  0.15, -0.32, -0.46,  0.9 , -0.11]]]]> : tensor<1x2x6x6xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x9x9xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x9x9xf32>, tensor<2x2x4x4xf32>) outs(%b : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %c : tensor<1x2x6x6xf32>
}
// CHECK-LABEL: func.func @one_before_two_after
// (the new filter goes first, where MLIR's folder puts constants: constant_insertion_point)
// CHECK-NEXT:  %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, {{.*}} : tensor<2x2x5x5xf32>
// CHECK:       %[[P:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %[[W]] : tensor<1x2x10x10xf32>, tensor<2x2x5x5xf32>) outs(%{{.*}} : tensor<1x2x6x6xf32>)

// -----

// Padded more before: the zero taps go at the end.
func.func @two_before_one_after(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.96,  0.03,  0.04,  0.79],   [ 0.49,  0.16, -0.15,  0.76],   [-0.18,  0.85, -0.86, -0.14],   [ 0.04,  0.9 , -0.5 ,  0.61]],  [[ 0.35,  0.43,  0.26,  0.94],   [-0.33, -0.2 , -0.59, -0.9 ],   [-0.57,  0.83,  0.68, -0.78],   [ 0.21, -0.04,  0.19,  0.32]]], [[[-0.39,  0.92, -0.07,  0.26],   [ 0.27, -0.63, -0.88, -0.18],   [ 0.53,  0.63,  0.46, -0.77],   [ 0.83,  0.6 ,  0.76,  0.05]],  [[ 0.83, -0.91, -0.94, -0.96],   [-0.49, -0.5 , -0.62,  0.13],   [-0.92,  0.18, -0.67,  0.36],   [-0.96, -0.38,  0.88,  0.08]]]]> : tensor<2x2x4x4xf32>
  %b = arith.constant dense<[[[[ 0.62,  0.32,  0.22, -0.62,  0.15, -0.92],   [ 0.6 ,  0.92,  0.71, -0.9 , -0.32, -0.36],   [-0.77,  0.25,  0.59, -0.37,  0.73,  0.59],   [-0.74,  0.53,  0.77, -0.61,  0.15,  0.28],   [ 0.22, -0.81,  0.32,  0.26,  0.65,  0.61],   [-0.35,  0.44,  0.73,  0.79, -0.68, -0.95]],  [[ 0.3 , -0.57,  0.13,  0.89, -0.24, -0.49],   [-0.09,  0.31, -0.8 , -0.24, -0.73,  0.32],   [ 0.66, -0.25, -0.26,  0.08, -0.57, -0.51],   [-0.34, -0.09, -0.84,  0.51,  0.16, -0.4 ],   [-0.84,  0.53, -0.74, -0.73, -0.74, -0.84],   [ 0.81, -0.46, -0.39,  0.67,  0.24, -0.63]]]]> : tensor<1x2x6x6xf32>
  %p = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x9x9xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x9x9xf32>, tensor<2x2x4x4xf32>) outs(%b : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %c : tensor<1x2x6x6xf32>
}
// CHECK-LABEL: func.func @two_before_one_after
// CHECK:       %[[P:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x10x10xf32>, tensor<2x2x5x5xf32>) outs(%{{.*}} : tensor<1x2x6x6xf32>)

// -----

// H padded 1 and 1, W 0 and 2: both dims get the widest pad, 2; H gains a zero tap at each end, W two at the start.
func.func @per_dim(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.13,  0.77, -0.25],   [ 0.42, -0.81,  0.45],   [ 0.55,  0.65,  0.35]],  [[-0.26, -0.87,  0.04],   [ 0.51, -0.62, -0.47],   [ 0.07,  0.5 ,  0.79]]], [[[-0.75, -0.63,  0.6 ],   [ 0.29,  0.44,  0.99],   [ 0.88,  0.69,  0.55]],  [[-0.21,  0.28, -0.63],   [ 0.52,  0.52,  0.44],   [-0.11, -0.24, -0.16]]]]> : tensor<2x2x3x3xf32>
  %b = arith.constant dense<[[[[-0.93,  0.69,  0.08, -0.22,  0.1 ,  0.44],   [-0.24,  0.66,  0.84, -0.23, -0.72,  0.52],   [ 0.99, -0.7 ,  0.43,  0.65,  0.84, -0.75],   [-0.82,  0.98, -0.77, -0.65,  0.15, -0.11],   [ 0.5 , -0.62,  0.83, -0.57,  0.54, -0.86],   [-0.05, -0.93, -0.37, -0.38,  0.44, -0.09]],  [[-0.89,  0.99,  0.78,  0.83, -0.51, -0.21],   [-0.55, -0.75, -0.93,  0.01, -0.75, -0.65],   [ 0.72, -0.03, -0.63,  0.34, -0.47,  0.05],   [-0.43,  0.03,  0.26,  0.07, -0.21,  0.58],   [ 0.75, -0.64, -0.73, -0.77,  0.96,  0.88],   [-0.54,  0.94, -0.58,  0.01, -0.01,  0.83]]]]> : tensor<1x2x6x6xf32>
  %p = tensor.pad %x low[0, 0, 1, 0] high[0, 0, 1, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) outs(%b : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %c : tensor<1x2x6x6xf32>
}
// CHECK-LABEL: func.func @per_dim
// CHECK:       %[[P:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x10x10xf32>, tensor<2x2x5x5xf32>) outs(%{{.*}} : tensor<1x2x6x6xf32>)

// -----

// Dilation 2, pad 2 before and 4 after: one zero tap (two rows) at the start.
func.func @dilated(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.92, -0.37,  0.2 ],   [-0.87, -0.53, -0.07],   [ 0.76,  0.52,  0.66]],  [[ 0.52,  0.42,  0.7 ],   [ 0.36,  0.47, -0.4 ],   [-0.66,  0.51, -0.67]]], [[[ 0.84,  0.19, -0.34],   [ 0.87, -0.69,  0.03],   [-0.82,  0.93,  0.15]],  [[ 0.61, -0.44,  0.6 ],   [ 0.41,  0.29,  0.9 ],   [-0.13, -0.17,  0.38]]]]> : tensor<2x2x3x3xf32>
  %b = arith.constant dense<[[[[ 0.67, -0.33,  0.34, -0.58,  0.1 ,  0.54, -0.87,  0.46],   [-0.97,  0.92, -0.06, -0.18,  0.44,  0.05,  0.46, -0.83],   [ 0.13,  0.12,  0.86, -0.92, -0.09,  0.26,  0.1 , -0.85],   [ 0.19, -0.56, -0.61,  0.76, -0.6 , -0.09,  0.5 ,  0.41],   [ 0.11,  0.61, -0.07,  0.24,  0.64,  0.36,  0.28, -0.19],   [ 0.12, -0.21,  0.49, -0.24, -0.07,  0.51,  0.01, -0.32],   [ 0.65, -0.24,  0.69,  0.57, -0.11,  0.43, -0.93, -0.22],   [ 0.72,  0.16,  0.12,  0.33,  0.36,  0.17, -0.16, -0.63]],  [[-0.41, -0.41, -0.14,  1.  , -0.29, -0.11, -0.26,  0.16],   [ 0.9 ,  0.78, -0.25, -0.47,  0.77, -0.01,  0.37, -0.85],   [ 0.73, -0.37, -0.01, -0.6 , -0.16,  0.66,  0.66, -0.05],   [ 0.54, -0.08, -0.25,  0.09, -0.6 , -0.37,  0.41,  0.54],   [-0.89,  0.47,  0.63, -0.11, -0.88,  0.37, -0.51,  0.29],   [-0.25,  0.27, -0.48, -0.05,  0.05,  0.26, -0.59,  0.92],   [-0.42, -0.39, -0.49, -0.87, -0.15,  0.54,  0.42, -0.61],   [-0.73, -0.36,  0.54, -0.02,  0.85,  0.31,  0.24,  0.54]]]]> : tensor<1x2x8x8xf32>
  %p = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 4, 4] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x12x12xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 2]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x12x12xf32>, tensor<2x2x3x3xf32>) outs(%b : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  return %c : tensor<1x2x8x8xf32>
}
// CHECK-LABEL: func.func @dilated
// CHECK:       %[[P:.*]] = tensor.pad %x low[0, 0, 4, 4] high[0, 0, 4, 4]
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x14x14xf32>, tensor<2x2x4x4xf32>) outs(%{{.*}} : tensor<1x2x8x8xf32>)

// -----

// Dilation 2, pad 1 before and 2 after: a tap moves two rows, so no taps make it even; left as it is.
func.func @dilation_does_not_divide(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x5x5xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.5 , -0.31, -0.49],   [-0.12, -0.02, -0.72],   [-0.12,  0.28, -0.73]],  [[-0.72, -0.65, -0.43],   [ 0.92, -0.95, -0.63],   [-0.67, -0.05, -0.97]]], [[[-0.08, -0.67, -0.46],   [ 0.58, -0.63,  0.23],   [-0.19, -0.16,  0.63]],  [[-0.68,  0.85,  0.79],   [ 0.34, -0.9 ,  0.33],   [ 0.2 ,  0.54, -0.57]]]]> : tensor<2x2x3x3xf32>
  %b = arith.constant dense<[[[[ 0.91,  0.77, -0.77, -0.37, -0.94],   [ 0.66,  0.83,  0.98,  0.22,  0.33],   [ 0.36,  0.14,  0.9 ,  0.22, -0.33],   [ 0.03, -0.96,  0.45,  0.39, -0.16],   [ 0.7 ,  0.51, -0.33, -0.85, -0.74]],  [[-0.63, -0.39, -0.1 ,  0.86, -0.44],   [ 0.8 ,  0.36,  0.71, -0.19, -0.99],   [ 0.57, -0.51, -0.72,  0.6 ,  0.37],   [-0.58, -0.46,  0.88, -0.46,  0.4 ],   [-0.74,  0.63, -0.76,  0.03, -0.93]]]]> : tensor<1x2x5x5xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x9x9xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 2]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x9x9xf32>, tensor<2x2x3x3xf32>) outs(%b : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %c : tensor<1x2x5x5xf32>
}
// CHECK-LABEL: func.func @dilation_does_not_divide
// CHECK:       tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} tensor<1x2x9x9xf32>, tensor<2x2x3x3xf32>)

// -----

// A pad of ones: HEIR folds only zero pads, so an even one would cost the same; left as it is.
func.func @nonzero_pad(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %z = arith.constant 1.0 : f32
  %w = arith.constant dense<[[[[ 0.1 ,  0.69, -0.83, -0.45],   [ 0.53,  0.22, -0.37,  0.26],   [-0.09,  0.72, -0.41,  0.52],   [ 0.27,  0.48, -0.24,  0.45]],  [[ 0.4 , -0.23, -0.95,  0.93],   [ 0.43, -0.59,  0.46, -0.44],   [-0.06,  0.72, -0.1 , -0.42],   [-0.39, -0.85, -0.56, -0.46]]], [[[-0.65, -0.87, -0.07, -0.57],   [ 0.48,  0.85, -0.45,  0.14],   [ 0.01, -0.85, -0.75,  0.77],   [-0.05,  0.61, -0.87,  0.19]],  [[ 0.73,  0.73, -0.99,  0.04],   [-0.26,  0.52, -0.85, -0.47],   [ 0.63, -0.06, -0.09,  0.94],   [-0.36, -0.92, -0.22, -0.69]]]]> : tensor<2x2x4x4xf32>
  %b = arith.constant dense<[[[[-0.84,  0.14,  0.91,  0.16,  0.29, -0.35],   [ 0.14,  0.5 ,  0.18,  0.61,  0.1 , -0.6 ],   [ 0.17, -0.02, -0.67,  0.24,  0.63, -0.73],   [ 0.09,  0.47, -0.19, -0.46, -0.26,  0.08],   [ 0.37,  0.12, -0.79,  0.64,  0.85, -0.8 ],   [-0.5 , -0.65,  0.7 ,  0.82, -0.91, -0.34]],  [[-0.62, -0.06,  0.84, -0.86, -0.66, -0.03],   [ 0.05,  0.49, -0.12, -0.72, -0.29,  0.96],   [ 0.5 , -0.77,  0.62, -0.38,  0.56, -0.97],   [ 0.74, -0.68, -0.09,  0.32,  0.02, -0.67],   [-0.72, -0.43, -0.9 , -0.57, -0.74, -0.07],   [-0.29,  0.17, -0.44, -0.93, -0.34,  0.51]]]]> : tensor<1x2x6x6xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x9x9xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x9x9xf32>, tensor<2x2x4x4xf32>) outs(%b : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %c : tensor<1x2x6x6xf32>
}
// CHECK-LABEL: func.func @nonzero_pad
// CHECK:       tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} tensor<1x2x9x9xf32>, tensor<2x2x4x4xf32>)

// -----

// The filter is an argument: no constant to add taps to.
func.func @secret_filter(%x: tensor<1x2x6x6xf32>, %w: tensor<2x2x4x4xf32>) -> tensor<1x2x6x6xf32> {
  %z = arith.constant 0.0 : f32
  %b = arith.constant dense<[[[[-0.49, -0.19,  0.51, -0.19,  0.77,  0.84],   [-0.38,  0.47, -0.49, -0.72, -0.12,  0.2 ],   [ 0.87, -0.71,  0.42, -0.05, -0.74,  0.95],   [ 0.39, -0.74,  0.81, -0.79, -0.81, -0.34],   [ 0.88, -0.93,  0.84,  0.22, -0.87,  0.14],   [-0.08,  0.13,  0.47,  0.36,  0.99, -0.69]],  [[ 0.63, -0.18,  0.57,  0.78,  0.98, -0.47],   [-0.09,  0.89,  0.89, -0.25,  0.88, -0.19],   [-0.25,  0.51, -0.06, -0.1 , -0.23, -0.13],   [-0.72, -0.88,  0.51,  0.13,  0.34,  0.6 ],   [-0.54, -0.53, -0.44, -0.39,  0.52, -0.25],   [-0.35,  0.27, -0.63, -0.79,  0.39,  0.51]]]]> : tensor<1x2x6x6xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x9x9xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x9x9xf32>, tensor<2x2x4x4xf32>) outs(%b : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %c : tensor<1x2x6x6xf32>
}
// CHECK-LABEL: func.func @secret_filter
// CHECK:       tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %w : tensor<1x2x9x9xf32>, tensor<2x2x4x4xf32>)

// -----

// A 2x2 filter padded 3 before: the even pad (3) would be as wide as the 3x3 filter it needs, which crashes heir-opt (heir_forms.heir_fails_on); left as it is.
func.func @pad_wider_than_filter(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x10x10xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.41,  0.27],   [-0.93, -0.19]],  [[ 0.16, -0.49],   [-0.3 ,  0.22]]], [[[ 0.18, -0.69],   [ 0.41, -0.84]],  [[ 0.94, -0.6 ],   [-0.49, -0.6 ]]]]> : tensor<2x2x2x2xf32>
  %b = arith.constant dense<[[[[ 0.98, -0.43,  0.21,  0.98,  0.9 , -0.92,  0.04,  0.2 ,  0.4 , -0.33],   [-0.34, -0.99, -0.93,  0.1 , -0.85, -0.6 , -0.33, -0.86, -0.94,  0.85],   [-0.13, -0.59,  0.42, -0.98, -0.51,  0.92,  0.8 ,  0.27, -0.81, -0.36],   [-0.94, -0.56, -0.95, -0.75,  0.27, -0.8 , -0.69,  0.81, -0.33, -0.33],   [-0.83,  0.59,  0.35,  0.09,  0.24, -0.8 , -0.48,  0.17,  0.9 ,  0.63],   [ 0.28,  0.04, -0.97,  0.78, -0.87, -0.74,  0.39,  0.62,  0.57, -0.1 ],   [-0.65, -0.93,  0.7 ,  0.96, -0.51,  0.73, -0.19, -0.38,  0.01, -0.98],   [-0.11, -0.6 ,  0.42,  0.01,  0.74,  0.79, -0.37, -0.44,  0.88,  0.01],   [-0.81, -0.91,  0.98,  0.16, -0.89,  0.02,  0.01, -0.13,  0.9 ,  0.9 ],   [-0.75, -0.7 , -0.19,  0.67,  0.25,  0.46,  0.15, -0.58,  0.64, -0.97]],  [[ 0.4 , -0.61, -0.06,  0.95,  0.08, -0.89, -0.14,  0.32, -0.89, -0.49],   [-0.96,  0.08, -0.24,  0.01, -0.41,  0.31, -0.65,  0.81,  0.92, -0.01],   [-0.07,  0.72, -0.42,  0.61, -0.43,  0.44, -0.33,  0.21,  0.85, -0.89],   [ 0.61,  0.08, -0.24, -0.3 , -0.86, -0.48,  0.25, -0.8 ,  0.34,  0.92],   [ 0.96,  0.78,  0.61, -0.64,  0.94, -0.59,  0.74,  0.76,  0.24,  0.04],   [-0.6 ,  0.04, -0.42, -0.75, -0.74,  0.6 ,  0.84, -0.72, -0.97, -0.47],   [-0.73, -0.62,  0.17, -0.16, -0.14, -0.59,  0.33, -0.42, -0.2 , -0.07],   [ 0.81, -0.51,  0.44, -0.38,  0.79, -0.21,  0.01,  0.75,  0.35, -0.81],   [-0.73,  0.98, -0.94, -0.4 ,  0.92, -0.97, -0.68, -0.57, -0.83, -0.06],   [ 0.18, -0.36, -0.78,  0.62,  0.61,  0.12, -0.72,  0.08,  0.26, -0.14]]]]> : tensor<1x2x10x10xf32>
  %p = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x11x11xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x11x11xf32>, tensor<2x2x2x2xf32>) outs(%b : tensor<1x2x10x10xf32>) -> tensor<1x2x10x10xf32>
  return %c : tensor<1x2x10x10xf32>
}
// CHECK-LABEL: func.func @pad_wider_than_filter
// CHECK:       tensor.pad %x low[0, 0, 3, 3] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} tensor<1x2x11x11xf32>, tensor<2x2x2x2xf32>)

// -----

// The pad is also returned: that reader keeps the old pad, the conv reads a new one.
func.func @pad_read_twice(%x: tensor<1x2x6x6xf32>) -> (tensor<1x2x6x6xf32>, tensor<1x2x9x9xf32>) {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.73, -0.22,  0.02, -0.77],   [ 0.13,  0.53,  0.46, -0.49],   [ 0.98,  0.44, -0.15, -0.17],   [ 0.56, -0.65,  0.28,  0.44]],  [[ 0.03,  0.75, -0.06, -0.07],   [-0.43,  0.84, -0.37,  0.39],   [-0.18,  0.87,  0.9 , -0.94],   [ 0.99,  0.21, -0.85, -0.01]]], [[[-0.9 ,  0.1 , -0.63, -0.26],   [-0.39,  0.2 ,  0.64,  0.87],   [-0.34,  0.14, -0.99, -0.26],   [ 0.92, -0.76,  0.74,  0.31]],  [[-0.41,  0.56, -0.42,  0.79],   [-0.83, -0.76,  0.5 , -0.1 ],   [-0.71,  0.03, -0.41,  0.1 ],   [ 0.49,  0.71, -0.88,  0.18]]]]> : tensor<2x2x4x4xf32>
  %b = arith.constant dense<[[[[ 0.97, -0.08,  0.54, -0.81,  0.75,  0.16],   [ 0.78,  0.57,  0.74, -0.89,  0.43, -0.61],   [-0.47, -0.35,  0.18,  0.26,  0.86, -0.97],   [-0.61, -0.28,  0.64,  0.1 ,  0.02,  0.52],   [ 0.31, -0.42, -0.83, -0.08,  0.76,  0.2 ],   [-0.89, -0.12, -0.23,  0.16,  0.17,  0.9 ]],  [[-0.32, -0.18,  0.23,  0.77,  0.41, -0.06],   [ 0.63, -0.03,  0.93, -0.44, -0.75,  0.66],   [-0.41,  0.69,  0.22,  0.02, -0.83,  0.57],   [-0.87,  0.93,  0.75, -0.39, -0.74,  0.77],   [-0.04, -0.75, -0.  , -0.51, -0.18,  0.28],   [ 0.83,  0.6 , -0.68, -0.05, -0.02,  0.98]]]]> : tensor<1x2x6x6xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x9x9xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x9x9xf32>, tensor<2x2x4x4xf32>) outs(%b : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %c, %p : tensor<1x2x6x6xf32>, tensor<1x2x9x9xf32>
}

// CHECK-LABEL: func.func @pad_read_twice
// CHECK:       %[[OLD:.*]] = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK:       %[[NEW:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[NEW]], %{{.*}} : tensor<1x2x10x10xf32>, tensor<2x2x5x5xf32>)
// CHECK:       return %[[C]], %[[OLD]]

// -----

// A 4x4 "same" conv, x², matvec: the net test_heir_ckks.py compiles with heir-opt (3 levels,
// its bound, after this pass; 13 as it is here).
func.func @same_pad(%x: tensor<1x4x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x11x11xf32>
  %w0 = arith.constant dense<0.125> : tensor<8x4x4x4xf32>
  %bv = arith.constant dense<0.1> : tensor<8xf32>
  %be = tensor.empty() : tensor<1x8x8x8xf32>
  %b0 = linalg.broadcast ins(%bv : tensor<8xf32>) outs(%be : tensor<1x8x8x8xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p0, %w0 : tensor<1x4x11x11xf32>, tensor<8x4x4x4xf32>) outs(%b0 : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %e0 = tensor.empty() : tensor<1x8x8x8xf32>
  %s0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x8x8x8xf32>) outs(%e0 : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x8x8x8xf32>
  %f = tensor.collapse_shape %s0 [[0, 1, 2, 3]] : tensor<1x8x8x8xf32> into tensor<512xf32>
  %m = arith.constant dense<0.5> : tensor<3x512xf32>
  %mb = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x512xf32>, tensor<512xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func @same_pad
// CHECK:       %[[P:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x4x12x12xf32>, tensor<8x4x5x5xf32>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
// CHECK:       linalg.matvec

// -----

// Dilation 2, pad 2 before and 1 after (the limit: the after side's growth, 1, is no
// multiple of 2): pad 2 on every side and no tap added; the last row of the pad is
// read by no tap (the conv's input is one longer than its window needs, which linalg
// allows). HEIR compiles this at 3 levels, the bound, as it was at 13 (test_heir_ckks.py).
func.func @dilated_high_remainder(%x: tensor<1x2x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x11x11xf32>
  %w0 = arith.constant dense<[[[[ 0.70, -0.48,  0.63],   [-0.70, -0.45,  0.50],   [ 0.59, -0.53,  0.56]],  [[-0.51, -0.80,  0.44],   [-0.42,  0.84,  0.43],   [ 0.49,  0.15, -0.84]]], [[[-0.14,  0.75, -0.14],   [ 0.47, -0.23, -0.49],   [ 0.46,  0.22, -0.25]],  [[-0.67, -0.22,  0.74],   [ 0.96, -0.82,  0.55],   [-0.76,  0.01, -0.18]]]]> : tensor<2x2x3x3xf32>
  %bv = arith.constant dense<[0.1, -0.2]> : tensor<2xf32>
  %be = tensor.empty() : tensor<1x2x7x7xf32>
  %b0 = linalg.broadcast ins(%bv : tensor<2xf32>) outs(%be : tensor<1x2x7x7xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x11x11xf32>, tensor<2x2x3x3xf32>) outs(%b0 : tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  %e0 = tensor.empty() : tensor<1x2x7x7xf32>
  %s0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x2x7x7xf32>) outs(%e0 : tensor<1x2x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x2x7x7xf32>
  %f = tensor.collapse_shape %s0 [[0, 1, 2, 3]] : tensor<1x2x7x7xf32> into tensor<98xf32>
  %m = arith.constant dense<[[-0.56,  0.13, -0.88,  0.67, -0.78,  0.33, -0.94, -0.12, -0.26,  0.49, -0.49,  0.67, -0.42,  0.58,  0.31,  0.42, -0.72,  0.78,  0.85, -0.19, -0.70, -0.76, -0.99, -0.85,  0.31, -0.00,  0.98, -0.32, -0.67, -0.17, -0.17,  0.60, -0.49,  0.49,  0.30,  0.06, -0.85, -0.04, -0.04,  0.25, -0.46, -0.84,  0.74, -0.50,  0.66,  0.96, -0.59, -0.53, -0.56, -0.45, -0.13,  0.49,  0.16,  0.82,  0.47, -0.15, -0.63, -0.86, -0.94, -0.66, -0.89, -0.79,  0.21,  0.81,  0.50, -0.86,  0.51,  0.58, -0.33, -0.59,  0.13,  0.51, -0.46,  0.99,  0.29,  0.36,  0.69, -0.44, -0.16,  0.90, -0.39,  0.36, -0.05, -0.10, -0.66,  0.53,  0.82,  0.19,  0.54,  0.79,  0.07,  0.07,  0.07, -0.77,  0.80,  0.94,  0.97, -0.54], [-0.47,  0.88, -0.87, -0.38, -0.64, -0.48, -0.31, -0.46,  0.34, -0.46,  0.30, -0.13, -0.52,  0.26,  0.23,  0.00, -0.65,  0.69, -0.65, -0.36,  0.80,  0.26, -0.34, -0.10, -0.87,  0.41,  0.16, -0.46, -0.53,  0.27, -0.08,  0.09, -1.00,  0.53, -0.55, -0.70,  0.05, -0.79,  0.22, -0.83, -0.33, -0.96,  0.49,  0.78,  0.96, -0.28, -0.82, -0.20, -0.17, -0.44, -0.03, -0.73,  0.69,  0.48, -0.53,  0.82,  0.18,  0.13,  0.74, -0.56,  0.49, -0.76, -0.51,  0.49,  0.46, -0.63,  0.06, -0.19, -0.30, -0.43,  0.57,  0.58,  0.89,  0.93, -0.99, -0.51,  0.05,  0.85,  0.19, -0.83,  0.37, -0.38, -0.88, -0.76,  0.94,  0.42, -0.50, -0.31, -0.90,  0.24,  0.45,  0.16,  0.82,  0.86, -0.72, -0.11,  0.31,  0.81], [-0.17, -0.12,  0.10, -0.57,  0.20, -0.53, -0.33,  0.65,  0.74, -0.83, -0.66,  0.10, -0.65, -0.91, -0.21,  0.78, -0.67,  0.54,  0.53,  0.11, -0.03, -0.98,  0.95, -0.21,  0.88,  0.65,  0.66, -0.50,  0.66, -0.19,  0.28, -0.13,  0.34,  0.61, -0.96,  0.41,  0.80, -0.25, -0.86,  0.98, -0.36, -0.80,  0.03, -0.15, -0.33,  0.43, -0.67, -0.34, -0.99,  0.49, -0.86,  0.46, -0.39, -0.17,  0.17,  0.14, -0.97, -0.87,  0.82,  0.80,  0.86,  0.60,  0.03,  0.67,  0.35,  0.09,  0.30,  0.56,  0.19, -0.52,  0.07, -0.19, -0.03,  0.78, -0.51,  0.82,  0.58, -0.99,  0.68,  0.34,  0.42, -0.76, -0.95, -0.27, -0.52,  0.95,  0.17, -0.41,  0.42, -0.32,  0.12,  0.19, -0.28, -0.51,  0.10, -0.87, -0.28, -0.74]]> : tensor<3x98xf32>
  %mb = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x98xf32>, tensor<98xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @dilated_high_remainder
// CHECK:       %[[P:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x12x12xf32>, tensor<2x2x3x3xf32>) outs(%{{.*}} : tensor<1x2x7x7xf32>)

// -----

// Dilations [2, 1]; H padded 2 before and 1 after, W 1 before and 2 after: both get 2;
// H no tap (its after side's remainder is left unread), W a zero tap at the start.
func.func @dilated_per_dim(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x7x9xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.12, -0.16, -0.47],   [ 0.59,  0.33, -0.20],   [ 0.86, -0.72, -0.92]],  [[ 0.37, -0.77, -0.57],   [ 0.87,  0.56,  0.37],   [-0.03, -0.78,  0.34]]], [[[ 0.76,  0.91, -0.00],   [ 0.92,  0.90, -0.31],   [ 0.44,  0.18, -0.07]],  [[ 0.31, -0.17,  0.32],   [ 0.58,  0.28, -0.19],   [ 0.45, -0.62, -0.58]]]]> : tensor<2x2x3x3xf32>
  %b = arith.constant dense<0.25> : tensor<1x2x7x9xf32>
  %p = tensor.pad %x low[0, 0, 2, 1] high[0, 0, 1, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x11x11xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x11x11xf32>, tensor<2x2x3x3xf32>) outs(%b : tensor<1x2x7x9xf32>) -> tensor<1x2x7x9xf32>
  return %c : tensor<1x2x7x9xf32>
}
// CHECK-LABEL: func.func @dilated_per_dim
// CHECK:       %[[P:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : vector<2xi64>, {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x12x12xf32>, tensor<2x2x3x4xf32>) outs(%{{.*}} : tensor<1x2x7x9xf32>)

// -----

// Dilations [1, 2]; W padded 1 before and 2 after: its before side's growth, 1, is no
// multiple of 2 (the taps would read the data shifted by a row): left as it is.
func.func @dilated_low_remainder(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x8x7xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.43, -0.17,  0.14],   [-0.96,  0.65,  0.43],   [ 0.12,  0.98,  0.28]],  [[-0.63, -0.39, -0.41],   [-0.86, -0.20,  0.85],   [-0.90,  0.84, -0.74]]], [[[ 0.98,  0.33, -0.54],   [ 0.27, -0.46,  0.63],   [-0.16, -0.66, -0.54]],  [[-0.45,  0.35,  0.97],   [-0.88,  0.15, -0.52],   [ 0.70, -0.21,  0.86]]]]> : tensor<2x2x3x3xf32>
  %b = arith.constant dense<0.25> : tensor<1x2x8x7xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x11xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x10x11xf32>, tensor<2x2x3x3xf32>) outs(%b : tensor<1x2x8x7xf32>) -> tensor<1x2x8x7xf32>
  return %c : tensor<1x2x8x7xf32>
}
// CHECK-LABEL: func.func @dilated_low_remainder
// CHECK:       tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} tensor<1x2x10x11xf32>, tensor<2x2x3x3xf32>)
