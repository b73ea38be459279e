// The same miscompile on linalg.matvec: (c + W·x) * 2 becomes c + (2W)·x.
func.func @main(%x: tensor<3xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %c = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %y = linalg.matvec ins(%w, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%c : tensor<2xf32>) -> tensor<2xf32>
  %two = arith.constant dense<2.0> : tensor<2xf32>
  %s = arith.mulf %y, %two : tensor<2xf32>
  return %s : tensor<2xf32>
}
