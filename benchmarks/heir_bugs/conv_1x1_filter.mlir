// A 1x1 conv with one input channel on a 1x1x4x4 input: heir-opt --torch-linalg-to-ckks
// fails with "unexpected unrealized conversion cast op found". So do 1->2, 1->4 and 2->1
// channels (found by benchmarks/fuzz_heir.py); 2->2, 4->4 and 16->4 compile, as does a
// 3x3 filter with one input channel.
func.func @main(%arg0: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<1.250000e-01> : tensor<1x1x1x1xf32>
  %z = arith.constant dense<0.000000e+00> : tensor<1x1x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %w : tensor<1x1x4x4xf32>, tensor<1x1x1x1xf32>) outs(%z : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %c : tensor<1x1x4x4xf32>
}
