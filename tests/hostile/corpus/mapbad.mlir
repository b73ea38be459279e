// EXPECT: error
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.map { nosuch.op } ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>)
  return %0 : tensor<4xf32>
}