// Average pool whose accumulator starts at 2 (not 0): the result is (2 + sum) / 4.
func.func @main(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %init = arith.constant dense<2.0> : tensor<1x1x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %four = arith.constant dense<4.0> : tensor<1x1x2x2xf32>
  %avg = arith.divf %sum, %four : tensor<1x1x2x2xf32>
  return %avg : tensor<1x1x2x2xf32>
}
