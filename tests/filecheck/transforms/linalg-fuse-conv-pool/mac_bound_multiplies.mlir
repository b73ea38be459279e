// Under the cost rule that never grows MACs (max-mac-growth=1, `iree-prepare`), absorbing a pool must cut
// the multiplies: a pool is adds over a window, which IREE runs in a small dispatch of its
// own, and a composed conv of the same multiplies only reshapes the conv's contraction
// (DenseNet-121's transitions, a 1x1 conv then a 2x2 stride-2 average pool: 1.10x raw's
// time under IREE's best CPU flags when composed, docs/iree.md). Without the bound (the
// main pipeline, which pays levels) every pair below fuses.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-conv-pool{max-mac-growth=1}' | filecheck %s --check-prefix=MACS
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{max-mac-growth=1 constant-budget=0 pointwise=false}' | filecheck %s --check-prefix=MACS
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations{max-mac-growth=1}' | filecheck %s --check-prefix=CANON
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-conv-pool | filecheck %s --check-prefix=LEVELS
// The chain group alone (the conv and pool as a two-step chain) follows the same rule.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{max-mac-growth=1 constant-budget=0}' | filecheck %s --check-prefix=CHAINS
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{constant-budget=0}' | filecheck %s --check-prefix=CHAINLEVELS
// The numerics of what fuses: the composed convs against the convs and pools.
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{max-mac-growth=1 constant-budget=0}' -o %t.macs
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{constant-budget=0}' -o %t.levels
// RUN: heirpy-equiv %s %t.macs --function conv2x2_pool2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.levels --function conv1x1_pool2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.levels --function conv2x2_pool2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.levels --function conv1x1_pool2_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent

// At the limit: a 1x1 conv (8x8 positions x 4 -> 3 channels: 768 multiplies) and a 2x2
// stride-2 pool compose into a 2x2 stride-2 conv of 4x4 positions x 16 taps x 3: 768
// multiplies, no fewer. It stays apart under the bound.
func.func @conv1x1_pool2(%x: tensor<1x4x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %w = arith.constant dense<[[[[1.0]], [[0.25]], [[0.375]], [[0.875]]], [[[0.125]], [[0.625]], [[0.75]], [[-0.625]]], [[[-1.0]], [[-0.375]], [[-0.5]], [[0.75]]]]> : tensor<3x4x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %ce = tensor.empty() : tensor<1x3x8x8xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x8x8xf32>, tensor<3x4x1x1xf32>) outs(%ci : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x3x4x4xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x3x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x3x4x4xf32>) outs(%pe : tensor<1x3x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x3x4x4xf32>
  return %a : tensor<1x3x4x4xf32>
}
// MACS-LABEL: func.func @conv1x1_pool2(
// MACS-NOT: tensor_ext.fused_conv_pool
// MACS: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x4x8x8xf32>, tensor<3x4x1x1xf32>)
// MACS: linalg.pooling_nchw_sum
// MACS: return
// CANON-LABEL: func.func @conv1x1_pool2(
// CANON: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x4x8x8xf32>, tensor<3x4x1x1xf32>)
// CANON: linalg.pooling_nchw_sum
// CANON: return
// CHAINS-LABEL: func.func @conv1x1_pool2(
// CHAINS: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x4x8x8xf32>, tensor<3x4x1x1xf32>)
// CHAINS: linalg.pooling_nchw_sum
// CHAINS: return
// LEVELS-LABEL: func.func @conv1x1_pool2(
// LEVELS: tensor_ext.fused_conv_pool
// LEVELS-NOT: linalg.pooling_nchw_sum
// LEVELS: return
// CHAINLEVELS-LABEL: func.func @conv1x1_pool2(
// CHAINLEVELS: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x4x8x8xf32>, tensor<3x4x2x2xf32>)
// CHAINLEVELS-NOT: linalg.pooling_nchw_sum
// CHAINLEVELS: return

// -----

// Under the limit: a 2x2 conv (8x8 positions x 4 taps x 2 -> 3 channels: 1,536
// multiplies) and a 2x2 stride-2 pool compose into a 3x3 stride-2 conv (4x4 positions x 9
// taps x 2 -> 3: 864, 0.56x). It fuses under the bound.
func.func @conv2x2_pool2(%x: tensor<1x2x9x9xf32>) -> tensor<1x3x4x4xf32> {
  %w = arith.constant dense<[[[[0.875, -1.0], [0.0, 0.625]], [[-0.75, 0.625], [-0.75, -0.125]]], [[[0.625, -0.375], [-0.375, -0.5]], [[0.5, -0.5], [1.0, -0.125]]], [[[0.0, 0.0], [0.125, 0.125]], [[0.0, 1.0], [0.625, 0.625]]]]> : tensor<3x2x2x2xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<1x3x8x8xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x9x9xf32>, tensor<3x2x2x2xf32>) outs(%ci : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x3x4x4xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x3x8x8xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %p : tensor<1x3x4x4xf32>
}
// MACS-LABEL: func.func @conv2x2_pool2(
// MACS: tensor_ext.fused_conv_pool
// MACS-NOT: linalg.pooling_nchw_sum
// MACS: return
// CANON-LABEL: func.func @conv2x2_pool2(
// CANON: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x2x9x9xf32>, tensor<3x2x3x3xf32>)
// CANON-NOT: linalg.pooling_nchw_sum
// CANON: return
// CHAINS-LABEL: func.func @conv2x2_pool2(
// CHAINS: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x2x9x9xf32>, tensor<3x2x3x3xf32>)
// CHAINS-NOT: linalg.pooling_nchw_sum
// CHAINS: return

// -----

// The same limit in f16: a 1x1 conv and a 2x2 stride-2 pool stay apart under the bound.
func.func @conv1x1_pool2_f16(%x: tensor<1x4x8x8xf16>) -> tensor<1x3x4x4xf16> {
  %w = arith.constant dense<[[[[0.375]], [[0.25]], [[-0.375]], [[1.0]]], [[[-0.125]], [[-0.625]], [[0.75]], [[-0.75]]], [[[0.75]], [[0.25]], [[-0.875]], [[-1.0]]]]> : tensor<3x4x1x1xf16>
  %zero = arith.constant 0.0 : f16
  %ce = tensor.empty() : tensor<1x3x8x8xf16>
  %ci = linalg.fill ins(%zero : f16) outs(%ce : tensor<1x3x8x8xf16>) -> tensor<1x3x8x8xf16>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x8x8xf16>, tensor<3x4x1x1xf16>) outs(%ci : tensor<1x3x8x8xf16>) -> tensor<1x3x8x8xf16>
  %win = tensor.empty() : tensor<2x2xf16>
  %pe = tensor.empty() : tensor<1x3x4x4xf16>
  %pi = linalg.fill ins(%zero : f16) outs(%pe : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x3x8x8xf16>, tensor<2x2xf16>) outs(%pi : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %p : tensor<1x3x4x4xf16>
}
// MACS-LABEL: func.func @conv1x1_pool2_f16(
// MACS-NOT: tensor_ext.fused_conv_pool
// MACS: linalg.pooling_nchw_sum
// MACS: return
// LEVELS-LABEL: func.func @conv1x1_pool2_f16(
// LEVELS: tensor_ext.fused_conv_pool
// LEVELS: return
// CANON-LABEL: func.func @conv1x1_pool2_f16(
// CANON: linalg.pooling_nchw_sum
// CANON: return
// CHAINS-LABEL: func.func @conv1x1_pool2_f16(
// CHAINS: linalg.pooling_nchw_sum
// CHAINS: return
// CHAINLEVELS-LABEL: func.func @conv1x1_pool2_f16(
// CHAINLEVELS: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x4x8x8xf16>, tensor<3x4x2x2xf16>)
// CHAINLEVELS-NOT: linalg.pooling_nchw_sum
// CHAINLEVELS: return
