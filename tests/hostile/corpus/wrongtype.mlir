// EXPECT: error
func.func @f(%a: tensor<4xf32>) -> tensor<4xi32> {
  return %a : tensor<4xf32>
}