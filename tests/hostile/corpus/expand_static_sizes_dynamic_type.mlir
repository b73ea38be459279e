// EXPECT: error
// Static output_shape sizes for a dynamic result type: MLIR wants one SSA size per `?`.
func.func @f(%c: tensor<?x?xf32>) -> tensor<?x?x?x?xf32> {
  %e = tensor.expand_shape %c [[0], [1, 2, 3]] output_shape [1, 2, 3, 4] : tensor<?x?xf32> into tensor<?x?x?x?xf32>
  return %e : tensor<?x?x?x?xf32>
}
