// lower-tensor-ext writes a result that pointwise fusion reshaped through its output map
// (`(d0 * 3 + d1)`) into plain dims, then `tensor.collapse_shape` (ExpandMixedRadixWrites):
// IREE 3.13 crashes on an output map that is not a projected permutation
// (benchmarks/iree_bugs/output_map.mlir). Where the map is not such a number, it stays.
// RUN: heirpy-opt %s --split-input-file -p lower-tensor-ext | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p lower-tensor-ext | heir-opt --split-input-file | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --split-input-file -p lower-tensor-ext | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// An empty init: a new empty of the expanded shape.
// CHECK-LABEL: func.func @empty_init
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:  %[[G:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK:       } -> tensor<2x3xf32>
// CHECK-NEXT:  %[[C:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT:  return %[[C]] : tensor<6xf32>
// MLIR-LABEL: func.func @empty_init
// MLIR:       linalg.generic
// MLIR:       tensor.collapse_shape
// MLIR-NEXT:  return
func.func @empty_init(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 * 3 + d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// An init the body reads: its expand_shape; the loops write in the order d1, d0
// (element (i, j) at j * 2 + i), so the plain map is a permutation.
// MLIR-LABEL: func.func @read_init_permuted
// CHECK-DAG: #[[T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @read_init_permuted
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<6xf32>)
// CHECK-NEXT:  %[[V:.*]] = tensor.expand_shape %[[I]] {{\[}}[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK-NEXT:  %[[G:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[T]]], {{.*}} ins(%[[X]] : tensor<2x3xf32>) outs(%[[V]] : tensor<3x2xf32>)
// CHECK:       } -> tensor<3x2xf32>
// CHECK-NEXT:  %[[C:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1]] : tensor<3x2xf32> into tensor<6xf32>
// CHECK-NEXT:  return %[[C]] : tensor<6xf32>
func.func @read_init_permuted(%x: tensor<2x3xf32>, %i: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1 * 2 + d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%i : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

// Two results: only the reshaped one changes.
// CHECK-LABEL: func.func @two_results
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:  %[[E2:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:  %[[G0:.*]], %[[G1:.*]] = linalg.generic {{.*}} outs(%[[E]], %[[E2]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:       } -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT:  %[[C:.*]] = tensor.collapse_shape %[[G1]] {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT:  return %[[G0]], %[[C]] : tensor<2x3xf32>, tensor<6xf32>
func.func @two_results(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<6xf32>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %f = tensor.empty() : tensor<6xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 * 3 + d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e, %f : tensor<2x3xf32>, tensor<6xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    %n = arith.negf %in : f32
    %m = arith.mulf %in, %in : f32
    linalg.yield %n, %m : f32, f32
  } -> (tensor<2x3xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<6xf32>
}

// -----

// The writes cover 7 of the 8 elements (d0 * 4 + d1 over 2 x 3): no reshape says that,
// so the map stays and the last element keeps its init.
// CHECK-DAG: #[[P:.+]] = affine_map<(d0, d1) -> (d0 * 4 + d1)>
// CHECK-LABEL: func.func @partial_cover
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<8xf32>)
// CHECK-NOT:   tensor.expand_shape
// CHECK-NEXT:  %[[G:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[P]]], {{.*}} outs(%[[I]] : tensor<8xf32>)
// CHECK:       } -> tensor<8xf32>
// CHECK-NEXT:  return %[[G]] : tensor<8xf32>
func.func @partial_cover(%x: tensor<2x3xf32>, %i: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 * 4 + d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%i : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A reduction that writes its kept loops as one number: the output splits, the sum stays.
// CHECK-LABEL: func.func @reduction
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<6xf32>)
// CHECK-NEXT:  %[[V:.*]] = tensor.expand_shape %[[I]] {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK-NEXT:  %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[V]] : tensor<2x3xf32>)
// CHECK:       } -> tensor<2x3xf32>
// CHECK-NEXT:  %[[C:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK-NEXT:  return %[[C]] : tensor<6xf32>
func.func @reduction(%x: tensor<2x3x4xf32>, %i: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0 * 3 + d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x4xf32>) outs(%i : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
