// ExpandInPieces, SliceOfMatvec, SliceOfElementwise: a returned matvec result with
// several non-unit dims that cannot come out of a conv (result-conv.mlir) is assembled
// from rows, each computed by its own matvec. Here the conv would read the 5-element
// argument, which is not a power of two long and cannot be padded (HEIR then masks it:
// one level, as the pieces' inserts cost).
// RUN: heirpy-opt %s --split-input-file -p legalize-for-heir | filecheck %s

func.func @rows(%x: tensor<5xf32>) -> tensor<2x3xf32> {
  %a = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.5], [0.0, 1.0, 0.0, 0.0, 0.5], [0.0, 0.0, 1.0, 0.0, 0.5], [0.0, 0.0, 0.0, 1.0, 0.5], [1.0, 1.0, 0.0, 0.0, 0.5], [0.0, 0.0, 1.0, 1.0, 0.5]]> : tensor<6x5xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %h = linalg.matvec ins(%a, %x : tensor<6x5xf32>, tensor<5xf32>) outs(%b : tensor<6xf32>) -> tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%h : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<6xf32>
  %t = tensor.expand_shape %s [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @rows
// CHECK-NOT:  tensor.extract_slice
// CHECK:      %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK:      %[[B0:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK:      %[[A0:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e-01], [0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e-01], [0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 5.000000e-01]]> : tensor<3x5xf32>
// CHECK:      %[[H0:.*]] = linalg.matvec ins(%[[A0]], %x : tensor<3x5xf32>, tensor<5xf32>) outs(%[[B0]] : tensor<3xf32>)
// CHECK:      %[[S0:.*]] = linalg.generic {{.*}} ins(%[[H0]] : tensor<3xf32>)
// CHECK:      %[[E0:.*]] = tensor.expand_shape %[[S0]] {{\[}}[0, 1]] output_shape [1, 3] : tensor<3xf32> into tensor<1x3xf32>
// CHECK:      %[[D0:.*]] = tensor.insert_slice %[[E0]] into %[[ZERO]][0, 0] [1, 3] [1, 1]
// CHECK-NOT:  tensor.extract_slice
// CHECK:      linalg.matvec ins(%{{.*}}, %x : tensor<3x5xf32>, tensor<5xf32>)
// CHECK:      %[[D1:.*]] = tensor.insert_slice %{{.*}} into %[[D0]][1, 0] [1, 3] [1, 1]
// CHECK-NOT:  tensor.extract_slice
// CHECK:      return %[[D1]]

// -----

// Negative: an expand that only adds unit dims is legal for HEIR and stays; an expand
// used by something other than the return stays too.
func.func @unit_dims(%x: tensor<4xf32>) -> (tensor<1x4xf32>, tensor<2x2xf32>) {
  %a = arith.constant dense<1.0> : tensor<4x4xf32>
  %b = arith.constant dense<0.0> : tensor<4xf32>
  %h = linalg.matvec ins(%a, %x : tensor<4x4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  %t = tensor.expand_shape %h [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  %u = tensor.expand_shape %h [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %v = linalg.transpose ins(%u : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t, %v : tensor<1x4xf32>, tensor<2x2xf32>
}
// CHECK-LABEL: func.func @unit_dims
// CHECK-NOT:  tensor.insert_slice
// CHECK:      %[[T:.*]] = tensor.expand_shape %{{.*}} output_shape [1, 4]
// CHECK-NEXT: %[[U:.*]] = tensor.expand_shape %{{.*}} output_shape [2, 2]
// CHECK-NOT:  tensor.insert_slice
// CHECK:      return %[[T]], %{{.*}}

// -----

// SliceOfElementwise with a stride: x² + k read at every second element from 1 is x²
// of that slice of %x, plus the same elements of k folded at compile time.
func.func @strided_slice(%x: tensor<10xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]> : tensor<10xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %k : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %a = arith.addf %sq, %c : f32
    linalg.yield %a : f32
  } -> tensor<10xf32>
  %p = tensor.extract_slice %s[1] [4] [2] : tensor<10xf32> to tensor<4xf32>
  return %p : tensor<4xf32>
}
// CHECK-LABEL: func.func @strided_slice
// CHECK-NEXT: %[[P:.*]] = tensor.extract_slice %x[1] [4] [2] : tensor<10xf32> to tensor<4xf32>
// CHECK-NEXT: %[[K:.*]] = arith.constant dense<[2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[K]] : tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK:      } -> tensor<4xf32>
// CHECK-NEXT: return %[[G]]
