// MobileViT's attention projection after linalg-canonicalizations: torch-mlir's
// batch_matmul with one weight broadcast over the batch becomes collapse_shape -> matmul ->
// expand_shape (SharedWeightBatchMatmulToMatmul), so the projection's bias add now reads
// the expand_shape, not the op, and cannot be folded into the op's init. The LayerNorm's
// mean (a sum over the channels of residual + proj + bias) still reads the matmul's input
// through a one-column matmul: channel_sums splits the bias off as a constant addend (its
// channel sum is a constant) and follows the expand_shape to the matmul.
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops 2>/dev/null | heirpy-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// Depth: the mean one level earlier (the projection's level, not one above it).
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (f16: the bias's channel sum and the one-column product are
// rounded once where the original rounds each channel: within f16's tolerance).
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function bmm_bias_mean | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function bmm_bias_mean_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function bmm_scaled_mean | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE-LABEL: func.func @bmm_bias_mean(
// REPARSE-LABEL: func.func @bmm_bias_mean_f16(
// REPARSE-LABEL: func.func @bmm_scaled_mean(
// BEFORE: @bmm_bias_mean 2
// BEFORE: @bmm_bias_mean_f16 2
// BEFORE: @bmm_scaled_mean 3
// AFTER: @bmm_bias_mean 1
// AFTER: @bmm_bias_mean_f16 1
// AFTER: @bmm_scaled_mean 3

#x = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d2)>
#s = affine_map<(d0, d1, d2) -> (d0, d1, 0)>

// CHECK-LABEL: func.func @bmm_bias_mean(
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}1.500000e+00], [-5.000000e-01], [2.000000e+00]]> : tensor<3x1xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x3xf32>, tensor<3x2xf32>)
// CHECK:         "reduction"
// CHECK-SAME:    ins(%r : tensor<2x4x2xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] : tensor<8x3xf32>, tensor<3x1xf32>) outs(%{{.*}} : tensor<8x1xf32>)
// CHECK:         arith.constant 1.250000e+00 : f32
// CHECK:         return
func.func @bmm_bias_mean(%x: tensor<2x4x3xf32>, %r: tensor<2x4x2xf32>) -> (tensor<2x4x2xf32>, tensor<2x4x1xf64>) {
  %w = arith.constant dense<[[1.0, 0.5], [-1.5, 1.0], [0.25, 1.75]]> : tensor<3x2xf32>
  %b = arith.constant dense<[0.5, 0.75]> : tensor<2xf32>
  %ew = tensor.empty() : tensor<2x3x2xf32>
  %wb = linalg.generic {indexing_maps = [#w, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<3x2xf32>) outs(%ew : tensor<2x3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %p = linalg.batch_matmul ins(%x, %wb : tensor<2x4x3xf32>, tensor<2x3x2xf32>) outs(%z : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %pb = linalg.generic {indexing_maps = [#x, #c, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %b : tensor<2x4x2xf32>, tensor<2xf32>) outs(%e : tensor<2x4x2xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %a = arith.addf %in, %bias : f32
    linalg.yield %a : f32
  } -> tensor<2x4x2xf32>
  %y = linalg.generic {indexing_maps = [#x, #x, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r, %pb : tensor<2x4x2xf32>, tensor<2x4x2xf32>) outs(%e : tensor<2x4x2xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %a = arith.addf %in, %in2 : f32
    linalg.yield %a : f32
  } -> tensor<2x4x2xf32>
  %e64 = tensor.empty() : tensor<2x4x2xf64>
  %y64 = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x4x2xf32>) outs(%e64 : tensor<2x4x2xf64>) {
  ^bb0(%in: f32, %out: f64):
    %c = arith.extf %in : f32 to f64
    linalg.yield %c : f64
  } -> tensor<2x4x2xf64>
  %zero64 = arith.constant 0.0 : f64
  %es = tensor.empty() : tensor<2x4x1xf64>
  %zs = linalg.fill ins(%zero64 : f64) outs(%es : tensor<2x4x1xf64>) -> tensor<2x4x1xf64>
  %s = linalg.generic {indexing_maps = [#x, #s], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y64 : tensor<2x4x2xf64>) outs(%zs : tensor<2x4x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %a = arith.addf %in, %out : f64
    linalg.yield %a : f64
  } -> tensor<2x4x1xf64>
  return %y, %s : tensor<2x4x2xf32>, tensor<2x4x1xf64>
}

// torch-mlir's f16 form: f16 operands, an f32 accumulator rounded to f16 (moved before the
// expand_shape), the bias and the residual in f16, the mean in f64 through f32.
// CHECK-LABEL: func.func @bmm_bias_mean_f16(
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}1.500000e+00], [-5.000000e-01], [2.000000e+00]]> : tensor<3x1xf16>
// CHECK:         "reduction"
// CHECK-SAME:    ins(%r : tensor<2x4x2xf16>)
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] : tensor<8x3xf16>, tensor<3x1xf16>) outs(%{{.*}} : tensor<8x1xf32>)
// CHECK:         arith.truncf
// CHECK:         arith.constant 1.250000e+00 : f32
// CHECK:         return
func.func @bmm_bias_mean_f16(%x: tensor<2x4x3xf16>, %r: tensor<2x4x2xf16>) -> (tensor<2x4x2xf16>, tensor<2x4x1xf64>) {
  %w = arith.constant dense<[[1.0, 0.5], [-1.5, 1.0], [0.25, 1.75]]> : tensor<3x2xf16>
  %b = arith.constant dense<[0.5, 0.75]> : tensor<2xf16>
  %ew = tensor.empty() : tensor<2x3x2xf16>
  %wb = linalg.generic {indexing_maps = [#w, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<3x2xf16>) outs(%ew : tensor<2x3x2xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x3x2xf16>
  %zero = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<2x4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e32 : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %p = linalg.batch_matmul ins(%x, %wb : tensor<2x4x3xf16>, tensor<2x3x2xf16>) outs(%z : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %e = tensor.empty() : tensor<2x4x2xf16>
  %ph = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<2x4x2xf32>) outs(%e : tensor<2x4x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %c = arith.truncf %in : f32 to f16
    linalg.yield %c : f16
  } -> tensor<2x4x2xf16>
  %pb = linalg.generic {indexing_maps = [#x, #c, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ph, %b : tensor<2x4x2xf16>, tensor<2xf16>) outs(%e : tensor<2x4x2xf16>) {
  ^bb0(%in: f16, %bias: f16, %out: f16):
    %a = arith.addf %in, %bias : f16
    linalg.yield %a : f16
  } -> tensor<2x4x2xf16>
  %y = linalg.generic {indexing_maps = [#x, #x, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r, %pb : tensor<2x4x2xf16>, tensor<2x4x2xf16>) outs(%e : tensor<2x4x2xf16>) {
  ^bb0(%in: f16, %in2: f16, %out: f16):
    %a = arith.addf %in, %in2 : f16
    linalg.yield %a : f16
  } -> tensor<2x4x2xf16>
  %y32 = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x4x2xf16>) outs(%e32 : tensor<2x4x2xf32>) {
  ^bb0(%in: f16, %out: f32):
    %c = arith.extf %in : f16 to f32
    linalg.yield %c : f32
  } -> tensor<2x4x2xf32>
  %e64 = tensor.empty() : tensor<2x4x2xf64>
  %y64 = linalg.generic {indexing_maps = [#x, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y32 : tensor<2x4x2xf32>) outs(%e64 : tensor<2x4x2xf64>) {
  ^bb0(%in: f32, %out: f64):
    %c = arith.extf %in : f32 to f64
    linalg.yield %c : f64
  } -> tensor<2x4x2xf64>
  %zero64 = arith.constant 0.0 : f64
  %es = tensor.empty() : tensor<2x4x1xf64>
  %zs = linalg.fill ins(%zero64 : f64) outs(%es : tensor<2x4x1xf64>) -> tensor<2x4x1xf64>
  %s = linalg.generic {indexing_maps = [#x, #s], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y64 : tensor<2x4x2xf64>) outs(%zs : tensor<2x4x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %a = arith.addf %in, %out : f64
    linalg.yield %a : f64
  } -> tensor<2x4x1xf64>
  return %y, %s : tensor<2x4x2xf16>, tensor<2x4x1xf64>
}

// Negative: a scale (not a shift) after the expand_shape, per channel: the sum of
// `s * x` is not a constant plus the sum of x; the mean keeps its own level.
// CHECK-LABEL: func.func @bmm_scaled_mean(
// CHECK-NOT:     tensor<3x1xf32>
// CHECK:         "reduction"
// CHECK-NOT:     tensor<3x1xf32>
// CHECK:         return
func.func @bmm_scaled_mean(%x: tensor<2x4x3xf32>, %r: tensor<2x4x2xf32>) -> (tensor<2x4x2xf32>, tensor<2x4x1xf32>) {
  %w = arith.constant dense<[[1.0, 0.5], [-1.5, 1.0], [0.25, 1.75]]> : tensor<3x2xf32>
  %b = arith.constant dense<[0.5, 0.75]> : tensor<2xf32>
  %ew = tensor.empty() : tensor<2x3x2xf32>
  %wb = linalg.generic {indexing_maps = [#w, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<3x2xf32>) outs(%ew : tensor<2x3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %p = linalg.batch_matmul ins(%x, %wb : tensor<2x4x3xf32>, tensor<2x3x2xf32>) outs(%z : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %pb = linalg.generic {indexing_maps = [#x, #c, #x], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %b : tensor<2x4x2xf32>, tensor<2xf32>) outs(%e : tensor<2x4x2xf32>) {
  ^bb0(%in: f32, %scale: f32, %out: f32):
    %a = arith.mulf %in, %scale : f32
    linalg.yield %a : f32
  } -> tensor<2x4x2xf32>
  %y = arith.addf %r, %pb : tensor<2x4x2xf32>
  %es = tensor.empty() : tensor<2x4x1xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %s = linalg.generic {indexing_maps = [#x, #s], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y : tensor<2x4x2xf32>) outs(%zs : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x4x1xf32>
  return %y, %s : tensor<2x4x2xf32>, tensor<2x4x1xf32>
}
