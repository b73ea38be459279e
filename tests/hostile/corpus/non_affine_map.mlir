// EXPECT: error
// A product of two dims is not affine: MLIR's located error, not an internal error.
func.func @f(%i: index, %j: index) -> index {
  %0 = affine.apply affine_map<(d0, d1) -> (d0 * d1 + 1)>(%i, %j)
  return %0 : index
}
