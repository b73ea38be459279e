// LayerNorm's mean through MobileViT's unfold (channel_sums.FoldChannelSumIntoLinearOp):
// the conv's [1, C, H, W] output is reshaped to [C*n_h, p_h, n_w, p_w], transposed,
// reshaped to [1, C, N, P], transposed to [1, P, N, C] and collapsed to [P, N, C], and
// the mean sums the last axis. On the way the channel is merged with the patch-row axis
// (12 = 3 channels x 4 rows, 6 = 3 x 2 patch rows), but it stays one mixed-radix digit of
// one dimension at each step (`reshape_digit`), so the sum is the one-channel conv's
// output sent through the same layout ops with that digit removed. Left alone: a reshape
// that mixes the channel with the rows (the sum is not over the channel), and a sum over
// part of the channel (a digit of it).
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | iree-opt --split-input-file | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | heir-opt --split-input-file | filecheck %s --check-prefix=REPARSE
// The cost rule prices it (one output channel more): policy=size refuses.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{policy=size pointwise=false}' 2>/dev/null | filecheck %s --check-prefix=SIZE
// Depth: the mean one level earlier; the negatives keep theirs.
// RUN: heirpy-opt %s --split-input-file -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (f16: the one-channel sum rounded to f16 once, within f16's tolerance).
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function unfold_mean | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function unfold_mean_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function mixed_reshape | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function part_of_channel | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE-LABEL: func.func @unfold_mean(
// REPARSE-LABEL: func.func @unfold_mean_f16(
// REPARSE-LABEL: func.func @mixed_reshape(
// REPARSE-LABEL: func.func @part_of_channel(
// SIZE-LABEL: func.func @unfold_mean(
// SIZE-NOT: tensor<1x1x4x4xf32>
// SIZE: "reduction"
// SIZE-LABEL: func.func @unfold_mean_f16(
// BEFORE: @unfold_mean 2
// BEFORE: @unfold_mean_f16 2
// BEFORE: @mixed_reshape 2
// BEFORE: @part_of_channel 2
// AFTER: @unfold_mean 1
// AFTER: @unfold_mean_f16 1
// AFTER: @mixed_reshape 2
// AFTER: @part_of_channel 2

// The one-channel conv: filter sum_f W[f] = [0.9 - 1.31 + 0.96, -0.46 + 0.66 + 0.52],
// init sum_f b[f] = -3.49; then the unfold with the channel digit removed (12x4 -> 4x4,
// 6x2x2x2 -> 2x2x2x2, ..., 4x4x3 -> 4x4x1). The conv and the full unfold stay for the
// centring, which reads the unfolded value.
// CHECK-LABEL: func.func @unfold_mean(
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}5.500000e-01]], {{\[\[}}7.200000e-01]]]]> : tensor<1x2x1x1xf32>
// CHECK:         %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK:         %[[I:.*]] = arith.constant dense<-3.4{{[0-9]*}}> : tensor<1x1x4x4xf32>
// CHECK:         %[[M:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) outs(%[[I]] : tensor<1x1x4x4xf32>)
// CHECK:         %[[A:.*]] = tensor.collapse_shape %[[M]] {{\[\[}}0, 1, 2], [3]] : tensor<1x1x4x4xf32> into tensor<4x4xf32>
// CHECK:         %[[B:.*]] = tensor.expand_shape %[[A]] {{\[\[}}0, 1], [2, 3]] output_shape [2, 2, 2, 2] : tensor<4x4xf32> into tensor<2x2x2x2xf32>
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[B]] : tensor<2x2x2x2xf32>) outs(%{{.*}} : tensor<2x2x2x2xf32>) permutation = [0, 2, 1, 3]
// CHECK:         %[[D:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0, 1], [2, 3]] : tensor<2x2x2x2xf32> into tensor<4x4xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[D]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 4, 4] : tensor<4x4xf32> into tensor<1x1x4x4xf32>
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<1x1x4x4xf32>) outs(%{{.*}} : tensor<1x4x4x1xf32>) permutation = [0, 3, 2, 1]
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<1x4x4x1xf{{32|64}}> into tensor<4x4x1xf{{32|64}}>
// CHECK-NOT:     "reduction"
// CHECK:         return %{{.*}}, %{{.*}} : tensor<4x4x3xf32>, tensor<4x4x1xf64>
func.func @unfold_mean(%x: tensor<1x2x4x4xf32>) -> (tensor<4x4x3xf32>, tensor<4x4x1xf64>) {
  %w = arith.constant dense<[[[[0.90]], [[-0.46]]], [[[-1.31]], [[0.66]]], [[[0.96]], [[0.52]]]]> : tensor<3x2x1x1xf32>
  %b = arith.constant dense<[-2.56, -1.54, 0.61]> : tensor<3xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %init = linalg.broadcast ins(%b : tensor<3xf32>) outs(%e : tensor<1x3x4x4xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c1 = tensor.collapse_shape %c [[0, 1, 2], [3]] : tensor<1x3x4x4xf32> into tensor<12x4xf32>
  %x1 = tensor.expand_shape %c1 [[0, 1], [2, 3]] output_shape [6, 2, 2, 2] : tensor<12x4xf32> into tensor<6x2x2x2xf32>
  %e1 = tensor.empty() : tensor<6x2x2x2xf32>
  %t1 = linalg.transpose ins(%x1 : tensor<6x2x2x2xf32>) outs(%e1 : tensor<6x2x2x2xf32>) permutation = [0, 2, 1, 3]
  %c2 = tensor.collapse_shape %t1 [[0, 1], [2, 3]] : tensor<6x2x2x2xf32> into tensor<12x4xf32>
  %x2 = tensor.expand_shape %c2 [[0, 1, 2], [3]] output_shape [1, 3, 4, 4] : tensor<12x4xf32> into tensor<1x3x4x4xf32>
  %e2 = tensor.empty() : tensor<1x4x4x3xf32>
  %t2 = linalg.transpose ins(%x2 : tensor<1x3x4x4xf32>) outs(%e2 : tensor<1x4x4x3xf32>) permutation = [0, 3, 2, 1]
  %u = tensor.collapse_shape %t2 [[0, 1], [2], [3]] : tensor<1x4x4x3xf32> into tensor<4x4x3xf32>
  %u64 = arith.extf %u : tensor<4x4x3xf32> to tensor<4x4x3xf64>
  %z = arith.constant dense<0.0> : tensor<4x4x1xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%u64 : tensor<4x4x3xf64>) outs(%z : tensor<4x4x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %a = arith.addf %in, %out : f64
    linalg.yield %a : f64
  } -> tensor<4x4x1xf64>
  return %u, %s : tensor<4x4x3xf32>, tensor<4x4x1xf64>
}

// -----

// f16: the sum widens to f32 first. A layout op with another reader (the transpose,
// returned) stays for it; the mean reads the one-channel conv all the same.
// CHECK-LABEL: func.func @unfold_mean_f16(
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : tensor<1x3x4x4xf16>)
// CHECK:         %[[T1:.*]] = linalg.transpose ins(%{{.*}} : tensor<6x2x2x2xf16>)
// CHECK:         %[[M:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : tensor<1x1x4x4xf16>)
// CHECK:         tensor.collapse_shape %[[M]]
// CHECK:         arith.extf %{{.*}} : tensor<{{.*}}x1xf16> to tensor<{{.*}}x1xf32>
// CHECK-NOT:     "reduction"
// CHECK:         return %[[T1]], %{{.*}} : tensor<6x2x2x2xf16>, tensor<4x4x1xf32>
func.func @unfold_mean_f16(%x: tensor<1x2x4x4xf16>) -> (tensor<6x2x2x2xf16>, tensor<4x4x1xf32>) {
  %w = arith.constant dense<[[[[0.90]], [[-0.46]]], [[[-1.31]], [[0.66]]], [[[0.96]], [[0.52]]]]> : tensor<3x2x1x1xf16>
  %b = arith.constant dense<[-2.56, -1.54, 0.61]> : tensor<3xf16>
  %e = tensor.empty() : tensor<1x3x4x4xf16>
  %init = linalg.broadcast ins(%b : tensor<3xf16>) outs(%e : tensor<1x3x4x4xf16>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%init : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %c1 = tensor.collapse_shape %c [[0, 1, 2], [3]] : tensor<1x3x4x4xf16> into tensor<12x4xf16>
  %x1 = tensor.expand_shape %c1 [[0, 1], [2, 3]] output_shape [6, 2, 2, 2] : tensor<12x4xf16> into tensor<6x2x2x2xf16>
  %e1 = tensor.empty() : tensor<6x2x2x2xf16>
  %t1 = linalg.transpose ins(%x1 : tensor<6x2x2x2xf16>) outs(%e1 : tensor<6x2x2x2xf16>) permutation = [0, 2, 1, 3]
  %c2 = tensor.collapse_shape %t1 [[0, 1], [2, 3]] : tensor<6x2x2x2xf16> into tensor<12x4xf16>
  %x2 = tensor.expand_shape %c2 [[0, 1, 2], [3]] output_shape [1, 3, 4, 4] : tensor<12x4xf16> into tensor<1x3x4x4xf16>
  %e2 = tensor.empty() : tensor<1x4x4x3xf16>
  %t2 = linalg.transpose ins(%x2 : tensor<1x3x4x4xf16>) outs(%e2 : tensor<1x4x4x3xf16>) permutation = [0, 3, 2, 1]
  %u = tensor.collapse_shape %t2 [[0, 1], [2], [3]] : tensor<1x4x4x3xf16> into tensor<4x4x3xf16>
  %u32 = arith.extf %u : tensor<4x4x3xf16> to tensor<4x4x3xf32>
  %z = arith.constant dense<0.0> : tensor<4x4x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%u32 : tensor<4x4x3xf32>) outs(%z : tensor<4x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x4x1xf32>
  return %t1, %s : tensor<6x2x2x2xf16>, tensor<4x4x1xf32>
}

// -----

// [1, 3, 4, 4] -> [12, 4] -> [2, 6, 4]: 6 mixes the channel with the rows (12 = 3 x 4 is
// split as 2 x 6), so the sum over it is not a channel sum: left alone.
// CHECK-LABEL: func.func @mixed_reshape(
// CHECK-NOT:     tensor<1x2x1x1xf32>
// CHECK:         "reduction"
func.func @mixed_reshape(%x: tensor<1x2x4x4xf32>) -> tensor<2x1x4xf32> {
  %w = arith.constant dense<[[[[0.90]], [[-0.46]]], [[[-1.31]], [[0.66]]], [[[0.96]], [[0.52]]]]> : tensor<3x2x1x1xf32>
  %zc = arith.constant dense<0.0> : tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zc : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c1 = tensor.collapse_shape %c [[0, 1, 2], [3]] : tensor<1x3x4x4xf32> into tensor<12x4xf32>
  %x1 = tensor.expand_shape %c1 [[0, 1], [2]] output_shape [2, 6, 4] : tensor<12x4xf32> into tensor<2x6x4xf32>
  %z = arith.constant dense<0.0> : tensor<2x1x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x1 : tensor<2x6x4xf32>) outs(%z : tensor<2x1x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x1x4xf32>
  return %s : tensor<2x1x4xf32>
}

// -----

// [1, 4, 4, 4] -> [16, 4] -> [2, 2, 4, 4]: axis 1 is the low digit of the channel (one
// channel digit, but not the whole channel): the sum over it is a sum over half the
// channels, not a one-channel op. Left alone.
// CHECK-LABEL: func.func @part_of_channel(
// CHECK-NOT:     tensor<1x2x1x1xf32>
// CHECK:         "reduction"
func.func @part_of_channel(%x: tensor<1x2x4x4xf32>) -> tensor<2x1x4x4xf32> {
  %w = arith.constant dense<[[[[0.90]], [[-0.46]]], [[[-1.31]], [[0.66]]], [[[0.96]], [[0.52]]], [[[0.25]], [[-0.75]]]]> : tensor<4x2x1x1xf32>
  %zc = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%zc : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c1 = tensor.collapse_shape %c [[0, 1, 2], [3]] : tensor<1x4x4x4xf32> into tensor<16x4xf32>
  %x1 = tensor.expand_shape %c1 [[0, 1, 2], [3]] output_shape [2, 2, 4, 4] : tensor<16x4xf32> into tensor<2x2x4x4xf32>
  %z = arith.constant dense<0.0> : tensor<2x1x4x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%x1 : tensor<2x2x4x4xf32>) outs(%z : tensor<2x1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x1x4x4xf32>
  return %s : tensor<2x1x4x4xf32>
}
