// A batch_matmul whose right operand is one constant matrix for every batch (torch-mlir's
// nn.Linear on a non-contiguous 3-D input: LeViT) is a matmul on the collapsed batch:
// through torch-mlir's copying generic, a linalg.broadcast, MLIR's (k, n) map, a literal
// whose batches agree, and a one-batch operand; f16 into an f32 init stays so. Must not
// fire: a weight that differs per batch, one not known at compile time, a broadcast of a
// function argument, a transposed left operand.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file > /dev/null
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | iree-opt --split-input-file > /dev/null
// RUN: heirpy-opt %s -p linalg-canonicalizations -o %t
// RUN: heirpy-equiv %s %t --function generic_broadcast | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function literal_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent

#bkn = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @generic_broadcast(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[XC:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[XC]], %{{.*}} : tensor<6x4xf32>, tensor<4x5xf32>) outs(%{{.*}} : tensor<6x5xf32>) -> tensor<6x5xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2]] output_shape [2, 3, 5] : tensor<6x5xf32> into tensor<2x3x5xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: return %[[R]]
func.func @generic_broadcast(%x: tensor<2x3x4xf32>) -> tensor<2x3x5xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [-1.0, 0.5, 0.25, 2.0, 1.0], [0.0, 1.0, -2.0, 3.0, 0.5], [2.0, -1.0, 1.5, 0.0, 1.0]]> : tensor<4x5xf32>
  %e = tensor.empty() : tensor<2x4x5xf32>
  %wb = linalg.generic {indexing_maps = [#bkn, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<4x5xf32>) outs(%e : tensor<2x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x5xf32>
  %eo = tensor.empty() : tensor<2x3x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %r = linalg.batch_matmul ins(%x, %wb : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%init : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// CHECK-LABEL: func.func @linalg_broadcast(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x2xf32>, tensor<2x3xf32>) outs(%{{.*}} : tensor<8x3xf32>)
// CHECK-NOT: linalg.batch_matmul
// CHECK: return
func.func @linalg_broadcast(%x: tensor<4x2x2xf32>, %init: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<4x2x3xf32>
  %wb = linalg.broadcast ins(%w : tensor<2x3xf32>) outs(%e : tensor<4x2x3xf32>) dimensions = [0]
  %r = linalg.batch_matmul ins(%x, %wb : tensor<4x2x2xf32>, tensor<4x2x3xf32>) outs(%init : tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  return %r : tensor<4x2x3xf32>
}

// -----

// MLIR's own broadcast form: the right operand's map drops the batch.
// CHECK-LABEL: func.func @kn_map(
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<2x3xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<6x2xf32>, tensor<2x3xf32>) outs(%{{.*}} : tensor<6x3xf32>)
// CHECK-NOT: linalg.batch_matmul
// CHECK: return
func.func @kn_map(%x: tensor<2x3x2xf32>, %init: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<2x3x2xf32>, tensor<2x3xf32>) outs(%init : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %r : tensor<2x3x3xf32>
}

// -----

// A literal whose two batches hold the same matrix, f16 operands into an f32 init: the
// matmul reads the first batch as an f16 literal and keeps the f32 accumulator.
// CHECK-LABEL: func.func @literal_f16(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [5.000000e-01, -1.000000e+00]]> : tensor<2x2xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<4x2xf16>, tensor<2x2xf16>) outs(%{{.*}} : tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NOT: linalg.batch_matmul
// CHECK: return
func.func @literal_f16(%x: tensor<2x2x2xf16>) -> tensor<2x2x2xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %w = arith.constant dense<[[[1.0, 2.0], [0.5, -1.0]], [[1.0, 2.0], [0.5, -1.0]]]> : tensor<2x2x2xf16>
  %e = tensor.empty() : tensor<2x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %r = linalg.batch_matmul ins(%x, %w : tensor<2x2x2xf16>, tensor<2x2x2xf16>) outs(%init : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}

// -----

// One batch: the operand is its own matrix (LeViT's form once its broadcast generic is
// an expand_shape or a folded literal); the reshape of the constant folds.
// CHECK-LABEL: func.func @one_batch(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x2xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<3x2xf32>)
// CHECK-NOT: linalg.batch_matmul
// CHECK: return
func.func @one_batch(%x: tensor<1x3x2xf32>, %init: tensor<1x3x2xf32>) -> tensor<1x3x2xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
  %r = linalg.batch_matmul ins(%x, %w : tensor<1x3x2xf32>, tensor<1x2x2xf32>) outs(%init : tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
  return %r : tensor<1x3x2xf32>
}

// -----

// Must not fire: the two batches' matrices differ.
// CHECK-LABEL: func.func @differs_per_batch(
// CHECK-NOT: linalg.matmul
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x2x2xf32>, tensor<2x2x2xf32>)
func.func @differs_per_batch(%x: tensor<2x2x2xf32>, %init: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [0.5, -1.0]], [[1.0, 2.0], [0.5, -2.0]]]> : tensor<2x2x2xf32>
  %r = linalg.batch_matmul ins(%x, %w : tensor<2x2x2xf32>, tensor<2x2x2xf32>) outs(%init : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}

// -----

// Must not fire: the right operand is the data (attention's q kᵀ), or a broadcast of a
// function argument (not known at compile time), even with one batch.
// CHECK-LABEL: func.func @not_constant(
// CHECK-NOT: linalg.matmul
// CHECK-COUNT-3: linalg.batch_matmul
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @not_constant(%x: tensor<2x3x2xf32>, %k: tensor<2x2x3xf32>, %w: tensor<2x3xf32>, %x1: tensor<1x3x2xf32>, %k1: tensor<1x2x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<1x3x3xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %eo = tensor.empty() : tensor<2x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %qk = linalg.batch_matmul ins(%x, %k : tensor<2x3x2xf32>, tensor<2x2x3xf32>) outs(%init : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %e = tensor.empty() : tensor<2x2x3xf32>
  %wb = linalg.broadcast ins(%w : tensor<2x3xf32>) outs(%e : tensor<2x2x3xf32>) dimensions = [0]
  %r = linalg.batch_matmul ins(%x, %wb : tensor<2x3x2xf32>, tensor<2x2x3xf32>) outs(%init : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %eo1 = tensor.empty() : tensor<1x3x3xf32>
  %init1 = linalg.fill ins(%zero : f32) outs(%eo1 : tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  %r1 = linalg.batch_matmul ins(%x1, %k1 : tensor<1x3x2xf32>, tensor<1x2x3xf32>) outs(%init1 : tensor<1x3x3xf32>) -> tensor<1x3x3xf32>
  return %qk, %r, %r1 : tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<1x3x3xf32>
}

// -----

// Must not fire: the left operand is read transposed, (b, k, m): its rows are not the
// output's rows.
// CHECK-LABEL: func.func @transposed_lhs(
// CHECK-NOT: linalg.matmul
// CHECK: linalg.batch_matmul indexing_maps
func.func @transposed_lhs(%x: tensor<2x2x3xf32>, %init: tensor<2x3x3xf32>) -> tensor<2x3x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<2x2x3xf32>, tensor<2x3xf32>) outs(%init : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %r : tensor<2x3x3xf32>
}
