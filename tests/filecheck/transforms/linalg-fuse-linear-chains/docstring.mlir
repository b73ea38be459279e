// The example of LinalgFuseLinearChainsPass's docstring: conv(3x3) then conv(2x2), no
// padding between, become ONE conv with the composed 4x4 filter.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt | filecheck %s --check-prefix=HEIR

func.func @doc(%x: tensor<1x1x6x6xf32>) -> tensor<1x3x3x3xf32> {
  %w1 = arith.constant dense<1.0> : tensor<2x1x3x3xf32>
  %w2 = arith.constant dense<0.5> : tensor<3x2x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x2x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%z1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e2 = tensor.empty() : tensor<1x3x3x3xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %b = linalg.conv_2d_nchw_fchw ins(%a, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x2x2xf32>) outs(%z2 : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %b : tensor<1x3x3x3xf32>
}
// CHECK-LABEL: func.func @doc(
// CHECK-SAME: %[[X:.*]]: tensor<1x1x6x6xf32>
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 2.000000e+00, 1.000000e+00], [2.000000e+00, 4.000000e+00, 4.000000e+00, 2.000000e+00], [2.000000e+00, 4.000000e+00, 4.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00, 2.000000e+00, 1.000000e+00]]], {{.*}} : tensor<3x1x4x4xf32>
// CHECK-NEXT: arith.constant 0.000000e+00 : f32
// CHECK-NEXT: tensor.empty() : tensor<1x3x3x3xf32>
// CHECK-NEXT: %[[INIT:.*]] = linalg.fill
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[X]], %[[W]] : tensor<1x1x6x6xf32>, tensor<3x1x4x4xf32>) outs(%[[INIT]] : tensor<1x3x3x3xf32>)
// CHECK-NEXT: return %[[R]]
// HEIR-LABEL: func.func @doc(
// HEIR-NOT: linalg.conv_2d_nchw_fchw
// HEIR: linalg.fill
// HEIR-NEXT: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x3x3x3xf32>
// HEIR-NEXT: return
