// The pass docstring's example: a conv whose init is a broadcast bias starts from zero,
// and one generic adds the bias vector after it; iree-opt re-parses the output, and it
// computes what the conv did (to one rounding: the bias is added last, not first).
// RUN: heirpy-opt %s -p detach-conv-init | filecheck %s
// RUN: heirpy-opt %s -p detach-conv-init | iree-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p detach-conv-init -o %t && heirpy-equiv %s %t | filecheck %s --check-prefix=EQUIV

func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]], [[[0.5, 0.5], [-0.5, 1.0]], [[2.0, -1.0], [0.0, 1.5]]]]> : tensor<2x2x2x2xf32>
  %bias = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %bias_broadcast = linalg.broadcast ins(%bias : tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%bias_broadcast : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @main
// CHECK-NOT:   linalg.broadcast
// CHECK:       %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32)
// CHECK-NEXT:  %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[FILL]] : tensor<1x2x3x3xf32>)
// CHECK:       %[[R:.*]] = linalg.generic {{.*}} ins(%[[C]], %bias : tensor<1x2x3x3xf32>, tensor<2xf32>)
// CHECK:         arith.addf
// CHECK:       return %[[R]]
// MLIR:        linalg.conv_2d_nchw_fchw
// MLIR:        linalg.generic
// EQUIV:       equivalent
