// torch-mlir 20261001's f16 export (fx.export_and_import, linalg-on-tensors) of a PyTorch net,
// random weights, eval mode, .half(): Conv2d(1, 4, 3, padding=1) -> BatchNorm2d(4) -> AvgPool2d(2)
// -> x * x -> flatten -> Linear(64, 10), on a 1x1x8x8 input (.npz: arg0 and PyTorch's f16 result0).
// tests/unit/test_export_orion.py exports it to Orion as the f32 twin would be.
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x1x8x8xf16>) -> tensor<1x10xf16> {
    %cst = arith.constant 0.000000e+00 : f16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense_resource<torch_tensor_10_torch.float16> : tensor<10xf16>
    %cst_3 = arith.constant dense_resource<torch_tensor_10_64_torch.float16> : tensor<10x64xf16>
    %cst_4 = arith.constant dense_resource<torch_tensor_4_torch.float16_4> : tensor<4xf16>
    %cst_5 = arith.constant dense_resource<torch_tensor_4_torch.float16_3> : tensor<4xf16>
    %cst_6 = arith.constant 1.000000e-05 : f64
    %cst_7 = arith.constant dense_resource<torch_tensor_4_torch.float16_2> : tensor<4xf16>
    %cst_8 = arith.constant dense_resource<torch_tensor_4_torch.float16_1> : tensor<4xf16>
    %cst_9 = arith.constant dense_resource<torch_tensor_4_1_3_3_torch.float16> : tensor<4x1x3x3xf16>
    %cst_10 = arith.constant dense_resource<torch_tensor_4_torch.float16> : tensor<4xf16>
    %cst_11 = arith.constant 4.000000e+00 : f16
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f16
    } : tensor<1x1x8x8xf16> to tensor<1x1x10x10xf16>
    %0 = tensor.empty() : tensor<1x4x8x8xf32>
    %1 = tensor.empty() : tensor<4xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_10 : tensor<4xf16>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f16, %out: f32):
      %35 = arith.extf %in : f16 to f32
      linalg.yield %35 : f32
    } -> tensor<4xf32>
    %broadcasted = linalg.broadcast ins(%2 : tensor<4xf32>) outs(%0 : tensor<1x4x8x8xf32>) dimensions = [0, 2, 3] 
    %3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_9 : tensor<1x1x10x10xf16>, tensor<4x1x3x3xf16>) outs(%broadcasted : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %4 = tensor.empty() : tensor<1x4x8x8xf16>
    %5 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x4x8x8xf32>) outs(%4 : tensor<1x4x8x8xf16>) {
    ^bb0(%in: f32, %out: f16):
      %35 = arith.truncf %in : f32 to f16
      linalg.yield %35 : f16
    } -> tensor<1x4x8x8xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_8 : tensor<4xf16>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f16, %out: f32):
      %35 = arith.extf %in : f16 to f32
      linalg.yield %35 : f32
    } -> tensor<4xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_7 : tensor<4xf16>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f16, %out: f32):
      %35 = arith.extf %in : f16 to f32
      linalg.yield %35 : f32
    } -> tensor<4xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%7 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.truncf %cst_6 : f64 to f32
      %36 = arith.addf %in, %35 : f32
      linalg.yield %36 : f32
    } -> tensor<4xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%8 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = math.sqrt %in : f32
      linalg.yield %35 : f32
    } -> tensor<4xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%9 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.cmpf one, %in, %cst_0 : f32
      cf.assert %35, "unimplemented: tensor with zero element"
      %36 = arith.divf %cst_1, %in : f32
      linalg.yield %36 : f32
    } -> tensor<4xf32>
    %expanded = tensor.expand_shape %6 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %expanded_12 = tensor.expand_shape %10 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %expanded : tensor<1x4x8x8xf16>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f16, %in_15: f32, %out: f32):
      %35 = arith.extf %in : f16 to f32
      %36 = arith.subf %35, %in_15 : f32
      linalg.yield %36 : f32
    } -> tensor<1x4x8x8xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %expanded_12 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %35 = arith.mulf %in, %in_15 : f32
      linalg.yield %35 : f32
    } -> tensor<1x4x8x8xf32>
    %expanded_13 = tensor.expand_shape %cst_5 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf16> into tensor<4x1x1xf16>
    %13 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_13 : tensor<1x4x8x8xf32>, tensor<4x1x1xf16>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_15: f16, %out: f32):
      %35 = arith.extf %in_15 : f16 to f32
      %36 = arith.mulf %in, %35 : f32
      linalg.yield %36 : f32
    } -> tensor<1x4x8x8xf32>
    %expanded_14 = tensor.expand_shape %cst_4 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf16> into tensor<4x1x1xf16>
    %14 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_14 : tensor<1x4x8x8xf32>, tensor<4x1x1xf16>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_15: f16, %out: f32):
      %35 = arith.extf %in_15 : f16 to f32
      %36 = arith.addf %in, %35 : f32
      linalg.yield %36 : f32
    } -> tensor<1x4x8x8xf32>
    %15 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<1x4x8x8xf32>) outs(%4 : tensor<1x4x8x8xf16>) {
    ^bb0(%in: f32, %out: f16):
      %35 = arith.truncf %in : f32 to f16
      linalg.yield %35 : f16
    } -> tensor<1x4x8x8xf16>
    %16 = tensor.empty() : tensor<1x4x4x4xf16>
    %17 = linalg.fill ins(%cst : f16) outs(%16 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
    %18 = tensor.empty() : tensor<2x2xf16>
    %19 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%15, %18 : tensor<1x4x8x8xf16>, tensor<2x2xf16>) outs(%17 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
    %20 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<1x4x4x4xf16>) outs(%16 : tensor<1x4x4x4xf16>) {
    ^bb0(%in: f16, %out: f16):
      %35 = arith.divf %in, %cst_11 : f16
      linalg.yield %35 : f16
    } -> tensor<1x4x4x4xf16>
    %21 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %20 : tensor<1x4x4x4xf16>, tensor<1x4x4x4xf16>) outs(%16 : tensor<1x4x4x4xf16>) {
    ^bb0(%in: f16, %in_15: f16, %out: f16):
      %35 = arith.mulf %in, %in_15 : f16
      linalg.yield %35 : f16
    } -> tensor<1x4x4x4xf16>
    %collapsed = tensor.collapse_shape %21 [[0], [1, 2, 3]] : tensor<1x4x4x4xf16> into tensor<1x64xf16>
    %22 = tensor.empty() : tensor<64x10xf16>
    %transposed = linalg.transpose ins(%cst_3 : tensor<10x64xf16>) outs(%22 : tensor<64x10xf16>) permutation = [1, 0] 
    %23 = tensor.empty() : tensor<10xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_2 : tensor<10xf16>) outs(%23 : tensor<10xf32>) {
    ^bb0(%in: f16, %out: f32):
      %35 = arith.extf %in : f16 to f32
      linalg.yield %35 : f32
    } -> tensor<10xf32>
    %25 = tensor.empty() : tensor<1x64xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%collapsed : tensor<1x64xf16>) outs(%25 : tensor<1x64xf32>) {
    ^bb0(%in: f16, %out: f32):
      %35 = arith.extf %in : f16 to f32
      linalg.yield %35 : f32
    } -> tensor<1x64xf32>
    %27 = tensor.empty() : tensor<64x10xf32>
    %28 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<64x10xf16>) outs(%27 : tensor<64x10xf32>) {
    ^bb0(%in: f16, %out: f32):
      %35 = arith.extf %in : f16 to f32
      linalg.yield %35 : f32
    } -> tensor<64x10xf32>
    %29 = tensor.empty() : tensor<1x10xf32>
    %30 = linalg.fill ins(%cst_0 : f32) outs(%29 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %31 = linalg.matmul ins(%26, %28 : tensor<1x64xf32>, tensor<64x10xf32>) outs(%30 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %32 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%31, %24 : tensor<1x10xf32>, tensor<10xf32>) outs(%29 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %35 = arith.addf %in, %in_15 : f32
      linalg.yield %35 : f32
    } -> tensor<1x10xf32>
    %33 = tensor.empty() : tensor<1x10xf16>
    %34 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%32 : tensor<1x10xf32>) outs(%33 : tensor<1x10xf16>) {
    ^bb0(%in: f32, %out: f16):
      %35 = arith.truncf %in : f32 to f16
      linalg.yield %35 : f16
    } -> tensor<1x10xf16>
    return %34 : tensor<1x10xf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_10_torch.float16: "0x020000005AAC45AC8AA199AF0FAFE02FA1ABC6A548A807AF",
      torch_tensor_10_64_torch.float16: "0x02000000DBA996AA1EAD8CAD27A5A9A51E2BD7AA612E9DADD20D312FF52FA2ACB3258F2380AB87A9552890AD4825EC2A4EAAA52E36A0422BEC2FE4A8592C94A8ADA46CA55D920BAA8027D31C122D7AA66B22F4A9B3AE7A2A182468AA69A92F28C9A53A2D401F0B2AF92ADAA7EC2AE72DE41D4326A71C8A2DC1AA41ACF92AF6AE1B185CAB482D73AFDA2CEA2F7A2644A0E02FD6AA21A102AB6BA4F42646240BA600B08E1E959BD024212EC72FBFACFB9F69AA60AFD2AD822FAA2C4C2C722C5BAEB922722F77AC1E2F3528A12DDBAA602B18AF10A05629CC28B22EDC2F472F5F2DA02D21A435AEF1A92FA353AC172C9E292A25BB27072FD42904AFCFAD0D2B5C24CE2BFDAF62AFE82C1E2D3DAF132A3FAE0F2E0529E92FE3AFB4AF692D1A2FE72C522DBDAECA2D8EAF26273EAD5BAAAB254AAA10A595AF8BAF332AC6AADEAC50AA8AAE65AEC92C112C43245FAC5329C01DB8ADE326492FDEAFF5AF1A24062EDEAC0B27A02DEF28ED26FB2F362D80AC8821162C0E2FF6AF552CA5A8D5AF1A275BAC892432AD05AE6EA160A9AE2C85213F2EFF2525A96B2DFF1E022625A95A0F27A671A13DAE4C92A4AEE2A6A32C90AD64ADD0A763A86B2550250F2C83AD84A0792CEB2EABA0A1AC99288E2CFFACA4AC122B7CA08EAF9DAC7D2A6DA9862D532EA82410A114A9799ED3251CAEA6A7A8AEE92C18AD4F2F20A895ACB02BC5248A2DAE2AB5AF0F2D07A612AB152DD62D08AFC9A1922E322ABD2E7CA96AACE12EAB2AAE2FAFAA23AD80A388AF462AE72DAF2753A2EF2B14ADD32FF4AFAAAF90A7892E6822252ADDADD62927A36A2AA62DF42A72A1E29F04ADCAA9332D6AAAF82C58AA74A7731957AF1D9573A2C0A166A64F2EE72D6CAD6F2B46AED0AEE428861777ABB7AF32AA582968AFC6AF0F24C3AD02AF2AAA27A545AF58AD32208BAF7FA42AAD8CAD4A2A28AE10AE902CFC25492F47A8BAABECA12E111A2EF8AF8FA0142B68AC11ACBB2BAAAF952732AEF42BD7AEEB2C93AFB9AE8C174E2EDAAE23AB072F5EA5A12AB2AF08A910ACBF2EA42AD6AD2925E29593AA92AC4FA94E2EBCADB3ADF0A874185B28AF1BB4A7DAACBEA571AA772ECAAF1AAD82AED9A53C2E032FF7AE8C9DB22C0E2B8E2E1A9B60AD4B2D7DA9242CE3A7CD2A322F702F48AF4BAD9EAA1AADAD2FA7A14FAD1FAB6BAC872AFAAE76AFE3AFE32AE92BF8ACEF27E82DA624C5A6BA20DDA2072C6FAD0F2C822CD9AC882EDC2F4FAA7BA8F92B44AE542A77270B2DF3AEA5AE302BC32972AF76AC52AFBBAD38AB9F2E5FA6982C992F4B2B29AF072C1A2A332EE4AFEC2C8C2E71AFB222D42ED2AD4029122B3228F42F8D2EDD2EFAA3B62E75AF51ACD8A6C1A8642F8C2B272D712DFAAD6AA3AC2429281D2C5EAAD3A8B22E4BA88FAD6D2D6B2D04A966A6E7ADAEAE042AD6AA5E2E68AE6CA487191D2C7A2E6B2D0B2B58ABB7AD28AF591EC22F14A6639DD0ADEA28122DE3AFA2ADED2D9427FB9FB825DEA497AD7AAF432D9DA3F1A921A85DACBDA8DEAEFD2D892A09AC76A92E2BEDA93828682809AD0228D51FFD2ECAA91DA8E52E88AEA020B52F2DABAB2F192F712F1BA23D2FF9AA7AA90D2AC326692C9A2F02AD3F2C5A29382C962BFCA953AE672E90AC1D2D9FAF89A56D1589252C210B2920A3D627EB2F2DADFD9E1CAA052FD92EFB9A8CA9F1ACB92D68A0892F902C012F542E33ADAF28A2AA042CC1A18A2188AD26AF062A70278F216F2DAEAAAE2968ACA1264EA79A2DFF2EF32EC21DB82CFEAFB1ACB825B61148AE15AB79ABEDAF1B22742D7E2A9AAB59AF74AEC018812D7BAA",
      torch_tensor_4_torch.float16_4: "0x020000000000000000000000",
      torch_tensor_4_torch.float16_3: "0x02000000003C003C003C003C",
      torch_tensor_4_torch.float16_2: "0x02000000003C003C003C003C",
      torch_tensor_4_torch.float16_1: "0x020000000000000000000000",
      torch_tensor_4_1_3_3_torch.float16: "0x02000000F627D82C9EB0073470B069B3922A6532CFB4D234AD2F79B398ACA13418B43CAEFF2EACB4D9318D319E32CDB2503553B253351EB5C0B48D327628EC24E8B179B03DAE32B56F248C2B",
      torch_tensor_4_torch.float16: "0x02000000A08CE42E0F35AC2D"
    }
  }
#-}
