// Linear chains through a fork (chains_through_forks.py) and through a shared sum
// (chains_through_adds.py): a conv reading a linear branch's output, or a sum of one
// and a skip, that other ops read too. The branch (and the sum) stay for those users;
// the conv composed with the branch is added beside them, reading the branch's input:
// one level instead of two on the conv's path, which is what the depth bound counts.
// @mobilenet_blocks is MobileNetV3-small's (and V2's) shape, shrunk to 2/4 channels:
// block 1's `project` conv feeds block 2's `expand` AND block 2's skip add; block 2's
// sum feeds block 3's `expand` AND block 3's skip add. Its skip (%p1) is then no longer
// an ancestor of block 3's branch (block 2's expand was composed onto %r2), but is
// still no deeper: a one-level branch of %r2, which has a linear op on the way to %r5.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt | filecheck %s --check-prefix=REPARSE
// Depth: the positives reach the bound (6+ -> 4+, 2 -> 1), the negatives stay.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function mobilenet_blocks | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function mobilenet_blocks_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function fork_simple | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function fork_simple_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function relu_between | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function skip_deeper | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// The cost rule: @fork_simple's weights go from 1x2 + 3x1 = 5 to the kept 1x2 and the
// composed 3x2 = 8 (1.6x for one level; the branch is counted on both sides since it
// stays): at max-weight-growth=1.6 it fuses, just under it it does not.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.6}' | filecheck %s --check-prefix=AT-LIMIT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.59}' | filecheck %s --check-prefix=UNDER
// BEFORE: @mobilenet_blocks {{ +}}6+
// BEFORE: @mobilenet_blocks_f16 {{ +}}6+
// BEFORE: @fork_simple {{ +}}2
// BEFORE: @fork_simple_f16 {{ +}}2
// BEFORE: @relu_between {{ +}}2+
// BEFORE: @skip_deeper {{ +}}3+
// AFTER: @mobilenet_blocks {{ +}}4+
// AFTER: @mobilenet_blocks_f16 {{ +}}4+
// AFTER: @fork_simple {{ +}}1
// AFTER: @fork_simple_f16 {{ +}}1
// AFTER: @relu_between {{ +}}2+
// AFTER: @skip_deeper {{ +}}3+
// REPARSE-LABEL: func.func @mobilenet_blocks(
// REPARSE-LABEL: func.func @skip_deeper(
// AT-LIMIT-LABEL: func.func @fork_simple(
// AT-LIMIT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>)
// AT-LIMIT-NEXT: return %[[R]], %a
// AT-LIMIT-LABEL: func.func @fork_simple_f16(
// UNDER-LABEL: func.func @fork_simple(
// UNDER: linalg.conv_2d_nchw_fchw {{.*}} ins(%a,
// UNDER-LABEL: func.func @fork_simple_f16(

// CHECK-LABEL: func.func @mobilenet_blocks(
// CHECK: %[[H1:.*]] = arith.maximumf %c1
// CHECK: %[[P1:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H1]], %w3 :
// Block 2's expand composed with block 1's project, on %r2, beside %p1:
// CHECK: %[[E2:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H1]], %{{.*}} : tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>)
// CHECK: %[[H2:.*]] = arith.maximumf %[[E2]]
// CHECK: %[[P2:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H2]], %w6 :
// CHECK: %[[S2:.*]] = arith.addf %[[P2]], %[[P1]]
// Block 3's expand of the shared sum: the conv of the skip, then the composed conv.
// CHECK: %[[KEPT:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P1]], %w8 :
// CHECK: %[[E3:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H2]], %{{.*}} : tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) outs(%[[KEPT]] :
// CHECK: %[[H3:.*]] = arith.maximumf %[[E3]]
// CHECK: %[[P3:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[H3]], %w10 :
// CHECK: %[[S3:.*]] = arith.addf %[[P3]], %[[S2]]
// CHECK-NEXT: return %[[S3]]
// CHECK-LABEL: func.func @mobilenet_blocks_f16(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%r13, %{{.*}} : tensor<1x4x4x4xf16>, tensor<4x4x1x1xf16>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%p1, %w19 :
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%r16, %{{.*}} : tensor<1x4x4x4xf16>, tensor<4x4x1x1xf16>)
// CHECK-LABEL: func.func @fork_simple(
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w23 :
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>)
// CHECK-NEXT: return %[[R]], %[[A]]
// CHECK-LABEL: func.func @fork_simple_f16(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>)
// CHECK-NEXT: return
// Negatives. A nonlinearity between the shared conv and the next one: no chain.
// CHECK-LABEL: func.func @relu_between(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%r28, %w29 :
// The skip (%r33, after a relu two levels deep) may be deeper than the branch's input
// (%r35, one level): the conv of the skip would cost the level composing saves.
// CHECK-LABEL: func.func @skip_deeper(
// CHECK: %[[S:.*]] = arith.addf %b, %r33
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S]], %w38 :

func.func @mobilenet_blocks(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %zt2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %zt4 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %w1 = arith.constant dense<[[[[0.25]], [[0.75]]], [[[0.5]], [[-0.5]]], [[[-0.375]], [[0.75]]], [[[-1.0]], [[0.625]]]]> : tensor<4x2x1x1xf32>
  %em1 = tensor.empty() : tensor<1x4x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%em1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%z1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r2 = arith.maximumf %c1, %zt4 : tensor<1x4x4x4xf32>
  %w3 = arith.constant dense<[[[[0.625]], [[-0.125]], [[-0.375]], [[-0.5]]], [[[-0.5]], [[-0.125]], [[0.0]], [[0.125]]]]> : tensor<2x4x1x1xf32>
  %em3 = tensor.empty() : tensor<1x2x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%em3 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r2, %w3 : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%z3 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %w4 = arith.constant dense<[[[[1.0]], [[0.625]]], [[[0.25]], [[1.0]]], [[[-0.625]], [[-0.625]]], [[[0.25]], [[-0.875]]]]> : tensor<4x2x1x1xf32>
  %em4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%em4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w4 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r5 = arith.maximumf %e2, %zt4 : tensor<1x4x4x4xf32>
  %w6 = arith.constant dense<[[[[-0.875]], [[0.0]], [[-0.125]], [[0.875]]], [[[0.25]], [[0.0]], [[-0.0]], [[-0.5]]]]> : tensor<2x4x1x1xf32>
  %em6 = tensor.empty() : tensor<1x2x4x4xf32>
  %z6 = linalg.fill ins(%zero : f32) outs(%em6 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r5, %w6 : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%z6 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s2 = arith.addf %p2, %p1 : tensor<1x2x4x4xf32>
  %w8 = arith.constant dense<[[[[-1.0]], [[-0.625]]], [[[0.375]], [[-0.625]]], [[[-0.25]], [[-1.0]]], [[[0.625]], [[-0.75]]]]> : tensor<4x2x1x1xf32>
  %em8 = tensor.empty() : tensor<1x4x4x4xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%em8 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s2, %w8 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%z8 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r9 = arith.maximumf %e3, %zt4 : tensor<1x4x4x4xf32>
  %w10 = arith.constant dense<[[[[-0.5]], [[0.75]], [[0.0]], [[0.75]]], [[[0.25]], [[0.5]], [[-0.875]], [[0.125]]]]> : tensor<2x4x1x1xf32>
  %em10 = tensor.empty() : tensor<1x2x4x4xf32>
  %z10 = linalg.fill ins(%zero : f32) outs(%em10 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r9, %w10 : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%z10 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s3 = arith.addf %p3, %s2 : tensor<1x2x4x4xf32>
  return %s3 : tensor<1x2x4x4xf32>
}

func.func @mobilenet_blocks_f16(%x: tensor<1x2x4x4xf16>) -> (tensor<1x2x4x4xf16>) {
  %zero = arith.constant 0.0 : f16
  %zt2 = arith.constant dense<0.0> : tensor<1x2x4x4xf16>
  %zt4 = arith.constant dense<0.0> : tensor<1x4x4x4xf16>
  %w12 = arith.constant dense<[[[[0.0]], [[0.75]]], [[[-0.25]], [[0.25]]], [[[-0.875]], [[-0.25]]], [[[-0.375]], [[-0.75]]]]> : tensor<4x2x1x1xf16>
  %em12 = tensor.empty() : tensor<1x4x4x4xf16>
  %z12 = linalg.fill ins(%zero : f16) outs(%em12 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %c12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w12 : tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) outs(%z12 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %r13 = arith.maximumf %c12, %zt4 : tensor<1x4x4x4xf16>
  %w14 = arith.constant dense<[[[[0.625]], [[-0.25]], [[1.0]], [[0.125]]], [[[0.25]], [[0.25]], [[0.375]], [[-0.75]]]]> : tensor<2x4x1x1xf16>
  %em14 = tensor.empty() : tensor<1x2x4x4xf16>
  %z14 = linalg.fill ins(%zero : f16) outs(%em14 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %p1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r13, %w14 : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%z14 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %w15 = arith.constant dense<[[[[-0.125]], [[-0.5]]], [[[-0.25]], [[-0.75]]], [[[0.875]], [[-0.625]]], [[[0.375]], [[-0.375]]]]> : tensor<4x2x1x1xf16>
  %em15 = tensor.empty() : tensor<1x4x4x4xf16>
  %z15 = linalg.fill ins(%zero : f16) outs(%em15 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %e2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w15 : tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) outs(%z15 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %r16 = arith.maximumf %e2, %zt4 : tensor<1x4x4x4xf16>
  %w17 = arith.constant dense<[[[[0.75]], [[0.375]], [[-0.75]], [[0.75]]], [[[0.875]], [[0.75]], [[0.125]], [[-0.75]]]]> : tensor<2x4x1x1xf16>
  %em17 = tensor.empty() : tensor<1x2x4x4xf16>
  %z17 = linalg.fill ins(%zero : f16) outs(%em17 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %p2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r16, %w17 : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%z17 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s2 = arith.addf %p2, %p1 : tensor<1x2x4x4xf16>
  %w19 = arith.constant dense<[[[[-0.625]], [[0.875]]], [[[0.125]], [[-0.625]]], [[[0.75]], [[0.25]]], [[[0.125]], [[-0.25]]]]> : tensor<4x2x1x1xf16>
  %em19 = tensor.empty() : tensor<1x4x4x4xf16>
  %z19 = linalg.fill ins(%zero : f16) outs(%em19 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %e3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s2, %w19 : tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) outs(%z19 : tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xf16>
  %r20 = arith.maximumf %e3, %zt4 : tensor<1x4x4x4xf16>
  %w21 = arith.constant dense<[[[[-0.125]], [[-0.5]], [[-0.875]], [[0.75]]], [[[-0.125]], [[0.125]], [[-0.375]], [[0.5]]]]> : tensor<2x4x1x1xf16>
  %em21 = tensor.empty() : tensor<1x2x4x4xf16>
  %z21 = linalg.fill ins(%zero : f16) outs(%em21 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %p3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r20, %w21 : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%z21 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s3 = arith.addf %p3, %s2 : tensor<1x2x4x4xf16>
  return %s3 : tensor<1x2x4x4xf16>
}

func.func @fork_simple(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x1x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %zt1 = arith.constant dense<0.0> : tensor<1x1x4x4xf32>
  %w23 = arith.constant dense<[[[[-1.0]], [[-0.25]]]]> : tensor<1x2x1x1xf32>
  %em23 = tensor.empty() : tensor<1x1x4x4xf32>
  %z23 = linalg.fill ins(%zero : f32) outs(%em23 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w23 : tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) outs(%z23 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %w24 = arith.constant dense<[[[[-1.0]]], [[[-0.75]]], [[[0.875]]]]> : tensor<3x1x1x1xf32>
  %em24 = tensor.empty() : tensor<1x3x4x4xf32>
  %z24 = linalg.fill ins(%zero : f32) outs(%em24 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %w24 : tensor<1x1x4x4xf32>, tensor<3x1x1x1xf32>) outs(%z24 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r, %a : tensor<1x3x4x4xf32>, tensor<1x1x4x4xf32>
}

func.func @fork_simple_f16(%x: tensor<1x2x4x4xf16>) -> (tensor<1x3x4x4xf16>, tensor<1x1x4x4xf16>) {
  %zero = arith.constant 0.0 : f16
  %zt1 = arith.constant dense<0.0> : tensor<1x1x4x4xf16>
  %w25 = arith.constant dense<[[[[0.375]], [[-0.125]]]]> : tensor<1x2x1x1xf16>
  %em25 = tensor.empty() : tensor<1x1x4x4xf16>
  %z25 = linalg.fill ins(%zero : f16) outs(%em25 : tensor<1x1x4x4xf16>) -> tensor<1x1x4x4xf16>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w25 : tensor<1x2x4x4xf16>, tensor<1x2x1x1xf16>) outs(%z25 : tensor<1x1x4x4xf16>) -> tensor<1x1x4x4xf16>
  %w26 = arith.constant dense<[[[[0.0]]], [[[0.75]]], [[[-0.25]]]]> : tensor<3x1x1x1xf16>
  %em26 = tensor.empty() : tensor<1x3x4x4xf16>
  %z26 = linalg.fill ins(%zero : f16) outs(%em26 : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %w26 : tensor<1x1x4x4xf16>, tensor<3x1x1x1xf16>) outs(%z26 : tensor<1x3x4x4xf16>) -> tensor<1x3x4x4xf16>
  return %r, %a : tensor<1x3x4x4xf16>, tensor<1x1x4x4xf16>
}

func.func @relu_between(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %zt2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %w27 = arith.constant dense<[[[[0.125]], [[0.375]]], [[[-0.25]], [[0.0]]]]> : tensor<2x2x1x1xf32>
  %em27 = tensor.empty() : tensor<1x2x4x4xf32>
  %z27 = linalg.fill ins(%zero : f32) outs(%em27 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w27 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z27 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r28 = arith.maximumf %a, %zt2 : tensor<1x2x4x4xf32>
  %w29 = arith.constant dense<[[[[0.5]], [[0.875]]], [[[-0.75]], [[0.875]]], [[[-1.0]], [[0.5]]]]> : tensor<3x2x1x1xf32>
  %em29 = tensor.empty() : tensor<1x3x4x4xf32>
  %z29 = linalg.fill ins(%zero : f32) outs(%em29 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r28, %w29 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%z29 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r, %a : tensor<1x3x4x4xf32>, tensor<1x2x4x4xf32>
}

func.func @skip_deeper(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %zt2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %w30 = arith.constant dense<[[[[0.625]], [[-0.75]]], [[[-0.125]], [[0.625]]]]> : tensor<2x2x1x1xf32>
  %em30 = tensor.empty() : tensor<1x2x4x4xf32>
  %z30 = linalg.fill ins(%zero : f32) outs(%em30 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %d1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w30 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z30 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r31 = arith.maximumf %d1, %zt2 : tensor<1x2x4x4xf32>
  %w32 = arith.constant dense<[[[[-1.0]], [[0.25]]], [[[0.625]], [[0.0]]]]> : tensor<2x2x1x1xf32>
  %em32 = tensor.empty() : tensor<1x2x4x4xf32>
  %z32 = linalg.fill ins(%zero : f32) outs(%em32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %d2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r31, %w32 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r33 = arith.maximumf %d2, %zt2 : tensor<1x2x4x4xf32>
  %w34 = arith.constant dense<[[[[0.5]], [[-0.5]]], [[[-0.625]], [[-0.25]]]]> : tensor<2x2x1x1xf32>
  %em34 = tensor.empty() : tensor<1x2x4x4xf32>
  %z34 = linalg.fill ins(%zero : f32) outs(%em34 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %h1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w34 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z34 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r35 = arith.maximumf %h1, %zt2 : tensor<1x2x4x4xf32>
  %w36 = arith.constant dense<[[[[-0.625]], [[-0.25]]], [[[0.875]], [[0.125]]]]> : tensor<2x2x1x1xf32>
  %em36 = tensor.empty() : tensor<1x2x4x4xf32>
  %z36 = linalg.fill ins(%zero : f32) outs(%em36 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r35, %w36 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z36 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = arith.addf %b, %r33 : tensor<1x2x4x4xf32>
  %w38 = arith.constant dense<[[[[-0.375]], [[-0.5]]], [[[0.875]], [[-0.125]]], [[[1.0]], [[0.0]]]]> : tensor<3x2x1x1xf32>
  %em38 = tensor.empty() : tensor<1x3x4x4xf32>
  %z38 = linalg.fill ins(%zero : f32) outs(%em38 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w38 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%z38 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

