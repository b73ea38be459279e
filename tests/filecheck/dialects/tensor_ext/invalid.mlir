// The verifier names the operand and the shape it expects.
// RUN: heirpy-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @conv_init_shape(%x: tensor<1x3x16x16xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x13x14xf32>, %p: tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %b : tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<1x4x13x14xf32>) outs(%p : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %r : tensor<1x4x7x7xf32>
}
// CHECK: invalid.mlir:5:8: error: 'tensor_ext.fused_conv_pool' op expects operand 'conv_init' of shape 1x4x14x14, got 1x4x13x14

// -----

func.func @pool_init_shape(%x: tensor<1x3x16x16xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x14x14xf32>, %p: tensor<1x4x6x7xf32>) -> tensor<1x4x6x7xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %b : tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<1x4x14x14xf32>) outs(%p : tensor<1x4x6x7xf32>) -> tensor<1x4x6x7xf32>
  return %r : tensor<1x4x6x7xf32>
}
// CHECK: invalid.mlir:13:8: error: 'tensor_ext.fused_conv_pool' op expects operand 'pool_init' of shape 1x4x7x7, got 1x4x6x7

// -----

func.func @filter_channels(%x: tensor<1x3x16x16xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<1x4x14x14xf32>, %p: tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %b : tensor<1x3x16x16xf32>, tensor<4x2x3x3xf32>, tensor<1x4x14x14xf32>) outs(%p : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %r : tensor<1x4x7x7xf32>
}
// CHECK: invalid.mlir:21:8: error: 'tensor_ext.fused_conv_pool' op expects operand 'filter' to have 3 input channels (shape 4x3x3x3), got 4x2x3x3

// -----

func.func @bad_window(%x: tensor<1x3x16x16xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x14x14xf32>, %p: tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 0>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %b : tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<1x4x14x14xf32>) outs(%p : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %r : tensor<1x4x7x7xf32>
}
// CHECK: invalid.mlir:29:8: error: 'tensor_ext.fused_conv_pool' op expects 'pool_window' to be two positive integers, got [2, 0]

// -----

func.func @divisor_on_ints(%x: tensor<1x3x16x16xi32>, %w: tensor<4x3x3x3xi32>, %b: tensor<1x4x14x14xi32>, %p: tensor<1x4x7x7xi32>) -> tensor<1x4x7x7xi32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>, divisor = 4.0 : f64} ins(%x, %w, %b : tensor<1x3x16x16xi32>, tensor<4x3x3x3xi32>, tensor<1x4x14x14xi32>) outs(%p : tensor<1x4x7x7xi32>) -> tensor<1x4x7x7xi32>
  return %r : tensor<1x4x7x7xi32>
}
// CHECK: invalid.mlir:37:8: error: 'tensor_ext.fused_conv_pool' op only takes a 'divisor' on float tensors

// -----

// An f16 input and filter may accumulate into f32 inits (torch-mlir's half conv), never
// the other way round, and input and filter share one type.
func.func @narrower_accumulator(%x: tensor<1x3x16x16xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x14x14xf16>, %p: tensor<1x4x7x7xf16>) -> tensor<1x4x7x7xf16> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %b : tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<1x4x14x14xf16>) outs(%p : tensor<1x4x7x7xf16>) -> tensor<1x4x7x7xf16>
  return %r : tensor<1x4x7x7xf16>
}
// CHECK: invalid.mlir:47:8: error: 'tensor_ext.fused_conv_pool' op expects the inits' element type f16 to be the input's (f32) or a wider float

// -----

func.func @input_filter_types(%x: tensor<1x3x16x16xf16>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x14x14xf32>, %p: tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>} ins(%x, %w, %b : tensor<1x3x16x16xf16>, tensor<4x3x3x3xf32>, tensor<1x4x14x14xf32>) outs(%p : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  return %r : tensor<1x4x7x7xf32>
}
// CHECK: invalid.mlir:55:8: error: 'tensor_ext.fused_conv_pool' op expects one element type for input and filter, and one for both inits
