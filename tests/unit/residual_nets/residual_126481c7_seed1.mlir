// 2x8x8 stem 2 [2/1i] x² bn:conv bn; bound 7
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x2x8x8xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_10_torch.float32> : tensor<10xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_10_2_torch.float32> : tensor<10x2xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_2_torch.float32_11> : tensor<2xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_2_torch.float32_10> : tensor<2xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_2_torch.float32_9> : tensor<2xf32>
    %cst_6 = arith.constant dense_resource<torch_tensor_2_torch.float32_8> : tensor<2xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_2_2_3_3_torch.float32_2> : tensor<2x2x3x3xf32>
    %cst_8 = arith.constant dense_resource<torch_tensor_2_torch.float32_7> : tensor<2xf32>
    %cst_9 = arith.constant dense_resource<torch_tensor_2_torch.float32_6> : tensor<2xf32>
    %cst_10 = arith.constant dense_resource<torch_tensor_2_torch.float32_5> : tensor<2xf32>
    %cst_11 = arith.constant dense_resource<torch_tensor_2_torch.float32_4> : tensor<2xf32>
    %cst_12 = arith.constant dense_resource<torch_tensor_2_2_3_3_torch.float32_1> : tensor<2x2x3x3xf32>
    %cst_13 = arith.constant dense_resource<torch_tensor_2_torch.float32_3> : tensor<2xf32>
    %cst_14 = arith.constant dense_resource<torch_tensor_2_torch.float32_2> : tensor<2xf32>
    %cst_15 = arith.constant 1.000000e-05 : f64
    %cst_16 = arith.constant dense_resource<torch_tensor_2_torch.float32_1> : tensor<2xf32>
    %cst_17 = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
    %cst_18 = arith.constant dense_resource<torch_tensor_2_2_3_3_torch.float32> : tensor<2x2x3x3xf32>
    %cst_19 = arith.constant 6.400000e+01 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
    %0 = tensor.empty() : tensor<1x2x8x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_18 : tensor<1x2x10x10xf32>, tensor<2x2x3x3xf32>) outs(%1 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %3 = tensor.empty() : tensor<2xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_16 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.truncf %cst_15 : f64 to f32
      %41 = arith.addf %in, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<2xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%4 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.sqrt %in : f32
      linalg.yield %40 : f32
    } -> tensor<2xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%5 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.cmpf one, %in, %cst : f32
      cf.assert %40, "unimplemented: tensor with zero element"
      %41 = arith.divf %cst_0, %in : f32
      linalg.yield %41 : f32
    } -> tensor<2xf32>
    %expanded = tensor.expand_shape %cst_17 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %expanded_20 = tensor.expand_shape %6 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %expanded : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.subf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_20 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %expanded_21 = tensor.expand_shape %cst_14 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_21 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %expanded_22 = tensor.expand_shape %cst_13 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %expanded_22 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.addf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10, %10 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %padded_23 = tensor.pad %11 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
    %12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_23, %cst_12 : tensor<1x2x10x10xf32>, tensor<2x2x3x3xf32>) outs(%1 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_10 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.truncf %cst_15 : f64 to f32
      %41 = arith.addf %in, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<2xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%13 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.sqrt %in : f32
      linalg.yield %40 : f32
    } -> tensor<2xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%14 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.cmpf one, %in, %cst : f32
      cf.assert %40, "unimplemented: tensor with zero element"
      %41 = arith.divf %cst_0, %in : f32
      linalg.yield %41 : f32
    } -> tensor<2xf32>
    %expanded_24 = tensor.expand_shape %cst_11 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %expanded_25 = tensor.expand_shape %15 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_24 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.subf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16, %expanded_25 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %expanded_26 = tensor.expand_shape %cst_9 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %expanded_26 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %expanded_27 = tensor.expand_shape %cst_8 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_27 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.addf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %19 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %padded_28 = tensor.pad %20 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
    %21 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_28, %cst_7 : tensor<1x2x10x10xf32>, tensor<2x2x3x3xf32>) outs(%1 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_5 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.truncf %cst_15 : f64 to f32
      %41 = arith.addf %in, %40 : f32
      linalg.yield %41 : f32
    } -> tensor<2xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%22 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = math.sqrt %in : f32
      linalg.yield %40 : f32
    } -> tensor<2xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%23 : tensor<2xf32>) outs(%3 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.cmpf one, %in, %cst : f32
      cf.assert %40, "unimplemented: tensor with zero element"
      %41 = arith.divf %cst_0, %in : f32
      linalg.yield %41 : f32
    } -> tensor<2xf32>
    %expanded_29 = tensor.expand_shape %cst_6 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %expanded_30 = tensor.expand_shape %24 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %expanded_29 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.subf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %26 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %expanded_30 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %expanded_31 = tensor.expand_shape %cst_4 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %27 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %expanded_31 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %expanded_32 = tensor.expand_shape %cst_3 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %28 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %expanded_32 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.addf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%28, %11 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.addf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %30 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29, %29 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.mulf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x8x8xf32>
    %31 = tensor.empty() : tensor<1x2x1x1xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
    %33 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%30 : tensor<1x2x8x8xf32>) outs(%32 : tensor<1x2x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.addf %in, %out : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x1x1xf32>
    %34 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33 : tensor<1x2x1x1xf32>) outs(%31 : tensor<1x2x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %40 = arith.divf %in, %cst_19 : f32
      linalg.yield %40 : f32
    } -> tensor<1x2x1x1xf32>
    %collapsed = tensor.collapse_shape %34 [[0], [1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<1x2xf32>
    %35 = tensor.empty() : tensor<2x10xf32>
    %transposed = linalg.transpose ins(%cst_2 : tensor<10x2xf32>) outs(%35 : tensor<2x10xf32>) permutation = [1, 0] 
    %36 = tensor.empty() : tensor<1x10xf32>
    %37 = linalg.fill ins(%cst : f32) outs(%36 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %38 = linalg.matmul ins(%collapsed, %transposed : tensor<1x2xf32>, tensor<2x10xf32>) outs(%37 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %39 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%38, %cst_1 : tensor<1x10xf32>, tensor<10xf32>) outs(%36 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_33: f32, %out: f32):
      %40 = arith.addf %in, %in_33 : f32
      linalg.yield %40 : f32
    } -> tensor<1x10xf32>
    return %39 : tensor<1x10xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_10_torch.float32: "0x04000000FB6AA7BDDE02C7BC4DDC2ABF9203E9BE1681D3BE2CDA9ABE01B3003F609D6CBEB84507BF5A4B8B3E",
      torch_tensor_10_2_torch.float32: "0x04000000C3311C3FFEE7EF3E7FA1E13E63A3003FD2FEE43ECC063B3EBF91F7BE350318BFC1E4A5BEB5A1A8BD94E9DDBE0374843ED617603EE8F423BE6E258B3EC0026A3EE909DD3E0AD0F33EF53575BE4CDC303F",
      torch_tensor_2_torch.float32_11: "0x04000000A3607EBD8DC6B13C",
      torch_tensor_2_torch.float32_10: "0x04000000FCDF643F7E6A7B3F",
      torch_tensor_2_torch.float32_9: "0x0400000003A7073F80CB643F",
      torch_tensor_2_torch.float32_8: "0x040000009D445A3D70B562BD",
      torch_tensor_2_2_3_3_torch.float32_2: "0x040000001B280FBD12C1073EBC2F9B3D3FFD34BE5CF4413D01E5673DA59A21BE5309E5BD5C98A43D74EE2C3DCA55CDBD612092BD800E5D3E55A032BD8513083EBF04D13D29041CBE49424DBE8AAD673EDCA5493C0A71253E9A11483DCF409B3D0749343E39DC643E4D2920BE416AF13CB21D343E59D92E3E0BF1153E18AD2EBEC0CD2DBE97F711BE8892F23CDD8D703EEE7518BE",
      torch_tensor_2_torch.float32_7: "0x040000004210B6BD0B0C953D",
      torch_tensor_2_torch.float32_6: "0x04000000B896653F71EF1A3F",
      torch_tensor_2_torch.float32_5: "0x0400000062E4833F19306A3F",
      torch_tensor_2_torch.float32_4: "0x04000000E8FF8FBD00869ABD",
      torch_tensor_2_2_3_3_torch.float32_1: "0x04000000EC4DFEBDD41FF83D471E00BE3EF88D3D6C638BBDAAB0D3BC2F0A68BEB726E6BD3CF8023EF9AC6ABDD867703E7E78413E28D234BC671A21BE84FA123EA6D0953DF1041CBE05C61C3E9187123E680F563ED24B07BEA7EA1EBD539E95BB5C020D3DFE2B37BE1A462BBEEB4C033E176362BD87CBEB3D6B285C3C7F7F9E3DDF49543D1D84AF3DE249EF3D8D865FBE18FAF23D",
      torch_tensor_2_torch.float32_3: "0x04000000A895993D00369B3A",
      torch_tensor_2_torch.float32_2: "0x0400000046CC7E3FF4EB243F",
      torch_tensor_2_torch.float32_1: "0x04000000B0639B3F5684443F",
      torch_tensor_2_torch.float32: "0x0400000058D6B33D0D7488BC",
      torch_tensor_2_2_3_3_torch.float32: "0x0400000019BAF83DB30FD5BD34293BBDAC92E23D713963BE4ABF103E5E9D46BD7794F53D4A36063D926CECBC1EE3853DBF813E3C634DB03DA41DBCBD0DC78CBCD3D4ADBC26EF0B3DF3D476BAF5FC523E9737963D6DC4B3BD86C511BE80D221BD4D37D0BDB4AF9ABD16E8383C80E10F3E0230033ED9F06BBE9B9F153EA2DA863D48F1643EBB4F1F3E51E95BBE7D7C65BE9CD4E8BD"
    }
  }
#-}
