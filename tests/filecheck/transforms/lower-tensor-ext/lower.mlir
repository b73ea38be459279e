// lower-tensor-ext: every fused_conv_pool becomes ONE linalg.conv_2d_nchw_fchw with the
// composed, strided filter; heir-opt and iree-opt re-parse the result.
// RUN: heirpy-opt %s --split-input-file -p lower-tensor-ext | filecheck %s
// RUN: heirpy-opt %s -p lower-tensor-ext | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p lower-tensor-ext | iree-opt | filecheck %s --check-prefix=MLIR

// Constant weights and a broadcast per-channel bias: the filter folds to a constant,
// the bias pooled over 2x2 and divided by 4 is the bias again, as a broadcast.
func.func @constant_weights(%x: tensor<2x1x4x4xf32>) -> tensor<2x2x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<2x1x2x2xf32>
  %b = arith.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %e0 = tensor.empty() : tensor<2x2x3x3xf32>
  %ci = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e0 : tensor<2x2x3x3xf32>) dimensions = [0, 2, 3]
  %e1 = tensor.empty() : tensor<2x2x1x1xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>, divisor = 4.0 : f64} ins(%x, %w, %ci : tensor<2x1x4x4xf32>, tensor<2x1x2x2xf32>, tensor<2x2x3x3xf32>) outs(%pi : tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
  return %r : tensor<2x2x1x1xf32>
}
// CHECK-LABEL: func.func @constant_weights
// CHECK-NEXT: %[[G:.*]] = arith.constant dense<{{\[\[\[\[}}2.500000e-01, 7.500000e-01, 5.000000e-01], [1.000000e+00, 2.500000e+00, 1.500000e+00], [7.500000e-01, 1.750000e+00, 1.000000e+00]]], {{\[\[\[}}2.500000e-01, 2.500000e-01, 0.000000e+00], [2.500000e-01, 5.000000e-01, 2.500000e-01], [0.000000e+00, 2.500000e-01, 2.500000e-01]]]]> : tensor<2x1x3x3xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: tensor.empty() : tensor<2x2x1x1xf32>
// CHECK-NEXT: %[[K:.*]] = linalg.broadcast ins(%[[B]]
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %[[G]] : tensor<2x1x4x4xf32>, tensor<2x1x3x3xf32>) outs(%[[K]] : tensor<2x2x1x1xf32>)
// CHECK-NEXT: return %[[R]]
// MLIR-LABEL: func.func @constant_weights
// MLIR-NOT:   linalg.conv_2d_nchw_fchw
// MLIR:       linalg.broadcast
// MLIR-NEXT:  linalg.conv_2d_nchw_fchw
// MLIR-NEXT:  return

// -----

// Weights and inits are function arguments: the composed filter is computed by
// standard ops (strided insert_slice into zeros, a dilated sum pool, a divide), the
// constant term by a sum pool of the conv init into the pool init (and the divide).
func.func @argument_weights(%x: tensor<2x2x9x9xf32>, %w: tensor<3x2x2x2xf32>, %ci: tensor<2x3x4x4xf32>, %pi: tensor<2x3x2x1xf32>) -> tensor<2x3x2x1xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 2, 2>, conv_dilations = array<i64: 1, 2>, pool_window = array<i64: 2, 3>, pool_strides = array<i64: 1, 2>, pool_dilations = array<i64: 2, 1>, divisor = 6.0 : f64} ins(%x, %w, %ci : tensor<2x2x9x9xf32>, tensor<3x2x2x2xf32>, tensor<2x3x4x4xf32>) outs(%pi : tensor<2x3x2x1xf32>) -> tensor<2x3x2x1xf32>
  return %r : tensor<2x3x2x1xf32>
}
// CHECK-LABEL: func.func @argument_weights
// CHECK-NOT:  tensor_ext
// CHECK:      %[[Z:.*]] = linalg.fill {{.*}} -> tensor<3x2x10x11xf32>
// CHECK-NEXT: %[[P:.*]] = tensor.insert_slice %w into %[[Z]][0, 0, 4, 4] [3, 2, 2, 2] [1, 1, 1, 2] : tensor<3x2x2x2xf32> into tensor<3x2x10x11xf32>
// CHECK:      %[[S:.*]] = linalg.pooling_nchw_sum {dilations = dense<[4, 2]> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[P]], %{{.*}} : tensor<3x2x10x11xf32>, tensor<2x3xf32>) outs(%{{.*}} : tensor<3x2x6x7xf32>)
// CHECK:      %[[G:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<3x2x6x7xf32>)
// CHECK:      arith.divf
// CHECK:      %[[T:.*]] = linalg.pooling_nchw_sum {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%ci, %{{.*}} : tensor<2x3x4x4xf32>, tensor<2x3xf32>) outs(%pi : tensor<2x3x2x1xf32>)
// CHECK:      %[[K:.*]] = linalg.generic {{.*}} ins(%[[T]] : tensor<2x3x2x1xf32>)
// CHECK:      arith.divf
// CHECK-NOT:  tensor_ext
// CHECK:      %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 4]> : vector<2xi64>} ins(%x, %[[G]] : tensor<2x2x9x9xf32>, tensor<3x2x6x7xf32>) outs(%[[K]] : tensor<2x3x2x1xf32>)
// CHECK-NEXT: return %[[R]]
// MLIR-LABEL: func.func @argument_weights
// MLIR-NOT:   linalg.conv_2d_nchw_fchw
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.conv_2d_nchw_fchw
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.conv_2d_nchw_fchw
// MLIR:       } -> tensor<2x3x2x1xf32>
// MLIR-NEXT:  linalg.conv_2d_nchw_fchw
// MLIR-NEXT:  return

// -----

// A sum pool with a zero conv init and an argument pool init: the pool init is the
// constant term as it is.
func.func @sum_zero_init(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x2x2xf32>, %pi: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %ci : tensor<1x1x5x5xf32>, tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>) outs(%pi : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %r : tensor<1x1x2x2xf32>
}
// CHECK-LABEL: func.func @sum_zero_init
// CHECK-NOT:  tensor_ext
// CHECK:      %[[F:.*]] = linalg.pooling_nchw_sum
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %[[F]] : tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) outs(%pi : tensor<1x1x2x2xf32>)
// CHECK-NEXT: return %[[R]]
// MLIR-LABEL: func.func @sum_zero_init
// MLIR-NOT:   linalg.conv_2d_nchw_fchw
// MLIR:       linalg.pooling_nchw_sum
// MLIR-NEXT:  linalg.conv_2d_nchw_fchw
// MLIR-NEXT:  return
