#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<2x6xf32>) -> tensor<2x3xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense_resource<torch_tensor_3_torch.float32> : tensor<3xf32>
    %cst_1 = arith.constant dense_resource<torch_tensor_3_5_torch.float32> : tensor<3x5xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_5_torch.float32> : tensor<5xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_5_6_torch.float32> : tensor<5x6xf32>
    %0 = tensor.empty() : tensor<6x5xf32>
    %transposed = linalg.transpose ins(%cst_3 : tensor<5x6xf32>) outs(%0 : tensor<6x5xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<2x5xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2x5xf32>) -> tensor<2x5xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<2x6xf32>, tensor<6x5xf32>) outs(%2 : tensor<2x5xf32>) -> tensor<2x5xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_2 : tensor<2x5xf32>, tensor<5xf32>) outs(%1 : tensor<2x5xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %10 = arith.addf %in, %in_5 : f32
      linalg.yield %10 : f32
    } -> tensor<2x5xf32>
    %5 = tensor.empty() : tensor<5x3xf32>
    %transposed_4 = linalg.transpose ins(%cst_1 : tensor<3x5xf32>) outs(%5 : tensor<5x3xf32>) permutation = [1, 0] 
    %6 = tensor.empty() : tensor<2x3xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = linalg.matmul ins(%4, %transposed_4 : tensor<2x5xf32>, tensor<5x3xf32>) outs(%7 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %cst_0 : tensor<2x3xf32>, tensor<3xf32>) outs(%6 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %10 = arith.addf %in, %in_5 : f32
      linalg.yield %10 : f32
    } -> tensor<2x3xf32>
    return %9 : tensor<2x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_3_torch.float32: "0x04000000FC98963EDADD59BD58132ABE",
      torch_tensor_3_5_torch.float32: "0x04000000A513DE3E92F7ADBD253B9ABCC164A6BE16980C3E512A913E9CBFE1BEA839A1BE339AA93EE1D9D83DD768E4BC39B9A33D13418BBD5B0BA0BEA5F5D5BE",
      torch_tensor_5_torch.float32: "0x04000000B605383E72E13FBEFD4595BEA9FEBABE75E5A53C",
      torch_tensor_5_6_torch.float32: "0x04000000F25DF8BDD512C13E8B2D453E6292863EF42D8E3E1A249CBE95AC41BD1D2E743D1E76D93D19F9563EEC5726BE551CFCBDF7E5AE3EE664E0BD343291BEDBB98D3E8A8A8D3EE21503BED426A7BDE73B9ABECD8DAEBEC3341D3E159632BE0267A63E1A5EA7BE4E2367BDFD6B103C8BDA563E392BA93E298D8D3E"
    }
  }
#-}
