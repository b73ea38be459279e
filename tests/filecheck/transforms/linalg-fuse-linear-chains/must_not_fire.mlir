// linalg-fuse-linear-chains guards: each chain must be left as it is.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | filecheck %s

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// x * x between two convs.
func.func @square_between(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x3x3xf32> {
  %w1 = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %w2 = arith.constant dense<0.5> : tensor<1x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x1x4x4xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x1x3x3xf32>
  %a = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%z1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %a : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) outs(%z1 : tensor<1x1x4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<1x1x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw ins(%sq, %w2 : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) outs(%z2 : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %b : tensor<1x1x3x3xf32>
}
// CHECK-LABEL: func.func @square_between(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %w1
// CHECK: arith.mulf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%sq, %w2

// -----

// sigmoid between a matmul and a matmul.
func.func @sigmoid_between(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<1.0> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %one = arith.constant 1.0 : f32
  %a = linalg.matmul ins(%x, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x2xf32>) outs(%z : tensor<1x2xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  %b = linalg.matmul ins(%s, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %b : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @sigmoid_between(
// CHECK: linalg.matmul ins(%x, %w
// CHECK: math.exp
// CHECK: linalg.matmul ins(%s, %w

// -----

// max-pool between two convs.
func.func @maxpool_between(%x: tensor<1x1x6x6xf32>) -> tensor<1x1x1x1xf32> {
  %w1 = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %w2 = arith.constant dense<0.5> : tensor<1x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x1x4x4xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x1x2x2xf32>
  %z3 = arith.constant dense<0.0> : tensor<1x1x1x1xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %a = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%z1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %m = linalg.pooling_nchw_max {strides = dense<2> : vector<2xi64>} ins(%a, %win : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%z2 : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %b = linalg.conv_2d_nchw_fchw ins(%m, %w2 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) outs(%z3 : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %b : tensor<1x1x1x1xf32>
}
// CHECK-LABEL: func.func @maxpool_between(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %w1
// CHECK: linalg.pooling_nchw_max
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%m, %w2

// -----

// The intermediate has another user (it is also returned): the chain is not fused
// into one op (%a must stay); the second pattern set adds the composed conv beside it
// (chains_through_forks.py, through_fork.mlir), one level instead of two for %b.
func.func @shared_intermediate(%x: tensor<1x1x6x6xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x4x4xf32>) {
  %w1 = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %w2 = arith.constant dense<0.5> : tensor<1x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x1x4x4xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x1x3x3xf32>
  %a = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%z1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw ins(%a, %w2 : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) outs(%z2 : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %b, %a : tensor<1x1x3x3xf32>, tensor<1x1x4x4xf32>
}
// CHECK-LABEL: func.func @shared_intermediate(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %w1
// CHECK: %[[B:.*]] = linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<1x1x4x4xf32>)
// CHECK-NEXT: return %[[B]], %[[A]]

// -----

// Weights of the second conv are a function argument.
func.func @argument_weights(%x: tensor<1x1x6x6xf32>, %w2: tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32> {
  %w1 = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x1x4x4xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x1x3x3xf32>
  %a = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%z1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw ins(%a, %w2 : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) outs(%z2 : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %b : tensor<1x1x3x3xf32>
}
// CHECK-LABEL: func.func @argument_weights(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%x, %w1
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%a, %w2

// -----

// Dynamic batch.
func.func @dynamic(%x: tensor<?x2xf32>, %z: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %w = arith.constant dense<1.0> : tensor<2x2xf32>
  %a = linalg.matmul ins(%x, %w : tensor<?x2xf32>, tensor<2x2xf32>) outs(%z : tensor<?x2xf32>) -> tensor<?x2xf32>
  %b = linalg.matmul ins(%a, %w : tensor<?x2xf32>, tensor<2x2xf32>) outs(%z : tensor<?x2xf32>) -> tensor<?x2xf32>
  return %b : tensor<?x2xf32>
}
// CHECK-LABEL: func.func @dynamic(
// CHECK: linalg.matmul ins(%x, %w
// CHECK: linalg.matmul ins(%a, %w

// -----

// An init that differs across the batch is not a per-sample map.
func.func @batch_varying_init(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<1.0> : tensor<2x2xf32>
  %z = arith.constant dense<[[0.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %a = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = linalg.matmul ins(%a, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %b : tensor<2x2xf32>
}
// CHECK-LABEL: func.func @batch_varying_init(
// CHECK: linalg.matmul ins(%x, %w
// CHECK: linalg.matmul ins(%a, %w

// -----

// A pad of 1.0 between two convs rules out the conv form (a zero pad would not: a conv
// with edge corrections, through_pad_edges.mlir), and the explicit matrix would have
// 12288 x 16384 entries (over the 2^22 cap): left alone.
func.func @matrix_too_big(%x: tensor<1x3x64x64xf32>) -> tensor<1x4x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<1.0> : tensor<4x3x3x3xf32>
  %w2 = arith.constant dense<0.5> : tensor<4x4x3x3xf32>
  %z = arith.constant dense<0.0> : tensor<1x4x64x64xf32>
  %p1 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x3x64x64xf32> to tensor<1x3x66x66xf32>
  %a = linalg.conv_2d_nchw_fchw ins(%p1, %w1 : tensor<1x3x66x66xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<1x4x64x64xf32>) -> tensor<1x4x64x64xf32>
  %p2 = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x4x64x64xf32> to tensor<1x4x66x66xf32>
  %b = linalg.conv_2d_nchw_fchw ins(%p2, %w2 : tensor<1x4x66x66xf32>, tensor<4x4x3x3xf32>) outs(%z : tensor<1x4x64x64xf32>) -> tensor<1x4x64x64xf32>
  return %b : tensor<1x4x64x64xf32>
}
// CHECK-LABEL: func.func @matrix_too_big(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%p1, %w1
// CHECK: tensor.pad %a
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}ins(%p2, %w2

// -----

// A pad between two convs whose padding value is a function argument: the chain's
// matrix would have to hold a value known only at run time.
func.func @pad_value_is_an_argument(%x: tensor<1x1x6x6xf32>, %v: f32) -> tensor<1x1x5x5xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]]]> : tensor<1x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x1x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%z1 : tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  %p = tensor.pad %c1 low[0, 0, 1, 0] high[0, 0, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %v : f32
  } : tensor<1x1x5x5xf32> to tensor<1x1x6x6xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]]]]> : tensor<1x1x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x1x5x5xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%p, %w2 : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%z2 : tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  return %c2 : tensor<1x1x5x5xf32>
}
// CHECK-LABEL: func.func @pad_value_is_an_argument(
// CHECK: linalg.conv_2d_nchw_fchw ins(%x, %w1
// CHECK: tensor.pad %c1 low[0, 0, 1, 0] high[0, 0, 0, 1]
// CHECK: tensor.yield %v
// CHECK: linalg.conv_2d_nchw_fchw ins(%p, %w2

// -----

// A pad on the batch dim between two convs: the chain maps one sample to one sample,
// and a padded batch is not that.
func.func @pad_on_batch(%x: tensor<1x1x6x6xf32>) -> tensor<2x1x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]]]> : tensor<1x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x1x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%z1 : tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %c1 low[1, 0, 0, 0] high[0, 0, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x1x5x5xf32> to tensor<2x1x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]]]]> : tensor<1x1x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<2x1x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%p, %w2 : tensor<2x1x5x5xf32>, tensor<1x1x2x2xf32>) outs(%z2 : tensor<2x1x4x4xf32>) -> tensor<2x1x4x4xf32>
  return %c2 : tensor<2x1x4x4xf32>
}
// CHECK-LABEL: func.func @pad_on_batch(
// CHECK: linalg.conv_2d_nchw_fchw ins(%x, %w1
// CHECK: tensor.pad %c1 low[1, 0, 0, 0] high[0, 0, 0, 0]
// CHECK: linalg.conv_2d_nchw_fchw ins(%p, %w2

// -----

// A per-channel divide between two convs with a zero divisor in one channel: 1/0 is not
// a weight the chain's matrix can hold (x / 0 is inf or NaN, as x is).
func.func @divide_by_zero_between_convs(%x: tensor<1x1x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]], [[[2.0, 1.0], [-1.0, 0.5]]]]> : tensor<2x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x2x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%z1 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s = arith.constant dense<[2.0, 0.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %s : tensor<1x2x5x5xf32>, tensor<2xf32>) outs(%e : tensor<1x2x5x5xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %q = arith.divf %in, %k : f32
    linalg.yield %q : f32
  } -> tensor<1x2x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]], [[[1.0, 1.0], [1.0, 1.0]], [[-0.5, 0.5], [0.5, -0.5]]]]> : tensor<2x2x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%d, %w2 : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @divide_by_zero_between_convs(
// CHECK: linalg.conv_2d_nchw_fchw ins(%x, %w1
// CHECK: arith.divf %in, %k
// CHECK: linalg.conv_2d_nchw_fchw ins(%d, %w2

// -----

// The first conv accumulates into a function argument (its init is not a constant): the
// chain's bias would be a run-time value.
func.func @conv_accumulates_into_an_argument(%x: tensor<1x1x6x6xf32>, %acc: tensor<1x1x5x5xf32>) -> tensor<1x1x4x4xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]]]> : tensor<1x1x2x2xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%acc : tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]]]]> : tensor<1x1x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x1x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%c1, %w2 : tensor<1x1x5x5xf32>, tensor<1x1x2x2xf32>) outs(%z2 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %c2 : tensor<1x1x4x4xf32>
}
// CHECK-LABEL: func.func @conv_accumulates_into_an_argument(
// CHECK: linalg.conv_2d_nchw_fchw ins(%x, %w1 {{.*}} outs(%acc
// CHECK: linalg.conv_2d_nchw_fchw ins(%c1, %w2

// -----

// A matmul whose weight is a function argument, between two constant matmuls: a product
// of two run-time values is not a linear map of the input.
func.func @matmul_with_runtime_weight(%x: tensor<1x2xf32>, %m: tensor<2x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[1.0, -2.0], [0.5, 3.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %a = linalg.matmul ins(%x, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  %b = linalg.matmul ins(%a, %m : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  %c = linalg.matmul ins(%b, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %c : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @matmul_with_runtime_weight(
// CHECK: linalg.matmul ins(%x, %w
// CHECK: linalg.matmul ins(%a, %m
// CHECK: linalg.matmul ins(%b, %w

// -----

// A sum pool accumulating into a function argument between two convs: its init is not a
// constant, so the pool is not an affine map of the first conv's result.
func.func @pool_accumulates_into_an_argument(%x: tensor<1x1x6x6xf32>, %acc: tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32> {
  %w1 = arith.constant dense<[[[[1.0, -2.0], [0.5, 1.5]]]]> : tensor<1x1x2x2xf32>
  %z1 = arith.constant dense<0.0> : tensor<1x1x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%z1 : tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c1, %win : tensor<1x1x5x5xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %w2 = arith.constant dense<[[[[0.5, 1.0], [-1.0, 2.0]]]]> : tensor<1x1x2x2xf32>
  %z2 = arith.constant dense<0.0> : tensor<1x1x1x1xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%p, %w2 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) outs(%z2 : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %c2 : tensor<1x1x1x1xf32>
}
// CHECK-LABEL: func.func @pool_accumulates_into_an_argument(
// CHECK: %[[C1:.*]] = linalg.conv_2d_nchw_fchw ins(%x, %{{.*}} : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>)
// CHECK: %[[P:.*]] = linalg.pooling_nchw_sum {{.*}}ins(%[[C1]], %{{.*}} : tensor<1x1x5x5xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x1x2x2xf32>)
// CHECK: %[[C2:.*]] = linalg.conv_2d_nchw_fchw ins(%[[P]], %{{.*}} : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>)
// CHECK-NEXT: return %[[C2]]
