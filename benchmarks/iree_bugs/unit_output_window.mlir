// A strided window whose single output position does not reach the input's last element
// (W = 4, window 3, stride 2: one output, reading elements 0..2). Valid MLIR (heir-opt and
// iree-opt verify it; upstream linalg-generalize-named-ops gives a valid generic), and
// torch-mlir writes it for Conv2d/AvgPool2d/MaxPool2d with stride > 1 on small inputs.
// IREE 3.13's iree-dispatch-creation-fold-unit-extent-dims drops the unit output dim and
// builds a generic that reads the input through the window loop alone, which its
// verifier rejects. The same on linalg.conv_2d_nchw_fchw and linalg.pooling_nchw_max.
func.func @main(%x: tensor<1x1x1x4xf32>) -> tensor<1x1x1x1xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x1x1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %w = tensor.empty() : tensor<1x3xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x1x1x4xf32>, tensor<1x3xf32>) outs(%init : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %p : tensor<1x1x1x1xf32>
}
