// Between two convs, a generic that is almost an elementwise op with a constant (x + b,
// x * b) is a nonlinearity as far as linalg-fuse-linear-chains can tell, and the chain
// stays two convs. Each case is the only input that reaches its guard in linear_match.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | filecheck %s

// -----

// X + b written through a transposing output map is not elementwise.
func.func @transposed_output_between(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]], [[[2.0, 1.0], [-1.0, 0.5]]]]> : tensor<2x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x2x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%z1 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s = arith.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %c1 : tensor<2xf32>, tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) {
  ^bb0(%k: f32, %in: f32, %o: f32):
    %q = arith.addf %in, %k : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]], [[[1.0, 1.0], [1.0, 1.0]], [[-0.5, 0.5], [0.5, -0.5]]]]> : tensor<2x2x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%d, %w2 : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @transposed_output_between(
// CHECK: %[[C1:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>)
// CHECK: %[[D:.*]] = linalg.generic {{.*}}ins(%{{.*}}, %[[C1]] : tensor<2xf32>, tensor<1x2x5x5xf32>)
// CHECK: %[[C2:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%[[D]], %{{.*}} : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: return %[[C2]]

// -----

// X + b reading x through a transposing map is not elementwise.
func.func @transposed_read_between(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]], [[[2.0, 1.0], [-1.0, 0.5]]]]> : tensor<2x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x2x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%z1 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s = arith.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %c1 : tensor<2xf32>, tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) {
  ^bb0(%k: f32, %in: f32, %o: f32):
    %q = arith.addf %in, %k : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]], [[[1.0, 1.0], [1.0, 1.0]], [[-0.5, 0.5], [0.5, -0.5]]]]> : tensor<2x2x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%d, %w2 : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @transposed_read_between(
// CHECK: %[[C1:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>)
// CHECK: %[[D:.*]] = linalg.generic {{.*}}ins(%{{.*}}, %[[C1]] : tensor<2xf32>, tensor<1x2x5x5xf32>)
// CHECK: %[[C2:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%[[D]], %{{.*}} : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: return %[[C2]]

// -----

// X + init (a constant 1.0 init) reads the init, not only the inputs.
func.func @reads_its_init_between(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]], [[[2.0, 1.0], [-1.0, 0.5]]]]> : tensor<2x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x2x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%z1 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s = arith.constant dense<[2.0, -3.0]> : tensor<2xf32>
  %e = arith.constant dense<1.0> : tensor<1x2x5x5xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %c1 : tensor<2xf32>, tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) {
  ^bb0(%k: f32, %in: f32, %o: f32):
    %q = arith.addf %in, %o : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]], [[[1.0, 1.0], [1.0, 1.0]], [[-0.5, 0.5], [0.5, -0.5]]]]> : tensor<2x2x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%d, %w2 : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @reads_its_init_between(
// CHECK: %[[C1:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>)
// CHECK: %[[D:.*]] = linalg.generic {{.*}}ins(%{{.*}}, %[[C1]] : tensor<2xf32>, tensor<1x2x5x5xf32>)
// CHECK: %[[C2:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%[[D]], %{{.*}} : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: return %[[C2]]
