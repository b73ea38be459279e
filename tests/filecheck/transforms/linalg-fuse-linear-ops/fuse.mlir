// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-ops{bias-into-init=false}' | filecheck %s
// heirpy's bias rule (the one linalg-fuse-ops uses); HEIR's default rule and run-time
// plaintext operands are in runtime_operands.mlir.

// Bias add on tensors (HEIR's form) after a matmul with a zero init: it stays an add
// (no level to save; it becomes the kernel's epilogue; IREE would move it back out).
func.func @matmul_bias(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %b = arith.constant dense<[[1.0, 2.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = arith.addf %m, %b : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @matmul_bias(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<3x2xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<{{.*}}> : tensor<2x2xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul ins(%x, %[[W]] : tensor<2x3xf32>, tensor<3x2xf32>) outs(%[[E]] : tensor<2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[M]], %[[B]] : tensor<2x2xf32>
// CHECK-NEXT: return %[[R]]

// -----

// A bias add after a matmul whose init already holds a bias merges into it.
func.func @matmul_bias_into_bias(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %i = arith.constant dense<[[0.5, 0.25], [0.5, 0.25]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[1.0, 2.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%i : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = arith.addf %m, %b : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @matmul_bias_into_bias(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<3x2xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[1.500000e+00, 2.250000e+00]> : tensor<2xf32>
// CHECK-NEXT: tensor.empty() : tensor<2x2xf32>
// CHECK-NEXT: %[[INIT:.*]] = linalg.broadcast ins(%[[B]]{{.*}} dimensions = [0]
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%x, %[[W]] : tensor<2x3xf32>, tensor<3x2xf32>) outs(%[[INIT]] : tensor<2x2xf32>)
// CHECK-NEXT: return %[[R]]

// -----

// A scale with a pre-existing bias scales the weights AND the bias (HEIR forgets the bias).
func.func @matmul_scale_keeps_bias(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %bias = arith.constant dense<[[10.0, 20.0]]> : tensor<1x2xf32>
  %s = arith.constant dense<[[2.0, 3.0]]> : tensor<1x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%bias : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = arith.mulf %s, %m : tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @matmul_scale_keeps_bias(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{\[\[}}2.000000e+00, 6.000000e+00], [6.000000e+00, 1.200000e+01]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[2.000000e+01, 6.000000e+01]> : tensor<2xf32>
// CHECK-NEXT: tensor.empty() : tensor<1x2xf32>
// CHECK-NEXT: %[[INIT:.*]] = linalg.broadcast ins(%[[B]]
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%x, %[[W]] : {{.*}}) outs(%[[INIT]]
// CHECK-NEXT: return %[[R]]

// -----

// matvec: a division by a constant vector scales the matrix rows.
func.func @matvec_div(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = arith.constant dense<[[2.0, 4.0], [6.0, 8.0]]> : tensor<2x2xf32>
  %d = arith.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x2xf32>, tensor<2xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.divf %m, %d : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @matvec_div(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [1.500000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// A zero init scaled is the same zeros: kept as written (a rebuilt fill is rewritten by
// linalg-canonicalizations on a rerun).
// CHECK-NEXT: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matvec ins(%[[W]], %x : {{.*}}) outs(%[[INIT]]
// CHECK-NEXT: return %[[R]]

// -----

// vecmat: K - L(x) negates the weights and gives init K - init.
func.func @vecmat_rsub(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %k = arith.constant dense<[5.0, 7.0]> : tensor<2xf32>
  %z = arith.constant dense<1.0> : tensor<2xf32>
  %m = linalg.vecmat ins(%x, %a : tensor<2xf32>, tensor<2x2xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.subf %k, %m : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @vecmat_rsub(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{\[\[}}-1.000000e+00, -2.000000e+00], [-3.000000e+00, -4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[4.000000e+00, 6.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.vecmat ins(%x, %[[W]] : {{.*}}) outs(%[[B]]
// CHECK-NEXT: return %[[R]]

// -----

// torch-mlir's average-pool divide form (a captured scalar) after a conv.
func.func @conv_scalar_div(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %w = arith.constant dense<4.0> : tensor<1x1x2x2xf32>
  %four = arith.constant 4.0 : f32
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x1x2x2xf32>) outs(%e : tensor<1x1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x1x2x2xf32>
  return %r : tensor<1x1x2x2xf32>
}
// The init stays the `tensor.empty` it was: a scaled undefined init is still undefined.
// The folded weight goes to the top of the function, where MLIR's folder puts constants.
// CHECK-LABEL: func.func @conv_scalar_div(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x1x2x2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%x, %[[W]] : {{.*}}) outs(%[[E]]
// CHECK-NEXT: return %[[R]]

// -----

// Must not fire: K / L(x) is not linear in x.
func.func @no_reciprocal(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = arith.constant dense<[[2.0, 4.0], [6.0, 8.0]]> : tensor<2x2xf32>
  %d = arith.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x2xf32>, tensor<2xf32>) outs(%d : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.divf %d, %m : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @no_reciprocal(
// CHECK:      %[[M:.*]] = linalg.matvec ins(%a, %x
// CHECK-NEXT: arith.divf %d, %[[M]]

// -----

// Must not fire: a division by a vector with a zero in it (dividing the weights by 0
// would make inf * x of every input, NaN where x is 0, instead of row / 0).
func.func @no_divide_by_zero(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = arith.constant dense<[[2.0, 4.0], [6.0, 8.0]]> : tensor<2x2xf32>
  %d = arith.constant dense<[2.0, 0.0]> : tensor<2xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x2xf32>, tensor<2xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.divf %m, %d : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @no_divide_by_zero(
// CHECK:      %[[M:.*]] = linalg.matvec ins(%a, %x
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[M]], %d
// CHECK-NEXT: return %[[R]]

// -----

// Weights are a function argument (not marked secret): the constant column scale
// multiplies them as a plaintext op before the matmul.
func.func @argument_weights(%x: tensor<1x2xf32>, %w: tensor<2x2xf32>) -> tensor<1x2xf32> {
  %b = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = arith.mulf %m, %b : tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @argument_weights(
// CHECK:      %[[S:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[W:.*]] = arith.mulf %w, %[[S]] : tensor<2x2xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul ins(%x, %[[W]] : {{.*}}) outs(%z : tensor<1x2xf32>)
// CHECK-NEXT: return %[[M]]

// -----

// Must not fire: the scale varies along the rows of a matmul (not a weight-column scale).
func.func @no_row_scale(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s = arith.constant dense<[[1.0, 1.0], [2.0, 2.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = arith.mulf %m, %s : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @no_row_scale(
// CHECK:      %[[M:.*]] = linalg.matmul
// CHECK-NEXT: arith.mulf %[[M]], %s

// -----

// Must not fire: the linear result has another user, which would see the scaled value.
func.func @no_shared_result(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = arith.constant dense<[[2.0, 4.0], [6.0, 8.0]]> : tensor<2x2xf32>
  %d = arith.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x2xf32>, tensor<2xf32>) outs(%d : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.mulf %m, %d : tensor<2xf32>
  return %r, %m : tensor<2xf32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @no_shared_result(
// CHECK:      %[[M:.*]] = linalg.matvec ins(%a, %x
// CHECK-NEXT: arith.mulf %[[M]], %d

// -----

// Must not fire: x * x is not an elementwise op with a constant.
func.func @no_square(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = arith.constant dense<[[2.0, 4.0], [6.0, 8.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x2xf32>, tensor<2xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.mulf %m, %m : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @no_square(
// CHECK:      %[[M:.*]] = linalg.matvec
// CHECK-NEXT: arith.mulf %[[M]], %[[M]]

// -----

// Must not fire: dynamic shapes.
func.func @no_dynamic(%x: tensor<?x2xf32>, %z: tensor<?x2xf32>, %b: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x2xf32>, tensor<2x2xf32>) outs(%z : tensor<?x2xf32>) -> tensor<?x2xf32>
  %r = arith.addf %m, %b : tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
// CHECK-LABEL: func.func @no_dynamic(
// CHECK:      %[[M:.*]] = linalg.matmul
// CHECK-NEXT: arith.addf %[[M]], %b
