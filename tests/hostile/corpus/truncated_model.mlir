// EXPECT: error
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x1x8x8xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense_resource<torch_tensor_10_torch.float32> : tensor<10xf32>
    %cst_1 = arith.constant dense_resource<torch_tensor_10_16_torch.float32> : tensor<10x16xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_4_2_3_3_torch.float32> : tensor<4x2x3x3xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_2_1_3_3_torch.float32> : tensor<2x1x3x3xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
    %cst_6 = arith.constant 4.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
    %0 = tensor.empty() : tensor<1x2x8x8xf32>
    %broadcasted = linalg.broadcast ins(%cst_5 : tensor<2xf32>) outs(%0 : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_4 : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%broadcasted : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %2 = tensor.empty() : tensor<1x2x4x4xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %4 = tensor.empty() : tensor<2x2xf32>
    %5 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%1, %4 : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%3 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<1x2x4x4xf32>) outs(%2 : tensor<1x2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.divf %in, %cst_6 : f32
      linalg.yield %19 : f32
    } -> tensor<1x2x4x4xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %6 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%2 : tensor<1x2x4x4xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %19 = arith.mulf %in, %in_9 : f32
      linalg.yield %19 : f32
    } -> tensor<1x2x4x4xf32>
    %padded_7 = tensor.pad %7 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
    %8 = tensor.empty() : tensor<1x4x4x4xf32>
    %broadcasted_8 = linalg.broadcast ins(%cst_2 : tensor<4xf32>) outs(%8 : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3] 
    %9 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2x