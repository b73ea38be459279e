// Found by the program generator (tests/strategies.py): a generic whose body
// GenericToElementwise cannot turn into tensor ops (then cmpf/select, which xDSL's arith
// did not type on tensors; here math.fpowi, which it does not re-emit) used to leave the
// tensor ops it had already built (an arith.addf on the transposed input) dangling as
// users of that input; folding the transpose then pushed the dangling op onto the
// rewriter's worklist and the pass crashed ("insertion point must have a parent block").
// RUN: heirpy-opt %s -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-canonicalizations | filecheck %s

// No tensor-level arith.addf is left over (the dangling op sat before the generic).
// CHECK-LABEL: func.func @relu_of_sum_with_transposed_constant
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: arith.addf {{.*}} : tensor
// CHECK: %[[C:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NOT: arith.addf {{.*}} : tensor
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[C]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf {{.*}} : f32
// CHECK-NEXT: math.fpowi
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: } -> tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @relu_of_sum_with_transposed_constant(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %n = arith.constant 3 : i32
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %c : tensor<2x3xf32>, tensor<3x2xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %q = math.fpowi %s, %n : f32, i32
    linalg.yield %q : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
