// EXPECT: ok
func.func @f(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>, %o: tensor<?x?x?x?xf32>, %win: tensor<?x?xf32>, %p: tensor<?x?x?x?xf32>, %a: index, %b: index, %c1: index, %d: index) -> tensor<?x?x?x?xf32> {
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%o : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %1 = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%0, %win : tensor<?x?x?x?xf32>, tensor<?x?xf32>) outs(%p : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %c = tensor.collapse_shape %1 [[0], [1, 2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
  %e = tensor.expand_shape %c [[0], [1, 2, 3]] output_shape [%a, %b, %c1, %d] : tensor<?x?xf32> into tensor<?x?x?x?xf32>
  return %e : tensor<?x?x?x?xf32>
}
