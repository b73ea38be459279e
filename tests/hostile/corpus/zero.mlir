// EXPECT: ok
func.func @f(%a: tensor<0x3xf32>, %b: tensor<3xf32>, %y: tensor<0xf32>) -> tensor<0xf32> {
  %0 = linalg.matvec ins(%a, %b : tensor<0x3xf32>, tensor<3xf32>) outs(%y : tensor<0xf32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}