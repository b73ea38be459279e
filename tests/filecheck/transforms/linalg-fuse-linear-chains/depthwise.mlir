// A depthwise conv is a chain step (`chain_steps._depthwise_step`): the conv whose
// [C, C, KH, KW] filter is zero off the channel diagonal, weighed by its own C*KH*KW
// weights. ShuffleNet's and GhostNet's depthwise -> batch norm -> 1x1 conv is then one
// chain: composed, a dense 3x3 conv (F*C*9 weights for C*9 + F*C), one level instead of
// two; the cost rule prices it (4 channels: 2.8x the weights, fused by default; 8
// channels: 4.2x, past the default 4x per level, fused only under policy=depth). A chain
// whose composed filter stays channel-diagonal (two depthwise convs, no pad between)
// stays ONE depthwise conv (5x5), not a dense conv of C times its weights.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth}' 2>/dev/null | filecheck %s --check-prefix=DEPTH
// Numerics, f32 and f16, by default and under policy=depth.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function dw_pw | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function dw_pw_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function dw_dw | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function dw_dw_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function dw_arg_filter_pw | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth}' -o %t.depth 2>/dev/null
// RUN: heirpy-equiv %s %t.depth --function dw_pw_wide | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.depth --function dw_pw_wide_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE-LABEL: func.func @dw_pw(

// CHECK-LABEL: func.func @dw_pw(
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%p, %{{.*}} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
// CHECK-LABEL: func.func @dw_pw_f16(
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<4x4x3x3xf16>)
// CHECK: return
// The 8-channel pair: 576 weights for 72 + 64 (4.2x), refused by default.
// CHECK-LABEL: func.func @dw_pw_wide(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} tensor<8x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<8x8x1x1xf32>)
// CHECK-LABEL: func.func @dw_pw_wide_f16(
// CHECK: linalg.depthwise_conv_2d_nchw_chw
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<8x8x1x1xf16>)
// DEPTH-LABEL: func.func @dw_pw_wide(
// DEPTH-NOT: linalg.depthwise_conv_2d_nchw_chw
// DEPTH: linalg.conv_2d_nchw_fchw {{.*}} tensor<8x8x3x3xf32>)
// DEPTH-NOT: linalg.conv_2d_nchw_fchw
// DEPTH: return
// DEPTH-LABEL: func.func @dw_pw_wide_f16(
// DEPTH-NOT: linalg.depthwise_conv_2d_nchw_chw
// DEPTH: linalg.conv_2d_nchw_fchw {{.*}} tensor<8x8x3x3xf16>)
// DEPTH: return
// DEPTH-LABEL: func.func @dw_dw(
// Two depthwise convs with a scale between: one 5x5 depthwise conv.
// CHECK-LABEL: func.func @dw_dw(
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%p, %{{.*}} : tensor<1x4x8x8xf32>, tensor<4x5x5xf32>)
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
// CHECK-LABEL: func.func @dw_dw_f16(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} tensor<4x5x5xf16>)
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: return
// Negative: a zero pad between two 3x3 depthwise convs does not move through the first
// (its windows overlap), so the chain is no conv, and its 144 x 144 matrix is refused.
// CHECK-LABEL: func.func @dw_pad_dw(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} tensor<4x3x3xf32>)
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} tensor<4x3x3xf32>)
// Negative: a relu ends the chain.
// CHECK-LABEL: func.func @dw_relu_pw(
// CHECK: linalg.depthwise_conv_2d_nchw_chw
// CHECK: arith.maximumf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<4x4x1x1xf32>)
// Negative: a filter known only at run time is no step (the scale after it still folds
// into the 1x1 conv, the chain's other half).
// CHECK-LABEL: func.func @dw_arg_filter_pw(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%p, %k : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%d, %{{.*}} : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>)

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @dw_pw(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[ 0.408,  0.323, -0.862],  [ 0.406, -0.362, -0.1  ],  [ 0.961, -0.871, -0.633]], [[-0.783,  0.697,  0.399],  [-0.511, -0.741,  0.416],  [-0.615, -0.435,  0.412]], [[-0.87 , -0.381,  0.013],  [ 0.261, -0.202,  0.986],  [ 0.536, -0.99 , -0.339]], [[-0.96 ,  0.684, -0.779],  [-0.272,  0.589, -0.233],  [-0.947, -0.478, -0.334]]]> : tensor<4x3x3xf32>
  %s = arith.constant dense<[[[1.066]], [[1.267]], [[1.048]], [[0.517]]]> : tensor<4x1x1xf32>
  %b = arith.constant dense<[[[ 0.347]], [[-0.09 ]], [[ 0.258]], [[-0.269]]]> : tensor<4x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%z : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %sv: f32, %o: f32):
    %m = arith.mulf %v, %sv : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %a = arith.addf %v, %bv : f32
    linalg.yield %a : f32
  } -> tensor<1x4x6x6xf32>
  %w = arith.constant dense<[[[[-0.927]],  [[-0.286]],  [[ 0.616]],  [[ 0.93 ]]], [[[ 0.104]],  [[ 0.576]],  [[ 0.485]],  [[-0.935]]], [[[-0.488]],  [[-0.761]],  [[ 0.433]],  [[-0.777]]], [[[-0.275]],  [[-0.585]],  [[ 0.785]],  [[ 0.598]]]]> : tensor<4x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x4x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%bn, %w : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) outs(%z2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
func.func @dw_pw_f16(%x: tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16> {
  %zero = arith.constant 0.0 : f16
  %k = arith.constant dense<[[[ 0.409,  0.368,  0.275],  [-0.505,  0.615, -0.758],  [-0.083, -0.231,  0.21 ]], [[-0.702,  0.373, -0.914],  [ 0.804,  0.395,  0.751],  [ 0.591,  0.713,  0.786]], [[-0.575, -0.805, -0.573],  [-0.291, -0.538, -0.701],  [-0.648, -0.659, -0.687]], [[ 0.237,  0.753,  0.55 ],  [-0.829, -0.749, -0.068],  [-0.671, -0.328,  0.926]]]> : tensor<4x3x3xf16>
  %s = arith.constant dense<[[[0.939]], [[0.945]], [[1.214]], [[1.28 ]]]> : tensor<4x1x1xf16>
  %b = arith.constant dense<[[[-0.326]], [[ 0.405]], [[-0.253]], [[ 0.495]]]> : tensor<4x1x1xf16>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
  %e = tensor.empty() : tensor<1x4x6x6xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x8x8xf16>, tensor<4x3x3xf16>) outs(%z : tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x4x6x6xf16>, tensor<4x1x1xf16>) outs(%e : tensor<1x4x6x6xf16>) {
  ^bb0(%v: f16, %sv: f16, %o: f16):
    %m = arith.mulf %v, %sv : f16
    linalg.yield %m : f16
  } -> tensor<1x4x6x6xf16>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x4x6x6xf16>, tensor<4x1x1xf16>) outs(%e : tensor<1x4x6x6xf16>) {
  ^bb0(%v: f16, %bv: f16, %o: f16):
    %a = arith.addf %v, %bv : f16
    linalg.yield %a : f16
  } -> tensor<1x4x6x6xf16>
  %w = arith.constant dense<[[[[-0.755]],  [[ 0.711]],  [[ 0.052]],  [[ 0.795]]], [[[-0.527]],  [[ 0.19 ]],  [[-0.757]],  [[-0.736]]], [[[ 0.739]],  [[ 0.812]],  [[-0.112]],  [[ 0.818]]], [[[ 0.06 ]],  [[ 0.304]],  [[ 0.148]],  [[ 0.479]]]]> : tensor<4x4x1x1xf16>
  %e2 = tensor.empty() : tensor<1x4x6x6xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%bn, %w : tensor<1x4x6x6xf16>, tensor<4x4x1x1xf16>) outs(%z2 : tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
  return %y : tensor<1x4x6x6xf16>
}
func.func @dw_pw_wide(%x: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[-0.525,  0.454,  0.261],  [-0.28 , -0.416, -0.231],  [ 0.513, -0.334, -0.228]], [[-0.942, -0.004,  0.929],  [-0.13 ,  0.625, -0.235],  [ 0.294, -0.854, -0.377]], [[-0.393,  0.511,  0.145],  [-0.241, -0.393, -0.831],  [-0.253, -0.477, -0.353]], [[ 0.417, -0.978,  0.939],  [ 0.21 , -0.211,  0.6  ],  [ 0.761, -0.627, -0.122]], [[ 0.461,  0.214, -0.8  ],  [ 0.76 , -0.266,  0.293],  [-0.261,  0.664, -0.272]], [[ 0.567,  0.085,  0.576],  [-0.624, -0.965, -0.106],  [-0.479,  0.499, -0.252]], [[-0.687,  0.843,  0.192],  [-0.101,  0.395, -0.796],  [-0.924,  0.716, -0.958]], [[ 0.977, -0.512, -0.38 ],  [-0.295,  0.589, -0.125],  [ 0.977, -0.192,  0.117]]]> : tensor<8x3x3xf32>
  %s = arith.constant dense<[[[0.899]], [[0.908]], [[0.764]], [[1.029]], [[1.307]], [[0.861]], [[1.181]], [[0.634]]]> : tensor<8x1x1xf32>
  %b = arith.constant dense<[[[ 0.42 ]], [[-0.443]], [[-0.471]], [[-0.445]], [[-0.423]], [[-0.366]], [[-0.256]], [[ 0.375]]]> : tensor<8x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x6x6xf32> to tensor<1x8x8x8xf32>
  %e = tensor.empty() : tensor<1x8x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x8x8x8xf32>, tensor<8x3x3xf32>) outs(%z : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x6x6xf32>) {
  ^bb0(%v: f32, %sv: f32, %o: f32):
    %m = arith.mulf %v, %sv : f32
    linalg.yield %m : f32
  } -> tensor<1x8x6x6xf32>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x6x6xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %a = arith.addf %v, %bv : f32
    linalg.yield %a : f32
  } -> tensor<1x8x6x6xf32>
  %w = arith.constant dense<[[[[ 0.851]],  [[-0.455]],  [[-0.789]],  [[ 0.436]],  [[-0.287]],  [[-0.799]],  [[-0.428]],  [[-0.625]]], [[[ 0.796]],  [[ 0.094]],  [[ 0.559]],  [[ 0.827]],  [[-0.187]],  [[ 0.826]],  [[ 0.576]],  [[-0.774]]], [[[ 0.697]],  [[ 0.067]],  [[ 0.133]],  [[-0.884]],  [[-0.778]],  [[-0.293]],  [[-0.661]],  [[ 0.331]]], [[[ 0.229]],  [[-0.69 ]],  [[ 0.297]],  [[-0.742]],  [[-0.394]],  [[-0.059]],  [[-0.823]],  [[-0.683]]], [[[ 0.262]],  [[-0.135]],  [[-0.497]],  [[ 0.156]],  [[ 0.356]],  [[ 0.921]],  [[-0.018]],  [[-0.876]]], [[[-0.003]],  [[ 0.486]],  [[-0.532]],  [[-0.225]],  [[ 0.736]],  [[ 0.251]],  [[ 0.192]],  [[ 0.695]]], [[[-0.177]],  [[ 0.285]],  [[ 0.36 ]],  [[-0.655]],  [[ 0.301]],  [[-0.843]],  [[ 0.137]],  [[ 0.575]]], [[[ 0.456]],  [[-0.481]],  [[-0.129]],  [[ 0.202]],  [[-0.438]],  [[ 0.104]],  [[ 0.256]],  [[-0.156]]]]> : tensor<8x8x1x1xf32>
  %e2 = tensor.empty() : tensor<1x8x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%bn, %w : tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) outs(%z2 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
func.func @dw_pw_wide_f16(%x: tensor<1x8x6x6xf16>) -> tensor<1x8x6x6xf16> {
  %zero = arith.constant 0.0 : f16
  %k = arith.constant dense<[[[ 0.723, -0.382,  0.754],  [-0.041,  0.519, -0.58 ],  [-0.75 , -0.635, -0.513]], [[ 0.007,  0.239,  0.948],  [-0.726,  0.078,  0.236],  [-0.534, -0.278,  0.363]], [[ 0.439,  0.94 , -0.395],  [-0.59 ,  0.792,  0.161],  [ 0.628, -0.102, -0.666]], [[-0.424,  0.569,  0.989],  [ 0.436,  0.858, -0.62 ],  [ 0.806, -0.604,  0.124]], [[-0.174, -0.798, -0.916],  [-0.815,  0.057, -0.724],  [-0.351,  0.308, -0.156]], [[ 0.746, -0.601,  0.927],  [-0.749,  0.362,  0.969],  [-0.346, -0.456,  0.096]], [[ 0.425, -0.771, -0.91 ],  [ 0.035,  0.54 , -0.156],  [ 0.955,  0.731, -0.681]], [[ 0.362,  0.246,  0.236],  [-0.575,  0.527,  0.395],  [-0.599,  0.429, -0.503]]]> : tensor<8x3x3xf16>
  %s = arith.constant dense<[[[1.388]], [[0.694]], [[0.94 ]], [[1.165]], [[0.834]], [[1.282]], [[1.399]], [[1.488]]]> : tensor<8x1x1xf16>
  %b = arith.constant dense<[[[-0.01 ]], [[-0.339]], [[-0.326]], [[ 0.11 ]], [[ 0.235]], [[-0.284]], [[ 0.213]], [[ 0.244]]]> : tensor<8x1x1xf16>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x8x6x6xf16> to tensor<1x8x8x8xf16>
  %e = tensor.empty() : tensor<1x8x6x6xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<1x8x6x6xf16>) -> tensor<1x8x6x6xf16>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x8x8x8xf16>, tensor<8x3x3xf16>) outs(%z : tensor<1x8x6x6xf16>) -> tensor<1x8x6x6xf16>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x8x6x6xf16>, tensor<8x1x1xf16>) outs(%e : tensor<1x8x6x6xf16>) {
  ^bb0(%v: f16, %sv: f16, %o: f16):
    %m = arith.mulf %v, %sv : f16
    linalg.yield %m : f16
  } -> tensor<1x8x6x6xf16>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x8x6x6xf16>, tensor<8x1x1xf16>) outs(%e : tensor<1x8x6x6xf16>) {
  ^bb0(%v: f16, %bv: f16, %o: f16):
    %a = arith.addf %v, %bv : f16
    linalg.yield %a : f16
  } -> tensor<1x8x6x6xf16>
  %w = arith.constant dense<[[[[ 0.595]],  [[-0.687]],  [[-0.382]],  [[ 0.08 ]],  [[-0.929]],  [[-0.932]],  [[ 0.005]],  [[ 0.544]]], [[[-0.633]],  [[-0.996]],  [[ 0.21 ]],  [[ 0.156]],  [[-0.852]],  [[ 0.572]],  [[ 0.924]],  [[-0.023]]], [[[-0.526]],  [[ 0.939]],  [[-0.294]],  [[-0.925]],  [[-0.907]],  [[-0.442]],  [[-0.333]],  [[ 0.79 ]]], [[[ 0.75 ]],  [[-0.486]],  [[-0.139]],  [[-0.735]],  [[-0.527]],  [[-0.018]],  [[ 0.037]],  [[ 0.404]]], [[[ 0.344]],  [[-0.431]],  [[ 0.594]],  [[ 0.692]],  [[ 0.276]],  [[-0.562]],  [[-0.456]],  [[ 0.992]]], [[[-0.489]],  [[ 0.408]],  [[ 0.447]],  [[-0.699]],  [[-0.226]],  [[ 0.029]],  [[-0.482]],  [[-0.797]]], [[[ 0.275]],  [[ 0.428]],  [[-0.251]],  [[ 0.848]],  [[-0.873]],  [[-0.172]],  [[ 0.948]],  [[-0.567]]], [[[-0.054]],  [[-0.458]],  [[ 0.668]],  [[ 0.456]],  [[ 0.261]],  [[ 0.261]],  [[-0.989]],  [[-0.49 ]]]]> : tensor<8x8x1x1xf16>
  %e2 = tensor.empty() : tensor<1x8x6x6xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x8x6x6xf16>) -> tensor<1x8x6x6xf16>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%bn, %w : tensor<1x8x6x6xf16>, tensor<8x8x1x1xf16>) outs(%z2 : tensor<1x8x6x6xf16>) -> tensor<1x8x6x6xf16>
  return %y : tensor<1x8x6x6xf16>
}
func.func @dw_dw(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[ 0.959,  0.272,  0.353],  [ 0.198, -0.742,  0.773],  [ 0.809,  0.915,  0.039]], [[-0.794,  0.654,  0.348],  [-0.944, -0.098, -0.711],  [-0.352,  0.12 , -0.528]], [[-0.249,  0.331, -0.778],  [-0.745,  0.586,  0.716],  [-0.617,  0.962, -0.504]], [[-0.047,  0.002,  0.05 ],  [-0.751,  0.396, -0.121],  [-0.044, -0.68 ,  0.949]]]> : tensor<4x3x3xf32>
  %s = arith.constant dense<[[[0.506]], [[1.377]], [[1.147]], [[0.947]]]> : tensor<4x1x1xf32>
  %b = arith.constant dense<[[[ 0.452]], [[ 0.379]], [[-0.161]], [[ 0.406]]]> : tensor<4x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%z : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %sv: f32, %o: f32):
    %m = arith.mulf %v, %sv : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %a = arith.addf %v, %bv : f32
    linalg.yield %a : f32
  } -> tensor<1x4x6x6xf32>
  %k2 = arith.constant dense<[[[-0.001, -0.245, -0.328],  [-0.629,  0.35 , -0.307],  [-0.163, -0.599,  0.308]], [[ 0.304, -0.966,  0.339],  [ 0.868,  0.86 , -0.791],  [-0.255, -0.798, -0.751]], [[ 0.185, -0.386, -0.963],  [-0.681,  0.602, -0.176],  [-0.18 , -0.574, -0.938]], [[ 0.177,  0.193,  0.346],  [ 0.812,  0.458,  0.846],  [ 0.888, -0.418,  0.221]]]> : tensor<4x3x3xf32>
  %e2 = tensor.empty() : tensor<1x4x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%bn, %k2 : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%z2 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}
func.func @dw_dw_f16(%x: tensor<1x4x6x6xf16>) -> tensor<1x4x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %k = arith.constant dense<[[[ 0.108,  0.684,  0.484],  [ 0.969, -0.451, -0.384],  [ 0.412,  0.233,  0.628]], [[ 0.245, -0.253,  0.64 ],  [ 0.285,  0.43 ,  0.412],  [-0.702,  0.17 , -0.756]], [[-0.746, -0.534,  0.614],  [ 0.757, -0.177,  0.674],  [-0.513,  0.029, -0.613]], [[ 0.639,  0.457, -0.781],  [ 0.356,  0.212, -0.199],  [-0.233,  0.621,  0.179]]]> : tensor<4x3x3xf16>
  %s = arith.constant dense<[[[1.361]], [[0.961]], [[1.188]], [[0.539]]]> : tensor<4x1x1xf16>
  %b = arith.constant dense<[[[-0.035]], [[ 0.395]], [[ 0.232]], [[-0.386]]]> : tensor<4x1x1xf16>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
  %e = tensor.empty() : tensor<1x4x6x6xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x8x8xf16>, tensor<4x3x3xf16>) outs(%z : tensor<1x4x6x6xf16>) -> tensor<1x4x6x6xf16>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x4x6x6xf16>, tensor<4x1x1xf16>) outs(%e : tensor<1x4x6x6xf16>) {
  ^bb0(%v: f16, %sv: f16, %o: f16):
    %m = arith.mulf %v, %sv : f16
    linalg.yield %m : f16
  } -> tensor<1x4x6x6xf16>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x4x6x6xf16>, tensor<4x1x1xf16>) outs(%e : tensor<1x4x6x6xf16>) {
  ^bb0(%v: f16, %bv: f16, %o: f16):
    %a = arith.addf %v, %bv : f16
    linalg.yield %a : f16
  } -> tensor<1x4x6x6xf16>
  %k2 = arith.constant dense<[[[-0.854, -0.506,  0.162],  [ 0.862, -0.914,  0.898],  [ 0.381, -0.059,  0.149]], [[-0.288,  0.433, -0.985],  [ 0.318,  0.688,  0.827],  [ 0.975,  0.553, -0.848]], [[-0.428,  0.753, -0.48 ],  [ 0.919,  0.947,  0.623],  [-0.215, -0.673,  0.667]], [[-0.102,  0.537,  0.441],  [-0.339,  0.273,  0.602],  [-0.591, -0.925,  0.209]]]> : tensor<4x3x3xf16>
  %e2 = tensor.empty() : tensor<1x4x4x4xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%bn, %k2 : tensor<1x4x6x6xf16>, tensor<4x3x3xf16>) outs(%z2 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  return %y : tensor<1x4x4x4xf16>
}
func.func @dw_pad_dw(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[-0.741, -0.126, -0.081],  [ 0.07 ,  0.74 ,  0.293],  [ 0.359, -0.221, -0.335]], [[-0.064,  0.985, -0.25 ],  [-0.268,  0.244,  0.848],  [ 0.362, -0.394,  0.062]], [[-0.539,  0.629, -0.76 ],  [ 0.218,  0.472, -0.077],  [ 0.364, -0.093, -0.221]], [[ 0.228,  0.146,  0.33 ],  [ 0.639,  0.236, -0.036],  [-0.623,  0.166,  0.734]]]> : tensor<4x3x3xf32>
  %s = arith.constant dense<[[[1.395]], [[1.131]], [[1.308]], [[0.805]]]> : tensor<4x1x1xf32>
  %b = arith.constant dense<[[[-0.482]], [[-0.345]], [[ 0.25 ]], [[-0.355]]]> : tensor<4x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%z : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %sv: f32, %o: f32):
    %m = arith.mulf %v, %sv : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %a = arith.addf %v, %bv : f32
    linalg.yield %a : f32
  } -> tensor<1x4x6x6xf32>
  %k2 = arith.constant dense<[[[ 0.09 ,  0.166,  0.175],  [ 0.71 ,  0.782, -0.378],  [ 0.047,  0.991,  0.149]], [[-0.444,  0.035,  0.017],  [ 0.538,  0.048,  0.019],  [-0.59 , -0.06 ,  0.595]], [[ 0.335, -0.686,  0.166],  [-0.269,  0.012,  0.315],  [ 0.537,  0.997, -0.779]], [[ 0.649, -0.446,  0.217],  [-0.311,  0.797, -0.556],  [ 0.369, -0.38 ,  0.923]]]> : tensor<4x3x3xf32>
  %p2 = tensor.pad %bn low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p2, %k2 : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%z : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
func.func @dw_relu_pw(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<[[[ 0.078,  0.753, -0.047],  [-0.43 , -0.283,  0.773],  [-0.523,  0.57 ,  0.855]], [[ 0.93 ,  0.878, -0.948],  [-0.031, -0.961,  0.532],  [ 0.61 ,  0.684,  0.437]], [[ 0.976,  0.161, -0.94 ],  [ 0.689, -0.75 , -0.524],  [ 0.97 , -0.494,  0.116]], [[-0.42 ,  0.102,  0.868],  [ 0.361, -0.82 ,  0.565],  [-0.152, -0.396,  0.389]]]> : tensor<4x3x3xf32>
  %s = arith.constant dense<[[[1.087]], [[0.505]], [[1.006]], [[1.056]]]> : tensor<4x1x1xf32>
  %b = arith.constant dense<[[[-0.423]], [[ 0.496]], [[ 0.274]], [[-0.125]]]> : tensor<4x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%z : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %sv: f32, %o: f32):
    %m = arith.mulf %v, %sv : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %a = arith.addf %v, %bv : f32
    linalg.yield %a : f32
  } -> tensor<1x4x6x6xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn : tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %w = arith.constant dense<[[[[ 0.274]],  [[ 0.681]],  [[-0.139]],  [[-0.213]]], [[[ 0.796]],  [[-0.121]],  [[-0.213]],  [[ 0.443]]], [[[ 0.093]],  [[ 0.871]],  [[ 0.458]],  [[ 0.185]]], [[[-0.469]],  [[ 0.692]],  [[-0.803]],  [[ 0.596]]]]> : tensor<4x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x4x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r, %w : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) outs(%z2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
func.func @dw_arg_filter_pw(%x: tensor<1x4x6x6xf32>, %k: tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %s = arith.constant dense<[[[0.637]], [[1.125]], [[1.314]], [[0.924]]]> : tensor<4x1x1xf32>
  %b = arith.constant dense<[[[-0.389]], [[ 0.365]], [[-0.267]], [[-0.149]]]> : tensor<4x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %k : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%z : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %sc = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %s : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %sv: f32, %o: f32):
    %m = arith.mulf %v, %sv : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %bn = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sc, %b : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %a = arith.addf %v, %bv : f32
    linalg.yield %a : f32
  } -> tensor<1x4x6x6xf32>
  %w = arith.constant dense<[[[[-0.863]],  [[ 0.084]],  [[ 0.171]],  [[-0.283]]], [[[-0.8  ]],  [[-0.059]],  [[ 0.094]],  [[-0.281]]], [[[-0.111]],  [[-0.533]],  [[-0.843]],  [[-0.815]]], [[[ 0.69 ]],  [[ 0.097]],  [[ 0.541]],  [[-0.649]]]]> : tensor<4x4x1x1xf32>
  %e2 = tensor.empty() : tensor<1x4x6x6xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%bn, %w : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) outs(%z2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
