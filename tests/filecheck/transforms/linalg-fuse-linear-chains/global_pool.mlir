// A global average pool (torch's AdaptiveAvgPool2d(1): a generic summing into a
// (d0, d1, 0, 0) output, then a divide) is a linear op: with the flatten and Linear
// after it, one level instead of two. The cost rule weighs its distinct weights (the
// Linear's divided by H*W: 4x3, not 144x3); it is written as a flatten and ONE matmul
// with those weights repeated over H*W (a 144x3 matrix), which IREE's GPU back end and
// HEIR compile (a contraction generic with three reduction loops they do not).
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | heir-opt --split-input-file | filecheck %s --check-prefix=HEIR
// max-mac-growth reaches the cost rule: @gap_linear keeps its weights (3x4) but its
// MACs grow from 144 adds + 12 MACs to 144 x 3 = 2.77x, so a bound of 3 fuses it and a
// bound of 2 refuses it, through this pass and through linalg-fuse-ops.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{max-mac-growth=3}' | filecheck %s --check-prefix=MAC3
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{max-mac-growth=2}' | filecheck %s --check-prefix=MAC2
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{max-mac-growth=2 pointwise=false}' | filecheck %s --check-prefix=MAC2
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
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
// CHECK-LABEL: func.func @gap_linear(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x6x6xf32>
// CHECK-NOT: linalg.{{generic|fill|transpose}}
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1, 2, 3]] : tensor<1x4x6x6xf32> into tensor<1x144xf32>
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<144x3xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<{{.*}}> : tensor<3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x3xf32>
// CHECK-NEXT: %[[I:.*]] = linalg.broadcast ins(%[[B]] : tensor<3xf32>) outs(%[[E]] : tensor<1x3xf32>) dimensions = [0]
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%[[F]], %[[W]] : tensor<1x144xf32>, tensor<144x3xf32>) outs(%[[I]] : tensor<1x3xf32>)
// CHECK-NEXT: return %[[R]]
// MAC3-LABEL: func.func @gap_linear(
// MAC3-NOT: linalg.{{generic|fill|transpose}}
// MAC3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x144xf32>, tensor<144x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// MAC3-NEXT: return
// MAC2-LABEL: func.func @gap_linear(
// MAC2: linalg.generic {{.*}} ins(%x : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<1x4x1x1xf32>)
// MAC2: arith.divf
// MAC2: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<4x3xf32>)
// MAC2: arith.addf
// MAC2: return
// HEIR-LABEL: func.func @gap_linear(
// HEIR-NOT: linalg.generic
// HEIR: linalg.matmul

// -----

// Must not fire: a square between the pool and the Linear (two chains of one op each).
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// HEIR-LABEL: func.func @gap_square_linear(
func.func @gap_square_linear(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
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
  %sq = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m : tensor<1x4x1x1xf32>) outs(%e1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.mulf %in, %in : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  %f = tensor.collapse_shape %sq [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
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
// MAC2-LABEL: func.func @gap_square_linear(
// MAC3-LABEL: func.func @gap_square_linear(
// CHECK-LABEL: func.func @gap_square_linear(
// CHECK-NOT: linalg.generic {{.*}}"reduction", "reduction", "reduction"
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.matmul

// -----

// Must not fire: the pooled value has a second user (the chain would be duplicated).
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gap_two_users(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>, tensor<1x4x1x1xf32>) {
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
  return %r, %m : tensor<1x3xf32>, tensor<1x4x1x1xf32>
}
// CHECK-LABEL: func.func @gap_two_users(
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: linalg.matmul

// -----

// Must not fire: a reduction that is not a sum (a max pool is not linear).
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gap_max(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.maximumf %in, %acc : f32
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
// CHECK-LABEL: func.func @gap_max(
// CHECK: arith.maximumf
// CHECK: linalg.matmul

// -----

// Must not fire: a sum over the batch axis mixes samples.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @sum_over_batch(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sumb], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
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
// CHECK-LABEL: func.func @sum_over_batch(
// CHECK: iterator_types = ["reduction", "parallel", "reduction", "reduction"]
// CHECK: linalg.matmul

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gap_into_an_argument(%x: tensor<1x4x6x6xf32>, %init: tensor<1x4x1x1xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%init : tensor<1x4x1x1xf32>) {
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
// The sum accumulates into a function argument: not a constant init, so the global
// pool is no linear map and stays apart from the Linear (which keeps its own rewrite
// rules).
// CHECK-LABEL: func.func @gap_into_an_argument(
// CHECK: linalg.generic {{.*}}ins(%x : tensor<1x4x6x6xf32>) outs(%init : tensor<1x4x1x1xf32>)
// MAC2-LABEL: func.func @gap_into_an_argument(
// MAC3-LABEL: func.func @gap_into_an_argument(

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gap_of_doubled(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %d = arith.addf %in, %in : f32
    %a = arith.addf %d, %acc : f32
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
// The body sums 2x (three ops): not a plain sum, so no global pool; it stays apart.
// CHECK-LABEL: func.func @gap_of_doubled(
// CHECK: linalg.generic {{.*}}ins(%x : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<1x4x1x1xf32>)
// CHECK: linalg.matmul
// MAC2-LABEL: func.func @gap_of_doubled(
// MAC3-LABEL: func.func @gap_of_doubled(
// HEIR-LABEL: func.func @gap_of_doubled(

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gap_overwrites(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %in : f32
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
// The body never reads its accumulator (each step overwrites it): not a sum.
// CHECK-LABEL: func.func @gap_overwrites(
// CHECK: linalg.generic {{.*}}ins(%x : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<1x4x1x1xf32>)
// CHECK: linalg.matmul
// MAC2-LABEL: func.func @gap_overwrites(
// MAC3-LABEL: func.func @gap_overwrites(
// HEIR-LABEL: func.func @gap_overwrites(
