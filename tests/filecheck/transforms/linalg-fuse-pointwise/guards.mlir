// Must not fuse: each case leaves the IR as it was (apart from nothing).
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-pointwise | filecheck %s

// A collapse merges the reduced axis with another: the reduction loop would have to be
// split, so the producer and the collapse stay.
func.func @reduced_axis_merged(%x: tensor<6x4xf32>, %init: tensor<f32>) -> tensor<f32> {
  %e0 = tensor.empty() : tensor<6x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x4xf32>) outs(%e0 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%c : tensor<24xf32>) outs(%init : tensor<f32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
// CHECK-LABEL: func.func @reduced_axis_merged(
// CHECK:       %[[A:.*]] = linalg.generic
// CHECK:       %[[C:.*]] = tensor.collapse_shape %[[A]]
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[C]] : tensor<24xf32>)

// -----

// A reshape chain without a common refinement: [6, 4] -> [24] -> [4, 6].
func.func @no_common_refinement(%x: tensor<6x4xf32>) -> tensor<4x6xf32> {
  %e0 = tensor.empty() : tensor<6x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x4xf32>) outs(%e0 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %d = tensor.expand_shape %c [[0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x6xf32>) outs(%e1 : tensor<4x6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
// CHECK-LABEL: func.func @no_common_refinement(
// CHECK:       linalg.generic
// CHECK:       tensor.collapse_shape
// CHECK:       tensor.expand_shape
// CHECK:       linalg.generic

// -----

// The transposed matmul result has two users: a kernel would recompute the matmul, so
// the matmul stays on its own (the transposes are still read through maps).
func.func @several_users(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %z: tensor<4x6xf32>) -> (tensor<6x4xf32>, tensor<6x4xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%z : tensor<4x6xf32>) -> tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%m : tensor<4x6xf32>) outs(%e1 : tensor<6x4xf32>) permutation = [1, 0]
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<6x4xf32>) outs(%e1 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<6x4xf32>) outs(%e1 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.tanh %p : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  return %r1, %r2 : tensor<6x4xf32>, tensor<6x4xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @several_users(
// CHECK-NOT:   tensor_ext.kernel
// CHECK:       %[[M:.*]] = linalg.matmul
// CHECK-NOT:   tensor_ext.kernel
// CHECK:       linalg.generic {indexing_maps = [#[[MAP0]], {{.*}} ins(%[[M]] :
// CHECK-NOT:   tensor_ext.kernel
// CHECK:       linalg.generic {indexing_maps = [#[[MAP0]], {{.*}} ins(%[[M]] :
// CHECK-NOT:   tensor_ext.kernel
// CHECK:       return

// -----

// A broadcast from a small producer to a large shape: fusing would recompute the exp
// 4 times per element. The broadcast is read through a map; the exp stays on [6].
func.func @broadcast_into_small_producer(%x: tensor<6xf32>, %y: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e0 = tensor.empty() : tensor<6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<6xf32>) outs(%e0 : tensor<6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %e1 = tensor.empty() : tensor<4x6xf32>
  %b = linalg.broadcast ins(%a : tensor<6xf32>) outs(%e1 : tensor<4x6xf32>) dimensions = [0]
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %y : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e1 : tensor<4x6xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast_into_small_producer(
// CHECK:       %[[A:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<6xf32>)
// CHECK:         math.exp
// CHECK:       %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP1]], {{.*}} ins(%[[A]], %{{.*}} : tensor<6xf32>, tensor<4x6xf32>)
// CHECK-NOT:     math.exp
// CHECK:         linalg.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[R]]

// -----

// Non-pointwise consumers end the kernel: pad, extract_slice, concat.
func.func @pad_ends_kernel(%x: tensor<4x4xf32>) -> tensor<6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%e0 : tensor<4x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %e1 = tensor.empty() : tensor<6x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<6x6xf32>) outs(%e1 : tensor<6x6xf32>) {
  ^bb0(%q: f32, %o: f32):
    %s = math.tanh %q : f32
    linalg.yield %s : f32
  } -> tensor<6x6xf32>
  return %r : tensor<6x6xf32>
}
// CHECK-LABEL: func.func @pad_ends_kernel(
// CHECK:       %[[A:.*]] = linalg.generic
// CHECK:       %[[P:.*]] = tensor.pad %[[A]]
// CHECK:       linalg.generic {{.*}} ins(%[[P]] :

// -----

func.func @slice_after_matmul(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %z: tensor<4x6xf32>) -> tensor<2x6xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%z : tensor<4x6xf32>) -> tensor<4x6xf32>
  %s = tensor.extract_slice %m[0, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
  %e1 = tensor.empty() : tensor<2x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x6xf32>) outs(%e1 : tensor<2x6xf32>) {
  ^bb0(%q: f32, %o: f32):
    %t = math.tanh %q : f32
    linalg.yield %t : f32
  } -> tensor<2x6xf32>
  return %r : tensor<2x6xf32>
}
// CHECK-LABEL: func.func @slice_after_matmul(
// CHECK-NOT:   tensor_ext.kernel
// CHECK:       %[[M:.*]] = linalg.matmul
// CHECK:       %[[S:.*]] = tensor.extract_slice %[[M]]
// CHECK:       linalg.generic {{.*}} ins(%[[S]] :

// -----

func.func @concat_ends_kernel(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %e0 = tensor.empty() : tensor<2x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e0 : tensor<2x3xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %c = tensor.concat dim(0) %a, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %e1 = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<4x3xf32>) outs(%e1 : tensor<4x3xf32>) {
  ^bb0(%q: f32, %o: f32):
    %t = math.tanh %q : f32
    linalg.yield %t : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @concat_ends_kernel(
// CHECK:       %[[A:.*]] = linalg.generic
// CHECK:       %[[C:.*]] = tensor.concat dim(0) %[[A]], %{{.*}}
// CHECK:       linalg.generic {{.*}} ins(%[[C]] :

// -----

// A dynamic dim merged with a static one: the stride would be dynamic, no fusion.
func.func @dynamic_merge(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e0 = tensor.empty(%n) : tensor<?x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x4xf32>) outs(%e0 : tensor<?x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %c4 = arith.constant 4 : index
  %m = arith.muli %n, %c4 : index
  %e1 = tensor.empty(%m) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%q: f32, %o: f32):
    %t = math.tanh %q : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
// CHECK-LABEL: func.func @dynamic_merge(
// CHECK:       %[[A:.*]] = linalg.generic
// CHECK:       %[[C:.*]] = tensor.collapse_shape %[[A]]
// CHECK:       linalg.generic {{.*}} ins(%[[C]] : tensor<?xf32>)

// -----

// Arith on whole tensors with nothing to fuse with (only function arguments) stays.
func.func @lonely_tensor_arith(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %x, %y : tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @lonely_tensor_arith(
// CHECK-NEXT:  %[[R:.*]] = arith.addf %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK-NEXT:  return %[[R]]

// -----

// A gather (torch-mlir's form: a generic reading a table with tensor.extract at a
// data-dependent index) ends the kernel: the table's producer stays on its own.
func.func @gather_ends_kernel(%x: tensor<8xf32>, %idx: tensor<4xi32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%idx : tensor<4xi32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%i: i32, %o: f32):
    %j = arith.index_cast %i : i32 to index
    %v = tensor.extract %a[%j] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @gather_ends_kernel(
// CHECK:       %[[A:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8xf32>)
// CHECK:         math.exp
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<4xi32>)
// CHECK:         tensor.extract %[[A]]

// -----

// The body reads linalg.index of the loop the collapse would split: absorbing
// [6, 4] -> [24] makes index 0 count 0..5 instead of 0..23 (wrong by up to 18).
func.func @index_of_a_split_loop(%x: tensor<6x4xf32>) -> tensor<24xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %e = tensor.empty() : tensor<24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<24xf32>) outs(%e : tensor<24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  return %r : tensor<24xf32>
}
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @index_of_a_split_loop(
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape
// CHECK-NEXT:    tensor.empty() : tensor<24xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [#[[MAP2]], #[[MAP2]]], iterator_types = ["parallel"]} ins(%[[C]] : tensor<24xf32>)

// -----

// The producer reads its init (an accumulate): inlining it would leave the body
// reading a block argument of an op that no longer exists.
func.func @producer_reads_its_init(%x: tensor<4x6xf32>, %acc: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%acc : tensor<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %y = math.exp %p : f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
// CHECK-LABEL: func.func @producer_reads_its_init(
// CHECK-SAME:    %[[X:.*]]: tensor<4x6xf32>, %[[ACC:.*]]: tensor<4x6xf32>)
// CHECK-NEXT:    %[[A:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x6xf32>) outs(%[[ACC]] : tensor<4x6xf32>)
// CHECK:         arith.addf
// CHECK:         tensor.empty
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[A]] : tensor<4x6xf32>)

// -----

// A scalar (non-tensor) operand: there are no shapes to plan the loops with, so the
// generic keeps reading through the collapse (without the guard the pass crashed).
func.func @scalar_operand(%x: tensor<6x4xf32>, %s: f32) -> tensor<24xf32> {
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %e = tensor.empty() : tensor<24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c, %s : tensor<24xf32>, f32) outs(%e : tensor<24xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.mulf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<24xf32>
  return %r : tensor<24xf32>
}
// CHECK-LABEL: func.func @scalar_operand(
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape
// CHECK-NEXT:    tensor.empty() : tensor<24xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[C]], %s : tensor<24xf32>, f32)

// -----

// The producer's body reads linalg.index; the consumer reads it transposed, so inlined
// into the consumer's loops index 0 would count the other axis.
func.func @producer_uses_index(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %e0 = tensor.empty() : tensor<4x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %s = arith.addf %in, %f : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<6x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xf32>) outs(%e1 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %y = math.exp %p : f32
    linalg.yield %y : f32
  } -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
// CHECK-LABEL: func.func @producer_uses_index(
// CHECK:         %[[A:.*]] = linalg.generic
// CHECK:         linalg.index 0
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : tensor<4x6xf32>)
// CHECK:         math.exp

// -----

// The producer's result has a second user (it is returned too): inlining it would
// leave that user without its value.
func.func @producer_with_two_users(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e0 = tensor.empty() : tensor<4x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xf32>) outs(%e1 : tensor<4x6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %y = math.exp %p : f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  return %r, %a : tensor<4x6xf32>, tensor<4x6xf32>
}
// CHECK-LABEL: func.func @producer_with_two_users(
// CHECK:         %[[A:.*]] = linalg.generic
// CHECK:         arith.mulf
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x6xf32>)
// CHECK:         math.exp
// CHECK:         return %[[R]], %[[A]]

// -----

// Tensor arith on a dynamic shape: a generic would need the dynamic sizes for its init,
// so the addf stays as it is.
func.func @dynamic_tensor_arith(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<4x?xf32> {
  %s = arith.addf %x, %y : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<4x?xf32>
  %t = linalg.transpose ins(%s : tensor<?x4xf32>) outs(%e : tensor<4x?xf32>) permutation = [1, 0]
  return %t : tensor<4x?xf32>
}
// CHECK-LABEL: func.func @dynamic_tensor_arith(
// CHECK-NEXT:    %[[S:.*]] = arith.addf %x, %y : tensor<?x4xf32>
