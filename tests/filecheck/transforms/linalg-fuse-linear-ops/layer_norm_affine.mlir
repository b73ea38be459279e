// LayerNorm's gamma and beta folded FORWARD into the linear op after the normalisation
// (`forward_affine_folds.FoldAffineIntoNextLinearOp`, issue 37 "depth at the bound"):
// `L(n * g + b)` = `(W diag g) n + (init + W b)`, through the layout ops between (ConvNeXt:
// NHWC -> NCHW transpose before a conv; ViT: collapse_shape before a matmul; torch-mlir's
// f16 form: a truncf). `%n` stands for the ct x ct normalisation `(x - mean) * rstd`.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c4 = affine_map<(d0, d1, d2, d3) -> (d3)>
#r4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
// ConvNeXt's block: LayerNorm over the last (channel) axis of NHWC, then fc1 as a 1x1 conv.
// CHECK-LABEL: func.func @convnext_fc1
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.500000e+00]], {{\[\[}}-1.000000e+00]], {{\[\[}}-2.000000e+00]]], {{.*}}> : tensor<4x3x1x1xf32>
// CHECK:         %[[N:.*]] = linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         %[[P:.*]] = linalg.transpose ins(%[[N]] :
// CHECK:         %[[B:.*]] = arith.constant dense<[3.500000e+00, -1.625000e+00, 1.250000e-01, -6.875000e-01]> : tensor<4xf32>
// CHECK:         %[[I:.*]] = linalg.broadcast ins(%[[B]]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %[[W]] : {{.*}}) outs(%[[I]] :
// MLIR-LABEL: func.func @convnext_fc1
func.func @convnext_fc1(%x: tensor<1x2x2x3xf32>, %rstd: tensor<1x2x2x1xf32>) -> tensor<1x4x2x2xf32> {
  %g = arith.constant dense<[1.5, -0.5, 2.0]> : tensor<3xf32>
  %b = arith.constant dense<[0.25, 1.0, -0.75]> : tensor<3xf32>
  %w = arith.constant dense<[[[[1.0]], [[2.0]], [[-1.0]]], [[[0.5]], [[0.0]], [[1.0]]], [[[-2.0]], [[1.0]], [[0.5]]], [[[0.25]], [[-0.5]], [[3.0]]]]> : tensor<4x3x1x1xf32>
  %bias = arith.constant dense<[0.5, -1.0, 0.0, 2.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<1x2x2x3xf32>
  %n = linalg.generic {indexing_maps = [#id4, #r4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %rstd : tensor<1x2x2x3xf32>, tensor<1x2x2x1xf32>) outs(%e : tensor<1x2x2x3xf32>) {
  ^bb0(%in: f32, %r: f32, %out: f32):
    %0 = arith.mulf %in, %r : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x3xf32>
  %t = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %b : tensor<1x2x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.addf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x3xf32>
  %ec = tensor.empty() : tensor<1x3x2x2xf32>
  %p = linalg.transpose ins(%t : tensor<1x2x2x3xf32>) outs(%ec : tensor<1x3x2x2xf32>) permutation = [0, 3, 1, 2]
  %eo = tensor.empty() : tensor<1x4x2x2xf32>
  %init = linalg.broadcast ins(%bias : tensor<4xf32>) outs(%eo : tensor<1x4x2x2xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%init : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %c : tensor<1x4x2x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// ViT's qkv projection: LayerNorm over the tokens' last axis, collapse_shape to
// [tokens, C], then x @ W (W a constant behind a transpose, as torch-mlir writes nn.Linear).
// CHECK-LABEL: func.func @vit_qkv
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}2.000000e+00, -2.000000e+00], [0.000000e+00, 1.500000e+00], [-2.000000e+00, -1.000000e+00]]> : tensor<3x2xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]]
// CHECK:         %[[B:.*]] = arith.constant dense<[2.000000e+00, -6.500000e+00]> : tensor<2xf32>
// CHECK:         %[[I:.*]] = linalg.broadcast ins(%[[B]]
// CHECK:         linalg.matmul ins(%[[F]], %[[W]] : {{.*}}) outs(%[[I]] :
// MLIR-LABEL: func.func @vit_qkv
func.func @vit_qkv(%n: tensor<1x2x3xf32>) -> tensor<2x2xf32> {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %b = arith.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
  %wt = arith.constant dense<[[1.0, 0.0, 2.0], [-1.0, 3.0, 1.0]]> : tensor<2x3xf32>
  %ew = tensor.empty() : tensor<3x2xf32>
  %w = linalg.transpose ins(%wt : tensor<2x3xf32>) outs(%ew : tensor<3x2xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %t = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %b : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.addf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %flat = tensor.collapse_shape %t [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c4 = affine_map<(d0, d1, d2, d3) -> (d3)>
// A scale alone passes a zero pad (0 * g = 0) into a depthwise conv (channel c reads W[c]).
// CHECK-LABEL: func.func @scale_through_pad
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[}}3.000000e+00, 6.000000e+00], [1.500000e+00, -3.000000e+00]], {{\[\[}}-1.000000e+00, -0.000000e+00], [-5.000000e-01, -5.000000e-01]]]> : tensor<2x2x2xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         tensor.pad
// CHECK:         linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %[[W]] :
// MLIR-LABEL: func.func @scale_through_pad
func.func @scale_through_pad(%n: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %g = arith.constant dense<[3.0, -0.5]> : tensor<2xf32>
  %w = arith.constant dense<[[[1.0, 2.0], [0.5, -1.0]], [[2.0, 0.0], [1.0, 1.0]]]> : tensor<2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %s = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x2xf32>
  %p = linalg.transpose ins(%s : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) permutation = [0, 3, 1, 2]
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %p low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x2x2xf32> to tensor<1x2x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x2x3x3xf32>, tensor<2x2x2xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %c : tensor<1x2x2x2xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c4 = affine_map<(d0, d1, d2, d3) -> (d3)>
// Must not fire: a shift before a zero pad (the padding would read the shift, not 0).
// CHECK-LABEL: func.func @shift_through_pad
// CHECK:         %[[B:.*]] = arith.constant dense<[3.000000e+00, -5.000000e-01]>
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 2.000000e+00]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[B]] :
// CHECK:         linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %[[W]] :
// MLIR-LABEL: func.func @shift_through_pad
func.func @shift_through_pad(%n: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %b = arith.constant dense<[3.0, -0.5]> : tensor<2xf32>
  %w = arith.constant dense<[[[1.0, 2.0], [0.5, -1.0]], [[2.0, 0.0], [1.0, 1.0]]]> : tensor<2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %s = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %b : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.addf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x2xf32>
  %p = linalg.transpose ins(%s : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) permutation = [0, 3, 1, 2]
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %p low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x2x2xf32> to tensor<1x2x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x2x3x3xf32>, tensor<2x2x2xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %c : tensor<1x2x2x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// The scaled value has a second user (the residual add reads it too): the Linear takes
// gamma, the add keeps the scaled value (more readers: layer_norm_affine_readers.mlir).
// CHECK-LABEL: func.func @residual_user
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}2.000000e+00, 0.000000e+00], [1.000000e+00, -5.000000e-01], [-3.000000e+00, -1.000000e+00]]>
// CHECK:         %[[G:.*]] = arith.constant dense<[2.000000e+00, 5.000000e-01, -1.000000e+00]>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%n, %[[G]] :
// CHECK:         %[[F:.*]] = tensor.collapse_shape %n
// CHECK:         linalg.matmul ins(%[[F]], %[[W]] :
// CHECK:         arith.addf %[[S]],
// MLIR-LABEL: func.func @residual_user
func.func @residual_user(%n: tensor<1x2x3xf32>) -> (tensor<2x2xf32>, tensor<1x2x3xf32>) {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %flat = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = arith.addf %s, %n : tensor<1x2x3xf32>
  return %m, %r : tensor<2x2xf32>, tensor<1x2x3xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// Must not fire: gamma is not a constant (a function argument).
// CHECK-LABEL: func.func @runtime_gamma
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x3xf32>, tensor<3xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] :
// MLIR-LABEL: func.func @runtime_gamma
func.func @runtime_gamma(%n: tensor<1x2x3xf32>, %g: tensor<3xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %flat = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// Must not fire: a nonlinearity (relu) between the scale and the Linear.
// CHECK-LABEL: func.func @relu_between
// CHECK:         %[[G:.*]] = arith.constant dense<[2.000000e+00, 5.000000e-01, -1.000000e+00]>
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[G]] :
// CHECK:         arith.maximumf
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] :
// MLIR-LABEL: func.func @relu_between
func.func @relu_between(%n: tensor<1x2x3xf32>) -> tensor<2x2xf32> {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %relu = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %flat = tensor.collapse_shape %relu [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// Must not fire: the Linear's weight is not a constant (a function argument).
// CHECK-LABEL: func.func @runtime_weight
// CHECK:         %[[G:.*]] = arith.constant dense<[2.000000e+00, 5.000000e-01, -1.000000e+00]>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[G]] :
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3x2xf32>)
// MLIR-LABEL: func.func @runtime_weight
func.func @runtime_weight(%n: tensor<1x2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %flat = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#h4 = affine_map<(d0, d1, d2, d3) -> (d1)>
// Must not fire: the scale varies along H, not along the channel the conv contracts.
// CHECK-LABEL: func.func @scale_not_on_channel
// CHECK:         %[[G:.*]] = arith.constant dense<[2.000000e+00, 5.000000e-01]>
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00]]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[G]] :
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %[[W]] :
// MLIR-LABEL: func.func @scale_not_on_channel
func.func @scale_not_on_channel(%n: tensor<1x2x2x3xf32>) -> tensor<1x4x2x2xf32> {
  %g = arith.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %w = arith.constant dense<[[[[1.0]], [[2.0]], [[-1.0]]], [[[0.5]], [[0.0]], [[1.0]]], [[[-2.0]], [[1.0]], [[0.5]]], [[[0.25]], [[-0.5]], [[3.0]]]]> : tensor<4x3x1x1xf32>
  %e = tensor.empty() : tensor<1x2x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id4, #h4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x2x3xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x3xf32>
  %ec = tensor.empty() : tensor<1x3x2x2xf32>
  %p = linalg.transpose ins(%s : tensor<1x2x2x3xf32>) outs(%ec : tensor<1x3x2x2xf32>) permutation = [0, 3, 1, 2]
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x4x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) outs(%init : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %c : tensor<1x4x2x2xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c4 = affine_map<(d0, d1, d2, d3) -> (d3)>
// torch-mlir's f16 form (ConvNeXt-femto .half()): the LayerNorm computes in f32 (its f16
// gamma and beta widened), its result is rounded to f16, transposed, and read by a conv
// of f16 weights accumulating in f32. The folded weight is computed in float64 and
// rounded to f16 once; the init takes W beta in f32; the truncf stays (it rounds the
// normalised value now).
// CHECK-LABEL: func.func @half_fc1
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}7.500000e-01]], {{\[\[}}1.875000e-01]]], {{\[\[\[}}1.125000e+00]], {{\[\[}}-7.500000e-01]]]]> : tensor<2x2x1x1xf16>
// CHECK:         %[[H:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x2x2xf16>)
// CHECK:           arith.truncf
// CHECK:         %[[P:.*]] = linalg.transpose ins(%[[H]] :
// CHECK:         %[[B:.*]] = arith.constant dense<[0.000000e+00, 6.875000e-01]> : tensor<2xf32>
// CHECK:         %[[I:.*]] = linalg.broadcast ins(%[[B]]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %[[W]] : tensor<1x2x2x2xf16>, tensor<2x2x1x1xf16>) outs(%[[I]] : tensor<1x2x2x2xf32>)
// MLIR-LABEL: func.func @half_fc1
func.func @half_fc1(%n: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf16> {
  %g16 = arith.constant dense<[1.5, -0.75]> : tensor<2xf16>
  %b16 = arith.constant dense<[0.25, 0.5]> : tensor<2xf16>
  %w = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[1.0]]]]> : tensor<2x2x1x1xf16>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %s = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %g16 : tensor<1x2x2x2xf32>, tensor<2xf16>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f16, %out: f32):
    %0 = arith.extf %k : f16 to f32
    %1 = arith.mulf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x2x2xf32>
  %t = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %b16 : tensor<1x2x2x2xf32>, tensor<2xf16>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f16, %out: f32):
    %0 = arith.extf %k : f16 to f32
    %1 = arith.addf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x2x2xf32>
  %e16 = tensor.empty() : tensor<1x2x2x2xf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t : tensor<1x2x2x2xf32>) outs(%e16 : tensor<1x2x2x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x2x2xf16>
  %p = linalg.transpose ins(%h : tensor<1x2x2x2xf16>) outs(%e16 : tensor<1x2x2x2xf16>) permutation = [0, 3, 1, 2]
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x2x2xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x2x2xf32>) outs(%e16 : tensor<1x2x2x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x2x2xf16>
  return %r : tensor<1x2x2x2xf16>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// Must not fire: a uniform scale (the same on every channel) is left to the chains pass.
// CHECK-LABEL: func.func @uniform_scale
// CHECK:         %[[H:.*]] = arith.constant dense<5.000000e-01> : tensor<3xf32>
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[H]] :
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] :
// MLIR-LABEL: func.func @uniform_scale
func.func @uniform_scale(%n: tensor<1x2x3xf32>) -> tensor<2x2xf32> {
  %h = arith.constant dense<0.5> : tensor<3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d2)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %h : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %flat = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// ViT's final LayerNorm, then the class token (a slice of the tokens, every channel),
// then the head: folded through the slice.
// CHECK-LABEL: func.func @class_token_head
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}2.000000e+00, 0.000000e+00], [1.000000e+00, -5.000000e-01], [-3.000000e+00, -1.000000e+00]]> : tensor<3x2xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0] [1, 1, 3] [1, 1, 1]
// CHECK:         %[[B:.*]] = arith.constant dense<[0.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] :
// MLIR-LABEL: func.func @class_token_head
func.func @class_token_head(%n: tensor<1x2x3xf32>) -> tensor<1x2xf32> {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %b = arith.constant dense<[1.0, -2.0, 1.0]> : tensor<3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %t = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %b : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.addf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %cls = tensor.extract_slice %t[0, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<1x2x3xf32> to tensor<1x1x3xf32>
  %flat = tensor.collapse_shape %cls [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2xf32>) -> tensor<1x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<1x3xf32>, tensor<3x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %m : tensor<1x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// Must not fire: the slice keeps 2 of the 3 channels (the Linear reads only those).
// CHECK-LABEL: func.func @slice_cuts_channels
// CHECK:         %[[G:.*]] = arith.constant dense<[2.000000e+00, 5.000000e-01, -1.000000e+00]>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[G]] :
// CHECK:         tensor.extract_slice
// CHECK:         linalg.matmul
// MLIR-LABEL: func.func @slice_cuts_channels
func.func @slice_cuts_channels(%n: tensor<1x2x3xf32>) -> tensor<2x2xf32> {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %part = tensor.extract_slice %s[0, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<1x2x3xf32> to tensor<1x2x2xf32>
  %flat = tensor.collapse_shape %part [[0, 1], [2]] : tensor<1x2x2xf32> into tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}


// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// A LayerNorm weight of ones (timm's initial gamma), stored as a per-channel vector
// (`dense_resource`), is a parameter like any other: folded (the depth model, which does
// not read blobs, charges it a level), unlike the splat above.
// CHECK-LABEL: func.func @ones_gamma_vector
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [2.000000e+00, -1.000000e+00], [3.000000e+00, 1.000000e+00]]> : tensor<3x2xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] :
// MLIR-LABEL: func.func @ones_gamma_vector
func.func @ones_gamma_vector(%n: tensor<1x2x3xf32>) -> tensor<2x2xf32> {
  %g = arith.constant dense_resource<ones3> : tensor<3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %flat = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      ones3: "0x040000000000803F0000803F0000803F"
    }
  }
#-}
