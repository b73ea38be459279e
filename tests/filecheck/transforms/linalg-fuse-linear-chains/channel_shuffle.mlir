// A channel shuffle (ShuffleNet's: expand to [N, g, C/g, H, W], swap the group axes,
// collapse back) between two 1x1 convs is a permutation of the channels: the chain is
// one 1x1 conv whose filter is the second conv's, columns permuted, times the first's
// (`chain_steps.channel_permutation`), one level instead of two, the weights not grown
// (16 + 12 -> 12).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt | filecheck %s --check-prefix=REPARSE
// Numerics, f32 and f16, and the H/W swap as a matrix under policy=depth.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function shuffle | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shuffle_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth}' -o %t.depth
// RUN: heirpy-opt %t.depth | filecheck %s --check-prefix=DEPTH
// RUN: heirpy-equiv %s %t.depth --function swap_hw | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @shuffle(%x: tensor<1x4x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.829]],

  [[-0.526]],

  [[0.603]],

  [[0.164]]],


 [[[-0.812]],

  [[-0.134]],

  [[-0.042]],

  [[-0.681]]],


 [[[0.469]],

  [[-0.773]],

  [[-0.218]],

  [[0.033]]],


 [[[-0.139]],

  [[0.174]],

  [[0.476]],

  [[0.913]]]]> : tensor<4x4x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.432]],

  [[0.297]],

  [[0.392]],

  [[-0.415]]],


 [[[-0.997]],

  [[0.947]],

  [[-0.403]],

  [[-0.372]]],


 [[[0.783]],

  [[0.170]],

  [[-0.057]],

  [[0.547]]]]> : tensor<3x4x1x1xf32>
  %ea = tensor.empty() : tensor<1x4x2x2xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x2x2xf32>, tensor<4x4x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = tensor.expand_shape %a [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 2, 2] : tensor<1x4x2x2xf32> into tensor<1x2x2x2x2xf32>
  %et = tensor.empty() : tensor<1x2x2x2x2xf32>
  %tr = linalg.transpose ins(%g : tensor<1x2x2x2x2xf32>) outs(%et : tensor<1x2x2x2x2xf32>) permutation = [0, 2, 1, 3, 4]
  %sh = tensor.collapse_shape %tr [[0], [1, 2], [3], [4]] : tensor<1x2x2x2x2xf32> into tensor<1x4x2x2xf32>
  %er = tensor.empty() : tensor<1x3x2x2xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sh, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %r : tensor<1x3x2x2xf32>
}

func.func @shuffle_f16(%x: tensor<1x4x2x2xf16>) -> tensor<1x3x2x2xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[-0.829]],

  [[-0.526]],

  [[0.603]],

  [[0.164]]],


 [[[-0.812]],

  [[-0.134]],

  [[-0.042]],

  [[-0.681]]],


 [[[0.469]],

  [[-0.773]],

  [[-0.218]],

  [[0.033]]],


 [[[-0.139]],

  [[0.174]],

  [[0.476]],

  [[0.913]]]]> : tensor<4x4x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.432]],

  [[0.297]],

  [[0.392]],

  [[-0.415]]],


 [[[-0.997]],

  [[0.947]],

  [[-0.403]],

  [[-0.372]]],


 [[[0.783]],

  [[0.170]],

  [[-0.057]],

  [[0.547]]]]> : tensor<3x4x1x1xf16>
  %ea = tensor.empty() : tensor<1x4x2x2xf16>
  %za = linalg.fill ins(%zero : f16) outs(%ea : tensor<1x4x2x2xf16>) -> tensor<1x4x2x2xf16>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x2x2xf16>, tensor<4x4x1x1xf16>) outs(%za : tensor<1x4x2x2xf16>) -> tensor<1x4x2x2xf16>
  %g = tensor.expand_shape %a [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 2, 2] : tensor<1x4x2x2xf16> into tensor<1x2x2x2x2xf16>
  %et = tensor.empty() : tensor<1x2x2x2x2xf16>
  %tr = linalg.transpose ins(%g : tensor<1x2x2x2x2xf16>) outs(%et : tensor<1x2x2x2x2xf16>) permutation = [0, 2, 1, 3, 4]
  %sh = tensor.collapse_shape %tr [[0], [1, 2], [3], [4]] : tensor<1x2x2x2x2xf16> into tensor<1x4x2x2xf16>
  %er = tensor.empty() : tensor<1x3x2x2xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x2x2xf16>) -> tensor<1x3x2x2xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sh, %w2 : tensor<1x4x2x2xf16>, tensor<3x4x1x1xf16>) outs(%zr : tensor<1x3x2x2xf16>) -> tensor<1x3x2x2xf16>
  return %r : tensor<1x3x2x2xf16>
}

func.func @relu_after_shuffle(%x: tensor<1x4x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.829]],

  [[-0.526]],

  [[0.603]],

  [[0.164]]],


 [[[-0.812]],

  [[-0.134]],

  [[-0.042]],

  [[-0.681]]],


 [[[0.469]],

  [[-0.773]],

  [[-0.218]],

  [[0.033]]],


 [[[-0.139]],

  [[0.174]],

  [[0.476]],

  [[0.913]]]]> : tensor<4x4x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.432]],

  [[0.297]],

  [[0.392]],

  [[-0.415]]],


 [[[-0.997]],

  [[0.947]],

  [[-0.403]],

  [[-0.372]]],


 [[[0.783]],

  [[0.170]],

  [[-0.057]],

  [[0.547]]]]> : tensor<3x4x1x1xf32>
  %ea = tensor.empty() : tensor<1x4x2x2xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x2x2xf32>, tensor<4x4x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = tensor.expand_shape %a [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 2, 2] : tensor<1x4x2x2xf32> into tensor<1x2x2x2x2xf32>
  %et = tensor.empty() : tensor<1x2x2x2x2xf32>
  %tr = linalg.transpose ins(%g : tensor<1x2x2x2x2xf32>) outs(%et : tensor<1x2x2x2x2xf32>) permutation = [0, 2, 1, 3, 4]
  %sh = tensor.collapse_shape %tr [[0], [1, 2], [3], [4]] : tensor<1x2x2x2x2xf32> into tensor<1x4x2x2xf32>
  %q = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sh : tensor<1x4x2x2xf32>) outs(%ea : tensor<1x4x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x2xf32>
  %er = tensor.empty() : tensor<1x3x2x2xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%q, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %r : tensor<1x3x2x2xf32>
}

func.func @shuffle_second_user(%x: tensor<1x4x2x2xf32>) -> (tensor<1x3x2x2xf32>, tensor<1x4x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.829]],

  [[-0.526]],

  [[0.603]],

  [[0.164]]],


 [[[-0.812]],

  [[-0.134]],

  [[-0.042]],

  [[-0.681]]],


 [[[0.469]],

  [[-0.773]],

  [[-0.218]],

  [[0.033]]],


 [[[-0.139]],

  [[0.174]],

  [[0.476]],

  [[0.913]]]]> : tensor<4x4x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.432]],

  [[0.297]],

  [[0.392]],

  [[-0.415]]],


 [[[-0.997]],

  [[0.947]],

  [[-0.403]],

  [[-0.372]]],


 [[[0.783]],

  [[0.170]],

  [[-0.057]],

  [[0.547]]]]> : tensor<3x4x1x1xf32>
  %ea = tensor.empty() : tensor<1x4x2x2xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x2x2xf32>, tensor<4x4x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %g = tensor.expand_shape %a [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 2, 2] : tensor<1x4x2x2xf32> into tensor<1x2x2x2x2xf32>
  %et = tensor.empty() : tensor<1x2x2x2x2xf32>
  %tr = linalg.transpose ins(%g : tensor<1x2x2x2x2xf32>) outs(%et : tensor<1x2x2x2x2xf32>) permutation = [0, 2, 1, 3, 4]
  %sh = tensor.collapse_shape %tr [[0], [1, 2], [3], [4]] : tensor<1x2x2x2x2xf32> into tensor<1x4x2x2xf32>
  %er = tensor.empty() : tensor<1x3x2x2xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sh, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %r, %sh : tensor<1x3x2x2xf32>, tensor<1x4x2x2xf32>
}

func.func @swap_hw(%x: tensor<1x4x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.829]],

  [[-0.526]],

  [[0.603]],

  [[0.164]]],


 [[[-0.812]],

  [[-0.134]],

  [[-0.042]],

  [[-0.681]]],


 [[[0.469]],

  [[-0.773]],

  [[-0.218]],

  [[0.033]]],


 [[[-0.139]],

  [[0.174]],

  [[0.476]],

  [[0.913]]]]> : tensor<4x4x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.432]],

  [[0.297]],

  [[0.392]],

  [[-0.415]]],


 [[[-0.997]],

  [[0.947]],

  [[-0.403]],

  [[-0.372]]],


 [[[0.783]],

  [[0.170]],

  [[-0.057]],

  [[0.547]]]]> : tensor<3x4x1x1xf32>
  %ea = tensor.empty() : tensor<1x4x2x2xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x2x2xf32>, tensor<4x4x1x1xf32>) outs(%za : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %et = tensor.empty() : tensor<1x4x2x2xf32>
  %sh = linalg.transpose ins(%a : tensor<1x4x2x2xf32>) outs(%et : tensor<1x4x2x2xf32>) permutation = [0, 1, 3, 2]
  %er = tensor.empty() : tensor<1x3x2x2xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sh, %w2 : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %r : tensor<1x3x2x2xf32>
}

// CHECK-LABEL: func.func @shuffle(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x2x2xf32>
// CHECK-NOT: linalg.transpose
// CHECK: %[[W:.*]] = arith.constant {{.*}} : tensor<3x4x1x1xf32>
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %[[W]] : tensor<1x4x2x2xf32>, tensor<3x4x1x1xf32>)
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func @shuffle_f16(
// CHECK-NOT: linalg.transpose
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x4x2x2xf16>, tensor<3x4x1x1xf16>)
// CHECK-NEXT: return
// Negatives: a nonlinearity after the shuffle; the shuffled value has a second user.
// CHECK-LABEL: func.func @relu_after_shuffle(
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.transpose
// CHECK: arith.maximumf
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-LABEL: func.func @shuffle_second_user(
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.transpose
// CHECK: linalg.conv_2d_nchw_fchw
// Swapping H and W is no channel permutation, so no conv: the chain's only form is the
// 16x12 matrix, 6.9x the weights, which the default rule refuses.
// CHECK-LABEL: func.func @swap_hw(
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.transpose {{.*}} permutation = [0, 1, 3, 2]
// CHECK: linalg.conv_2d_nchw_fchw
// DEPTH-LABEL: func.func @swap_hw(
// DEPTH-NOT: linalg.conv_2d_nchw_fchw
// DEPTH: linalg.matmul {{.*}} tensor<1x16xf32>, tensor<16x12xf32>
// DEPTH-NOT: linalg.conv_2d_nchw_fchw
// DEPTH: return
// REPARSE-LABEL: func.func @shuffle(
// REPARSE: linalg.conv_2d_nchw_fchw
// REPARSE-NOT: linalg.transpose
// REPARSE: return
// REPARSE-LABEL: func.func @shuffle_f16(
