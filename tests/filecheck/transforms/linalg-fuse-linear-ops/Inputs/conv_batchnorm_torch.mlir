#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {
  func.func @main(%arg0: tensor<2x2x6x6xf32>) -> tensor<2x3x4x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_3_torch.float32_4> : tensor<3xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_3_torch.float32_3> : tensor<3xf32>
    %cst_3 = arith.constant 1.000000e-05 : f64
    %cst_4 = arith.constant dense_resource<torch_tensor_3_torch.float32_2> : tensor<3xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_3_torch.float32_1> : tensor<3xf32>
    %cst_6 = arith.constant dense_resource<torch_tensor_3_2_3_3_torch.float32> : tensor<3x2x3x3xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_3_torch.float32> : tensor<3xf32>
    %0 = tensor.empty() : tensor<2x3x4x4xf32>
    %broadcasted = linalg.broadcast ins(%cst_7 : tensor<3xf32>) outs(%0 : tensor<2x3x4x4xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %cst_6 : tensor<2x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%broadcasted : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %2 = tensor.empty() : tensor<3xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_4 : tensor<3xf32>) outs(%2 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.truncf %cst_3 : f64 to f32
      %11 = arith.addf %in, %10 : f32
      linalg.yield %11 : f32
    } -> tensor<3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%3 : tensor<3xf32>) outs(%2 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = math.sqrt %in : f32
      linalg.yield %10 : f32
    } -> tensor<3xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%4 : tensor<3xf32>) outs(%2 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.cmpf one, %in, %cst : f32
      cf.assert %10, "unimplemented: tensor with zero element"
      %11 = arith.divf %cst_0, %in : f32
      linalg.yield %11 : f32
    } -> tensor<3xf32>
    %expanded = tensor.expand_shape %cst_5 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %expanded_8 = tensor.expand_shape %5 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %expanded : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%0 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %10 = arith.subf %in, %in_11 : f32
      linalg.yield %10 : f32
    } -> tensor<2x3x4x4xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %expanded_8 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%0 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %10 = arith.mulf %in, %in_11 : f32
      linalg.yield %10 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_9 = tensor.expand_shape %cst_2 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_9 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%0 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %10 = arith.mulf %in, %in_11 : f32
      linalg.yield %10 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_10 = tensor.expand_shape %cst_1 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_10 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%0 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %10 = arith.addf %in, %in_11 : f32
      linalg.yield %10 : f32
    } -> tensor<2x3x4x4xf32>
    return %9 : tensor<2x3x4x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_3_torch.float32_4: "0x0400000048CD83BFB43100BFDBF68B3E",
      torch_tensor_3_torch.float32_3: "0x0400000053D4DCBE7B000EC09F99843E",
      torch_tensor_3_torch.float32_2: "0x040000001CD86F3F9171823F40D48E3F",
      torch_tensor_3_torch.float32_1: "0x04000000D3DDEF3F411AB1BFB8CF07BF",
      torch_tensor_3_2_3_3_torch.float32: "0x040000002E4CE7BABE79013E42A646BE27A031BEC9EBB9BDC771813DE50699BB015F3F3E7D5AABBC74777F3D3EE291BD7AC53DBD029566BE0BD91FBED4FCC6BD880D0F3CE4D5BE3D2BD2103E94A023BEB234D2BDDF54AF3DF56B483EDFAF46BDA39C343EBF9C1BBD4750CC3C818B5A3ED6E65FBED9F117BE3B6A74BDDE29BCBDD388503EAE711CBE0936DEBD8D9F28BE2B0C62BE1EE40CBEC9784F3ED265D73DD5F5E93D62184B3C4F7BF7BD4A56233D115B61BEE0652EBE11DBF8BD5A48183E94830D3E4915D6BD4C570BBC225D1A3E6EF16F3E0F95BF3D6F6C023D",
      torch_tensor_3_torch.float32: "0x04000000F7D3213EE11C0EBE40E7333D"
    }
  }
#-}
