// A zero pad through a conv whose windows overlap, with edge corrections
// (edge_corrections.py): `B(pad(A(x), 1))` is one conv K of x zero padded further
// (A's strides times the pad) plus, where the padded ring of A's output would read x's
// data, convs of slices of that padded input, added at K's level. GhostNet's stride
// block without a squeeze-excite: p = a 3x3 stride-2 conv (its depthwise conv composed
// with the primary 1x1 conv) is a fork, the concat reads it and the cheap depthwise
// conv reads pad(p, 1); K is a 7x7 stride-2 conv of pad(x, 3) and the bottom row, the
// right column and their corner are corrected (the top and left ones read only pad).
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth}' 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth}' 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// Depth: the positives one level less, the negatives keep their two.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth},report-depth' 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (torch-mlir's form: f16 operands, f32 accumulators, truncf).
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth}' -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function strided_before_pad | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function strided_even | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function strided_even_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function strided_asymmetric | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function plain_3x3 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function plain_depthwise | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function nonzero_pad | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function relu_between | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function edge_limit | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function concat_then_conv | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// The cost rule counts K and every correction: @edge_limit's weights go from 3x3 (p,
// kept) + 3x3 (the depthwise filter) = 18 to 3x3 + the 7x7 K + the 1x6 row, 7x1 column
// and 1x1 corner corrections = 72, 4x for one level: at max-weight-growth=4 it fuses,
// under it it does not.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=4}' 2>/dev/null | filecheck %s --check-prefix=AT-LIMIT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=3.99}' 2>/dev/null | filecheck %s --check-prefix=UNDER
// BEFORE: @strided_before_pad {{ +}}2
// BEFORE: @strided_even {{ +}}2
// BEFORE: @strided_even_f16 {{ +}}2
// BEFORE: @strided_asymmetric {{ +}}2
// BEFORE: @plain_3x3 {{ +}}2
// BEFORE: @plain_depthwise {{ +}}2
// BEFORE: @nonzero_pad {{ +}}2
// BEFORE: @relu_between {{ +}}2+
// BEFORE: @edge_limit {{ +}}2
// BEFORE: @concat_then_conv {{ +}}3
// AFTER: @strided_before_pad {{ +}}1
// AFTER: @strided_even {{ +}}1
// AFTER: @strided_even_f16 {{ +}}1
// AFTER: @strided_asymmetric {{ +}}1
// AFTER: @plain_3x3 {{ +}}1
// AFTER: @plain_depthwise {{ +}}1
// AFTER: @nonzero_pad {{ +}}2
// AFTER: @relu_between {{ +}}2+
// AFTER: @edge_limit {{ +}}1
// AFTER: @concat_then_conv {{ +}}1
// REPARSE-LABEL: func.func @strided_even(
// REPARSE-LABEL: func.func @strided_even_f16(
// REPARSE-LABEL: func.func @plain_3x3(
// REPARSE-LABEL: func.func @edge_limit(
// AT-LIMIT-LABEL: func.func @edge_limit(
// AT-LIMIT: linalg.depthwise_conv_2d_nchw_chw {{.*}} tensor<1x7x7xf32>
// AT-LIMIT: linalg.depthwise_conv_2d_nchw_chw {{.*}} tensor<1x1x6xf32>
// AT-LIMIT: linalg.depthwise_conv_2d_nchw_chw {{.*}} tensor<1x7x1xf32>
// AT-LIMIT: linalg.depthwise_conv_2d_nchw_chw {{.*}} tensor<1x1x1xf32>
// AT-LIMIT-LABEL: func.func @concat_then_conv(
// UNDER-LABEL: func.func @edge_limit(
// UNDER: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%pd, %k :
// UNDER-LABEL: func.func @concat_then_conv(

// An odd input (7x7): A's ring past the end reads only x's pad, so K alone, its init
// the chain's value at zero (the bias read through the pad), is the block.
// CHECK-LABEL: func.func @strided_before_pad(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%xp, %w1 :
// CHECK: %[[X:.*]] = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3]
// CHECK: %[[D:.*]] = linalg.conv_2d_nchw_fchw {{.*}} strides = dense<2> {{.*}} ins(%[[X]], %{{.*}} : tensor<1x3x13x13xf32>, tensor<2x3x7x7xf32>)
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: tensor.concat dim(1) %p32, %[[D]]
// An even one (8x8, GhostNet's): the last row, the last column and their corner.
// CHECK-LABEL: func.func @strided_even(
// CHECK: %[[X:.*]] = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3]
// CHECK: %[[K:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x3x14x14xf32>, tensor<2x3x7x7xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[X]][0, 0, 10, 0] [1, 3, 1, 13]
// CHECK: %[[C1:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S1]], %{{.*}} : tensor<1x3x1x13xf32>, tensor<2x3x1x7xf32>) outs(%{{.*}} : tensor<1x2x1x4xf32>)
// CHECK: %[[P1:.*]] = tensor.pad %[[C1]] low[0, 0, 3, 0] high[0, 0, 0, 0]
// CHECK: %[[A1:.*]] = arith.addf %[[K]], %[[P1]] : tensor<1x2x4x4xf32>
// CHECK: %[[S2:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 10] [1, 3, 13, 1]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[S2]], %{{.*}} : tensor<1x3x13x1xf32>, tensor<2x3x7x1xf32>)
// CHECK: tensor.pad {{.*}} low[0, 0, 0, 3] high[0, 0, 0, 0]
// CHECK: %[[A2:.*]] = arith.addf %[[A1]],
// CHECK: tensor.extract_slice %[[X]][0, 0, 10, 10] [1, 3, 1, 1]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<2x3x1x1xf32>)
// CHECK: tensor.pad {{.*}} low[0, 0, 3, 3] high[0, 0, 0, 0]
// CHECK: %[[D:.*]] = arith.addf %[[A2]],
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
// CHECK: tensor.concat dim(1) %p32, %[[D]]
// f16: K and the corrections read the f16 input with f16 filters into f32, summed in
// f32, then rounded once.
// CHECK-LABEL: func.func @strided_even_f16(
// CHECK: %[[X:.*]] = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x3x14x14xf16>, tensor<2x3x7x7xf16>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} : tensor<1x3x1x13xf16>, tensor<2x3x1x7xf16>) outs(%{{.*}} : tensor<1x2x1x4xf32>)
// CHECK: arith.addf {{.*}} : tensor<1x2x4x4xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} : tensor<1x3x13x1xf16>, tensor<2x3x7x1xf16>) outs(%{{.*}} : tensor<1x2x4x1xf32>)
// CHECK: arith.addf {{.*}} : tensor<1x2x4x4xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} : tensor<1x3x1x1xf16>, tensor<2x3x1x1xf16>) outs(%{{.*}} : tensor<1x2x1x1xf32>)
// CHECK: %[[D32:.*]] = arith.addf {{.*}} : tensor<1x2x4x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[D32]] :
// CHECK: arith.truncf
// H != W (8x5): the odd width's column past the end reads pad only: the row alone.
// CHECK-LABEL: func.func @strided_asymmetric(
// CHECK: %[[X:.*]] = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3]
// CHECK: %[[K:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x14x11xf32>, tensor<2x2x7x7xf32>)
// CHECK: tensor.extract_slice %[[X]][0, 0, 10, 0] [1, 2, 1, 11]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<2x2x1x7xf32>) outs(%{{.*}} : tensor<1x2x1x3xf32>)
// CHECK: %[[D:.*]] = arith.addf %[[K]],
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.concat dim(1) %p32, %[[D]]
// A plain chain, stride 1 (3x3, pad 1, 3x3 on a 33x32 input, whose explicit matrix
// would pass the 2^22 cap: no other form): K is a 5x5 conv of pad(x, 2) and every side
// is corrected (the ring reads x's first and last rows and columns), the four corners
// added back; the taps that read x's pad only are cut (1x5 rows, 5x1 columns, 1x1
// corners).
// CHECK-LABEL: func.func @plain_3x3(
// CHECK: %[[X:.*]] = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x37x36xf32>, tensor<2x2x5x5xf32>)
// CHECK: tensor.extract_slice %[[X]][0, 0, 2, 0] [1, 2, 1, 36]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<2x2x1x5xf32>) outs(%{{.*}} : tensor<1x2x1x32xf32>)
// CHECK: tensor.extract_slice %[[X]][0, 0, 34, 0] [1, 2, 1, 36]
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 2] [1, 2, 37, 1]
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<2x2x5x1xf32>) outs(%{{.*}} : tensor<1x2x33x1xf32>)
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 33] [1, 2, 37, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 2, 2] [1, 2, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 2, 33] [1, 2, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 34, 2] [1, 2, 1, 1]
// CHECK: tensor.extract_slice %[[X]][0, 0, 34, 33] [1, 2, 1, 1]
// CHECK: %[[Z:.*]] = arith.addf
// CHECK-NEXT: return %[[Z]]
// Depthwise convs stay depthwise, corrections too (32x33: the other odd axis).
// CHECK-LABEL: func.func @plain_depthwise(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} : tensor<1x2x36x37xf32>, tensor<2x5x5xf32>)
// CHECK-COUNT-8: linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
// Negatives. A pad of 1.0 is no linear map of p; a relu between p and the pad.
// CHECK-LABEL: func.func @nonzero_pad(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%pd, %k :
// CHECK-LABEL: func.func @relu_between(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%pd, %k :
// CHECK-LABEL: func.func @edge_limit(
// The block's output read by the next 1x1 conv too (GhostNet's next block):
// `FuseConvOfConcat` composes that conv through the concat and the same pad first, its
// cheap-conv term a 7x7 conv with the three corrections, accumulating into the p term;
// then the fork's set composes the cheap conv for the concat. Depth 2, 3 -> 1, 1.
// CHECK-LABEL: func.func @concat_then_conv(
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<2x3x7x7xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK-COUNT-3: tensor.extract_slice
// CHECK: %[[D:.*]] = arith.addf
// CHECK: tensor.concat dim(1) %p32, %[[D]]
// CHECK: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} tensor<3x3x3x3xf32>) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} tensor<3x3x7x7xf32>) outs(%[[P]] : tensor<1x3x4x4xf32>)
// CHECK-COUNT-3: tensor.extract_slice
// CHECK: %[[N:.*]] = arith.addf
// CHECK: return %c, %[[N]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @strided_before_pad(%x: tensor<1x3x7x7xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<[[[[1.0, 0.25, 0.375], [0.875, 0.125, 0.625], [0.75, -0.625, -1.0]], [[-0.375, -0.5, 0.75], [0.875, -1.0, 0.0], [0.625, -0.75, 0.625]], [[-0.75, -0.125, 0.625], [-0.375, -0.375, -0.5], [0.5, -0.5, 1.0]]], [[[-0.125, 0.0, 0.0], [0.125, 0.125, 0.0], [1.0, 0.625, 0.625]], [[0.375, 0.25, -0.375], [1.0, -0.125, -0.625], [0.75, -0.75, 0.75]], [[0.25, -0.875, -1.0], [-0.125, -1.0, -0.75], [0.0, 1.0, -0.125]]]]> : tensor<2x3x3x3xf32>
  %k = arith.constant dense<[[[0.625, 0.875, 0.625], [0.25, -0.125, 0.0], [-0.5, 0.0, -0.25]], [[-0.5, 1.0, -1.0], [-0.875, -0.625, 1.0], [0.375, 0.75, -0.625]]]> : tensor<2x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x7x7xf32> to tensor<1x3x9x9xf32>
  %i1_b = arith.constant dense<[0.5, -0.25]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w1 : tensor<1x3x9x9xf32>, tensor<2x3x3x3xf32>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %pd = tensor.pad %p32 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %p32, %d32 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c : tensor<1x4x4x4xf32>
}

func.func @strided_even(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<[[[[0.0, -1.0, 0.25], [0.75, 0.375, -0.75], [0.125, -0.5, 1.0]], [[0.75, -0.625, 0.0], [0.875, 0.75, 0.5], [0.25, -1.0, 0.5]], [[0.0, -0.875, -0.5], [0.125, 0.5, 0.0], [0.25, 0.75, 0.375]]], [[[-0.25, 0.25, 0.25], [-0.875, -0.875, 0.375], [-0.25, 0.25, -0.375]], [[-0.625, -0.75, -0.25], [0.625, -0.25, -0.25], [0.125, 1.0, -0.25]], [[0.25, -0.125, 0.25], [-0.125, 0.25, 0.125], [0.375, 1.0, -0.75]]]]> : tensor<2x3x3x3xf32>
  %k = arith.constant dense<[[[0.125, -0.125, -0.25], [-0.5, -1.0, -0.25], [0.75, -0.875, -0.25]], [[1.0, 1.0, -0.625], [-1.0, 0.375, -1.0], [-0.375, 0.0, 0.75]]]> : tensor<2x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %i1_b = arith.constant dense<[-0.875, 0.375]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w1 : tensor<1x3x10x10xf32>, tensor<2x3x3x3xf32>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %pd = tensor.pad %p32 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %p32, %d32 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c : tensor<1x4x4x4xf32>
}

func.func @strided_even_f16(%x: tensor<1x3x8x8xf16>) -> tensor<1x4x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f16
  %w1 = arith.constant dense<[[[[0.125, -0.75, 0.75], [0.75, 0.0, 1.0], [0.25, 0.875, 1.0]], [[0.125, -0.5, -0.75], [0.125, -0.625, 0.5], [0.875, -0.5, 0.125]], [[-1.0, -0.625, -0.25], [0.875, 1.0, 0.25], [0.125, 0.125, -0.875]]], [[[-0.25, 1.0, -0.25], [-0.625, -0.5, 0.5], [-1.0, 1.0, 0.75]], [[0.125, -0.125, 0.5], [0.125, 0.0, -0.375], [-0.125, 0.5, -1.0]], [[-1.0, 0.5, -0.25], [0.625, -1.0, 0.875], [-0.75, -0.125, 1.0]]]]> : tensor<2x3x3x3xf16>
  %k = arith.constant dense<[[[-0.875, 0.375, 0.5], [-0.125, -0.875, 0.0], [-0.125, 0.75, 0.375]], [[-0.375, -1.0, 0.25], [-0.5, 0.375, 0.75], [-0.25, 0.875, 0.0]]]> : tensor<2x3x3xf16>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x3x8x8xf16> to tensor<1x3x10x10xf16>
  %i1_b = arith.constant dense<[0.125, 0.625]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero32 : f32) outs(%z2_e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w1 : tensor<1x3x10x10xf16>, tensor<2x3x3x3xf16>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p_e = tensor.empty() : tensor<1x2x4x4xf16>
  %p = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p32 : tensor<1x2x4x4xf32>) outs(%p_e : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x4x4xf16>
  %pd = tensor.pad %p low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f16
  } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x6x6xf16>, tensor<2x3x3xf16>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %d_e = tensor.empty() : tensor<1x2x4x4xf16>
  %d = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d32 : tensor<1x2x4x4xf32>) outs(%d_e : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x4x4xf16>
  %c = tensor.concat dim(1) %p, %d : (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) -> tensor<1x4x4x4xf16>
  return %c : tensor<1x4x4x4xf16>
}

func.func @strided_asymmetric(%x: tensor<1x2x8x5xf32>) -> tensor<1x4x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<[[[[0.625, 0.875, 1.0], [-0.75, -0.125, 0.875], [-0.375, -1.0, 0.125]], [[0.5, 0.5, 0.625], [0.25, -0.75, 0.75], [-0.125, 0.75, 0.625]]], [[[1.0, -1.0, 0.75], [0.25, 0.0, 0.625], [1.0, 0.0, -0.875]], [[0.5, -0.625, -0.625], [-0.625, -0.625, 0.875], [-0.25, -0.875, -0.625]]]]> : tensor<2x2x3x3xf32>
  %k = arith.constant dense<[[[-0.25, -0.375, -0.375], [1.0, 0.75, 0.125], [1.0, -0.375, -0.75]], [[-0.5, -0.875, 1.0], [-0.625, -0.125, -0.625], [1.0, -0.75, 0.0]]]> : tensor<2x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x5xf32> to tensor<1x2x10x7xf32>
  %i1_b = arith.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x4x3xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x4x3xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x4x3xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w1 : tensor<1x2x10x7xf32>, tensor<2x2x3x3xf32>) outs(%i1 : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  %pd = tensor.pad %p32 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x3xf32> to tensor<1x2x6x5xf32>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x6x5xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  %c = tensor.concat dim(1) %p32, %d32 : (tensor<1x2x4x3xf32>, tensor<1x2x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %c : tensor<1x4x4x3xf32>
}

func.func @plain_3x3(%x: tensor<1x2x33x32xf32>) -> tensor<1x2x33x32xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.875, 0.875, 0.625], [0.5, 0.125, 0.125], [0.75, -0.125, 1.0]], [[0.75, -0.25, -0.25], [0.5, 0.875, -0.875], [-0.875, -0.5, -0.125]]], [[[-0.75, 0.0, 0.125], [1.0, 0.5, -0.5], [0.625, 0.625, 0.375]], [[0.375, -0.375, 0.5], [-0.75, 0.25, 0.875], [1.0, -0.375, -0.375]]]]> : tensor<2x2x3x3xf32>
  %w2 = arith.constant dense<[[[[0.25, -0.25, 0.5], [-0.625, -0.75, -1.0], [-0.125, -0.625, -0.375]], [[0.875, 0.625, 0.75], [0.25, -0.875, 0.5], [0.25, 0.875, 0.0]]], [[[-0.75, 0.25, -0.125], [0.375, -0.25, -0.375], [-0.75, 1.0, 0.5]], [[-0.125, -0.625, 0.25], [-0.125, 0.25, -0.875], [-0.625, 0.5, -0.875]]]]> : tensor<2x2x3x3xf32>
  %b1 = arith.constant dense<[0.375, -0.25]> : tensor<2xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x33x32xf32> to tensor<1x2x35x34xf32>
  %i1_e = tensor.empty() : tensor<1x2x33x32xf32>
  %i1 = linalg.broadcast ins(%b1 : tensor<2xf32>) outs(%i1_e : tensor<1x2x33x32xf32>) dimensions = [0, 2, 3]
  %i2_e = tensor.empty() : tensor<1x2x33x32xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%i2_e : tensor<1x2x33x32xf32>) -> tensor<1x2x33x32xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1 : tensor<1x2x35x34xf32>, tensor<2x2x3x3xf32>) outs(%i1 : tensor<1x2x33x32xf32>) -> tensor<1x2x33x32xf32>
  %yp = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x33x32xf32> to tensor<1x2x35x34xf32>
  %z = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%yp, %w2 : tensor<1x2x35x34xf32>, tensor<2x2x3x3xf32>) outs(%i2 : tensor<1x2x33x32xf32>) -> tensor<1x2x33x32xf32>
  return %z : tensor<1x2x33x32xf32>
}

func.func @plain_depthwise(%x: tensor<1x2x32x33xf32>) -> tensor<1x2x32x33xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[-1.0, 0.5, 0.375], [0.625, 0.875, 0.5], [0.75, -0.875, 0.875]], [[0.875, 0.375, 0.625], [0.5, 0.75, 0.875], [0.0, 0.625, 0.875]]]> : tensor<2x3x3xf32>
  %w2 = arith.constant dense<[[[-0.375, -1.0, -0.75], [-1.0, -0.125, -1.0], [-0.5, -0.5, 0.5]], [[-0.5, 1.0, -0.625], [1.0, 0.125, -0.5], [-1.0, -0.375, 0.25]]]> : tensor<2x3x3xf32>
  %b1 = arith.constant dense<[-0.875, -0.75]> : tensor<2xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x32x33xf32> to tensor<1x2x34x35xf32>
  %i1_e = tensor.empty() : tensor<1x2x32x33xf32>
  %i1 = linalg.broadcast ins(%b1 : tensor<2xf32>) outs(%i1_e : tensor<1x2x32x33xf32>) dimensions = [0, 2, 3]
  %i2_e = tensor.empty() : tensor<1x2x32x33xf32>
  %i2 = linalg.fill ins(%zero : f32) outs(%i2_e : tensor<1x2x32x33xf32>) -> tensor<1x2x32x33xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1 : tensor<1x2x34x35xf32>, tensor<2x3x3xf32>) outs(%i1 : tensor<1x2x32x33xf32>) -> tensor<1x2x32x33xf32>
  %yp = tensor.pad %y low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x32x33xf32> to tensor<1x2x34x35xf32>
  %z = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%yp, %w2 : tensor<1x2x34x35xf32>, tensor<2x3x3xf32>) outs(%i2 : tensor<1x2x32x33xf32>) -> tensor<1x2x32x33xf32>
  return %z : tensor<1x2x32x33xf32>
}

func.func @nonzero_pad(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<[[[[-0.875, 0.375, -0.875], [-1.0, -0.125, -0.375], [0.125, 0.875, 0.75]], [[0.125, 0.25, 0.625], [-0.125, 0.375, -0.625], [0.25, -0.5, -0.625]], [[0.5, 0.125, -0.25], [-1.0, -0.5, 0.625], [-0.125, 1.0, 0.875]]], [[[0.75, -1.0, -1.0], [0.125, -0.375, 0.75], [-0.375, -0.75, -0.875]], [[-0.375, 0.25, -0.75], [0.625, -0.375, -0.375], [0.375, 0.75, -0.125]], [[0.625, -0.375, -0.75], [0.75, 0.625, 0.5], [0.875, 0.0, -0.625]]]]> : tensor<2x3x3x3xf32>
  %k = arith.constant dense<[[[0.125, 0.125, -0.25], [0.25, -0.5, 0.25], [0.625, -0.875, -0.125]], [[0.375, -1.0, 0.25], [0.875, 0.75, 0.375], [0.625, -0.25, -0.375]]]> : tensor<2x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %i1_b = arith.constant dense<[-0.875, 0.5]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w1 : tensor<1x3x10x10xf32>, tensor<2x3x3x3xf32>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %pd = tensor.pad %p32 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %one : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %p32, %d32 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c : tensor<1x4x4x4xf32>
}

func.func @relu_between(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<[[[[-0.375, 0.75, -0.125], [0.875, -0.75, -0.75], [-0.375, -1.0, 0.0]], [[0.375, 0.375, -0.625], [-0.75, 0.125, 0.25], [1.0, 0.875, -0.25]], [[-0.75, -0.5, 0.75], [-0.125, 1.0, 0.375], [0.25, -0.875, 0.25]]], [[[-0.25, 0.75, -0.75], [-0.625, 0.375, 0.375], [0.75, 0.0, -0.25]], [[-0.375, -0.25, 0.375], [0.125, -0.375, -0.625], [0.5, -0.5, -0.625]], [[-0.375, 0.75, -0.125], [0.25, -0.875, -0.375], [0.5, 0.625, 0.125]]]]> : tensor<2x3x3x3xf32>
  %k = arith.constant dense<[[[0.75, -0.375, -0.75], [-0.875, -0.625, 0.5], [0.875, -0.75, 0.0]], [[-0.75, 0.75, -0.75], [0.25, -0.875, 0.5], [0.875, 0.5, -0.5]]]> : tensor<2x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %i1_b = arith.constant dense<[0.75, -0.375]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w1 : tensor<1x3x10x10xf32>, tensor<2x3x3x3xf32>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %r_e = tensor.empty() : tensor<1x2x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p32 : tensor<1x2x4x4xf32>) outs(%r_e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %pd = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %p32, %d32 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c : tensor<1x4x4x4xf32>
}

func.func @edge_limit(%x: tensor<1x1x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<[[[[0.5, 0.75, 0.0], [0.25, 0.75, -0.625], [-1.0, -0.125, -0.625]]]]> : tensor<1x1x3x3xf32>
  %k = arith.constant dense<[[[0.875, 0.75, -0.25], [-0.375, 0.5, -0.125], [-0.875, 0.375, 0.5]]]> : tensor<1x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
  %i1_b = arith.constant dense<[-0.875]> : tensor<1xf32>
  %i1_e = tensor.empty() : tensor<1x1x4x4xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<1xf32>) outs(%i1_e : tensor<1x1x4x4xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x1x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w1 : tensor<1x1x10x10xf32>, tensor<1x1x3x3xf32>) outs(%i1 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %pd = tensor.pad %p32 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x1x4x4xf32> to tensor<1x1x6x6xf32>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x1x6x6xf32>, tensor<1x3x3xf32>) outs(%z2 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %c = tensor.concat dim(1) %p32, %d32 : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}

func.func @concat_then_conv(%x: tensor<1x3x8x8xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x3x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w1 = arith.constant dense<[[[[0.625, 0.125, 0.75], [0.75, 0.375, -0.375], [-0.25, 0.5, -0.875]], [[-0.625, 0.0, 1.0], [0.5, 0.625, -0.625], [-0.5, -0.5, 0.5]], [[0.125, -0.625, 0.5], [0.25, 0.875, 0.125], [-0.75, 0.875, -0.625]]], [[[-1.0, 0.625, -0.125], [0.25, -0.75, 0.5], [-0.25, 1.0, 0.25]], [[0.875, 0.625, 0.75], [-0.875, 0.625, 0.25], [-0.25, -0.375, 0.25]], [[-0.625, -0.625, 0.75], [0.5, 0.25, 0.5], [-0.375, 0.5, -0.625]]]]> : tensor<2x3x3x3xf32>
  %k = arith.constant dense<[[[-0.125, -0.75, -0.25], [-0.375, -0.125, 0.0], [-1.0, -0.375, 0.75]], [[-0.125, 0.125, -0.875], [-0.25, 1.0, 0.125], [-1.0, 0.5, 0.625]]]> : tensor<2x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  %i1_b = arith.constant dense<[-0.25, -1.0]> : tensor<2xf32>
  %i1_e = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.broadcast ins(%i1_b : tensor<2xf32>) outs(%i1_e : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %z2_e = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xp, %w1 : tensor<1x3x10x10xf32>, tensor<2x3x3x3xf32>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %pd = tensor.pad %p32 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%j0: index, %j1: index, %j2: index, %j3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %d32 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pd, %k : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %p32, %d32 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %w3 = arith.constant dense<[[[[0.75]], [[-0.5]], [[0.875]], [[-0.25]]], [[[-0.25]], [[0.625]], [[-0.75]], [[-1.0]]], [[[0.5]], [[0.875]], [[1.0]], [[-0.75]]]]> : tensor<3x4x1x1xf32>
  %i3_e = tensor.empty() : tensor<1x3x4x4xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%i3_e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %n = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%i3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %c, %n : tensor<1x4x4x4xf32>, tensor<1x3x4x4xf32>
}
