// spec: legalize-for-heir
// crash: second run: HeirpyError: error: pass 'legalize-for-heir' failed: Operation insertion point must have a parent block at api.py:104 (cause ValueError at rewriter.py:48)
// layers: ['pad(0, 1, 0)(0, 5, 0)', 'conv2x2x3x2/s2,1/d2,1/dense', 'pad(1, 3)(2, 0)', 'depthwise2x2x2/s3,3/d2,3/dense', 'pad(0, 1, 1)(0, 0, 0)', 'conv4x2x3x2/s2,1/d1,1/dense', 'map_add[0, 3]']
module {
  func.func @main(%arg0: tensor<1x2x12x6xf32>, %arg1: tensor<2xf32>, %arg2: tensor<4xf32>, %arg3: tensor<1x1x1x2xf32>) -> tensor<1x4x1x2xf32> {
    %cst1 = arith.constant 0.000000e+00 : f32
    %padded2 = tensor.pad %arg0 low[0, 0, 1, 0] high[0, 0, 5, 0] {
    ^bb0(%i3: index, %i4: index, %i5: index, %i6: index):
      tensor.yield %cst1 : f32
    } : tensor<1x2x12x6xf32> to tensor<1x2x18x6xf32>
    %cst7 = arith.constant dense<[[[[0.15625, 0.3125], [0.359375, -0.140625], [-0.1875, 0.0]], [[-0.15625, 0.078125], [0.1875, 0.59375], [-0.25, 0.078125]]], [[[-0.078125, 0.640625], [0.15625, 0.359375], [0.28125, 0.0625]], [[-0.265625, -0.265625], [-0.578125, -0.265625], [-0.296875, 0.28125]]]]> : tensor<2x2x3x2xf32>
    %v8 = tensor.empty() : tensor<1x2x7x5xf32>
    %broadcasted9 = linalg.broadcast ins(%arg1 : tensor<2xf32>) outs(%v8 : tensor<1x2x7x5xf32>) dimensions = [0, 2, 3]
    %v10 = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%padded2, %cst7 : tensor<1x2x18x6xf32>, tensor<2x2x3x2xf32>) outs(%broadcasted9 : tensor<1x2x7x5xf32>) -> tensor<1x2x7x5xf32>
    %padded11 = tensor.pad %v10 low[0, 0, 1, 3] high[0, 0, 2, 0] {
    ^bb0(%i12: index, %i13: index, %i14: index, %i15: index):
      tensor.yield %cst1 : f32
    } : tensor<1x2x7x5xf32> to tensor<1x2x10x8xf32>
    %cst16 = arith.constant dense<[[[-0.59375, 0.09375], [0.234375, 0.046875]], [[-0.328125, -0.25], [0.5625, -0.625]]]> : tensor<2x2x2xf32>
    %v17 = tensor.empty() : tensor<1x2x3x2xf32>
    %v18 = linalg.fill ins(%cst1 : f32) outs(%v17 : tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
    %v19 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[2, 3]> : vector<2xi64>, strides = dense<3> : vector<2xi64>} ins(%padded11, %cst16 : tensor<1x2x10x8xf32>, tensor<2x2x2xf32>) outs(%v18 : tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
    %padded20 = tensor.pad %v19 low[0, 0, 1, 1] high[0, 0, 0, 0] {
    ^bb0(%i21: index, %i22: index, %i23: index, %i24: index):
      tensor.yield %cst1 : f32
    } : tensor<1x2x3x2xf32> to tensor<1x2x4x3xf32>
    %cst25 = arith.constant dense<[[[[0.046875, -0.09375], [0.515625, -0.03125], [0.15625, 0.4375]], [[-0.25, 0.125], [0.28125, 0.296875], [0.125, 0.046875]]], [[[-0.546875, -0.0], [0.078125, -0.28125], [0.0, -0.09375]], [[0.390625, -0.3125], [-0.140625, -0.0], [-0.046875, -0.515625]]], [[[-0.34375, 0.3125], [-0.21875, -0.125], [-0.234375, -0.078125]], [[-0.28125, -0.25], [-0.109375, -0.203125], [0.59375, -0.15625]]], [[[0.296875, 0.453125], [-0.25, -0.3125], [0.25, 0.125]], [[0.390625, -0.375], [-0.28125, -0.078125], [-0.140625, 0.40625]]]]> : tensor<4x2x3x2xf32>
    %v26 = tensor.empty() : tensor<1x4x1x2xf32>
    %broadcasted27 = linalg.broadcast ins(%arg2 : tensor<4xf32>) outs(%v26 : tensor<1x4x1x2xf32>) dimensions = [0, 2, 3]
    %v28 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%padded20, %cst25 : tensor<1x2x4x3xf32>, tensor<4x2x3x2xf32>) outs(%broadcasted27 : tensor<1x4x1x2xf32>) -> tensor<1x4x1x2xf32>
    %v29 = tensor.empty() : tensor<1x4x1x2xf32>
    %v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v28, %arg3 : tensor<1x4x1x2xf32>, tensor<1x1x1x2xf32>) outs(%v29 : tensor<1x4x1x2xf32>) {
    ^bb0(%in31: f32, %in32: f32, %out33: f32):
      %v34 = arith.addf %in31, %in32 : f32
      linalg.yield %v34 : f32
    } -> tensor<1x4x1x2xf32>
    return %v30 : tensor<1x4x1x2xf32>
  }
}
