#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @main(%arg0: tensor<1x2x8x8xf32>) -> tensor<1x4x5x5xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_1 = arith.constant dense_resource<torch_tensor_4_3_2_2_torch.float32> : tensor<4x3x2x2xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_3_2_3_3_torch.float32> : tensor<3x2x3x3xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_3_torch.float32> : tensor<3xf32>
    %0 = tensor.empty() : tensor<1x3x6x6xf32>
    %broadcasted = linalg.broadcast ins(%cst_3 : tensor<3xf32>) outs(%0 : tensor<1x3x6x6xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %cst_2 : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) outs(%broadcasted : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x3x6x6xf32>) outs(%0 : tensor<1x3x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.cmpf ugt, %in, %cst : f32
      %6 = arith.select %5, %in, %cst : f32
      linalg.yield %6 : f32
    } -> tensor<1x3x6x6xf32>
    %3 = tensor.empty() : tensor<1x4x5x5xf32>
    %broadcasted_4 = linalg.broadcast ins(%cst_0 : tensor<4xf32>) outs(%3 : tensor<1x4x5x5xf32>) dimensions = [0, 2, 3] 
    %4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%2, %cst_1 : tensor<1x3x6x6xf32>, tensor<4x3x2x2xf32>) outs(%broadcasted_4 : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
    return %4 : tensor<1x4x5x5xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.float32: "0x04000000276CEFBDE0D920BE06B11DBE52B8CCBC",
      torch_tensor_4_3_2_2_torch.float32: "0x040000005A0C7D3E5DF900BC77EECCBDAFA436BE1184533EBED9A2BC76338B3E4392283E195F813EB6CC693E751840BE280CAD3D2C26F5BDE651143EFF9ED4BC0BB9CC3C1E714CBE191884BEE8A1DE3D4763893D5C6ACD3CADC5483E6EDFF6BDF6DDD13D95CE22BEF7FE743DBCF886BDD7044F3EFE3F813E875E803E80C2543CB3502E3EA0AC93BE32662DBE2053533D5B04D33AF71168BE64D602BE11100ABEB16F92BE0C89E13CD382493EFBF2EF3D6D730CBE9CB887BE697C6EBE6D76AF3B76594B3E",
      torch_tensor_3_2_3_3_torch.float32: "0x040000009D3179BD90A403BE1DF98EBDA72F4FBE9B9E343E471DC53DF671F3BD14C2A4BDC490D83DD0C0B2BD5A947E3D91E9843D16EF17BEE2D7713D18476C3C96CC523E38A8AEBDEE2E78BD86F44F3E2C1845BEAA808B3CD18C683E756FD8BDFE62673EF22A563EC48B603EF83FB8BC6C575A3E6654D2BDA93CA5BD6C94B63D1DF24B3D2E0E053E445E653E921617BE8118003E1B80A13DB0AAFE3D43E4E43D0492B4BD77C23EBE1F2E413EAEA109BEB44E1A3EE0ED65BED50527BD93B8233B140B273D8A139C3C881B983D03FED6BC8C706C3D5FD86E3E022C1CBE",
      torch_tensor_3_torch.float32: "0x04000000C2D652BCC243B8BD90C6533E"
    }
  }
#-}
