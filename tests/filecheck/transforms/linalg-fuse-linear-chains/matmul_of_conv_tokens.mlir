// A matmul on the tokens of a conv's feature map (`x.flatten(2).transpose(1, 2)`, LeViT's
// stem conv into the first qkv Linear) composes with the conv (chains_through_tokens.py):
// the composed conv's filter is sum_c W[c, f] K[c], its init the conv's init through W
// plus the matmul's init (per token: back in NCHW), and the layout ops move onto its
// output. One level instead of two. When the tokens also feed a residual add, the conv
// stays for it, and a matmul reading that add still composes through it: the conv's
// tokens are no deeper than the branch (`no_deeper`).
// Must not fire: a layout that does not make tokens (rows the channels).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt > /dev/null
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt > /dev/null
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function conv_tokens | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function stem_block | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function channels_as_rows | filecheck %s --check-prefix=EQUIV
// f16: the composed conv drops the f16 rounding of the conv's output (the mixed-precision
// rule) and its filter is rounded to f16 once: a few f16 ulps.
// RUN: heirpy-equiv %s %t --function conv_tokens_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// BEFORE: @conv_tokens {{ +}}2 {{ +}}2 {{ +}}2
// BEFORE: @conv_tokens_f16 {{ +}}2 {{ +}}2 {{ +}}2
// BEFORE: @stem_block {{ +}}4+ {{ +}}4 {{ +}}4
// BEFORE: @channels_as_rows {{ +}}2 {{ +}}2 {{ +}}2
// AFTER: @conv_tokens {{ +}}1 {{ +}}1 {{ +}}1
// AFTER: @conv_tokens_f16 {{ +}}1 {{ +}}1 {{ +}}1
// AFTER: @stem_block {{ +}}2+ {{ +}}2 {{ +}}4
// AFTER: @channels_as_rows {{ +}}2 {{ +}}2 {{ +}}2

// CHECK-LABEL: func.func @conv_tokens(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<5x2x3x3xf32>) outs(%{{.*}} : tensor<1x5x2x2xf32>)
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0], [1], [2, 3]] : tensor<1x5x2x2xf32> into tensor<1x5x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[F]] : tensor<1x5x4xf32>) outs(%{{.*}} : tensor<1x4x5xf32>) permutation = [0, 2, 1]
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0, 1], [2]] : tensor<1x4x5xf32> into tensor<4x5xf32>
// CHECK-NOT: linalg.matmul
// CHECK: return %[[R]]
func.func @conv_tokens(%x: tensor<1x2x4x4xf32>) -> tensor<4x5xf32> {
  %k = arith.constant dense<[[[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]], [[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]], [[[0.25, 0.5, 1.0], [-1.0, 0.5, 0.0], [0.75, -0.5, 0.25]], [[0.0, 1.0, -1.0], [0.5, 0.25, 0.125], [-0.5, 1.5, 0.5]]], [[[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 2.0]], [[-0.25, 0.25, -0.25], [0.5, -0.5, 0.5], [1.0, 1.0, -1.0]]]]> : tensor<3x2x3x3xf32>
  %b = arith.constant dense<[0.5, -0.25, 1.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<1x3x2x2xf32>
  %c1 = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<1x3x2x2xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) outs(%c1 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %a = tensor.collapse_shape %y [[0], [1], [2, 3]] : tensor<1x3x2x2xf32> into tensor<1x3x4xf32>
  %et = tensor.empty() : tensor<1x4x3xf32>
  %t = linalg.transpose ins(%a : tensor<1x3x4xf32>) outs(%et : tensor<1x4x3xf32>) permutation = [0, 2, 1]
  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %w = arith.constant dense<[[1.0, -0.5, 0.25, 0.0, 2.0], [0.5, 0.25, -1.0, 1.0, 0.5], [-1.0, 2.0, 0.5, -0.5, 0.25]]> : tensor<3x5xf32>
  %c2 = arith.constant dense<[[0.5, -0.5, 0.0, 1.0, 0.25], [0.1, 0.2, 0.3, 0.4, 0.5], [-1.0, 0.0, 1.0, 0.0, -1.0], [2.0, 1.0, 0.5, 0.25, 0.125]]> : tensor<4x5xf32>
  %m = linalg.matmul ins(%r, %w : tensor<4x3xf32>, tensor<3x5xf32>) outs(%c2 : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %m : tensor<4x5xf32>
}

// torch-mlir's f16 form: f16 operands into f32 accumulators, a truncf after the conv.
// CHECK-LABEL: func.func @conv_tokens_f16(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x4x4xf16>, tensor<5x2x3x3xf16>) outs(%{{.*}} : tensor<1x5x2x2xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @conv_tokens_f16(%x: tensor<1x2x4x4xf16>) -> tensor<4x5xf32> {
  %k = arith.constant dense<[[[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]], [[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]], [[[0.25, 0.5, 1.0], [-1.0, 0.5, 0.0], [0.75, -0.5, 0.25]], [[0.0, 1.0, -1.0], [0.5, 0.25, 0.125], [-0.5, 1.5, 0.5]]], [[[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 2.0]], [[-0.25, 0.25, -0.25], [0.5, -0.5, 0.5], [1.0, 1.0, -1.0]]]]> : tensor<3x2x3x3xf16>
  %b = arith.constant dense<[0.5, -0.25, 1.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<1x3x2x2xf32>
  %c1 = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<1x3x2x2xf32>) dimensions = [0, 2, 3]
  %y32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x2x4x4xf16>, tensor<3x2x3x3xf16>) outs(%c1 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %y = arith.truncf %y32 : tensor<1x3x2x2xf32> to tensor<1x3x2x2xf16>
  %a = tensor.collapse_shape %y [[0], [1], [2, 3]] : tensor<1x3x2x2xf16> into tensor<1x3x4xf16>
  %et = tensor.empty() : tensor<1x4x3xf16>
  %t = linalg.transpose ins(%a : tensor<1x3x4xf16>) outs(%et : tensor<1x4x3xf16>) permutation = [0, 2, 1]
  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<1x4x3xf16> into tensor<4x3xf16>
  %w = arith.constant dense<[[1.0, -0.5, 0.25, 0.0, 2.0], [0.5, 0.25, -1.0, 1.0, 0.5], [-1.0, 2.0, 0.5, -0.5, 0.25]]> : tensor<3x5xf16>
  %bias = arith.constant dense<[0.5, -0.5, 0.0, 1.0, 0.25]> : tensor<5xf32>
  %e2 = tensor.empty() : tensor<4x5xf32>
  %c2 = linalg.broadcast ins(%bias : tensor<5xf32>) outs(%e2 : tensor<4x5xf32>) dimensions = [0]
  %m = linalg.matmul ins(%r, %w : tensor<4x3xf16>, tensor<3x5xf16>) outs(%c2 : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %m : tensor<4x5xf32>
}

// LeViT's first block in small: the stem conv's tokens feed the qkv-like Linear and the
// residual add around the block; the conv stays for the add, and the Linear after the
// add composes through it (the skip: the conv's tokens, no deeper than the branch).
// CHECK-LABEL: func.func @stem_block(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>
// CHECK-DAG: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>)
// CHECK-DAG: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>)
// CHECK: arith.maximumf
// CHECK-COUNT-2: linalg.matmul
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @stem_block(%x: tensor<1x2x4x4xf32>) -> tensor<4x2xf32> {
  %k = arith.constant dense<[[[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 0.75, 1.0]], [[1.0, 0.5, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]], [[[0.25, 0.5, 1.0], [-1.0, 0.5, 0.0], [0.75, -0.5, 0.25]], [[0.0, 1.0, -1.0], [0.5, 0.25, 0.125], [-0.5, 1.5, 0.5]]], [[[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 2.0]], [[-0.25, 0.25, -0.25], [0.5, -0.5, 0.5], [1.0, 1.0, -1.0]]]]> : tensor<3x2x3x3xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x3x2x2xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) outs(%c1 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %a = tensor.collapse_shape %y [[0], [1], [2, 3]] : tensor<1x3x2x2xf32> into tensor<1x3x4xf32>
  %et = tensor.empty() : tensor<1x4x3xf32>
  %t = linalg.transpose ins(%a : tensor<1x3x4xf32>) outs(%et : tensor<1x4x3xf32>) permutation = [0, 2, 1]
  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %wa = arith.constant dense<[[1.0, -0.5, 0.25], [0.5, 0.25, -1.0], [-1.0, 2.0, 0.5]]> : tensor<3x3xf32>
  %ca = arith.constant dense<0.25> : tensor<4x3xf32>
  %q = linalg.matmul ins(%r, %wa : tensor<4x3xf32>, tensor<3x3xf32>) outs(%ca : tensor<4x3xf32>) -> tensor<4x3xf32>
  %z = arith.constant dense<0.0> : tensor<4x3xf32>
  %h = arith.maximumf %q, %z : tensor<4x3xf32>
  %wp = arith.constant dense<[[0.5, 1.0, -0.5], [0.25, -1.0, 2.0], [0.5, 0.5, 0.5]]> : tensor<3x3xf32>
  %cp = arith.constant dense<-0.5> : tensor<4x3xf32>
  %p = linalg.matmul ins(%h, %wp : tensor<4x3xf32>, tensor<3x3xf32>) outs(%cp : tensor<4x3xf32>) -> tensor<4x3xf32>
  %pe = tensor.expand_shape %p [[0, 1], [2]] output_shape [1, 4, 3] : tensor<4x3xf32> into tensor<1x4x3xf32>
  %s = arith.addf %t, %pe : tensor<1x4x3xf32>
  %sf = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x4x3xf32> into tensor<4x3xf32>
  %wf = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0]]> : tensor<3x2xf32>
  %cf = arith.constant dense<0.0> : tensor<4x2xf32>
  %o = linalg.matmul ins(%sf, %wf : tensor<4x3xf32>, tensor<3x2xf32>) outs(%cf : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %o : tensor<4x2xf32>
}

// Must not fire: no transpose, so the matmul's rows are the conv's channels and its
// features the positions, not tokens.
// CHECK-LABEL: func.func @channels_as_rows(
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x4xf32>, tensor<4x2xf32>)
func.func @channels_as_rows(%x: tensor<1x2x4x4xf32>) -> tensor<3x2xf32> {
  %k = arith.constant dense<0.5> : tensor<3x2x3x3xf32>
  %c1 = arith.constant dense<0.25> : tensor<1x3x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) outs(%c1 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %a = tensor.collapse_shape %y [[0, 1], [2, 3]] : tensor<1x3x2x2xf32> into tensor<3x4xf32>
  %w = arith.constant dense<[[1.0, -0.5], [0.5, 0.25], [-1.0, 2.0], [0.25, 0.75]]> : tensor<4x2xf32>
  %c2 = arith.constant dense<0.0> : tensor<3x2xf32>
  %m = linalg.matmul ins(%a, %w : tensor<3x4xf32>, tensor<4x2xf32>) outs(%c2 : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %m : tensor<3x2xf32>
}
