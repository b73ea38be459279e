// unroll-depthwise-conv at its bound: ConvNeXt's 7x7 window (49 taps, MAX_TAPS) unrolls;
// with max-taps=48 the same conv keeps its named op. Over the bound:
// cases.mlir's @wide_window; numerics: tests/unit/test_unroll_depthwise_conv.py.
// RUN: heirpy-opt %s -p unroll-depthwise-conv | filecheck %s
// RUN: heirpy-opt %s -p 'unroll-depthwise-conv{max-taps=48}' | filecheck %s --check-prefix=CAP
// RUN: heirpy-opt %s -p unroll-depthwise-conv | iree-opt | filecheck %s --check-prefix=MLIR

func.func @convnext_window(%x: tensor<1x2x10x10xf32>, %w: tensor<2x7x7xf32>, %init: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x10x10xf32>, tensor<2x7x7xf32>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @convnext_window
// CHECK:       %{{.*}} = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1]
// CHECK:       %{{.*}} = tensor.extract_slice %{{.*}}[0, 0, 6, 6] [1, 2, 4, 4] [1, 1, 1, 1]
// CHECK-NOT:   linalg.depthwise_conv_2d_nchw_chw
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.depthwise_conv_2d_nchw_chw
// CHECK:       return
// CAP-LABEL:   func.func @convnext_window
// CAP-NOT:     tensor.extract_slice
// CAP:         linalg.depthwise_conv_2d_nchw_chw
// MLIR-LABEL:  func.func @convnext_window(
// MLIR:        linalg.generic
