// With --split-input-file each chunk is an input of its own, as in mlir-opt: two chunks
// may define the same `dense_resource` handle, and each keeps its name and its blob.
// (The handle of the second chunk was renamed `w_0` and its blob dropped from the output.)
// RUN: heirpy-opt %s --split-input-file | filecheck %s
// RUN: heirpy-opt %s --split-input-file | heir-opt --split-input-file | filecheck %s
// The values each chunk computes with are its own blob's.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s --check-prefix=FOLD

// CHECK-LABEL: func.func @first(
// CHECK:       arith.constant dense_resource<w> : tensor<1x2xf32>
// CHECK:       w: "0x040000000000803F00000040"
// CHECK-LABEL: func.func @second(
// CHECK:       arith.constant dense_resource<w> : tensor<1x2xf32>
// CHECK:       w: "0x040000000000404000008040"
// FOLD-LABEL:  func.func @first(
// FOLD:        arith.constant dense<{{\[}}[1.000000e+00], [2.000000e+00]]> : tensor<2x1xf32>
// FOLD-LABEL:  func.func @second(
// FOLD:        arith.constant dense<{{\[}}[3.000000e+00], [4.000000e+00]]> : tensor<2x1xf32>
func.func @first() -> tensor<2x1xf32> {
  %w = arith.constant dense_resource<w> : tensor<1x2xf32>
  %e = tensor.empty() : tensor<2x1xf32>
  %t = linalg.transpose ins(%w : tensor<1x2xf32>) outs(%e : tensor<2x1xf32>) permutation = [1, 0]
  return %t : tensor<2x1xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

func.func @second() -> tensor<2x1xf32> {
  %w = arith.constant dense_resource<w> : tensor<1x2xf32>
  %e = tensor.empty() : tensor<2x1xf32>
  %t = linalg.transpose ins(%w : tensor<1x2xf32>) outs(%e : tensor<2x1xf32>) permutation = [1, 0]
  return %t : tensor<2x1xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000404000008040"
    }
  }
#-}
