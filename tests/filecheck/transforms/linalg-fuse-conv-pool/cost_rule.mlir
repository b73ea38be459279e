// The cost rule decides whether a conv + pool pair is worth one conv: the composed
// filter saves a level and has GH*GW / (KH*KW) times the conv's weights. A 3x3 conv
// and a 2x2 pool of stride 2 compose to 4x4 (16/9 = 1.8x); a 1x1 conv and a 3x3 pool
// to 3x3 (9x). The same options, with the same meaning, in the three passes that fuse
// conv + pool.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-conv-pool | filecheck %s --check-prefix=BALANCED
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-conv-pool{policy=depth}' | filecheck %s --check-prefix=DEPTH
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-conv-pool{policy=size}' | filecheck %s --check-prefix=SIZE
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-conv-pool{max-weight-growth=1.5}' | filecheck %s --check-prefix=SIZE
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-conv-pool{max-weight-growth=9}' | filecheck %s --check-prefix=DEPTH
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{policy=size pointwise=false}' | filecheck %s --check-prefix=SIZE
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s --check-prefix=BALANCED
// linalg-canonicalizations lowers what it fuses to one conv; a pair the rule refuses
// stays a conv and a pool (its pool is not rewritten to a second conv).
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations{policy=size}' | filecheck %s --check-prefix=CSIZE
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s --check-prefix=CANON

func.func @conv3_pool2(%x: tensor<1x2x6x6xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<1x2x4x4xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x2x2xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}
// BALANCED-LABEL: func.func @conv3_pool2
// BALANCED-NOT: linalg.{{conv|pooling}}
// BALANCED: tensor_ext.fused_conv_pool {{.*}}pool_window = array<i64: 2, 2>
// BALANCED-NOT: linalg.conv
// BALANCED: return
// DEPTH-LABEL: func.func @conv3_pool2
// DEPTH-NOT: linalg.{{conv|pooling}}
// DEPTH: tensor_ext.fused_conv_pool {{.*}}pool_window = array<i64: 2, 2>
// DEPTH-NOT: linalg.conv
// DEPTH: return
// SIZE-LABEL: func.func @conv3_pool2
// SIZE-NOT: tensor_ext
// SIZE: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w
// SIZE-NOT: tensor_ext
// SIZE: linalg.pooling_nchw_sum
// SIZE-NOT: tensor_ext
// SIZE: return
// CANON-LABEL: func.func @conv3_pool2
// CANON: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x6x6xf32>, tensor<2x2x4x4xf32>)
// CANON-NOT: linalg.
// CANON: return %[[R]]
// CSIZE-LABEL: func.func @conv3_pool2
// CSIZE: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>)
// CSIZE: linalg.pooling_nchw_sum
// CSIZE-NOT: linalg.conv
// CSIZE: return

// -----

func.func @conv1_pool3(%x: tensor<1x2x6x6xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<1x2x6x6xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) outs(%ci : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %pe = tensor.empty() : tensor<1x2x2x2xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<3> : vector<2xi64>} ins(%c, %win : tensor<1x2x6x6xf32>, tensor<3x3xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}
// 9x the weights: more than the default 4x per level.
// BALANCED-LABEL: func.func @conv1_pool3
// BALANCED-NOT: tensor_ext
// BALANCED: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w
// BALANCED-NOT: tensor_ext
// BALANCED: linalg.pooling_nchw_sum
// BALANCED-NOT: tensor_ext
// BALANCED: return
// DEPTH-LABEL: func.func @conv1_pool3
// DEPTH-NOT: linalg.{{conv|pooling}}
// DEPTH: tensor_ext.fused_conv_pool {{.*}}pool_window = array<i64: 3, 3>
// DEPTH-NOT: linalg.conv
// DEPTH: return
// SIZE-LABEL: func.func @conv1_pool3
// SIZE-NOT: tensor_ext
// SIZE: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w
// SIZE-NOT: tensor_ext
// SIZE: linalg.pooling_nchw_sum
// SIZE-NOT: tensor_ext
// SIZE: return
// CANON-LABEL: func.func @conv1_pool3
// CANON: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>)
// CANON: linalg.pooling_nchw_sum
// CANON-NOT: linalg.conv
// CANON: return
// CSIZE-LABEL: func.func @conv1_pool3
// CSIZE: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>)
// CSIZE: linalg.pooling_nchw_sum
// CSIZE-NOT: linalg.conv
// CSIZE: return
