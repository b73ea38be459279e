// linalg-fuse-ops runs its pointwise group exactly as linalg-fuse-pointwise does (same
// pattern sets, same walker: consumers first). collapse [6, 4] -> [24] then expand
// [24] -> [2, 12] between three generics is ONE generic in both; it was two here
// while the umbrella walked producers first.
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{conv-pool=false linear-chains=false}' | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-ops | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-pointwise | filecheck %s

func.func @collapse_then_expand(%x: tensor<6x4xf32>, %y: tensor<24xf32>, %z: tensor<2x12xf32>) -> tensor<2x12xf32> {
  %e0 = tensor.empty() : tensor<6x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x4xf32>) outs(%e0 : tensor<6x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<6x4xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %e1 = tensor.empty() : tensor<24xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c, %y : tensor<24xf32>, tensor<24xf32>) outs(%e1 : tensor<24xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<24xf32>
  %d = tensor.expand_shape %b [[0, 1]] output_shape [2, 12] : tensor<24xf32> into tensor<2x12xf32>
  %e2 = tensor.empty() : tensor<2x12xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%d, %z : tensor<2x12xf32>, tensor<2x12xf32>) outs(%e2 : tensor<2x12xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}
// CHECK-LABEL: func.func @collapse_then_expand(
// CHECK:       tensor.expand_shape
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       tensor.collapse_shape
// CHECK:       return
