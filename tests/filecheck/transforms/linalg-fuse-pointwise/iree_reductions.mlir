// linalg-fuse-pointwise{iree-reductions=true}, the rules `iree-prepare` fuses by (IREE
// forms a reduction's dispatch over one loop space, and runs a pointwise op on a reduced
// tensor that a reduction reads through a broadcast as a dispatch of its own):
// (1) such a pointwise producer is recomputed inside the reduction (a LayerNorm's mean in its
//     variance), only along the reduction's loops; (2) no loop is refined in a reduction or
//     in a generic reading a computed tensor through a broadcast; (3) a layout chain is
//     absorbed only if every other reader of it may absorb it too. Default off: the main
//     pipeline fuses as before (DEFAULT). The whole-LayerNorm dispatch counts through
//     iree-compile: tests/unit/test_iree_never_worse.py.
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false iree-reductions=true}' | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false}' | filecheck %s --check-prefix=DEFAULT
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false iree-reductions=true}' | iree-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false iree-reductions=true}' -o %t
// RUN: heirpy-equiv %s %t --function mean_into_variance | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function mean_into_variance_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function broadcast_over_a_parallel_loop | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function pointwise_consumer | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function reduction_through_a_reshape | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function bias_through_a_reshape | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function reduced_operand_through_a_reshape | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shared_chain | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shared_transpose | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// MLIR-COUNT-9: func.func @

#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0, 0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// (1) The mean (sum / 8) is read by the variance's reduction through a broadcast, only
// along the reduction loop d1: it moves into the variance's body.
func.func @mean_into_variance(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %c0 = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x1xf32>) outs(%e : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %n : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %var = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "reduction"]} ins(%x, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %mean: f32, %acc: f32):
    %d = arith.subf %in, %mean : f32
    %q = arith.mulf %d, %d : f32
    %v = arith.addf %q, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  return %var : tensor<4x1xf32>
}
// CHECK-LABEL: func.func @mean_into_variance
// CHECK:       %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x
// CHECK:       arith.addf
// CHECK:       %[[V:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x, %[[S]] :
// CHECK:       arith.divf
// CHECK-NEXT:  arith.subf
// CHECK:       return %[[V]]
// DEFAULT-LABEL: func.func @mean_into_variance
// DEFAULT:       %[[M:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// DEFAULT-NEXT:  ^bb0
// DEFAULT-NEXT:  arith.divf
// DEFAULT:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x, %[[M]] :

// The same in f16.
func.func @mean_into_variance_f16(%x: tensor<4x8xf16>) -> tensor<4x1xf16> {
  %c0 = arith.constant 0.0 : f16
  %n = arith.constant 8.0 : f16
  %e = tensor.empty() : tensor<4x1xf16>
  %z = linalg.fill ins(%c0 : f16) outs(%e : tensor<4x1xf16>) -> tensor<4x1xf16>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf16>) outs(%z : tensor<4x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %v = arith.addf %in, %acc : f16
    linalg.yield %v : f16
  } -> tensor<4x1xf16>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x1xf16>) outs(%e : tensor<4x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %v = arith.divf %in, %n : f16
    linalg.yield %v : f16
  } -> tensor<4x1xf16>
  %var = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "reduction"]} ins(%x, %m : tensor<4x8xf16>, tensor<4x1xf16>) outs(%z : tensor<4x1xf16>) {
  ^bb0(%in: f16, %mean: f16, %acc: f16):
    %d = arith.subf %in, %mean : f16
    %q = arith.mulf %d, %d : f16
    %v = arith.addf %q, %acc : f16
    linalg.yield %v : f16
  } -> tensor<4x1xf16>
  return %var : tensor<4x1xf16>
}
// CHECK-LABEL: func.func @mean_into_variance_f16
// CHECK:       %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x, %[[S]] :
// CHECK:       arith.divf {{.*}} : f16
// CHECK-NEXT:  arith.subf
// DEFAULT-LABEL: func.func @mean_into_variance_f16
// DEFAULT:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]

// Guard (1), other side: the reduction reads the producer broadcast over its parallel
// loop d1 (a per-column value reused by every row would be recomputed per output): kept.
func.func @broadcast_over_a_parallel_loop(%x: tensor<4x8x3xf32>, %c: tensor<8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %k : tensor<4x8x3xf32>, tensor<8xf32>) outs(%z : tensor<4x8xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %p = arith.mulf %in, %w : f32
    %v = arith.addf %p, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @broadcast_over_a_parallel_loop
// CHECK:       %[[K:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK:       math.exp
// CHECK:       linalg.generic {{.*}} ins(%x, %[[K]] :
// CHECK-NOT:   math.exp
// CHECK:       return

// Guard (1), other side: an all-parallel consumer of the mean (IREE fuses that one itself)
// keeps it apart, as by default.
func.func @pointwise_consumer(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x1xf32>) outs(%e : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %n : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %c = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %mean: f32, %out: f32):
    %v = arith.subf %in, %mean : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @pointwise_consumer
// CHECK:       %[[M:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:  arith.divf
// CHECK:       linalg.generic {{.*}} ins(%x, %[[M]] :

// (2) A reduction reading a reshape that merges its rows: by default it reads the source
// through refined row loops (2 x 2); under IREE's rule the collapse_shape stays.
func.func @reduction_through_a_reshape(%x: tensor<2x2x8xf32>) -> tensor<4x1xf32> {
  %c0 = arith.constant 0.0 : f32
  %r = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x2x8xf32> into tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// CHECK-LABEL: func.func @reduction_through_a_reshape
// CHECK:       %[[R:.*]] = tensor.collapse_shape %x
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[R]] :
// DEFAULT-LABEL: func.func @reduction_through_a_reshape
// DEFAULT-NOT:   tensor.collapse_shape %x
// DEFAULT:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%x :

// Guard (2), other side: a pointwise op whose only broadcast operand is a constant (a bias)
// still reads through the reshape with refined loops.
func.func @bias_through_a_reshape(%x: tensor<4x2x4xf32>) -> tensor<4x8xf32> {
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %r = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x4xf32> into tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%r, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %v = arith.addf %in, %bias : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @bias_through_a_reshape
// CHECK-NOT:   tensor.collapse_shape %x
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]{{.*}} ins(%x,

// Guard (2): a pointwise op reading a computed per-row value (a reduced tensor) through a
// broadcast is one of a reduction's consumers: it keeps the reshape, as the reduction does.
func.func @reduced_operand_through_a_reshape(%x: tensor<4x2x4xf32>, %m: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %r = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x4xf32> into tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%r, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %mean: f32, %out: f32):
    %v = arith.subf %in, %mean : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @reduced_operand_through_a_reshape
// CHECK:       %[[R:.*]] = tensor.collapse_shape %x
// CHECK:       linalg.generic {{.*}} ins(%[[R]], %m :
// DEFAULT-LABEL: func.func @reduced_operand_through_a_reshape
// DEFAULT-NOT:   tensor.collapse_shape
// DEFAULT:       linalg.generic {{.*}} ins(%x, %m :

// (3) A chain read by a reduction that keeps it (its rows would be refined) and by a
// pointwise op that could absorb it: under IREE's rule the pointwise op reads the chain too,
// so IREE sees one layout of %x (by default each reader goes its own way).
func.func @shared_chain(%x: tensor<2x2x8xf32>) -> (tensor<4x1xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %r = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x2x8xf32> into tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%r, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %v = arith.addf %in, %bias : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %s, %y : tensor<4x1xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: func.func @shared_chain
// CHECK:       %[[R:.*]] = tensor.collapse_shape %x
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[R]] :
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[R]], %b :
// DEFAULT-LABEL: func.func @shared_chain
// DEFAULT-NOT:   tensor.collapse_shape %x
// DEFAULT:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%x :
// DEFAULT:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]{{.*}} ins(%x, %b :
// DEFAULT-LABEL: func.func @shared_transpose(

// (3), other side: a transpose read by two pointwise ops, both of which may absorb it:
// both read %x directly and the transpose goes.
func.func @shared_transpose(%x: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %et = tensor.empty() : tensor<4x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x4xf32>) outs(%et : tensor<4x8xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: func.func @shared_transpose
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.generic {{.*}} ins(%x :
// CHECK:       linalg.generic {{.*}} ins(%x :
// CHECK:       return
