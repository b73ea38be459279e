// EXPECT: ok
func.func @f(%x: tensor<1x1x4x4xi8>, %w: tensor<1x1x3x3xi8>, %o: tensor<1x1x2x2xi32>) -> tensor<1x1x2x2xi32> {
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x4x4xi8>, tensor<1x1x3x3xi8>) outs(%o : tensor<1x1x2x2xi32>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}