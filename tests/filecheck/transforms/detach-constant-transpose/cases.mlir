// detach-constant-transpose: a widening cast of a constant read through a permutation
// becomes linalg.transpose of the constant, then the cast through identity maps (f16 ->
// f32, bf16 -> f32, f16 -> f64, a rank-3 permutation); what stays: a cast through the
// identity, a narrowing cast, a cast of a computed tensor, a broadcast read, a body that
// is more than the cast. Numerics: tests/unit/test_filecheck_numerics.py runs every chunk
// before/after through heirpy's evaluator.
// RUN: heirpy-opt %s --split-input-file -p detach-constant-transpose | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p detach-constant-transpose | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// An f16 Linear's weight after pointwise fusion merged torch-mlir's transpose into its
// extf: the transpose comes out (IREE folds it at compile time), the extf stays.
func.func @weight_f16() -> tensor<3x2xf32> {
  %w = arith.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.125, -0.75]]> : tensor<2x3xf16>
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf16>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @weight_f16
// CHECK:       %[[W:.*]] = arith.constant {{.*}} : tensor<2x3xf16>
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<3x2xf16>
// CHECK-NEXT:  %[[T:.*]] = linalg.transpose ins(%[[W]] : tensor<2x3xf16>) outs(%[[E]] : tensor<3x2xf16>) permutation = [1, 0]
// CHECK-NEXT:  %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[T]] : tensor<3x2xf16>) outs(%{{.*}} : tensor<3x2xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f16, %{{.*}}: f32):
// CHECK-NEXT:    arith.extf %{{.*}} : f16 to f32
// CHECK:       return %[[R]]
// MLIR-LABEL:  func.func @weight_f16
// MLIR:        linalg.transpose
// MLIR-LABEL:  func.func @weight_bf16

// -----

func.func @weight_bf16() -> tensor<3x2xf32> {
  %w = arith.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.125, -0.75]]> : tensor<2x3xbf16>
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xbf16>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %x = arith.extf %a : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @weight_bf16
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<2x3xbf16>) outs(%{{.*}} : tensor<3x2xbf16>) permutation = [1, 0]
// CHECK-NEXT:  linalg.generic {{.*}} ins(%{{.*}} : tensor<3x2xbf16>) outs(%{{.*}} : tensor<3x2xf32>)

// -----

// Rank 3, (d0, d1, d2) -> (d2, d0, d1): result dim i is the input dim whose loop is i,
// so the permutation is [1, 2, 0]; f32 -> f64 also widens.
func.func @rank3_f64() -> tensor<3x1x2xf64> {
  %w = arith.constant dense<[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]]> : tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<3x1x2xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x3x1xf32>) outs(%e : tensor<3x1x2xf64>) {
  ^bb0(%a: f32, %o: f64):
    %x = arith.extf %a : f32 to f64
    linalg.yield %x : f64
  } -> tensor<3x1x2xf64>
  return %r : tensor<3x1x2xf64>
}
// CHECK-LABEL: func.func @rank3_f64
// CHECK:       linalg.transpose ins(%{{.*}} : tensor<2x3x1xf32>) outs(%{{.*}} : tensor<3x1x2xf32>) permutation = [1, 2, 0]
// CHECK-NEXT:  linalg.generic {{.*}} ins(%{{.*}} : tensor<3x1x2xf32>) outs(%{{.*}} : tensor<3x1x2xf64>)

// -----

// Negative: the identity read (IREE fuses this cast into its consumer as it is).
func.func @identity_read() -> tensor<2x3xf32> {
  %w = arith.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.125, -0.75]]> : tensor<2x3xf16>
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf16>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @identity_read
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.generic
// CHECK:       return

// -----

// Negative: a narrowing cast stores fewer bytes; IREE hoists it whole.
func.func @narrowing() -> tensor<3x2xf16> {
  %w = arith.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.125, -0.75]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf32>) outs(%e : tensor<3x2xf16>) {
  ^bb0(%a: f32, %o: f16):
    %x = arith.truncf %a : f32 to f16
    linalg.yield %x : f16
  } -> tensor<3x2xf16>
  return %r : tensor<3x2xf16>
}
// CHECK-LABEL: func.func @narrowing
// CHECK-NOT:   linalg.transpose
// CHECK:       arith.truncf
// CHECK:       return

// -----

// Negative: a computed tensor (a function argument) is not a constant IREE folds.
func.func @computed(%w: tensor<2x3xf16>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf16>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @computed
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.generic
// CHECK:       return

// -----

// Negative: a broadcast read (d0, d1) -> (d1) is no transpose.
func.func @broadcast_read() -> tensor<2x3xf32> {
  %w = arith.constant dense<[0.5, -1.0, 0.25]> : tensor<3xf16>
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<3xf16>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @broadcast_read
// CHECK-NOT:   linalg.transpose
// CHECK:       return

// -----

// Negative: the body does more than cast (a scale after the extf).
func.func @scaled() -> tensor<3x2xf32> {
  %w = arith.constant dense<[[0.5, -1.0, 0.25], [1.5, 0.125, -0.75]]> : tensor<2x3xf16>
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf16>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    %c = arith.constant 2.0 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @scaled
// CHECK-NOT:   linalg.transpose
// CHECK:       arith.mulf
// CHECK:       return
