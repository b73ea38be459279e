// Expressions MLIR refuses as non-affine: one located line each, MLIR's message and
// column (the operator), never an internal error.
// RUN: heirpy-opt %s --split-input-file --verify-diagnostics | filecheck %s

#m = affine_map<(d0, d1) -> (d0 * d1)>
func.func @product_of_dims() attributes {m = #m} {
  return
}
// CHECK: non_affine_maps.mlir:[[# @LINE - 4]]:33: error: non-affine expression: at least one of the multiply operands has to be either a constant or symbolic

// -----

func.func @floordiv_by_a_dim() attributes {m = affine_map<(d0) -> (d0 floordiv d0)>} {
  return
}
// CHECK: non_affine_maps.mlir:[[# @LINE - 3]]:71: error: non-affine expression: right operand of floordiv has to be either a constant or symbolic

// -----

func.func @mod_by_a_sum_of_dims(%i: index, %j: index) -> index {
  %0 = affine.apply affine_map<(d0, d1) -> (d0 mod (d1 + 2))>(%i, %j)
  return %0 : index
}
// CHECK: non_affine_maps.mlir:[[# @LINE - 3]]:48: error: non-affine expression: right operand of mod has to be either a constant or symbolic

// -----

func.func @ceildiv_in_a_layout(%m: memref<4xf32, affine_map<(d0)[s0] -> ((d0 * s0) ceildiv (d0 + s0))>>) {
  return
}
// CHECK: non_affine_maps.mlir:[[# @LINE - 3]]:84: error: non-affine expression: right operand of ceildiv has to be either a constant or symbolic
