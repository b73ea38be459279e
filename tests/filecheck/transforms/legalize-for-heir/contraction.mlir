// ContractionToMatvec: a 1xK matmul, a vecmat, a W·x (Kx1) matmul and a batch of rows
// with a constant weight become matvecs; matmuls that do not fit or have no constant
// weight stay.
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=1024}' | filecheck %s
// Without a slot count heirpy picks the fewest slots that hold the wide rows (2048) and
// says so, naming the heir-opt flag:
// RUN: heirpy-opt %s --split-input-file -p legalize-for-heir 2>&1 | filecheck %s --check-prefix=AUTO

// A torch Linear: x (1x3) times W (3x2), accumulator [[1, 2]].
func.func @row(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %c = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x3xf32>, tensor<3x2xf32>) outs(%c : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @row
// CHECK-NEXT: %[[XF:.*]] = tensor.collapse_shape %x {{\[}}[0, 1]] : tensor<1x3xf32> into tensor<3xf32>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[WT:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT: %[[V:.*]] = linalg.matvec ins(%[[WT]], %[[XF]] : tensor<2x3xf32>, tensor<3xf32>) outs(%[[C]] : tensor<2xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %[[V]] {{\[}}[0, 1]] output_shape [1, 2]
// CHECK-NEXT: return %[[R]]

// -----

func.func @vecmat(%x: tensor<3xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %e = arith.constant dense<0.0> : tensor<2xf32>
  %y = linalg.vecmat ins(%x, %w : tensor<3xf32>, tensor<3x2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK-LABEL: func.func @vecmat
// CHECK:      %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK:      %[[WT:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK:      %[[V:.*]] = linalg.matvec ins(%[[WT]], %x : tensor<2x3xf32>, tensor<3xf32>) outs(%[[Z]] : tensor<2xf32>)
// CHECK-NEXT: return %[[V]]

// -----

// W·x with the secret as a 3x1 column.
func.func @column(%x: tensor<3x1xf32>) -> tensor<2x1xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %c = arith.constant dense<0.5> : tensor<2x1xf32>
  %y = linalg.matmul ins(%w, %x : tensor<2x3xf32>, tensor<3x1xf32>) outs(%c : tensor<2x1xf32>) -> tensor<2x1xf32>
  return %y : tensor<2x1xf32>
}
// CHECK-LABEL: func.func @column
// CHECK:      %[[XF:.*]] = tensor.collapse_shape %x {{\[}}[0, 1]] : tensor<3x1xf32> into tensor<3xf32>
// CHECK:      linalg.matvec ins(%{{.*}}, %[[XF]] : tensor<2x3xf32>, tensor<3xf32>)
// CHECK:      tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [2, 1]

// -----

// A batch of two rows: one block-diagonal matrix on the flattened rows; the 2x2 result
// is returned in rows, each computed by its own rows of that matrix.
func.func @two_rows(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<1.0> : tensor<3x2xf32>
  %c = arith.constant dense<0.0> : tensor<2x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @two_rows
// CHECK-NOT:  linalg.matmul
// CHECK:      %[[XF:.*]] = tensor.collapse_shape %x {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK:      linalg.matvec ins(%{{.*}}, %[[XF]] : tensor<2x6xf32>, tensor<6xf32>)
// CHECK:      tensor.insert_slice %{{.*}}[0, 0] [1, 2] [1, 1]
// CHECK-NOT:  linalg.matmul
// CHECK:      arith.constant dense<{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<2x6xf32>
// CHECK:      linalg.matvec ins(%{{.*}}, %[[XF]] : tensor<2x6xf32>, tensor<6xf32>)
// CHECK:      %[[R:.*]] = tensor.insert_slice %{{.*}}[1, 0] [1, 2] [1, 1]
// CHECK-NEXT: return %[[R]]

// -----

// Negative: two rows of 600 (1200 elements) do not fit one 1024-slot ciphertext.
func.func @wide_rows(%x: tensor<2x600xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<1.0> : tensor<600x2xf32>
  %c = arith.constant dense<0.0> : tensor<2x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x600xf32>, tensor<600x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @wide_rows
// CHECK-NOT:  linalg.matvec
// CHECK:      %[[Y:.*]] = linalg.matmul ins(%x, %{{.*}} : tensor<2x600xf32>, tensor<600x2xf32>)
// CHECK-NEXT: return %[[Y]]
// AUTO: remark: legalize-for-heir: the module needs 2048 slots (@wide_rows has a secret tensor of 1200 elements): run heir-opt --torch-linalg-to-ckks=min-slot-count=2048
// AUTO-LABEL: func.func @wide_rows
// AUTO:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<2x1200xf32>, tensor<1200xf32>)

// -----

// Negative: a secret weight is not a plaintext matrix; it stays as it is.
func.func @secret_weight(%x: tensor<1x3xf32>, %w: tensor<3x2xf32>) -> tensor<1x2xf32> {
  %c = arith.constant dense<0.0> : tensor<1x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x3xf32>, tensor<3x2xf32>) outs(%c : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @secret_weight
// CHECK-NOT:  linalg.matvec
// CHECK:      %[[Y:.*]] = linalg.matmul ins(%x, %w : tensor<1x3xf32>, tensor<3x2xf32>)
// CHECK-NEXT: return %[[Y]]
// AUTO-LABEL: func.func @secret_weight(
// AUTO-NOT: tensor.insert_slice

// -----

// A global average pool + Linear written as a reshape then a plain matmul (the form both
// IREE and HEIR compile): the flattened feature map times the Linear's weight divided by
// H*W, repeated over the pooled positions. One matvec on the collapsed map.
func.func @pool_linear_as_matmul(%x: tensor<1x2x2x2xf32>) -> tensor<1x3xf32> {
  %f = tensor.collapse_shape %x [[0], [1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<1x8xf32>
  %w = arith.constant dense<[[0.25, 0.0, -0.25], [0.25, 0.0, -0.25], [0.25, 0.0, -0.25], [0.25, 0.0, -0.25], [0.0, 0.5, 0.125], [0.0, 0.5, 0.125], [0.0, 0.5, 0.125], [0.0, 0.5, 0.125]]> : tensor<8x3xf32>
  %c = arith.constant dense<[[0.5, -0.5, 1.0]]> : tensor<1x3xf32>
  %y = linalg.matmul ins(%f, %w : tensor<1x8xf32>, tensor<8x3xf32>) outs(%c : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}
// CHECK-LABEL: func.func @pool_linear_as_matmul
// CHECK:      %[[XF:.*]] = tensor.collapse_shape %{{.*}} : tensor<1x8xf32> into tensor<8xf32>
// CHECK:      %[[V:.*]] = linalg.matvec ins(%{{.*}}, %[[XF]] : tensor<3x8xf32>, tensor<8xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %[[V]] {{\[}}[0, 1]] output_shape [1, 3]
// CHECK-NEXT: return %[[R]]
// AUTO-LABEL: func.func @pool_linear_as_matmul(
