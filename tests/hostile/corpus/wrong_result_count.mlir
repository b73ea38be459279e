// EXPECT: error
func.func @f(%a: tensor<4x3xf32>, %x: tensor<3xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0, %1 = linalg.matvec ins(%a, %x : tensor<4x3xf32>, tensor<3xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
