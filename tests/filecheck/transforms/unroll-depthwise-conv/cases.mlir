// unroll-depthwise-conv: which depthwise convs become a sum of slices, and which keep
// their named op (strided, over 7x7, integer, dynamic shapes). Numerics:
// tests/unit/test_unroll_depthwise_conv.py; heir-opt and iree-opt re-parse the output.
// RUN: heirpy-opt %s --split-input-file -p unroll-depthwise-conv | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p unroll-depthwise-conv | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// Dilation 2, batch 2, MobileNet's broadcast bias as the init: the taps sit 2 apart.
func.func @dilated(%x: tensor<2x3x7x7xf32>) -> tensor<2x3x3x3xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3x3xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<2x3x3x3xf32>
  %init = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<2x3x3x3xf32>) dimensions = [0, 2, 3]
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x7x7xf32>, tensor<3x3x3xf32>) outs(%init : tensor<2x3x3x3xf32>) -> tensor<2x3x3x3xf32>
  return %r : tensor<2x3x3x3xf32>
}
// CHECK-LABEL: func.func @dilated
// CHECK:       %[[INIT:.*]] = linalg.broadcast
// CHECK-NEXT:  tensor.extract_slice %x[0, 0, 0, 0] [2, 3, 3, 3] [1, 1, 1, 1]
// CHECK-NEXT:  tensor.extract_slice %x[0, 0, 0, 2] [2, 3, 3, 3] [1, 1, 1, 1]
// CHECK-NEXT:  tensor.extract_slice %x[0, 0, 0, 4] [2, 3, 3, 3] [1, 1, 1, 1]
// CHECK-NEXT:  tensor.extract_slice %x[0, 0, 2, 0] [2, 3, 3, 3] [1, 1, 1, 1]
// CHECK-COUNT-4: tensor.extract_slice %x
// CHECK-NEXT:  tensor.extract_slice %x[0, 0, 4, 4] [2, 3, 3, 3] [1, 1, 1, 1]
// CHECK-COUNT-9: arith.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK:       %[[R:.*]] = linalg.generic
// CHECK-SAME:  %[[INIT]] : {{.*}}) outs(
// CHECK-COUNT-9: arith.mulf
// CHECK:       linalg.yield
// CHECK-NOT:   linalg.depthwise_conv_2d_nchw_chw
// CHECK:       return %[[R]]
// MLIR-LABEL: func.func @dilated
// MLIR-NOT:   linalg.depthwise_conv_2d_nchw_chw
// MLIR:       linalg.generic

// -----

// A filter known only at run time: each tap's weights are a rank-reducing slice of it.
func.func @runtime_filter(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x2xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x5x5xf32>, tensor<4x2x2xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
// CHECK-LABEL: func.func @runtime_filter
// CHECK-COUNT-4: tensor.extract_slice %x
// CHECK-NEXT:  tensor.extract_slice %w[0, 0, 0] [4, 1, 1] [1, 1, 1] : tensor<4x2x2xf32> to tensor<4xf32>
// CHECK-NEXT:  tensor.extract_slice %w[0, 0, 1] [4, 1, 1] [1, 1, 1] : tensor<4x2x2xf32> to tensor<4xf32>
// CHECK-NEXT:  tensor.extract_slice %w[0, 1, 0] [4, 1, 1] [1, 1, 1] : tensor<4x2x2xf32> to tensor<4xf32>
// CHECK-NEXT:  tensor.extract_slice %w[0, 1, 1] [4, 1, 1] [1, 1, 1] : tensor<4x2x2xf32> to tensor<4xf32>
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.depthwise_conv_2d_nchw_chw
// CHECK:       return
// MLIR-LABEL: func.func @runtime_filter
// MLIR:       linalg.generic

// -----

// Must not fire: stride 2 (a strided slice is no faster for IREE; measured 1.5x slower).
func.func @strided(%x: tensor<1x4x9x9xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<1.0> : tensor<4x3x3xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
// CHECK-LABEL: func.func @strided
// CHECK-NOT:   tensor.extract_slice
// CHECK:       linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
// MLIR-LABEL: func.func @strided(
// MLIR:       linalg.depthwise_conv_2d_nchw_chw

// -----

// Must not fire: a 7x8 window (56 taps, over MAX_TAPS = 49; not measured).
func.func @wide_window(%x: tensor<1x4x10x11xf32>, %w: tensor<4x7x8xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x10x11xf32>, tensor<4x7x8xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
// CHECK-LABEL: func.func @wide_window
// CHECK-NOT:   tensor.extract_slice
// CHECK:       linalg.depthwise_conv_2d_nchw_chw
// MLIR-LABEL: func.func @wide_window(
// MLIR:       linalg.depthwise_conv_2d_nchw_chw

// -----

// Must not fire: integer elements (the sum is written with arith.mulf / addf).
func.func @integer(%x: tensor<1x2x4x4xi32>, %w: tensor<2x3x3xi32>, %init: tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xi32>, tensor<2x3x3xi32>) outs(%init : tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  return %r : tensor<1x2x2x2xi32>
}
// CHECK-LABEL: func.func @integer
// CHECK-NOT:   tensor.extract_slice
// CHECK:       linalg.depthwise_conv_2d_nchw_chw
// MLIR-LABEL: func.func @integer(
// MLIR:       linalg.depthwise_conv_2d_nchw_chw

// -----

// Must not fire: a dynamic batch (the slices' sizes are not known).
func.func @dynamic(%x: tensor<?x2x4x4xf32>, %w: tensor<2x3x3xf32>, %init: tensor<?x2x2x2xf32>) -> tensor<?x2x2x2xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<?x2x4x4xf32>, tensor<2x3x3xf32>) outs(%init : tensor<?x2x2x2xf32>) -> tensor<?x2x2x2xf32>
  return %r : tensor<?x2x2x2xf32>
}
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT:   tensor.extract_slice
// CHECK:       linalg.depthwise_conv_2d_nchw_chw
// MLIR-LABEL: func.func @dynamic(
// MLIR:       linalg.depthwise_conv_2d_nchw_chw
