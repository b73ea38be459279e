// The cost rule of linalg-fuse-linear-chains: a pool folded into the next Linear saves
// a level and multiplies the Linear's weights by the window (LeNet-5's FC1: 400x120 ->
// 1600x120). A 2x2 pool into an 8->3 Linear: 24 weights -> a 32x3 matrix (4x); a 3x3
// pool: 72x3 (9x).
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | filecheck %s --check-prefix=BALANCED
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{policy=depth}' | filecheck %s --check-prefix=DEPTH
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{policy=size}' | filecheck %s --check-prefix=SIZE
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{max-weight-growth=2}' | filecheck %s --check-prefix=TIGHT
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{max-weight-growth=2 pointwise=false}' | filecheck %s --check-prefix=TIGHT
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{max-weight-growth=9}' | filecheck %s --check-prefix=LOOSE
// max-mac-growth bounds MACs per level the same way. The 2x2 pool chain: a sum pool of
// 8 outputs over 4 taps (32 MACs) and the 8->3 Linear (24) become a 32x3 matrix (96):
// 1.71x, within a bound of 2, not of 1.5.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{max-mac-growth=2}' | filecheck %s --check-prefix=BALANCED
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{max-mac-growth=1.5}' | filecheck %s --check-prefix=TIGHT

func.func @pool2_linear(%x: tensor<1x2x4x4xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant 0.0 : f32
  %div = arith.constant 4.0 : f32
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, -1.0, 0.0, 1.5, 2.0, -0.5, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0]]> : tensor<3x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e1 = tensor.empty() : tensor<1x2x2x2xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e1 : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %div : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<1x8xf32>
  %e2 = tensor.empty() : tensor<8x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x8xf32>) outs(%e2 : tensor<8x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.matmul ins(%f, %wt : tensor<1x8xf32>, tensor<8x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
// The default (balanced, 4x per level) pays 4x for the level.
// BALANCED-LABEL: func.func @pool2_linear(
// BALANCED-NEXT: %[[F:.*]] = tensor.collapse_shape %x {{.*}} into tensor<1x32xf32>
// BALANCED-NEXT: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<32x3xf32>
// BALANCED: %[[R:.*]] = linalg.matmul ins(%[[F]], %[[W]] : tensor<1x32xf32>, tensor<32x3xf32>)
// BALANCED-NEXT: return %[[R]]
// DEPTH-LABEL: func.func @pool2_linear(
// DEPTH-NEXT: tensor.collapse_shape %x
// DEPTH-NEXT: arith.constant dense<{{.*}}> : tensor<32x3xf32>
// `size` and a 2x bound keep the pool and the Linear apart.
// SIZE-LABEL: func.func @pool2_linear(
// SIZE: linalg.pooling_nchw_sum
// SIZE: linalg.matmul {{.*}} tensor<1x8xf32>, tensor<8x3xf32>
// TIGHT-LABEL: func.func @pool2_linear(
// TIGHT: linalg.pooling_nchw_sum
// TIGHT: linalg.matmul {{.*}} tensor<1x8xf32>, tensor<8x3xf32>
// LOOSE-LABEL: func.func @pool2_linear(
// LOOSE-NEXT: tensor.collapse_shape %x

// -----

func.func @pool3_linear(%x: tensor<1x2x6x6xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant 0.0 : f32
  %div = arith.constant 9.0 : f32
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, -1.0, 0.0, 1.5, 2.0, -0.5, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0]]> : tensor<3x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e1 = tensor.empty() : tensor<1x2x2x2xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<3> : vector<2xi64>} ins(%x, %win : tensor<1x2x6x6xf32>, tensor<3x3xf32>) outs(%z1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e1 : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %div : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<1x8xf32>
  %e2 = tensor.empty() : tensor<8x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x8xf32>) outs(%e2 : tensor<8x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.matmul ins(%f, %wt : tensor<1x8xf32>, tensor<8x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
// 9x weights for one level: only `depth` and a 9x bound fuse.
// BALANCED-LABEL: func.func @pool3_linear(
// BALANCED: linalg.pooling_nchw_sum
// BALANCED: linalg.matmul {{.*}} tensor<1x8xf32>, tensor<8x3xf32>
// DEPTH-LABEL: func.func @pool3_linear(
// DEPTH-NEXT: %[[F:.*]] = tensor.collapse_shape %x {{.*}} into tensor<1x72xf32>
// DEPTH-NEXT: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<72x3xf32>
// DEPTH: %[[R:.*]] = linalg.matmul ins(%[[F]], %[[W]] : tensor<1x72xf32>, tensor<72x3xf32>)
// DEPTH-NEXT: return %[[R]]
// SIZE-LABEL: func.func @pool3_linear(
// SIZE: linalg.pooling_nchw_sum
// TIGHT-LABEL: func.func @pool3_linear(
// TIGHT: linalg.pooling_nchw_sum
// LOOSE-LABEL: func.func @pool3_linear(
// LOOSE-NEXT: tensor.collapse_shape %x {{.*}} into tensor<1x72xf32>
