// A matmul through a fork (chains_through_forks.py, `_fuse_matrix`): GhostNet's stride
// block with a squeeze-excite pools and reduces (one matmul of the flattened sample after
// fusion) the output of its strided depthwise conv, which the gate multiplies too. The
// depthwise conv stays for the gate; the matmul becomes ONE explicit matrix of the conv's
// input (its pad absorbed), one level above it instead of two.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// Depth of each result (the squeeze, the gate): the squeeze one level less.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (torch-mlir's form, each reader rounding the f32 conv on its own).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function squeeze | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function squeeze_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function two_rows | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// The cost rule: @squeeze's weights go from 2x3x3 (the depthwise filter, kept) + 18x3 = 72
// to 18 + the 72x3 matrix = 234, 3.25x for one level: at max-weight-growth=3.25 it fuses,
// under it it does not.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=3.25}' 2>/dev/null | filecheck %s --check-prefix=AT-LIMIT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=3.24}' 2>/dev/null | filecheck %s --check-prefix=UNDER
// BEFORE: @squeeze {{ +}}2 {{ +}}2, 2
// BEFORE: @squeeze_f16 {{ +}}2 {{ +}}2, 2
// BEFORE: @two_rows {{ +}}2 {{ +}}2, 2
// AFTER: @squeeze {{ +}}2 {{ +}}1, 2
// AFTER: @squeeze_f16 {{ +}}2 {{ +}}1, 2
// AFTER: @two_rows {{ +}}2 {{ +}}2, 2
// REPARSE-LABEL: func.func @squeeze(
// REPARSE-LABEL: func.func @two_rows(
// AT-LIMIT-LABEL: func.func @squeeze(
// AT-LIMIT: tensor.collapse_shape %x
// AT-LIMIT-LABEL: func.func @squeeze_f16(
// UNDER-LABEL: func.func @squeeze(
// UNDER: linalg.matmul ins(%f, %w :
// UNDER-LABEL: func.func @squeeze_f16(

// CHECK-LABEL: func.func @squeeze(
// CHECK: %[[D:.*]] = linalg.depthwise_conv_2d_nchw_chw
// CHECK: %[[G:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK: %[[F:.*]] = tensor.collapse_shape %x {{\[\[}}0], [1, 2, 3]] : tensor<1x2x6x6xf32> into tensor<1x72xf32>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[F]], %{{.*}} : tensor<1x72xf32>, tensor<72x3xf32>)
// CHECK-NEXT: return %[[M]], %[[G]]
// The f16 form: the matrix in f16 reads the f16 input into the f32 init; the gate keeps
// its rounding of the conv.
// CHECK-LABEL: func.func @squeeze_f16(
// CHECK: %[[D:.*]] = linalg.depthwise_conv_2d_nchw_chw {{.*}} outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK: %[[F:.*]] = tensor.collapse_shape %x {{\[\[}}0], [1, 2, 3]] : tensor<1x2x6x6xf16> into tensor<1x72xf16>
// CHECK: linalg.matmul ins(%[[F]], %{{.*}} : tensor<1x72xf16>, tensor<72x3xf16>) outs(%{{.*}} : tensor<1x3xf32>)
// Negative: the matmul reads rows of the conv's output, not one flattened sample.
// CHECK-LABEL: func.func @two_rows(
// CHECK: %[[F:.*]] = tensor.collapse_shape %d {{\[\[}}0, 1], [2, 3]]
// CHECK: linalg.matmul ins(%[[F]], %w :
func.func @squeeze(%x: tensor<1x2x6x6xf32>) -> (tensor<1x3xf32>, tensor<1x2x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[0.25, 0.75, 0.5], [-0.5, -0.375, 0.75], [-1.0, 0.625, 0.625]], [[-0.125, -0.375, -0.5], [-0.5, -0.125, 0.0], [0.125, 1.0, 0.625]]]> : tensor<2x3x3xf32>
  %w = arith.constant dense<[[0.25, 1.0, -0.625], [-0.625, 0.25, -0.875], [-0.875, 0.0, -0.125], [0.875, 0.25, 0.0], [-0.0, -0.5, -1.0], [-0.625, 0.375, -0.625], [-0.25, -1.0, 0.625], [-0.75, -0.5, 0.75], [0.0, 0.75, 0.25], [0.5, -0.875, 0.125], [0.0, 0.75, -0.25], [0.25, -0.875, -0.25], [-0.375, -0.75, 0.625], [-0.25, 1.0, 0.125], [0.25, 0.25, 0.375], [-0.75, -0.125, -0.5], [-0.25, -0.75, 0.875], [-0.625, 0.375, -0.375]]> : tensor<18x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %i1_b = arith.constant dense<[0.75, 0.375]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x3x3xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%i1 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  // The gate: another reader of the depthwise conv's output.
  %g = arith.mulf %d, %d : tensor<1x2x3x3xf32>
  %f = tensor.collapse_shape %d [[0], [1, 2, 3]] : tensor<1x2x3x3xf32> into tensor<1x18xf32>
  %b2 = arith.constant dense<[-0.75, 0.75, 0.875]> : tensor<3xf32>
  %i2_e = tensor.empty() : tensor<1x3xf32>
  %i2 = linalg.broadcast ins(%b2 : tensor<3xf32>) outs(%i2_e : tensor<1x3xf32>) dimensions = [0]
  %m = linalg.matmul ins(%f, %w : tensor<1x18xf32>, tensor<18x3xf32>) outs(%i2 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %m, %g : tensor<1x3xf32>, tensor<1x2x3x3xf32>
}

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @squeeze_f16(%x: tensor<1x2x6x6xf16>) -> (tensor<1x3xf16>, tensor<1x2x3x3xf16>) {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[0.75, 0.125, -0.75], [-0.625, 0.875, 0.125], [-0.625, 0.75, 0.25]], [[0.125, -0.25, -0.125], [-0.5, -0.875, 0.75], [-0.125, 0.125, -0.375]]]> : tensor<2x3x3xf16>
  %w = arith.constant dense<[[0.5, -1.0, -0.25], [-1.0, -0.75, 0.875], [0.375, -0.125, 0.0], [0.75, -0.25, 0.125], [0.375, -0.25, 0.0], [0.5, 0.875, -0.75], [0.875, -1.0, 0.5], [0.625, -0.75, -0.125], [0.625, -1.0, 0.25], [0.625, 0.0, 0.5], [-0.5, -0.625, -0.25], [-0.625, -0.25, 0.875], [0.125, -0.375, -0.5], [0.875, -0.125, 1.0], [0.0, 0.0, 0.75], [0.5, 0.125, -0.125], [0.75, -0.125, 0.875], [-0.875, -0.125, 0.0]]> : tensor<18x3xf16>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %i1_b = arith.constant dense<[0.875, -0.5]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x3x3xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %k : tensor<1x2x8x8xf16>, tensor<2x3x3xf16>) outs(%i1 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %d_e = tensor.empty() : tensor<1x2x3x3xf16>
  %d = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d32 : tensor<1x2x3x3xf32>) outs(%d_e : tensor<1x2x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x3x3xf16>
  %dq_e = tensor.empty() : tensor<1x2x3x3xf16>
  %dq = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d32 : tensor<1x2x3x3xf32>) outs(%dq_e : tensor<1x2x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x3x3xf16>
  // The gate: another reader of the depthwise conv's output.
  %g = arith.mulf %d, %d : tensor<1x2x3x3xf16>
  %f = tensor.collapse_shape %dq [[0], [1, 2, 3]] : tensor<1x2x3x3xf16> into tensor<1x18xf16>
  %b2 = arith.constant dense<[0.625, 0.375, 0.375]> : tensor<3xf32>
  %i2_e = tensor.empty() : tensor<1x3xf32>
  %i2 = linalg.broadcast ins(%b2 : tensor<3xf32>) outs(%i2_e : tensor<1x3xf32>) dimensions = [0]
  %m32 = linalg.matmul ins(%f, %w : tensor<1x18xf16>, tensor<18x3xf16>) outs(%i2 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %m = arith.truncf %m32 : tensor<1x3xf32> to tensor<1x3xf16>
  return %m, %g : tensor<1x3xf16>, tensor<1x2x3x3xf16>
}

func.func @two_rows(%x: tensor<1x2x6x6xf32>) -> (tensor<2x3xf32>, tensor<1x2x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[0.25, 1.0, -0.375], [-0.25, -0.625, -0.875], [-0.625, 0.875, 0.625]], [[-0.75, 0.25, -0.0], [0.25, 0.375, -0.375], [0.875, -0.125, 0.25]]]> : tensor<2x3x3xf32>
  %w = arith.constant dense<[[0.25, -0.625, -0.875], [-0.125, 0.5, 0.625], [0.5, -0.75, 0.875], [0.625, 0.75, 0.0], [0.875, -0.875, -1.0], [-1.0, -0.5, -0.5], [-0.625, 0.125, -0.875], [0.125, -0.625, 0.375], [-1.0, -0.375, 0.875]]> : tensor<9x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %i1_e = tensor.empty() : tensor<1x2x3x3xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%i1_e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%i1 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %g = arith.mulf %d, %d : tensor<1x2x3x3xf32>
  %f = tensor.collapse_shape %d [[0, 1], [2, 3]] : tensor<1x2x3x3xf32> into tensor<2x9xf32>
  %i2_e = tensor.empty() : tensor<2x3xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%i2_e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = linalg.matmul ins(%f, %w : tensor<2x9xf32>, tensor<9x3xf32>) outs(%i2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m, %g : tensor<2x3xf32>, tensor<1x2x3x3xf32>
}

