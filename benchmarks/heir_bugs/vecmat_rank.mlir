// x·W with a secret row vector (what every torch Linear becomes): HEIR's own pipeline
// builds an invalid linalg.vecmat. The same with linalg.matmul on a 1x64 operand.
func.func @main(%x: tensor<64xf32>) -> tensor<32xf32> {
  %w = arith.constant dense<0.5> : tensor<64x32xf32>
  %z = arith.constant dense<0.0> : tensor<32xf32>
  %y = linalg.vecmat ins(%x, %w : tensor<64xf32>, tensor<64x32xf32>) outs(%z : tensor<32xf32>) -> tensor<32xf32>
  return %y : tensor<32xf32>
}
