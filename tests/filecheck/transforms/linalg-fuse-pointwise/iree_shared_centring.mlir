// linalg-fuse-pointwise{iree-reductions=true}: a pointwise op on a reduced tensor that a
// reduction shares with other readers (a LayerNorm's centred input `x - mean`, read by the
// variance and by the normalisation; its mean then read by both) is recomputed inside the
// reduction, and the other readers keep it (RecomputeSharedIntoReduction): the two-reduction
// LayerNorm IREE forms 2 dispatches from (ConvNeXt-atto f16's head: 5 dispatches against
// raw's 3 before; tests/unit/test_iree_f16_dispatches.py compiles it). Default off.
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false iree-reductions=true}' | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false}' | filecheck %s --check-prefix=DEFAULT
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false iree-reductions=true}' | iree-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p 'linalg-fuse-pointwise{kernels=false iree-reductions=true}' -o %t
// RUN: heirpy-equiv %s %t --function shared_centring | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shared_centring_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shared_not_on_a_reduced_tensor | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shared_by_two_reductions | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shared_softmax_exp | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// MLIR-COUNT-5: func.func @

#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>

// The centring %c is read by the variance (a reduction) and by the normalisation: it is
// recomputed in the variance, then the mean it reads too (the variance reads %x and the
// sum); the normalisation, now its one reader, takes %c in as before.
func.func @shared_centring(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %n : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %c = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %mean: f32, %out: f32):
    %v = arith.subf %in, %mean : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %var = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %q = arith.mulf %in, %in : f32
    %v = arith.addf %q, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #red, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %var, %g : tensor<4x8xf32>, tensor<4x1xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %v: f32, %w: f32, %out: f32):
    %d = arith.divf %v, %n : f32
    %r = math.rsqrt %d : f32
    %t = arith.mulf %in, %r : f32
    %u = arith.mulf %t, %w : f32
    linalg.yield %u : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @shared_centring
// CHECK:       %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x :
// CHECK:       %[[M:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[S]] :
// CHECK:       %[[V:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x, %[[S]] :
// CHECK:       arith.divf
// CHECK-NEXT:  arith.subf
// CHECK-NEXT:  arith.mulf
// CHECK:       %[[Y:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%x, %[[M]], %[[V]], %g :
// CHECK:       arith.subf
// CHECK:       return %[[Y]]
// DEFAULT-LABEL: func.func @shared_centring
// DEFAULT:       %[[C:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%x, %{{.*}} :
// DEFAULT:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[C]] :

// The same in torch-mlir's f16 form: an f16 input widened in each reader's body, f32
// statistics, the normalisation rounded to f16.
func.func @shared_centring_f16(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %c0 = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %h = tensor.empty() : tensor<4x8xf16>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf16>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %w = arith.extf %in : f16 to f32
    %v = arith.addf %w, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %n : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %c = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf16>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f16, %mean: f32, %out: f32):
    %w = arith.extf %in : f16 to f32
    %v = arith.subf %w, %mean : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %var = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %q = arith.mulf %in, %in : f32
    %v = arith.addf %q, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %var : tensor<4x8xf32>, tensor<4x1xf32>) outs(%h : tensor<4x8xf16>) {
  ^bb0(%in: f32, %v: f32, %out: f16):
    %d = arith.divf %v, %n : f32
    %r = math.rsqrt %d : f32
    %t = arith.mulf %in, %r : f32
    %u = arith.truncf %t : f32 to f16
    linalg.yield %u : f16
  } -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
// CHECK-LABEL: func.func @shared_centring_f16
// CHECK:       %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x :
// CHECK:       %[[M:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[S]] :
// CHECK:       %[[V:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x, %[[S]] : tensor<4x8xf16>, tensor<4x1xf32>)
// CHECK:       arith.extf {{.*}} : f16 to f32
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%x, %[[M]], %[[V]] :
// CHECK:       arith.truncf
// DEFAULT-LABEL: func.func @shared_centring_f16
// DEFAULT:       %[[C:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%x, %{{.*}} :
// DEFAULT:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[C]] :

// Must not fire: the shared op reads no reduced tensor (a ReLU read by a row sum and by a
// product, an SE block's form): IREE keeps it with its producer; recomputing it in the sum
// would make the sum read a tensor no other dispatch stores.
func.func @shared_not_on_a_reduced_tensor(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %c0 : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %s, %p : tensor<4x1xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: func.func @shared_not_on_a_reduced_tensor
// CHECK:       %[[R:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%x :
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[R]] :
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[R]], %x :

// At the edge: every reader of the centring is a reduction (a sum of squares and a sum of
// cubes): recomputed in both, it leaves no generic of its own.
func.func @shared_by_two_reductions(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>) {
  %c0 = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %c = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %mean = arith.divf %sum, %n : f32
    %v = arith.subf %in, %mean : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %q = arith.mulf %in, %in : f32
    %v = arith.addf %q, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %cu = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %q = arith.mulf %in, %in : f32
    %k = arith.mulf %q, %in : f32
    %v = arith.addf %k, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  return %sq, %cu : tensor<4x1xf32>, tensor<4x1xf32>
}
// CHECK-LABEL: func.func @shared_by_two_reductions
// CHECK:       %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x :
// CHECK-NOT:   iterator_types = ["parallel", "parallel"]
// CHECK:       %[[Q:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x, %[[S]] :
// CHECK-NOT:   iterator_types = ["parallel", "parallel"]
// CHECK:       %[[K:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%x, %[[S]] :
// CHECK:       return %[[Q]], %[[K]]
// DEFAULT-LABEL: func.func @shared_by_two_reductions
// DEFAULT:       %[[C:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// DEFAULT:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[C]] :

// Negative: a shared op with a `math` op in its body, a softmax's `exp(x - max)` read by the
// sum and by the divide, stays one op both read: recomputed in the sum it would be computed
// twice (YOLOv5nu f16's DFL softmax: 88 + 277 us of reductions against raw's 80 + 89).
func.func @shared_softmax_exp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%mi : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.maximumf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%p : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %s : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %v = arith.divf %in, %t : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @shared_softmax_exp
// CHECK:       %[[P:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%x, %{{.*}} :
// CHECK:       math.exp
// CHECK:       %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[P]] :
// CHECK-NOT:   math.exp
// CHECK:       linalg.generic {{.*}} ins(%[[P]], %[[S]] :
// CHECK:       return
// DEFAULT-LABEL: func.func @shared_softmax_exp
// DEFAULT:       math.exp
// DEFAULT:       return
