// A depthwise conv through a fork (chains_through_forks.py): GhostNet's ghost module
// without an activation, `concat(p, dw(pad(p)))` with p a 1x1 conv of %x, is the block's
// output, read by the next block's skip as well as its 1x1 conv. The concat reads p, so p
// stays; the cheap depthwise conv composes with it into a 3x3 conv of pad(%x) (its bias
// through the pad, zero at the border), and both halves are one level above %x, as the
// depth bound counts them.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// Depth: the positives one level less, the negatives keep their two.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p 'linalg-canonicalizations,linalg-fuse-ops' 2>/dev/null | heirpy-opt -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (torch-mlir's form: f16 operands, f32 accumulators, truncf).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function ghost_module | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function ghost_module_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function relu_before_pad | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function ghost_limit | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// The cost rule: @ghost_limit's weights go from 1x3 (p, kept) + 1x3x3 (the depthwise
// filter) = 12 to 1x3 + the composed 1x3x3x3 = 30, 2.5x for one level: at
// max-weight-growth=2.5 it fuses, under it it does not.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=2.5}' 2>/dev/null | filecheck %s --check-prefix=AT-LIMIT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=2.49}' 2>/dev/null | filecheck %s --check-prefix=UNDER
// BEFORE: @ghost_module {{ +}}2
// BEFORE: @ghost_module_f16 {{ +}}2
// BEFORE: @relu_before_pad {{ +}}2+
// BEFORE: @ghost_limit {{ +}}2
// AFTER: @ghost_module {{ +}}1
// AFTER: @ghost_module_f16 {{ +}}1
// AFTER: @relu_before_pad {{ +}}2+
// AFTER: @ghost_limit {{ +}}1
// REPARSE-LABEL: func.func @ghost_module(
// REPARSE-LABEL: func.func @ghost_limit(
// AT-LIMIT-LABEL: func.func @ghost_limit(
// AT-LIMIT: %[[P:.*]] = tensor.pad %x
// AT-LIMIT: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x3x8x8xf32>, tensor<1x3x3x3xf32>)
// UNDER-LABEL: func.func @ghost_limit(
// UNDER: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%pd, %k :

// CHECK-LABEL: func.func @ghost_module(
// CHECK: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w1 :
// CHECK: %[[X:.*]] = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: %[[D:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>)
// CHECK-NEXT: tensor.concat dim(1) %[[P]], %[[D]]
// The f16 form: the composed conv reads the f16 input with an f16 filter into the f32
// init, its rounding kept; p's rounding stays for the concat.
// CHECK-LABEL: func.func @ghost_module_f16(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w1 : tensor<1x3x6x6xf16>, tensor<2x3x1x1xf16>) outs(%{{.*}} : tensor<1x2x6x6xf32>)
// CHECK: %[[X:.*]] = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x3x8x8xf16>, tensor<2x3x3x3xf16>) outs(%{{.*}} : tensor<1x2x6x6xf32>)
// CHECK: arith.truncf
// Negatives. (The stride-2 conv before the pad, whose windows overlap, is a positive now:
// through_pad_edges.mlir's @strided_before_pad, with edge corrections.)
// A relu between the fork and the depthwise conv (GhostNet's first ghost module).
// CHECK-LABEL: func.func @relu_before_pad(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%pd, %k :
// CHECK-LABEL: func.func @ghost_limit(
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @ghost_module(%x: tensor<1x3x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.25]], [[0.75]], [[0.5]]], [[[-0.5]], [[-0.375]], [[0.75]]]]> : tensor<2x3x1x1xf32>
  %k = arith.constant dense<[[[-1.0, 0.625, 0.625], [-0.125, -0.375, -0.5], [-0.5, -0.125, 0.0]], [[0.125, 1.0, 0.625], [0.25, 1.0, -0.625], [-0.625, 0.25, -0.875]]]> : tensor<2x3x3xf32>
  %i1_b = arith.constant dense<[-0.875, 0.0]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x6x6xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x6x6xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x3x6x6xf32>, tensor<2x3x1x1xf32>) outs(%i1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %c : tensor<1x4x6x6xf32>
}

func.func @ghost_module_f16(%x: tensor<1x3x6x6xf16>) -> tensor<1x4x6x6xf16> {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.125]], [[0.875]], [[0.25]]], [[[0.0]], [[-0.0]], [[-0.5]]]]> : tensor<2x3x1x1xf16>
  %k = arith.constant dense<[[[-1.0, -0.625, 0.375], [-0.625, -0.25, -1.0], [0.625, -0.75, -0.5]], [[0.75, 0.0, 0.75], [0.25, 0.5, -0.875], [0.125, 0.0, 0.75]]]> : tensor<2x3x3xf16>
  %i1_b = arith.constant dense<[-0.25, 0.25]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x6x6xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x6x6xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero32 : f32) outs(%z2_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x3x6x6xf16>, tensor<2x3x1x1xf16>) outs(%i1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p_e = tensor.empty() : tensor<1x2x6x6xf16>
  %p = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p32 : tensor<1x2x6x6xf32>) outs(%p_e : tensor<1x2x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x6x6xf16>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf16>, tensor<2x3x3xf16>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %d_e = tensor.empty() : tensor<1x2x6x6xf16>
  %d = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d32 : tensor<1x2x6x6xf32>) outs(%d_e : tensor<1x2x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x6x6xf16>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf16>, tensor<1x2x6x6xf16>) -> tensor<1x4x6x6xf16>
  return %c : tensor<1x4x6x6xf16>
}

func.func @relu_before_pad(%x: tensor<1x3x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.625]], [[-0.25]], [[-0.625]]], [[[-0.25]], [[0.875]], [[0.125]]]]> : tensor<2x3x1x1xf32>
  %k = arith.constant dense<[[[-0.375, -0.5, 0.875], [-0.125, 1.0, 0.0], [0.0, 0.75, 0.5]], [[0.125, -0.125, 0.75], [-0.125, 0.875, -0.875], [-0.125, 0.0, 0.875]]]> : tensor<2x3x3xf32>
  %i1_b = arith.constant dense<[-0.5, 0.625]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x6x6xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x6x6xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x3x6x6xf32>, tensor<2x3x1x1xf32>) outs(%i1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %r_e = tensor.empty() : tensor<1x2x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x6x6xf32>) outs(%r_e : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %c : tensor<1x4x6x6xf32>
}

func.func @ghost_limit(%x: tensor<1x3x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.375]], [[0.375]], [[0.25]]]]> : tensor<1x3x1x1xf32>
  %k = arith.constant dense<[[[1.0, -0.375, -0.25], [-0.625, -0.875, -0.625], [0.875, 0.625, -0.75]]]> : tensor<1x3x3xf32>
  %i1_e = tensor.empty() : tensor<1x1x6x6xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%i1_e : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %z2_e = tensor.empty() : tensor<1x1x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x3x6x6xf32>, tensor<1x3x1x1xf32>) outs(%i1 : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x1x6x6xf32> to tensor<1x1x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x1x8x8xf32>, tensor<1x3x3xf32>) outs(%z2 : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x1x6x6xf32>, tensor<1x1x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %c : tensor<1x2x6x6xf32>
}

