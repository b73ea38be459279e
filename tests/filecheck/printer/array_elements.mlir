// An array element that is an i64 integer or an f64 float prints without its type, as
// MLIR prints it (a reassociation is `[[0, 1], [2]]`, not `[[0 : i64, 1 : i64], [2 : i64]]`);
// any other element, and any value outside an array, keeps its type. Both spellings
// parse; what heirpy prints re-parses in heirpy and in heir-opt, which prints it the same.
// RUN: heirpy-opt %s | filecheck %s
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: heirpy-opt %s --print-op-generic | heir-opt | filecheck %s

// CHECK-LABEL: func.func @reassociation(
// CHECK-SAME:      attributes {count = 5 : i64, nested = {x = [1]}, values = [1.500000e+00, 2.000000e+00 : f32, true, 3 : index, -4, 7 : i32, {{\[}}[5]]]}
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] {tag = 1 : i32} : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK:       tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [2, 3, %{{.*}}, 2] : tensor<2x3x?xf32> into tensor<2x3x?x2xf32>
// GENERIC:     "tensor.collapse_shape"(%{{.*}}) <{reassociation = {{\[}}[0, 1], [2]]}> {tag = 1 : i32}
// GENERIC:     "tensor.expand_shape"(%{{.*}}) <{reassociation = {{\[}}[0, 1], [2]], static_output_shape = array<i64: 2, 3, 4>}>
func.func @reassociation(%a: tensor<2x3x4xf32>, %d: tensor<2x3x?xf32>, %n: index) -> tensor<6x4xf32>
    attributes {values = [1.5, 2.0 : f32, true, 3 : index, -4 : i64, 7 : i32, [[5]]], count = 5 : i64, nested = {x = [1]}} {
  %0 = tensor.collapse_shape %a [[0, 1], [2]] {tag = 1 : i32} : tensor<2x3x4xf32> into tensor<6x4xf32>
  %1 = tensor.expand_shape %0 [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  // xDSL's spelling, with the types, still reads.
  %2 = tensor.collapse_shape %1 [[0 : i64, 1 : i64], [2 : i64]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %b = tensor.empty() : tensor<1x1xf32>
  %3 = tensor.collapse_shape %b [] : tensor<1x1xf32> into tensor<f32>
  %4 = tensor.expand_shape %d [[0], [1], [2, 3]] output_shape [2, 3, %n, 2] : tensor<2x3x?xf32> into tensor<2x3x?x2xf32>
  return %2 : tensor<6x4xf32>
}
