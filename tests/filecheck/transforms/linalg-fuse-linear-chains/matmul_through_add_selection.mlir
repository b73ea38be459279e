// A matmul reading a strided selection of a residual stream's rows (LeViT's
// AttentionSubsample q Linear: `x.view(B, 4, 4, C)[:, ::2, ::2]`) composes with the matmul
// branch of the add (chains_through_adds_rows.py, row_selections.py): a matmul acts row
// by row, so the selection moves onto its input; both the composed matmul and the kept
// matmul of the skip read the same selection of their own rows (and the first matmul's
// per-row init is selected too). One level instead of two.
// Must not fire: a slice that drops features (its last axis not whole).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt > /dev/null
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt > /dev/null
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function selected_rows | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function features_cut | filecheck %s --check-prefix=EQUIV
// f16: the fused matmul drops the f16 rounding of the branch (the mixed-precision rule)
// and its composed weight is rounded to f16 once: a few f16 ulps.
// RUN: heirpy-equiv %s %t --function selected_rows_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// BEFORE: @selected_rows {{ +}}2+
// BEFORE: @selected_rows_f16 {{ +}}2+
// BEFORE: @features_cut {{ +}}2+
// AFTER: @selected_rows {{ +}}1+
// AFTER: @selected_rows_f16 {{ +}}1+
// AFTER: @features_cut {{ +}}2+

// CHECK-LABEL: func.func @selected_rows(
// CHECK-SAME: %[[X:.*]]: tensor<1x16x3xf32>
// CHECK: %[[H:.*]] = arith.maximumf
// CHECK: %[[HE:.*]] = tensor.expand_shape %[[H]] {{\[\[}}0, 1], [2]] output_shape [1, 16, 3] : tensor<16x3xf32> into tensor<1x16x3xf32>
// CHECK: %[[HG:.*]] = tensor.expand_shape %[[HE]] {{\[\[}}0], [1, 2], [3]] output_shape [1, 4, 4, 3]
// CHECK: %[[HS:.*]] = tensor.extract_slice %[[HG]][0, 0, 0, 0] [1, 2, 2, 3] [1, 2, 2, 1] : tensor<1x4x4x3xf32> to tensor<1x2x2x3xf32>
// CHECK: %[[HR:.*]] = tensor.collapse_shape %[[HS]] {{\[\[}}0, 1, 2], [3]] : tensor<1x2x2x3xf32> into tensor<4x3xf32>
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3]] output_shape [1, 4, 4, 3]
// CHECK: %[[XS:.*]] = tensor.extract_slice %[[XG]][0, 0, 0, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: %[[XR:.*]] = tensor.collapse_shape %[[XS]] {{\[\[}}0, 1, 2], [3]] : tensor<1x2x2x3xf32> into tensor<4x3xf32>
// CHECK: %[[KEPT:.*]] = linalg.matmul ins(%[[XR]], %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[HR]], %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>) outs(%[[KEPT]] : tensor<4x2xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: return %[[R]]
func.func @selected_rows(%x: tensor<1x16x3xf32>) -> tensor<4x2xf32> {
  %zc = arith.constant dense<0.0> : tensor<16x3xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x16x3xf32> into tensor<16x3xf32>
  %h = arith.maximumf %xf, %zc : tensor<16x3xf32>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %c1 = arith.constant dense<[[0.0, -0.05, -0.1], [0.1, 0.05, 0.0], [0.2, 0.15, 0.1], [0.3, 0.25, 0.2], [0.4, 0.35, 0.3], [0.5, 0.45, 0.4], [0.6, 0.55, 0.5], [0.7, 0.65, 0.6], [0.8, 0.75, 0.7], [0.9, 0.85, 0.8], [1.0, 0.95, 0.9], [1.1, 1.05, 1.0], [1.2, 1.15, 1.1], [1.3, 1.25, 1.2], [1.4, 1.35, 1.3], [1.5, 1.45, 1.4]]> : tensor<16x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<16x3xf32>, tensor<3x3xf32>) outs(%c1 : tensor<16x3xf32>) -> tensor<16x3xf32>
  %ae = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 16, 3] : tensor<16x3xf32> into tensor<1x16x3xf32>
  %s = arith.addf %x, %ae : tensor<1x16x3xf32>
  %g = tensor.expand_shape %s [[0], [1, 2], [3]] output_shape [1, 4, 4, 3] : tensor<1x16x3xf32> into tensor<1x4x4x3xf32>
  %t = tensor.extract_slice %g[0, 0, 0, 0] [1, 2, 2, 3] [1, 2, 2, 1] : tensor<1x4x4x3xf32> to tensor<1x2x2x3xf32>
  %sf = tensor.collapse_shape %t [[0, 1, 2], [3]] : tensor<1x2x2x3xf32> into tensor<4x3xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %c2 = arith.constant dense<[[0.5, -0.5], [0.5, -0.25], [0.25, -0.5], [0.0, 1.0]]> : tensor<4x2xf32>
  %r = linalg.matmul ins(%sf, %w2 : tensor<4x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// torch-mlir's f16 form: f16 operands into f32 accumulators, a truncf after the branch.
// The slices start at row 1 / column 1 here (offsets on the row axes are fine).
// CHECK-LABEL: func.func @selected_rows_f16(
// CHECK: %[[H:.*]] = arith.maximumf
// CHECK: tensor.extract_slice %{{.*}}[0, 1, 1, 0] [1, 2, 2, 3] [1, 2, 2, 1] : tensor<1x4x4x3xf16> to tensor<1x2x2x3xf16>
// CHECK: tensor.extract_slice %{{.*}}[0, 1, 1, 0] [1, 2, 2, 3] [1, 2, 2, 1] : tensor<1x4x4x3xf16> to tensor<1x2x2x3xf16>
// CHECK: %[[KEPT:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xf16>, tensor<3x2xf16>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xf16>, tensor<3x2xf16>) outs(%[[KEPT]] : tensor<4x2xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @selected_rows_f16(%x: tensor<1x16x3xf16>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %zc = arith.constant dense<0.0> : tensor<16x3xf16>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x16x3xf16> into tensor<16x3xf16>
  %h = arith.maximumf %xf, %zc : tensor<16x3xf16>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf16>
  %c1 = arith.constant dense<[[0.0, -0.05, -0.1], [0.1, 0.05, 0.0], [0.2, 0.15, 0.1], [0.3, 0.25, 0.2], [0.4, 0.35, 0.3], [0.5, 0.45, 0.4], [0.6, 0.55, 0.5], [0.7, 0.65, 0.6], [0.8, 0.75, 0.7], [0.9, 0.85, 0.8], [1.0, 0.95, 0.9], [1.1, 1.05, 1.0], [1.2, 1.15, 1.1], [1.3, 1.25, 1.2], [1.4, 1.35, 1.3], [1.5, 1.45, 1.4]]> : tensor<16x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<16x3xf16>, tensor<3x3xf16>) outs(%c1 : tensor<16x3xf32>) -> tensor<16x3xf32>
  %a16 = arith.truncf %a : tensor<16x3xf32> to tensor<16x3xf16>
  %ae = tensor.expand_shape %a16 [[0, 1], [2]] output_shape [1, 16, 3] : tensor<16x3xf16> into tensor<1x16x3xf16>
  %s = arith.addf %x, %ae : tensor<1x16x3xf16>
  %g = tensor.expand_shape %s [[0], [1, 2], [3]] output_shape [1, 4, 4, 3] : tensor<1x16x3xf16> into tensor<1x4x4x3xf16>
  %t = tensor.extract_slice %g[0, 1, 1, 0] [1, 2, 2, 3] [1, 2, 2, 1] : tensor<1x4x4x3xf16> to tensor<1x2x2x3xf16>
  %sf = tensor.collapse_shape %t [[0, 1, 2], [3]] : tensor<1x2x2x3xf16> into tensor<4x3xf16>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf16>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = linalg.matmul ins(%sf, %w2 : tensor<4x3xf16>, tensor<3x2xf16>) outs(%z2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// Must not fire: the slice keeps 2 of the 3 features, no selection of whole rows.
// CHECK-LABEL: func.func @features_cut(
// CHECK: %[[A:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x3xf32>, tensor<3x3xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 2, 2, 2] [1, 2, 2, 1]
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<2x2xf32>)
func.func @features_cut(%x: tensor<1x16x3xf32>) -> tensor<4x2xf32> {
  %zc = arith.constant dense<0.0> : tensor<16x3xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x16x3xf32> into tensor<16x3xf32>
  %h = arith.maximumf %xf, %zc : tensor<16x3xf32>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %c1 = arith.constant dense<0.25> : tensor<16x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<16x3xf32>, tensor<3x3xf32>) outs(%c1 : tensor<16x3xf32>) -> tensor<16x3xf32>
  %ae = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 16, 3] : tensor<16x3xf32> into tensor<1x16x3xf32>
  %s = arith.addf %x, %ae : tensor<1x16x3xf32>
  %g = tensor.expand_shape %s [[0], [1, 2], [3]] output_shape [1, 4, 4, 3] : tensor<1x16x3xf32> into tensor<1x4x4x3xf32>
  %t = tensor.extract_slice %g[0, 0, 0, 0] [1, 2, 2, 2] [1, 2, 2, 1] : tensor<1x4x4x3xf32> to tensor<1x2x2x2xf32>
  %sf = tensor.collapse_shape %t [[0, 1, 2], [3]] : tensor<1x2x2x2xf32> into tensor<4x2xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25]]> : tensor<2x2xf32>
  %c2 = arith.constant dense<0.0> : tensor<4x2xf32>
  %r = linalg.matmul ins(%sf, %w2 : tensor<4x2xf32>, tensor<2x2xf32>) outs(%c2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
