// The example in LinalgFusePointwisePass's docstring: matmul -> reshape -> transpose ->
// add is one kernel; with kernels=false, one matmul + one generic that heir-opt and
// iree-opt accept; they accept the lowered kernel too (matmul, its reshape
// as an op, one generic).
// RUN: heirpy-opt %s -p linalg-fuse-pointwise | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false}' | filecheck %s --check-prefix=STD
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false}' | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p linalg-fuse-pointwise,lower-tensor-ext | heir-opt | filecheck %s --check-prefix=LOWERED
// RUN: heirpy-opt %s -p linalg-fuse-pointwise,lower-tensor-ext | iree-opt | filecheck %s --check-prefix=LOWERED

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @matmul_chain(%a: tensor<6x4xf32>, %b: tensor<4x8xf32>, %bias3: tensor<2x8x3xf32>) -> tensor<2x8x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<6x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6x8xf32>) -> tensor<6x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<6x4xf32>, tensor<4x8xf32>) outs(%z : tensor<6x8xf32>) -> tensor<6x8xf32>
  %e = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 8] : tensor<6x8xf32> into tensor<2x3x8xf32>
  %i = tensor.empty() : tensor<2x8x3xf32>
  %t = linalg.transpose ins(%e : tensor<2x3x8xf32>) outs(%i : tensor<2x8x3xf32>) permutation = [0, 2, 1]
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t, %bias3 : tensor<2x8x3xf32>, tensor<2x8x3xf32>) outs(%i : tensor<2x8x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x8x3xf32>
  return %s : tensor<2x8x3xf32>
}
// The kernel is the function's only op, and inside it no reshape or transpose is left.
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2) -> (d0 * 3 + d2, d1)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul_chain(
// CHECK-NEXT:  %[[K:.*]] = tensor_ext.kernel ins(
// CHECK-NOT:     {{tensor.expand_shape|linalg.transpose}}
// CHECK:         linalg.fill
// CHECK-NEXT:    %[[C:.*]] = linalg.matmul
// CHECK-NEXT:    %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]], #[[MAP1]]]{{.*}} ins(%[[C]], %{{.*}} : tensor<6x8xf32>, tensor<2x8x3xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    tensor_ext.yield %[[S]]
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[K]]

// STD-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2) -> (d0 * 3 + d2, d1)>
// STD-LABEL: func.func @matmul_chain(
// STD-NOT:   {{tensor.expand_shape|linalg.transpose|tensor_ext}}
// STD:       %[[C:.*]] = linalg.matmul
// STD-NOT:   {{tensor.expand_shape|linalg.transpose|tensor_ext}}
// STD:       %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], {{.*}} ins(%[[C]], %{{.*}} : tensor<6x8xf32>, tensor<2x8x3xf32>)
// STD-NEXT:  ^bb0
// STD-NEXT:  arith.addf
// STD-NEXT:  linalg.yield
// STD-NEXT:  }
// STD-NEXT:  return %[[S]]

// MLIR-LABEL: func.func @matmul_chain(
// MLIR-NOT:   {{tensor.expand_shape|linalg.transpose|linalg.generic}}
// MLIR:       linalg.matmul
// MLIR-NOT:   {{tensor.expand_shape|linalg.transpose}}
// MLIR:       linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}]
// MLIR-NOT:   {{linalg.transpose|linalg.generic}}
// MLIR:       return

// LOWERED-LABEL: func.func @matmul_chain(
// LOWERED-NOT:   {{tensor.expand_shape|linalg.transpose|linalg.generic}}
// LOWERED:       linalg.matmul
// LOWERED-NOT:   linalg.generic
// LOWERED:       tensor.expand_shape
// LOWERED-NOT:   linalg.transpose
// LOWERED:       linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}]
// LOWERED-NOT:   {{linalg.transpose|linalg.generic}}
// LOWERED:       return
