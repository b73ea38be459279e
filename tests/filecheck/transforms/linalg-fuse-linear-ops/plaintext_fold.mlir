// FoldPlaintextLinearOp: a linear op of compile-time constants only is plaintext work;
// it folds to its value in the smallest form (fill, per-channel broadcast or literal).
// A linear op that reads anything known only at run time stays.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | heir-opt --split-input-file > /dev/null

// [[1, 2], [3, 4]] @ [[1, 0], [1, 1]] + 1 = [[4, 3], [8, 5]].
// CHECK-LABEL: func.func @matmul_of_constants(
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<{{\[}}[4.000000e+00, 3.000000e+00], [8.000000e+00, 5.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[R:.*]] = arith.addf %x, %[[C]] : tensor<2x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @matmul_of_constants(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[1.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%one : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = arith.addf %x, %m : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// HEIR's conv + pool form: the pooled init is a conv of the (per-channel) bias with the
// pool's filter; it folds to the bias times the window size, still a [2] vector.
// CHECK-LABEL: func.func @pooled_bias(
// CHECK:      %[[B:.*]] = arith.constant dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x2x2xf32>
// CHECK-NEXT: %[[I:.*]] = linalg.broadcast ins(%[[B]] : tensor<2xf32>) outs(%[[E]] : tensor<1x2x2x2xf32>) dimensions = [0, 2, 3]
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%[[I]] : tensor<1x2x2x2xf32>)
// CHECK-NEXT: return %[[R]]
func.func @pooled_bias(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x2x2x2xf32>
  %bias = arith.constant dense<[2.5e-01, -5.0e-01]> : tensor<2xf32>
  %be = tensor.empty() : tensor<1x2x4x4xf32>
  %ci = linalg.broadcast ins(%bias : tensor<2xf32>) outs(%be : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %k = arith.constant dense<[[[[1.0, 1.0], [1.0, 1.0]], [[0.0, 0.0], [0.0, 0.0]]], [[[0.0, 0.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 1.0]]]]> : tensor<2x2x2x2xf32>
  %pi = arith.constant dense<0.0> : tensor<1x2x2x2xf32>
  %init = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%ci, %k : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}

// -----

// Must not fold: the init is a function argument, known only at run time.
// CHECK-LABEL: func.func @argument_init(
// CHECK-NEXT: %[[A:.*]] = arith.constant
// CHECK-NEXT: %[[B:.*]] = arith.constant
// CHECK-NEXT: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>)
// CHECK-NEXT: return %[[M]]
func.func @argument_init(%init: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[1.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

// -----

// Must not fold: an integer product (linear-op inits are float tensors here; integer
// arithmetic wraps, and is left to the tools that own it).
// CHECK-LABEL: func.func @integer_matmul(
// CHECK:      %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x2xi32>, tensor<2x2xi32>)
// CHECK-NEXT: return %[[M]]
func.func @integer_matmul() -> tensor<2x2xi32> {
  %a = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = arith.constant dense<[[1, 0], [1, 1]]> : tensor<2x2xi32>
  %z = arith.constant dense<0> : tensor<2x2xi32>
  %m = linalg.matmul ins(%a, %b : tensor<2x2xi32>, tensor<2x2xi32>) outs(%z : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %m : tensor<2x2xi32>
}
