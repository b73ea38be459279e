// EXPECT: error
func.func @f(%x: tensor<1x1x4x4xf32>, %o: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %0 = linalg.conv_2d_nchw_fchw ins(%x : tensor<1x1x4x4xf32>) outs(%o : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}