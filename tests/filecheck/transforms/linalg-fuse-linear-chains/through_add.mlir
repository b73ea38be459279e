// Linear chains through a skip connection (chains_through_adds.py): a conv reading
// `branch + skip`, where the branch is a chain of linear ops and the skip is the
// branch's input or an ancestor of it (no deeper), becomes the conv composed with the
// branch on the branch's input, accumulating into the conv of the skip: one level
// instead of two, the depth bound. `conv2(conv1(x) + x)` = conv2 ∘ (conv1 + I); a 3x3
// branch reads its padded input; MobileNetV2's `expand(project(relu(h)) + x)`.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt | filecheck %s --check-prefix=REPARSE
// Depth: each positive one level less, each negative as it was.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16: the rewritten functions compute what the originals did.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function residual | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function residual_3x3 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function inverted_residual | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function residual_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function residual_3x3_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function inverted_residual_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function generic_add | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function branch_second_user | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// The cost rule decides: @residual's weights go from 2x2 + 3x2 = 10 to the composed
// 3x2 and the kept 3x2 = 12 (1.2x for one level): at max-weight-growth=1.2 it fuses,
// just under it it stays, as do @residual_3x3 (36 + 6 -> 54 + 6, 1.43x) and
// @inverted_residual (8 + 6 -> 12 + 6, 1.29x); policy=size never grows weights.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.2}' | filecheck %s --check-prefix=AT-LIMIT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.19}' | filecheck %s --check-prefix=UNDER
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=size}' | filecheck %s --check-prefix=UNDER
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @residual(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]],

  [[0.794]]],


 [[[0.551]],

  [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.addf %a, %x : tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @residual_3x3(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w3 = arith.constant dense<[[[[-0.394, -0.443, -0.490],
   [-0.110, 0.009, 0.107],
   [0.991, 0.585, 0.244]],

  [[0.978, -0.569, -0.680],
   [0.225, -0.912, -0.929],
   [0.030, -0.068, 0.834]]],


 [[[0.258, 0.028, -0.006],
   [-0.505, -0.976, -0.615],
   [0.384, -0.599, -0.261]],

  [[-0.993, 0.660, -0.691],
   [-0.465, 0.761, 0.020],
   [0.694, 0.279, 0.484]]]]> : tensor<2x2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w3 : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.addf %x, %a : tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @inverted_residual(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w0 = arith.constant dense<[[[[-0.817]],

  [[0.082]]],


 [[[0.016]],

  [[0.743]]],


 [[[-0.277]],

  [[0.196]]],


 [[[-0.881]],

  [[-0.225]]]]> : tensor<4x2x1x1xf32>
  %wp = arith.constant dense<[[[[-0.354]],

  [[-0.700]],

  [[0.633]],

  [[-0.241]]],


 [[[0.957]],

  [[0.180]],

  [[0.210]],

  [[0.276]]]]> : tensor<2x4x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %eh = tensor.empty() : tensor<1x4x4x4xf32>
  %zh = linalg.fill ins(%zero : f32) outs(%eh : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %h = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%zh : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %eg = tensor.empty() : tensor<1x4x4x4xf32>
  %g = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<1x4x4x4xf32>) outs(%eg : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %wp : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.addf %a, %x : tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @residual_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.250]],

  [[0.794]]],


 [[[0.551]],

  [[-0.550]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf16>
  %za = linalg.fill ins(%zero : f16) outs(%ea : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%za : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s = arith.addf %a, %x : tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @residual_3x3_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %w3 = arith.constant dense<[[[[-0.394, -0.443, -0.490],
   [-0.110, 0.009, 0.107],
   [0.991, 0.585, 0.244]],

  [[0.978, -0.569, -0.680],
   [0.225, -0.912, -0.929],
   [0.030, -0.068, 0.834]]],


 [[[0.258, 0.028, -0.006],
   [-0.505, -0.976, -0.615],
   [0.384, -0.599, -0.261]],

  [[-0.993, 0.660, -0.691],
   [-0.465, 0.761, 0.020],
   [0.694, 0.279, 0.484]]]]> : tensor<2x2x3x3xf16>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf16>
  %za = linalg.fill ins(%zero : f16) outs(%ea : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w3 : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>) outs(%za : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s = arith.addf %x, %a : tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @inverted_residual_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %w0 = arith.constant dense<[[[[-0.817]],

  [[0.082]]],


 [[[0.016]],

  [[0.743]]],


 [[[-0.277]],

  [[0.196]]],


 [[[-0.881]],

  [[-0.225]]]]> : tensor<4x2x1x1xf16>
  %wp = arith.constant dense<[[[[-0.354]],

  [[-0.700]],

  [[0.633]],

  [[-0.241]]],


 [[[0.957]],

  [[0.180]],

  [[0.210]],

  [[0.276]]]]> : tensor<2x4x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %eh = tensor.empty() : tensor<1x4x4x4xf16>
  %zh = linalg.fill ins(%zero : f16) outs(%eh : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %h = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) outs(%zh : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %eg = tensor.empty() : tensor<1x4x4x4xf16>
  %g = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<1x4x4x4xf16>) outs(%eg : tensor<1x4x4x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maximumf %in, %zero : f16
    linalg.yield %m : f16
  } -> tensor<1x4x4x4xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf16>
  %za = linalg.fill ins(%zero : f16) outs(%ea : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %wp : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%za : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s = arith.addf %a, %x : tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @generic_add(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[1.0]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[1.0]], [[0.5]]], [[[-0.5]], [[0.25]]], [[[0.125]], [[-1.0]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %a : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%ea : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %v = arith.addf %in, %in_1 : f32
    linalg.yield %v : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}
func.func @relu_after_add(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]],

  [[0.794]]],


 [[[0.551]],

  [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.addf %a, %x : tensor<1x2x4x4xf32>
  %eq = tensor.empty() : tensor<1x2x4x4xf32>
  %q = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x4x4xf32>) outs(%eq : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%q, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @branch_second_user(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]],

  [[0.794]]],


 [[[0.551]],

  [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.addf %a, %x : tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r, %a : tensor<1x3x4x4xf32>, tensor<1x2x4x4xf32>
}

func.func @skip_not_an_ancestor(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]],

  [[0.794]]],


 [[[0.551]],

  [[-0.550]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.addf %a, %y : tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @pad_does_not_compose(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w3 = arith.constant dense<[[[[-0.394, -0.443, -0.490],
   [-0.110, 0.009, 0.107],
   [0.991, 0.585, 0.244]],

  [[0.978, -0.569, -0.680],
   [0.225, -0.912, -0.929],
   [0.030, -0.068, 0.834]]],


 [[[0.258, 0.028, -0.006],
   [-0.505, -0.976, -0.615],
   [0.384, -0.599, -0.261]],

  [[-0.993, 0.660, -0.691],
   [-0.465, 0.761, 0.020],
   [0.694, 0.279, 0.484]]]]> : tensor<2x2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.400]],

  [[0.747]]],


 [[[-0.989]],

  [[0.642]]],


 [[[0.594]],

  [[-0.064]]]]> : tensor<3x2x1x1xf32>
  %ea = tensor.empty() : tensor<1x2x2x2xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w3 : tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) outs(%za : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x2x2xf32> to tensor<1x2x4x4xf32>
  %s = arith.addf %p, %x : tensor<1x2x4x4xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

// CHECK-LABEL: func.func @residual(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>
// CHECK-NOT: arith.addf
// CHECK: %[[W2:.*]] = arith.constant {{.*}} : tensor<3x2x1x1xf32>
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK-NEXT: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %[[W2]] : {{.*}}) outs(%[[Z]] : tensor<1x3x4x4xf32>)
// CHECK-NEXT: %[[W:.*]] = arith.constant {{.*}} : tensor<3x2x1x1xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[SKIP]] : tensor<1x3x4x4xf32>)
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func @residual_3x3(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>
// CHECK: %[[P:.*]] = tensor.pad %[[X]]
// CHECK: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>)
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%[[SKIP]] : tensor<1x3x4x4xf32>)
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func @inverted_residual(
// CHECK-SAME: %[[X:.*]]: tensor<1x2x4x4xf32>
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK-NOT: arith.addf
// CHECK: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>)
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[G]], %{{.*}} : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%[[SKIP]] : tensor<1x3x4x4xf32>)
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func @residual_f16(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<3x2x1x1xf16>
// CHECK-NEXT: arith.constant {{.*}} : tensor<3x2x1x1xf16>
// CHECK-NEXT: linalg.conv_2d_nchw_fchw
// CHECK-NEXT: return
// CHECK-LABEL: func.func @residual_3x3_f16(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<1x2x6x6xf16>, tensor<3x2x3x3xf16>
// CHECK-LABEL: func.func @inverted_residual_f16(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x4x4xf16>, tensor<3x4x1x1xf16>
// CHECK-NEXT: return
// torch-mlir's add, a linalg.generic, is read as the add too.
// CHECK-LABEL: func.func @generic_add(
// CHECK-NOT: linalg.generic
// CHECK: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, {{.*}} outs(%[[SKIP]] :
// Negatives. A nonlinearity between the add and the conv: no chain through the add.
// CHECK-LABEL: func.func @relu_after_add(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: arith.addf %[[A]], %x
// CHECK: arith.maximumf
// CHECK: linalg.conv_2d_nchw_fchw
// The branch has a second user (returned): it stays for it, and the conv composed
// with it is added beside it (chains_through_forks.py's rule for shared values): the
// ciphertext work grows, the depth of the conv's result drops from 2 to 1.
// CHECK-LABEL: func.func @branch_second_user(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w1 :
// CHECK: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w2 :
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%[[SKIP]] :
// CHECK-NEXT: return %[[R]], %[[A]]
// The skip is not the branch's input nor an ancestor of it: it may be deeper, so the
// conv of the skip might cost the level the fusion saves.
// CHECK-LABEL: func.func @skip_not_an_ancestor(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: %[[S:.*]] = arith.addf %[[A]], %y
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]],
// The branch ends in a pad after a 3x3 conv, which does not move through it: no one conv.
// CHECK-LABEL: func.func @pad_does_not_compose(
// CHECK: tensor.pad
// CHECK: arith.addf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%s,
// REPARSE-LABEL: func.func @residual(
// REPARSE: linalg.conv_2d_nchw_fchw
// REPARSE: linalg.conv_2d_nchw_fchw
// REPARSE-LABEL: func.func @pad_does_not_compose(
// BEFORE: @residual {{ +}}2
// BEFORE: @residual_3x3 {{ +}}2
// BEFORE: @inverted_residual {{ +}}3+
// AFTER: @residual {{ +}}1 {{ +}}1
// AFTER: @residual_3x3 {{ +}}1 {{ +}}1
// AFTER: @inverted_residual {{ +}}2+
// AFTER: @residual_f16 {{ +}}1 {{ +}}1
// AFTER: @residual_3x3_f16 {{ +}}1 {{ +}}1
// AFTER: @inverted_residual_f16 {{ +}}2+
// AFTER: @relu_after_add {{ +}}2+
// AFTER: @branch_second_user {{ +}}1
// AFTER: @skip_not_an_ancestor {{ +}}2
// AFTER: @pad_does_not_compose {{ +}}2
// AT-LIMIT-LABEL: func.func @residual(
// AT-LIMIT-NOT: arith.addf
// AT-LIMIT: return
// AT-LIMIT-LABEL: func.func @residual_3x3(
// UNDER-LABEL: func.func @residual(
// UNDER: arith.addf
// UNDER-LABEL: func.func @residual_3x3(
// UNDER: arith.addf
// UNDER-LABEL: func.func @inverted_residual(
// UNDER: arith.addf
// UNDER-LABEL: func.func @residual_f16(
