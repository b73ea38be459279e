// EXPECT: error
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.matvec ins(%a, %a : tensor<4x3xf32>