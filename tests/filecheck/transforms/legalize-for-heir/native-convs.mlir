// A unit-stride conv HEIR runs at one level as it is (its data row-major, power-of-two
// under its pad) stays a conv when its dense matrix would pass 2^20 entries: ResNet-20's
// last stage, 64x8x8 (4096 x 4096 as a matvec: 64 MB per conv). Below that it becomes
// the matvec every bundled net reaches its bound with (@small: 256 x 256).
// RUN: heirpy-opt %s --split-input-file -p legalize-for-heir | filecheck %s

func.func @big(%x: tensor<1x64x8x8xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.015625> : tensor<64x64x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<1x64x8x8xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x8x8xf32> to tensor<1x64x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x64x10x10xf32>, tensor<64x64x3x3xf32>) outs(%b : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %e = tensor.empty() : tensor<1x64x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x64x8x8xf32>) outs(%e : tensor<1x64x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x64x8x8xf32>
  %f = tensor.collapse_shape %s [[0], [1, 2, 3]] : tensor<1x64x8x8xf32> into tensor<1x4096xf32>
  %fc = arith.constant dense<0.001> : tensor<4096x10xf32>
  %z = arith.constant dense<0.0> : tensor<1x10xf32>
  %y = linalg.matmul ins(%f, %fc : tensor<1x4096xf32>, tensor<4096x10xf32>) outs(%z : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %y : tensor<1x10xf32>
}
// CHECK-LABEL: func.func @big
// CHECK:      tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:      %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} : tensor<1x64x10x10xf32>, tensor<64x64x3x3xf32>) outs(%{{.*}} : tensor<1x64x8x8xf32>)
// CHECK:      linalg.generic {{.*}} ins(%[[C]] : tensor<1x64x8x8xf32>)
// CHECK:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<10x4096xf32>, tensor<4096xf32>)

// -----

func.func @small(%x: tensor<1x4x8x8xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.125> : tensor<4x4x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<1x4x8x8xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%b : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x8x8xf32>
  %f = tensor.collapse_shape %s [[0], [1, 2, 3]] : tensor<1x4x8x8xf32> into tensor<1x256xf32>
  %fc = arith.constant dense<0.01> : tensor<256x10xf32>
  %z = arith.constant dense<0.0> : tensor<1x10xf32>
  %y = linalg.matmul ins(%f, %fc : tensor<1x256xf32>, tensor<256x10xf32>) outs(%z : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %y : tensor<1x10xf32>
}
// CHECK-LABEL: func.func @small
// CHECK-NOT:  linalg.conv_2d_nchw_fchw
// CHECK:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<256x256xf32>, tensor<256xf32>)
// CHECK:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<10x256xf32>, tensor<256xf32>)
