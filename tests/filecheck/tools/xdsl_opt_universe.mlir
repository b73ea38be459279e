// The xdsl.universe entry point: plain xdsl-opt knows tensor_ext.
// RUN: xdsl-opt %s | filecheck %s

func.func @f(%x: tensor<1x3x16x16xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x14x14xf32>, %p: tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %b : tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<1x4x14x14xf32>) outs(%p : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %r : tensor<1x4x7x7xf32>
}
// CHECK: tensor_ext.fused_conv_pool {{.*}}pool_window = array<i64: 2, 2>{{.*}} -> tensor<1x4x7x7xf32>
