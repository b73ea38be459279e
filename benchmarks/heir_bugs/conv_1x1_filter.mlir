// A conv whose filter has one tap per output channel (one input channel, a 1x1 filter) on
// a 1x1x4x4 input: heir-opt --torch-linalg-to-ckks fails with "unexpected unrealized
// conversion cast op found"; with two input channels, or a 3x3 filter, it compiles.
func.func @main(%arg0: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<1.250000e-01> : tensor<1x1x1x1xf32>
  %z = arith.constant dense<0.000000e+00> : tensor<1x1x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %w : tensor<1x1x4x4xf32>, tensor<1x1x1x1xf32>) outs(%z : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %c : tensor<1x1x4x4xf32>
}
