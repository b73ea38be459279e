// heir-prepare on a depthwise conv as torch-mlir writes it in a .half() model: f16 input
// and filter accumulating into an f32 init (found by running the unroll-depthwise-conv
// half-precision cases through every pipeline, tests/dtype_clean.py). legalize-for-heir
// returns the result through a conv on HEIR's grid and expands the flat input to
// 1 x C x 1 x 1: that expand and its zero pad keep the input's element type (f16; heirpy
// once gave them the result's f32, which the verifier rejects: "expected collapsed type
// to be 'tensor<32xf32>', but got 'tensor<32xf16>'"); the conv reads f16 and accumulates
// in f32 as the depthwise conv did. The same with bf16 storage.
// widen-half=false: these pin legalize-for-heir's half-precision types, which heir-prepare's
// last step (heir-widen-half, half_precision_widen.mlir) then computes in f32.
// RUN: heirpy-opt %s --split-input-file -p 'heir-prepare{widen-half=false}' | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'heir-prepare{widen-half=false}' | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

func.func @depthwise_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]]> : tensor<2x2x2xf16>
  %b = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %init = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x2xf16>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @depthwise_f16(
// CHECK:       %[[F:.*]] = tensor.collapse_shape %x {{.*}} into tensor<32xf16>
// CHECK:       %[[E:.*]] = tensor.expand_shape %[[F]] {{.*}} : tensor<32xf16> into tensor<1x32x1x1xf16>
// CHECK:       %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK:       %[[P:.*]] = tensor.pad %[[E]]
// CHECK:       tensor.yield %[[Z]] : f16
// CHECK:       } : tensor<1x32x1x1xf16> to tensor<1x32x5x5xf16>
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x32x5x5xf16>, tensor<2x32x3x3xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// MLIR-LABEL:  func.func @depthwise_f16(
// MLIR:        tensor.expand_shape {{.*}} : tensor<32xf16> into tensor<1x32x1x1xf16>

// -----

func.func @depthwise_bf16(%x: tensor<1x2x4x4xbf16>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]]> : tensor<2x2x2xbf16>
  %b = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %init = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xbf16>, tensor<2x2x2xbf16>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @depthwise_bf16(
// CHECK:       tensor.expand_shape {{.*}} : tensor<32xbf16> into tensor<1x32x1x1xbf16>
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x32x5x5xbf16>, tensor<2x32x3x3xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// MLIR-LABEL:  func.func @depthwise_bf16(
// MLIR:        tensor.expand_shape {{.*}} : tensor<32xbf16> into tensor<1x32x1x1xbf16>
