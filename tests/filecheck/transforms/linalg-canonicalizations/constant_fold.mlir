// Constant folding: fill, broadcast (dense, splat, dense_resource), transpose,
// extract_slice of a broadcast constant; and where it must not fire.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file > /dev/null

// CHECK-LABEL: func.func @fill
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<1x512xf32>
// CHECK-NEXT: return %[[C]]
func.func @fill() -> tensor<1x512xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  %3 = tensor.empty() : tensor<1x512xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<1x512xf32>) -> tensor<1x512xf32>
  return %4 : tensor<1x512xf32>
}

// -----

// CHECK-LABEL: func.func @fill_of_argument
// CHECK: linalg.fill
func.func @fill_of_argument(%v: f32) -> tensor<4xf32> {
  %3 = tensor.empty() : tensor<4xf32>
  %4 = linalg.fill ins(%v : f32) outs(%3 : tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_splat
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<1x512xf32>
// CHECK-NEXT: return %[[C]]
func.func @broadcast_splat() -> tensor<1x512xf32> {
  %cst_0 = arith.constant dense<1.000000e+00> : tensor<f32>
  %1 = tensor.empty() : tensor<1x512xf32>
  %b = linalg.broadcast ins(%cst_0 : tensor<f32>) outs(%1 : tensor<1x512xf32>) dimensions = [0, 1]
  return %b : tensor<1x512xf32>
}

// -----

// Must not fire: a broadcast of a varying vector that an op computes with would be
// written out once per column; the constant stays [3] (its content) and the broadcast
// stays an op.
// CHECK-LABEL: func.func @broadcast_dense(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.broadcast ins(%[[C]] : tensor<3xf32>) outs(%[[E]] : tensor<3x2xf32>) dimensions = [1]
// CHECK-NEXT: %[[S:.*]] = arith.addf %x, %[[R]] : tensor<3x2xf32>
// CHECK-NEXT: return %[[S]]
func.func @broadcast_dense(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %cst = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = tensor.empty() : tensor<3x2xf32>
  %1 = linalg.broadcast ins(%cst : tensor<3xf32>) outs(%0 : tensor<3x2xf32>) dimensions = [1]
  %2 = arith.addf %x, %1 : tensor<3x2xf32>
  return %2 : tensor<3x2xf32>
}

// -----

// A broadcast the function only returns is what the function produces anyway: it
// folds to the literal, as HEIR folds it.
// CHECK-LABEL: func.func @broadcast_dense_returned(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 1.000000e+00], [2.000000e+00, 2.000000e+00], [3.000000e+00, 3.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @broadcast_dense_returned() -> tensor<3x2xf32> {
  %cst = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = tensor.empty() : tensor<3x2xf32>
  %1 = linalg.broadcast ins(%cst : tensor<3xf32>) outs(%0 : tensor<3x2xf32>) dimensions = [1]
  return %1 : tensor<3x2xf32>
}

// -----

// Must not fire either on a varying blob that an op uses, even when it is returned too.
// CHECK-LABEL: func.func @broadcast_dense_resource(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense_resource<resource1> : tensor<4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.broadcast ins(%[[C]] : tensor<4xf32>) outs(%[[E]] : tensor<4x2xf32>) dimensions = [1]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %x, %[[R]] : tensor<4x2xf32>
// CHECK-NEXT: return %[[M]], %[[R]]
func.func @broadcast_dense_resource(%x: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %cst = arith.constant dense_resource<resource1> : tensor<4xf32>
  %0 = tensor.empty() : tensor<4x2xf32>
  %1 = linalg.broadcast ins(%cst : tensor<4xf32>) outs(%0 : tensor<4x2xf32>) dimensions = [1]
  %2 = arith.mulf %x, %1 : tensor<4x2xf32>
  return %2, %1 : tensor<4x2xf32>, tensor<4x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      resource1: "0x04000000CDCC8C3FCDCC0C4033335340CDCC8C40"
    }
  }
#-}

// -----

// A blob whose values are all equal folds to a splat.
// CHECK-LABEL: func.func @broadcast_splat_dense_resource
// CHECK-NEXT: arith.constant dense<5.506250e+00> : tensor<4x2xf32>
func.func @broadcast_splat_dense_resource() -> tensor<4x2xf32> {
  %cst = arith.constant dense_resource<resource2> : tensor<4xf32>
  %0 = tensor.empty() : tensor<4x2xf32>
  %1 = linalg.broadcast ins(%cst : tensor<4xf32>) outs(%0 : tensor<4x2xf32>) dimensions = [1]
  return %1 : tensor<4x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      resource2: "0x040000003333B0403333B0403333B0403333B040"
    }
  }
#-}

// -----

// A broadcast that only adds unit dims stores nothing more (it becomes a reshape).
// CHECK-LABEL: func.func @broadcast_unit_dims
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @broadcast_unit_dims() -> tensor<1x2xf32> {
  %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = tensor.empty() : tensor<1x2xf32>
  %1 = linalg.broadcast ins(%cst : tensor<2xf32>) outs(%0 : tensor<1x2xf32>) dimensions = [0]
  return %1 : tensor<1x2xf32>
}

// -----

// Must not fire: the result would be a non-splat constant over 1 MiB.
// CHECK-LABEL: func.func @broadcast_too_large
// CHECK: linalg.broadcast
func.func @broadcast_too_large() -> tensor<2x512x512xf32> {
  %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = tensor.empty() : tensor<2x512x512xf32>
  %1 = linalg.broadcast ins(%cst : tensor<2xf32>) outs(%0 : tensor<2x512x512xf32>) dimensions = [1, 2]
  return %1 : tensor<2x512x512xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_constant_fold
// CHECK-NEXT{LITERAL}: arith.constant dense<[[[1, 13], [2, 14], [3, 15], [4, 16]], [[5, 17], [6, 18], [7, 19], [8, 20]], [[9, 21], [10, 22], [11, 23], [12, 24]]]> : tensor<3x4x2xi16>
// CHECK-NEXT{LITERAL}: arith.constant dense<[[1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf16>
// CHECK-NEXT: return
func.func @transpose_constant_fold(%init1: tensor<3x4x2xi16>, %init2: tensor<2x3xf16>) -> (tensor<3x4x2xi16>, tensor<2x3xf16>) {
  %constant1 = arith.constant dense<[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], [[13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]]> : tensor<2x3x4xi16>
  %transpose1 = linalg.transpose ins(%constant1 : tensor<2x3x4xi16>) outs(%init1 : tensor<3x4x2xi16>) permutation = [1, 2, 0]
  %constant2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf16>
  %transpose2 = linalg.transpose ins(%constant2 : tensor<3x2xf16>) outs(%init2 : tensor<2x3xf16>) permutation = [1, 0]
  return %transpose1, %transpose2 : tensor<3x4x2xi16>, tensor<2x3xf16>
}

// -----

// CHECK-LABEL: func.func @transpose_of_argument
// CHECK: linalg.transpose
func.func @transpose_of_argument(%a: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %t = linalg.transpose ins(%a : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>) permutation = [1, 0]
  return %t : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @slice_dense_resource
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[3.300000e+00, 4.400000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @slice_dense_resource() -> tensor<2xf32> {
  %cst = arith.constant dense_resource<resource3> : tensor<4xf32>
  %0 = tensor.empty() : tensor<4x2xf32>
  %1 = linalg.broadcast ins(%cst : tensor<4xf32>) outs(%0 : tensor<4x2xf32>) dimensions = [1]
  %2 = tensor.extract_slice %1[2, 0] [2, 1] [1, 1] : tensor<4x2xf32> to tensor<2x1xf32>
  %3 = tensor.collapse_shape %2 [[0, 1]] : tensor<2x1xf32> into tensor<2xf32>
  return %3 : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      resource3: "0x04000000CDCC8C3FCDCC0C4033335340CDCC8C40"
    }
  }
#-}

// -----

// The slice folds even where the broadcast itself is too large to fold.
// CHECK-LABEL: func.func @slice_of_large_broadcast
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<1x1x4xf32>
// CHECK-NEXT: return %[[C]]
func.func @slice_of_large_broadcast() -> tensor<1x1x4xf32> {
  %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = tensor.empty() : tensor<2x512x512xf32>
  %1 = linalg.broadcast ins(%cst : tensor<2xf32>) outs(%0 : tensor<2x512x512xf32>) dimensions = [1, 2]
  %2 = tensor.extract_slice %1[1, 3, 0] [1, 1, 4] [1, 1, 2] : tensor<2x512x512xf32> to tensor<1x1x4xf32>
  return %2 : tensor<1x1x4xf32>
}

// -----

// CHECK-LABEL: func.func @slice_of_argument_broadcast
// CHECK: linalg.broadcast
// CHECK: tensor.extract_slice
func.func @slice_of_argument_broadcast(%arg0: tensor<4xf32>) -> tensor<1x1xf32> {
  %0 = tensor.empty() : tensor<4x2xf32>
  %1 = linalg.broadcast ins(%arg0 : tensor<4xf32>) outs(%0 : tensor<4x2xf32>) dimensions = [1]
  %2 = tensor.extract_slice %1[1, 1] [1, 1] [1, 1] : tensor<4x2xf32> to tensor<1x1xf32>
  return %2 : tensor<1x1xf32>
}
