// A global average pool + Linear as ONE contraction generic (`contraction-form`,
// `chains.emit_contraction_generic`): the input read by (b, c, h, w), the Linear's
// weight (with the pool's 1/36 folded in: 3x4 values, not the 144x3 dense matrix) by
// (o, c), a broadcast over h and w; the three input axes are reductions. The main
// pipeline writes it only where the dense matrix passes 2^22 entries (tests/unit/
// test_depth_bound_invariance.py checks the cap at, under and past its limit, and that
// iree-prepare never writes it); here `contraction-form=generic` forces it on small
// heads. legalize-for-heir turns it into one matvec (its dense matrix written from the
// maps), which heir-opt reads; the values stay (heirpy-equiv, f32 and f16).
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{contraction-form=generic}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{contraction-form=generic}' 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{contraction-form=generic}' 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{contraction-form=matmul}' 2>/dev/null | filecheck %s --check-prefix=MATMUL
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains' 2>/dev/null | filecheck %s --check-prefix=MATMUL
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{contraction-form=generic},legalize-for-heir' 2>/dev/null | heir-opt | filecheck %s --check-prefix=HEIR
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{contraction-form=generic}' -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function gap_linear | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function gap_linear_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function gap_linear_runtime_weight | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function mixed_pool_head_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function scaled_gap_linear | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function conv3x3_gap_linear | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function window_pool_linear | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %t -p legalize-for-heir -o %t.heir 2>/dev/null
// RUN: heirpy-equiv %s %t.heir --function gap_linear | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.heir --function gap_linear_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.heir --function mixed_pool_head_f16 | filecheck %s --check-prefix=EQUIV
// RUN: not heirpy-opt %s -p 'linalg-fuse-linear-chains{contraction-form=dense}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not heirpy-opt %s -p 'linalg-fuse-ops{contraction-form=dense}' 2>&1 | filecheck %s --check-prefix=BADOPS
// BAD: error: linalg-fuse-linear-chains{{[{]}}contraction-form=dense}: expected one of auto, matmul, generic
// BADOPS: error: linalg-fuse-ops{{[{]}}contraction-form=dense}: expected one of auto, matmul, generic
// EQUIV: equivalent
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>

// The pool, its divide, the flatten, the transpose, the Linear and its bias: one generic
// whose weight is the Linear's divided by 36 (0.35 / 36 = 0.00972...), its init the bias.
// CHECK-LABEL: func.func @gap_linear(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x6x6xf32>
// CHECK-NOT: linalg.matmul
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}0.00972{{[0-9]*}}, {{.*}}> : tensor<3x4xf32>
// CHECK: %[[B:.*]] = arith.constant dense<[-7.400000e-01, -1.600000e-01, -4.800000e-01]> : tensor<3xf32>
// CHECK: %[[I:.*]] = linalg.broadcast ins(%[[B]] : tensor<3xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[X]], %[[W]] : tensor<1x4x6x6xf32>, tensor<3x4xf32>) outs(%[[I]] : tensor<1x3xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[K:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[A]], %[[K]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NOT: linalg.matmul
// CHECK: return
// REPARSE-LABEL: func.func @gap_linear(
// REPARSE: linalg.generic
// REPARSE-LABEL: func.func @gap_linear_f16(
// MATMUL-LABEL: func.func @gap_linear(
// MATMUL-NOT: "reduction", "reduction", "reduction"
// MATMUL: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x144xf32>, tensor<144x3xf32>)
// HEIR-LABEL: func.func @gap_linear(
// HEIR-NOT: linalg.generic
// HEIR: linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x144xf32>, tensor<144xf32>)
func.func @gap_linear(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf32>) outs(%e1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%e2 : tensor<4x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}


// f16 throughout: the weight is stored in f16 (rounded once from float64), the product
// and the sum in f16, as the f16 matmul it replaces.
// CHECK-LABEL: func.func @gap_linear_f16(
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {{.*}}"reduction", "reduction", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<1x4x6x6xf16>, tensor<3x4xf16>) outs(%{{.*}} : tensor<1x3xf16>)
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f16
// CHECK-NOT: linalg.matmul
// CHECK: return
// MATMUL-LABEL: func.func @gap_linear_f16(
// MATMUL: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x144xf16>, tensor<144x3xf16>)
// HEIR-LABEL: func.func @gap_linear_f16(
// HEIR-NOT: linalg.generic {{.*}}"reduction"
// HEIR: linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x144xf16>, tensor<144xf16>)
func.func @gap_linear_f16(%x: tensor<1x4x6x6xf16>) -> (tensor<1x3xf16>) {
  %zero = arith.constant 0.0 : f16
  %n = arith.constant 36.0 : f16
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf16>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf16>
  %e1 = tensor.empty() : tensor<1x4x1x1xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x4x1x1xf16>) -> tensor<1x4x1x1xf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf16>) outs(%z1 : tensor<1x4x1x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<1x4x1x1xf16>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf16>) outs(%e1 : tensor<1x4x1x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %q = arith.divf %in, %n : f16
    linalg.yield %q : f16
  } -> tensor<1x4x1x1xf16>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf16> into tensor<1x4xf16>
  %e2 = tensor.empty() : tensor<4x3xf16>
  %wt = linalg.transpose ins(%w : tensor<3x4xf16>) outs(%e2 : tensor<4x3xf16>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf16>
  %z3 = linalg.fill ins(%zero : f16) outs(%e3 : tensor<1x3xf16>) -> tensor<1x3xf16>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf16>, tensor<4x3xf16>) outs(%z3 : tensor<1x3xf16>) -> tensor<1x3xf16>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf16>, tensor<3xf16>) outs(%e3 : tensor<1x3xf16>) {
  ^bb0(%in: f16, %bb: f16, %out: f16):
    %v = arith.addf %in, %bb : f16
    linalg.yield %v : f16
  } -> tensor<1x3xf16>
  return %r : tensor<1x3xf16>
}


// Must not fire: the Linear's weight is a function argument, not a constant (no chain
// step): the pool stays a sum and the matmul stays.
// CHECK-LABEL: func.func @gap_linear_runtime_weight(
// CHECK-NOT: "reduction", "reduction", "reduction"
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: linalg.matmul
// MATMUL-LABEL: func.func @gap_linear_runtime_weight(
// HEIR-LABEL: func.func @gap_linear_runtime_weight(
func.func @gap_linear_runtime_weight(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf32>) outs(%e1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%e2 : tensor<4x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}


// Must not fire: the pool is not global (a 3x3 window, stride 3: 6x6 -> 2x2), so the
// chain starts with no sum over whole sample axes and is no contraction, whatever
// contraction-form says; its only other form, the dense 144 x 3 matrix, grows the
// weights 7.6x for one level, past the cost rule: pool and Linear stay.
// CHECK-LABEL: func.func @window_pool_linear(
// CHECK-NOT: "reduction", "reduction", "reduction"
// CHECK: linalg.pooling_nchw_sum
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x16xf32>, tensor<16x3xf32>)
// MATMUL-LABEL: func.func @window_pool_linear(
// HEIR-LABEL: func.func @window_pool_linear(
func.func @window_pool_linear(%x: tensor<1x4x6x6xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 9.0 : f32
  %win = tensor.empty() : tensor<3x3xf32>
  %w = arith.constant dense<0.25> : tensor<16x3xf32>
  %e1 = tensor.empty() : tensor<1x4x2x2xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<3> : vector<2xi64>} ins(%x, %win : tensor<1x4x6x6xf32>, tensor<3x3xf32>) outs(%z1 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x4x2x2xf32>) outs(%e1 : tensor<1x4x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x2x2xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x2x2xf32> into tensor<1x16xf32>
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %w : tensor<1x16xf32>, tensor<16x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %mm : tensor<1x3xf32>
}

// torch-mlir's mixed f16 form (tests/.../half_precision_global_pool.mlir's @pool_head_f16:
// an f16 pool and divide, the Linear's extf to f32, an f32 matmul, a truncf): the
// generic reads the f16 input and an f16 weight (the Linear's / 15, rounded once) and
// widens both in its body; the f32 accumulator stays, one truncf at the end.
// CHECK-LABEL: func.func @mixed_pool_head_f16(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x3x5xf16>
// CHECK-NOT: linalg.matmul
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<3x2xf16>
// CHECK: linalg.generic {{.*}}"reduction", "reduction", "reduction"]} ins(%[[X]], %[[W]] : tensor<1x2x3x5xf16>, tensor<3x2xf16>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f16, %[[K:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[AW:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: %[[KW:.*]] = arith.extf %[[K]] : f16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[AW]], %[[KW]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: linalg.matmul
// CHECK: return
// MATMUL-LABEL: func.func @mixed_pool_head_f16(
// MATMUL: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x30xf32>, tensor<30x3xf32>)
// HEIR-LABEL: func.func @mixed_pool_head_f16(
// HEIR-NOT: "reduction"
// HEIR: linalg.matvec
func.func @mixed_pool_head_f16(%x: tensor<1x2x3x5xf16>) -> tensor<1x3xf16> {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %n = arith.constant 15.0 : f16
  %w = arith.constant dense<[[0.25, -0.75, 0.5], [1.125, 0.375, -0.625]]> : tensor<2x3xf16>
  %b = arith.constant dense<[0.125, -0.5, 0.25]> : tensor<3xf16>
  %e1 = tensor.empty() : tensor<1x2x1x1xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x2x1x1xf16>) -> tensor<1x2x1x1xf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x2x3x5xf16>) outs(%z1 : tensor<1x2x1x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<1x2x1x1xf16>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x1x1xf16>) outs(%e1 : tensor<1x2x1x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %q = arith.divf %in, %n : f16
    linalg.yield %q : f16
  } -> tensor<1x2x1x1xf16>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x2x1x1xf16> into tensor<1x2xf16>
  %ef = tensor.empty() : tensor<1x2xf32>
  %fw = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<1x2xf16>) outs(%ef : tensor<1x2xf32>) {
  ^bb0(%in: f16, %out: f32):
    %c = arith.extf %in : f16 to f32
    linalg.yield %c : f32
  } -> tensor<1x2xf32>
  %ew = tensor.empty() : tensor<2x3xf32>
  %ww = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf16>) outs(%ew : tensor<2x3xf32>) {
  ^bb0(%in: f16, %out: f32):
    %c = arith.extf %in : f16 to f32
    linalg.yield %c : f32
  } -> tensor<2x3xf32>
  %eb = tensor.empty() : tensor<3xf32>
  %bw = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%b : tensor<3xf16>) outs(%eb : tensor<3xf32>) {
  ^bb0(%in: f16, %out: f32):
    %c = arith.extf %in : f16 to f32
    linalg.yield %c : f32
  } -> tensor<3xf32>
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero32 : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%fw, %ww : tensor<1x2xf32>, tensor<2x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %bw : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  %e4 = tensor.empty() : tensor<1x3xf16>
  %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<1x3xf32>) outs(%e4 : tensor<1x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %c = arith.truncf %in : f32 to f16
    linalg.yield %c : f16
  } -> tensor<1x3xf16>
  return %t : tensor<1x3xf16>
}

// A step before the sum that maps every position alike (MobileNetV3's hardswish ends in
// "/ 6" on the pool's input): it commutes with the sum, so it folds into the weight
// (0.35 / 36 / 6 = 0.00162...) and the chain is still one contraction.
// CHECK-LABEL: func.func @scaled_gap_linear(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x6x6xf32>
// CHECK-NOT: linalg.matmul
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}0.00162{{[0-9]*}}, {{.*}}> : tensor<3x4xf32>
// CHECK: linalg.generic {{.*}}"reduction", "reduction", "reduction"]} ins(%[[X]], %[[W]] : tensor<1x4x6x6xf32>, tensor<3x4xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: return
// MATMUL-LABEL: func.func @scaled_gap_linear(
// MATMUL: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x144xf32>, tensor<144x3xf32>)
// HEIR-LABEL: func.func @scaled_gap_linear(
// HEIR: linalg.matvec
func.func @scaled_gap_linear(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %six = arith.constant 6.0 : f32
  %e0 = tensor.empty() : tensor<1x4x6x6xf32>
  %x6 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x6x6xf32>) outs(%e0 : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %six : f32
    linalg.yield %d : f32
  } -> tensor<1x4x6x6xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x6 : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf32>) outs(%e1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%e2 : tensor<4x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// Not a contraction: a 3x3 conv before the sum mixes positions (the sum of its outputs
// is not one map of the summed input), so the chain takes another form or none.
// CHECK-LABEL: func.func @conv3x3_gap_linear(
// CHECK-NOT: "reduction", "reduction", "reduction"
// CHECK: return
// MATMUL-LABEL: func.func @conv3x3_gap_linear(
// HEIR-LABEL: func.func @conv3x3_gap_linear(
func.func @conv3x3_gap_linear(%x: tensor<1x4x8x8xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %k = arith.constant dense<0.125> : tensor<4x4x3x3xf32>
  %e0 = tensor.empty() : tensor<1x4x6x6xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%z0 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%c : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf32>) outs(%e1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%e2 : tensor<4x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
