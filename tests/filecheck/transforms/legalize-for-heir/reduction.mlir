// SplitReductionPrologue, LinearGenericToMatvec, ComposeMatvecs: a global average pool
// with the square fused into it (heirpy's MobileNet-block output; heir-opt crashes on
// it) becomes x² on the flat vector, then ONE matvec for the sum, its /4 and the Linear
// after it; a contraction generic is one matvec.
// RUN: heirpy-opt %s --split-input-file -p legalize-for-heir | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=4}' | filecheck %s --check-prefix=SMALL

// x² inside the sum over H and W, then /4 (constant in the body, as torch writes it),
// flatten, Linear 2 -> 3: x² over the loop space, flattened, then a 3x8 matvec.
func.func @gap_square_linear(%x: tensor<1x2x2x2xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant dense<0.0> : tensor<1x2x1x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x2x2x2xf32>) outs(%zero : tensor<1x2x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x2x1x1xf32>
  %e = tensor.empty() : tensor<1x2x1x1xf32>
  %avg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x2x1x1xf32>) outs(%e : tensor<1x2x1x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %four = arith.constant 4.0 : f32
    %d = arith.divf %a, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x2x1x1xf32>
  %flat = tensor.collapse_shape %avg [[0], [1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<1x2xf32>
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[0.5, -0.5, 1.0]]> : tensor<1x3xf32>
  %y = linalg.matmul ins(%flat, %w : tensor<1x2xf32>, tensor<2x3xf32>) outs(%b : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @gap_square_linear
// CHECK-NOT:  "reduction"
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<1x2x2x2xf32>
// CHECK:      %[[SQ:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP0]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x2x2xf32>) outs(%[[E]] : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^{{.*}}(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[P:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK-NEXT:   linalg.yield %[[P]] : f32
// CHECK-NEXT: } -> tensor<1x2x2x2xf32>
// CHECK-NEXT: %[[XF:.*]] = tensor.collapse_shape %[[SQ]] {{\[}}[0, 1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<8xf32>
// The Linear's column 0 over the 4 elements of channel 0, each / 4: 0.25; channel 1: 1.0.
// CHECK:      %[[B:.*]] = arith.constant dense<[5.000000e-01, -5.000000e-01, 1.000000e+00]> : tensor<3xf32>
// CHECK:      %[[M:.*]] = arith.constant dense<{{\[}}[2.500000e-01, 2.500000e-01, 2.500000e-01, 2.500000e-01, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [5.000000e-01, {{.*}}]]> : tensor<3x8xf32>
// CHECK:      %[[V:.*]] = linalg.matvec ins(%[[M]], %[[XF]] : tensor<3x8xf32>, tensor<8xf32>) outs(%[[B]] : tensor<3xf32>)
// CHECK-NEXT: %[[Y:.*]] = tensor.expand_shape %[[V]] {{\[}}[0, 1]] output_shape [1, 3]
// CHECK-NEXT: return %[[Y]]

// With 4 slots the 8-element loop space does not fit: the fused reduction stays.
// SMALL-LABEL: func.func @gap_square_linear
// SMALL:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// SMALL:         arith.mulf
// SMALL-NEXT:    arith.addf

// -----

// heirpy's global average pool + Linear as one contraction generic: one 2x8 matvec
// (row o: channel c's four elements times w[o, c]).
// SMALL-LABEL: func.func @contraction(
func.func @contraction(%x: tensor<1x2x2x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[1.0, -1.0]]> : tensor<1x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x2x2x2xf32>, tensor<2x2xf32>) outs(%b : tensor<1x2xf32>) {
  ^bb0(%a: f32, %k: f32, %acc: f32):
    %p = arith.mulf %a, %k : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @contraction
// CHECK-NOT:  linalg.generic
// CHECK:      %[[XF:.*]] = tensor.collapse_shape %x
// CHECK:      %[[B:.*]] = arith.constant dense<[1.000000e+00, -1.000000e+00]> : tensor<2xf32>
// CHECK:      %[[A:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00], [3.000000e+00, 3.000000e+00, 3.000000e+00, 3.000000e+00, 4.000000e+00, 4.000000e+00, 4.000000e+00, 4.000000e+00]]> : tensor<2x8xf32>
// CHECK:      %[[V:.*]] = linalg.matvec ins(%[[A]], %[[XF]] : tensor<2x8xf32>, tensor<8xf32>) outs(%[[B]] : tensor<2xf32>)
// CHECK-NEXT: tensor.expand_shape %[[V]]

// -----

// Negative: a product reduction (acc * x) and a max reduction are not linear and sum
// no term: both stay as they are.
func.func @not_sums(%x: tensor<1x4xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %one = arith.constant dense<1.0> : tensor<1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x4xf32>) outs(%one : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1xf32>
  %low = arith.constant dense<-1.0e+30> : tensor<1xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<1x4xf32>) outs(%low : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1xf32>
  return %p, %q : tensor<1xf32>, tensor<1xf32>
}
// CHECK-LABEL: func.func @not_sums
// CHECK-NOT:  linalg.matvec
// CHECK:      linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:   arith.mulf
// CHECK:      linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:   arith.maximumf

// -----

// Negative: the inner matvec has a second user (composing would compute it twice), so
// the two matvecs stay apart.
func.func @shared_matvec(%x: tensor<3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = arith.constant dense<[[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]> : tensor<2x3xf32>
  %c = arith.constant dense<0.0> : tensor<2xf32>
  %h = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%c : tensor<2xf32>) -> tensor<2xf32>
  %b = arith.constant dense<[[2.0, 1.0], [1.0, 3.0]]> : tensor<2x2xf32>
  %y = linalg.matvec ins(%b, %h : tensor<2x2xf32>, tensor<2xf32>) outs(%c : tensor<2xf32>) -> tensor<2xf32>
  return %h, %y : tensor<2xf32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @shared_matvec
// CHECK:      %[[H:.*]] = linalg.matvec ins(%{{.*}}, %x : tensor<2x3xf32>, tensor<3xf32>)
// CHECK:      %[[Y:.*]] = linalg.matvec ins(%{{.*}}, %[[H]] : tensor<2x2xf32>, tensor<2xf32>)
// CHECK:      return %[[H]], %[[Y]]

// -----

// Positive for ComposeMatvecs alone: (B·(A·x + a) + b) = (BA)·x + (Ba + b).
func.func @chained_matvecs(%x: tensor<3xf32>) -> tensor<2xf32> {
  %a = arith.constant dense<[[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]> : tensor<2x3xf32>
  %ca = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %h = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%ca : tensor<2xf32>) -> tensor<2xf32>
  %b = arith.constant dense<[[2.0, 1.0], [1.0, 3.0]]> : tensor<2x2xf32>
  %cb = arith.constant dense<[0.5, 0.5]> : tensor<2xf32>
  %y = linalg.matvec ins(%b, %h : tensor<2x2xf32>, tensor<2xf32>) outs(%cb : tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK-LABEL: func.func @chained_matvecs
// CHECK:      %[[C:.*]] = arith.constant dense<[4.500000e+00, 7.500000e+00]> : tensor<2xf32>
// CHECK:      %[[M:.*]] = arith.constant dense<{{\[}}[2.000000e+00, 1.000000e+00, 2.000000e+00], [1.000000e+00, 3.000000e+00, 1.000000e+00]]> : tensor<2x3xf32>
// CHECK:      %[[Y:.*]] = linalg.matvec ins(%[[M]], %x : tensor<2x3xf32>, tensor<3xf32>) outs(%[[C]] : tensor<2xf32>)
// CHECK-NEXT: return %[[Y]]

// -----

// Negative: a "sum" over a size-1 loop is a copy (softmax's sum over a last axis of 1):
// no linear stage, so no matvec (it would cost a level for nothing).
func.func @size_one_sum(%x: tensor<2x1xf32>) -> tensor<2xf32> {
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x1xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x1xf32>) outs(%e : tensor<2x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<2x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<2x1xf32>) outs(%z : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @size_one_sum
// CHECK-NOT:  linalg.matvec
// CHECK:      linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:   arith.addf
// CHECK:      return
