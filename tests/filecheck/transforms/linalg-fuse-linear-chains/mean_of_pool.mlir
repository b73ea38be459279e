// A sum of a sum becomes one sum (sums_of_sums.py): ConvNeXt's head LayerNorm's mean
// over the channels of the global average pool, read through the pool's `/ 4`, the
// identity gather torch-mlir writes, the NCHW -> NHWC transpose and the f64 cast, is
// ONE sum of the last block's output over every axis but the batch, times 1/4, cast to
// f64 once. `FuseSumThroughAdd` then composes it (and the pool, kept for the centring)
// with the block's fc2 through the residual add (chains_through_spatial_sums.py): the
// mean is one level above the block's g instead of three (4 -> 2 below).
// Must not fire: a relu or a constant shift between the two sums (the pool alone
// still composes: 4 -> 3); a gather that repeats a channel; a mean that keeps H (the
// pool summed W only, a partial window: nothing fires).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt > /dev/null
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt > /dev/null
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function mean_of_pool | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function relu_between | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shift_between | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function gather_repeats | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function mean_keeps_rows | filecheck %s --check-prefix=EQUIV
// Mixed f16: the f16 roundings of the add, the pool and its divide go (the
// mixed-precision rule), so the f64 results move by up to 2 f16 ulps of the pooled
// values (~0.5): 4e-4 measured.
// RUN: heirpy-equiv %s %t --function mean_of_pool_f16 --rtol 2e-3 --atol 1e-3 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// BEFORE: @mean_of_pool {{ +}}4+ {{ +}}4, 4
// BEFORE: @mean_of_pool_f16 {{ +}}4+ {{ +}}4, 4
// BEFORE: @relu_between {{ +}}4+ {{ +}}4, 4
// BEFORE: @shift_between {{ +}}4+ {{ +}}4, 4
// BEFORE: @gather_repeats {{ +}}4+ {{ +}}4, 4
// BEFORE: @mean_keeps_rows {{ +}}4+
// AFTER: @mean_of_pool {{ +}}2+ {{ +}}2, 2
// AFTER: @mean_of_pool_f16 {{ +}}2+ {{ +}}2, 2
// AFTER: @relu_between {{ +}}3+ {{ +}}3, 3
// AFTER: @shift_between {{ +}}3+ {{ +}}3, 3
// AFTER: @gather_repeats {{ +}}3+ {{ +}}3, 3
// AFTER: @mean_keeps_rows {{ +}}4+

// The pool stays (a contraction now) for the centring; the mean is a sum of x over
// C, H, W (fc2's bias pushed in: 0.125 * 12) and a one-output contraction of g (fc2's
// weight summed over its outputs), times 1/4, cast to f64.
// CHECK-LABEL: func.func @mean_of_pool(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x2x2xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x4xf32>, tensor<3x4xf32>)
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: %[[T64:.*]] = arith.extf %[[T]]
// CHECK: %[[I:.*]] = arith.constant dense<1.500000e+00> : tensor<1x1x1x1xf32>
// CHECK: %[[K:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction", "reduction"]} ins(%[[X]] : tensor<1x3x2x2xf32>) outs(%[[I]] : tensor<1x1x1x1xf32>)
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}1.750000e+00, 0.000000e+00, 2.000000e+00, -7.500000e-01]]> : tensor<1x4xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x4x4xf32>, tensor<1x4xf32>) outs(%{{.*}} : tensor<1x1xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]]
// CHECK: %[[A:.*]] = arith.addf %[[E]], %[[K]]
// CHECK: %[[Q:.*]] = arith.constant dense<2.500000e-01> : tensor<1x1x1x1xf32>
// CHECK: %[[S:.*]] = arith.mulf %[[A]], %[[Q]]
// CHECK: %[[M:.*]] = arith.extf %[[S]] : tensor<1x1x1x1xf32> to tensor<1x1x1x1xf64>
// CHECK: arith.divf %[[M]]
func.func @mean_of_pool(%x: tensor<1x3x2x2xf32>) -> (tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>) {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %sp = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %p_z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sp : tensor<1x3x2x2xf32>) outs(%p_z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  %four = arith.constant dense<4.0> : tensor<1x3x1x1xf32>
  %pd = arith.divf %p, %four : tensor<1x3x1x1xf32>
  %i0 = arith.constant dense<0> : tensor<1x3x1x1xi64>
  %i1 = arith.constant dense<[[[[0]], [[1]], [[2]]]]> : tensor<1x3x1x1xi64>
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c3_i64 = arith.constant 3 : i64
  %ge = tensor.empty() : tensor<1x3x1x1xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%i0, %i1, %i0, %i0 : tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>) outs(%ge : tensor<1x3x1x1xf32>) {
  ^bb0(%n: i64, %c: i64, %h: i64, %w: i64, %out: f32):
    %n0 = arith.cmpi slt, %n, %c0_i64 : i64
    %n1 = arith.addi %n, %c1_i64 : i64
    %n2 = arith.select %n0, %n1, %n : i64
    %n3 = arith.index_cast %n2 : i64 to index
    %k0 = arith.cmpi slt, %c, %c0_i64 : i64
    %k1 = arith.addi %c, %c3_i64 : i64
    %k2 = arith.select %k0, %k1, %c : i64
    %k3 = arith.index_cast %k2 : i64 to index
    %h0 = arith.cmpi slt, %h, %c0_i64 : i64
    %h1 = arith.addi %h, %c1_i64 : i64
    %h2 = arith.select %h0, %h1, %h : i64
    %h3 = arith.index_cast %h2 : i64 to index
    %v0 = arith.cmpi slt, %w, %c0_i64 : i64
    %v1 = arith.addi %w, %c1_i64 : i64
    %v2 = arith.select %v0, %v1, %w : i64
    %v3 = arith.index_cast %v2 : i64 to index
    %e = tensor.extract %pd[%n3, %k3, %h3, %v3] : tensor<1x3x1x1xf32>
    linalg.yield %e : f32
  } -> tensor<1x3x1x1xf32>
  %te = tensor.empty() : tensor<1x1x1x3xf32>
  %tq = linalg.transpose ins(%q : tensor<1x3x1x1xf32>) outs(%te : tensor<1x1x1x3xf32>) permutation = [0, 2, 3, 1]
  %t64 = arith.extf %tq : tensor<1x1x1x3xf32> to tensor<1x1x1x3xf64>
  %m_z = arith.constant dense<0.0> : tensor<1x1x1x1xf64>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t64 : tensor<1x1x1x3xf64>) outs(%m_z : tensor<1x1x1x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %t = arith.addf %in, %out : f64
    linalg.yield %t : f64
  } -> tensor<1x1x1x1xf64>
  %three = arith.constant dense<3.0> : tensor<1x1x1x1xf64>
  %mean = arith.divf %m, %three : tensor<1x1x1x1xf64>
  %ce = tensor.empty() : tensor<1x1x1x3xf64>
  %centred = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t64, %mean : tensor<1x1x1x3xf64>, tensor<1x1x1x1xf64>) outs(%ce : tensor<1x1x1x3xf64>) {
  ^bb0(%v: f64, %mu: f64, %o: f64):
    %d = arith.subf %v, %mu : f64
    linalg.yield %d : f64
  } -> tensor<1x1x1x3xf64>
  return %mean, %centred : tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>
}

// torch-mlir's mixed f16 form: the composed sum reads the f32 add (its f16 rounding
// dropped), so it is computed in f32 and widened to f64 once; the contraction reads the
// f16 g and an f16 weight.
// CHECK-LABEL: func.func @mean_of_pool_f16(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x2x2xf32>
// CHECK: %[[T:.*]] = linalg.transpose {{.*}} tensor<1x3x1x1xf16>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction", "reduction"]} ins(%[[X]] : tensor<1x3x2x2xf32>) outs(%{{.*}} : tensor<1x1x1x1xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x4xf16>, tensor<1x4xf16>) outs(%{{.*}} : tensor<1x1xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]]
// CHECK: %[[A:.*]] = arith.addf %[[E]]
// CHECK: %[[S:.*]] = arith.mulf %[[A]]
// CHECK: arith.extf %[[S]] : tensor<1x1x1x1xf32> to tensor<1x1x1x1xf64>
func.func @mean_of_pool_f16(%x: tensor<1x3x2x2xf32>) -> (tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>) {
  %xh = arith.truncf %x : tensor<1x3x2x2xf32> to tensor<1x3x2x2xf16>
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf16>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xh, %wa : tensor<1x3x2x2xf16>, tensor<4x3x1x1xf16>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %ah = arith.truncf %a : tensor<1x4x2x2xf32> to tensor<1x4x2x2xf16>
  %zh = arith.constant dense<0.0> : tensor<1x4x2x2xf16>
  %g = arith.maximumf %ah, %zh : tensor<1x4x2x2xf16>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf16>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf16>, tensor<3x4x1x1xf16>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %sp = arith.truncf %s : tensor<1x3x2x2xf32> to tensor<1x3x2x2xf16>
  %p_z = arith.constant dense<0.0> : tensor<1x3x1x1xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sp : tensor<1x3x2x2xf16>) outs(%p_z : tensor<1x3x1x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %t = arith.addf %in, %out : f16
    linalg.yield %t : f16
  } -> tensor<1x3x1x1xf16>
  %four = arith.constant dense<4.0> : tensor<1x3x1x1xf16>
  %pd = arith.divf %p, %four : tensor<1x3x1x1xf16>
  %i0 = arith.constant dense<0> : tensor<1x3x1x1xi64>
  %i1 = arith.constant dense<[[[[0]], [[1]], [[2]]]]> : tensor<1x3x1x1xi64>
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c3_i64 = arith.constant 3 : i64
  %ge = tensor.empty() : tensor<1x3x1x1xf16>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%i0, %i1, %i0, %i0 : tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>) outs(%ge : tensor<1x3x1x1xf16>) {
  ^bb0(%n: i64, %c: i64, %h: i64, %w: i64, %out: f16):
    %n0 = arith.cmpi slt, %n, %c0_i64 : i64
    %n1 = arith.addi %n, %c1_i64 : i64
    %n2 = arith.select %n0, %n1, %n : i64
    %n3 = arith.index_cast %n2 : i64 to index
    %k0 = arith.cmpi slt, %c, %c0_i64 : i64
    %k1 = arith.addi %c, %c3_i64 : i64
    %k2 = arith.select %k0, %k1, %c : i64
    %k3 = arith.index_cast %k2 : i64 to index
    %h0 = arith.cmpi slt, %h, %c0_i64 : i64
    %h1 = arith.addi %h, %c1_i64 : i64
    %h2 = arith.select %h0, %h1, %h : i64
    %h3 = arith.index_cast %h2 : i64 to index
    %v0 = arith.cmpi slt, %w, %c0_i64 : i64
    %v1 = arith.addi %w, %c1_i64 : i64
    %v2 = arith.select %v0, %v1, %w : i64
    %v3 = arith.index_cast %v2 : i64 to index
    %e = tensor.extract %pd[%n3, %k3, %h3, %v3] : tensor<1x3x1x1xf16>
    linalg.yield %e : f16
  } -> tensor<1x3x1x1xf16>
  %te = tensor.empty() : tensor<1x1x1x3xf16>
  %tq = linalg.transpose ins(%q : tensor<1x3x1x1xf16>) outs(%te : tensor<1x1x1x3xf16>) permutation = [0, 2, 3, 1]
  %tw = arith.extf %tq : tensor<1x1x1x3xf16> to tensor<1x1x1x3xf32>
  %t64 = arith.extf %tw : tensor<1x1x1x3xf32> to tensor<1x1x1x3xf64>
  %m_z = arith.constant dense<0.0> : tensor<1x1x1x1xf64>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t64 : tensor<1x1x1x3xf64>) outs(%m_z : tensor<1x1x1x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %t = arith.addf %in, %out : f64
    linalg.yield %t : f64
  } -> tensor<1x1x1x1xf64>
  %three = arith.constant dense<3.0> : tensor<1x1x1x1xf64>
  %mean = arith.divf %m, %three : tensor<1x1x1x1xf64>
  %ce = tensor.empty() : tensor<1x1x1x3xf64>
  %centred = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t64, %mean : tensor<1x1x1x3xf64>, tensor<1x1x1x1xf64>) outs(%ce : tensor<1x1x1x3xf64>) {
  ^bb0(%v: f64, %mu: f64, %o: f64):
    %d = arith.subf %v, %mu : f64
    linalg.yield %d : f64
  } -> tensor<1x1x1x3xf64>
  return %mean, %centred : tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>
}

// Must not fire: a relu between the pool and the mean (the pool composes alone).
// CHECK-LABEL: func.func @relu_between(
// CHECK: arith.maximumf %{{.*}} : tensor<1x3x1x1xf32>
// CHECK-NOT: tensor<1x4xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1x1x3xf64>)
func.func @relu_between(%x: tensor<1x3x2x2xf32>) -> (tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>) {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %sp = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %p_z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sp : tensor<1x3x2x2xf32>) outs(%p_z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  %four = arith.constant dense<4.0> : tensor<1x3x1x1xf32>
  %pd = arith.divf %p, %four : tensor<1x3x1x1xf32>
  %zr = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %pr = arith.maximumf %pd, %zr : tensor<1x3x1x1xf32>
  %i0 = arith.constant dense<0> : tensor<1x3x1x1xi64>
  %i1 = arith.constant dense<[[[[0]], [[1]], [[2]]]]> : tensor<1x3x1x1xi64>
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c3_i64 = arith.constant 3 : i64
  %ge = tensor.empty() : tensor<1x3x1x1xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%i0, %i1, %i0, %i0 : tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>) outs(%ge : tensor<1x3x1x1xf32>) {
  ^bb0(%n: i64, %c: i64, %h: i64, %w: i64, %out: f32):
    %n0 = arith.cmpi slt, %n, %c0_i64 : i64
    %n1 = arith.addi %n, %c1_i64 : i64
    %n2 = arith.select %n0, %n1, %n : i64
    %n3 = arith.index_cast %n2 : i64 to index
    %k0 = arith.cmpi slt, %c, %c0_i64 : i64
    %k1 = arith.addi %c, %c3_i64 : i64
    %k2 = arith.select %k0, %k1, %c : i64
    %k3 = arith.index_cast %k2 : i64 to index
    %h0 = arith.cmpi slt, %h, %c0_i64 : i64
    %h1 = arith.addi %h, %c1_i64 : i64
    %h2 = arith.select %h0, %h1, %h : i64
    %h3 = arith.index_cast %h2 : i64 to index
    %v0 = arith.cmpi slt, %w, %c0_i64 : i64
    %v1 = arith.addi %w, %c1_i64 : i64
    %v2 = arith.select %v0, %v1, %w : i64
    %v3 = arith.index_cast %v2 : i64 to index
    %e = tensor.extract %pr[%n3, %k3, %h3, %v3] : tensor<1x3x1x1xf32>
    linalg.yield %e : f32
  } -> tensor<1x3x1x1xf32>
  %te = tensor.empty() : tensor<1x1x1x3xf32>
  %tq = linalg.transpose ins(%q : tensor<1x3x1x1xf32>) outs(%te : tensor<1x1x1x3xf32>) permutation = [0, 2, 3, 1]
  %t64 = arith.extf %tq : tensor<1x1x1x3xf32> to tensor<1x1x1x3xf64>
  %m_z = arith.constant dense<0.0> : tensor<1x1x1x1xf64>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t64 : tensor<1x1x1x3xf64>) outs(%m_z : tensor<1x1x1x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %t = arith.addf %in, %out : f64
    linalg.yield %t : f64
  } -> tensor<1x1x1x1xf64>
  %three = arith.constant dense<3.0> : tensor<1x1x1x1xf64>
  %mean = arith.divf %m, %three : tensor<1x1x1x1xf64>
  %ce = tensor.empty() : tensor<1x1x1x3xf64>
  %centred = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t64, %mean : tensor<1x1x1x3xf64>, tensor<1x1x1x1xf64>) outs(%ce : tensor<1x1x1x3xf64>) {
  ^bb0(%v: f64, %mu: f64, %o: f64):
    %d = arith.subf %v, %mu : f64
    linalg.yield %d : f64
  } -> tensor<1x1x1x3xf64>
  return %mean, %centred : tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>
}

// Must not fire: a per-channel shift between the pool and the mean.
// CHECK-LABEL: func.func @shift_between(
// CHECK-NOT: tensor<1x4xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1x1x3xf64>)
func.func @shift_between(%x: tensor<1x3x2x2xf32>) -> (tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>) {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %sp = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %p_z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sp : tensor<1x3x2x2xf32>) outs(%p_z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  %four = arith.constant dense<4.0> : tensor<1x3x1x1xf32>
  %pd = arith.divf %p, %four : tensor<1x3x1x1xf32>
  %sh = arith.constant dense<[[[[0.5]], [[1.0]], [[-2.0]]]]> : tensor<1x3x1x1xf32>
  %pr = arith.addf %pd, %sh : tensor<1x3x1x1xf32>
  %i0 = arith.constant dense<0> : tensor<1x3x1x1xi64>
  %i1 = arith.constant dense<[[[[0]], [[1]], [[2]]]]> : tensor<1x3x1x1xi64>
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c3_i64 = arith.constant 3 : i64
  %ge = tensor.empty() : tensor<1x3x1x1xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%i0, %i1, %i0, %i0 : tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>) outs(%ge : tensor<1x3x1x1xf32>) {
  ^bb0(%n: i64, %c: i64, %h: i64, %w: i64, %out: f32):
    %n0 = arith.cmpi slt, %n, %c0_i64 : i64
    %n1 = arith.addi %n, %c1_i64 : i64
    %n2 = arith.select %n0, %n1, %n : i64
    %n3 = arith.index_cast %n2 : i64 to index
    %k0 = arith.cmpi slt, %c, %c0_i64 : i64
    %k1 = arith.addi %c, %c3_i64 : i64
    %k2 = arith.select %k0, %k1, %c : i64
    %k3 = arith.index_cast %k2 : i64 to index
    %h0 = arith.cmpi slt, %h, %c0_i64 : i64
    %h1 = arith.addi %h, %c1_i64 : i64
    %h2 = arith.select %h0, %h1, %h : i64
    %h3 = arith.index_cast %h2 : i64 to index
    %v0 = arith.cmpi slt, %w, %c0_i64 : i64
    %v1 = arith.addi %w, %c1_i64 : i64
    %v2 = arith.select %v0, %v1, %w : i64
    %v3 = arith.index_cast %v2 : i64 to index
    %e = tensor.extract %pr[%n3, %k3, %h3, %v3] : tensor<1x3x1x1xf32>
    linalg.yield %e : f32
  } -> tensor<1x3x1x1xf32>
  %te = tensor.empty() : tensor<1x1x1x3xf32>
  %tq = linalg.transpose ins(%q : tensor<1x3x1x1xf32>) outs(%te : tensor<1x1x1x3xf32>) permutation = [0, 2, 3, 1]
  %t64 = arith.extf %tq : tensor<1x1x1x3xf32> to tensor<1x1x1x3xf64>
  %m_z = arith.constant dense<0.0> : tensor<1x1x1x1xf64>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t64 : tensor<1x1x1x3xf64>) outs(%m_z : tensor<1x1x1x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %t = arith.addf %in, %out : f64
    linalg.yield %t : f64
  } -> tensor<1x1x1x1xf64>
  %three = arith.constant dense<3.0> : tensor<1x1x1x1xf64>
  %mean = arith.divf %m, %three : tensor<1x1x1x1xf64>
  %ce = tensor.empty() : tensor<1x1x1x3xf64>
  %centred = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t64, %mean : tensor<1x1x1x3xf64>, tensor<1x1x1x1xf64>) outs(%ce : tensor<1x1x1x3xf64>) {
  ^bb0(%v: f64, %mu: f64, %o: f64):
    %d = arith.subf %v, %mu : f64
    linalg.yield %d : f64
  } -> tensor<1x1x1x3xf64>
  return %mean, %centred : tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>
}

// Must not fire: the gather reads channel 0 twice (not the identity).
// CHECK-LABEL: func.func @gather_repeats(
// CHECK-NOT: tensor<1x4xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1x1x3xf64>)
func.func @gather_repeats(%x: tensor<1x3x2x2xf32>) -> (tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>) {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %sp = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %p_z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sp : tensor<1x3x2x2xf32>) outs(%p_z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  %four = arith.constant dense<4.0> : tensor<1x3x1x1xf32>
  %pd = arith.divf %p, %four : tensor<1x3x1x1xf32>
  %i0 = arith.constant dense<0> : tensor<1x3x1x1xi64>
  %i1 = arith.constant dense<[[[[0]], [[0]], [[2]]]]> : tensor<1x3x1x1xi64>
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %c3_i64 = arith.constant 3 : i64
  %ge = tensor.empty() : tensor<1x3x1x1xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%i0, %i1, %i0, %i0 : tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>, tensor<1x3x1x1xi64>) outs(%ge : tensor<1x3x1x1xf32>) {
  ^bb0(%n: i64, %c: i64, %h: i64, %w: i64, %out: f32):
    %n0 = arith.cmpi slt, %n, %c0_i64 : i64
    %n1 = arith.addi %n, %c1_i64 : i64
    %n2 = arith.select %n0, %n1, %n : i64
    %n3 = arith.index_cast %n2 : i64 to index
    %k0 = arith.cmpi slt, %c, %c0_i64 : i64
    %k1 = arith.addi %c, %c3_i64 : i64
    %k2 = arith.select %k0, %k1, %c : i64
    %k3 = arith.index_cast %k2 : i64 to index
    %h0 = arith.cmpi slt, %h, %c0_i64 : i64
    %h1 = arith.addi %h, %c1_i64 : i64
    %h2 = arith.select %h0, %h1, %h : i64
    %h3 = arith.index_cast %h2 : i64 to index
    %v0 = arith.cmpi slt, %w, %c0_i64 : i64
    %v1 = arith.addi %w, %c1_i64 : i64
    %v2 = arith.select %v0, %v1, %w : i64
    %v3 = arith.index_cast %v2 : i64 to index
    %e = tensor.extract %pd[%n3, %k3, %h3, %v3] : tensor<1x3x1x1xf32>
    linalg.yield %e : f32
  } -> tensor<1x3x1x1xf32>
  %te = tensor.empty() : tensor<1x1x1x3xf32>
  %tq = linalg.transpose ins(%q : tensor<1x3x1x1xf32>) outs(%te : tensor<1x1x1x3xf32>) permutation = [0, 2, 3, 1]
  %t64 = arith.extf %tq : tensor<1x1x1x3xf32> to tensor<1x1x1x3xf64>
  %m_z = arith.constant dense<0.0> : tensor<1x1x1x1xf64>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t64 : tensor<1x1x1x3xf64>) outs(%m_z : tensor<1x1x1x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %t = arith.addf %in, %out : f64
    linalg.yield %t : f64
  } -> tensor<1x1x1x1xf64>
  %three = arith.constant dense<3.0> : tensor<1x1x1x1xf64>
  %mean = arith.divf %m, %three : tensor<1x1x1x1xf64>
  %ce = tensor.empty() : tensor<1x1x1x3xf64>
  %centred = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t64, %mean : tensor<1x1x1x3xf64>, tensor<1x1x1x1xf64>) outs(%ce : tensor<1x1x1x3xf64>) {
  ^bb0(%v: f64, %mu: f64, %o: f64):
    %d = arith.subf %v, %mu : f64
    linalg.yield %d : f64
  } -> tensor<1x1x1x3xf64>
  return %mean, %centred : tensor<1x1x1x1xf64>, tensor<1x1x1x3xf64>
}

// Must not fire: the pool sums W only, so the channel mean keeps H (each sample's
// elements are not all summed).
// CHECK-LABEL: func.func @mean_keeps_rows(
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2x1x3xf32>)
func.func @mean_keeps_rows(%x: tensor<1x3x2x2xf32>) -> tensor<1x2x1x1xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %sp = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %p_z = arith.constant dense<0.0> : tensor<1x3x2x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%sp : tensor<1x3x2x2xf32>) outs(%p_z : tensor<1x3x2x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x2x1xf32>
  %te = tensor.empty() : tensor<1x2x1x3xf32>
  %tq = linalg.transpose ins(%p : tensor<1x3x2x1xf32>) outs(%te : tensor<1x2x1x3xf32>) permutation = [0, 2, 3, 1]
  %m_z = arith.constant dense<0.0> : tensor<1x2x1x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%tq : tensor<1x2x1x3xf32>) outs(%m_z : tensor<1x2x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x2x1x1xf32>
  return %m : tensor<1x2x1x1xf32>
}
