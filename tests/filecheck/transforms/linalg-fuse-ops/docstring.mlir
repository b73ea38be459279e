// The example of LinalgFuseOpsPass's docstring, and its options.
// RUN: heirpy-opt %s -p linalg-fuse-ops | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{conv-pool=false}' | filecheck %s --check-prefix=OFF

func.func @doc(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %win: tensor<2x2xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @doc
// CHECK-NEXT: %[[R:.*]] = tensor_ext.fused_conv_pool {conv_dilations = array<i64: 1, 1>, conv_strides = array<i64: 1, 1>, pool_dilations = array<i64: 1, 1>, pool_strides = array<i64: 2, 2>, pool_window = array<i64: 2, 2>} ins(%x, %w, %ci : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>, tensor<1x2x4x4xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NEXT: return %[[R]]
// OFF-LABEL: func.func @doc
// OFF-NOT: tensor_ext
// OFF: linalg.conv_2d_nchw_fchw
// OFF: linalg.pooling_nchw_sum
