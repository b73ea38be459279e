// 2x8x8 stem 2 [4/2B] p3 bn:act; bound 10
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x2x8x8xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense_resource<torch_tensor_10_torch.float32> : tensor<10xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_10_4_torch.float32> : tensor<10x4xf32>
    %cst_3 = arith.constant dense_resource<torch_tensor_4_torch.float32_7> : tensor<4xf32>
    %cst_4 = arith.constant dense_resource<torch_tensor_4_torch.float32_6> : tensor<4xf32>
    %cst_5 = arith.constant dense_resource<torch_tensor_4_torch.float32_5> : tensor<4xf32>
    %cst_6 = arith.constant dense_resource<torch_tensor_4_torch.float32_4> : tensor<4xf32>
    %cst_7 = arith.constant dense_resource<torch_tensor_4_2_1_1_torch.float32> : tensor<4x2x1x1xf32>
    %cst_8 = arith.constant dense_resource<torch_tensor_4_4_3_3_torch.float32> : tensor<4x4x3x3xf32>
    %cst_9 = arith.constant dense_resource<torch_tensor_4_torch.float32_3> : tensor<4xf32>
    %cst_10 = arith.constant dense_resource<torch_tensor_4_torch.float32_2> : tensor<4xf32>
    %cst_11 = arith.constant dense_resource<torch_tensor_4_torch.float32_1> : tensor<4xf32>
    %cst_12 = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_13 = arith.constant dense_resource<torch_tensor_4_2_3_3_torch.float32> : tensor<4x2x3x3xf32>
    %cst_14 = arith.constant dense_resource<torch_tensor_2_torch.float32_3> : tensor<2xf32>
    %cst_15 = arith.constant dense_resource<torch_tensor_2_torch.float32_2> : tensor<2xf32>
    %cst_16 = arith.constant 1.000000e-05 : f64
    %cst_17 = arith.constant dense_resource<torch_tensor_2_torch.float32_1> : tensor<2xf32>
    %cst_18 = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
    %cst_19 = arith.constant dense_resource<torch_tensor_2_2_3_3_torch.float32> : tensor<2x2x3x3xf32>
    %cst_20 = arith.constant 2.500000e-01 : f32
    %cst_21 = arith.constant 5.000000e-01 : f32
    %cst_22 = arith.constant 1.600000e+01 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
    %0 = tensor.empty() : tensor<1x2x8x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_19 : tensor<1x2x10x10xf32>, tensor<2x2x3x3xf32>) outs(%1 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.mulf %in, %cst_20 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3, %2 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %2 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.mulf %in, %cst_21 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %6 : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.addf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %8 = tensor.empty() : tensor<2xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%cst_17 : tensor<2xf32>) outs(%8 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.truncf %cst_16 : f64 to f32
      %57 = arith.addf %in, %56 : f32
      linalg.yield %57 : f32
    } -> tensor<2xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%9 : tensor<2xf32>) outs(%8 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = math.sqrt %in : f32
      linalg.yield %56 : f32
    } -> tensor<2xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%10 : tensor<2xf32>) outs(%8 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.cmpf one, %in, %cst : f32
      cf.assert %56, "unimplemented: tensor with zero element"
      %57 = arith.divf %cst_0, %in : f32
      linalg.yield %57 : f32
    } -> tensor<2xf32>
    %expanded = tensor.expand_shape %cst_18 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %expanded_23 = tensor.expand_shape %11 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.subf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_23 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %expanded_24 = tensor.expand_shape %cst_15 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_24 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %expanded_25 = tensor.expand_shape %cst_14 [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %expanded_25 : tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) outs(%0 : tensor<1x2x8x8xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.addf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x2x8x8xf32>
    %padded_26 = tensor.pad %15 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
    %16 = tensor.empty() : tensor<1x4x4x4xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %18 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_26, %cst_13 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%17 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.mulf %in, %cst_20 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %18 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %18 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.mulf %in, %cst_21 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %22 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.addf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %24 = tensor.empty() : tensor<4xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%cst_11 : tensor<4xf32>) outs(%24 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.truncf %cst_16 : f64 to f32
      %57 = arith.addf %in, %56 : f32
      linalg.yield %57 : f32
    } -> tensor<4xf32>
    %26 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%25 : tensor<4xf32>) outs(%24 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = math.sqrt %in : f32
      linalg.yield %56 : f32
    } -> tensor<4xf32>
    %27 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%26 : tensor<4xf32>) outs(%24 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.cmpf one, %in, %cst : f32
      cf.assert %56, "unimplemented: tensor with zero element"
      %57 = arith.divf %cst_0, %in : f32
      linalg.yield %57 : f32
    } -> tensor<4xf32>
    %expanded_27 = tensor.expand_shape %cst_12 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %expanded_28 = tensor.expand_shape %27 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %expanded_27 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.subf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%28, %expanded_28 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %expanded_29 = tensor.expand_shape %cst_10 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %30 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29, %expanded_29 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %expanded_30 = tensor.expand_shape %cst_9 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %expanded_30 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.addf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %padded_31 = tensor.pad %31 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
    %32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_31, %cst_8 : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%17 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %33 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%15, %cst_7 : tensor<1x2x8x8xf32>, tensor<4x2x1x1xf32>) outs(%17 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32, %33 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.addf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.mulf %in, %cst_20 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %36 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%35, %34 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %34 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %38 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.mulf %in, %cst_21 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%37, %38 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.addf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %40 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%cst_5 : tensor<4xf32>) outs(%24 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.truncf %cst_16 : f64 to f32
      %57 = arith.addf %in, %56 : f32
      linalg.yield %57 : f32
    } -> tensor<4xf32>
    %41 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%40 : tensor<4xf32>) outs(%24 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = math.sqrt %in : f32
      linalg.yield %56 : f32
    } -> tensor<4xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%41 : tensor<4xf32>) outs(%24 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.cmpf one, %in, %cst : f32
      cf.assert %56, "unimplemented: tensor with zero element"
      %57 = arith.divf %cst_0, %in : f32
      linalg.yield %57 : f32
    } -> tensor<4xf32>
    %expanded_32 = tensor.expand_shape %cst_6 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %expanded_33 = tensor.expand_shape %42 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %43 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %expanded_32 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.subf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %44 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %expanded_33 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %expanded_34 = tensor.expand_shape %cst_4 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %45 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %expanded_34 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.mulf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %expanded_35 = tensor.expand_shape %cst_3 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45, %expanded_35 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%16 : tensor<1x4x4x4xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.addf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x4x4xf32>
    %47 = tensor.empty() : tensor<1x4x1x1xf32>
    %48 = linalg.fill ins(%cst : f32) outs(%47 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
    %49 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%46 : tensor<1x4x4x4xf32>) outs(%48 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.addf %in, %out : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x1x1xf32>
    %50 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49 : tensor<1x4x1x1xf32>) outs(%47 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %56 = arith.divf %in, %cst_22 : f32
      linalg.yield %56 : f32
    } -> tensor<1x4x1x1xf32>
    %collapsed = tensor.collapse_shape %50 [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
    %51 = tensor.empty() : tensor<4x10xf32>
    %transposed = linalg.transpose ins(%cst_2 : tensor<10x4xf32>) outs(%51 : tensor<4x10xf32>) permutation = [1, 0] 
    %52 = tensor.empty() : tensor<1x10xf32>
    %53 = linalg.fill ins(%cst : f32) outs(%52 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %54 = linalg.matmul ins(%collapsed, %transposed : tensor<1x4xf32>, tensor<4x10xf32>) outs(%53 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %55 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%54, %cst_1 : tensor<1x10xf32>, tensor<10xf32>) outs(%52 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %56 = arith.addf %in, %in_36 : f32
      linalg.yield %56 : f32
    } -> tensor<1x10xf32>
    return %55 : tensor<1x10xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_10_torch.float32: "0x040000009C1CABBEDC6196BE0094513D725C86BE009818BA2CE17BBE806D58BEE0646F3D0CABCDBE4C3F023E",
      torch_tensor_10_4_torch.float32: "0x04000000E43326BE884456BE10CBB1BDD06A19BE58BE873D5050E8BD64ED11BE8E21B5BE3C9140BE166EAFBE70CE0E3DD88E963EB07A713EA808BB3D446FBCBE70DD75BD901311BDB845BD3E1021B03D1E059B3E2CA2DD3E308D77BDB89DCDBEB0A0C4BEB46CCA3E301753BE20A19D3C4C263B3E00067ABC76ADEBBE50729BBD60BCD13D985F63BE30EA0F3DC07CAF3DD066483E78245EBE5622E53EEE96DC3E2E1DA13E",
      torch_tensor_4_torch.float32_7: "0x04000000D774BFBD4AFEA73DC3C6263DAA028E3D",
      torch_tensor_4_torch.float32_6: "0x04000000B051133F71FC3D3F4A3C773F5112253F",
      torch_tensor_4_torch.float32_5: "0x04000000DC8FB43F2F2EA23FAD46673FE4658E3F",
      torch_tensor_4_torch.float32_4: "0x040000000DD8313D12E9C5BD27280EBC338B9C3D",
      torch_tensor_4_2_1_1_torch.float32: "0x04000000A274CDBE17FD25BFB72BA33D34293FBE43A0CEBE6BC6053E805254BD9D6CF5BE",
      torch_tensor_4_4_3_3_torch.float32: "0x0400000058A0AB3D068B24BD0C0800BE4089053D40329D3D9378C63DF29320BE80CCB4BC9E7024BE00D0053BAB22F13B402C5E3DEB436ABD8073C7BCEB80273D075025BEDEE2A73D16FA243E6BE9F2BD836E263EF646CF3C98DB283E0275153ED21F12BE927B003E00D3BA3B16012D3DA6BA77BDE8CB08BEF6A7823CB6EA3D3D93A7AB3D27280FBE902425BE506BA23DA6AB08BD004E21BBC02031BD561DB5394B70E13CB49D1DBE06CA7B3D2027963C009B9D3D0B48B0BD4B66F83DF69DE33DD66BABBDCF6E153E8BB7AF3C8FAC163EB6221B3ED620D63C00CBDC3CD6CD553DD034DB3D9BD71BBE0062893A300B233E3E01F1BDBB3FC0BD6BC78E3C96D6763DB856B73DAB111A3C7B0A213D58AC9ABD37AD213EE6EEE0BDD8F8DD3DC34AB93D800D153E677B173EB68A62BDCBD5F33DEE19F9BDF608EE3DF61CD2BD5E01E8BDE600E7BDB60B263E40B5493DBBDFEDBD8B0800BED6308D3CB63E13BDEBD8313DA6D1D63DD3A3D7BD10FE1ABE00AC8C3CE391E33D3BC6CF3DAB9D1CBB6B1936BD50A7593DAB55ED3DE20213BE004781BC2C0A013EA67C033E720C1E3EDECD833DCE85283E970925BEEB31013D204BC43CE667EB3DDBF4073D4B9DDA3DEABF15BEE0ED93BCD0E67F3DCEEADA3D50B7213D0B8ADC3D064055BD2B186BBC5420203E18A3E33DCEAAEF3DEFEA13BE563513BB8B5114BE50F01A3E3F2A0A3E60A4BE3D6EE3D1BDE692C2BD6BC3DEBD70A47C3D5EE60B3E601CB2BCDBD220BE6BAA15BD8026A53C961E1C3CD07BB93D36884A3D1B6D3ABDA37FF1BD00B94FBBB6BD9FBD14B107BE",
      torch_tensor_4_torch.float32_3: "0x04000000E0F898BC3343C93BE73DBB3D006A8E3A",
      torch_tensor_4_torch.float32_2: "0x040000003829003F9CA3223F344F513F94903E3F",
      torch_tensor_4_torch.float32_1: "0x04000000F220923F5B6E023FF1E10A3F1531423F",
      torch_tensor_4_torch.float32: "0x04000000F8F1AB3D1086B43DB3C364BC8009C03D",
      torch_tensor_4_2_3_3_torch.float32: "0x04000000A84CF73D129468BD720525BE278068BD77E006BD7A295F3E9092FB3D68EAC2BDDDF708BD1B48553ED70E1B3E71B7703DB028ADBD50D4483EA6CFCE3D99FDD6BD5F482B3E5C9E893CAC7F32BE6FF5D5BD6DC334BED8E747BE68D0BC3B1DF72CBEF5A1003E20E2D73DC4AC4F3D28DF463E7FF8DABD6859663BE64E143E96DBA63D2DF1E93CC5D2493E37075C3DD964223EFE0050BE52FB4FBE70D959BEAC9A5A3C4CD24C3E57A152BED612C03DB1FE54BE0B6620BECF9BA4BD8B4AC4BD61948E3D11624ABE77AD6E3EECBE0C3DF047A83DB20A23BE5732053E6E6C61BD282CF0BD0F37243DADE6C83D967BCC3C70E2A8BD4285333DBDC6BABD516EA3BD1757B3BDD2CC0F3E2FB428BE729BD13D3533FA3DE65E20BE535337BEB1BA20BE0A2C4CBE",
      torch_tensor_2_torch.float32_3: "0x0400000033C539BCD53C85BD",
      torch_tensor_2_torch.float32_2: "0x04000000CE8C4A3F35D3363F",
      torch_tensor_2_torch.float32_1: "0x040000006E12443F303B813F",
      torch_tensor_2_torch.float32: "0x04000000473ED7BC5A07CBBD",
      torch_tensor_2_2_3_3_torch.float32: "0x04000000114D6FBE1C663EBE67C1CEBDF85864BE7B3C5BBC035754BE0F3C033EB946EB3DBB50363DB9393B3EC51ABDBCD091103E370729BE4F403EBDF93457BE42C49CBC5D971CBE2AD4583E34A8273E2FF3343E2E2F8F3D0FB109BE41E3583E98836BBEE00B1ABEDEBE16BE8217C8BD6581403DB5D336BEF1F139BE03DBE6BDE24F133E24162EBE5E7958BE1F3051BEDC89EDBD"
    }
  }
#-}
