// Linear chains through a channel concat (chains_through_concats.py): a conv of
// `concat(parts) [+ skip]` whose parts are linear branches of one value %h is split by
// its filter's input channels, each slice composed with its part's branch into a conv
// of %h, the terms accumulating into each other's init. GhostNet's ghost module without
// an activation, `concat(p, dw(p))` with p = conv1x1(h), then the residual add and the
// next block's 1x1 conv: three levels above %h become one.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// Depth: the positives at one level above what their parts read; the negatives keep their
// conv of the concat, one level less only where the cheap depthwise conv composes with the
// primary conv it shares with the concat (`FuseChainThroughFork`).
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16: the rewritten functions compute what the originals did.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function ghost | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function ghost_no_skip | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function identity_part | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function conv3x3_valid | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function ghost_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function ghost_no_skip_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function identity_part_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function conv3x3_valid_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function ghost_shared | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function ghost_torch_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// The cost rule decides: @ghost's weights go from 8 + 18 + 12 = 38 (w1, the depthwise
// filter, w2) to 12 + 108 + 12 = 132 (the composed 1x1 and 3x3 terms, the skip's conv),
// 3.47x for two levels: at max-weight-growth=1.87 (1.87^2 = 3.50) it fuses, at 1.86
// (3.46) it stays; policy=size never grows weights.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.87}' 2>/dev/null | filecheck %s --check-prefix=AT-LIMIT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.86}' 2>/dev/null | filecheck %s --check-prefix=UNDER
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=size}' 2>/dev/null | filecheck %s --check-prefix=UNDER
// The main pipeline takes it the same way.
// RUN: heirpy-opt %s -p 'linalg-canonicalizations,linalg-fuse-ops' 2>/dev/null | heirpy-opt -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=MAIN
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @ghost(%h: tensor<1x4x6x6xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[ 0.61 ]],    [[ 0.616]],    [[ 0.031]],    [[-0.428]]],    [[[-0.892]],    [[-0.233]],    [[-0.183]],    [[-0.909]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[-0.902,  0.998,  0.305],   [-0.531, -0.13 ,  0.948],   [ 0.795,  0.688, -0.215]],   [[-0.014,  0.353, -0.878],   [ 0.111, -0.457,  0.759],   [-0.872,  0.358,  0.74 ]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.545]],    [[ 0.791]],    [[ 0.744]],    [[-0.963]]],    [[[ 0.415]],    [[-0.998]],    [[ 0.007]],    [[-0.127]]],    [[[-0.593]],    [[-0.35 ]],    [[ 0.612]],    [[-0.367]]]]> : tensor<3x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %s = arith.addf %c, %h : tensor<1x4x6x6xf32>
  %er = tensor.empty() : tensor<1x3x6x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}

func.func @ghost_no_skip(%h: tensor<1x4x6x6xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.702]],    [[ 0.397]],    [[-0.103]],    [[ 0.598]]],    [[[-0.529]],    [[-0.36 ]],    [[ 0.6  ]],    [[ 0.014]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[ 0.013, -0.528, -0.971],   [ 0.866, -0.828,  0.69 ],   [-0.264,  0.902, -0.201]],   [[ 0.873,  0.112, -0.52 ],   [ 0.483,  0.349,  0.368],   [-0.072, -0.556,  0.282]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.786]],    [[ 0.384]],    [[ 0.271]],    [[-0.247]]],    [[[ 0.597]],    [[-0.612]],    [[-0.219]],    [[ 0.596]]],    [[[-0.239]],    [[ 0.427]],    [[ 0.225]],    [[ 0.882]]]]> : tensor<3x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %s = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %er = tensor.empty() : tensor<1x3x6x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}

func.func @identity_part(%h: tensor<1x4x6x6xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[ 0.983]],    [[ 0.447]],    [[ 0.618]],    [[-0.694]]],    [[[ 0.426]],    [[ 0.695]],    [[-0.198]],    [[ 0.107]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[-0.041,  0.917, -0.365],   [-0.196, -0.998, -0.16 ],   [ 0.263,  0.87 ,  0.847]],   [[-0.345,  0.978, -0.625],   [ 0.647, -0.685, -0.19 ],   [-0.853,  0.716,  0.658]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.72 ]],    [[ 0.054]],    [[-0.484]],    [[-0.016]]],    [[[ 0.106]],    [[-0.787]],    [[ 0.729]],    [[-0.443]]],    [[[-0.106]],    [[-0.885]],    [[-0.995]],    [[-0.61 ]]]]> : tensor<3x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p0 : tensor<1x2x6x6xf32>) outs(%e2 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %s = arith.addf %c, %h : tensor<1x4x6x6xf32>
  %er = tensor.empty() : tensor<1x3x6x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}

func.func @conv3x3_valid(%h: tensor<1x4x6x6xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.317]],    [[ 0.856]],    [[ 0.779]],    [[-0.039]]],    [[[-0.09 ]],    [[ 0.334]],    [[ 0.718]],    [[-0.325]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[ 0.587, -0.202,  0.188],   [ 0.475,  0.003,  0.382],   [ 0.395, -0.989, -0.922]],   [[-0.702, -0.573, -0.594],   [-0.902, -0.566,  0.202],   [ 0.772, -0.301, -0.267]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.167,  0.361,  0.571],    [ 0.882, -0.249,  0.414],    [-0.317,  0.648, -0.539]],    [[ 0.742,  0.01 ,  0.451],    [ 0.07 , -0.368, -0.011],    [-0.899, -0.914,  0.06 ]],    [[-0.046,  0.666, -0.96 ],    [ 0.114, -0.019,  0.196],    [ 0.459,  0.049,  0.126]],    [[-0.016,  0.23 , -0.504],    [ 0.105,  0.345, -0.618],    [ 0.981,  0.493,  0.911]]],    [[[-0.412, -0.113, -0.477],    [-0.907, -0.967, -0.507],    [ 0.723, -0.673,  0.379]],    [[-0.501, -0.869, -0.615],    [ 0.356,  0.003,  0.098],    [-0.094, -0.451, -0.023]],    [[ 0.845, -0.597,  0.465],    [-0.498, -0.613, -0.352],    [-0.814,  0.871, -0.27 ]],    [[-0.648, -1.   , -0.879],    [-0.571, -0.165,  0.203],    [ 0.962,  0.781, -0.515]]],    [[[ 0.223,  0.843, -0.797],    [ 0.708, -0.208,  0.563],    [-0.355,  0.251,  0.014]],    [[-0.791,  0.52 ,  0.646],    [-0.034, -0.224,  0.895],    [-0.251,  0.759, -0.163]],    [[-0.253, -0.277, -0.88 ],    [-0.445, -0.541, -0.875],    [ 0.083, -0.116, -0.95 ]],    [[-0.688,  0.837, -0.733],    [-0.253,  0.902, -0.773],    [-0.18 ,  0.602, -0.962]]]]> : tensor<3x4x3x3xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %s = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @ghost_f16(%h: tensor<1x4x6x6xf16>) -> tensor<1x3x6x6xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[-0.864]],    [[ 0.86 ]],    [[ 0.368]],    [[-0.478]]],    [[[-0.04 ]],    [[-0.502]],    [[ 0.785]],    [[ 0.9  ]]]]> : tensor<2x4x1x1xf16>
  %k = arith.constant dense<[[[-0.858,  0.048, -0.632],   [-0.191,  0.482,  0.427],   [-0.62 , -0.335, -0.149]],   [[-0.227,  0.364,  0.577],   [-0.329, -0.118, -0.865],   [-0.266,  0.894,  0.004]]]> : tensor<2x3x3xf16>
  %w2 = arith.constant dense<[[[[ 0.114]],    [[ 0.212]],    [[ 0.134]],    [[ 0.609]]],    [[[-0.481]],    [[-0.367]],    [[ 0.774]],    [[-0.   ]]],    [[[ 0.92 ]],    [[-0.722]],    [[ 0.566]],    [[-0.054]]]]> : tensor<3x4x1x1xf16>
  %e2 = tensor.empty() : tensor<1x2x6x6xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf16>, tensor<2x3x3xf16>) outs(%z2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf16>, tensor<1x2x6x6xf16>) -> tensor<1x4x6x6xf16>
  %s = arith.addf %c, %h : tensor<1x4x6x6xf16>
  %er = tensor.empty() : tensor<1x3x6x6xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x6x6xf16>) -> tensor<1x3x6x6xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%zr : tensor<1x3x6x6xf16>) -> tensor<1x3x6x6xf16>
  return %r : tensor<1x3x6x6xf16>
}

func.func @ghost_no_skip_f16(%h: tensor<1x4x6x6xf16>) -> tensor<1x3x6x6xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[-0.052]],    [[ 0.762]],    [[-0.739]],    [[ 0.029]]],    [[[-0.501]],    [[-0.314]],    [[ 0.635]],    [[-0.204]]]]> : tensor<2x4x1x1xf16>
  %k = arith.constant dense<[[[ 0.569, -0.973,  0.999],   [ 0.911,  0.357, -0.606],   [ 0.314, -0.62 , -0.253]],   [[-0.93 , -0.86 , -0.685],   [-0.636,  0.677, -0.512],   [ 0.651, -0.988, -0.884]]]> : tensor<2x3x3xf16>
  %w2 = arith.constant dense<[[[[-0.878]],    [[ 0.863]],    [[ 0.635]],    [[-0.969]]],    [[[ 0.863]],    [[-0.547]],    [[-0.471]],    [[ 0.169]]],    [[[-0.591]],    [[ 0.95 ]],    [[-0.267]],    [[ 0.142]]]]> : tensor<3x4x1x1xf16>
  %e2 = tensor.empty() : tensor<1x2x6x6xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf16>, tensor<2x3x3xf16>) outs(%z2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %s = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf16>, tensor<1x2x6x6xf16>) -> tensor<1x4x6x6xf16>
  %er = tensor.empty() : tensor<1x3x6x6xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x6x6xf16>) -> tensor<1x3x6x6xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%zr : tensor<1x3x6x6xf16>) -> tensor<1x3x6x6xf16>
  return %r : tensor<1x3x6x6xf16>
}

func.func @identity_part_f16(%h: tensor<1x4x6x6xf16>) -> tensor<1x3x6x6xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[ 0.145]],    [[-0.437]],    [[ 0.469]],    [[ 0.985]]],    [[[ 0.191]],    [[-0.832]],    [[ 0.616]],    [[ 0.334]]]]> : tensor<2x4x1x1xf16>
  %k = arith.constant dense<[[[-0.02 ,  0.309, -0.477],   [-0.392,  0.031, -0.863],   [ 0.176, -0.635, -0.492]],   [[ 0.8  ,  0.176, -0.512],   [ 0.398,  0.993,  0.795],   [ 0.598, -0.335,  0.166]]]> : tensor<2x3x3xf16>
  %w2 = arith.constant dense<[[[[ 0.17 ]],    [[-0.823]],    [[ 0.385]],    [[ 0.042]]],    [[[ 0.044]],    [[ 0.475]],    [[-0.845]],    [[-0.575]]],    [[[ 0.976]],    [[-0.401]],    [[-0.489]],    [[-0.856]]]]> : tensor<3x4x1x1xf16>
  %e2 = tensor.empty() : tensor<1x2x6x6xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %p0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %p = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p0 : tensor<1x2x6x6xf16>) outs(%e2 : tensor<1x2x6x6xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.maximumf %a, %zero : f16
    linalg.yield %m : f16
  } -> tensor<1x2x6x6xf16>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf16>, tensor<2x3x3xf16>) outs(%z2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf16>, tensor<1x2x6x6xf16>) -> tensor<1x4x6x6xf16>
  %s = arith.addf %c, %h : tensor<1x4x6x6xf16>
  %er = tensor.empty() : tensor<1x3x6x6xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x6x6xf16>) -> tensor<1x3x6x6xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%zr : tensor<1x3x6x6xf16>) -> tensor<1x3x6x6xf16>
  return %r : tensor<1x3x6x6xf16>
}

func.func @conv3x3_valid_f16(%h: tensor<1x4x6x6xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[-0.375]],    [[ 0.121]],    [[-0.922]],    [[-0.422]]],    [[[-0.487]],    [[-0.692]],    [[ 0.584]],    [[ 0.925]]]]> : tensor<2x4x1x1xf16>
  %k = arith.constant dense<[[[ 0.831, -0.118, -0.867],   [-0.302,  0.049, -0.239],   [ 0.462,  0.486,  0.793]],   [[-0.062, -0.523,  0.822],   [ 0.769, -0.746, -0.577],   [ 0.32 ,  0.642,  0.92 ]]]> : tensor<2x3x3xf16>
  %w2 = arith.constant dense<[[[[-0.958, -0.622, -0.154],    [ 0.102,  0.557,  0.113],    [ 0.037, -0.521,  0.3  ]],    [[ 0.165,  0.891, -0.62 ],    [-0.75 , -0.293, -0.349],    [-0.094, -0.657,  0.414]],    [[ 0.645, -0.987,  0.821],    [-0.819, -0.387, -0.027],    [-0.152, -0.569,  0.459]],    [[ 0.678, -0.545, -0.67 ],    [ 0.038, -0.703,  0.879],    [ 0.702,  0.67 , -0.177]]],    [[[ 0.574, -0.217, -0.084],    [-0.788, -0.925,  0.341],    [-0.613,  0.913,  0.13 ]],    [[ 0.153,  0.789, -0.405],    [-0.978, -0.561, -0.084],    [-0.696, -0.439,  0.475]],    [[-0.246, -0.317, -0.533],    [ 0.063,  0.991, -0.662],    [ 0.687,  0.55 ,  0.202]],    [[ 0.086,  0.04 , -0.794],    [ 0.138,  0.978,  0.458],    [-0.067, -0.114,  0.74 ]]],    [[[-0.987, -0.6  ,  0.915],    [ 0.307,  0.655,  0.068],    [-0.918,  0.072,  0.26 ]],    [[-0.823, -0.039,  0.885],    [-0.876, -0.908, -0.794],    [ 0.364,  0.786, -0.688]],    [[ 0.689, -0.556,  0.077],    [ 0.528, -0.765, -0.045],    [ 0.733, -0.29 ,  0.595]],    [[-0.091,  0.887, -0.199],    [ 0.645, -0.849, -0.322],    [-0.709, -0.192, -0.189]]]]> : tensor<3x4x3x3xf16>
  %e2 = tensor.empty() : tensor<1x2x6x6xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf16>, tensor<2x3x3xf16>) outs(%z2 : tensor<1x2x6x6xf16>) -> tensor<1x2x6x6xf16>
  %s = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf16>, tensor<1x2x6x6xf16>) -> tensor<1x4x6x6xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf16>
  %zr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x3x3xf16>) outs(%zr : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @relu_on_cheap(%h: tensor<1x4x6x6xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.519]],    [[-0.162]],    [[ 0.363]],    [[ 0.155]]],    [[[-0.513]],    [[ 0.423]],    [[ 0.418]],    [[-0.156]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[-0.081, -0.654,  0.669],   [-0.287, -0.414,  0.857],   [-0.389, -0.604, -0.235]],   [[ 0.031,  0.228, -0.203],   [ 0.368, -0.954,  0.853],   [-0.078, -0.103, -0.107]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.448]],    [[ 0.63 ]],    [[-0.094]],    [[-0.809]]],    [[[-0.3  ]],    [[-0.03 ]],    [[-0.281]],    [[-0.795]]],    [[[ 0.778]],    [[-0.698]],    [[ 0.458]],    [[-0.151]]]]> : tensor<3x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %d = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d0 : tensor<1x2x6x6xf32>) outs(%e2 : tensor<1x2x6x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %s = arith.addf %c, %h : tensor<1x4x6x6xf32>
  %er = tensor.empty() : tensor<1x3x6x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}

func.func @pad_before_conv(%h: tensor<1x4x6x6xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.009]],    [[ 0.354]],    [[-0.966]],    [[-0.021]]],    [[[-0.082]],    [[-0.142]],    [[-0.998]],    [[-0.977]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[-0.02 , -0.089, -0.331],   [-0.767, -0.272,  0.346],   [ 0.639,  0.529, -0.997]],   [[-0.323, -0.022,  0.629],   [ 0.129,  0.604,  0.378],   [-0.855,  0.962,  0.115]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[ 0.207, -0.482,  0.806],    [ 0.997, -0.314, -0.022],    [-0.873,  0.527,  0.287]],    [[-0.533,  0.66 ,  0.094],    [ 0.858,  0.64 , -0.799],    [-0.525,  0.697, -0.937]],    [[-0.739,  0.839,  0.621],    [-0.49 , -0.323, -0.924],    [-0.746, -0.978,  0.174]],    [[ 0.221, -0.712,  0.667],    [-0.025,  0.199,  0.325],    [-0.589,  0.607, -0.178]]],    [[[-0.004, -0.748, -0.49 ],    [-0.089,  0.449, -0.085],    [ 0.121,  0.514, -0.195]],    [[-0.968,  0.123,  0.888],    [-0.924, -0.074,  0.309],    [-0.022, -0.793,  0.028]],    [[-0.84 , -0.859, -0.324],    [-0.645,  0.009,  0.889],    [-0.57 ,  0.977, -0.301]],    [[ 0.671,  0.045,  0.561],    [ 0.731,  0.684, -0.705],    [ 0.782, -0.76 ,  0.469]]],    [[[-0.908, -0.4  , -0.736],    [ 0.243, -0.37 ,  0.133],    [-0.563, -0.202,  0.803]],    [[ 0.195, -0.027,  0.452],    [ 0.985, -0.332, -0.781],    [-0.518, -0.687, -0.189]],    [[ 0.484,  0.533, -0.784],    [-0.676, -0.28 ,  0.689],    [-0.032,  0.078, -0.418]],    [[ 0.1  ,  0.21 , -0.327],    [ 0.203,  0.508, -0.292],    [-0.088, -0.739, -0.481]]]]> : tensor<3x4x3x3xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %s = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sp = tensor.pad %s low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %er = tensor.empty() : tensor<1x3x6x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sp, %w2 : tensor<1x4x8x8xf32>, tensor<3x4x3x3xf32>) outs(%zr : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}

func.func @skip_not_shallower(%h: tensor<1x4x6x6xf32>, %y: tensor<1x4x6x6xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.919]],    [[-0.887]],    [[-0.832]],    [[ 0.795]]],    [[[ 0.465]],    [[ 0.171]],    [[ 0.597]],    [[-0.648]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[-0.296,  0.164,  0.71 ],   [ 0.081, -0.749, -0.911],   [-0.93 ,  0.512,  0.789]],   [[-0.709,  0.62 , -0.916],   [ 0.67 ,  0.405, -0.053],   [-0.046, -0.561,  0.861]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.456]],    [[-0.471]],    [[ 0.542]],    [[ 0.154]]],    [[[ 0.033]],    [[ 0.142]],    [[-0.779]],    [[-0.782]]],    [[[ 0.958]],    [[ 0.406]],    [[ 0.229]],    [[ 0.121]]]]> : tensor<3x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %s = arith.addf %c, %y : tensor<1x4x6x6xf32>
  %er = tensor.empty() : tensor<1x3x6x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}

func.func @ghost_shared(%h: tensor<1x4x6x6xf32>) -> (tensor<1x3x6x6xf32>, tensor<1x4x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[ 0.61 ]],    [[ 0.616]],    [[ 0.031]],    [[-0.428]]],    [[[-0.892]],    [[-0.233]],    [[-0.183]],    [[-0.909]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[-0.902,  0.998,  0.305],   [-0.531, -0.13 ,  0.948],   [ 0.795,  0.688, -0.215]],   [[-0.014,  0.353, -0.878],   [ 0.111, -0.457,  0.759],   [-0.872,  0.358,  0.74 ]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.545]],    [[ 0.791]],    [[ 0.744]],    [[-0.963]]],    [[[ 0.415]],    [[-0.998]],    [[ 0.007]],    [[-0.127]]],    [[[-0.593]],    [[-0.35 ]],    [[ 0.612]],    [[-0.367]]]]> : tensor<3x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  %s = arith.addf %c, %h : tensor<1x4x6x6xf32>
  %er = tensor.empty() : tensor<1x3x6x6xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%zr : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %r, %s : tensor<1x3x6x6xf32>, tensor<1x4x6x6xf32>
}

func.func @width_concat(%h: tensor<1x4x6x6xf32>) -> tensor<1x3x6x12xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.919]],    [[-0.887]],    [[-0.832]],    [[ 0.795]]],    [[[ 0.465]],    [[ 0.171]],    [[ 0.597]],    [[-0.648]]]]> : tensor<2x4x1x1xf32>
  %k = arith.constant dense<[[[-0.296,  0.164,  0.71 ],   [ 0.081, -0.749, -0.911],   [-0.93 ,  0.512,  0.789]],   [[-0.709,  0.62 , -0.916],   [ 0.67 ,  0.405, -0.053],   [-0.046, -0.561,  0.861]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[0.125]]], [[[-0.5]], [[1.0]]]]> : tensor<3x2x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %s = tensor.concat dim(3) %p, %d : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x12xf32>
  %er = tensor.empty() : tensor<1x3x6x12xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x6x12xf32>) -> tensor<1x3x6x12xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x6x12xf32>, tensor<3x2x1x1xf32>) outs(%zr : tensor<1x3x6x12xf32>) -> tensor<1x3x6x12xf32>
  return %r : tensor<1x3x6x12xf32>
}

// torch-mlir's f16 form: each linear op reads f16, accumulates into f32 and is rounded
// back by a truncf generic; the parts are those roundings (skipped, as chain folds do).
func.func @ghost_torch_f16(%h: tensor<1x4x6x6xf16>) -> tensor<1x3x6x6xf16> {
  %z = arith.constant 0.0 : f32
  %z16 = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.5]], [[-0.25]], [[0.75]], [[1.0]]], [[[-0.5]], [[0.25]], [[0.125]], [[-1.0]]]]> : tensor<2x4x1x1xf16>
  %k = arith.constant dense<[[[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [0.7, -0.8, 0.9]], [[-0.9, 0.8, 0.7], [0.6, -0.5, 0.4], [0.3, 0.2, -0.1]]]> : tensor<2x3x3xf16>
  %w2 = arith.constant dense<[[[[0.5]], [[-0.25]], [[0.75]], [[0.125]]], [[[-0.5]], [[1.0]], [[0.25]], [[-0.75]]], [[[0.375]], [[0.5]], [[-1.0]], [[0.25]]]]> : tensor<3x4x1x1xf16>
  %e32 = tensor.empty() : tensor<1x2x6x6xf32>
  %i2 = linalg.fill ins(%z : f32) outs(%e32 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %e16 = tensor.empty() : tensor<1x2x6x6xf16>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x4x6x6xf16>, tensor<2x4x1x1xf16>) outs(%i2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p32 : tensor<1x2x6x6xf32>) outs(%e16 : tensor<1x2x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x6x6xf16>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2_: index, %i3: index):
    tensor.yield %z16 : f16
  } : tensor<1x2x6x6xf16> to tensor<1x2x8x8xf16>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x8x8xf16>, tensor<2x3x3xf16>) outs(%i2 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %d = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d32 : tensor<1x2x6x6xf32>) outs(%e16 : tensor<1x2x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x6x6xf16>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x6x6xf16>, tensor<1x2x6x6xf16>) -> tensor<1x4x6x6xf16>
  %s = arith.addf %c, %h : tensor<1x4x6x6xf16>
  %er = tensor.empty() : tensor<1x3x6x6xf32>
  %ir = linalg.fill ins(%z : f32) outs(%er : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %r32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%ir : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %e3 = tensor.empty() : tensor<1x3x6x6xf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r32 : tensor<1x3x6x6xf32>) outs(%e3 : tensor<1x3x6x6xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x3x6x6xf16>
  return %r : tensor<1x3x6x6xf16>
}

// CHECK-LABEL: func.func @ghost(
// CHECK-NOT: tensor.concat
// CHECK: %[[SKIP:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %w2 : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>)
// CHECK: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %{{.*}} : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>) outs(%[[SKIP]] :
// CHECK: %[[PAD:.*]] = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[PAD]], %{{.*}} : tensor<1x4x8x8xf32>, tensor<3x4x3x3xf32>) outs(%[[P]] :
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func @ghost_no_skip(
// CHECK-NOT: tensor.concat
// CHECK: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %{{.*}} : tensor<1x4x6x6xf32>, tensor<3x4x1x1xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x8x8xf32>, tensor<3x4x3x3xf32>) outs(%[[P]] :
// CHECK-NEXT: return
// A part that is the common value itself: concat(relu(p0), dw(relu(p0))).
// CHECK-LABEL: func.func @identity_part(
// CHECK: %[[P:.*]] = linalg.generic
// CHECK-NOT: tensor.concat
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x6x6xf32>, tensor<3x2x1x1xf32>)
// CHECK: tensor.pad %[[P]]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>)
// CHECK-NEXT: return
// A 3x3 conv reading the concat unpadded: the terms are a 3x3 and a 5x5 conv of %h.
// CHECK-LABEL: func.func @conv3x3_valid(
// CHECK-NOT: tensor.concat
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %{{.*}} : tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x8x8xf32>, tensor<3x4x5x5xf32>)
// CHECK-LABEL: func.func @ghost_f16(
// CHECK-NOT: tensor.concat
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x8x8xf16>, tensor<3x4x3x3xf16>)
// CHECK-NEXT: return
// CHECK-LABEL: func.func @ghost_no_skip_f16(
// CHECK-NOT: tensor.concat
// CHECK-LABEL: func.func @identity_part_f16(
// CHECK-NOT: tensor.concat
// CHECK-LABEL: func.func @conv3x3_valid_f16(
// CHECK-NOT: tensor.concat
// CHECK: tensor<1x4x8x8xf16>, tensor<3x4x5x5xf16>)
// Negatives: a relu on the cheap branch (the parts lead to two values), a pad between
// the concat and the conv, a skip that may be deeper (another argument).
// CHECK-LABEL: func.func @relu_on_cheap(
// CHECK: %[[C:.*]] = tensor.concat dim(1) %p, %d
// CHECK: %[[S:.*]] = arith.addf %[[C]], %h
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]], %w2 :
// CHECK-LABEL: func.func @pad_before_conv(
// CHECK: %[[S:.*]] = tensor.concat dim(1) %p, %d
// CHECK: %[[SP:.*]] = tensor.pad %[[S]]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[SP]], %w2 :
// CHECK-LABEL: func.func @skip_not_shallower(
// CHECK: %[[C:.*]] = tensor.concat dim(1) %p, %d
// CHECK: %[[S:.*]] = arith.addf %[[C]], %y
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]], %w2 :
// The block output also returned: concat, add and parts stay for it, beside the terms.
// The cheap depthwise conv, read by the concat only, composes with the primary conv it
// shares with the concat (`FuseChainThroughFork`): the block output is one level above
// %h too.
// CHECK-LABEL: func.func @ghost_shared(
// CHECK: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %w1 :
// CHECK: %[[HP:.*]] = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[D:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[HP]], %{{.*}} : tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>)
// CHECK: %[[C:.*]] = tensor.concat dim(1) %[[P]], %[[D]]
// CHECK: %[[S:.*]] = arith.addf %[[C]], %h
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %w2 :
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%h,
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x8x8xf32>, tensor<3x4x3x3xf32>)
// CHECK-NEXT: return %[[R]], %[[S]]
// A concat along the width: not split.
// CHECK-LABEL: func.func @width_concat(
// CHECK: %[[S:.*]] = tensor.concat dim(3) %p, %d
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]], %w2 :
// The f16 form: the terms read the f16 input with f16 filters into the f32 init; the
// last rounding stays.
// CHECK-LABEL: func.func @ghost_torch_f16(
// CHECK-NOT: tensor.concat
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %w2 : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%{{.*}} : tensor<1x3x6x6xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%h, %{{.*}} : tensor<1x4x6x6xf16>, tensor<3x4x1x1xf16>) outs(%{{.*}} : tensor<1x3x6x6xf32>)
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} tensor<1x4x8x8xf16>, tensor<3x4x3x3xf16>) outs(%{{.*}} : tensor<1x3x6x6xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[R]] : tensor<1x3x6x6xf32>)
// CHECK: arith.truncf
// REPARSE-LABEL: func.func @ghost(
// REPARSE-LABEL: func.func @width_concat(
// AT-LIMIT-LABEL: func.func @ghost(
// AT-LIMIT-NOT: tensor.concat
// AT-LIMIT: return
// AT-LIMIT-LABEL: func.func @ghost_no_skip(
// UNDER-LABEL: func.func @ghost(
// UNDER: tensor.concat
// UNDER: return
// UNDER-LABEL: func.func @ghost_no_skip(
// BEFORE: @ghost {{ +}}3
// BEFORE: @ghost_no_skip {{ +}}3
// BEFORE: @identity_part {{ +}}3+
// BEFORE: @conv3x3_valid {{ +}}3
// BEFORE: @ghost_f16 {{ +}}3
// BEFORE: @ghost_shared {{ +}}3
// BEFORE: @ghost_torch_f16 {{ +}}3
// AFTER: @ghost {{ +}}1 {{ +}}1
// AFTER: @ghost_no_skip {{ +}}1 {{ +}}1
// AFTER: @identity_part {{ +}}2+
// AFTER: @conv3x3_valid {{ +}}1 {{ +}}1
// AFTER: @ghost_f16 {{ +}}1 {{ +}}1
// AFTER: @ghost_no_skip_f16 {{ +}}1 {{ +}}1
// AFTER: @identity_part_f16 {{ +}}2+
// AFTER: @conv3x3_valid_f16 {{ +}}1 {{ +}}1
// AFTER: @relu_on_cheap {{ +}}2+
// AFTER: @pad_before_conv {{ +}}2 {{ +}}2
// AFTER: @skip_not_shallower {{ +}}2 {{ +}}2
// AFTER: @ghost_shared {{ +}}1 {{ +}}1, 1
// AFTER: @width_concat {{ +}}2 {{ +}}2
// AFTER: @ghost_torch_f16 {{ +}}1 {{ +}}1
// MAIN: @ghost {{ +}}1 {{ +}}1
// MAIN: @ghost_f16 {{ +}}1 {{ +}}1
