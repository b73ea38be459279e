// 3x8x8 stem 2 [2/1B] x² bn:none; bound 7
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x3x8x8xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense_resource<torch_tensor_10_torch.float32> : tensor<10xf32>
    %cst_1 = arith.constant dense_resource<torch_tensor_10_2_torch.float32> : tensor<10x2xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_2_torch.float32_3> : tensor<2xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_2_2_1_1_torch.float32> : tensor<2x2x1x1xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_2_torch.float32_2> : tensor<2xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_2_2_3_3_torch.float32_1> : tensor<2x2x3x3xf32>
    %cst_6 = arith.constant dense_resource<torch_tensor_2_torch.float32_1> : tensor<2xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_2_2_3_3_torch.float32> : tensor<2x2x3x3xf32>
    %cst_8 = arith.constant dense_resource<torch_tensor_2_3_3_3_torch.float32> : tensor<2x3x3x3xf32>
    %cst_9 = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
    %cst_10 = arith.constant 6.400000e+01 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
    %0 = tensor.empty() : tensor<1x2x8x8xf32>
    %broadcasted = linalg.broadcast ins(%cst_9 : tensor<2xf32>) outs(%0 : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_8 : tensor<1x3x10x10xf32>, tensor<2x3x3x3xf32>) outs(%broadcasted : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %1 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %18 = arith.mulf %in, %in_16 : f32
      linalg.yield %18 : f32
    } -> tensor<1x2x8x8xf32>
    %padded_11 = tensor.pad %2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
    %broadcasted_12 = linalg.broadcast ins(%cst_6 : tensor<2xf32>) outs(%0 : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3] 
    %3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_11, %cst_7 : tensor<1x2x10x10xf32>, tensor<2x2x3x3xf32>) outs(%broadcasted_12 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %3 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %18 = arith.mulf %in, %in_16 : f32
      linalg.yield %18 : f32
    } -> tensor<1x2x8x8xf32>
    %padded_13 = tensor.pad %4 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
    %broadcasted_14 = linalg.broadcast ins(%cst_4 : tensor<2xf32>) outs(%0 : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3] 
    %5 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_13, %cst_5 : tensor<1x2x10x10xf32>, tensor<2x2x3x3xf32>) outs(%broadcasted_14 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %broadcasted_15 = linalg.broadcast ins(%cst_2 : tensor<2xf32>) outs(%0 : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3] 
    %6 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%2, %cst_3 : tensor<1x2x8x8xf32>, tensor<2x2x1x1xf32>) outs(%broadcasted_15 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %6 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %18 = arith.addf %in, %in_16 : f32
      linalg.yield %18 : f32
    } -> tensor<1x2x8x8xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %7 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %18 = arith.mulf %in, %in_16 : f32
      linalg.yield %18 : f32
    } -> tensor<1x2x8x8xf32>
    %9 = tensor.empty() : tensor<1x2x1x1xf32>
    %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%8 : tensor<1x2x8x8xf32>) outs(%10 : tensor<1x2x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.addf %in, %out : f32
      linalg.yield %18 : f32
    } -> tensor<1x2x1x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<1x2x1x1xf32>) outs(%9 : tensor<1x2x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %18 = arith.divf %in, %cst_10 : f32
      linalg.yield %18 : f32
    } -> tensor<1x2x1x1xf32>
    %collapsed = tensor.collapse_shape %12 [[0], [1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<1x2xf32>
    %13 = tensor.empty() : tensor<2x10xf32>
    %transposed = linalg.transpose ins(%cst_1 : tensor<10x2xf32>) outs(%13 : tensor<2x10xf32>) permutation = [1, 0] 
    %14 = tensor.empty() : tensor<1x10xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %16 = linalg.matmul ins(%collapsed, %transposed : tensor<1x2xf32>, tensor<2x10xf32>) outs(%15 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %17 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%16, %cst_0 : tensor<1x10xf32>, tensor<10xf32>) outs(%14 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %18 = arith.addf %in, %in_16 : f32
      linalg.yield %18 : f32
    } -> tensor<1x10xf32>
    return %17 : tensor<1x10xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_10_torch.float32: "0x040000005766853D812F473D15FAD9BDC82396BE40F30BBF8EED093E37370DBF75EE9ABE6DFEB53E8E76173F",
      torch_tensor_10_2_torch.float32: "0x040000000466F33E2F3C3BBEF76E7E3DF2D26A3EBCE429BF4B5D0B3EEEDFC43ED5EC8E3EC7048E3C409695BD42E1633EE5355B3E2668AEBEBF4F8D3EE2041BBF3AB0E33CBAF478BE6A7B97BE7BCF12BF404B0E3F",
      torch_tensor_2_torch.float32_3: "0x040000000FE8103F7831CBBD",
      torch_tensor_2_2_1_1_torch.float32: "0x04000000B00AB2BB75BD18BE10127B3E3DA312BD",
      torch_tensor_2_torch.float32_2: "0x04000000001F1BBD6FFB533E",
      torch_tensor_2_2_3_3_torch.float32_1: "0x04000000715B553E787FC9BDB9C36ABE8F65EC3D58D0683E7FCD2FBEBC00F3BD47A74E3EAF823C3EA1ACB8BC63C309BEC1FD303D89656CBE33ABBEBDE3DFF9BC1E1966BDDDE6C63D186EA33BB9293EBE526ABDBCC161B33CB2CE163E6470593C8F52A8BDF900BC3D7C6EDE3DE83E373DC39A01BE5F94823DA0040A3D737C073EC3E483BD4ED17ABC47E2FB3D6A4200BD12EAFB3D",
      torch_tensor_2_torch.float32_1: "0x04000000366E0A3EC525263E",
      torch_tensor_2_2_3_3_torch.float32: "0x04000000D8D7EC3DA0F0553E34FDED3C03BE233E93872BBE2B12103E508368BEC63A1D3E4556D13CAE16153E30AEBE3D5DF926BE7669203B083BF43C3BCA0A3DC45253BE47D3F3BD1F63E3BDFF3003BEAE844D3E5E87083E51C4C63DD3B590BD60D443BE56724D3D63015F3E9ED5D63D74DC42BE3D2FABBCE2D91C3C272D193E62ECCB3D45352ABEB69D63BE0D558F3D5CA7EB3D",
      torch_tensor_2_3_3_3_torch.float32: "0x04000000F20BBC3C0B53BA3CB50521BEEF98E4BDB53B42BE69B635BEB544423ED0D2223E27F23A3D79F93A3E44BF8EBD3FCBE0BD5E01283E760127BCD8AF153DDFFFE83DC6B2CF3D5FAEE1BD786D98BD9EDF35BE6EEB0A3CEE4D8DBD9849293DC0B1123C2702283E87C8873C2585C53DE3BD783D5FD82E3EA1D8A3BD5F8C243EE8580D3EE14E9DBDCE98F13D8230363EC5DADEBD05BC99BDBDD0063E7FE61E3EF5F14F3D1F11723D68F6113E1CB52C3E3746F9BD831FA2BD02ED253EBAE1D43DE1EEB8BD99BB85BDCE3E3F3E98DBF6BDDF8AFD3D74B5E43D9BFF3CBE",
      torch_tensor_2_torch.float32: "0x04000000F1B844BE97D7823D"
    }
  }
#-}
