#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x1x8x8xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<"0xE6BB7DBE1C1DE73D20E5F5BDD0D62ABE627B13BE5230133E2492073E507C443ED8B6B93DC4FCAABD"> : tensor<10xf32>
    %cst_1 = arith.constant dense<"0x38A6FF3D1853563D96B347BEE86813BEF2D4703E547F2C3EB03EDFBDD4DC80BD78DD73BE803E93BB78C840BEA27745BE20B061BCA0BF193DF4ADD1BD98E7173E38C91BBE6849683ED06F2F3E64E157BE88DB7EBD80D2383C1867153DD0DD723D5CECC83DE059753CCCD1F9BDD445F23D569175BEA0BB17BE3C2B80BDEC66F9BD5C1DB3BDBAD251BE00D259BDF8E25A3D76C626BE403452BC0042373EF088D2BC80ACE33BC0ADB0BC103D4F3D60C6223EBA7E723E0693223EC40C733E601D94BC66F865BE40BAF2BDCE4F2E3E006BD4BADC7CFEBD022D44BE00946FBEEC1058BE70B44FBD56640C3E74670A3E02E576BE2EB01F3E8A5248BEF07B58BD1C9ACFBDF03C45BD100E49BDBAB865BE440A5DBE283C20BD80E1533BB896E8BDB8DEC03D3A6A66BEC0368ABCA221613E38D7D0BD362B673E386CB93DAE0767BE74F8213EF053ECBC708FE4BD14B64C3E54DF4EBEB0C2DB3CC06456BD16D0363E08EC8E3DCC04F63D40D1B43D003F76BD505A57BD00F752BE4CB60A3E26424B3E5C292F3EAC9334BE60AE363C907634BE88EC0CBE302C15BE34F9AE3DC48D18BE00BAB2BBA04F2C3C0406253EFA8341BE44BF2FBE3CA614BED62E333ECC0BB8BDE0EE573EA024B93D40AA013D00EDF3BA086D4ABD407A003D30D369BD003EE6BAC0A7023D983E48BE7A2D06BED8B74E3E86C14FBE200F93BCC03E7D3E10F4B83DC0F0E73B26DA5DBE2CA2FD3D085836BEA85691BDCCC8ABBD38A417BD8036333B9626533E80ABFF3C204C653E30991C3EC6D821BE54A2E53D24F734BE9CFFD8BD4097963DF00EA93DF20E403E28D2A4BD00D4D1397ACB033E5A9377BE4215393E30B153BE00D0613BE0182EBD0AD406BED857073DF2B0533EE8AA95BD56FC17BE845BBDBD"> : tensor<10x16xf32>
    %cst_2 = arith.constant dense<"0x3AC82C3E657EB43DB2E16EBEA4911CBE"> : tensor<4xf32>
    %cst_3 = arith.constant dense<"0xDF54AF3DF56B483EDFAF46BDA39C343EBF9C1BBD4750CC3C818B5A3ED6E65FBED9F117BE3B6A74BDDE29BCBDD388503EAE711CBE0936DEBD8D9F28BE2B0C62BE1EE40CBEC9784F3ED265D73DD5F5E93D62184B3C4F7BF7BD4A56233D115B61BEE0652EBE11DBF8BD5A48183E94830D3E4915D6BD4C570BBC225D1A3E6EF16F3E0F95BF3D6F6C023DF7D3213EE11C0EBE40E7333D86203BBE5C4827BE435DF9BDC06ADA3D5221C23D3DF80EBE25D5913DD97F043EAEB5F3BC8A72133C39B25F3DCABB153E69C0673E3DFF39BED1E6B0BD8AB6BD3D5BFA473E5008523E00F7543ECA22403DB7E151BE36A0B13CDDFE16BE85EF60BE1D72563E0F85373E31C370BEE6B3343D2FA322BD93DF1EBDB4F7DCBDDDA1B93D36F50EBED8F5B03D511DF43D"> : tensor<4x2x3x3xf32>
    %cst_4 = arith.constant dense<"0x568D23BB281B373E64778CBE56337BBE4E7703BEE60FB73DAB69D8BBDF51873E9654F2BC66A4B43D904FCEBD4B3086BDD00BA3BE180F62BE9BB40CBEAB4E4A3CEBF0063ECBCE4C3E"> : tensor<2x1x3x3xf32>
    %cst_5 = arith.constant dense<"0x666767BE53A314BE"> : tensor<2xf32>
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
    %9 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_7, %cst_3 : tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) outs(%broadcasted_8 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %10 = tensor.empty() : tensor<1x4x2x2xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
    %12 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%9, %4 : tensor<1x4x4x4xf32>, tensor<2x2xf32>) outs(%11 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<1x4x2x2xf32>) outs(%10 : tensor<1x4x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.divf %in, %cst_6 : f32
      linalg.yield %19 : f32
    } -> tensor<1x4x2x2xf32>
    %collapsed = tensor.collapse_shape %13 [[0], [1, 2, 3]] : tensor<1x4x2x2xf32> into tensor<1x16xf32>
    %14 = tensor.empty() : tensor<16x10xf32>
    %transposed = linalg.transpose ins(%cst_1 : tensor<10x16xf32>) outs(%14 : tensor<16x10xf32>) permutation = [1, 0] 
    %15 = tensor.empty() : tensor<1x10xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %17 = linalg.matmul ins(%collapsed, %transposed : tensor<1x16xf32>, tensor<16x10xf32>) outs(%16 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%17, %cst_0 : tensor<1x10xf32>, tensor<10xf32>) outs(%15 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_9: f32, %out: f32):
      %19 = arith.addf %in, %in_9 : f32
      linalg.yield %19 : f32
    } -> tensor<1x10xf32>
    return %18 : tensor<1x10xf32>
  }
}
