// A linear chain through a fork before a zero pad (chains_through_forks.py): MobileViT's
// block reads the previous block's 1x1 projection through its 3x3 conv's zero pad, and
// its shortcut (a concat) reads the projection too. The pads and reshapes between the
// fork and the conv join the composed chain: the conv reads pad(x) with the composed
// 3x3 filter, its init the bias sent through the pad (zero at the border, so the init
// varies with the position); the 1x1 conv stays for the other reader.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// Depth: the positive one level less, the negative keeps its two.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function fork_pad | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function fork_pad_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function relu_before_pad | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function fork_pad_rounded --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// The cost rule: @fork_pad_limit's weights go from 1x3 (kept) + 1x1x3x3 = 12 to 1x3 + the
// composed 1x3x3x3 = 30, 2.5x for one level: at max-weight-growth=2.5 it fuses, under it
// it does not.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=2.5}' 2>/dev/null | filecheck %s --check-prefix=AT-LIMIT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=2.49}' 2>/dev/null | filecheck %s --check-prefix=UNDER
// BEFORE: @fork_pad {{ +}}2
// BEFORE: @fork_pad_f16 {{ +}}2
// BEFORE: @relu_before_pad {{ +}}2+
// BEFORE: @fork_pad_rounded {{ +}}2
// AFTER: @fork_pad {{ +}}1
// AFTER: @fork_pad_f16 {{ +}}1
// AFTER: @relu_before_pad {{ +}}2+
// AFTER: @fork_pad_rounded {{ +}}1
// REPARSE-LABEL: func.func @fork_pad(
// REPARSE-LABEL: func.func @relu_before_pad(
// AT-LIMIT-LABEL: func.func @fork_pad_limit(
// AT-LIMIT: %[[P:.*]] = tensor.pad %x
// AT-LIMIT: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x3x6x6xf32>, tensor<1x3x3x3xf32>)
// AT-LIMIT-LABEL: func.func @fork_pad_rounded(
// UNDER-LABEL: func.func @fork_pad_limit(
// UNDER: linalg.conv_2d_nchw_fchw {{.*}} ins(%p, %w2 :
// UNDER-LABEL: func.func @fork_pad_rounded(

// CHECK-LABEL: func.func @fork_pad(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w1 :
// CHECK: %[[P:.*]] = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
// The bias (0.5, -0.375) through the pad and the 3x3 filter: the corners differ from the middle.
// CHECK: %[[I:.*]] = arith.constant dense<{{\[\[\[\[}}-6.093750e-01, -1.718750e-01, -1.718750e-01, 3.906250e-01]{{.*}}> : tensor<1x2x4x4xf32>
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%[[I]] :
// CHECK-NEXT: return %[[R]], %[[A]]
func.func @fork_pad(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.5]], [[-1.25]]], [[[0.75]], [[0.25]]]]> : tensor<2x2x1x1xf32>
  %b1 = arith.constant dense<[0.5, -0.375]> : tensor<2xf32>
  %e1 = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.broadcast ins(%b1 : tensor<2xf32>) outs(%e1 : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %w2 = arith.constant dense<[[[[0.5, -0.25, 0.125], [1.0, 0.75, -0.5], [0.25, 0.0, -1.0]], [[-0.5, 0.25, 0.375], [0.0, 1.25, -0.75], [0.5, -0.125, 0.25]]], [[[0.75, 0.5, -0.25], [-1.0, 0.125, 0.5], [0.0, 0.25, 0.75]], [[0.25, -0.5, 1.0], [0.5, 0.0, -0.25], [-0.75, 0.375, 0.125]]]]> : tensor<2x2x3x3xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %r, %a : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @fork_pad_f16(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w1 :
// CHECK: %[[P:.*]] = tensor.pad %x
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>)
// CHECK-NEXT: return %[[R]], %[[A]]
func.func @fork_pad_f16(%x: tensor<1x2x4x4xf16>) -> (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.5]], [[-1.25]]], [[[0.75]], [[0.25]]]]> : tensor<2x2x1x1xf16>
  %b1 = arith.constant dense<[0.5, -0.375]> : tensor<2xf16>
  %e1 = tensor.empty() : tensor<1x2x4x4xf16>
  %i1 = linalg.broadcast ins(%b1 : tensor<2xf16>) outs(%e1 : tensor<1x2x4x4xf16>) dimensions = [0, 2, 3]
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%i1 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %p = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
  %w2 = arith.constant dense<[[[[0.5, -0.25, 0.125], [1.0, 0.75, -0.5], [0.25, 0.0, -1.0]], [[-0.5, 0.25, 0.375], [0.0, 1.25, -0.75], [0.5, -0.125, 0.25]]], [[[0.75, 0.5, -0.25], [-1.0, 0.125, 0.5], [0.0, 0.25, 0.75]], [[0.25, -0.5, 1.0], [0.5, 0.0, -0.25], [-0.75, 0.375, 0.125]]]]> : tensor<2x2x3x3xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>) outs(%z2 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  return %r, %a : tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>
}

// Negative: a relu between the fork and the pad ends the chain: nothing composed.
// CHECK-LABEL: func.func @relu_before_pad(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w1 :
// CHECK: arith.maximumf
// CHECK: tensor.pad %h
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%p, %w2 :
func.func @relu_before_pad(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.5]], [[-1.25]]], [[[0.75]], [[0.25]]]]> : tensor<2x2x1x1xf32>
  %e1 = tensor.empty() : tensor<1x2x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %zt = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %h = arith.maximumf %a, %zt : tensor<1x2x4x4xf32>
  %p = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %w2 = arith.constant dense<[[[[0.5, -0.25, 0.125], [1.0, 0.75, -0.5], [0.25, 0.0, -1.0]], [[-0.5, 0.25, 0.375], [0.0, 1.25, -0.75], [0.5, -0.125, 0.25]]], [[[0.75, 0.5, -0.25], [-1.0, 0.125, 0.5], [0.0, 0.25, 0.75]], [[0.25, -0.5, 1.0], [0.5, 0.0, -0.25], [-0.75, 0.375, 0.125]]]]> : tensor<2x2x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %r, %a : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @fork_pad_limit(
func.func @fork_pad_limit(%x: tensor<1x3x4x4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.5]], [[-1.25]], [[0.75]]]]> : tensor<1x3x1x1xf32>
  %e1 = tensor.empty() : tensor<1x1x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) outs(%z1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %p = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x1x4x4xf32> to tensor<1x1x6x6xf32>
  %w2 = arith.constant dense<[[[[0.5, -0.25, 0.125], [1.0, 0.75, -0.5], [0.25, 0.0, -1.0]]]]> : tensor<1x1x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%z1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %r, %a : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>
}

// f16 as torch-mlir writes it: the 1x1 conv accumulates in f32 and the fork is its f16
// rounding; the chain composes across the rounding, which stays for the other reader.
// CHECK-LABEL: func.func @fork_pad_rounded(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w1 :
// CHECK: %[[H:.*]] = arith.truncf %[[A]]
// CHECK: %[[P:.*]] = tensor.pad %x
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK-NEXT: return %[[R]], %[[H]]
func.func @fork_pad_rounded(%x: tensor<1x2x4x4xf16>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf16>) {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.5]], [[-1.25]]], [[[0.75]], [[0.25]]]]> : tensor<2x2x1x1xf16>
  %b1 = arith.constant dense<[0.5, -0.375]> : tensor<2xf32>
  %e1 = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.broadcast ins(%b1 : tensor<2xf32>) outs(%e1 : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %h = arith.truncf %a : tensor<1x2x4x4xf32> to tensor<1x2x4x4xf16>
  %p = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
  %w2 = arith.constant dense<[[[[0.5, -0.25, 0.125], [1.0, 0.75, -0.5], [0.25, 0.0, -1.0]], [[-0.5, 0.25, 0.375], [0.0, 1.25, -0.75], [0.5, -0.125, 0.25]]], [[[0.75, 0.5, -0.25], [-1.0, 0.125, 0.5], [0.0, 0.25, 0.75]], [[0.25, -0.5, 1.0], [0.5, 0.0, -0.25], [-0.75, 0.375, 0.125]]]]> : tensor<2x2x3x3xf16>
  %z2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %r, %h : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf16>
}
