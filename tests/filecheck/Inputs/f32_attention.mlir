// timm's Attention (fused_attn: F.scaled_dot_product_attention), dim 8, 2 heads, 6 tokens,
// torch.manual_seed(37), exported by torch-mlir fx.export_and_import(output_type="linalg-on-tensors")
// (tests/unit/test_iree_attention_forms.py compiles it raw and after iree-prepare).
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @main(%arg0: tensor<1x6x8xf32>) -> tensor<1x6x8xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<1x2x6x6xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_8_torch.float32> : tensor<8xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_8_8_torch.float32> : tensor<8x8xf32>
    %cst_4 = arith.constant 0xFFF0000000000000 : f64
    %cst_5 = arith.constant 0.70710678118654757 : f64
    %cst_6 = arith.constant dense_resource<torch_tensor_24_torch.float32> : tensor<24xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_24_8_torch.float32> : tensor<24x8xf32>
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<1x6x8xf32> into tensor<6x8xf32>
    %0 = tensor.empty() : tensor<8x24xf32>
    %transposed = linalg.transpose ins(%cst_7 : tensor<24x8xf32>) outs(%0 : tensor<8x24xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<6x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<6x24xf32>) -> tensor<6x24xf32>
    %3 = linalg.matmul ins(%collapsed, %transposed : tensor<6x8xf32>, tensor<8x24xf32>) outs(%2 : tensor<6x24xf32>) -> tensor<6x24xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_6 : tensor<6x24xf32>, tensor<24xf32>) outs(%1 : tensor<6x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %40 = arith.addf %in, %in_25 : f32
      linalg.yield %40 : f32
    } -> tensor<6x24xf32>
    %expanded = tensor.expand_shape %4 [[0, 1], [2, 3, 4]] output_shape [1, 6, 3, 2, 4] : tensor<6x24xf32> into tensor<1x6x3x2x4xf32>
    %5 = tensor.empty() : tensor<3x1x2x6x4xf32>
    %transposed_8 = linalg.transpose ins(%expanded : tensor<1x6x3x2x4xf32>) outs(%5 : tensor<3x1x2x6x4xf32>) permutation = [2, 0, 3, 1, 4] 
    %extracted_slice = tensor.extract_slice %transposed_8[0, 0, 0, 0, 0] [1, 1, 2, 6, 4] [1, 1, 1, 1, 1] : tensor<3x1x2x6x4xf32> to tensor<1x1x2x6x4xf32>
    %extracted_slice_9 = tensor.extract_slice %transposed_8[1, 0, 0, 0, 0] [1, 1, 2, 6, 4] [1, 1, 1, 1, 1] : tensor<3x1x2x6x4xf32> to tensor<1x1x2x6x4xf32>
    %extracted_slice_10 = tensor.extract_slice %transposed_8[2, 0, 0, 0, 0] [1, 1, 2, 6, 4] [1, 1, 1, 1, 1] : tensor<3x1x2x6x4xf32> to tensor<1x1x2x6x4xf32>
    %collapsed_11 = tensor.collapse_shape %extracted_slice [[0, 1], [2], [3], [4]] : tensor<1x1x2x6x4xf32> into tensor<1x2x6x4xf32>
    %collapsed_12 = tensor.collapse_shape %extracted_slice_9 [[0, 1], [2], [3], [4]] : tensor<1x1x2x6x4xf32> into tensor<1x2x6x4xf32>
    %6 = tensor.empty() : tensor<1x2x6x4xf32>
    %7 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed_11 : tensor<1x2x6x4xf32>) outs(%6 : tensor<1x2x6x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.truncf %cst_5 : f64 to f32
      %41 = arith.mulf %in, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<1x2x6x4xf32>
    %8 = tensor.empty() : tensor<1x2x4x6xf32>
    %transposed_13 = linalg.transpose ins(%collapsed_12 : tensor<1x2x6x4xf32>) outs(%8 : tensor<1x2x4x6xf32>) permutation = [0, 1, 3, 2] 
    %9 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_13 : tensor<1x2x4x6xf32>) outs(%8 : tensor<1x2x4x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.truncf %cst_5 : f64 to f32
      %41 = arith.mulf %in, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<1x2x4x6xf32>
    %collapsed_14 = tensor.collapse_shape %7 [[0, 1], [2], [3]] : tensor<1x2x6x4xf32> into tensor<2x6x4xf32>
    %collapsed_15 = tensor.collapse_shape %9 [[0, 1], [2], [3]] : tensor<1x2x4x6xf32> into tensor<2x4x6xf32>
    %10 = tensor.empty() : tensor<2x6x6xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
    %12 = linalg.batch_matmul ins(%collapsed_14, %collapsed_15 : tensor<2x6x4xf32>, tensor<2x4x6xf32>) outs(%11 : tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
    %expanded_16 = tensor.expand_shape %12 [[0, 1], [2], [3]] output_shape [1, 2, 6, 6] : tensor<2x6x6xf32> into tensor<1x2x6x6xf32>
    %13 = tensor.empty() : tensor<1x2x6xi64>
    %14 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<1x2x6xi64>) -> tensor<1x2x6xi64>
    %15 = tensor.empty() : tensor<1x2x6xf32>
    %16 = linalg.fill ins(%cst_0 : f32) outs(%15 : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
    %17:2 = linalg.generic {indexing_maps = [#map2, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%expanded_16 : tensor<1x2x6x6xf32>) outs(%16, %14 : tensor<1x2x6xf32>, tensor<1x2x6xi64>) {
    ^bb0(%in: f32, %out: f32, %out_25: i64):
      %40 = linalg.index 3 : index
      %41 = arith.index_cast %40 : index to i64
      %42 = arith.maximumf %in, %out : f32
      %43 = arith.cmpf ogt, %in, %out : f32
      %44 = arith.select %43, %41, %out_25 : i64
      linalg.yield %42, %44 : f32, i64
    } -> (tensor<1x2x6xf32>, tensor<1x2x6xi64>)
    %expanded_17 = tensor.expand_shape %17#0 [[0], [1], [2, 3]] output_shape [1, 2, 6, 1] : tensor<1x2x6xf32> into tensor<1x2x6x1xf32>
    %18 = tensor.empty() : tensor<1x2x6x6xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_16, %expanded_17 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%18 : tensor<1x2x6x6xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %40 = arith.subf %in, %in_25 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x6x6xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<1x2x6x6xf32>) outs(%18 : tensor<1x2x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.exp %in : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x6x6xf32>
    %21 = tensor.empty() : tensor<1x2x6x1xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<1x2x6x1xf32>) -> tensor<1x2x6x1xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%20 : tensor<1x2x6x6xf32>) outs(%22 : tensor<1x2x6x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.addf %in, %out : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x6x1xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map4, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %23 : tensor<1x2x6x6xf32>, tensor<1x2x6x1xf32>) outs(%18 : tensor<1x2x6x6xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %40 = arith.divf %in, %in_25 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x6x6xf32>
    %25 = tensor.empty() : tensor<1x2x6x6xi1>
    %26 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_16 : tensor<1x2x6x6xf32>) outs(%25 : tensor<1x2x6x6xi1>) {
    ^bb0(%in: f32, %out: i1):
      %40 = arith.extf %in : f32 to f64
      %41 = arith.cmpf oeq, %40, %cst_4 : f64
      linalg.yield %41 : i1
    } -> tensor<1x2x6x6xi1>
    %27 = tensor.empty() : tensor<1x2x6x1xi1>
    %28 = linalg.fill ins(%true : i1) outs(%27 : tensor<1x2x6x1xi1>) -> tensor<1x2x6x1xi1>
    %29 = linalg.generic {indexing_maps = [#map2, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%26 : tensor<1x2x6x6xi1>) outs(%28 : tensor<1x2x6x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %40 = arith.andi %in, %out : i1
      linalg.yield %40 : i1
    } -> tensor<1x2x6x1xi1>
    %30 = linalg.generic {indexing_maps = [#map4, #map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29, %cst_1, %24 : tensor<1x2x6x1xi1>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) outs(%18 : tensor<1x2x6x6xf32>) {
    ^bb0(%in: i1, %in_25: f32, %in_26: f32, %out: f32):
      %40 = arith.select %in, %in_25, %in_26 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x6x6xf32>
    %collapsed_18 = tensor.collapse_shape %30 [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
    %collapsed_19 = tensor.collapse_shape %extracted_slice_10 [[0, 1, 2], [3], [4]] : tensor<1x1x2x6x4xf32> into tensor<2x6x4xf32>
    %31 = tensor.empty() : tensor<2x6x4xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
    %33 = linalg.batch_matmul ins(%collapsed_18, %collapsed_19 : tensor<2x6x6xf32>, tensor<2x6x4xf32>) outs(%32 : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
    %expanded_20 = tensor.expand_shape %33 [[0, 1], [2], [3]] output_shape [1, 2, 6, 4] : tensor<2x6x4xf32> into tensor<1x2x6x4xf32>
    %34 = tensor.empty() : tensor<1x6x2x4xf32>
    %transposed_21 = linalg.transpose ins(%expanded_20 : tensor<1x2x6x4xf32>) outs(%34 : tensor<1x6x2x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_22 = tensor.collapse_shape %transposed_21 [[0, 1], [2, 3]] : tensor<1x6x2x4xf32> into tensor<6x8xf32>
    %35 = tensor.empty() : tensor<8x8xf32>
    %transposed_23 = linalg.transpose ins(%cst_3 : tensor<8x8xf32>) outs(%35 : tensor<8x8xf32>) permutation = [1, 0] 
    %36 = tensor.empty() : tensor<6x8xf32>
    %37 = linalg.fill ins(%cst : f32) outs(%36 : tensor<6x8xf32>) -> tensor<6x8xf32>
    %38 = linalg.matmul ins(%collapsed_22, %transposed_23 : tensor<6x8xf32>, tensor<8x8xf32>) outs(%37 : tensor<6x8xf32>) -> tensor<6x8xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%38, %cst_2 : tensor<6x8xf32>, tensor<8xf32>) outs(%36 : tensor<6x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %40 = arith.addf %in, %in_25 : f32
      linalg.yield %40 : f32
    } -> tensor<6x8xf32>
    %expanded_24 = tensor.expand_shape %39 [[0, 1], [2]] output_shape [1, 6, 8] : tensor<6x8xf32> into tensor<1x6x8xf32>
    return %expanded_24 : tensor<1x6x8xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_8_torch.float32: "0x040000003BD0AC3E6CB08ABE95316C3E2B3B433E647289BE45A5883E61E04D3DEFC8063E",
      torch_tensor_8_8_torch.float32: "0x04000000F06E913C3CFEB83D9FE10F3ED6FB293ED5F225BE57BCA93E1A1EB1BE01D0C13CA1E4923EB55444BD23150F3EC879AE3EE0AD06BE0488963D3417A2BEED69F13CBA4793BDFB810EBE39F696BE6E3CB63BD81F15BE3B4D4EBEBF0AD5BD405408BE0B34D6BC25234EBE6421043E8006EF3D5163373E8BAC96BDCCA4AD3C88283CBE57CE2FBEC159803EB8F7D93D72C364BE6B5AADBD134C883E3A3AA4BD980BCBBC74D39F3DAA69E4BD9A3D51BE1B606F3E482747BD35A320BC88E5183ED7ABF6BD630E173ED3D8553D5453B1BD39A586BDF054BE3D9133A6BDDB6E14BEB629A83EE7C535BD47CDA43E38D0513EAB4D6E3E66E0A83D8A34003D13FBBCBD5C760E3D",
      torch_tensor_24_torch.float32: "0x0400000067FA873E7FC082BEB570ABBE43A5AD3D3C1357BECAA1BA39B3D8B63B1ECA1FBEE9C4543EC2A4673EC3F600BEB05D253E39231E3ED68D953E2FCC4B3EAA9029BEA78716BE7D0B89BE2638443E18E61C3E7BADA7BEE2320ABEA427B53DAF3BA2BE",
      torch_tensor_24_8_torch.float32: "0x0400000024CD523E2372CD3DF2D55F3E77E871BEE437D1BDDD37AC3D5A61A83EFE1E22BECDE72E3EB14A0C3EA63575BE839783BEB28867BC8C6D953EA57C773E70964CBEF1E462BEB50BB4BEBC60883E56B813BEECA19C3EF3628D3EAFE3A53DAAE295BED1FEBF3C2D50D5BD6011D53DB53DD4BD70D4D73DB3F113BCA207ABBDE99098BECFE3373DD48731BD6DFF4D3EB961AA3E5BF6BEBC41AE2FBEBE958D3E237B503DBE718BBEDF9E4DBE7A7D093CE6F8A73EB548A63E5EB83B3EF3EDBCBD28ACB3BECFC8FA3DCD302FBE2DAFAABD40264CBE02503ABE2B6F513E2DFD8DBC8CA654BE5C015F3EBEBE8A3E6257A3BE8D26503E3BA48EBCF9EC8ABEAED1933E5131843EFB7DA73DE65B873E2636B3BCDD9313BE3BC92ABEB434D2BD27178FBEBCC8C5BBE83E943E79CCEE3C057B903E3855A53EB245DFBDECBE983E6CDEDC3DAA5FEFBDFAFE983EEF21A1BE5BE790BE6CEB093EABB940BE7AEF5BBE7E7B9EBE2DD7923EDBB9663ED9ED5E3EA9B993BDA68938BE75C7B33C6D08DEBB72E4A6BE77644ABEB1425ABEE6FC48BEA666953ED5AC61BEFBBDB3BEEEB6AD3EEAA82EBE7DBC9EBEAA5085BEA192963E3909A73E4381C7BBDBB887BE735EA33DBD08DD3DDC4E92BEC35B0A3E091EF3BD2890E0BD7AB05BBEB0016C3EC86994BE6CDEF13D05A6DABD24B80ABDD6EE09BD1DF38D3E1E0165BEAB7363BEFDCC62BE7BA3A03E1B445ABCC157ACBE9558A4BE2ACC703E43AE8ABDE4F373BE3F35543E9B109ABD3E78C83D650480BE11985ABE7C74A83EB70A3139C495C33DEA19B63DC13C70BE209F8BBE0AD08BBEFC0EBD3B1B029F3E3F5AA73E8596F93C617391BDC887F53BFDE567BDF40415BEB92F8CBE70F925BECE7E0FBE1819A63E89FA6ABE28F55D3D6928603D388AAFBE8E3954BEB43C43BE62F64C3E531A773E09515C3E6A9B62BEC5AA5ABD2F7356BEE493603D2C4A9CBE7CE9943E6576973E12AA4E3E175E673D2FB7CA3C8EC8A3BE28BFB23D6077F3BD2386793E5C7877BEDF1F16BD9EE901BDE2335FBE837963BEC64D32BEE98D67BEC889B33E285590BDCB7A703ED218A1BED678AEBE"
    }
  }
#-}
