// Elementwise canonicalizations that must not fire: broadcasts that stay broadcasts, and
// generics whose broadcasting or transposing input maps stay (dynamic shapes, buffers, a
// map reading only unit axes), plus a transposed output, whose broadcast input is spread
// over the loops. Each case is the only input that reaches its guard.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s

// -----

// A broadcast adding a unit dim to a dynamic tensor stays a broadcast (an expand_shape would need its sizes).
// CHECK-LABEL: func.func @broadcast_dynamic_unit(
// CHECK: %[[B:.*]] = linalg.broadcast ins(%x : tensor<?xf32>) outs(%{{.*}} : tensor<?x1xf32>) dimensions = [1]
// CHECK-NEXT: return %[[B]]
func.func @broadcast_dynamic_unit(%x: tensor<?xf32>) -> tensor<?x1xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?x1xf32>
  %b = linalg.broadcast ins(%x : tensor<?xf32>) outs(%e : tensor<?x1xf32>) dimensions = [1]
  return %b : tensor<?x1xf32>
}

// -----

// A broadcast of a rank-0 tensor stays a broadcast.
// CHECK-LABEL: func.func @broadcast_of_rank0(
// CHECK: %[[B:.*]] = linalg.broadcast ins(%x : tensor<f32>) outs(%{{.*}} : tensor<1x1xf32>) dimensions = [0, 1]
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_rank0(%x: tensor<f32>) -> tensor<1x1xf32> {
  %e = tensor.empty() : tensor<1x1xf32>
  %b = linalg.broadcast ins(%x : tensor<f32>) outs(%e : tensor<1x1xf32>) dimensions = [0, 1]
  return %b : tensor<1x1xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d1)>
// A broadcasting input of a generic with a transposed output is broadcast over the loops (2x3), not over the output (3x2).
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @transposed_output(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT: %[[B:.*]] = linalg.broadcast ins(%b : tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>) dimensions = [0]
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP0]], #[[MAP1]]]{{.*}} ins(%x, %[[B]] : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<3x2xf32>)
func.func @transposed_output(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #tr], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// A generic with a dynamic input keeps its broadcasting map, even when its output is
// static.
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @dynamic_broadcasting_input(
// CHECK: linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP2]], #[[MAP0]]]{{.*}} ins(%x, %b : tensor<?x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>)
func.func @dynamic_broadcasting_input(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<?x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// A generic on buffers keeps its broadcasting map (a broadcast op would make a tensor).
// numerics: pipeline only: the evaluator runs tensors, not buffers
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @memref_broadcasting_input(
// CHECK: linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP2]], #[[MAP0]]]{{.*}} ins(%x, %b : memref<2x3xf32>, memref<3xf32>) outs(%o : memref<2x3xf32>)
func.func @memref_broadcasting_input(%x: memref<2x3xf32>, %b: memref<3xf32>, %o: memref<2x3xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<2x3xf32>, memref<3xf32>) outs(%o : memref<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#unit = affine_map<(d0, d1) -> (0)>
// A map reading only the unit axis of a 1-element input, (d0, d1) -> (0), is left alone
// (materializing it would collapse to rank 0 first).
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MAP3:.+]] = affine_map<(d0, d1) -> (0)>
// CHECK-LABEL: func.func @reads_only_unit_axes(
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP3]], #[[MAP0]]]{{.*}} ins(%x, %b : tensor<2x3xf32>, tensor<1xf32>)
func.func @reads_only_unit_axes(%x: tensor<2x3xf32>, %b: tensor<1xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x3xf32>, tensor<1xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// A generic on buffers keeps its transposing map.
// numerics: pipeline only: the evaluator runs tensors, not buffers
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @memref_transposed_input(
// CHECK: linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]], #[[MAP0]]]{{.*}} ins(%x, %y : memref<2x3xf32>, memref<3x2xf32>) outs(%o : memref<2x3xf32>)
func.func @memref_transposed_input(%x: memref<2x3xf32>, %y: memref<3x2xf32>, %o: memref<2x3xf32>) {
  linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<2x3xf32>, memref<3x2xf32>) outs(%o : memref<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A collapse that regroups an expand differently (2x3 -> 1x2x3 -> 1x6) is not the
// expand's source: both reshapes stay.
// CHECK-LABEL: func.func @collapse_regroups_an_expand(
// CHECK: %[[E:.*]] = tensor.expand_shape %x {{.*}} : tensor<2x3xf32> into tensor<1x2x3xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[E]] {{.*}} : tensor<1x2x3xf32> into tensor<1x6xf32>
// CHECK-NEXT: return %[[C]]
func.func @collapse_regroups_an_expand(%x: tensor<2x3xf32>) -> tensor<1x6xf32> {
  %e = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, 2, 3] : tensor<2x3xf32> into tensor<1x2x3xf32>
  %c = tensor.collapse_shape %e [[0], [1, 2]] : tensor<1x2x3xf32> into tensor<1x6xf32>
  return %c : tensor<1x6xf32>
}
