// LayerNorm's mean through a concat along another axis than the channel and the add of a
// constant (channel_sums.FoldChannelSumIntoLinearOp): ViT's first LayerNorm normalises
// concat([cls_token, patch_embed(img)], token axis) + pos_embed. The sum of a concat is the
// concat of its parts' sums, a constant's sum is a constant: the mean reads the patch
// conv's one-channel op and two constants, at the conv's depth, one level earlier.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | iree-opt --split-input-file | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | heir-opt --split-input-file | filecheck %s --check-prefix=REPARSE
// The cost rule prices it (one output channel more): policy=size refuses.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{policy=size pointwise=false}' 2>/dev/null | filecheck %s --check-prefix=SIZE
// Depth: the mean one level earlier; the negatives keep theirs.
// RUN: heirpy-opt %s --split-input-file -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (f16: the parts' sums rounded to f16 once, within f16's tolerance).
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function vit_embed_mean | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function vit_embed_mean_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function concat_on_channel | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function part_not_linear | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE-LABEL: func.func @vit_embed_mean(
// REPARSE-LABEL: func.func @vit_embed_mean_f16(
// REPARSE-LABEL: func.func @concat_on_channel(
// REPARSE-LABEL: func.func @part_not_linear(
// SIZE-LABEL: func.func @vit_embed_mean(
// SIZE-NOT: tensor<1x1x2x2xf32>
// SIZE: "reduction"
// SIZE-LABEL: func.func @vit_embed_mean_f16(
// BEFORE: @vit_embed_mean 2
// BEFORE: @vit_embed_mean_f16 2
// BEFORE: @concat_on_channel 2
// BEFORE: @part_not_linear 2
// AFTER: @vit_embed_mean 1
// AFTER: @vit_embed_mean_f16 1
// AFTER: @concat_on_channel 2
// AFTER: @part_not_linear 2

// The class token's channel sum (0.1 + 0.2 + 0.3 + 0.4 = 1.0) and the position embedding's
// (per token: 0.4, 0.8, ...) are constants; the conv's is the one-channel conv.
// CHECK-LABEL: func.func @vit_embed_mean(
// CHECK-DAG:     %[[POS:.*]] = arith.constant dense<{{\[\[\[}}4.000000e-01], [8.000000e-01], [1.200000e+00], [1.600000e+00], [2.000000e+00]]]> : tensor<1x5x1xf32>
// CHECK-DAG:     %[[CLS:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1x1xf32>
// CHECK-DAG:     %[[W1:.*]] = arith.constant {{.*}} : tensor<1x3x2x2xf32>
// CHECK:         %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x3x4x4xf32>, tensor<4x3x2x2xf32>)
// CHECK:         %[[M:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W1]] : tensor<1x3x4x4xf32>, tensor<1x3x2x2xf32>) outs(%{{.*}} : tensor<1x1x2x2xf32>)
// CHECK:         %[[MC:.*]] = tensor.collapse_shape %[[M]] {{\[\[}}0], [1], [2, 3]] : tensor<1x1x2x2xf32> into tensor<1x1x4xf32>
// CHECK:         %[[MT:.*]] = linalg.transpose ins(%[[MC]] : tensor<1x1x4xf32>) outs(%{{.*}} : tensor<1x4x1xf32>) permutation = [0, 2, 1]
// CHECK:         %[[CAT:.*]] = tensor.concat dim(1) %[[CLS]], %[[MT]] : (tensor<1x1x1xf32>, tensor<1x4x1xf32>) -> tensor<1x5x1xf32>
// CHECK:         %[[S1:.*]] = arith.extf %[[CAT]] : tensor<1x5x1xf32> to tensor<1x5x1xf64>
// CHECK:         %[[S2:.*]] = arith.extf %[[POS]] : tensor<1x5x1xf32> to tensor<1x5x1xf64>
// CHECK:         %[[S:.*]] = arith.addf %[[S1]], %[[S2]] : tensor<1x5x1xf64>
// CHECK-NOT:     "reduction"
// CHECK:         return %{{.*}}, %[[S]]
func.func @vit_embed_mean(%x: tensor<1x3x4x4xf32>) -> (tensor<1x5x4xf32>, tensor<1x5x1xf64>) {
  %w = arith.constant dense<[[[[0.5, -0.3], [0.2, 0.1]], [[-0.4, 0.6], [0.3, -0.2]], [[0.1, 0.2], [-0.5, 0.4]]], [[[0.3, 0.1], [-0.2, 0.5]], [[0.2, -0.1], [0.4, 0.3]], [[-0.3, 0.2], [0.1, -0.6]]], [[[-0.1, 0.4], [0.3, 0.2]], [[0.5, 0.1], [-0.2, 0.3]], [[0.2, -0.4], [0.6, 0.1]]], [[[0.2, 0.2], [0.1, -0.3]], [[-0.6, 0.3], [0.2, 0.1]], [[0.4, 0.5], [-0.1, 0.2]]]]> : tensor<4x3x2x2xf32>
  %b = arith.constant dense<[0.01, -0.02, 0.03, 0.04]> : tensor<4xf32>
  %cls = arith.constant dense<[[[0.1, 0.2, 0.3, 0.4]]]> : tensor<1x1x4xf32>
  %pos = arith.constant dense<[[[0.1, 0.1, 0.1, 0.1], [0.2, 0.2, 0.2, 0.2], [0.3, 0.3, 0.3, 0.3], [0.4, 0.4, 0.4, 0.4], [0.5, 0.5, 0.5, 0.5]]]> : tensor<1x5x4xf32>
  %e = tensor.empty() : tensor<1x4x2x2xf32>
  %init = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x2x2xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x3x4x4xf32>, tensor<4x3x2x2xf32>) outs(%init : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %cc = tensor.collapse_shape %c [[0], [1], [2, 3]] : tensor<1x4x2x2xf32> into tensor<1x4x4xf32>
  %et = tensor.empty() : tensor<1x4x4xf32>
  %t = linalg.transpose ins(%cc : tensor<1x4x4xf32>) outs(%et : tensor<1x4x4xf32>) permutation = [0, 2, 1]
  %cat = tensor.concat dim(1) %cls, %t : (tensor<1x1x4xf32>, tensor<1x4x4xf32>) -> tensor<1x5x4xf32>
  %ea = tensor.empty() : tensor<1x5x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cat, %pos : tensor<1x5x4xf32>, tensor<1x5x4xf32>) outs(%ea : tensor<1x5x4xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %s = arith.addf %in, %in_1 : f32
    linalg.yield %s : f32
  } -> tensor<1x5x4xf32>
  %e64 = tensor.empty() : tensor<1x5x4xf64>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<1x5x4xf32>) outs(%e64 : tensor<1x5x4xf64>) {
  ^bb0(%in: f32, %out: f64):
    %v = arith.extf %in : f32 to f64
    linalg.yield %v : f64
  } -> tensor<1x5x4xf64>
  %zero = arith.constant 0.0 : f64
  %es = tensor.empty() : tensor<1x5x1xf64>
  %z = linalg.fill ins(%zero : f64) outs(%es : tensor<1x5x1xf64>) -> tensor<1x5x1xf64>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%d : tensor<1x5x4xf64>) outs(%z : tensor<1x5x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %v = arith.addf %in, %out : f64
    linalg.yield %v : f64
  } -> tensor<1x5x1xf64>
  return %a, %sum : tensor<1x5x4xf32>, tensor<1x5x1xf64>
}

// -----

// torch-mlir's f16 form: the conv's f32 accumulator rounded to f16 inside the patches'
// part, the add in f16, the statistics widened to f32 then f64.
// CHECK-LABEL: func.func @vit_embed_mean_f16(
// CHECK:         %[[M:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x3x4x4xf16>, tensor<1x3x2x2xf16>) outs(%{{.*}} : tensor<1x1x2x2xf32>)
// CHECK:         %[[R:.*]] = arith.truncf %[[M]] : tensor<1x1x2x2xf32> to tensor<1x1x2x2xf16>
// CHECK:         %[[MC:.*]] = tensor.collapse_shape %[[R]]
// CHECK:         %[[MT:.*]] = linalg.transpose ins(%[[MC]] : tensor<1x1x4xf16>)
// CHECK:         %[[CAT:.*]] = tensor.concat dim(1) %{{.*}}, %[[MT]] : (tensor<1x1x1xf16>, tensor<1x4x1xf16>) -> tensor<1x5x1xf16>
// CHECK:         arith.extf %[[CAT]] : tensor<1x5x1xf16> to tensor<1x5x1xf32>
// CHECK-NOT:     "reduction"
// CHECK:         return
func.func @vit_embed_mean_f16(%x: tensor<1x3x4x4xf16>) -> (tensor<1x5x4xf16>, tensor<1x5x1xf64>) {
  %w = arith.constant dense<[[[[0.5, -0.3], [0.2, 0.1]], [[-0.4, 0.6], [0.3, -0.2]], [[0.1, 0.2], [-0.5, 0.4]]], [[[0.3, 0.1], [-0.2, 0.5]], [[0.2, -0.1], [0.4, 0.3]], [[-0.3, 0.2], [0.1, -0.6]]], [[[-0.1, 0.4], [0.3, 0.2]], [[0.5, 0.1], [-0.2, 0.3]], [[0.2, -0.4], [0.6, 0.1]]], [[[0.2, 0.2], [0.1, -0.3]], [[-0.6, 0.3], [0.2, 0.1]], [[0.4, 0.5], [-0.1, 0.2]]]]> : tensor<4x3x2x2xf16>
  %b = arith.constant dense<[0.01, -0.02, 0.03, 0.04]> : tensor<4xf32>
  %cls = arith.constant dense<[[[0.1, 0.2, 0.3, 0.4]]]> : tensor<1x1x4xf16>
  %pos = arith.constant dense<[[[0.1, 0.1, 0.1, 0.1], [0.2, 0.2, 0.2, 0.2], [0.3, 0.3, 0.3, 0.3], [0.4, 0.4, 0.4, 0.4], [0.5, 0.5, 0.5, 0.5]]]> : tensor<1x5x4xf16>
  %e = tensor.empty() : tensor<1x4x2x2xf32>
  %init = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x2x2xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x3x4x4xf16>, tensor<4x3x2x2xf16>) outs(%init : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %eh = tensor.empty() : tensor<1x4x2x2xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x2x2xf32>) outs(%eh : tensor<1x4x2x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %v = arith.truncf %in : f32 to f16
    linalg.yield %v : f16
  } -> tensor<1x4x2x2xf16>
  %cc = tensor.collapse_shape %h [[0], [1], [2, 3]] : tensor<1x4x2x2xf16> into tensor<1x4x4xf16>
  %et = tensor.empty() : tensor<1x4x4xf16>
  %t = linalg.transpose ins(%cc : tensor<1x4x4xf16>) outs(%et : tensor<1x4x4xf16>) permutation = [0, 2, 1]
  %cat = tensor.concat dim(1) %cls, %t : (tensor<1x1x4xf16>, tensor<1x4x4xf16>) -> tensor<1x5x4xf16>
  %ea = tensor.empty() : tensor<1x5x4xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cat, %pos : tensor<1x5x4xf16>, tensor<1x5x4xf16>) outs(%ea : tensor<1x5x4xf16>) {
  ^bb0(%in: f16, %in_1: f16, %out: f16):
    %s = arith.addf %in, %in_1 : f16
    linalg.yield %s : f16
  } -> tensor<1x5x4xf16>
  %e32 = tensor.empty() : tensor<1x5x4xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<1x5x4xf16>) outs(%e32 : tensor<1x5x4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x5x4xf32>
  %e64 = tensor.empty() : tensor<1x5x4xf64>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%f : tensor<1x5x4xf32>) outs(%e64 : tensor<1x5x4xf64>) {
  ^bb0(%in: f32, %out: f64):
    %v = arith.extf %in : f32 to f64
    linalg.yield %v : f64
  } -> tensor<1x5x4xf64>
  %zero = arith.constant 0.0 : f64
  %es = tensor.empty() : tensor<1x5x1xf64>
  %z = linalg.fill ins(%zero : f64) outs(%es : tensor<1x5x1xf64>) -> tensor<1x5x1xf64>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%d : tensor<1x5x4xf64>) outs(%z : tensor<1x5x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %v = arith.addf %in, %out : f64
    linalg.yield %v : f64
  } -> tensor<1x5x1xf64>
  return %a, %sum : tensor<1x5x4xf16>, tensor<1x5x1xf64>
}

// -----

// Left alone: a concat along the summed (channel) axis: two matmuls' channels side by side.
// CHECK-LABEL: func.func @concat_on_channel(
// CHECK-NOT:     tensor<2x1xf32>
// CHECK:         tensor.concat dim(1)
// CHECK:         "reduction"
func.func @concat_on_channel(%x: tensor<3x2xf32>) -> (tensor<3x4xf32>, tensor<3x1xf32>) {
  %w1 = arith.constant dense<[[0.5, -0.3], [0.2, 0.7]]> : tensor<2x2xf32>
  %w2 = arith.constant dense<[[0.1, 0.4], [-0.6, 0.3]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<3x2xf32>, tensor<2x2xf32>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  %m2 = linalg.matmul ins(%x, %w2 : tensor<3x2xf32>, tensor<2x2xf32>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
  %cat = tensor.concat dim(1) %m1, %m2 : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x4xf32>
  %es = tensor.empty() : tensor<3x1xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<3x1xf32>) -> tensor<3x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%cat : tensor<3x4xf32>) outs(%zs : tensor<3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<3x1xf32>
  return %cat, %sum : tensor<3x4xf32>, tensor<3x1xf32>
}

// -----

// Left alone: a part that is neither linear nor constant (a tanh of a matmul: the concat is
// summed whole, the matmul's level and the sum's stay).
// CHECK-LABEL: func.func @part_not_linear(
// CHECK-NOT:     tensor<2x1xf32>
// CHECK:         tensor.concat dim(1)
// CHECK:         "reduction"
func.func @part_not_linear(%x: tensor<2x2xf32>, %y: tensor<1x1x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x3x1xf32>) {
  %w = arith.constant dense<[[0.5, -0.3], [0.2, 0.7]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %me = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 2, 2] : tensor<2x2xf32> into tensor<1x2x2xf32>
  %ey = tensor.empty() : tensor<1x1x2xf32>
  %ty = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<1x1x2xf32>) outs(%ey : tensor<1x1x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.tanh %in : f32
    linalg.yield %v : f32
  } -> tensor<1x1x2xf32>
  %cat = tensor.concat dim(1) %ty, %me : (tensor<1x1x2xf32>, tensor<1x2x2xf32>) -> tensor<1x3x2xf32>
  %es = tensor.empty() : tensor<1x3x1xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%cat : tensor<1x3x2xf32>) outs(%zs : tensor<1x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x3x1xf32>
  return %cat, %sum : tensor<1x3x2xf32>, tensor<1x3x1xf32>
}
