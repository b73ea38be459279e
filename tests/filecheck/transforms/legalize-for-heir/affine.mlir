// FoldAffineIntoMatvec: a constant scale or shift after a matvec moves into its matrix
// and init (HEIR's own folding forgets the init: benchmarks/heir_bugs/).
// RUN: heirpy-opt %s --split-input-file -p legalize-for-heir | filecheck %s

// (c + W·x) * 2 - 1 with c = [10, 20]: W' = 2W, c' = 2c - 1 = [19, 39].
func.func @scale(%x: tensor<3xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %c = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %y = linalg.matvec ins(%w, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%c : tensor<2xf32>) -> tensor<2xf32>
  %two = arith.constant dense<2.0> : tensor<2xf32>
  %s = arith.mulf %y, %two : tensor<2xf32>
  %one = arith.constant dense<1.0> : tensor<2xf32>
  %t = arith.subf %s, %one : tensor<2xf32>
  return %t : tensor<2xf32>
}
// CHECK-LABEL: func.func @scale
// CHECK:      %[[C:.*]] = arith.constant dense<[1.900000e+01, 3.900000e+01]> : tensor<2xf32>
// CHECK:      %[[W:.*]] = arith.constant dense<{{\[}}[2.000000e+00, 4.000000e+00, 6.000000e+00], [8.000000e+00, 1.000000e+01, 1.200000e+01]]> : tensor<2x3xf32>
// CHECK:      %[[V:.*]] = linalg.matvec ins(%[[W]], %x : tensor<2x3xf32>, tensor<3xf32>) outs(%[[C]] : tensor<2xf32>)
// CHECK-NEXT: return %[[V]]

// -----

// Negative: the matvec has a second user (the scale cannot move into it), and K / v is
// not affine in v.
func.func @shared(%x: tensor<3xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %w = arith.constant dense<1.0> : tensor<2x3xf32>
  %c = arith.constant dense<0.0> : tensor<2xf32>
  %y = linalg.matvec ins(%w, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%c : tensor<2xf32>) -> tensor<2xf32>
  %two = arith.constant dense<2.0> : tensor<2xf32>
  %s = arith.mulf %y, %two : tensor<2xf32>
  %w2 = arith.constant dense<3.0> : tensor<2x3xf32>
  %y2 = linalg.matvec ins(%w2, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%c : tensor<2xf32>) -> tensor<2xf32>
  %q = arith.divf %two, %y2 : tensor<2xf32>
  return %y, %s, %q : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @shared
// CHECK:      %[[Y:.*]] = linalg.matvec
// CHECK:      arith.mulf %[[Y]]
// CHECK:      %[[Y2:.*]] = linalg.matvec
// CHECK:      arith.divf %{{.*}}, %[[Y2]]
