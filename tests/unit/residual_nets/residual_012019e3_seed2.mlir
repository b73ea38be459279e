// 1x8x8 stem 2 [4/2A] p2 bn:conv folded; bound 7
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x1x8x8xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense_resource<torch_tensor_10_torch.float32> : tensor<10xf32>
    %cst_1 = arith.constant dense_resource<torch_tensor_10_4_torch.float32> : tensor<10x4xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_4_torch.float32_1> : tensor<4xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_4_4_3_3_torch.float32> : tensor<4x4x3x3xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_4_2_3_3_torch.float32> : tensor<4x2x3x3xf32>
    %cst_6 = arith.constant dense_resource<torch_tensor_2_1_3_3_torch.float32> : tensor<2x1x3x3xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
    %cst_8 = arith.constant 1.250000e-01 : f32
    %cst_9 = arith.constant 5.000000e-01 : f32
    %cst_10 = arith.constant 2.500000e-01 : f32
    %cst_11 = arith.constant 1.600000e+01 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
    %0 = tensor.empty() : tensor<1x2x8x8xf32>
    %broadcasted = linalg.broadcast ins(%cst_7 : tensor<2xf32>) outs(%0 : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_6 : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%broadcasted : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.mulf %in, %cst_8 : f32
      linalg.yield %30 : f32
    } -> tensor<1x2x8x8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %1 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %30 = arith.mulf %in, %in_18 : f32
      linalg.yield %30 : f32
    } -> tensor<1x2x8x8xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.mulf %in, %cst_9 : f32
      linalg.yield %30 : f32
    } -> tensor<1x2x8x8xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %4 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %30 = arith.addf %in, %in_18 : f32
      linalg.yield %30 : f32
    } -> tensor<1x2x8x8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5 : tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %cst_10 : f32
      linalg.yield %30 : f32
    } -> tensor<1x2x8x8xf32>
    %padded_12 = tensor.pad %6 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
    %7 = tensor.empty() : tensor<1x4x4x4xf32>
    %broadcasted_13 = linalg.broadcast ins(%cst_4 : tensor<4xf32>) outs(%7 : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3] 
    %8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_12, %cst_5 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%broadcasted_13 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.mulf %in, %cst_8 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %8 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %30 = arith.mulf %in, %in_18 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.mulf %in, %cst_9 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %11 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %30 = arith.addf %in, %in_18 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %cst_10 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %padded_14 = tensor.pad %13 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
    %broadcasted_15 = linalg.broadcast ins(%cst_2 : tensor<4xf32>) outs(%7 : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3] 
    %14 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_14, %cst_3 : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%broadcasted_15 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %extracted_slice = tensor.extract_slice %6[0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 2, 1] : tensor<1x2x8x8xf32> to tensor<1x2x4x8xf32>
    %extracted_slice_16 = tensor.extract_slice %extracted_slice[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 2] : tensor<1x2x4x8xf32> to tensor<1x2x4x4xf32>
    %padded_17 = tensor.pad %extracted_slice_16 low[0, 1, 0, 0] high[0, 1, 0, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x4x4xf32> to tensor<1x4x4x4xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %padded_17 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %30 = arith.addf %in, %in_18 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.mulf %in, %cst_8 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16, %15 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %30 = arith.mulf %in, %in_18 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.mulf %in, %cst_9 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %18 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %30 = arith.addf %in, %in_18 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<1x4x4x4xf32>) outs(%7 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %cst_10 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x4x4xf32>
    %21 = tensor.empty() : tensor<1x4x1x1xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%20 : tensor<1x4x4x4xf32>) outs(%22 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.addf %in, %out : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x1x1xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23 : tensor<1x4x1x1xf32>) outs(%21 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %30 = arith.divf %in, %cst_11 : f32
      linalg.yield %30 : f32
    } -> tensor<1x4x1x1xf32>
    %collapsed = tensor.collapse_shape %24 [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
    %25 = tensor.empty() : tensor<4x10xf32>
    %transposed = linalg.transpose ins(%cst_1 : tensor<10x4xf32>) outs(%25 : tensor<4x10xf32>) permutation = [1, 0] 
    %26 = tensor.empty() : tensor<1x10xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %28 = linalg.matmul ins(%collapsed, %transposed : tensor<1x4xf32>, tensor<4x10xf32>) outs(%27 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%28, %cst_0 : tensor<1x10xf32>, tensor<10xf32>) outs(%26 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %30 = arith.addf %in, %in_18 : f32
      linalg.yield %30 : f32
    } -> tensor<1x10xf32>
    return %29 : tensor<1x10xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_10_torch.float32: "0x04000000B4CCAEBE306BB83E06EEC3BEF41896BEAC9E473E726D8C3EAC0134BE1E2A94BE5435443EA401253E",
      torch_tensor_10_4_torch.float32: "0x04000000480EE2BEF4FCA6BE409C273CA0BEEABDD82F9FBD2087913E143B403E6006D9BD208228BE8439B9BE34C3833E5AF5B3BE9CBD1E3ED82CBABD3251C73E0657A3BEB84BA7BEF0686C3D40B5703CB83B5CBE2CAEFF3E460BDBBE1CBA8A3E0041793ED841ECBD5C61353EF806ACBD3465C0BE8E6CA93E80FE05BE787096BDA4D8FA3EBAE7F73E628FBEBE4C2006BE38F7903E28AB9E3E4CF9BABE6036BABE188C563E",
      torch_tensor_4_torch.float32_1: "0x04000000C83E48BCE01F593A70BBB2BB0103203D",
      torch_tensor_4_4_3_3_torch.float32: "0x040000005A825DBD533A86BC747852BC7AA09E3D0B1EB3BB1917413D7C5F823DE2A31E3D0BD49ABDC570853D82D06A3DE4417FBDFDEEFDBC2D5B723D6212ADBD600B9CBD6E5571BDFBE7DD3C0D6911BD1BC89EBDA2060A3D951C343D6D5F053DCA8998BDE55BAD3DB5EDD6BBCB73A9BDA86A56BCA292683DC8FB233DD48C73BAF0047B3D3870A2BDD50F773DE7BAB03D7A8458BD971C883CFDA74CBC83EC85BDFC0432BA7CA8D4BCCC8087BDE03167BD2A8ADD3A5012933D1532E33CC11953BD86D85A3DEA59D03B13049BBDA1CE703B7AAD4B3D84903ABD609469BB7D131EBD382E7ABDEE4834BDF0E3FE3BBE184D3D6DD56BBC2EAB8EBD6FD22DBA9BF989BD571A953BC63D6B3D6C69073DF10F42BD1F0C8CBCE818FE3CD525AC3C320495BD45FB38BD859B8CBD351B923D709E313EA02AB13D7230963D4FAF28BE58A1003E57638E3D39B17FBD26C3BEBD7E0E623D8F81D7BDC364A13D5C07183E742A03BE5101F8BDE92BA5BDDE322ABECD62B6BC2FA1F73DA2CD943D121F80BDCF6DC5BC66E4ACBD8C7820BE7E0759BD9F815B3C379FC9BD9FED14BECF44683D6841EA3C325777BD19B9593D24B9373E0AAE2D3C223F08BE3CFC013EC44FCA3D27A956BC56FA7DBD1A3F6DBDDF24F53D55DC923D729290BDAD86B33B30A8E63C70A2143DA97BFEBB422393BD2B5C8ABB23511BBDA9C13CBD2A5D8BBD3A5188BD907984BDC38E5D3D79AEEDBD28B205BE0E75F03D41DA493D7D7E9B3DE644753D007756BDFB90B0BD28A3BFBDFDED0DBC34740B3D15AC03BE12DCD7BD1B3F9E3D2D30903CD56EB93D",
      torch_tensor_4_torch.float32: "0x040000000694373EA4A938BDF3CBE7BC4FE0D53B",
      torch_tensor_4_2_3_3_torch.float32: "0x040000005C7A6ABCB5F12ABE8C082DBE885114BE6CA98ABE222046BE9CB28F3D50EC483E31A0703CB0F00BBE1B2B063EDB61EABDE14087BD3A5C27BEB0B8BFBD6F708DBE3D43023EA169ED3D036A233D88F6C93D6557AE3DFA97113C5141AE3C69497B3C3D7EDB3DFA280A3EFCB3133E146BEE3D779448BD437F12BC773027BDFD4AEF3DADBBB63C9B5B3E3EA4A1D03DB9C72FBE93DEFA3C9F01CE3D4F6FBE3D5BA0D7BAA6400E3D011DC9BDCEB208BD3518513D3E4EC3BD06C8BA3DBCFD8CBDC397073DBADD81BBC11E973C3B2C263C526CC8BD4135B8BC718587BD3A2E163E7D78ADBCFFE42FBE84232B3DB56D993D9D289EBDF49184BC71BC983DADD3DBBDE0C2BABDB35388BC961BF8BD8823D93D042D673CD061D33D6924BD3D5C2308BE0A36DCBD",
      torch_tensor_2_1_3_3_torch.float32: "0x040000009E12A03D1A10A6BDA45CBF3D81928EBCBD0C153EB121A63D3A6820BD430A8DBE72529F3D108F8EBE134D293DAF37AB3CFEA18DBD8AAA833EAAEFAB3C2D8B053E4949083E81FB3DBE",
      torch_tensor_2_torch.float32: "0x04000000A409F43C7EE683BD"
    }
  }
#-}
