// The example of Im2colGroupedConvPass's docstring: a stride-2 grouped conv (2 groups of
// 4 channels) becomes a patches copy and one contraction batched over n and g.
// RUN: heirpy-opt %s -p im2col-grouped-conv | filecheck %s
// RUN: heirpy-opt %s -p im2col-grouped-conv | iree-opt | filecheck %s --check-prefix=MLIR

func.func @main(%x: tensor<1x2x4x6x6xf32>, %w: tensor<2x4x4x3x3xf32>) -> tensor<1x2x4x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x2x2xf32>) -> tensor<1x2x4x2x2xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x6x6xf32>, tensor<2x4x4x3x3xf32>) outs(%z : tensor<1x2x4x2x2xf32>) -> tensor<1x2x4x2x2xf32>
  return %r : tensor<1x2x4x2x2xf32>
}
// CHECK-DAG:   #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d5 * 2 + d3, d6 * 2 + d4)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>
// CHECK-DAG:   #[[P:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-LABEL: func.func @main
// CHECK-NOT:   linalg.conv_2d_ngchw_gfchw
// CHECK:       %[[Z:.*]] = linalg.fill
// CHECK:       %[[PATCHES:.*]] = linalg.generic {indexing_maps = [#[[WINDOW]], {{.*}}]{{.*}} ins(%x : tensor<1x2x4x6x6xf32>) outs(%{{.*}} : tensor<1x2x4x3x3x2x2xf32>)
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    linalg.yield %[[IN]] : f32
// CHECK:       %[[PC:.*]] = tensor.collapse_shape %[[PATCHES]] {{\[}}[0], [1], [2, 3, 4], [5, 6]] : tensor<1x2x4x3x3x2x2xf32> into tensor<1x2x36x4xf32>
// CHECK-NEXT:  %[[WC:.*]] = tensor.collapse_shape %w {{\[}}[0], [1], [2, 3, 4]] : tensor<2x4x4x3x3xf32> into tensor<2x4x36xf32>
// CHECK-NEXT:  %[[ZC:.*]] = tensor.collapse_shape %[[Z]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x2x4x2x2xf32> into tensor<1x2x4x4xf32>
// CHECK-NEXT:  %[[M:.*]] = linalg.generic {indexing_maps = [#[[W]], #[[P]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[WC]], %[[PC]] : tensor<2x4x36xf32>, tensor<1x2x36x4xf32>) outs(%[[ZC]] : tensor<1x2x4x4xf32>)
// CHECK:         arith.mulf
// CHECK-NEXT:    arith.addf
// CHECK:       %[[R:.*]] = tensor.expand_shape %[[M]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 2, 4, 2, 2] : tensor<1x2x4x4xf32> into tensor<1x2x4x2x2xf32>
// CHECK-NEXT:  return %[[R]]

// MLIR-LABEL:  func.func @main
// MLIR:        linalg.generic
// MLIR:        linalg.generic
// MLIR-SAME:   "reduction"
