// im2col-grouped-conv: which grouped convs keep their named op (one input channel per
// group, integer elements, a dynamic dimension), and the half-precision form (f16 patches,
// an f32 accumulator, the body widening as the named op does). Numerics:
// tests/unit/test_im2col_grouped_conv.py; iree-opt re-parses the output.
// RUN: heirpy-opt %s --split-input-file -p im2col-grouped-conv | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p im2col-grouped-conv | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// One channel per group (a depthwise conv in grouped form): the patches would cost more.
func.func @one_channel_per_group(%x: tensor<1x4x1x6x6xf32>, %w: tensor<4x2x1x3x3xf32>, %i: tensor<1x4x2x4x4xf32>) -> tensor<1x4x2x4x4xf32> {
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x1x6x6xf32>, tensor<4x2x1x3x3xf32>) outs(%i : tensor<1x4x2x4x4xf32>) -> tensor<1x4x2x4x4xf32>
  return %r : tensor<1x4x2x4x4xf32>
}
// CHECK-LABEL: func.func @one_channel_per_group
// CHECK-NEXT:  linalg.conv_2d_ngchw_gfchw
// CHECK-NEXT:  return
// MLIR-LABEL:  func.func @one_channel_per_group
// MLIR:        linalg.conv_2d_ngchw_gfchw

// -----

// Two channels per group, the limit: rewritten.
func.func @two_channels_per_group(%x: tensor<1x4x2x6x6xf32>, %w: tensor<4x2x2x3x3xf32>, %i: tensor<1x4x2x4x4xf32>) -> tensor<1x4x2x4x4xf32> {
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x2x6x6xf32>, tensor<4x2x2x3x3xf32>) outs(%i : tensor<1x4x2x4x4xf32>) -> tensor<1x4x2x4x4xf32>
  return %r : tensor<1x4x2x4x4xf32>
}
// CHECK-LABEL: func.func @two_channels_per_group
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
// CHECK:       tensor.collapse_shape %{{.*}} : tensor<1x4x2x3x3x4x4xf32> into tensor<1x4x18x16xf32>
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%{{.*}}, %{{.*}} : tensor<4x2x18xf32>, tensor<1x4x18x16xf32>) outs(%{{.*}} : tensor<1x4x2x16xf32>)
// CHECK:       tensor.expand_shape
// CHECK-NEXT:  return
// MLIR-LABEL:  func.func @two_channels_per_group
// MLIR-NOT:    linalg.conv_2d_ngchw_gfchw
// MLIR:        return

// -----

// Integer elements: not a float contraction, left as it is.
func.func @integer(%x: tensor<1x2x4x6x6xi32>, %w: tensor<2x2x4x3x3xi32>, %i: tensor<1x2x2x4x4xi32>) -> tensor<1x2x2x4x4xi32> {
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x6x6xi32>, tensor<2x2x4x3x3xi32>) outs(%i : tensor<1x2x2x4x4xi32>) -> tensor<1x2x2x4x4xi32>
  return %r : tensor<1x2x2x4x4xi32>
}
// CHECK-LABEL: func.func @integer
// CHECK-NEXT:  linalg.conv_2d_ngchw_gfchw
// MLIR-LABEL:  func.func @integer
// MLIR:        linalg.conv_2d_ngchw_gfchw

// -----

// A dynamic batch: the patches need static sizes.
func.func @dynamic(%x: tensor<?x2x4x6x6xf32>, %w: tensor<2x2x4x3x3xf32>, %i: tensor<?x2x2x4x4xf32>) -> tensor<?x2x2x4x4xf32> {
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<?x2x4x6x6xf32>, tensor<2x2x4x3x3xf32>) outs(%i : tensor<?x2x2x4x4xf32>) -> tensor<?x2x2x4x4xf32>
  return %r : tensor<?x2x2x4x4xf32>
}
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT:  linalg.conv_2d_ngchw_gfchw
// MLIR-LABEL:  func.func @dynamic
// MLIR:        linalg.conv_2d_ngchw_gfchw

// -----

// torch-mlir's half conv: f16 input and filter, an f32 accumulator. The patches stay f16
// (half the bytes to copy); the contraction's body widens each operand before it multiplies.
func.func @half(%x: tensor<1x2x4x6x6xf16>, %w: tensor<2x2x4x3x3xf16>, %i: tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32> {
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x6x6xf16>, tensor<2x2x4x3x3xf16>) outs(%i : tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  return %r : tensor<1x2x2x2x2xf32>
}
// CHECK-LABEL: func.func @half
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%x : tensor<1x2x4x6x6xf16>) outs(%{{.*}} : tensor<1x2x4x3x3x2x2xf16>)
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%{{.*}}, %{{.*}} : tensor<2x2x36xf16>, tensor<1x2x36x4xf16>) outs(%{{.*}} : tensor<1x2x2x4xf32>)
// CHECK-NEXT:  ^bb0(%[[W:.*]]: f16, %[[X:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[WE:.*]] = arith.extf %[[W]] : f16 to f32
// CHECK-NEXT:    %[[XE:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[WE]], %[[XE]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// CHECK:       tensor.expand_shape {{.*}} into tensor<1x2x2x2x2xf32>
// CHECK-NEXT:  return
// MLIR-LABEL:  func.func @half
// MLIR-NOT:    linalg.conv_2d_ngchw_gfchw
// MLIR:        return
