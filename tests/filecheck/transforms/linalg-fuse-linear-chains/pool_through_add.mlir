// A sum over the positions of a residual add composes with the add's per-position
// branch (chains_through_spatial_sums.py): ConvNeXt's last block `x + fc2(g)` summed by
// the head's global average pool becomes ONE contraction of g over its channels and
// positions (fc2's own weight, read alike at every position) accumulating into the sum
// of the skip x, kept beside it: the pool one level above g instead of two.
// Must not fire: a relu between the add and the pool; a sum over the channels only, or
// over W only (a partial window); a strided 1x1 conv (not the same map at every
// position); a skip deeper than the branch's input. The cost rule at its limit: a shared
// add keeps fc2 (2x the weights for one level).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt > /dev/null
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt > /dev/null
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=2}' 2>/dev/null | filecheck %s --check-prefix=GROW-AT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.99}' 2>/dev/null | filecheck %s --check-prefix=UNDER
// A MAC bound (iree-prepare's max-mac-growth=1): the contraction runs fc2's MACs, so it
// saves a plaintext back end no work and is not written.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-mac-growth=1}' 2>/dev/null | filecheck %s --check-prefix=MAC-BOUND
// MAC-BOUND-LABEL: func.func @pool_of_add(
// MAC-BOUND: linalg.conv_2d_nchw_fchw {{.*}} tensor<3x4x1x1xf32>
// MAC-BOUND-NOT: tensor.collapse_shape
// MAC-BOUND: return
// MAC-BOUND-LABEL: func.func @pool_of_add_flat(
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function pool_of_add | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function pool_of_add_flat | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function sum_of_add | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shared_add | filecheck %s --check-prefix=EQUIV
// Mixed f16: the roundings of the add and of the f16 sum go (the mixed-precision rule),
// the composed weight is rounded to f16 once: within the f16 result's tolerance.
// RUN: heirpy-equiv %s %t --function pool_of_add_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// BEFORE: @pool_of_add {{ +}}3+
// BEFORE: @pool_of_add_flat {{ +}}3+
// BEFORE: @sum_of_add {{ +}}3+
// BEFORE: @pool_of_add_f16 {{ +}}4+
// BEFORE: @relu_before_pool {{ +}}3+
// BEFORE: @channel_sum {{ +}}3+
// BEFORE: @row_sum {{ +}}3+
// BEFORE: @strided_branch {{ +}}3+
// BEFORE: @deeper_skip {{ +}}4+
// BEFORE: @shared_add {{ +}}3+ {{ +}}3, 2
// AFTER: @pool_of_add {{ +}}2+
// AFTER: @pool_of_add_flat {{ +}}2+
// AFTER: @sum_of_add {{ +}}2+
// AFTER: @pool_of_add_f16 {{ +}}2+
// AFTER: @relu_before_pool {{ +}}3+
// AFTER: @channel_sum {{ +}}3+
// AFTER: @row_sum {{ +}}3+
// AFTER: @strided_branch {{ +}}3+
// AFTER: @deeper_skip {{ +}}4+
// AFTER: @shared_add {{ +}}2+ {{ +}}2, 2

// The pool of `fc2(g) + x`: the sum of the skip kept (its init the fc2 bias summed
// over the 4 positions, 0.5), ONE contraction of g over channels and positions
// (fc2's own 3x4 weight) into a constant zero, expanded back to the pool's shape and
// added to the skip's sum.
// CHECK-LABEL: func.func @pool_of_add(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x2x2xf32>
// CHECK: %[[G:.*]] = arith.maximumf
// CHECK: %[[I:.*]] = arith.constant dense<5.000000e-01> : tensor<1x3x1x1xf32>
// CHECK: %[[K:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X]] : tensor<1x3x2x2xf32>) outs(%[[I]] : tensor<1x3x1x1xf32>)
// CHECK: %[[GF:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2, 3]] : tensor<1x4x2x2xf32> into tensor<1x4x4xf32>
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 5.000000e-01, -5.000000e-01, 2.500000e-01], {{.*}}> : tensor<3x4xf32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[GF]], %[[W]] : tensor<1x4x4xf32>, tensor<3x4xf32>) outs(%[[Z]] : tensor<1x3xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0], [1, 2, 3]] output_shape [1, 3, 1, 1]
// CHECK-NOT: linalg.conv_2d_nchw_fchw {{.*}} tensor<3x4x1x1xf32>
// CHECK: %[[P:.*]] = arith.addf %[[E]], %[[K]]
// CHECK: return %[[P]]
func.func @pool_of_add(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  return %p : tensor<1x3x1x1xf32>
}

// The add's operands the other way round, and a pool without its unit axes.
// CHECK-LABEL: func.func @pool_of_add_flat(
// CHECK: %[[K:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x4xf32>, tensor<3x4xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[P:.*]] = arith.addf %[[R]], %[[K]]
// CHECK: return %[[P]]
func.func @pool_of_add_flat(%x: tensor<1x3x2x2xf32>) -> tensor<1x3xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %x, %f : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x3xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3xf32>
  return %p : tensor<1x3xf32>
}

// A sum over the channels too (a LayerNorm mean of the pool, `sums_of_sums`): fc2's
// weight summed over its outputs, one output.
// CHECK-LABEL: func.func @sum_of_add(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction", "reduction"]} ins(%{{.*}} : tensor<1x3x2x2xf32>)
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}1.750000e+00, 0.000000e+00, 2.000000e+00, -7.500000e-01]]> : tensor<1x4xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x4x4xf32>, tensor<1x4xf32>) outs(%{{.*}} : tensor<1x1xf32>)
// CHECK: tensor.expand_shape {{.*}} output_shape [1, 1, 1, 1]
func.func @sum_of_add(%x: tensor<1x3x2x2xf32>) -> tensor<1x1x1x1xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x1x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>], iterator_types = ["parallel", "reduction", "reduction", "reduction"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x1x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x1x1x1xf32>
  return %p : tensor<1x1x1x1xf32>
}

// torch-mlir's mixed f16 form: f16 convs accumulating in f32, the layer scale in f32,
// the add in f32 rounded to f16, the pool summing f16. The run is computed in f32 and
// rounded once at its end: the skip summed in f32, the contraction reading the f16 g
// and the f16 weight (fc2's times the layer scale, rounded once), widened in its body,
// their sum in f32, then the one truncf.
// CHECK-LABEL: func.func @pool_of_add_f16(
// CHECK-SAME: %[[X:.*]]: tensor<1x3x2x2xf32>
// CHECK: %[[K:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x3x2x2xf32>) outs(%{{.*}} : tensor<1x3x1x1xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x4xf16>, tensor<3x4xf16>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: arith.extf
// CHECK: arith.extf
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]]
// CHECK: %[[A:.*]] = arith.addf %[[E]], %[[K]] : tensor<1x3x1x1xf32>
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<1x3x1x1xf32>) outs(%{{.*}} : tensor<1x3x1x1xf16>)
// CHECK: arith.truncf
// CHECK: arith.divf %[[P]]
func.func @pool_of_add_f16(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf16> {
  %xh = arith.truncf %x : tensor<1x3x2x2xf32> to tensor<1x3x2x2xf16>
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf16>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xh, %wa : tensor<1x3x2x2xf16>, tensor<4x3x1x1xf16>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %ah = arith.truncf %a : tensor<1x4x2x2xf32> to tensor<1x4x2x2xf16>
  %zh = arith.constant dense<0.0> : tensor<1x4x2x2xf16>
  %g = arith.maximumf %ah, %zh : tensor<1x4x2x2xf16>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf16>
  %b2 = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf16>, tensor<3x4x1x1xf16>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %ls = arith.constant dense<[[[[0.5]], [[-0.25]], [[2.0]]]]> : tensor<1x3x1x1xf32>
  %c = tensor.empty() : tensor<1x3x2x2xf32>
  %fs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f, %ls : tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) outs(%c : tensor<1x3x2x2xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %t = arith.mulf %in, %in2 : f32
    linalg.yield %t : f32
  } -> tensor<1x3x2x2xf32>
  %s = arith.addf %fs, %x : tensor<1x3x2x2xf32>
  %sh = arith.truncf %s : tensor<1x3x2x2xf32> to tensor<1x3x2x2xf16>
  %z = arith.constant dense<0.0> : tensor<1x3x1x1xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sh : tensor<1x3x2x2xf16>) outs(%z : tensor<1x3x1x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %t = arith.addf %in, %out : f16
    linalg.yield %t : f16
  } -> tensor<1x3x1x1xf16>
  %four = arith.constant dense<4.0> : tensor<1x3x1x1xf16>
  %m = arith.divf %p, %four : tensor<1x3x1x1xf16>
  return %m : tensor<1x3x1x1xf16>
}

// Must not fire: a relu between the add and the pool.
// CHECK-LABEL: func.func @relu_before_pool(
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @relu_before_pool(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s0 = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %zs = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %s = arith.maximumf %s0, %zs : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  return %p : tensor<1x3x1x1xf32>
}

// Must not fire: a sum over the channels only (no position summed;
// `FoldChannelSumIntoLinearOp` takes it in linalg-fuse-ops).
// CHECK-LABEL: func.func @channel_sum(
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @channel_sum(%x: tensor<1x3x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x1x2x2xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x1x2x2xf32>
  return %p : tensor<1x1x2x2xf32>
}

// Must not fire: a partial window, W summed and H kept.
// CHECK-LABEL: func.func @row_sum(
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @row_sum(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x1xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x3x2x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x3x2x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x2x1xf32>
  return %p : tensor<1x3x2x1xf32>
}

// Must not fire: a 1x1 conv of stride 2 does not map every position of its input
// alike (the positions it skips are no part of the sum); stride 1 (above) fires.
// CHECK-LABEL: func.func @strided_branch(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} strides = dense<2>
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @strided_branch(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x1x1xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x4x4xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %xs = tensor.extract_slice %x[0, 0, 0, 0] [1, 3, 2, 2] [1, 1, 2, 2] : tensor<1x3x4x4xf32> to tensor<1x3x2x2xf32>
  %s = arith.addf %f, %xs : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  return %p : tensor<1x3x1x1xf32>
}

// Must not fire: the skip (three convs of x) is deeper than the branch's input (one).
// CHECK-LABEL: func.func @deeper_skip(
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
func.func @deeper_skip(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %wk = arith.constant dense<0.5> : tensor<3x3x1x1xf32>
  %zk = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %k1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wk : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>) outs(%zk : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %k1r = arith.maximumf %k1, %zk : tensor<1x3x2x2xf32>
  %k2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%k1r, %wk : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>) outs(%zk : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %k2r = arith.maximumf %k2, %zk : tensor<1x3x2x2xf32>
  %k3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%k2r, %wk : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>) outs(%zk : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %f, %k3 : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  return %p : tensor<1x3x1x1xf32>
}

// The add is also returned: it and fc2 stay for it, the pool is the contraction
// (weights 12 -> 12 + 12, 2x for one level: the cost rule's limit, see GROW-AT/UNDER).
// CHECK-LABEL: func.func @shared_add(
// CHECK: %[[F:.*]] = linalg.conv_2d_nchw_fchw {{.*}} tensor<3x4x1x1xf32>
// CHECK: %[[S:.*]] = arith.addf %[[F]]
// CHECK: %[[R:.*]] = linalg.generic {{.*}} tensor<1x4x4xf32>, tensor<3x4xf32>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]]
// CHECK: %[[P:.*]] = arith.addf %[[E]]
// CHECK: return %[[P]], %[[S]]
// GROW-AT-LABEL: func.func @shared_add(
// GROW-AT: tensor<1x4x4xf32>, tensor<3x4xf32>
// UNDER-LABEL: func.func @shared_add(
// UNDER-NOT: tensor<3x4xf32>
// UNDER: return
func.func @shared_add(%x: tensor<1x3x2x2xf32>) -> (tensor<1x3x1x1xf32>, tensor<1x3x2x2xf32>) {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]]], [[[1.0]], [[0.5]], [[-0.5]]], [[[-0.25]], [[0.75]], [[1.0]]], [[[0.125]], [[0.25]], [[-0.75]]]]> : tensor<4x3x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wa : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = arith.maximumf %a, %za : tensor<1x4x2x2xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]], [[0.25]]], [[[0.25]], [[-1.0]], [[2.0]], [[0.5]]], [[[0.5]], [[0.5]], [[0.5]], [[-1.5]]]]> : tensor<3x4x1x1xf32>
  %b2 = arith.constant dense<0.125> : tensor<1x3x2x2xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%b2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %f, %x : tensor<1x3x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x3x1x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%s : tensor<1x3x2x2xf32>) outs(%z : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<1x3x1x1xf32>
  return %p, %s : tensor<1x3x1x1xf32>, tensor<1x3x2x2xf32>
}
