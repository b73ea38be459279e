// EXPECT: error
func.func @f(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>, %o: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %0 = linalg.conv_2d_nchw_fchw {strides = "two"} ins(%x, %w : tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) outs(%o : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}