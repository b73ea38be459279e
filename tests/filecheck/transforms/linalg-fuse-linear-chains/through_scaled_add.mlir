// Linear chains through a skip add whose skip carries a constant scale
// (chains_through_adds.py: `scaled_add_operands`, `FuseChainThroughAdd._peel_scale`).
// f32 MobileNetV3-large read one level over its bound (79 vs 78) where its f16 twin did
// not: the first block's `project(h) + x` feeds the next block's `expand` conv, and the
// forward fold had moved hardswish's `/ 6` onto the skip (`%a + %x / 6`), which no
// longer matched a plain add (in f16 the truncf after hardswish keeps the `/ 6` there).
// `conv2(conv1(h) + s * x) = (conv2 ∘ conv1)(h) + conv(x, s * w2)`: the scale goes into
// the kept conv's filter. @hardswish_residual is that block under the main pipeline,
// the others the add's generic-body forms (the scale by divf, by mulf, on either input).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops 2>/dev/null | filecheck %s --check-prefix=PIPELINE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt | filecheck %s --check-prefix=REPARSE
// Depth: the positives one level less (two for the main pipeline's hardswish block, as
// before the fold moved the scale), the negatives as they were.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=MAIN
// Numerics, f32 and f16: the rewritten functions compute what the originals did.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops -o %t.main
// RUN: heirpy-equiv %s %t.main --function hardswish_residual | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.main --function hardswish_residual_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function skip_divided | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function skip_divided_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function skip_multiplied_first | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function skip_multiplied_first_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @hardswish_residual(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x4x4xf32>) outs(%ea : tensor<1x2x4x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %three = arith.constant 3.0 : f32
    %six = arith.constant 6.0 : f32
    %c0 = arith.constant 0.0 : f32
    %t = arith.addf %p, %three : f32
    %lo = arith.maximumf %t, %c0 : f32
    %hi = arith.minimumf %lo, %six : f32
    %m = arith.mulf %p, %hi : f32
    %d = arith.divf %m, %six : f32
    linalg.yield %d : f32
  } -> tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.addf %a, %h : tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @hardswish_residual_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x4x4xf16>) outs(%ea : tensor<1x2x4x4xf16>) {
  ^bb0(%p: f16, %o: f16):
    %three = arith.constant 3.0 : f16
    %six = arith.constant 6.0 : f16
    %c0 = arith.constant 0.0 : f16
    %t = arith.addf %p, %three : f16
    %lo = arith.maximumf %t, %c0 : f16
    %hi = arith.minimumf %lo, %six : f16
    %m = arith.mulf %p, %hi : f16
    %d = arith.divf %m, %six : f16
    linalg.yield %d : f16
  } -> tensor<1x2x4x4xf16>
  %za = linalg.fill ins(%zero : f16) outs(%ea : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%za : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s = arith.addf %a, %h : tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @skip_divided(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %x : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%ea : tensor<1x2x4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c = arith.constant 6.0 : f32
    %d = arith.divf %q, %c : f32
    %t = arith.addf %p, %d : f32
    linalg.yield %t : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @skip_divided_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf16>
  %za = linalg.fill ins(%zero : f16) outs(%ea : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%za : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %x : tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) outs(%ea : tensor<1x2x4x4xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %c = arith.constant 6.0 : f16
    %d = arith.divf %q, %c : f16
    %t = arith.addf %p, %d : f16
    linalg.yield %t : f16
  } -> tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @skip_multiplied_first(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %a : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%ea : tensor<1x2x4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c = arith.constant 6.0 : f32
    %k = arith.constant 2.500000e-01 : f32
    %d = arith.mulf %k, %p : f32
    %t = arith.addf %q, %d : f32
    linalg.yield %t : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @skip_multiplied_first_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf16>
  %za = linalg.fill ins(%zero : f16) outs(%ea : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%za : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %a : tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) outs(%ea : tensor<1x2x4x4xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %c = arith.constant 6.0 : f16
    %k = arith.constant 2.500000e-01 : f16
    %d = arith.mulf %k, %p : f16
    %t = arith.addf %q, %d : f16
    linalg.yield %t : f16
  } -> tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @branch_scaled(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %x : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%ea : tensor<1x2x4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c = arith.constant 6.0 : f32
    %d = arith.mulf %p, %c : f32
    %t = arith.addf %d, %q : f32
    linalg.yield %t : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @relu_on_skip(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %x : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%ea : tensor<1x2x4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c = arith.constant 6.0 : f32
    %m = arith.maximumf %q, %c : f32
    %t = arith.addf %p, %m : f32
    linalg.yield %t : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @skip_squared(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %x : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%ea : tensor<1x2x4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c = arith.constant 6.0 : f32
    %d = arith.mulf %q, %q : f32
    %t = arith.addf %p, %d : f32
    linalg.yield %t : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @skip_times_argument(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %k = arith.mulf %x, %y : tensor<1x2x4x4xf32>
  %s = arith.addf %a, %k : tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

// The hardswish block through the main pipeline, where no add and no scale is left; the composed
// conv and the kept conv (its filter w2 / 6: -0.400 / 6) both read hardswish's product.
// PIPELINE-LABEL: func.func @hardswish_residual(
// PIPELINE: %[[H:.*]] = linalg.generic
// PIPELINE: arith.mulf
// PIPELINE-NOT: arith.divf
// PIPELINE: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>)
// PIPELINE-NEXT: arith.constant
// PIPELINE-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%[[SKIP]] :
// PIPELINE-NEXT: return %[[R]]
// PIPELINE-LABEL: func.func @hardswish_residual_f16(
// PIPELINE: %[[H:.*]] = linalg.generic
// PIPELINE-NOT: arith.divf
// PIPELINE: arith.constant dense<{{\[\[\[\[}}-6.66{{[0-9]*}}e-02]]
// PIPELINE-NEXT: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H]], %{{.*}} : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>)
// PIPELINE-NEXT: arith.constant
// PIPELINE-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H]], %{{.*}} outs(%[[SKIP]] :
// PIPELINE-NEXT: return
// PIPELINE-LABEL: func.func @skip_divided(
// The kept conv of the skip: w2 / 6 (-0.400 / 6, 0.747 / 6), then the composed conv.
// CHECK-LABEL: func.func @hardswish_residual_f16(
// CHECK-LABEL: func.func @skip_divided(
// CHECK-NOT: linalg.generic
// CHECK: arith.constant dense<{{\[\[\[\[}}-0.0666666{{[0-9]*}}]], {{\[\[}}1.245000e-01]]
// CHECK-NEXT: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, {{.*}} outs(%[[SKIP]] :
// CHECK-LABEL: func.func @skip_divided_f16(
// CHECK-NOT: linalg.generic
// CHECK: arith.constant dense<{{\[\[\[\[}}-6.66{{[0-9]*}}e-02]]
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// The skip is the first input, times 0.25 (w2 / 4: -0.1, 0.18675).
// CHECK-LABEL: func.func @skip_multiplied_first(
// CHECK-NOT: linalg.generic
// CHECK: arith.constant dense<{{\[\[\[\[}}-1.000000e-01]], {{\[\[}}1.867500e-01]]
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// CHECK-LABEL: func.func @skip_multiplied_first_f16(
// CHECK-NOT: linalg.generic
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// Negatives: the scale on the branch's addend (this pattern reads the branch as it is),
// a relu on the skip, the skip times itself, the skip times a run-time value.
// CHECK-LABEL: func.func @branch_scaled(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[A]], %x :
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]],
// CHECK-LABEL: func.func @relu_on_skip(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[A]], %x :
// CHECK: arith.maximumf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]],
// CHECK-LABEL: func.func @skip_squared(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[A]], %x :
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]],
// CHECK-LABEL: func.func @skip_times_argument(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: %[[K:.*]] = arith.mulf %x, %y
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[K]]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]],
// CHECK-NEXT: return
// REPARSE-LABEL: func.func @hardswish_residual(
// REPARSE-LABEL: func.func @skip_times_argument(
// BEFORE: @hardswish_residual {{ +}}3+
// BEFORE: @hardswish_residual_f16 {{ +}}3+
// BEFORE: @skip_divided {{ +}}2
// BEFORE: @skip_divided_f16 {{ +}}2
// BEFORE: @skip_multiplied_first {{ +}}2
// BEFORE: @skip_multiplied_first_f16 {{ +}}2
// AFTER: @skip_divided {{ +}}1 {{ +}}1
// AFTER: @skip_divided_f16 {{ +}}1 {{ +}}1
// AFTER: @skip_multiplied_first {{ +}}1 {{ +}}1
// AFTER: @skip_multiplied_first_f16 {{ +}}1 {{ +}}1
// AFTER: @branch_scaled {{ +}}2 {{ +}}2
// AFTER: @relu_on_skip {{ +}}2+
// AFTER: @skip_squared {{ +}}3 {{ +}}3
// AFTER: @skip_times_argument {{ +}}2 {{ +}}2
// MAIN: @hardswish_residual {{ +}}2+
// MAIN: @hardswish_residual_f16 {{ +}}2+
