// A ResNet stem in torch-mlir's form (issue 37): a 3x3 conv and a 1x1 conv, each from a
// zero fill and followed by an eval-mode batch norm and a ReLU. heirpy folds each batch
// norm into its conv (the shift becomes the conv's init, a broadcast of a vector); under
// IREE's best CPU flags (--iree-opt-data-tiling --iree-global-opt-use-im2col-for-convs)
// that init was hoisted into a load-time global, one more executable per conv
// (tests/unit/test_iree_data_tiling.py).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {
  func.func @main(%x: tensor<1x4x16x16xf32>) -> tensor<1x8x16x16xf32> {
    %c0 = arith.constant 0.000000e+00 : f32
    %w1 = arith.constant dense<[[[[ 0.204,  0.162, -0.431],   [ 0.203, -0.181, -0.05 ],   [ 0.481, -0.436, -0.316]],  [[-0.392,  0.349,  0.199],   [-0.255, -0.371,  0.208],   [-0.307, -0.217,  0.206]],  [[-0.435, -0.191,  0.006],   [ 0.131, -0.101,  0.493],   [ 0.268, -0.495, -0.17 ]],  [[-0.48 ,  0.342, -0.39 ],   [-0.136,  0.295, -0.116],   [-0.473, -0.239, -0.167]]], [[[ 0.066,  0.267,  0.048],   [-0.483,  0.347, -0.09 ],   [ 0.258, -0.269, -0.463]],  [[-0.143,  0.308,  0.465],   [ 0.052,  0.288,  0.242],   [-0.467, -0.244, -0.38 ]],  [[ 0.216, -0.389, -0.137],   [-0.292,  0.392,  0.299],   [ 0.105, -0.282,  0.134]],  [[-0.01 ,  0.043,  0.374],   [ 0.112, -0.217, -0.45 ],   [-0.167, -0.324, -0.271]]], [[[-0.271, -0.248, -0.056],   [-0.217,  0.311,  0.07 ],   [-0.22 ,  0.109, -0.394]],  [[ 0.48 ,  0.289,  0.085],   [ 0.118, -0.479, -0.144],   [-0.361,  0.179,  0.133]],  [[ 0.407,  0.388,  0.456],   [-0.236, -0.233,  0.171],   [ 0.205,  0.184,  0.137]],  [[-0.252,  0.308, -0.379],   [-0.042, -0.115,  0.105],   [-0.351,  0.187, -0.457]]], [[[ 0.402,  0.198,  0.375],   [ 0.296,  0.357,  0.393],   [-0.288, -0.403, -0.287]],  [[-0.146, -0.269, -0.35 ],   [-0.324, -0.33 , -0.343],   [ 0.119,  0.377,  0.275]],  [[-0.414, -0.374, -0.034],   [-0.336, -0.164,  0.463],   [-0.061, -0.055,  0.214]],  [[ 0.28 , -0.326,  0.405],   [-0.253,  0.495, -0.378],   [ 0.356,  0.026,  0.397]]], [[[-0.264,  0.095, -0.378],   [-0.368,  0.37 ,  0.406],   [-0.056,  0.409,  0.03 ]],  [[ 0.152,  0.074,  0.24 ],   [-0.038,  0.096, -0.25 ],   [-0.158, -0.247, -0.352]],  [[ 0.259, -0.226,  0.034],   [ 0.401, -0.105,  0.323],   [-0.332,  0.131,  0.26 ]],  [[-0.105, -0.346, -0.463],   [-0.378,  0.417, -0.2  ],   [-0.192, -0.456,  0.01 ]]], [[[-0.058,  0.293,  0.143],   [ 0.204, -0.198,  0.19 ],   [-0.14 ,  0.151, -0.479]],  [[-0.269, -0.307,  0.032],   [-0.263,  0.227,  0.13 ],   [-0.14 , -0.208, -0.116]],  [[ 0.257, -0.167, -0.114],   [-0.471, -0.002,  0.464],   [-0.065,  0.313, -0.118]],  [[ 0.147, -0.427, -0.189],   [-0.196,  0.255,  0.073],   [-0.12 , -0.197, -0.415]]], [[[-0.126, -0.238, -0.176],   [ 0.209, -0.489,  0.469],   [ 0.105, -0.106,  0.3  ]],  [[ 0.38 , -0.313, -0.061],   [ 0.231,  0.107, -0.4  ],   [ 0.38 , -0.133,  0.147]],  [[-0.131,  0.332, -0.136],   [ 0.284,  0.042,  0.288],   [-0.312, -0.482, -0.053]],  [[-0.239,  0.249, -0.126],   [-0.344,  0.422,  0.096],   [-0.051,  0.197, -0.398]]], [[[-0.462,  0.358, -0.479],   [ 0.489, -0.256, -0.19 ],   [-0.147,  0.294, -0.062]],  [[ 0.489, -0.096,  0.058],   [-0.101, -0.092, -0.236],   [ 0.029,  0.307, -0.139]],  [[ 0.181, -0.366,  0.42 ],   [-0.443, -0.471, -0.445],   [-0.423, -0.366, -0.256]],  [[ 0.375,  0.425, -0.227],   [-0.395,  0.218, -0.144],   [-0.4  , -0.214, -0.312]]]]> : tensor<8x4x3x3xf32>
    %w2 = arith.constant dense<[[[[ 0.398]],  [[ 0.047]],  [[ 0.28 ]],  [[ 0.413]],  [[-0.094]],  [[ 0.413]],  [[ 0.288]],  [[-0.387]]], [[[ 0.348]],  [[ 0.033]],  [[ 0.066]],  [[-0.442]],  [[-0.389]],  [[-0.146]],  [[-0.33 ]],  [[ 0.165]]], [[[ 0.115]],  [[-0.345]],  [[ 0.149]],  [[-0.371]],  [[-0.197]],  [[-0.029]],  [[-0.412]],  [[-0.342]]], [[[ 0.131]],  [[-0.068]],  [[-0.248]],  [[ 0.078]],  [[ 0.178]],  [[ 0.46 ]],  [[-0.009]],  [[-0.438]]], [[[-0.002]],  [[ 0.243]],  [[-0.266]],  [[-0.113]],  [[ 0.368]],  [[ 0.126]],  [[ 0.096]],  [[ 0.347]]], [[[-0.089]],  [[ 0.142]],  [[ 0.18 ]],  [[-0.327]],  [[ 0.15 ]],  [[-0.422]],  [[ 0.069]],  [[ 0.287]]], [[[ 0.228]],  [[-0.241]],  [[-0.064]],  [[ 0.101]],  [[-0.219]],  [[ 0.052]],  [[ 0.128]],  [[-0.078]]], [[[-0.294]],  [[ 0.369]],  [[-0.001]],  [[-0.292]],  [[-0.388]],  [[-0.135]],  [[ 0.245]],  [[-0.208]]]]> : tensor<8x8x1x1xf32>
    %mean1 = arith.constant dense<[[[0.249]], [[0.045]], [[-0.296]], [[-0.496]], [[-0.352]], [[-0.171]], [[0.293]], [[0.456]]]> : tensor<8x1x1xf32>
    %rstd1 = arith.constant dense<[[[0.837]], [[0.907]], [[0.931]], [[0.839]], [[1.39]], [[1.039]], [[0.989]], [[0.963]]]> : tensor<8x1x1xf32>
    %gamma1 = arith.constant dense<[[[0.848]], [[1.306]], [[0.822]], [[1.45]], [[1.267]], [[1.025]], [[1.309]], [[0.702]]]> : tensor<8x1x1xf32>
    %beta1 = arith.constant dense<[[[-0.229]], [[0.363]], [[-0.016]], [[-0.457]], [[-0.458]], [[0.045]], [[0.165]], [[-0.074]]]> : tensor<8x1x1xf32>
    %mean2 = arith.constant dense<[[[-0.376]], [[-0.001]], [[0.345]], [[0.367]], [[0.327]], [[-0.295]], [[-0.297]], [[-0.425]]]> : tensor<8x1x1xf32>
    %rstd2 = arith.constant dense<[[[1.111]], [[0.928]], [[1.125]], [[1.034]], [[0.848]], [[1.269]], [[1.173]], [[1.321]]]> : tensor<8x1x1xf32>
    %gamma2 = arith.constant dense<[[[1.435]], [[1.447]], [[1.174]], [[1.437]], [[1.396]], [[1.107]], [[1.461]], [[0.847]]]> : tensor<8x1x1xf32>
    %beta2 = arith.constant dense<[[[-0.017]], [[-0.322]], [[-0.112]], [[0.232]], [[-0.368]], [[-0.363]], [[0.147]], [[0.018]]]> : tensor<8x1x1xf32>
    %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%a: index, %b: index, %c: index, %d: index):
      tensor.yield %c0 : f32
    } : tensor<1x4x16x16xf32> to tensor<1x4x18x18xf32>
    %e = tensor.empty() : tensor<1x8x16x16xf32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %conv1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w1 : tensor<1x4x18x18xf32>, tensor<8x4x3x3xf32>) outs(%z : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %bn1_0 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv1, %mean1 : tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %p: f32, %out: f32):
      %v = arith.subf %in, %p : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %bn1_1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn1_0, %rstd1 : tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %p: f32, %out: f32):
      %v = arith.mulf %in, %p : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %bn1_2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn1_1, %gamma1 : tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %p: f32, %out: f32):
      %v = arith.mulf %in, %p : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %bn1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn1_2, %beta1 : tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %p: f32, %out: f32):
      %v = arith.addf %in, %p : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %relu1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn1 : tensor<1x8x16x16xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %p = arith.cmpf ugt, %in, %c0 : f32
      %v = arith.select %p, %in, %c0 : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %conv2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%relu1, %w2 : tensor<1x8x16x16xf32>, tensor<8x8x1x1xf32>) outs(%z : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
    %bn2_0 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv2, %mean2 : tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %p: f32, %out: f32):
      %v = arith.subf %in, %p : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %bn2_1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn2_0, %rstd2 : tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %p: f32, %out: f32):
      %v = arith.mulf %in, %p : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %bn2_2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn2_1, %gamma2 : tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %p: f32, %out: f32):
      %v = arith.mulf %in, %p : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %bn2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn2_2, %beta2 : tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %p: f32, %out: f32):
      %v = arith.addf %in, %p : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    %relu2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn2 : tensor<1x8x16x16xf32>) outs(%e : tensor<1x8x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %p = arith.cmpf ugt, %in, %c0 : f32
      %v = arith.select %p, %in, %c0 : f32
      linalg.yield %v : f32
    } -> tensor<1x8x16x16xf32>
    return %relu2 : tensor<1x8x16x16xf32>
  }
}
