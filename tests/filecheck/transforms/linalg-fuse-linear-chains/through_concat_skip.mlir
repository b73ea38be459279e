// The skip of a conv of a concat (chains_through_concats.py) read through the previous
// block's output: GhostNet's stride block adds to its ghost module `concat(p, dw(p))` a
// shortcut (a depthwise conv, then a 1x1 conv) of the previous block's output %y, and
// the fusions have made the main path read that block's middle tensor %h0 instead of %y:
// %y is no ancestor of %h any more. The shortcut is still provably no deeper than %h
// (`FuseChainThroughAdd.no_deeper`): it is a branch of one level (two, composed) above
// %y, a concat whose parts are each a branch of one level above %h0, and %h is two linear
// ops above %h0. Then the next 1x1 conv composes with the ghost module's parts.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// Depth: @stride_block_skip 5 -> 3 (the depthwise conv composed with p, then the concat's
// conv with the parts); @skip_deeper only the first (its shortcut is two levels above %h0,
// %h one: the concat's conv would save no level).
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (torch-mlir's form: f16 operands, f32 accumulators, truncf).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function stride_block_skip | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function stride_block_skip_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function skip_deeper | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// BEFORE: @stride_block_skip {{ +}}5+
// BEFORE: @stride_block_skip_f16 {{ +}}5+
// BEFORE: @skip_deeper {{ +}}4+
// AFTER: @stride_block_skip {{ +}}3+
// AFTER: @stride_block_skip_f16 {{ +}}3+
// AFTER: @skip_deeper {{ +}}3+
// REPARSE-LABEL: func.func @stride_block_skip(
// REPARSE-LABEL: func.func @skip_deeper(

// The conv kept for the skip, then the terms of %h (the 1x1 slice, the 3x3 of the cheap
// half through the pad), accumulating into each other.
// CHECK-LABEL: func.func @stride_block_skip(
// CHECK: %[[K:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%skip, %w2 :
// CHECK: %[[Q:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %{{.*}} : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%[[K]] :
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x8x8xf32>, tensor<3x4x3x3xf32>) outs(%[[Q]] :
// CHECK-NOT: tensor.concat dim(1) %p
// CHECK: return
// CHECK-LABEL: func.func @stride_block_skip_f16(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%skip, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%{{.*}} : tensor<1x3x6x6xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %{{.*}} : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%{{.*}} : tensor<1x3x6x6xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x8x8xf16>, tensor<3x4x3x3xf16>) outs(%{{.*}} : tensor<1x3x6x6xf32>)
// CHECK-NOT: tensor.concat dim(1) %p
// CHECK: return
// CHECK-LABEL: func.func @skip_deeper(
// CHECK: %[[C:.*]] = tensor.concat dim(1) %p, %d
// CHECK: %[[S:.*]] = arith.addf %[[C]], %skip
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]], %w2 :
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @stride_block_skip(%h0: tensor<1x2x6x6xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %wa = arith.constant dense<[[[[0.25]], [[0.75]]], [[[0.5]], [[-0.5]]]]> : tensor<2x2x1x1xf32>
  %wb = arith.constant dense<[[[[-0.375, 0.75, -1.0], [0.625, 0.625, -0.125], [-0.375, -0.5, -0.5]], [[-0.125, 0.0, 0.125], [1.0, 0.625, 0.25], [1.0, -0.625, -0.625]]], [[[0.25, -0.875, -0.875], [0.0, -0.125, 0.875], [0.25, 0.0, -0.0]], [[-0.5, -1.0, -0.625], [0.375, -0.625, -0.25], [-1.0, 0.625, -0.75]]]]> : tensor<2x2x3x3xf32>
  %ks = arith.constant dense<[[[-0.5, 0.75, 0.0], [0.75, 0.25, 0.5], [-0.875, 0.125, 0.0]], [[0.75, -0.25, 0.25], [-0.875, -0.25, -0.375], [-0.75, 0.625, -0.25]], [[1.0, 0.125, 0.25], [0.25, 0.375, -0.75], [-0.125, -0.5, -0.25]], [[-0.75, 0.875, -0.625], [0.375, -0.375, 0.75], [0.375, -0.75, 0.75]]]> : tensor<4x3x3xf32>
  %ws = arith.constant dense<[[[[0.875]], [[0.75]], [[0.125]], [[-0.75]]], [[[-0.625]], [[0.875]], [[0.125]], [[-0.625]]], [[[0.75]], [[0.25]], [[0.125]], [[-0.25]]], [[[-0.125]], [[-0.5]], [[-0.875]], [[0.75]]]]> : tensor<4x4x1x1xf32>
  %wm1 = arith.constant dense<[[[[-0.125]], [[0.125]]], [[[-0.375]], [[0.5]]], [[[-1.0]], [[-0.25]]], [[[-1.0]], [[-0.75]]]]> : tensor<4x2x1x1xf32>
  %wm2 = arith.constant dense<[[[[0.875]], [[0.375]], [[-0.125]], [[0.0]]], [[[0.75]], [[-0.25]], [[0.125]], [[0.375]]], [[[-0.25]], [[0.0]], [[0.5]], [[0.875]]], [[[-0.75]], [[0.875]], [[-1.0]], [[0.5]]]]> : tensor<4x4x1x1xf32>
  %w1 = arith.constant dense<[[[[0.625]], [[-0.75]], [[-0.125]], [[0.625]]], [[[-1.0]], [[0.25]], [[0.625]], [[0.0]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[0.5, -0.5, -0.625], [-0.25, -0.625, -0.25], [0.875, 0.125, -0.375]], [[-0.5, 0.875, -0.125], [1.0, 0.0, 0.0], [0.75, 0.5, 0.125]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.125]], [[0.75]], [[-0.125]], [[0.875]]], [[[-0.875]], [[-0.125]], [[0.0]], [[0.875]]], [[[-0.5]], [[0.625]], [[0.375]], [[0.375]]]]> : tensor<3x4x1x1xf32>
  // The previous block's output: two halves, each one level above %h0.
  %z1_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%z1_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0, %wa : tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) outs(%z1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %h0p = tensor.pad %h0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %z2_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0p, %wb : tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %y = tensor.concat dim(1) %a, %b : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  // The shortcut: a depthwise conv, then a 1x1 conv, of the previous block's output.
  %yp = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %z3_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%z3_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sd = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%yp, %ks : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%z3 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %z4_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%z4_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %skip = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sd, %ws : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) outs(%z4 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  // The main path: %h is two linear op(s) above %h0.
  %z5_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%z5_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0, %wm1 : tensor<1x2x6x6xf32>, tensor<4x2x1x1xf32>) outs(%z5 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r1_e = tensor.empty() : tensor<1x4x6x6xf32>
  %r1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m1 : tensor<1x4x6x6xf32>) outs(%r1_e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %z6_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z6 = linalg.fill ins(%zero : f32) outs(%z6_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r1, %wm2 : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) outs(%z6 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %h_e = tensor.empty() : tensor<1x4x6x6xf32>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m2 : tensor<1x4x6x6xf32>) outs(%h_e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  // The ghost module without an activation, its skip, the next 1x1 conv.
  %z7_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z7 = linalg.fill ins(%zero : f32) outs(%z7_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z7 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %z8_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%z8_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z8 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %s = arith.addf %c, %skip : tensor<1x4x6x6xf32>
  %z9_e = tensor.empty() : tensor<1x3x6x6xf32>
  %z9 = linalg.fill ins(%zero : f32) outs(%z9_e : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%z9 : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}

func.func @stride_block_skip_f16(%h0: tensor<1x2x6x6xf16>) -> tensor<1x3x6x6xf16> {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %wa = arith.constant dense<[[[[0.25]], [[1.0]]], [[[-0.375]], [[-0.25]]]]> : tensor<2x2x1x1xf16>
  %wb = arith.constant dense<[[[[-0.625, -0.875, -0.625], [0.875, 0.625, -0.75], [0.25, -0.0, 0.25]], [[0.375, -0.375, 0.875], [-0.125, 0.25, 0.25], [-0.625, -0.875, -0.125]]], [[[0.5, 0.625, 0.5], [-0.75, 0.875, 0.625], [0.75, 0.0, 0.875]], [[-0.875, -1.0, -1.0], [-0.5, -0.5, -0.625], [0.125, -0.875, 0.125]]]]> : tensor<2x2x3x3xf16>
  %ks = arith.constant dense<[[[-0.625, 0.375, -1.0], [-0.375, 0.875, 0.125], [0.625, 0.375, 0.25]], [[-0.625, 0.125, -0.875], [0.625, 0.875, 0.75], [-0.875, -0.375, -0.375]], [[-0.75, 0.25, 0.625], [-0.375, 0.75, 0.625], [-0.75, 0.5, 0.75]], [[-0.625, 0.125, 0.25], [0.25, -0.75, 0.375], [0.25, 0.625, 0.625]]]> : tensor<4x3x3xf16>
  %ws = arith.constant dense<[[[[-0.375]], [[0.5]], [[0.75]], [[0.75]]], [[[-0.625]], [[-1.0]], [[0.25]], [[-0.625]]], [[[0.125]], [[0.875]], [[-0.25]], [[-0.5]]], [[[-0.125]], [[0.375]], [[-0.75]], [[-0.25]]]]> : tensor<4x4x1x1xf16>
  %wm1 = arith.constant dense<[[[[-0.75]], [[0.375]]], [[[0.625]], [[-0.25]]], [[[-0.25]], [[0.125]]], [[[-0.625]], [[-0.5]]]]> : tensor<4x2x1x1xf16>
  %wm2 = arith.constant dense<[[[[-0.375]], [[-0.125]], [[-0.875]], [[0.5]]], [[[0.125]], [[-0.375]], [[-0.875]], [[0.5]]], [[[-0.75]], [[-0.75]], [[-0.75]], [[-0.875]]], [[[0.875]], [[-0.5]], [[-0.375]], [[0.625]]]]> : tensor<4x4x1x1xf16>
  %w1 = arith.constant dense<[[[[0.25]], [[-0.625]], [[-0.125]], [[0.75]]], [[[-0.25]], [[0.375]], [[-0.75]], [[0.5]]]]> : tensor<2x4x1x1xf16>
  %k = arith.constant dense<[[[0.5, 0.625, 0.375], [-0.25, -0.875, 0.0], [0.5, -0.625, -0.5]], [[0.125, 0.5, 0.75], [-0.75, -0.625, 0.625], [0.25, 0.5, 1.0]]]> : tensor<2x3x3xf16>
  %w2 = arith.constant dense<[[[[0.875]], [[0.625]], [[0.5]], [[-0.25]]], [[[0.25]], [[-0.625]], [[0.5]], [[0.5]]], [[[0.5]], [[-0.125]], [[-0.25]], [[-0.125]]]]> : tensor<3x4x1x1xf16>
  // The previous block's output: two halves, each one level above %h0.
  %z1_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z1 = linalg.fill ins(%zero32 : f32) outs(%z1_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %a_w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0, %wa : tensor<1x2x6x6xf16>, tensor<2x2x1x1xf16>) outs(%z1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %a_e = tensor.empty() : tensor<1x2x6x6xf16>
  %a = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a_w : tensor<1x2x6x6xf32>) outs(%a_e : tensor<1x2x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x6x6xf16>
  %h0p = tensor.pad %h0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %z2_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero32 : f32) outs(%z2_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %b_w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0p, %wb : tensor<1x2x8x8xf16>, tensor<2x2x3x3xf16>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %b_e = tensor.empty() : tensor<1x2x6x6xf16>
  %b = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b_w : tensor<1x2x6x6xf32>) outs(%b_e : tensor<1x2x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x6x6xf16>
  %y = tensor.concat dim(1) %a, %b : (tensor<1x2x6x6xf16>, tensor<1x2x6x6xf16>) -> tensor<1x4x6x6xf16>
  // The shortcut: a depthwise conv, then a 1x1 conv, of the previous block's output.
  %yp = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
  %z3_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z3 = linalg.fill ins(%zero32 : f32) outs(%z3_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sd_w = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%yp, %ks : tensor<1x4x8x8xf16>, tensor<4x3x3xf16>) outs(%z3 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sd_e = tensor.empty() : tensor<1x4x6x6xf16>
  %sd = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sd_w : tensor<1x4x6x6xf32>) outs(%sd_e : tensor<1x4x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x6x6xf16>
  %z4_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z4 = linalg.fill ins(%zero32 : f32) outs(%z4_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %skip_w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sd, %ws : tensor<1x4x6x6xf16>, tensor<4x4x1x1xf16>) outs(%z4 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %skip_e = tensor.empty() : tensor<1x4x6x6xf16>
  %skip = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%skip_w : tensor<1x4x6x6xf32>) outs(%skip_e : tensor<1x4x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x6x6xf16>
  // The main path: %h is two linear op(s) above %h0.
  %z5_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z5 = linalg.fill ins(%zero32 : f32) outs(%z5_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m1_w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0, %wm1 : tensor<1x2x6x6xf16>, tensor<4x2x1x1xf16>) outs(%z5 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m1_e = tensor.empty() : tensor<1x4x6x6xf16>
  %m1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m1_w : tensor<1x4x6x6xf32>) outs(%m1_e : tensor<1x4x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x6x6xf16>
  %r1_e = tensor.empty() : tensor<1x4x6x6xf16>
  %r1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m1 : tensor<1x4x6x6xf16>) outs(%r1_e : tensor<1x4x6x6xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maximumf %in, %zero : f16
    linalg.yield %m : f16
  } -> tensor<1x4x6x6xf16>
  %z6_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z6 = linalg.fill ins(%zero32 : f32) outs(%z6_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m2_w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r1, %wm2 : tensor<1x4x6x6xf16>, tensor<4x4x1x1xf16>) outs(%z6 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m2_e = tensor.empty() : tensor<1x4x6x6xf16>
  %m2 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m2_w : tensor<1x4x6x6xf32>) outs(%m2_e : tensor<1x4x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x6x6xf16>
  %h_e = tensor.empty() : tensor<1x4x6x6xf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m2 : tensor<1x4x6x6xf16>) outs(%h_e : tensor<1x4x6x6xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maximumf %in, %zero : f16
    linalg.yield %m : f16
  } -> tensor<1x4x6x6xf16>
  // The ghost module without an activation, its skip, the next 1x1 conv.
  %z7_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z7 = linalg.fill ins(%zero32 : f32) outs(%z7_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p_w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf16>, tensor<2x4x1x1xf16>) outs(%z7 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p_e = tensor.empty() : tensor<1x2x6x6xf16>
  %p = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p_w : tensor<1x2x6x6xf32>) outs(%p_e : tensor<1x2x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x6x6xf16>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %z8_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z8 = linalg.fill ins(%zero32 : f32) outs(%z8_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %d_w = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf16>, tensor<2x3x3xf16>) outs(%z8 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %d_e = tensor.empty() : tensor<1x2x6x6xf16>
  %d = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d_w : tensor<1x2x6x6xf32>) outs(%d_e : tensor<1x2x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x6x6xf16>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf16>, tensor<1x2x6x6xf16>) -> tensor<1x4x6x6xf16>
  %s = arith.addf %c, %skip : tensor<1x4x6x6xf16>
  %z9_e = tensor.empty() : tensor<1x3x6x6xf32>
  %z9 = linalg.fill ins(%zero32 : f32) outs(%z9_e : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r_w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%z9 : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r_e = tensor.empty() : tensor<1x3x6x6xf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r_w : tensor<1x3x6x6xf32>) outs(%r_e : tensor<1x3x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x3x6x6xf16>
  return %r : tensor<1x3x6x6xf16>
}

func.func @skip_deeper(%h0: tensor<1x2x6x6xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %wa = arith.constant dense<[[[[-0.875]], [[0.75]]], [[[0.125]], [[-0.25]]]]> : tensor<2x2x1x1xf32>
  %wb = arith.constant dense<[[[[0.125, 0.5, -0.25], [0.625, 0.875, -0.25], [-0.75, 0.5, 1.0]], [[-0.75, 0.375, 0.625], [0.875, -0.75, -0.875], [1.0, -0.75, -0.625]]], [[[0.125, -0.125, 0.5], [-0.625, 0.875, -0.625], [0.5, -0.875, -0.0]], [[-0.875, -0.375, -0.375], [0.5, -0.125, -0.875], [1.0, 0.75, 0.875]]]]> : tensor<2x2x3x3xf32>
  %ks = arith.constant dense<[[[-0.5, -0.25, -0.5], [-0.75, -0.875, 0.0], [-0.75, -0.625, 0.75]], [[-0.0, -0.625, 0.375], [-0.5, 0.0, -0.375], [0.0, 0.25, 0.125]], [[-0.25, 0.625, 0.75], [-0.625, -0.75, -0.75], [1.0, 0.875, -0.5]], [[1.0, -0.625, 0.0], [-0.0, 0.875, -0.875], [-0.375, 0.25, -0.875]]]> : tensor<4x3x3xf32>
  %ws = arith.constant dense<[[[[-0.5]], [[-0.125]], [[0.75]], [[0.5]]], [[[0.625]], [[0.5]], [[0.375]], [[0.75]]], [[[0.375]], [[0.5]], [[-0.375]], [[-0.625]]], [[[0.5]], [[-0.625]], [[0.875]], [[0.25]]]]> : tensor<4x4x1x1xf32>
  %wm1 = arith.constant dense<[[[[-0.375]], [[0.875]]], [[[-0.75]], [[0.0]]], [[[-0.875]], [[0.875]]], [[[0.125]], [[0.625]]]]> : tensor<4x2x1x1xf32>
  %wm2 = arith.constant dense<[[[[-0.375]], [[0.625]], [[0.375]], [[0.25]]], [[[0.875]], [[-0.125]], [[-0.125]], [[0.375]]], [[[0.625]], [[-0.375]], [[0.375]], [[-0.625]]], [[[0.125]], [[0.5]], [[-0.875]], [[0.5]]]]> : tensor<4x4x1x1xf32>
  %w1 = arith.constant dense<[[[[-1.0]], [[0.875]], [[-0.125]], [[-0.125]]], [[[0.5]], [[0.0]], [[0.5]], [[-0.875]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[0.125, 0.125, 0.875], [-0.875, -0.125, 0.25], [0.125, -0.875, 0.125]], [[-0.5, -0.625, 0.75], [-0.625, -0.125, 0.5], [0.375, 0.125, 0.625]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.125]], [[0.25]], [[0.625]], [[0.375]]], [[[0.25]], [[-0.25]], [[0.125]], [[-0.25]]], [[[0.5]], [[-0.25]], [[-0.125]], [[0.5]]]]> : tensor<3x4x1x1xf32>
  // The previous block's output: two halves, each one level above %h0.
  %z1_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%z1_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0, %wa : tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) outs(%z1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %h0p = tensor.pad %h0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %z2_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0p, %wb : tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %y = tensor.concat dim(1) %a, %b : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  // The shortcut: a depthwise conv, then a 1x1 conv, of the previous block's output.
  %yp = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %z3_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%z3_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sd = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%yp, %ks : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%z3 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %z4_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%z4_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %skip = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sd, %ws : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) outs(%z4 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  // The main path: %h is one linear op(s) above %h0.
  %z5_e = tensor.empty() : tensor<1x4x6x6xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%z5_e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %m1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h0, %wm1 : tensor<1x2x6x6xf32>, tensor<4x2x1x1xf32>) outs(%z5 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r1_e = tensor.empty() : tensor<1x4x6x6xf32>
  %r1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m1 : tensor<1x4x6x6xf32>) outs(%r1_e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %h = tensor.cast %r1 : tensor<1x4x6x6xf32> to tensor<1x4x6x6xf32>
  // The ghost module without an activation, its skip, the next 1x1 conv.
  %z6_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z6 = linalg.fill ins(%zero : f32) outs(%z6_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z6 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %z7_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z7 = linalg.fill ins(%zero : f32) outs(%z7_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z7 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %s = arith.addf %c, %skip : tensor<1x4x6x6xf32>
  %z8_e = tensor.empty() : tensor<1x3x6x6xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%z8_e : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%z8 : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}

