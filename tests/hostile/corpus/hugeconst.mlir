// EXPECT: error
func.func @f() -> tensor<100000000x100000000xf32> {
  %c = arith.constant dense<1.0> : tensor<100000000x100000000xf32>
  return %c : tensor<100000000x100000000xf32>
}