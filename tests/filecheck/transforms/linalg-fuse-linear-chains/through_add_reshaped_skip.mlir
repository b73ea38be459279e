// The skip of a conv through an add read through a reshape (`FuseChainThroughAdd.no_deeper`):
// GhostNet's stride-block shortcut under policy=depth, once the fusions wrote the previous
// block's output as the `expand_shape` of a matrix of the block's input. The skip is a
// reshape of a branch one level above %x0 and %h is one linear op above %x0, so the skip
// is no deeper and conv2 ∘ conv1 composes (3 -> 2). A reshape costs no level, as a slice.
// Must not fire: the reshaped value two levels above %x0 (a relu between two matmuls),
// deeper than %h.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt > /dev/null
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function reshaped_skip | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function reshaped_deeper_skip | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// BEFORE: @reshaped_skip {{ +}}3+
// BEFORE: @reshaped_deeper_skip {{ +}}3+
// AFTER: @reshaped_skip {{ +}}2+
// AFTER: @reshaped_deeper_skip {{ +}}3+

// The kept conv of the skip, then the composed conv on %h accumulating into it.
// CHECK-LABEL: func.func @reshaped_skip(
// CHECK: %[[H:.*]] = arith.maximumf
// CHECK: %[[SKIP:.*]] = tensor.expand_shape
// CHECK: %[[K:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[SKIP]], %{{.*}} : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>)
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H]], %{{.*}} : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>) outs(%[[K]] : tensor<1x3x2x2xf32>)
// CHECK-NOT: arith.addf
// CHECK: return %[[R]]
func.func @reshaped_skip(%x0: tensor<1x2x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]]], [[[1.0]], [[0.25]]], [[[-0.5]], [[0.75]]]]> : tensor<3x2x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x0, %wa : tensor<1x2x2x2xf32>, tensor<3x2x1x1xf32>) outs(%za : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %h = arith.maximumf %a, %za : tensor<1x3x2x2xf32>
  %xf = tensor.collapse_shape %x0 [[0], [1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<1x8xf32>
  %wm = arith.constant dense<0.125> : tensor<8x12xf32>
  %zm = arith.constant dense<0.0> : tensor<1x12xf32>
  %m = linalg.matmul ins(%xf, %wm : tensor<1x8xf32>, tensor<8x12xf32>) outs(%zm : tensor<1x12xf32>) -> tensor<1x12xf32>
  %skip = tensor.expand_shape %m [[0], [1, 2, 3]] output_shape [1, 3, 2, 2] : tensor<1x12xf32> into tensor<1x3x2x2xf32>
  %w1 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]]], [[[0.25]], [[-1.0]], [[2.0]]], [[[0.5]], [[0.5]], [[0.5]]]]> : tensor<3x3x1x1xf32>
  %c1 = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>) outs(%c1 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %b, %skip : tensor<1x3x2x2xf32>
  %w2 = arith.constant dense<[[[[0.5]], [[-0.25]], [[1.0]]], [[[1.5]], [[0.5]], [[-1.0]]], [[[0.25]], [[0.75]], [[0.5]]]]> : tensor<3x3x1x1xf32>
  %c2 = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>) outs(%c2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %r : tensor<1x3x2x2xf32>
}

// CHECK-LABEL: func.func @reshaped_deeper_skip(
// CHECK: %[[S:.*]] = arith.addf
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]], %{{.*}}
// CHECK: return %[[R]]
func.func @reshaped_deeper_skip(%x0: tensor<1x2x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %wa = arith.constant dense<[[[[0.5]], [[-1.0]]], [[[1.0]], [[0.25]]], [[[-0.5]], [[0.75]]]]> : tensor<3x2x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x0, %wa : tensor<1x2x2x2xf32>, tensor<3x2x1x1xf32>) outs(%za : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %h = arith.maximumf %a, %za : tensor<1x3x2x2xf32>
  %xf = tensor.collapse_shape %x0 [[0], [1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<1x8xf32>
  %wm = arith.constant dense<0.125> : tensor<8x12xf32>
  %zm = arith.constant dense<0.0> : tensor<1x12xf32>
  %m = linalg.matmul ins(%xf, %wm : tensor<1x8xf32>, tensor<8x12xf32>) outs(%zm : tensor<1x12xf32>) -> tensor<1x12xf32>
  %mr = arith.maximumf %m, %zm : tensor<1x12xf32>
  %wn = arith.constant dense<0.25> : tensor<12x12xf32>
  %n = linalg.matmul ins(%mr, %wn : tensor<1x12xf32>, tensor<12x12xf32>) outs(%zm : tensor<1x12xf32>) -> tensor<1x12xf32>
  %skip = tensor.expand_shape %n [[0], [1, 2, 3]] output_shape [1, 3, 2, 2] : tensor<1x12xf32> into tensor<1x3x2x2xf32>
  %w1 = arith.constant dense<[[[[1.0]], [[0.5]], [[-0.5]]], [[[0.25]], [[-1.0]], [[2.0]]], [[[0.5]], [[0.5]], [[0.5]]]]> : tensor<3x3x1x1xf32>
  %c1 = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>) outs(%c1 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %s = arith.addf %b, %skip : tensor<1x3x2x2xf32>
  %w2 = arith.constant dense<[[[[0.5]], [[-0.25]], [[1.0]]], [[[1.5]], [[0.5]], [[-1.0]]], [[[0.25]], [[0.75]], [[0.5]]]]> : tensor<3x3x1x1xf32>
  %c2 = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x3x2x2xf32>, tensor<3x3x1x1xf32>) outs(%c2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %r : tensor<1x3x2x2xf32>
}
