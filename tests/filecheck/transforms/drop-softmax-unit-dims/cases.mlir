// drop-softmax-unit-dims: a linalg.softmax over a tensor with unit dimensions runs over
// the tensor without them, between a collapse_shape and an expand_shape (attention's
// 1xHxTxT scores, a leading and a trailing unit axis, an inner one); what stays: a
// softmax with no unit axis, a softmax along its only unit axis. Numerics:
// tests/unit/test_filecheck_numerics.py runs every chunk before/after through heirpy's
// evaluator.
// RUN: heirpy-opt %s --split-input-file -p drop-softmax-unit-dims | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p drop-softmax-unit-dims | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// Attention's scores as heirpy raises them: 1x2x3x3 behind the batch matmul's expand.
func.func @attention_scores(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %s = linalg.softmax dimension(3) ins(%x : tensor<1x2x3x3xf32>) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %s : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @attention_scores
// CHECK:       %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2], [3]] : tensor<1x2x3x3xf32> into tensor<2x3x3xf32>
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<2x3x3xf32>
// CHECK-NEXT:  %[[S:.*]] = linalg.softmax dimension(2) ins(%[[C]] : tensor<2x3x3xf32>) outs(%[[E]] : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
// CHECK-NEXT:  %[[R:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2], [3]] output_shape [1, 2, 3, 3] : tensor<2x3x3xf32> into tensor<1x2x3x3xf32>
// CHECK-NEXT:  return %[[R]]
// MLIR-LABEL:  func.func @attention_scores
// MLIR:        linalg.softmax dimension(2)
// MLIR-LABEL:  func.func @leading_inner_trailing

// -----

// Unit axes before, between and after: each joins a neighbour; the softmax axis (1 of
// 5, size 4) becomes axis 0 of 4x3.
func.func @leading_inner_trailing(%x: tensor<1x4x1x3x1xf32>) -> tensor<1x4x1x3x1xf32> {
  %e = tensor.empty() : tensor<1x4x1x3x1xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<1x4x1x3x1xf32>) outs(%e : tensor<1x4x1x3x1xf32>) -> tensor<1x4x1x3x1xf32>
  return %s : tensor<1x4x1x3x1xf32>
}
// CHECK-LABEL: func.func @leading_inner_trailing
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3, 4]] : tensor<1x4x1x3x1xf32> into tensor<4x3xf32>
// CHECK:       linalg.softmax dimension(0) ins(%{{.*}} : tensor<4x3xf32>)
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3, 4]] output_shape [1, 4, 1, 3, 1] : tensor<4x3xf32> into tensor<1x4x1x3x1xf32>

// -----

// Stays: no unit axis.
func.func @no_unit_axis(%x: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %e = tensor.empty() : tensor<2x3x3xf32>
  %s = linalg.softmax dimension(2) ins(%x : tensor<2x3x3xf32>) outs(%e : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %s : tensor<2x3x3xf32>
}
// CHECK-LABEL: func.func @no_unit_axis
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       linalg.softmax dimension(2) ins(%{{.*}} : tensor<2x3x3xf32>)
// CHECK-NOT:   tensor.expand_shape
// CHECK:       return

// -----

// Stays: the only unit axis is the softmax's own (each value is 1.0; kept as written).
func.func @along_unit_axis(%x: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %e = tensor.empty() : tensor<4x1xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x1xf32>) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// CHECK-LABEL: func.func @along_unit_axis
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       linalg.softmax dimension(1) ins(%{{.*}} : tensor<4x1xf32>)
// CHECK:       return
