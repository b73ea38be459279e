// The example of LowerTensorExtPass's docstring; the output re-parses in heir-opt and iree-opt.
// RUN: heirpy-opt %s -p lower-tensor-ext | filecheck %s
// RUN: heirpy-opt %s -p lower-tensor-ext | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p lower-tensor-ext | iree-opt | filecheck %s --check-prefix=MLIR

func.func @doc(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32> {
  %w = arith.constant dense<2.0> : tensor<1x1x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x1x6x6xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %e2 = tensor.empty() : tensor<1x1x3x3xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>, divisor = 4.0 : f64} ins(%x, %w, %ci : tensor<1x1x6x6xf32>, tensor<1x1x1x1xf32>, tensor<1x1x6x6xf32>) outs(%pi : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %r : tensor<1x1x3x3xf32>
}
// The whole body, line by line: nothing of tensor_ext (or anything else) is left.
// CHECK-LABEL: func.func @doc
// CHECK-NEXT: %[[G:.*]] = arith.constant dense<5.000000e-01> : tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x1x3x3xf32>
// CHECK-NEXT: %[[K:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %[[G]] : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%[[K]] : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
// CHECK-NEXT: return %[[R]]
// MLIR-LABEL: func.func @doc
// MLIR-NEXT: arith.constant dense<5.000000e-01> : tensor<1x1x2x2xf32>
// MLIR-NEXT: arith.constant 0.000000e+00 : f32
// MLIR-NEXT: tensor.empty() : tensor<1x1x3x3xf32>
// MLIR-NEXT: linalg.fill
// MLIR-NEXT: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>{{.*}} -> tensor<1x1x3x3xf32>
// MLIR-NEXT: return
