// A matmul that accumulates into a non-zero constant, then a scale by 2: (C + x*W) * 2.
func.func @main(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %c = arith.constant dense<[[10.0, 20.0]]> : tensor<1x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x3xf32>, tensor<3x2xf32>) outs(%c : tensor<1x2xf32>) -> tensor<1x2xf32>
  %two = arith.constant dense<2.0> : tensor<1x2xf32>
  %s = arith.mulf %y, %two : tensor<1x2xf32>
  return %s : tensor<1x2xf32>
}
