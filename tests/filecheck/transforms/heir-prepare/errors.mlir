// Guards of the last step. A heirpy tensor_ext op that cannot be lowered to standard
// linalg (here: dynamic batch, which `lower-tensor-ext` declines) is an error naming it,
// never handed to heir-opt, which has no such op. A negative slot count is an error.
// RUN: not heirpy-opt %s --split-input-file -p legalize-for-heir 2>&1 | filecheck %s
// RUN: not heirpy-opt %s --split-input-file -p 'heir-prepare{slot-count=-8}' 2>&1 | filecheck %s --check-prefix=COUNT

func.func @dynamic(%x: tensor<?x3x16x16xf32>, %w: tensor<4x3x3x3xf32>, %bias: tensor<?x4x14x14xf32>, %p: tensor<?x4x7x7xf32>) -> tensor<?x4x7x7xf32> {
  %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>, divisor = 4.0 : f64} ins(%x, %w, %bias : tensor<?x3x16x16xf32>, tensor<4x3x3x3xf32>, tensor<?x4x14x14xf32>) outs(%p : tensor<?x4x7x7xf32>) -> tensor<?x4x7x7xf32>
  return %r : tensor<?x4x7x7xf32>
}
// CHECK: errors.mlir:8:8: error: legalize-for-heir: 'tensor_ext.fused_conv_pool' could not be lowered to standard linalg, and heir-opt cannot parse it
// COUNT: error: heir-prepare: slot-count must be 0 (heirpy picks it) or a number of slots, got -8
