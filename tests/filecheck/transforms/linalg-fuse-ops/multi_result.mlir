// Generics with several results (torch-mlir's max/argmax) through the main pipeline: a
// single-result producer still fuses into a two-result consumer, but a two-result producer is
// not fused into its consumer and a two-result epilogue does not make a kernel with a conv --
// those cases are left exactly as they were.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-ops | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext | heirpy-opt --split-input-file | filecheck %s --check-prefix=LOWERED

#id = affine_map<(d0, d1) -> (d0, d1)>
// Positive: x² fuses into the two-result generic that reads it.
func.func @into_two_results(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%sq : tensor<4x8xf32>) outs(%e, %e : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32):
    %n = arith.negf %x : f32
    %x2 = math.exp %x : f32
    linalg.yield %n, %x2 : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: func.func @into_two_results
// CHECK:       %[[R:.*]]:2 = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.negf
// CHECK:         math.exp
// CHECK:       } -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NEXT:  return %[[R]]#0, %[[R]]#1
// linalg-canonicalizations splits an all-parallel generic with two results into one generic per
// result (each can then fuse on its own); the lowered pipeline output re-parses.
// LOWERED-LABEL: func.func @into_two_results
// LOWERED:       %[[SQ:.*]] = linalg.generic
// LOWERED:         arith.mulf
// LOWERED:       %[[N:.*]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<4x8xf32>)
// LOWERED:         arith.negf
// LOWERED:       %[[E:.*]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<4x8xf32>)
// LOWERED:         math.exp
// LOWERED:       return %[[N]], %[[E]]

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// Negative: the consumer reads result #1 of a two-result generic; the producer stays whole.
func.func @from_two_results(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e, %e : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %x, %y : f32
    linalg.yield %s, %p : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%r#1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  return %r#0, %c : tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: func.func @from_two_results
// CHECK:       %[[R:.*]]:2 = linalg.generic
// CHECK:         arith.addf
// CHECK:         arith.mulf
// CHECK:         linalg.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK:       %[[C:.*]] = linalg.generic {{.*}} ins(%[[R]]#1 : tensor<4x8xf32>)
// CHECK:         arith.negf
// CHECK:       return %[[R]]#0, %[[C]]
// LOWERED-LABEL: func.func @from_two_results
// LOWERED-NOT:   tensor_ext
// LOWERED:       return

// -----

// Negative: a conv whose epilogue has two results is not made a tensor_ext.kernel.
func.func @conv_two_result_epilogue(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x3x4x4xf32>) outs(%e, %e : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  ^bb0(%v: f32, %o0: f32, %o1: f32):
    %sq = arith.mulf %v, %v : f32
    %n = arith.negf %v : f32
    linalg.yield %sq, %n : f32, f32
  } -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>)
  return %r#0, %r#1 : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}
// CHECK-LABEL: func.func @conv_two_result_epilogue
// CHECK-NOT:   tensor_ext.kernel
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK:       linalg.generic {{.*}} ins(%[[C]] : tensor<1x3x4x4xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>)
// CHECK:       } -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>)
// CHECK-NEXT:  return
// LOWERED-LABEL: func.func @conv_two_result_epilogue
// LOWERED:       linalg.conv_2d_nchw_fchw
// LOWERED:       return
