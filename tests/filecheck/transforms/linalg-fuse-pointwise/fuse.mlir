// Pointwise chains across transpose / reshape / broadcast become one linalg.generic.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-pointwise | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-pointwise,lower-tensor-ext | heir-opt --split-input-file | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-pointwise,lower-tensor-ext | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @add_transpose_add_relu(%x: tensor<4x6xf32>, %y: tensor<4x6xf32>, %z: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x6xf32>
  %a = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x6xf32>) outs(%e1 : tensor<6x4xf32>) permutation = [1, 0]
  %b = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%t, %z : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e1 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<6x4xf32>) outs(%e1 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.maximumf %p, %zero : f32
    linalg.yield %m : f32
  } -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @add_transpose_add_relu(
// CHECK-SAME:    %[[X:.*]]: tensor<4x6xf32>, %[[Y:.*]]: tensor<4x6xf32>, %[[Z:.*]]: tensor<6x4xf32>)
// CHECK-NEXT:    arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    tensor.empty() : tensor<6x4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP0]], #[[MAP1]], #[[MAP1]]], {{.*}} ins(%[[X]], %[[Y]], %[[Z]] :
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.maximumf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// MLIR-LABEL: func.func @add_transpose_add_relu(
// MLIR-NOT:   linalg.{{transpose|broadcast}}
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return

// -----

// A collapse merges the producer's axes: the consumer's loop is split into (6, 4).
func.func @collapse_splits_loop(%x: tensor<6x4xf32>, %y: tensor<24xf32>) -> tensor<24xf32> {
  %e0 = tensor.empty() : tensor<6x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x4xf32>) outs(%e0 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %e1 = tensor.empty() : tensor<24xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c, %y : tensor<24xf32>, tensor<24xf32>) outs(%e1 : tensor<24xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  return %b : tensor<24xf32>
}
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0, d1) -> (d0 * 4 + d1)>
// CHECK-LABEL: func.func @collapse_splits_loop(
// CHECK-NEXT:    tensor.empty() : tensor<24xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP1]], #[[MAP2]], #[[MAP2]]], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<6x4xf32>, tensor<24xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// MLIR-LABEL: func.func @collapse_splits_loop(
// MLIR-NOT:   {{tensor.collapse_shape|linalg.transpose}}
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return

// -----

// A [6] bias broadcast, reshaped to [2, 3] and transposed, stays [6]: read as d1 * 3 + d4.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @bias_stays_small(%v: tensor<1x6x4x4xf32>, %bias: tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<1x6x4x4xf32>
  %bb = linalg.broadcast ins(%bias : tensor<6xf32>) outs(%e0 : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
  %a = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v, %bb : tensor<1x6x4x4xf32>, tensor<1x6x4x4xf32>) outs(%e0 : tensor<1x6x4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<1x6x4x4xf32>
  %x = tensor.expand_shape %a [[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 4, 4] : tensor<1x6x4x4xf32> into tensor<1x2x3x4x4xf32>
  %e1 = tensor.empty() : tensor<1x2x4x4x3xf32>
  %t = linalg.transpose ins(%x : tensor<1x2x3x4x4xf32>) outs(%e1 : tensor<1x2x4x4x3xf32>) permutation = [0, 1, 3, 4, 2]
  %r = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t : tensor<1x2x4x4x3xf32>) outs(%e1 : tensor<1x2x4x4x3xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    %x1 = math.exp %n : f32
    %d = arith.addf %x1, %one : f32
    %q = arith.divf %one, %d : f32
    linalg.yield %q : f32
  } -> tensor<1x2x4x4x3xf32>
  return %r : tensor<1x2x4x4x3xf32>
}
// CHECK-DAG: #[[MAP3:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>
// CHECK-DAG: #[[MAP4:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1 * 3 + d4)>
// CHECK-DAG: #[[MAP5:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @bias_stays_small(
// CHECK-SAME:    %[[V:.*]]: tensor<1x6x4x4xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK-NEXT:    arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    tensor.empty() : tensor<1x2x4x4x3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP3]], #[[MAP4]], #[[MAP5]]]{{.*}} ins(%[[V]], %[[B]] : tensor<1x6x4x4xf32>, tensor<6xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.negf
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.divf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// MLIR-LABEL: func.func @bias_stays_small(
// MLIR-NOT:   linalg.{{transpose|broadcast}}
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return

// -----

// A trailing transpose of a pointwise result becomes part of the generic.
func.func @trailing_transpose(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %e0 = tensor.empty() : tensor<4x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x6xf32>) outs(%e1 : tensor<6x4xf32>) permutation = [1, 0]
  return %t : tensor<6x4xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @trailing_transpose(
// CHECK-NEXT:    tensor.empty() : tensor<6x4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]]]
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// MLIR-LABEL: func.func @trailing_transpose(
// MLIR-NOT:   linalg.{{transpose|broadcast}}
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return

// -----

// A dynamic batch with a static split of a static axis fuses.
func.func @dynamic_batch_static_split(%x: tensor<?x6xf32>) -> tensor<?x2x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x6xf32>
  %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [%n, 2, 3] : tensor<?x6xf32> into tensor<?x2x3xf32>
  %i = tensor.empty(%n) : tensor<?x2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e : tensor<?x2x3xf32>) outs(%i : tensor<?x2x3xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<?x2x3xf32>
  return %r : tensor<?x2x3xf32>
}
// CHECK-DAG: #[[MAP6:.+]] = affine_map<(d0, d1, d2) -> (d0, d1 * 3 + d2)>
// CHECK-DAG: #[[MAP7:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @dynamic_batch_static_split(
// CHECK-SAME:    %[[X:.*]]: tensor<?x6xf32>)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x6xf32>
// CHECK-NEXT:    tensor.empty(%[[N]]) : tensor<?x2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP6]], #[[MAP7]]]{{.*}} ins(%[[X]] : tensor<?x6xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// MLIR-LABEL: func.func @dynamic_batch_static_split(
// MLIR-NOT:   {{tensor.expand_shape|linalg.transpose}}
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return

// -----

// HEIR's canonical form (arith/math on whole tensors, a splat constant) after a
// transpose: one generic, the splat constant a scalar in the body.
func.func @tensor_arith_after_transpose(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %e1 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x6xf32>) outs(%e1 : tensor<6x4xf32>) permutation = [1, 0]
  %n = arith.negf %t : tensor<6x4xf32>
  %e = math.exp %n : tensor<6x4xf32>
  %one = arith.constant dense<1.0> : tensor<6x4xf32>
  %d = arith.addf %e, %one : tensor<6x4xf32>
  %r = arith.divf %one, %d : tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tensor_arith_after_transpose(
// CHECK-SAME:    %[[X:.*]]: tensor<4x6xf32>)
// CHECK-NEXT:    tensor.empty() : tensor<6x4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]]]{{.*}} ins(%[[X]] : tensor<4x6xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.negf %{{.*}} : f32
// CHECK-NEXT:      math.exp %{{.*}} : f32
// CHECK-NEXT:      arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// MLIR-LABEL: func.func @tensor_arith_after_transpose(
// MLIR-NOT:   linalg.{{transpose|broadcast}}
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return

// -----

// Tensor arith on arguments only still converts when its user is a layout op: the
// add -> transpose -> add -> relu chain in HEIR's canonical form is one generic.
func.func @tensor_arith_chain(%x: tensor<4x6xf32>, %y: tensor<4x6xf32>, %z: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %a = arith.addf %x, %y : tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x6xf32>) outs(%e1 : tensor<6x4xf32>) permutation = [1, 0]
  %b = arith.addf %t, %z : tensor<6x4xf32>
  %zero = arith.constant dense<0.0> : tensor<6x4xf32>
  %r = arith.maximumf %b, %zero : tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tensor_arith_chain(
// CHECK-SAME:    %[[X:.*]]: tensor<4x6xf32>, %[[Y:.*]]: tensor<4x6xf32>, %[[Z:.*]]: tensor<6x4xf32>)
// CHECK-NEXT:    tensor.empty() : tensor<6x4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP0]], #[[MAP1]], #[[MAP1]]]{{.*}} ins(%[[X]], %[[Y]], %[[Z]] :
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      arith.maximumf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// MLIR-LABEL: func.func @tensor_arith_chain(
// MLIR-NOT:   linalg.{{transpose|broadcast}}
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return

// -----

// A matmul whose result is only reshaped and transposed: the transpose becomes the
// root's copy epilogue, one kernel.
func.func @matmul_transpose_only(%a: tensor<6x4xf32>, %b: tensor<4x8xf32>, %z: tensor<6x8xf32>) -> tensor<2x8x3xf32> {
  %c = linalg.matmul ins(%a, %b : tensor<6x4xf32>, tensor<4x8xf32>) outs(%z : tensor<6x8xf32>) -> tensor<6x8xf32>
  %e = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 8] : tensor<6x8xf32> into tensor<2x3x8xf32>
  %i = tensor.empty() : tensor<2x8x3xf32>
  %t = linalg.transpose ins(%e : tensor<2x3x8xf32>) outs(%i : tensor<2x8x3xf32>) permutation = [0, 2, 1]
  return %t : tensor<2x8x3xf32>
}
// CHECK-DAG: #[[MAP8:.+]] = affine_map<(d0, d1, d2) -> (d0 * 3 + d2, d1)>
// CHECK-DAG: #[[MAP7:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul_transpose_only(
// CHECK-SAME:    %[[A:.*]]: tensor<6x4xf32>, %[[B:.*]]: tensor<4x8xf32>, %[[Z:.*]]: tensor<6x8xf32>)
// CHECK-NEXT:  %[[K:.*]] = tensor_ext.kernel ins(%[[A]], %[[B]], %[[Z]] :
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      tensor.empty() : tensor<2x8x3xf32>
// CHECK-NEXT:      %[[C:.*]] = linalg.matmul
// CHECK-NEXT:      %[[T:.*]] = linalg.generic {indexing_maps = [#[[MAP8]], #[[MAP7]]]{{.*}} ins(%[[C]]
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        linalg.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      tensor_ext.yield %[[T]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[K]]
// Lowered (lower-tensor-ext), the reshape is an expand_shape again, right after the
// matmul, and %z moves from the matmul's init to the epilogue.
// MLIR-LABEL: func.func @matmul_transpose_only(
// MLIR-NOT:   {{tensor.expand_shape|linalg.transpose|linalg.generic}}
// MLIR:       linalg.matmul
// MLIR-NOT:   {{linalg.generic|linalg.transpose}}
// MLIR:       tensor.expand_shape
// MLIR-NOT:   linalg.transpose
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|generic}}
// MLIR:       return

// -----

// A reduction consumer fuses when the reshape leaves the reduced axis whole.
func.func @reduction_axis_kept_whole(%x: tensor<2x12xf32>, %init: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e0 = tensor.empty() : tensor<2x12xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x12xf32>) outs(%e0 : tensor<2x12xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<2x12xf32>
  %e = tensor.expand_shape %a [[0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%e : tensor<2x3x4xf32>) outs(%init : tensor<3x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
// CHECK-DAG: #[[MAP9:.+]] = affine_map<(d0, d1, d2) -> (d0, d1 * 4 + d2)>
// CHECK-DAG: #[[MAP10:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @reduction_axis_kept_whole(
// CHECK-SAME:    %[[X:.*]]: tensor<2x12xf32>, %[[I:.*]]: tensor<3x4xf32>)
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP9]], #[[MAP10]]], iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[X]] : tensor<2x12xf32>) outs(%[[I]] : tensor<3x4xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// Lowered, the fused generic reads %x through an expand_shape view, not `d1 * 4 + d2`.
// MLIR-LABEL: func.func @reduction_axis_kept_whole(
// MLIR-NOT:   {{linalg.transpose|linalg.generic}}
// MLIR:       tensor.expand_shape %arg0 {{.*}} into tensor<2x3x4xf32>
// MLIR-NOT:   linalg.transpose
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return

// -----

// collapse [6, 4] -> [24], then expand [24] -> [2, 12]: the loops refine to (2, 3, 4),
// which no input reads bare, so the output is written through an expand_shape view of
// its init and collapsed back (views, not kernels).
func.func @collapse_then_expand(%x: tensor<6x4xf32>, %y: tensor<24xf32>, %z: tensor<2x12xf32>) -> tensor<2x12xf32> {
  %e0 = tensor.empty() : tensor<6x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x4xf32>) outs(%e0 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %e1 = tensor.empty() : tensor<24xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c, %y : tensor<24xf32>, tensor<24xf32>) outs(%e1 : tensor<24xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  %d = tensor.expand_shape %b [[0, 1]] output_shape [2, 12] : tensor<24xf32> into tensor<2x12xf32>
  %e2 = tensor.empty() : tensor<2x12xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d, %z : tensor<2x12xf32>, tensor<2x12xf32>) outs(%e2 : tensor<2x12xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}
// CHECK-DAG: #[[MAP11:.+]] = affine_map<(d0, d1, d2) -> (d0 * 3 + d1, d2)>
// CHECK-DAG: #[[MAP12:.+]] = affine_map<(d0, d1, d2) -> (d0 * 12 + (d1 * 4 + d2))>
// CHECK-DAG: #[[MAP9:.+]] = affine_map<(d0, d1, d2) -> (d0, d1 * 4 + d2)>
// CHECK-DAG: #[[MAP7:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @collapse_then_expand(
// CHECK-SAME:    %[[X:.*]]: tensor<6x4xf32>, %[[Y:.*]]: tensor<24xf32>, %[[Z:.*]]: tensor<2x12xf32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x12xf32>
// CHECK-NEXT:    %[[V:.*]] = tensor.expand_shape %[[E]] {{\[}}[0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [#[[MAP11]], #[[MAP12]], #[[MAP9]], #[[MAP7]]]{{.*}} ins(%[[X]], %[[Y]], %[[Z]] : {{.*}}) outs(%[[V]] : tensor<2x3x4xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// CHECK-NEXT:    return %[[R]]
// MLIR-LABEL: func.func @collapse_then_expand(
// MLIR-NOT:   linalg.{{transpose|broadcast}}
// MLIR:       linalg.generic
// MLIR-NOT:   linalg.{{transpose|broadcast|generic}}
// MLIR:       return
