// Linear chains through a skip add on rows (chains_through_adds_rows.py): a matmul
// reading `rows(x + rows(matmul(h, w1)))`, x an ancestor of h (a transformer's residual
// stream, LeViT's Linears after their batch norms folded), becomes the matmul of h with
// w1 @ w2 accumulating into the matmul of the skip: one level instead of two. A matmul
// reading a matmul result that other ops also read composes with it, the first kept.
// Must not fire: a skip that is not an ancestor (no deeper is not known), reshapes that
// regroup the features, a skip read through a transposing reshape.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt > /dev/null
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt > /dev/null
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function residual_rows | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function fork_rows | filecheck %s --check-prefix=EQUIV
// f16: the fused matmul drops the f16 roundings of the intermediate values (the
// mixed-precision rule) and its composed weight is rounded to f16 once: a few f16 ulps.
// RUN: heirpy-equiv %s %t --function residual_rows_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function fork_rows_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// Depth (result depths): each positive one level less on the path through the
// matmuls, each negative as it was.
// BEFORE: @residual_rows {{ +}}3+ {{ +}}3 {{ +}}3
// BEFORE: @residual_rows_f16 {{ +}}3+ {{ +}}3 {{ +}}3
// BEFORE: @fork_rows {{ +}}2+ {{ +}}2, 2 {{ +}}2
// BEFORE: @fork_rows_f16 {{ +}}2+ {{ +}}2, 2 {{ +}}2
// BEFORE: @skip_not_ancestor {{ +}}3+ {{ +}}3 {{ +}}2
// BEFORE: @rows_regrouped {{ +}}3+ {{ +}}3 {{ +}}2
// AFTER: @residual_rows {{ +}}2+ {{ +}}2 {{ +}}3
// AFTER: @residual_rows_f16 {{ +}}2+ {{ +}}2 {{ +}}3
// AFTER: @fork_rows {{ +}}2+ {{ +}}2, 1 {{ +}}2
// AFTER: @fork_rows_f16 {{ +}}2+ {{ +}}2, 1 {{ +}}2
// AFTER: @skip_not_ancestor {{ +}}3+ {{ +}}3 {{ +}}2
// AFTER: @rows_regrouped {{ +}}3+ {{ +}}3 {{ +}}2

// CHECK-LABEL: func.func @residual_rows(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x3xf32>
// CHECK: %[[H:.*]] = arith.maximumf
// CHECK: %[[XF:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
// CHECK: %[[KEPT:.*]] = linalg.matmul ins(%[[XF]], %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[H]], %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>) outs(%[[KEPT]] : tensor<4x2xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: return %[[R]]
func.func @residual_rows(%x: tensor<1x4x3xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %w0 = arith.constant dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]]> : tensor<3x3xf32>
  %e0 = tensor.empty() : tensor<4x3xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %g = linalg.matmul ins(%xf, %w0 : tensor<4x3xf32>, tensor<3x3xf32>) outs(%z0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %zc = arith.constant dense<0.0> : tensor<4x3xf32>
  %h = arith.maximumf %g, %zc : tensor<4x3xf32>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %c1 = arith.constant dense<[[0.1, 0.2, 0.3], [0.1, 0.2, 0.3], [0.1, 0.2, 0.3], [0.1, 0.2, 0.3]]> : tensor<4x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf32>, tensor<3x3xf32>) outs(%c1 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %ae = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf32> into tensor<1x4x3xf32>
  %s = arith.addf %x, %ae : tensor<1x4x3xf32>
  %sf = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %c2 = arith.constant dense<[[0.5, -0.5], [0.5, -0.5], [0.5, -0.5], [0.5, -0.5]]> : tensor<4x2xf32>
  %r = linalg.matmul ins(%sf, %w2 : tensor<4x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// torch-mlir's f16 form: f16 operands into f32 accumulators, a truncf after each.
// CHECK-LABEL: func.func @residual_rows_f16(
// CHECK: %[[H:.*]] = arith.maximumf
// CHECK: %[[KEPT:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xf16>, tensor<3x2xf16>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: linalg.matmul ins(%[[H]], %{{.*}} : tensor<4x3xf16>, tensor<3x2xf16>) outs(%[[KEPT]] : tensor<4x2xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @residual_rows_f16(%x: tensor<1x4x3xf16>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x3xf16> into tensor<4x3xf16>
  %w0 = arith.constant dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]]> : tensor<3x3xf16>
  %e0 = tensor.empty() : tensor<4x3xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %g32 = linalg.matmul ins(%xf, %w0 : tensor<4x3xf16>, tensor<3x3xf16>) outs(%z0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %g = arith.truncf %g32 : tensor<4x3xf32> to tensor<4x3xf16>
  %zc = arith.constant dense<0.0> : tensor<4x3xf16>
  %h = arith.maximumf %g, %zc : tensor<4x3xf16>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf16>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf16>, tensor<3x3xf16>) outs(%z0 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %a16 = arith.truncf %a : tensor<4x3xf32> to tensor<4x3xf16>
  %ae = tensor.expand_shape %a16 [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf16> into tensor<1x4x3xf16>
  %s = arith.addf %x, %ae : tensor<1x4x3xf16>
  %sf = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x4x3xf16> into tensor<4x3xf16>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf16>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = linalg.matmul ins(%sf, %w2 : tensor<4x3xf16>, tensor<3x2xf16>) outs(%z2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// The first matmul's result is also returned: it stays, the second reads h.
// CHECK-LABEL: func.func @fork_rows(
// CHECK: %[[H:.*]] = arith.maximumf
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[H]], %{{.*}} : tensor<4x3xf32>, tensor<3x3xf32>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[H]], %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>)
// CHECK: %[[G:.*]] = arith.mulf %[[P]], %[[P]]
// CHECK: return %[[G]], %[[R]]
func.func @fork_rows(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x2xf32>) {
  %zc = arith.constant dense<0.0> : tensor<4x3xf32>
  %h = arith.maximumf %x, %zc : tensor<4x3xf32>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %c1 = arith.constant dense<[[0.1, 0.2, 0.3], [0.1, 0.2, 0.3], [0.1, 0.2, 0.3], [0.1, 0.2, 0.3]]> : tensor<4x3xf32>
  %p = linalg.matmul ins(%h, %w1 : tensor<4x3xf32>, tensor<3x3xf32>) outs(%c1 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %c2 = arith.constant dense<[[0.5, -0.5], [0.5, -0.5], [0.5, -0.5], [0.5, -0.5]]> : tensor<4x2xf32>
  %r = linalg.matmul ins(%p, %w2 : tensor<4x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %g = arith.mulf %p, %p : tensor<4x3xf32>
  return %g, %r : tensor<4x3xf32>, tensor<4x2xf32>
}

// CHECK-LABEL: func.func @fork_rows_f16(
// CHECK: %[[H:.*]] = arith.maximumf
// CHECK: linalg.matmul ins(%[[H]], %{{.*}} : tensor<4x3xf16>, tensor<3x3xf16>)
// CHECK: linalg.matmul ins(%[[H]], %{{.*}} : tensor<4x3xf16>, tensor<3x2xf16>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK: return
func.func @fork_rows_f16(%x: tensor<4x3xf16>) -> (tensor<4x3xf16>, tensor<4x2xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %zc = arith.constant dense<0.0> : tensor<4x3xf16>
  %h = arith.maximumf %x, %zc : tensor<4x3xf16>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf16>
  %e1 = tensor.empty() : tensor<4x3xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %p32 = linalg.matmul ins(%h, %w1 : tensor<4x3xf16>, tensor<3x3xf16>) outs(%z1 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %p = arith.truncf %p32 : tensor<4x3xf32> to tensor<4x3xf16>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf16>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = linalg.matmul ins(%p, %w2 : tensor<4x3xf16>, tensor<3x2xf16>) outs(%z2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %g = arith.mulf %p, %p : tensor<4x3xf16>
  return %g, %r : tensor<4x3xf16>, tensor<4x2xf32>
}

// Must not fire: the skip %y is no ancestor of h, so it may be deeper.
// CHECK-LABEL: func.func @skip_not_ancestor(
// CHECK: %[[A:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3x3xf32>)
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[A]]
// CHECK: linalg.matmul ins(%[[S]], %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>)
func.func @skip_not_ancestor(%x: tensor<4x3xf32>, %y: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %zc = arith.constant dense<0.0> : tensor<4x3xf32>
  %y2 = arith.mulf %y, %y : tensor<4x3xf32>
  %h = arith.maximumf %x, %zc : tensor<4x3xf32>
  %w1 = arith.constant dense<[[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf32>, tensor<3x3xf32>) outs(%zc : tensor<4x3xf32>) -> tensor<4x3xf32>
  %s = arith.addf %y2, %a : tensor<4x3xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %c2 = arith.constant dense<0.0> : tensor<4x2xf32>
  %r = linalg.matmul ins(%s, %w2 : tensor<4x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %m = arith.mulf %r, %r : tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// Must not fire: the first matmul's rows are regrouped with its features ([4, 6] read
// as [8, 3]): row r of the second matmul is no row of the first.
// CHECK-LABEL: func.func @rows_regrouped(
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3x6xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x3xf32>, tensor<3x2xf32>)
func.func @rows_regrouped(%x: tensor<4x3xf32>) -> tensor<8x2xf32> {
  %zc = arith.constant dense<0.0> : tensor<4x3xf32>
  %h = arith.maximumf %x, %zc : tensor<4x3xf32>
  %w1 = arith.constant dense<1.5> : tensor<3x6xf32>
  %c1 = arith.constant dense<0.0> : tensor<4x6xf32>
  %a = linalg.matmul ins(%h, %w1 : tensor<4x3xf32>, tensor<3x6xf32>) outs(%c1 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %ae = tensor.expand_shape %a [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 1, 3] : tensor<4x3xf32> into tensor<4x1x3xf32>
  %xc = tensor.collapse_shape %xe [[0], [1, 2]] : tensor<4x1x3xf32> into tensor<4x3xf32>
  %xr = tensor.expand_shape %xc [[0, 1], [2]] output_shape [4, 1, 3] : tensor<4x3xf32> into tensor<4x1x3xf32>
  %e = tensor.empty() : tensor<4x2x3xf32>
  %xb = linalg.broadcast ins(%xc : tensor<4x3xf32>) outs(%e : tensor<4x2x3xf32>) dimensions = [1]
  %s = arith.addf %xb, %ae : tensor<4x2x3xf32>
  %sf = tensor.collapse_shape %s [[0, 1], [2]] : tensor<4x2x3xf32> into tensor<8x3xf32>
  %w2 = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %c2 = arith.constant dense<0.0> : tensor<8x2xf32>
  %r = linalg.matmul ins(%sf, %w2 : tensor<8x3xf32>, tensor<3x2xf32>) outs(%c2 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %m = arith.mulf %r, %r : tensor<8x2xf32>
  return %m : tensor<8x2xf32>
}
