// linalg.generic's own syntax errors are one located line each, never a Python error: the
// chunks' diagnostics (stderr only) follow each other line by line (CHECK-NEXT), nothing between.
// RUN: not heirpy-opt %s --split-input-file 2>&1 >/dev/null | filecheck %s

func.func @unclosed_results(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%x, %x : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    linalg.yield %in, %in : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>
  return %r#0 : tensor<4xf32>
}
// CHECK: generic_invalid.mlir:10:3: error: Expected ')'

// -----

func.func @no_maps(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-NEXT: generic_invalid.mlir:17:23: error: expected 'indexing_maps', an array of affine maps, in linalg.generic

// -----

func.func @bad_iterator(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["sideways"]} ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-NEXT: generic_invalid.mlir:28:23: error: unknown iterator type "sideways" in linalg.generic

// -----

func.func @not_a_dictionary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic [1, 2] ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-NEXT: generic_invalid.mlir:39:23: error: expected a dictionary of linalg.generic attributes

// -----

func.func @too_few_results(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%x, %x : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    linalg.yield %in, %in : f32, f32
  } -> (tensor<4xf32>)
  return %r#0 : tensor<4xf32>
}
// CHECK-NEXT: generic_invalid.mlir:50:3: error: Operation has 1 results, but was given 2 to bind.
