// The example of the pass docstring: a constant fill folds and the elementwise generic
// becomes arith on tensors.
// RUN: heirpy-opt %s -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s -p linalg-canonicalizations | heir-opt | filecheck %s

// CHECK-LABEL: func.func @docstring
// CHECK-SAME: (%[[X:.*]]: tensor<1x4xf32>)
// CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<1x4xf32>
// CHECK-NOT: linalg
// CHECK: %[[R:.*]] = arith.addf %[[X]], %[[C]] : tensor<1x4xf32>
// CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @docstring(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %c = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x4xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %f : tensor<1x4xf32>, tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
