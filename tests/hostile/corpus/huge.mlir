// EXPECT: ok
func.func @f(%a: tensor<100000000x100000000xf32>) -> tensor<100000000x100000000xf32> {
  %0 = tensor.empty() : tensor<100000000x100000000xf32>
  %c = arith.constant 0.0 : f32
  %1 = linalg.fill ins(%c : f32) outs(%0 : tensor<100000000x100000000xf32>) -> tensor<100000000x100000000xf32>
  return %1 : tensor<100000000x100000000xf32>
}