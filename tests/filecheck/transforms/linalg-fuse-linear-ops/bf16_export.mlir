// linalg-fuse-linear-ops on bf16 (issue 34): Conv2d(3, 4, 3, padding=1) + BatchNorm2d(4) +
// ReLU as torch-mlir exports it in bf16 (torch_mlir.fx.export_and_import of the module
// .to(torch.bfloat16), seed 0, BN statistics drawn uniform): the f16 mixed form with bf16
// storage. The conv reads bf16 and accumulates into an f32 init, a truncf generic rounds
// to bf16, batch norm widens it (extf in the body), computes in f32 with its bf16 gamma /
// beta widened in each body, and truncates. The mixed-precision rule applies as for f16:
// the four batch-norm ops fold into the conv, its weights computed in float64 and rounded
// to bf16, its init f32; the exporter's truncf stays before the relu. Numerics
// (tests/unit/test_filecheck_numerics.py): before/after within 4 bf16 ulps.
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | iree-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main(%arg0: tensor<1x3x8x8xbf16>) -> tensor<1x4x8x8xbf16>
// CHECK-DAG:   %[[W:.*]] = arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<4x3x3x3xbf16>
// CHECK-DAG:   %[[B:.*]] = arith.constant dense<[{{.*}}]> : tensor<4xf32>
// CHECK:       %[[INIT:.*]] = linalg.broadcast ins(%[[B]] : tensor<4xf32>)
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x3x10x10xbf16>, tensor<4x3x3x3xbf16>) outs(%[[INIT]] : tensor<1x4x8x8xf32>)
// CHECK:       arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT:   arith.extf
// CHECK-NOT:   arith.mulf
// CHECK:       arith.cmpf ugt
// CHECK-NOT:   linalg.generic
// CHECK:       return
// MLIR-LABEL:  func.func @main
// MLIR:        linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x4x8x8xf32>

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {
  func.func @main(%arg0: tensor<1x3x8x8xbf16>) -> tensor<1x4x8x8xbf16> {
    %cst = arith.constant 0.000000e+00 : bf16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense_resource<torch_tensor_4_torch.bfloat16_4> : tensor<4xbf16>
    %cst_3 = arith.constant dense_resource<torch_tensor_4_torch.bfloat16_3> : tensor<4xbf16>
    %cst_4 = arith.constant 1.000000e-05 : f64
    %cst_5 = arith.constant dense_resource<torch_tensor_4_torch.bfloat16_2> : tensor<4xbf16>
    %cst_6 = arith.constant dense_resource<torch_tensor_4_torch.bfloat16_1> : tensor<4xbf16>
    %cst_7 = arith.constant dense_resource<torch_tensor_4_3_3_3_torch.bfloat16> : tensor<4x3x3x3xbf16>
    %cst_8 = arith.constant dense_resource<torch_tensor_4_torch.bfloat16> : tensor<4xbf16>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : bf16
    } : tensor<1x3x8x8xbf16> to tensor<1x3x10x10xbf16>
    %0 = tensor.empty() : tensor<1x4x8x8xf32>
    %1 = tensor.empty() : tensor<4xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_8 : tensor<4xbf16>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %17 = arith.extf %in : bf16 to f32
      linalg.yield %17 : f32
    } -> tensor<4xf32>
    %broadcasted = linalg.broadcast ins(%2 : tensor<4xf32>) outs(%0 : tensor<1x4x8x8xf32>) dimensions = [0, 2, 3] 
    %3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_7 : tensor<1x3x10x10xbf16>, tensor<4x3x3x3xbf16>) outs(%broadcasted : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %4 = tensor.empty() : tensor<1x4x8x8xbf16>
    %5 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x4x8x8xf32>) outs(%4 : tensor<1x4x8x8xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %17 = arith.truncf %in : f32 to bf16
      linalg.yield %17 : bf16
    } -> tensor<1x4x8x8xbf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_6 : tensor<4xbf16>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %17 = arith.extf %in : bf16 to f32
      linalg.yield %17 : f32
    } -> tensor<4xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_5 : tensor<4xbf16>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %17 = arith.extf %in : bf16 to f32
      linalg.yield %17 : f32
    } -> tensor<4xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%7 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.truncf %cst_4 : f64 to f32
      %18 = arith.addf %in, %17 : f32
      linalg.yield %18 : f32
    } -> tensor<4xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%8 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = math.sqrt %in : f32
      linalg.yield %17 : f32
    } -> tensor<4xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%9 : tensor<4xf32>) outs(%1 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.cmpf one, %in, %cst_0 : f32
      cf.assert %17, "unimplemented: tensor with zero element"
      %18 = arith.divf %cst_1, %in : f32
      linalg.yield %18 : f32
    } -> tensor<4xf32>
    %expanded = tensor.expand_shape %6 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %expanded_9 = tensor.expand_shape %10 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %expanded : tensor<1x4x8x8xbf16>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: bf16, %in_12: f32, %out: f32):
      %17 = arith.extf %in : bf16 to f32
      %18 = arith.subf %17, %in_12 : f32
      linalg.yield %18 : f32
    } -> tensor<1x4x8x8xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %expanded_9 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_12: f32, %out: f32):
      %17 = arith.mulf %in, %in_12 : f32
      linalg.yield %17 : f32
    } -> tensor<1x4x8x8xf32>
    %expanded_10 = tensor.expand_shape %cst_3 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xbf16> into tensor<4x1x1xbf16>
    %13 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_10 : tensor<1x4x8x8xf32>, tensor<4x1x1xbf16>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_12: bf16, %out: f32):
      %17 = arith.extf %in_12 : bf16 to f32
      %18 = arith.mulf %in, %17 : f32
      linalg.yield %18 : f32
    } -> tensor<1x4x8x8xf32>
    %expanded_11 = tensor.expand_shape %cst_2 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xbf16> into tensor<4x1x1xbf16>
    %14 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_11 : tensor<1x4x8x8xf32>, tensor<4x1x1xbf16>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_12: bf16, %out: f32):
      %17 = arith.extf %in_12 : bf16 to f32
      %18 = arith.addf %in, %17 : f32
      linalg.yield %18 : f32
    } -> tensor<1x4x8x8xf32>
    %15 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<1x4x8x8xf32>) outs(%4 : tensor<1x4x8x8xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %17 = arith.truncf %in : f32 to bf16
      linalg.yield %17 : bf16
    } -> tensor<1x4x8x8xbf16>
    %16 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x4x8x8xbf16>) outs(%4 : tensor<1x4x8x8xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %17 = arith.cmpf ugt, %in, %cst : bf16
      %18 = arith.select %17, %in, %cst : bf16
      linalg.yield %18 : bf16
    } -> tensor<1x4x8x8xbf16>
    return %16 : tensor<1x4x8x8xbf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.bfloat16_4: "0x0200000076BF18BF80BEF9BE",
      torch_tensor_4_torch.bfloat16_3: "0x02000000993F843F423F9E3F",
      torch_tensor_4_torch.bfloat16_2: "0x02000000883FA43FAE3FB73F",
      torch_tensor_4_torch.bfloat16_1: "0x020000001CBF683F2F3F58BF",
      torch_tensor_4_3_3_3_torch.bfloat16: "0x02000000BDBAD33D22BE11BE98BD533D7ABB1C3E8CBC513D6EBD1BBD3CBE03BEA2BDEA3B9C3DEC3D06BEACBD8F3D243E22BD133EFEBCA73C323E37BEF8BD48BD9ABD2A3EFFBDB5BD0ABE39BEE6BD293EB03DBF3D263CCABD053D38BE0EBECBBDF93DE73DAFBDE4BBFC3D443E9C3DD53C043EE8BD133D19BE09BECCBDB23D9F3DE9BD6E3DD83DC7BCF13B373DF53D3D3E18BE90BD9B3D233E2B3E2E3E1D3D2BBE913CF7BD38BE2F3E163E45BE143D05BD02BDB4BD983DE9BD903DC73D0D3E933D43BE00BEC53D253D1ABEE3BD393E053EACBD46BD3CBE63BB14BE18BE",
      torch_tensor_4_torch.bfloat16: "0x020000002EBCED3CA1BDEA3D"
    }
  }
#-}
