// A Linear reading the mean over the rows of a residual add (a transformer's head on
// `x.mean(1)`, here LeViT's two: head and head_dist, summed) composes with the add's matmul branch
// (chains_through_row_sums.py): `W2(mean(x + h W1))` becomes ONE contraction of h (the
// weight W1 W2 / T read alike for every row) accumulating into a sum and a matmul of the
// skip x, kept beside it, for each head. The branch's path goes from three levels to
// one. (With one head, `FuseLinearChain` first makes the sum and the Linear one matrix,
// which this pattern does not read.)
// torch-mlir's mixed f16 form (f16 operands, f32 accumulators, LeViT's head) composes
// the same way, read through its casts and a batch norm's leftover mean subtraction.
// Must not fire: a sum over the features (not the rows); a square between the mean and
// the Linear (f16 form).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt > /dev/null
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt > /dev/null
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function row_mean | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function feature_sum | filecheck %s --check-prefix=EQUIV
// f16 (f16 accumulators too): the composed weight is rounded to f16 once and the sums
// run in another order: a few f16 ulps.
// RUN: heirpy-equiv %s %t --function row_mean_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// Mixed f16: the roundings of the branch, the mean and the round trip go (the
// mixed-precision rule), the composed weight is rounded to f16 once: within the f16
// result's default tolerance.
// RUN: heirpy-equiv %s %t --function row_mean_mixed_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function row_mean_squared_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// BEFORE: @row_mean {{ +}}4+
// BEFORE: @row_mean_f16 {{ +}}4+
// BEFORE: @feature_sum {{ +}}4+
// BEFORE: @row_mean_mixed_f16 {{ +}}4+
// BEFORE: @row_mean_squared_f16 {{ +}}4
// AFTER: @row_mean {{ +}}2+
// AFTER: @row_mean_f16 {{ +}}2+
// AFTER: @feature_sum {{ +}}4+
// AFTER: @row_mean_mixed_f16 {{ +}}2+
// AFTER: @row_mean_squared_f16 {{ +}}4

// CHECK-LABEL: func.func @row_mean(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x3xf32>
// CHECK: %[[H:.*]] = arith.maximumf
// CHECK: %[[SX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<1x4x3xf32>)
// CHECK: %[[K:.*]] = linalg.matmul ins(%[[SX]], %{{.*}} : tensor<1x3xf32>, tensor<3x2xf32>)
// CHECK: %[[HR:.*]] = tensor.expand_shape %[[H]] {{\[\[}}0, 1], [2]] output_shape [1, 4, 3]
// CHECK: %[[R1:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel", "reduction"]} ins(%[[HR]], %{{.*}} : tensor<1x4x3xf32>, tensor<3x2xf32>) outs(%[[K]] : tensor<1x2xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<3x2xf32>)
// CHECK: %[[R2:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x3xf32>, tensor<3x2xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: %[[R:.*]] = arith.addf %[[R1]], %[[R2]]
// CHECK: return %[[R]]
func.func @row_mean(%x: tensor<1x4x3xf32>) -> tensor<1x2xf32> {
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %w0 = arith.constant dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]]> : tensor<3x3xf32>
  %c0 = arith.constant dense<0.125> : tensor<4x3xf32>
  %g = linalg.matmul ins(%xf, %w0 : tensor<4x3xf32>, tensor<3x3xf32>) outs(%c0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %zc = arith.constant dense<0.0> : tensor<4x3xf32>
  %h = arith.maximumf %g, %zc : tensor<4x3xf32>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %c1 = arith.constant dense<[[0.0, -0.05, -0.1], [0.1, 0.05, 0.0], [0.2, 0.15, 0.1], [0.3, 0.25, 0.2]]> : tensor<4x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf32>, tensor<3x3xf32>) outs(%c1 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %ae = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf32> into tensor<1x4x3xf32>
  %s = arith.addf %x, %ae : tensor<1x4x3xf32>
  %r0 = arith.constant dense<[[0.5, 0.0, -0.5]]> : tensor<1x3xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%s : tensor<1x4x3xf32>) outs(%r0 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3xf32>
  %four = arith.constant dense<4.0> : tensor<1x3xf32>
  %d = arith.divf %m, %four : tensor<1x3xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %c2 = arith.constant dense<[[0.5, -0.25]]> : tensor<1x2xf32>
  %r1 = linalg.matmul ins(%d, %w2 : tensor<1x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %w3 = arith.constant dense<[[0.25, 1.0], [-0.5, 0.5], [2.0, -1.0]]> : tensor<3x2xf32>
  %r2 = linalg.matmul ins(%d, %w3 : tensor<1x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = arith.addf %r1, %r2 : tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}

// CHECK-LABEL: func.func @row_mean_f16(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x3xf16>, tensor<3x2xf16>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x3xf16>, tensor<3x2xf16>) outs(%{{.*}} : tensor<1x2xf16>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x3xf16>, tensor<3x2xf16>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x3xf16>, tensor<3x2xf16>) outs(%{{.*}} : tensor<1x2xf16>)
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @row_mean_f16(%x: tensor<1x4x3xf16>) -> tensor<1x2xf16> {
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x3xf16> into tensor<4x3xf16>
  %w0 = arith.constant dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]]> : tensor<3x3xf16>
  %c0 = arith.constant dense<0.125> : tensor<4x3xf16>
  %g = linalg.matmul ins(%xf, %w0 : tensor<4x3xf16>, tensor<3x3xf16>) outs(%c0 : tensor<4x3xf16>) -> tensor<4x3xf16>
  %zc = arith.constant dense<0.0> : tensor<4x3xf16>
  %h = arith.maximumf %g, %zc : tensor<4x3xf16>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf16>
  %c1 = arith.constant dense<[[0.0, -0.05, -0.1], [0.1, 0.05, 0.0], [0.2, 0.15, 0.1], [0.3, 0.25, 0.2]]> : tensor<4x3xf16>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf16>, tensor<3x3xf16>) outs(%c1 : tensor<4x3xf16>) -> tensor<4x3xf16>
  %ae = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf16> into tensor<1x4x3xf16>
  %s = arith.addf %x, %ae : tensor<1x4x3xf16>
  %r0 = arith.constant dense<0.0> : tensor<1x3xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%s : tensor<1x4x3xf16>) outs(%r0 : tensor<1x3xf16>) {
  ^bb0(%in: f16, %out: f16):
    %t = arith.addf %in, %out : f16
    linalg.yield %t : f16
  } -> tensor<1x3xf16>
  %quarter = arith.constant dense<0.25> : tensor<1x3xf16>
  %d = arith.mulf %m, %quarter : tensor<1x3xf16>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf16>
  %c2 = arith.constant dense<[[0.5, -0.25]]> : tensor<1x2xf16>
  %r1 = linalg.matmul ins(%d, %w2 : tensor<1x3xf16>, tensor<3x2xf16>) outs(%c2 : tensor<1x2xf16>) -> tensor<1x2xf16>
  %w3 = arith.constant dense<[[0.25, 1.0], [-0.5, 0.5], [2.0, -1.0]]> : tensor<3x2xf16>
  %r2 = linalg.matmul ins(%d, %w3 : tensor<1x3xf16>, tensor<3x2xf16>) outs(%c2 : tensor<1x2xf16>) -> tensor<1x2xf16>
  %r = arith.addf %r1, %r2 : tensor<1x2xf16>
  return %r : tensor<1x2xf16>
}

// Must not fire: the generic sums each row's features, so the Linear after it does not
// read rows of the stream.
// CHECK-LABEL: func.func @feature_sum(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-COUNT-2: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<4x2xf32>)
func.func @feature_sum(%x: tensor<1x4x3xf32>) -> tensor<1x2xf32> {
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %w0 = arith.constant dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]]> : tensor<3x3xf32>
  %c0 = arith.constant dense<0.125> : tensor<4x3xf32>
  %g = linalg.matmul ins(%xf, %w0 : tensor<4x3xf32>, tensor<3x3xf32>) outs(%c0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %zc = arith.constant dense<0.0> : tensor<4x3xf32>
  %h = arith.maximumf %g, %zc : tensor<4x3xf32>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %c1 = arith.constant dense<0.0> : tensor<4x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf32>, tensor<3x3xf32>) outs(%c1 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %ae = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf32> into tensor<1x4x3xf32>
  %s = arith.addf %x, %ae : tensor<1x4x3xf32>
  %r0 = arith.constant dense<0.0> : tensor<1x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<1x4x3xf32>) outs(%r0 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x4xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0], [0.25, 0.75]]> : tensor<4x2xf32>
  %c2 = arith.constant dense<0.0> : tensor<1x2xf32>
  %r1 = linalg.matmul ins(%m, %w2 : tensor<1x4xf32>, tensor<4x2xf32>) outs(%c2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r2 = linalg.matmul ins(%m, %w2 : tensor<1x4xf32>, tensor<4x2xf32>) outs(%c2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = arith.addf %r1, %r2 : tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}

// torch-mlir's f16 form (LeViT-128S's head): f16 storage, f32 accumulators, a `truncf`
// after each matmul; the mean is an f16 sum and divide, and each head's batch norm left
// a mean subtraction that widens in its body (`extf; subf`) and a rounding round trip
// (`truncf`, `extf`) before its f32 Linear. The path is read through the casts (their
// roundings go, the mixed-precision rule) and the subtraction (into the kept matmul's
// init); the skip is summed in f32, the composed weight stored in f16 (the first
// matmul's type) and read with `h` (rounded to f16 as the IR had it) into the f32
// accumulator.
// CHECK-LABEL: func.func @row_mean_mixed_f16(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x3xf16>
// CHECK: %[[XW:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x4x3xf16>) outs(%{{.*}} : tensor<1x4x3xf32>)
// CHECK: arith.extf
// CHECK: %[[SX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[XW]] : tensor<1x4x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: %[[K:.*]] = linalg.matmul ins(%[[SX]], %{{.*}} : tensor<1x3xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<1x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x3xf16>, tensor<3x2xf16>) outs(%[[K]] : tensor<1x2xf32>)
// CHECK-NEXT: ^{{.*}}(%[[HA:.*]]: f16, %[[WA:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[HE:.*]] = arith.extf %[[HA]] : f16 to f32
// CHECK-NEXT: %[[WE:.*]] = arith.extf %[[WA]] : f16 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[HE]], %[[WE]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] : f32
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<1x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x3xf16>, tensor<3x2xf16>) outs(%{{.*}} : tensor<1x2xf32>)
// CHECK-NOT: arith.subf
// CHECK: return
func.func @row_mean_mixed_f16(%x: tensor<1x4x3xf16>) -> tensor<1x2xf16> {
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x3xf16> into tensor<4x3xf16>
  %w0 = arith.constant dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]]> : tensor<3x3xf16>
  %c0 = arith.constant dense<0.125> : tensor<4x3xf32>
  %g = linalg.matmul ins(%xf, %w0 : tensor<4x3xf16>, tensor<3x3xf16>) outs(%c0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %zc = arith.constant dense<0.0> : tensor<4x3xf32>
  %g1 = arith.maximumf %g, %zc : tensor<4x3xf32>
  %h = arith.truncf %g1 : tensor<4x3xf32> to tensor<4x3xf16>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf16>
  %c1 = arith.constant dense<[[0.0, -0.05, -0.1], [0.1, 0.05, 0.0], [0.2, 0.15, 0.1], [0.3, 0.25, 0.2]]> : tensor<4x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf16>, tensor<3x3xf16>) outs(%c1 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %a16 = arith.truncf %a : tensor<4x3xf32> to tensor<4x3xf16>
  %ae = tensor.expand_shape %a16 [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf16> into tensor<1x4x3xf16>
  %s = arith.addf %x, %ae : tensor<1x4x3xf16>
  %r0 = arith.constant dense<0.0> : tensor<1x3xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%s : tensor<1x4x3xf16>) outs(%r0 : tensor<1x3xf16>) {
  ^bb0(%in: f16, %out: f16):
    %t = arith.addf %in, %out : f16
    linalg.yield %t : f16
  } -> tensor<1x3xf16>
  %four = arith.constant dense<4.0> : tensor<1x3xf16>
  %d = arith.divf %m, %four : tensor<1x3xf16>
  %e0 = tensor.empty() : tensor<1x3xf32>
  %mu1 = arith.constant dense<[0.5, -0.25, 0.125]> : tensor<3xf32>
  %b1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d, %mu1 : tensor<1x3xf16>, tensor<3xf32>) outs(%e0 : tensor<1x3xf32>) {
  ^bb0(%in: f16, %mu: f32, %out: f32):
    %wide = arith.extf %in : f16 to f32
    %t = arith.subf %wide, %mu : f32
    linalg.yield %t : f32
  } -> tensor<1x3xf32>
  %b1t = arith.truncf %b1 : tensor<1x3xf32> to tensor<1x3xf16>
  %b1e = arith.extf %b1t : tensor<1x3xf16> to tensor<1x3xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %c2 = arith.constant dense<[[0.5, -0.25]]> : tensor<1x2xf32>
  %r1 = linalg.matmul ins(%b1e, %w2 : tensor<1x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mu2 = arith.constant dense<[-0.5, 0.75, 0.25]> : tensor<3xf32>
  %b2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d, %mu2 : tensor<1x3xf16>, tensor<3xf32>) outs(%e0 : tensor<1x3xf32>) {
  ^bb0(%in: f16, %mu: f32, %out: f32):
    %wide = arith.extf %in : f16 to f32
    %t = arith.subf %wide, %mu : f32
    linalg.yield %t : f32
  } -> tensor<1x3xf32>
  %b2t = arith.truncf %b2 : tensor<1x3xf32> to tensor<1x3xf16>
  %b2e = arith.extf %b2t : tensor<1x3xf16> to tensor<1x3xf32>
  %w3 = arith.constant dense<[[0.25, 1.0], [-0.5, 0.5], [2.0, -1.0]]> : tensor<3x2xf32>
  %r2 = linalg.matmul ins(%b2e, %w3 : tensor<1x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = arith.addf %r1, %r2 : tensor<1x2xf32>
  %rt = arith.truncf %r : tensor<1x2xf32> to tensor<1x2xf16>
  return %rt : tensor<1x2xf16>
}

// Must not fire: between the mean and the Linear a square (`extf; mulf %e, %e`), not
// an affine step: the Linear does not read a linear map of the rows.
// CHECK-LABEL: func.func @row_mean_squared_f16(
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<3x2xf32>)
// CHECK-NOT: iterator_types = ["parallel", "reduction", "parallel", "reduction"]
// CHECK: return
func.func @row_mean_squared_f16(%x: tensor<1x4x3xf16>, %h: tensor<4x3xf16>) -> tensor<1x2xf32> {
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf16>
  %c1 = arith.constant dense<0.0> : tensor<4x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf16>, tensor<3x3xf16>) outs(%c1 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %a16 = arith.truncf %a : tensor<4x3xf32> to tensor<4x3xf16>
  %ae = tensor.expand_shape %a16 [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf16> into tensor<1x4x3xf16>
  %s = arith.addf %x, %ae : tensor<1x4x3xf16>
  %r0 = arith.constant dense<0.0> : tensor<1x3xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%s : tensor<1x4x3xf16>) outs(%r0 : tensor<1x3xf16>) {
  ^bb0(%in: f16, %out: f16):
    %t = arith.addf %in, %out : f16
    linalg.yield %t : f16
  } -> tensor<1x3xf16>
  %e0 = tensor.empty() : tensor<1x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<1x3xf16>) outs(%e0 : tensor<1x3xf32>) {
  ^bb0(%in: f16, %out: f32):
    %wide = arith.extf %in : f16 to f32
    %t = arith.mulf %wide, %wide : f32
    linalg.yield %t : f32
  } -> tensor<1x3xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %c2 = arith.constant dense<[[0.5, -0.25]]> : tensor<1x2xf32>
  %r = linalg.matmul ins(%b, %w2 : tensor<1x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
