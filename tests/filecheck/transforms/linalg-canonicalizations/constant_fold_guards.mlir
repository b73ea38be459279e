// Constant folds that must not happen: a fill, broadcast, transpose or slice of a
// constant stays an op when its result is dynamic, a buffer (no result to replace), or
// of an element type numpy cannot hold (i7). Each guard is reached by one case here.
// The cases the evaluator cannot run say so (`numerics: pipeline only`): for them the
// numeric test only checks that the pipeline succeeds and its output re-parses.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s

// CHECK-LABEL: func.func @fill_dynamic(
// CHECK: %[[E:.*]] = tensor.empty(%n) : tensor<?xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT: return %[[F]]
func.func @fill_dynamic(%n: index) -> tensor<?xf32> {
  %c = arith.constant 1.5 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}

// -----

// numerics: pipeline only: the evaluator has no i7 (numpy has no such type)
// CHECK-LABEL: func.func @fill_i7(
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : i7) outs(%{{.*}} : tensor<4xi7>) -> tensor<4xi7>
// CHECK-NEXT: return %[[F]]
func.func @fill_i7() -> tensor<4xi7> {
  %c = arith.constant 5 : i7
  %e = tensor.empty() : tensor<4xi7>
  %f = linalg.fill ins(%c : i7) outs(%e : tensor<4xi7>) -> tensor<4xi7>
  return %f : tensor<4xi7>
}

// -----

// bf16 has a numpy type (ml_dtypes.bfloat16): its fill folds like f16's.
// CHECK-LABEL: func.func @fill_bf16(
// CHECK-NEXT: %[[F:.*]] = arith.constant dense<1.500000e+00> : tensor<4xbf16>
// CHECK-NEXT: return %[[F]]
func.func @fill_bf16() -> tensor<4xbf16> {
  %c = arith.constant 1.5 : bf16
  %e = tensor.empty() : tensor<4xbf16>
  %f = linalg.fill ins(%c : bf16) outs(%e : tensor<4xbf16>) -> tensor<4xbf16>
  return %f : tensor<4xbf16>
}

// -----

// numerics: pipeline only: the evaluator runs tensors, not buffers
// CHECK-LABEL: func.func @fill_memref(
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%m : memref<4xf32>)
// CHECK-NEXT: return
func.func @fill_memref(%m: memref<4xf32>) {
  %c = arith.constant 1.5 : f32
  linalg.fill ins(%c : f32) outs(%m : memref<4xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @broadcast_dynamic(
// CHECK: %[[E:.*]] = tensor.empty(%n) : tensor<?x4xf32>
// CHECK-NEXT: %[[B:.*]] = linalg.broadcast ins(%{{.*}} : tensor<4xf32>) outs(%[[E]] : tensor<?x4xf32>) dimensions = [0]
// CHECK-NEXT: return %[[B]]
func.func @broadcast_dynamic(%n: index) -> tensor<?x4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %b = linalg.broadcast ins(%c : tensor<4xf32>) outs(%e : tensor<?x4xf32>) dimensions = [0]
  return %b : tensor<?x4xf32>
}

// -----

// numerics: pipeline only: the evaluator runs tensors, not buffers
// CHECK-LABEL: func.func @broadcast_memref(
// CHECK: linalg.broadcast ins(%{{.*}} : memref<4xf32>) outs(%m : memref<4x2xf32>) dimensions = [1]
// CHECK-NEXT: return
func.func @broadcast_memref(%m: memref<4x2xf32>) {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %b = bufferization.to_buffer %c : tensor<4xf32> to memref<4xf32>
  linalg.broadcast ins(%b : memref<4xf32>) outs(%m : memref<4x2xf32>) dimensions = [1]
  return
}

// -----

// numerics: pipeline only: the evaluator runs tensors, not buffers
// CHECK-LABEL: func.func @transpose_memref(
// CHECK: linalg.transpose ins(%{{.*}} : memref<3x2xf32>) outs(%m : memref<2x3xf32>) permutation = [1, 0]
// CHECK-NEXT: return
func.func @transpose_memref(%m: memref<2x3xf32>) {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %b = bufferization.to_buffer %c : tensor<3x2xf32> to memref<3x2xf32>
  linalg.transpose ins(%b : memref<3x2xf32>) outs(%m : memref<2x3xf32>) permutation = [1, 0]
  return
}

// -----

// numerics: pipeline only: a random index argument slices out of bounds
// CHECK-LABEL: func.func @slice_dynamic_offset(
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[%i] [2] [1] : tensor<4xf32> to tensor<2xf32>
// CHECK-NEXT: return %[[S]]
func.func @slice_dynamic_offset(%i: index) -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = tensor.extract_slice %c[%i] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

// numerics: pipeline only: a random index argument slices out of bounds
// CHECK-LABEL: func.func @slice_dynamic_size(
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[0] [%n] [1] : tensor<4xf32> to tensor<?xf32>
// CHECK-NEXT: return %[[S]]
func.func @slice_dynamic_size(%n: index) -> tensor<?xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = tensor.extract_slice %c[0] [%n] [1] : tensor<4xf32> to tensor<?xf32>
  return %s : tensor<?xf32>
}
