// A matvec whose vector has more elements than the slot count (1025 > 1024): no size
// check rejects it; convert-to-ciphertext-semantics leaves a cast behind instead.
func.func @main(%x: tensor<1025xf32>) -> tensor<32xf32> {
  %w = arith.constant dense<0.01> : tensor<32x1025xf32>
  %z = arith.constant dense<0.0> : tensor<32xf32>
  %y = linalg.matvec ins(%w, %x : tensor<32x1025xf32>, tensor<1025xf32>) outs(%z : tensor<32xf32>) -> tensor<32xf32>
  return %y : tensor<32xf32>
}
