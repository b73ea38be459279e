// spec: heir-prepare
// crash: HeirpyError: error: pass 'heir-prepare' failed: could not broadcast input array from shape (1,2,1,4) into shape (1,2,1,3) at api.py:104 (cause ValueError at heir_strided_convs.py:117)
// layers: ['pad(0, 0, 0)(0, 0, 1)', 'conv2x1x4x1/s2,3/d1,3/dense', 'map_add[1, 2, 3]', 'pad(0, 0, 1)(0, 1, 1)', 'conv3x2x1x2/s2,3/d3,1/resource', 'pad(0, 7, 3)(0, 7, 2)', 'conv3x3x4x3/s3,2/d2,1/arg']
module {
  func.func @main(%arg0: tensor<1x1x4x9xf32>, %arg1: tensor<3x3x4x3xf32>) -> tensor<1x3x3x3xf32> {
    %cst1 = arith.constant 0.000000e+00 : f32
    %padded2 = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 0, 1] {
    ^bb0(%i3: index, %i4: index, %i5: index, %i6: index):
      tensor.yield %cst1 : f32
    } : tensor<1x1x4x9xf32> to tensor<1x1x4x10xf32>
    %cst7 = arith.constant dense<[[[[0.734375], [-0.3125], [0.28125], [-0.140625]]], [[[-0.65625], [-0.296875], [0.171875], [0.203125]]]]> : tensor<2x1x4x1xf32>
    %cst8 = arith.constant dense_resource<blob_8_2.float32> : tensor<2xf32>
    %v9 = tensor.empty() : tensor<1x2x1x4xf32>
    %broadcasted10 = linalg.broadcast ins(%cst8 : tensor<2xf32>) outs(%v9 : tensor<1x2x1x4xf32>) dimensions = [0, 2, 3]
    %v11 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 3]> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>} ins(%padded2, %cst7 : tensor<1x1x4x10xf32>, tensor<2x1x4x1xf32>) outs(%broadcasted10 : tensor<1x2x1x4xf32>) -> tensor<1x2x1x4xf32>
    %cst12 = arith.constant dense<[[[[0.625, 0.234375, 0.484375, -0.078125]], [[-0.21875, 0.453125, -0.390625, 0.328125]]]]> : tensor<1x2x1x4xf32>
    %v13 = tensor.empty() : tensor<1x2x1x4xf32>
    %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v11, %cst12 : tensor<1x2x1x4xf32>, tensor<1x2x1x4xf32>) outs(%v13 : tensor<1x2x1x4xf32>) {
    ^bb0(%in15: f32, %in16: f32, %out17: f32):
      %v18 = arith.addf %in15, %in16 : f32
      linalg.yield %v18 : f32
    } -> tensor<1x2x1x4xf32>
    %padded19 = tensor.pad %v14 low[0, 0, 0, 1] high[0, 0, 1, 1] {
    ^bb0(%i20: index, %i21: index, %i22: index, %i23: index):
      tensor.yield %cst1 : f32
    } : tensor<1x2x1x4xf32> to tensor<1x2x2x6xf32>
    %cst24 = arith.constant dense_resource<blob_24_3_2_1_2.float32> : tensor<3x2x1x2xf32>
    %v25 = tensor.empty() : tensor<1x3x1x2xf32>
    %v26 = linalg.fill ins(%cst1 : f32) outs(%v25 : tensor<1x3x1x2xf32>) -> tensor<1x3x1x2xf32>
    %v27 = linalg.conv_2d_nchw_fchw {dilations = dense<[3, 1]> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>} ins(%padded19, %cst24 : tensor<1x2x2x6xf32>, tensor<3x2x1x2xf32>) outs(%v26 : tensor<1x3x1x2xf32>) -> tensor<1x3x1x2xf32>
    %padded28 = tensor.pad %v27 low[0, 0, 7, 3] high[0, 0, 7, 2] {
    ^bb0(%i29: index, %i30: index, %i31: index, %i32: index):
      tensor.yield %cst1 : f32
    } : tensor<1x3x1x2xf32> to tensor<1x3x15x7xf32>
    %v33 = tensor.empty() : tensor<1x3x3x3xf32>
    %v34 = linalg.fill ins(%cst1 : f32) outs(%v33 : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
    %v35 = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<[3, 2]> : vector<2xi64>} ins(%padded28, %arg1 : tensor<1x3x15x7xf32>, tensor<3x3x4x3xf32>) outs(%v34 : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
    return %v35 : tensor<1x3x3x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob_8_2.float32: "0x04000000000060BF000040BE",
      blob_24_3_2_1_2.float32: "0x040000000000F0BE0000A0BD000090BE0000C0BE0000343F0000A03D0000C0BD0000E83E0000103E0000B03E0000F8BE000088BE"
    }
  }
#-}
