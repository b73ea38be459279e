// A batch norm after a channel concat (concat_scales.py), as DenseNet's dense layers
// have it: layer i normalises concat(x, f1, ..., f(i-1)), fj a conv that every later
// layer reads again through its own concat and batch norm. The scale is split over the
// parts (SplitScaleOverConcat); the deepest part's slice goes into its conv, whose
// other readers are rescaled (FoldScaleIntoSharedLinearOp): the concat is as deep as the
// conv, not one level deeper, and the filters keep their size (DenseNet-121 183 -> 122).
// In torch-mlir's half form the parts are truncf'd convs that the batch norm widens
// again: the roundings move past the concat first (WidenConcatOfRoundings).
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | heir-opt | filecheck %s --check-prefix=REPARSE
// IREE's rule (a MAC bound): nothing is split.
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{max-mac-growth=1}' | filecheck %s --check-prefix=IREE
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=UMBRELLA
// Numerics, f32 and f16, the negatives included.
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops -o %t
// RUN: heirpy-equiv %s %t --function dense_block | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function dense_block_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function conv_read_elsewhere | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function no_linear_part | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function spatial_scale | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function concat_read_twice | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function zero_scale | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function small_scale | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %s -p linalg-fuse-ops -o %t.umbrella
// RUN: heirpy-equiv %s %t.umbrella --function dense_block | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t.umbrella --function dense_block_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE: tensor.concat
// Depth: the dense block's second concat 4 -> 2 (each layer's batch norm in its conv);
// f16 as f32. The negatives keep theirs: the conv also returned (its scale would change
// the returned value: no split either), a relu between conv and concat, a scale that varies along the
// width, a concat read twice, a zero in the conv's slice of the scale (guard: nothing to
// divide the other readers by; 2^-14 on the other side folds).
// BEFORE: @dense_block          4
// BEFORE: @dense_block_f16      4
// BEFORE: @conv_read_elsewhere  2
// BEFORE: @no_linear_part       2
// BEFORE: @spatial_scale        2
// BEFORE: @concat_read_twice    2
// BEFORE: @zero_scale           2
// BEFORE: @small_scale          2
// AFTER: @dense_block          2+     1, 2
// AFTER: @dense_block_f16      2+     1, 2
// AFTER: @conv_read_elsewhere  2
// AFTER: @no_linear_part       2
// AFTER: @spatial_scale        2
// AFTER: @concat_read_twice    2
// AFTER: @zero_scale           2
// AFTER: @small_scale          1
// UMBRELLA: @dense_block          2+     1, 2
// UMBRELLA: @dense_block_f16      2+     1, 2
// IREE-LABEL: func.func @dense_block(
// IREE: tensor.concat dim(1) %x, %f1 :
// IREE: tensor.concat dim(1) %x, %f1, %f2 :
// IREE-LABEL: func.func @dense_block_f16(

// CHECK-LABEL: func.func @dense_block(
// CHECK: %[[F1:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %[[W1:[0-9]+]] : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>)
// CHECK: %[[X1:.*]] = linalg.generic {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>)
// CHECK: tensor.concat dim(1) %[[X1]], %[[F1]] :
// CHECK: %[[F2:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %[[W2:[0-9]+]] : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>)
// CHECK: %[[X2:.*]] = linalg.generic {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>)
// CHECK: %[[R1:.*]] = linalg.generic {{.*}} ins(%[[F1]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>)
// CHECK: tensor.concat dim(1) %[[X2]], %[[R1]], %[[F2]] :
// CHECK-LABEL: func.func @dense_block_f16(
// CHECK: %[[F1:.*]] = linalg.conv_2d_nchw_fchw {{.*}} : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK: tensor.concat dim(1) %{{.*}}, %[[F1]] : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
// CHECK: %[[F2:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: tensor.concat dim(1) %{{.*}}, %{{.*}}, %[[F2]] : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
// CHECK-LABEL: func.func @conv_read_elsewhere(
// CHECK: %f = linalg.conv_2d_nchw_fchw {{.*}} ins(%h_1, %w1 :
// CHECK: %c = tensor.concat dim(1) %x, %f :
// CHECK: return %{{.*}}, %f :
// CHECK-LABEL: func.func @no_linear_part(
// CHECK: %c = tensor.concat dim(1) %x, %g_1 :
// CHECK-NOT: tensor.concat
// CHECK: linalg.generic {{.*}} ins(%c,
// CHECK-LABEL: func.func @spatial_scale(
// CHECK: %c = tensor.concat dim(1) %x, %f :
// CHECK-LABEL: func.func @concat_read_twice(
// CHECK: %c = tensor.concat dim(1) %x, %f :
// CHECK-LABEL: func.func @zero_scale(
// CHECK: %f = linalg.conv_2d_nchw_fchw {{.*}} ins(%h_1, %w1 :
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%f, %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>)
// CHECK: tensor.concat dim(1) %{{.*}}, %[[M]] :
// CHECK-LABEL: func.func @small_scale(
// CHECK: %f = linalg.conv_2d_nchw_fchw {{.*}} ins(%h_1, %[[W:[0-9]+]] :
// CHECK: tensor.concat dim(1) %{{.*}}, %f :

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#sp = affine_map<(d0, d1, d2, d3) -> (d1, 0, d3)>

func.func @dense_block(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x6x4x4xf32>) {
  %w1 = arith.constant dense<[[[[0.25]], [[0.75]]], [[[0.5]], [[-0.5]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.375]], [[0.75]], [[-1.0]], [[0.625]]], [[[0.625]], [[-0.125]], [[-0.375]], [[-0.5]]]]> : tensor<2x4x1x1xf32>
  %s1 = arith.constant dense<[[[0.625]], [[0.75]], [[0.875]], [[1.0]]]> : tensor<4x1x1xf32>
  %t1 = arith.constant dense<[[[1.0]], [[0.625]], [[0.25]], [[1.0]]]> : tensor<4x1x1xf32>
  %s2 = arith.constant dense<[[[0.5]], [[0.5]], [[1.0]], [[0.25]], [[0.25]], [[0.875]]]> : tensor<6x1x1xf32>
  %t2 = arith.constant dense<[[[-0.125]], [[0.875]], [[0.25]], [[0.0]], [[-0.0]], [[-0.5]]]> : tensor<6x1x1xf32>
  %h_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %h = arith.maximumf %x, %h_0 : tensor<1x2x4x4xf32>
  %f1_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f1_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c1 = tensor.concat dim(1) %x, %f1 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %m1_e = tensor.empty() : tensor<1x4x4x4xf32>
  %m1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %s1 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%m1_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.mulf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %a1_e = tensor.empty() : tensor<1x4x4x4xf32>
  %a1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m1, %t1 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%a1_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %r1_0 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %r1 = arith.maximumf %a1, %r1_0 : tensor<1x4x4x4xf32>
  %f2_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r1, %w2 : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%f2_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c2 = tensor.concat dim(1) %x, %f1, %f2 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x6x4x4xf32>
  %m2_e = tensor.empty() : tensor<1x6x4x4xf32>
  %m2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %s2 : tensor<1x6x4x4xf32>, tensor<6x1x1xf32>) outs(%m2_e : tensor<1x6x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.mulf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x6x4x4xf32>
  %a2_e = tensor.empty() : tensor<1x6x4x4xf32>
  %a2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m2, %t2 : tensor<1x6x4x4xf32>, tensor<6x1x1xf32>) outs(%a2_e : tensor<1x6x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x6x4x4xf32>
  %r2_0 = arith.constant dense<0.0> : tensor<1x6x4x4xf32>
  %r2 = arith.maximumf %a2, %r2_0 : tensor<1x6x4x4xf32>
  return %r1, %r2 : tensor<1x4x4x4xf32>, tensor<1x6x4x4xf32>
}

func.func @dense_block_f16(%x: tensor<1x2x4x4xf16>) -> (tensor<1x4x4x4xf16>, tensor<1x6x4x4xf16>) {
  %w1 = arith.constant dense<[[[[-1.0]], [[-0.625]]], [[[0.375]], [[-0.625]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.25]], [[-1.0]], [[0.625]], [[-0.75]]], [[[-0.5]], [[0.75]], [[0.0]], [[0.75]]]]> : tensor<2x4x1x1xf16>
  %s1 = arith.constant dense<[[[1.0]], [[1.125]], [[0.375]], [[0.875]]]> : tensor<4x1x1xf32>
  %t1 = arith.constant dense<[[[0.0]], [[0.75]], [[-0.25]], [[0.25]]]> : tensor<4x1x1xf32>
  %s2 = arith.constant dense<[[[0.375]], [[0.75]], [[0.625]], [[0.5]], [[1.25]], [[0.75]]]> : tensor<6x1x1xf32>
  %t2 = arith.constant dense<[[[1.0]], [[0.125]], [[0.25]], [[0.25]], [[0.375]], [[-0.75]]]> : tensor<6x1x1xf32>
  %h_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf16>
  %h = arith.maximumf %x, %h_0 : tensor<1x2x4x4xf16>
  %f1w_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f1w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%f1w_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %f1 = arith.truncf %f1w : tensor<1x2x4x4xf32> to tensor<1x2x4x4xf16>
  %c1 = tensor.concat dim(1) %x, %f1 : (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) -> tensor<1x4x4x4xf16>
  %m1_e = tensor.empty() : tensor<1x4x4x4xf32>
  %m1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %s1 : tensor<1x4x4x4xf16>, tensor<4x1x1xf32>) outs(%m1_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f16, %kk: f32, %out: f32):
    %e = arith.extf %in : f16 to f32
    %r = arith.mulf %e, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %a1_e = tensor.empty() : tensor<1x4x4x4xf32>
  %a1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m1, %t1 : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%a1_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %a1h = arith.truncf %a1 : tensor<1x4x4x4xf32> to tensor<1x4x4x4xf16>
  %r1_0 = arith.constant dense<0.0> : tensor<1x4x4x4xf16>
  %r1 = arith.maximumf %a1h, %r1_0 : tensor<1x4x4x4xf16>
  %f2w_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f2w = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r1, %w2 : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%f2w_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %f2 = arith.truncf %f2w : tensor<1x2x4x4xf32> to tensor<1x2x4x4xf16>
  %c2 = tensor.concat dim(1) %x, %f1, %f2 : (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) -> tensor<1x6x4x4xf16>
  %m2_e = tensor.empty() : tensor<1x6x4x4xf32>
  %m2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %s2 : tensor<1x6x4x4xf16>, tensor<6x1x1xf32>) outs(%m2_e : tensor<1x6x4x4xf32>) {
  ^bb0(%in: f16, %kk: f32, %out: f32):
    %e = arith.extf %in : f16 to f32
    %r = arith.mulf %e, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x6x4x4xf32>
  %a2_e = tensor.empty() : tensor<1x6x4x4xf32>
  %a2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m2, %t2 : tensor<1x6x4x4xf32>, tensor<6x1x1xf32>) outs(%a2_e : tensor<1x6x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x6x4x4xf32>
  %a2h = arith.truncf %a2 : tensor<1x6x4x4xf32> to tensor<1x6x4x4xf16>
  %r2_0 = arith.constant dense<0.0> : tensor<1x6x4x4xf16>
  %r2 = arith.maximumf %a2h, %r2_0 : tensor<1x6x4x4xf16>
  return %r1, %r2 : tensor<1x4x4x4xf16>, tensor<1x6x4x4xf16>
}

func.func @conv_read_elsewhere(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w1 = arith.constant dense<[[[[0.875]], [[-0.625]]], [[[0.375]], [[-0.375]]]]> : tensor<2x2x1x1xf32>
  %h_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %h = arith.maximumf %x, %h_0 : tensor<1x2x4x4xf32>
  %f_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %x, %f : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = arith.constant dense<[[[0.75]], [[0.5]], [[0.75]], [[0.375]]]> : tensor<4x1x1xf32>
  %m_e = tensor.empty() : tensor<1x4x4x4xf32>
  %m = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%m_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.mulf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %t = arith.constant dense<[[[0.75]], [[0.375]], [[-0.75]], [[0.75]]]> : tensor<4x1x1xf32>
  %a_e = tensor.empty() : tensor<1x4x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %t : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%a_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %r_0 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %r = arith.maximumf %a, %r_0 : tensor<1x4x4x4xf32>
  return %r, %f : tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>
}

func.func @no_linear_part(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>) {
  %w1 = arith.constant dense<[[[[-0.625]], [[0.875]]], [[[0.125]], [[-0.625]]]]> : tensor<2x2x1x1xf32>
  %h_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %h = arith.maximumf %x, %h_0 : tensor<1x2x4x4xf32>
  %f_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %g_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %g = arith.maximumf %f, %g_0 : tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %x, %g : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = arith.constant dense<[[[1.375]], [[1.375]], [[1.0]], [[0.375]]]> : tensor<4x1x1xf32>
  %m_e = tensor.empty() : tensor<1x4x4x4xf32>
  %m = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%m_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.mulf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %t = arith.constant dense<[[[0.75]], [[0.25]], [[0.125]], [[-0.25]]]> : tensor<4x1x1xf32>
  %a_e = tensor.empty() : tensor<1x4x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %t : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%a_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %r_0 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %r = arith.maximumf %a, %r_0 : tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

func.func @spatial_scale(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>) {
  %w1 = arith.constant dense<[[[[-0.125]], [[0.125]]], [[[-0.375]], [[0.5]]]]> : tensor<2x2x1x1xf32>
  %h_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %h = arith.maximumf %x, %h_0 : tensor<1x2x4x4xf32>
  %f_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %x, %f : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = arith.constant dense<[[[0.25, 0.75, 0.25, 0.375]], [[1.5, 1.125, 0.75, 0.875]], [[1.375, 0.625, 1.0, 1.125]], [[0.75, 0.875, 1.25, 1.375]]]> : tensor<4x1x4xf32>
  %m_e = tensor.empty() : tensor<1x4x4x4xf32>
  %m = linalg.generic {indexing_maps = [#id, #sp, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s : tensor<1x4x4x4xf32>, tensor<4x1x4xf32>) outs(%m_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.mulf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %t = arith.constant dense<[[[-0.75]], [[0.875]], [[-1.0]], [[0.5]]]> : tensor<4x1x1xf32>
  %a_e = tensor.empty() : tensor<1x4x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %t : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%a_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %r_0 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %r = arith.maximumf %a, %r_0 : tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

func.func @concat_read_twice(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %w1 = arith.constant dense<[[[[-1.0]], [[0.25]]], [[[0.625]], [[0.0]]]]> : tensor<2x2x1x1xf32>
  %h_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %h = arith.maximumf %x, %h_0 : tensor<1x2x4x4xf32>
  %f_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %x, %f : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = arith.constant dense<[[[1.25]], [[0.375]], [[0.75]], [[1.25]]]> : tensor<4x1x1xf32>
  %m_e = tensor.empty() : tensor<1x4x4x4xf32>
  %m = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%m_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.mulf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %t = arith.constant dense<[[[0.5]], [[-0.5]], [[-0.625]], [[-0.25]]]> : tensor<4x1x1xf32>
  %a_e = tensor.empty() : tensor<1x4x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %t : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%a_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %r_0 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %r = arith.maximumf %a, %r_0 : tensor<1x4x4x4xf32>
  return %r, %c : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}

func.func @zero_scale(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>) {
  %w1 = arith.constant dense<[[[[-0.625]], [[-0.25]]], [[[0.875]], [[0.125]]]]> : tensor<2x2x1x1xf32>
  %h_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %h = arith.maximumf %x, %h_0 : tensor<1x2x4x4xf32>
  %f_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %x, %f : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = arith.constant dense<[[[0.5]], [[0.75]], [[0.0]], [[1.25]]]> : tensor<4x1x1xf32>
  %m_e = tensor.empty() : tensor<1x4x4x4xf32>
  %m = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%m_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.mulf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %t = arith.constant dense<[[[-0.375]], [[-0.5]], [[0.875]], [[-0.125]]]> : tensor<4x1x1xf32>
  %a_e = tensor.empty() : tensor<1x4x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %t : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%a_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %r_0 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %r = arith.maximumf %a, %r_0 : tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

func.func @small_scale(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>) {
  %w1 = arith.constant dense<[[[[1.0]], [[0.0]]], [[[0.0]], [[0.75]]]]> : tensor<2x2x1x1xf32>
  %h_0 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %h = arith.maximumf %x, %h_0 : tensor<1x2x4x4xf32>
  %f_z = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%h, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f_z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %x, %f : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = arith.constant dense<[[[0.5]], [[0.75]], [[6.103515625e-05]], [[1.25]]]> : tensor<4x1x1xf32>
  %m_e = tensor.empty() : tensor<1x4x4x4xf32>
  %m = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%m_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.mulf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %t = arith.constant dense<[[[0.5]], [[0.125]], [[-0.125]], [[0.75]]]> : tensor<4x1x1xf32>
  %a_e = tensor.empty() : tensor<1x4x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %t : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>) outs(%a_e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %kk: f32, %out: f32):
    %r = arith.addf %in, %kk : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %r_0 = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %r = arith.maximumf %a, %r_0 : tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

