// linalg-fuse-conv-pool: conv + sum/avg pool (+ uniform divide) becomes one
// tensor_ext.fused_conv_pool, for every form the front ends emit. policy=depth fuses
// every legal pair: the cost rule (cost_rule.mlir) would keep @strided_arg_weights
// apart (its composed filter is 13x7, 10x the 3x3 one).
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-conv-pool{policy=depth}' | filecheck %s

// torch-mlir's AvgPool2d after a biased conv: broadcast bias as conv init, zero fill
// as pool init, then a generic dividing by 4.0 captured from outside.
func.func @torch_avg(%x: tensor<2x3x10x10xf32>) -> tensor<2x4x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %four = arith.constant 4.000000e+00 : f32
  %w = arith.constant dense<0.5> : tensor<4x3x3x3xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e0 = tensor.empty() : tensor<2x4x8x8xf32>
  %bias = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e0 : tensor<2x4x8x8xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%bias : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %e1 = tensor.empty() : tensor<2x4x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<2x4x8x8xf32>, tensor<2x2xf32>) outs(%z : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<2x4x4x4xf32>) outs(%e1 : tensor<2x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %four : f32
    linalg.yield %q : f32
  } -> tensor<2x4x4x4xf32>
  return %a : tensor<2x4x4x4xf32>
}
// Neither the conv, the pool nor the divide is left, before or after the broadcast.
// CHECK-LABEL: func.func @torch_avg
// CHECK-NOT:  linalg.{{conv|pooling|generic}}
// CHECK:      %[[BIAS:.*]] = linalg.broadcast
// CHECK-NOT:  linalg.{{conv|pooling|generic}}
// CHECK:      %[[Z:.*]] = linalg.fill
// CHECK-NEXT: %[[R:.*]] = tensor_ext.fused_conv_pool {conv_dilations = array<i64: 1, 1>, conv_strides = array<i64: 1, 1>, divisor = 4.000000e+00 : f64, pool_dilations = array<i64: 1, 1>, pool_strides = array<i64: 2, 2>, pool_window = array<i64: 2, 2>} ins(%x, %w, %[[BIAS]] : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>, tensor<2x4x8x8xf32>) outs(%[[Z]] : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
// CHECK-NEXT: return %[[R]]

// -----

// Strided, dilated conv; a pool with stride != window and its own dilation; weights
// are a function argument; non-zero pool init; no divide (a sum pool).
func.func @strided_arg_weights(%x: tensor<1x2x17x17xf32>, %w: tensor<3x2x3x3xf32>, %ci: tensor<1x3x7x7xf32>, %pi: tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x17x17xf32>, tensor<3x2x3x3xf32>) outs(%ci : tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
  %win = tensor.empty() : tensor<3x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%c, %win : tensor<1x3x7x7xf32>, tensor<3x2xf32>) outs(%pi : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %p : tensor<1x3x3x3xf32>
}
// CHECK-LABEL: func.func @strided_arg_weights
// CHECK-NEXT: %[[R:.*]] = tensor_ext.fused_conv_pool {conv_dilations = array<i64: 2, 2>, conv_strides = array<i64: 2, 2>, pool_dilations = array<i64: 2, 1>, pool_strides = array<i64: 1, 2>, pool_window = array<i64: 3, 2>} ins(%x, %w, %ci : {{.*}}) outs(%pi : tensor<1x3x3x3xf32>)
// CHECK-NEXT: return %[[R]]

// -----

// A multiply by 0.25 in a generic (the constant defined in the body) is divisor 4.
func.func @mul_quarter(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %quarter = arith.constant 2.500000e-01 : f32
    %q = arith.mulf %quarter, %in : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %a : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @mul_quarter
// CHECK-NEXT: %[[R:.*]] = tensor_ext.fused_conv_pool {{{.*}}divisor = 4.000000e+00 : f64, {{.*}}} ins(%x, %w, %ci
// CHECK-NEXT: return %[[R]]

// -----

// arith.divf on whole tensors by a splat constant.
func.func @tensor_divf(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %d = arith.constant dense<4.0> : tensor<1x2x3x3xf32>
  %a = arith.divf %p, %d : tensor<1x2x3x3xf32>
  return %a : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @tensor_divf
// CHECK-NEXT: %[[R:.*]] = tensor_ext.fused_conv_pool {conv_dilations = array<i64: 1, 1>, conv_strides = array<i64: 1, 1>, divisor = 4.000000e+00 : f64, pool_dilations = array<i64: 1, 1>, pool_strides = array<i64: 1, 1>, pool_window = array<i64: 2, 2>}
// CHECK-NEXT: return %[[R]]

// -----

// A generic dividing by a splat-constant second input.
func.func @splat_input(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %d = arith.constant dense<8.0> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p, %d : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %v: f32, %out: f32):
    %q = arith.divf %in, %v : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %a : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @splat_input
// CHECK-NEXT: %[[R:.*]] = tensor_ext.fused_conv_pool {{{.*}}divisor = 8.000000e+00 : f64, {{.*}}} ins(%x, %w, %ci
// CHECK-NEXT: return %[[R]]
