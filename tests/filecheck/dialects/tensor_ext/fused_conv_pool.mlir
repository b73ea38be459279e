// tensor_ext.fused_conv_pool round-trips in custom and generic form.
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s

func.func @avg(%x: tensor<2x3x16x16xf32>, %w: tensor<4x3x3x3xf32>, %bias: tensor<2x4x14x14xf32>, %p: tensor<2x4x7x7xf32>) -> tensor<2x4x7x7xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>, divisor = 4.0 : f64} ins(%x, %w, %bias : tensor<2x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<2x4x14x14xf32>) outs(%p : tensor<2x4x7x7xf32>) -> tensor<2x4x7x7xf32>
  return %r : tensor<2x4x7x7xf32>
}
// CHECK-LABEL: func.func @avg
// CHECK: %{{.*}} = tensor_ext.fused_conv_pool {conv_dilations = array<i64: 1, 1>, conv_strides = array<i64: 1, 1>, divisor = 4.000000e+00 : f64, pool_dilations = array<i64: 1, 1>, pool_strides = array<i64: 2, 2>, pool_window = array<i64: 2, 2>} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<2x4x14x14xf32>) outs(%{{.*}} : tensor<2x4x7x7xf32>) -> tensor<2x4x7x7xf32>
// GENERIC: "tensor_ext.fused_conv_pool"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{{{.*}}pool_window = array<i64: 2, 2>{{.*}}}> : (tensor<2x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<2x4x14x14xf32>, tensor<2x4x7x7xf32>) -> tensor<2x4x7x7xf32>

// Strided, dilated conv and a pool whose stride differs from its window; no divisor
// means a sum pool.
func.func @sum_strided(%x: tensor<1x2x17x17xf32>, %w: tensor<3x2x3x3xf32>, %c: tensor<1x3x7x7xf32>, %p: tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 2, 2>, conv_dilations = array<i64: 2, 2>, pool_window = array<i64: 3, 3>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %c : tensor<1x2x17x17xf32>, tensor<3x2x3x3xf32>, tensor<1x3x7x7xf32>) outs(%p : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %r : tensor<1x3x3x3xf32>
}
// No divisor: the attribute dictionary closes right after pool_dilations.
// CHECK-LABEL: func.func @sum_strided
// CHECK-NEXT: %[[R:.*]] = tensor_ext.fused_conv_pool {conv_dilations = array<i64: 2, 2>, conv_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>, pool_strides = array<i64: 2, 2>, pool_window = array<i64: 3, 3>} ins(
// CHECK-NEXT: return %[[R]]
