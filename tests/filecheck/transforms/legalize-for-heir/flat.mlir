// ElementwiseOnFlat and FoldReshapesToFlat: elementwise ops between matvecs run on the
// flat vectors, with residual inputs collapsed and constants flattened; a collapse of an
// expand of a flat vector is that vector.
// RUN: heirpy-opt %s --split-input-file -p legalize-for-heir | filecheck %s

// x² of an expanded matvec result, plus a per-channel constant (map (d1)) and the
// function's own input (a residual), then flattened into the next matvec.
func.func @residual(%x: tensor<1x2x2x1xf32>) -> tensor<3xf32> {
  %xf = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<1x2x2x1xf32> into tensor<4xf32>
  %a = arith.constant dense<0.5> : tensor<4x4xf32>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %h = linalg.matvec ins(%a, %xf : tensor<4x4xf32>, tensor<4xf32>) outs(%z : tensor<4xf32>) -> tensor<4xf32>
  %t = tensor.expand_shape %h [[0, 1, 2, 3]] output_shape [1, 2, 2, 1] : tensor<4xf32> into tensor<1x2x2x1xf32>
  %k = arith.constant dense<[1.0, -1.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x2x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %k, %x : tensor<1x2x2x1xf32>, tensor<2xf32>, tensor<1x2x2x1xf32>) outs(%e : tensor<1x2x2x1xf32>) {
  ^bb0(%in: f32, %c: f32, %r: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %m = arith.mulf %sq, %c : f32
    %sum = arith.addf %m, %r : f32
    linalg.yield %sum : f32
  } -> tensor<1x2x2x1xf32>
  %f1 = tensor.collapse_shape %s [[0], [1, 2, 3]] : tensor<1x2x2x1xf32> into tensor<1x4xf32>
  %f = tensor.collapse_shape %f1 [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  %b = arith.constant dense<0.25> : tensor<3x4xf32>
  %z3 = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%b, %f : tensor<3x4xf32>, tensor<4xf32>) outs(%z3 : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @residual
// CHECK:      %[[XF:.*]] = tensor.collapse_shape %x {{.*}} into tensor<4xf32>
// CHECK:      %[[H:.*]] = linalg.matvec ins(%{{.*}}, %[[XF]] : tensor<4x4xf32>, tensor<4xf32>)
// CHECK:      %[[K:.*]] = arith.constant dense<[1.000000e+00, 1.000000e+00, -1.000000e+00, -1.000000e+00]> : tensor<4xf32>
// CHECK:      %[[R:.*]] = tensor.collapse_shape %x {{.*}} into tensor<4xf32>
// CHECK:      %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP0]], #[[MAP0]], #[[MAP0]]], iterator_types = ["parallel"]} ins(%[[H]], %[[K]], %[[R]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NOT:  tensor.expand_shape
// CHECK:      %[[Y:.*]] = linalg.matvec ins(%{{.*}}, %[[S]] : tensor<3x4xf32>, tensor<4xf32>)
// CHECK-NEXT: return %[[Y]]

// -----

// Negative: an elementwise op on the function input alone (no flat vector read) stays
// as it is; the sum after it becomes a matvec on its collapsed result
// (LinearGenericToMatvec, reduction.mlir).
func.func @not_flat(%x: tensor<2x2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<2x2xf32>) outs(%z : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %in, %acc : f32
    linalg.yield %sum : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @not_flat
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK-NEXT: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x2xf32>)
// CHECK:      %[[F:.*]] = tensor.collapse_shape %[[S]] {{\[}}[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
// CHECK:      %[[V:.*]] = linalg.matvec ins(%{{.*}}, %[[F]] : tensor<2x4xf32>, tensor<4xf32>)
// CHECK-NEXT: return %[[V]]

// -----

// A kernel epilogue reading its root through a map that drops a unit loop (1x4x2 read in
// a 1x4x2x1 nest, found by fuzz_heir.py: HEIR rejected the 1x4x2 expand) runs on the flat
// vector all the same: the elements come in the same row-major order.
func.func @drops_a_unit_loop(%x: tensor<8xf32>) -> tensor<4xf32> {
  %a = arith.constant dense<0.5> : tensor<8x8xf32>
  %z = arith.constant dense<0.0> : tensor<8xf32>
  %h = linalg.matvec ins(%a, %x : tensor<8x8xf32>, tensor<8xf32>) outs(%z : tensor<8xf32>) -> tensor<8xf32>
  %t = tensor.expand_shape %h [[0, 1, 2]] output_shape [1, 4, 2] : tensor<8xf32> into tensor<1x4x2xf32>
  %k = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %e = tensor.empty() : tensor<1x4x2x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %k : tensor<1x4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<1x4x2x1xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %b = arith.addf %in, %c : f32
    %sq = arith.mulf %b, %b : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x2x1xf32>
  %f = tensor.collapse_shape %s [[0, 1, 2, 3]] : tensor<1x4x2x1xf32> into tensor<8xf32>
  %w = arith.constant dense<0.25> : tensor<4x8xf32>
  %z4 = arith.constant dense<0.0> : tensor<4xf32>
  %y = linalg.matvec ins(%w, %f : tensor<4x8xf32>, tensor<8xf32>) outs(%z4 : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
// CHECK-LABEL: func.func @drops_a_unit_loop
// CHECK-NOT:  tensor.expand_shape
// CHECK:      %[[H:.*]] = linalg.matvec ins(%{{.*}}, %x : tensor<8x8xf32>, tensor<8xf32>)
// CHECK:      %[[K:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]> : tensor<8xf32>
// CHECK:      %[[S:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel"]} ins(%[[H]], %[[K]] : tensor<8xf32>, tensor<8xf32>)
// CHECK-NOT:  tensor.expand_shape
// CHECK:      %[[Y:.*]] = linalg.matvec ins(%{{.*}}, %[[S]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK-NEXT: return %[[Y]]

// -----

// Negative: a value broadcast over a loop that is not a unit one (a 1x4 value read in a
// 1x4x2 nest) is not in the nest's row-major order; the generic keeps its loops.
func.func @broadcast_stays(%x: tensor<4xf32>) -> tensor<3xf32> {
  %a = arith.constant dense<0.5> : tensor<4x4xf32>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %h = linalg.matvec ins(%a, %x : tensor<4x4xf32>, tensor<4xf32>) outs(%z : tensor<4xf32>) -> tensor<4xf32>
  %t = tensor.expand_shape %h [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  %e = tensor.empty() : tensor<1x4x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<1x4xf32>) outs(%e : tensor<1x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x2xf32>
  %f = tensor.collapse_shape %s [[0, 1, 2]] : tensor<1x4x2xf32> into tensor<8xf32>
  %w = arith.constant dense<0.25> : tensor<3x8xf32>
  %z3 = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%w, %f : tensor<3x8xf32>, tensor<8xf32>) outs(%z3 : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @broadcast_stays
// CHECK:      linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<1x4xf32>) outs(%{{.*}} : tensor<1x4x2xf32>)
