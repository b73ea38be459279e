// The example of GeneralizeDirectConvPass's docstring: a 3x3 unit-stride f32 conv with
// 16 filters and an output row 8 wide becomes a generic with the named op's maps and body.
// RUN: heirpy-opt %s -p generalize-direct-conv | filecheck %s
// RUN: heirpy-opt %s -p generalize-direct-conv | iree-opt | filecheck %s --check-prefix=MLIR

func.func @main(%x: tensor<1x16x10x10xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%z : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG:   #[[O:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @main
// CHECK:       %[[Z:.*]] = linalg.fill
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       %r = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%[[Z]] : tensor<1x16x8x8xf32>)
// CHECK-NEXT:  ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[C]], %[[M]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// CHECK:       return %r
// MLIR-LABEL:  func.func @main(
// MLIR-NOT:    linalg.conv_2d_nchw_fchw
// MLIR:        linalg.generic
