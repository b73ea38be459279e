// A generic that writes its result through a map that is not a projected permutation
// (a reshape folded into the output map: element (i, j) goes to i * 3 + j). Valid MLIR
// (heir-opt and iree-opt verify it). IREE 3.13 crashes instead of diagnosing it:
// LLVMCPUSelectLoweringStrategy -> LinalgOpInfo::computeInfo -> isTransposeMap ->
// AffineMap::isProjectedPermutation (an assertion on a non-permutation map).
func.func @main(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 * 3 + d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
