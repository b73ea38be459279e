// Conv followed by a sum/avg pool is never split: conv_pool_patterns() run first and make
// tensor_ext.fused_conv_pool; by default (conv-pool=conv) the pass then lowers it to
// HEIR's form, which heir-opt accepts as it is: ONE conv of the input with the composed
// filter, whose init is the pooled init, written (as HEIR writes it) as a conv of the
// constant inits; linalg-fuse-linear-ops then folds that plaintext conv (FOLDED).
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations{conv-pool=fused}' | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s --check-prefix=DEFAULT
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations,linalg-fuse-linear-ops | filecheck %s --check-prefix=FOLDED
// heir-opt parses every function: 8 pairs of convs (the input's, and its init's) and the
// 2 convs of @activation_between.
// MLIR-COUNT-18: linalg.conv_2d_nchw_fchw
// DEFAULT-LABEL: func.func @conv_stride2
// DEFAULT-NEXT: %[[CI:.*]] = arith.constant dense<0.000000e+00> : tensor<1x2x4x4xf32>
// DEFAULT-NEXT: %[[PI:.*]] = arith.constant dense<0.000000e+00> : tensor<1x2x3x3xf32>
// The 3x3 filter, stride 2, composed with a 2x2 pool of stride 1: 5x5 filter, stride 2.
// DEFAULT-NEXT: %[[F:.*]] = arith.constant dense<{{.*}}> : tensor<2x1x5x5xf32>
// The pool as a conv (ones on the channel diagonal), of the conv's init.
// DEFAULT-NEXT: %[[K:.*]] = arith.constant dense<{{.*}}> : tensor<2x2x2x2xf32>
// DEFAULT-NEXT: %[[I:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[CI]], %[[K]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%[[PI]] : tensor<1x2x3x3xf32>)
// DEFAULT-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %[[F]] : tensor<1x1x10x10xf32>, tensor<2x1x5x5xf32>) outs(%[[I]] : tensor<1x2x3x3xf32>)
// DEFAULT-NEXT: return %[[R]]
// FOLDED-LABEL: func.func @conv_stride2
// FOLDED-NEXT: %[[F:.*]] = arith.constant dense<{{.*}}> : tensor<2x1x5x5xf32>
// FOLDED-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// FOLDED-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// FOLDED-NEXT: %[[I:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<1x2x3x3xf32>)
// FOLDED-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[F]] : {{.*}}) outs(%[[I]] : tensor<1x2x3x3xf32>)
// FOLDED-NEXT: return %[[R]]

// Conv stride 2 (HEIR's case): 10x10 -> 4x4 -> pool 2x2 stride 1 -> 3x3.
// CHECK-LABEL: func.func @conv_stride2
// CHECK-NOT: linalg.
// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool
// CHECK-NEXT: return %[[R]]
func.func @conv_stride2(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x3x3xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x4x4xf32>
  %ci = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x3x3xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %p : tensor<1x2x3x3xf32>
}

// -----

// Pool window 3 with stride 2 (overlapping windows).
// FOLDED-LABEL: func.func @pool_stride_ne_window
// FOLDED: linalg.fill
// FOLDED-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %composed_filter :
// FOLDED-NEXT: return
// DEFAULT-LABEL: func.func @pool_stride_ne_window
// DEFAULT-NOT: {{tensor_ext|linalg.pooling}}
// CHECK-LABEL: func.func @pool_stride_ne_window
// CHECK-NOT: linalg.
// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool
// CHECK-NEXT: return %[[R]]
func.func @pool_stride_ne_window(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x3x3xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %ci = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %pe = tensor.empty() : tensor<1x2x3x3xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x8x8xf32>, tensor<3x3xf32>) outs(%pi : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %p : tensor<1x2x3x3xf32>
}

// -----

// A dilated conv followed by a pool is fused (dilations kept in the fused op).
// FOLDED-LABEL: func.func @dilated_conv_pool
// FOLDED: linalg.fill
// FOLDED-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %composed_filter :
// FOLDED-NEXT: return
// DEFAULT-LABEL: func.func @dilated_conv_pool
// DEFAULT-NOT: {{tensor_ext|linalg.pooling}}
// CHECK-LABEL: func.func @dilated_conv_pool
// CHECK-NOT: linalg.
// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool
// CHECK-NEXT: return %[[R]]
func.func @dilated_conv_pool(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x3x3xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x6x6xf32>
  %ci = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x3x3xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %p : tensor<1x2x3x3xf32>
}

// -----

// The conv reads a padded input (tensor.pad stays in front of the fused op).
// FOLDED-LABEL: func.func @padded_input
// FOLDED: linalg.fill
// FOLDED-NEXT: linalg.conv_2d_nchw_fchw {{.*}} ins(%xp, %composed_filter :
// FOLDED-NEXT: return
// DEFAULT-LABEL: func.func @padded_input
// DEFAULT-NOT: {{tensor_ext|linalg.pooling}}
// CHECK-LABEL: func.func @padded_input
// CHECK-NOT: linalg.
// CHECK: %[[P:.*]] = tensor.pad
// CHECK-NOT: linalg.
// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool {{.*}} ins(%[[P]],
// CHECK-NEXT: return %[[R]]
func.func @padded_input(%x: tensor<1x1x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %ci = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %p : tensor<1x2x4x4xf32>
}

// -----

// A broadcast bias as the conv init: the [2] bias stays a vector (a broadcast of a
// varying constant is not folded into a 1x2x8x8 constant).
// The pooled [2] bias (times the 4 window elements) stays a vector.
// FOLDED-LABEL: func.func @bias_init
// FOLDED: %[[B:.*]] = arith.constant dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>
// FOLDED-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x4x4xf32>
// FOLDED-NEXT: %[[I:.*]] = linalg.broadcast ins(%[[B]] : tensor<2xf32>) outs(%[[E]] : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
// FOLDED-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : {{.*}}) outs(%[[I]] : tensor<1x2x4x4xf32>)
// FOLDED-NEXT: return %[[R]]
// DEFAULT-LABEL: func.func @bias_init
// DEFAULT-NOT: {{tensor_ext|linalg.pooling}}
// CHECK-LABEL: func.func @bias_init
// CHECK: %[[B:.*]] = arith.constant dense<[2.500000e-01, -5.000000e-01]> : tensor<2xf32>
// CHECK-NOT: linalg.{{conv|pooling}}
// CHECK: %[[I:.*]] = linalg.broadcast ins(%[[B]] : tensor<2xf32>) outs(%{{.*}} : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3]
// CHECK-NOT: linalg.{{conv|pooling}}
// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool {{.*}} ins(%{{.*}}, %{{.*}}, %[[I]] :
// CHECK-NEXT: return %[[R]]
func.func @bias_init(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %bias = arith.constant dense<[0.25, -0.5]> : tensor<2xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %ci = linalg.broadcast ins(%bias : tensor<2xf32>) outs(%ce : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %p : tensor<1x2x4x4xf32>
}

// -----

// The pool starts from 1.0, not 0.
// FOLDED-LABEL: func.func @nonzero_pool_init
// FOLDED: %[[I:.*]] = arith.constant dense<1.000000e+00> : tensor<1x2x4x4xf32>
// FOLDED-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : {{.*}}) outs(%[[I]] : tensor<1x2x4x4xf32>)
// FOLDED-NEXT: return %[[R]]
// DEFAULT-LABEL: func.func @nonzero_pool_init
// DEFAULT-NOT: {{tensor_ext|linalg.pooling}}
// CHECK-LABEL: func.func @nonzero_pool_init
// CHECK-NOT: linalg.
// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool
// CHECK-NEXT: return %[[R]]
func.func @nonzero_pool_init(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 1.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %ci = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %p : tensor<1x2x4x4xf32>
}

// -----

// Average pool: the divide as arith.divf on tensors.
// The divide went into both filters; the pooled zero init folds to a fill.
// FOLDED-LABEL: func.func @avg_divf_tensor
// FOLDED-NOT: {{linalg.conv|linalg.generic|arith.divf}}
// FOLDED: %[[I:.*]] = linalg.fill
// FOLDED-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : {{.*}}) outs(%[[I]] :
// FOLDED-NEXT: return %[[R]]
// DEFAULT-LABEL: func.func @avg_divf_tensor
// DEFAULT-NOT: {{tensor_ext|linalg.pooling}}
// CHECK-LABEL: func.func @avg_divf_tensor
// CHECK-NOT: {{linalg.|arith.divf}}
// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool {{.*}}divisor = 4.0
// CHECK-NEXT: return %[[R]]
func.func @avg_divf_tensor(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %ci = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %four = arith.constant dense<4.0> : tensor<1x2x4x4xf32>
  %r = arith.divf %p, %four : tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}

// -----

// Average pool: the divide as a linalg.generic.
// The divide went into both filters; the pooled zero init folds to a fill.
// FOLDED-LABEL: func.func @avg_divf_generic
// FOLDED-NOT: {{linalg.conv|linalg.generic|arith.divf}}
// FOLDED: %[[I:.*]] = linalg.fill
// FOLDED-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : {{.*}}) outs(%[[I]] :
// FOLDED-NEXT: return %[[R]]
// DEFAULT-LABEL: func.func @avg_divf_generic
// DEFAULT-NOT: {{tensor_ext|linalg.pooling}}
// CHECK-LABEL: func.func @avg_divf_generic
// CHECK-NOT: {{linalg.|arith.divf}}
// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool {{.*}}divisor = 4.0
// CHECK-NEXT: return %[[R]]
func.func @avg_divf_generic(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %ci = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %four = arith.constant 4.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x4x4xf32>) outs(%pe : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}

// -----

// Must not fuse: an activation (x*x) between conv and pool; the pool alone becomes a conv.
// Must not fold: the pool's conv reads the square, which is not a constant.
// FOLDED-LABEL: func.func @activation_between
// FOLDED: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// FOLDED-NEXT: %[[A:.*]] = arith.mulf %[[C]], %[[C]]
// FOLDED: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[A]],
// FOLDED-NEXT: return %[[R]]
// DEFAULT-LABEL: func.func @activation_between
// DEFAULT-NOT: {{tensor_ext|linalg.pooling}}
// CHECK-LABEL: func.func @activation_between
// CHECK-NOT: tensor_ext.fused_conv_pool
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: %[[A:.*]] = arith.mulf %[[C]], %[[C]]
// CHECK: linalg.conv_2d_nchw_fchw{{.*}} ins(%[[A]],
func.func @activation_between(%x: tensor<1x1x10x10xf32>) -> tensor<1x2x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]], [[[0.5, -1.0, 0.0], [1.5, 2.0, -0.5], [0.0, 1.0, 1.0]]]]> : tensor<2x1x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %ci = linalg.fill ins(%z : f32) outs(%ce : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x10x10xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x8x8xf32>) outs(%ce : tensor<1x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x2x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pi = linalg.fill ins(%pv : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%sq, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %p : tensor<1x2x4x4xf32>
}
