// Batch-norm after a grouped conv (grouped_conv.py), in the form torch-mlir exports
// RegNetX's 3x3 `nn.Conv2d(groups=G)` (timm regnetx_002, shrunk to 4 channels in 2
// groups): pad, `expand_shape` of the channels into [G, C/G], `conv_2d_ngchw_gfchw`,
// `collapse_shape` of [G, F] back into G*F channels, then the per-channel scale and
// shift. The scale multiplies filter W[g, f] (output channel g*F + f) and the init; the
// shift goes into the init (this pass's bias rule) or stays an add (linalg-fuse-ops').
// One level instead of two, as the depth bound counts it (regnetx_002: 54 -> 41 = bound).
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-ops | filecheck %s --check-prefix=UMBRELLA
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16, and the negatives untouched in value too.
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops -o %t
// RUN: heirpy-equiv %s %t --function grouped_bn | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function grouped_bn_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function spatial_scale | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function collapse_reused | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function conv_reused | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %s -p linalg-fuse-ops -o %t.umbrella
// RUN: heirpy-equiv %s %t.umbrella --function grouped_bn | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.umbrella --function grouped_bn_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE: linalg.conv_2d_ngchw_gfchw
// BEFORE: @grouped_bn       2
// BEFORE: @grouped_bn_f16   2
// BEFORE: @spatial_scale    2
// BEFORE: @collapse_reused  2
// BEFORE: @conv_reused      2
// AFTER: @grouped_bn       1
// AFTER: @grouped_bn_f16   1
// AFTER: @spatial_scale    2
// AFTER: @collapse_reused  2
// AFTER: @conv_reused      2

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
// CHECK-LABEL: func.func @grouped_bn(
// CHECK: %[[XG:.*]] = tensor.expand_shape
// CHECK: %[[C:.*]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[XG]], %[[W:.*]] : tensor<1x2x2x8x8xf32>, tensor<2x2x2x3x3xf32>) outs(%[[I:.*]] : tensor<1x2x2x3x3xf32>)
// CHECK-NEXT: %[[O:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0], [1, 2], [3], [4]]
// CHECK-NEXT: return %[[O]]
// UMBRELLA-LABEL: func.func @grouped_bn(
// UMBRELLA-NOT: arith.mulf
// UMBRELLA: linalg.conv_2d_ngchw_gfchw
// UMBRELLA-NOT: arith.mulf
// UMBRELLA: return
// UMBRELLA-LABEL: func.func @grouped_bn_f16(
func.func @grouped_bn(%x: tensor<1x4x6x6xf32>) -> (tensor<1x4x3x3xf32>) {
  %w = arith.constant dense<[[[[[-0.875, -0.5, 0.625], [0.125, -0.75, -0.125], [-0.0, -0.625, 0.5]], [[-0.75, -0.25, 0.0], [-0.125, 0.125, 0.5], [0.875, -0.375, 0.25]]], [[[0.375, -0.375, -1.0], [1.0, -0.375, -0.375], [0.75, 0.125, -0.0]], [[0.5, -1.0, 0.375], [-0.25, -0.875, 0.375], [0.875, -0.625, 0.25]]]], [[[[-0.375, 0.5, 0.5], [-0.625, 0.625, 0.375], [0.375, 0.625, -0.125]], [[0.5, 0.75, -0.75], [0.75, -0.25, -0.0], [-0.75, 0.375, -0.375]]], [[[0.75, -0.5, 0.125], [-0.25, 0.25, -0.625], [-0.625, 0.5, 0.5]], [[0.125, 0.875, -0.625], [0.75, -0.625, 0.875], [0.25, 0.25, 1.0]]]]]> : tensor<2x2x2x3x3xf32>
  %k = arith.constant dense<[[[0.625]], [[0.625]], [[-0.875]], [[-0.25]]]> : tensor<4x1x1xf32>
  %b = arith.constant dense<[[[-0.875]], [[-0.625]], [[-0.625]], [[0.75]]]> : tensor<4x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  %z = arith.constant dense<0.0> : tensor<1x2x2x3x3xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %w : tensor<1x2x2x8x8xf32>, tensor<2x2x2x3x3xf32>) outs(%z : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %o = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %m = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %k : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.mulf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %b : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %v = arith.addf %in, %t : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  return %s : tensor<1x4x3x3xf32>
}

// CHECK-LABEL: func.func @grouped_bn_f16(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} -> tensor<1x2x2x3x3xf16>
// CHECK-NEXT: tensor.collapse_shape
// CHECK-NEXT: return
func.func @grouped_bn_f16(%x: tensor<1x4x6x6xf16>) -> (tensor<1x4x3x3xf16>) {
  %w = arith.constant dense<[[[[[-0.75, -0.375, -0.0], [0.75, 0.875, 0.375], [-0.625, 0.125, 0.375]], [[-0.875, 0.375, -0.25], [0.125, 0.375, 0.375], [0.0, 0.125, -0.625]]], [[[-0.0, -0.75, -0.0], [0.125, 0.5, -0.25], [-1.0, 0.0, -0.625]], [[0.5, -0.25, -0.25], [0.875, -0.25, -0.25], [-0.25, -0.0, -0.875]]]], [[[[0.125, 0.875, 0.125], [0.5, 0.875, 0.625], [0.5, 0.625, 0.625]], [[-0.5, -0.0, -0.375], [-0.5, 0.125, -0.375], [0.25, 0.125, -0.75]]], [[[-0.125, -0.25, 0.375], [-0.875, -0.625, 0.0], [-0.25, 0.375, -0.375]], [[-0.625, 0.875, -0.5], [-0.75, -0.5, -0.375], [-0.5, 0.125, 0.875]]]]]> : tensor<2x2x2x3x3xf16>
  %k = arith.constant dense<[[[-0.75]], [[-0.125]], [[0.375]], [[0.75]]]> : tensor<4x1x1xf16>
  %b = arith.constant dense<[[[1.0]], [[-0.75]], [[0.125]], [[0.75]]]> : tensor<4x1x1xf16>
  %zero = arith.constant 0.0 : f16
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf16> into tensor<1x2x2x8x8xf16>
  %z = arith.constant dense<0.0> : tensor<1x2x2x3x3xf16>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %w : tensor<1x2x2x8x8xf16>, tensor<2x2x2x3x3xf16>) outs(%z : tensor<1x2x2x3x3xf16>) -> tensor<1x2x2x3x3xf16>
  %o = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf16> into tensor<1x4x3x3xf16>
  %e = tensor.empty() : tensor<1x4x3x3xf16>
  %m = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %k : tensor<1x4x3x3xf16>, tensor<4x1x1xf16>) outs(%e : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f16, %s: f16, %out: f16):
    %v = arith.mulf %in, %s : f16
    linalg.yield %v : f16
  } -> tensor<1x4x3x3xf16>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %b : tensor<1x4x3x3xf16>, tensor<4x1x1xf16>) outs(%e : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f16, %t: f16, %out: f16):
    %v = arith.addf %in, %t : f16
    linalg.yield %v : f16
  } -> tensor<1x4x3x3xf16>
  return %s : tensor<1x4x3x3xf16>
}

// Must not fire: a scale that varies along W is not a filter scale.
// CHECK-LABEL: func.func @spatial_scale(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%xg, %w :
// CHECK: arith.mulf
func.func @spatial_scale(%x: tensor<1x4x6x6xf32>) -> (tensor<1x4x3x3xf32>) {
  %w = arith.constant dense<[[[[[-0.875, 0.125, -0.625], [0.5, 0.875, 0.125], [-1.0, -0.875, -0.125]], [[0.75, -0.5, 0.375], [-0.25, -0.5, 0.375], [-0.375, -0.25, 0.5]]], [[[-0.0, 0.625, 0.0], [-0.625, -0.125, 0.75], [0.125, 0.875, -1.0]], [[-0.375, 0.5, 0.375], [0.125, 0.375, 0.75], [0.375, 0.125, 0.125]]]], [[[[0.375, -0.375, 0.375], [0.25, 0.625, -0.0], [-1.0, 0.125, 0.75]], [[0.25, 0.25, -0.25], [-0.25, 0.5, -0.875], [0.75, 0.75, 0.875]]], [[[-0.75, -0.75, 0.75], [-0.25, -0.5, -0.25], [0.375, -0.625, -0.0]], [[0.375, 0.5, -1.0], [0.625, -0.125, -0.125], [0.125, -0.5, 0.75]]]]]> : tensor<2x2x2x3x3xf32>
  %k = arith.constant dense<[-0.625, 0.125, -0.625]> : tensor<3xf32>
  %b = arith.constant dense<[[[0.25]], [[0.75]], [[0.75]], [[-0.75]]]> : tensor<4x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  %z = arith.constant dense<0.0> : tensor<1x2x2x3x3xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %w : tensor<1x2x2x8x8xf32>, tensor<2x2x2x3x3xf32>) outs(%z : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %o = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %m = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2, d3) -> (d2)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %k : tensor<1x4x3x3xf32>, tensor<3xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.mulf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %b : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %v = arith.addf %in, %t : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  return %s : tensor<1x4x3x3xf32>
}

// Must not fire: the collapsed conv result is returned too (folding would change it).
// CHECK-LABEL: func.func @collapse_reused(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%xg, %w :
// CHECK: arith.mulf
func.func @collapse_reused(%x: tensor<1x4x6x6xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>) {
  %w = arith.constant dense<[[[[[0.25, 0.75, -0.625], [-0.125, 0.375, 0.5], [-0.125, 0.25, 0.375]], [[-0.25, 0.25, 0.125], [0.375, 0.0, -0.375], [-0.125, 0.875, -0.625]]], [[[-0.75, -1.0, 0.75], [1.0, -0.5, -0.5], [-0.625, 0.25, -0.0]], [[0.625, -0.625, 0.75], [-0.125, 0.625, 0.625], [0.875, -0.0, 0.25]]]], [[[[0.125, -0.625, 0.0], [0.875, 0.875, -1.0], [0.375, -0.375, -0.75]], [[-0.75, 0.625, 0.875], [0.0, -0.25, 0.0], [0.625, 0.5, -0.875]]], [[[-0.625, 0.75, -0.0], [0.375, 0.5, 0.25], [0.5, 0.125, -0.5]], [[-0.625, 1.0, -1.0], [0.375, 0.75, -0.5], [-0.875, -0.25, -0.375]]]]]> : tensor<2x2x2x3x3xf32>
  %k = arith.constant dense<[[[-0.125]], [[-0.125]], [[0.875]], [[-0.75]]]> : tensor<4x1x1xf32>
  %b = arith.constant dense<[[[0.875]], [[-0.875]], [[0.875]], [[-0.375]]]> : tensor<4x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  %z = arith.constant dense<0.0> : tensor<1x2x2x3x3xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %w : tensor<1x2x2x8x8xf32>, tensor<2x2x2x3x3xf32>) outs(%z : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %o = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %m = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %k : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.mulf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %b : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %v = arith.addf %in, %t : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  return %s, %o : tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>
}

// Must not fire: the grouped conv's own result is returned too.
// CHECK-LABEL: func.func @conv_reused(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%xg, %w :
// CHECK: arith.mulf
func.func @conv_reused(%x: tensor<1x4x6x6xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x2x2x3x3xf32>) {
  %w = arith.constant dense<[[[[[0.5, -1.0, -0.125], [0.375, 0.25, 0.625], [-0.75, -0.25, 0.25]], [[-1.0, 0.625, -0.125], [-0.5, -0.5, 0.25], [-0.875, -0.5, -0.375]]], [[[-0.5, 0.5, 0.125], [0.75, 0.375, -0.375], [-0.375, -0.75, -0.5]], [[0.25, 0.5, -0.375], [-0.25, 0.625, 0.875], [-0.875, -0.875, 0.5]]]], [[[[-0.0, -0.125, 0.25], [0.5, -0.875, 0.875], [0.875, -0.125, -0.0]], [[-0.5, 0.125, -0.625], [0.125, 0.75, 0.0], [0.625, -0.625, 0.75]]], [[[-0.75, -0.625, 0.5], [-0.375, -0.75, -0.875], [0.625, -1.0, -0.875]], [[0.875, 0.625, -0.25], [-0.625, 0.75, 0.625], [0.375, 0.0, 0.0]]]]]> : tensor<2x2x2x3x3xf32>
  %k = arith.constant dense<[[[1.0]], [[0.0]], [[-0.875]], [[-0.875]]]> : tensor<4x1x1xf32>
  %b = arith.constant dense<[[[0.25]], [[0.5]], [[0.25]], [[0.5]]]> : tensor<4x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %xg = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  %z = arith.constant dense<0.0> : tensor<1x2x2x3x3xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xg, %w : tensor<1x2x2x8x8xf32>, tensor<2x2x2x3x3xf32>) outs(%z : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %o = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %m = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o, %k : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %v = arith.mulf %in, %s : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %b : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %v = arith.addf %in, %t : f32
    linalg.yield %v : f32
  } -> tensor<1x4x3x3xf32>
  return %s, %c : tensor<1x4x3x3xf32>, tensor<1x2x2x3x3xf32>
}

