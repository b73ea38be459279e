// The example of LinalgFuseLinearOpsPass's docstring: a conv, then a bias and a
// per-channel scale as torch-mlir emits them, become one conv.
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | filecheck %s

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @doc(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>
  %bias = arith.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %scale = arith.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x1x2x2xf32>) outs(%z : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %b = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %bias : tensor<1x2x3x3xf32>, tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<1x2x3x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %scale : tensor<1x2x3x3xf32>, tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.mulf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// The whole body, line by line: no bias or scale generic is left.
// CHECK-LABEL: func.func @doc(
// CHECK-SAME: %[[X:.*]]: tensor<1x1x4x4xf32>
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00, 4.000000e+00], [6.000000e+00, 8.000000e+00]]], {{\[\[\[}}2.500000e+00, 3.000000e+00], [3.500000e+00, 4.000000e+00]]]]> : tensor<2x1x2x2xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[2.000000e+00, -5.000000e-01]> : tensor<2xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT: %[[INIT:.*]] = linalg.broadcast ins(%[[B]]{{.*}}) outs(%[[E]]{{.*}}) dimensions = [0, 2, 3]
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[INIT]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT: return %[[R]]
