// A conv of a channel concat one of whose parts is a sum: a skip plus a linear branch
// (chains_through_concats.py, `sum_addends`). YOLO11's C2PSA ends `cv2(cat(a, b + ffn2(g)))`
// (after the main pipeline's pointwise fusion `b + proj(u) + ffn2(g)`, one n-ary sum), a
// and b the two halves of one value, ffn2 a 1x1 conv with no activation after it. The sum
// is split into its addends: each chain composes with its filter slice into a conv of its
// root, each plain value (a, b) gets a conv of its slice, all accumulating into one
// another's init: one level above g instead of two.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// Depth: the positives one level lower, the negatives as they were.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// The main pipeline takes them the same way.
// RUN: heirpy-opt %s -p 'linalg-canonicalizations,linalg-fuse-ops' 2>/dev/null | heirpy-opt -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (torch-mlir's form: f32 accumulators rounded to f16).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function c2psa | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function c2psa_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function c2psa_sum3 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function c2psa_sum3_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function skip_is_root | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// The cost rule prices it: @c2psa's weights go from 8 + 12 = 20 (ffn2, the conv) to
// 12 + 6 + 6 = 24 (the composed term, the slice convs of a and b); policy=size never
// grows weights, so the concat stays.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=size}' 2>/dev/null | filecheck %s --check-prefix=SIZE
// 24 / 20 = 1.2x for one level, f32 and f16 alike (the f16 rounding after ffn2 goes
// with it, so ffn2 is not counted as kept): at max-weight-growth=1.21 both fuse, at
// 1.19 both stay.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.21}' 2>/dev/null | filecheck %s --check-prefix=AT-LIMIT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=1.19}' 2>/dev/null | filecheck %s --check-prefix=SIZE
// AT-LIMIT-LABEL: func.func @c2psa(
// AT-LIMIT-NOT: tensor.concat
// AT-LIMIT-LABEL: func.func @c2psa_f16(
// AT-LIMIT-NOT: tensor.concat
// AT-LIMIT-LABEL: func.func @c2psa_sum3(
// SIZE-LABEL: func.func @c2psa(
// SIZE: tensor.concat dim(1) %a, %p
// SIZE-LABEL: func.func @c2psa_f16(
// SIZE: tensor.concat dim(1) %a, %p
// SIZE-LABEL: func.func @c2psa_sum3(
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @c2psa(%x: tensor<1x4x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.25]], [[0.75]]], [[[0.5]], [[-0.5]]], [[[-0.375]], [[0.75]]], [[[-1.0]], [[0.625]]]]> : tensor<4x2x1x1xf32>
  %w2 = arith.constant dense<[[[[0.625]], [[-0.125]], [[-0.375]], [[-0.5]]], [[[-0.5]], [[-0.125]], [[0.0]], [[0.125]]]]> : tensor<2x4x1x1xf32>
  %w3 = arith.constant dense<[[[[1.0]], [[0.625]], [[0.25]], [[1.0]]], [[[-0.625]], [[-0.625]], [[0.25]], [[-0.875]]], [[[-0.875]], [[0.0]], [[-0.125]], [[0.875]]]]> : tensor<3x4x1x1xf32>
  %wp = arith.constant dense<[[[[0.25]], [[0.0]]], [[[-0.0]], [[-0.5]]]]> : tensor<2x2x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %h1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w1 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %g = arith.mulf %h1, %h1 : tensor<1x4x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = arith.addf %b, %f : tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @c2psa_f16(%x: tensor<1x4x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-1.0]], [[-0.625]]], [[[0.375]], [[-0.625]]], [[[-0.25]], [[-1.0]]], [[[0.625]], [[-0.75]]]]> : tensor<4x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.5]], [[0.75]], [[0.0]], [[0.75]]], [[[0.25]], [[0.5]], [[-0.875]], [[0.125]]]]> : tensor<2x4x1x1xf16>
  %w3 = arith.constant dense<[[[[0.0]], [[0.75]], [[-0.25]], [[0.25]]], [[[-0.875]], [[-0.25]], [[-0.375]], [[-0.75]]], [[[0.625]], [[-0.25]], [[1.0]], [[0.125]]]]> : tensor<3x4x1x1xf16>
  %wp = arith.constant dense<[[[[0.25]], [[0.25]]], [[[0.375]], [[-0.75]]]]> : tensor<2x2x1x1xf16>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16_2 = tensor.empty() : tensor<1x2x4x4xf16>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e16_3 = tensor.empty() : tensor<1x3x4x4xf16>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e16_4 = tensor.empty() : tensor<1x4x4x4xf16>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %h1_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w1 : tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %h1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h1_acc : tensor<1x4x4x4xf32>) outs(%e16_4 : tensor<1x4x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x4x4xf16>
  %g = arith.mulf %h1, %h1 : tensor<1x4x4x4xf16>
  %f_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %f = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f_acc : tensor<1x2x4x4xf32>) outs(%e16_2 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x4x4xf16>
  %p = arith.addf %b, %f : tensor<1x2x4x4xf16>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) -> tensor<1x4x4x4xf16>
  %r_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf16>, tensor<3x4x1x1xf16>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r_acc : tensor<1x3x4x4xf32>) outs(%e16_3 : tensor<1x3x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @c2psa_sum3(%x: tensor<1x4x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.125]], [[-0.5]]], [[[-0.25]], [[-0.75]]], [[[0.875]], [[-0.625]]], [[[0.375]], [[-0.375]]]]> : tensor<4x2x1x1xf32>
  %w2 = arith.constant dense<[[[[0.75]], [[0.375]], [[-0.75]], [[0.75]]], [[[0.875]], [[0.75]], [[0.125]], [[-0.75]]]]> : tensor<2x4x1x1xf32>
  %w3 = arith.constant dense<[[[[-0.625]], [[0.875]], [[0.125]], [[-0.625]]], [[[0.75]], [[0.25]], [[0.125]], [[-0.25]]], [[[-0.125]], [[-0.5]], [[-0.875]], [[0.75]]]]> : tensor<3x4x1x1xf32>
  %wp = arith.constant dense<[[[[-0.125]], [[0.125]]], [[[-0.375]], [[0.5]]]]> : tensor<2x2x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %u = arith.mulf %b, %b : tensor<1x2x4x4xf32>
  %pu = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%u, %wp : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %h1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%u, %w1 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %g = arith.mulf %h1, %h1 : tensor<1x4x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.generic {indexing_maps = [#id4, #id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %pu, %f : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%e2 : tensor<1x2x4x4xf32>) {
  ^bb0(%i0: f32, %i1: f32, %i2: f32, %o: f32):
    %s1 = arith.addf %i0, %i1 : f32
    %s2 = arith.addf %s1, %i2 : f32
    linalg.yield %s2 : f32
  } -> tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @c2psa_sum3_f16(%x: tensor<1x4x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-1.0]], [[-0.25]]], [[[-1.0]], [[-0.75]]], [[[0.875]], [[0.375]]], [[[-0.125]], [[0.0]]]]> : tensor<4x2x1x1xf16>
  %w2 = arith.constant dense<[[[[0.75]], [[-0.25]], [[0.125]], [[0.375]]], [[[-0.25]], [[0.0]], [[0.5]], [[0.875]]]]> : tensor<2x4x1x1xf16>
  %w3 = arith.constant dense<[[[[-0.75]], [[0.875]], [[-1.0]], [[0.5]]], [[[0.625]], [[-0.75]], [[-0.125]], [[0.625]]], [[[-1.0]], [[0.25]], [[0.625]], [[0.0]]]]> : tensor<3x4x1x1xf16>
  %wp = arith.constant dense<[[[[0.5]], [[-0.5]]], [[[-0.625]], [[-0.25]]]]> : tensor<2x2x1x1xf16>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16_2 = tensor.empty() : tensor<1x2x4x4xf16>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e16_3 = tensor.empty() : tensor<1x3x4x4xf16>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e16_4 = tensor.empty() : tensor<1x4x4x4xf16>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %u = arith.mulf %b, %b : tensor<1x2x4x4xf16>
  %pu_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%u, %wp : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %h1_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%u, %w1 : tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %h1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h1_acc : tensor<1x4x4x4xf32>) outs(%e16_4 : tensor<1x4x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x4x4xf16>
  %g = arith.mulf %h1, %h1 : tensor<1x4x4x4xf16>
  %f_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = linalg.generic {indexing_maps = [#id4, #id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %pu_acc, %f_acc : tensor<1x2x4x4xf16>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%e16_2 : tensor<1x2x4x4xf16>) {
  ^bb0(%i0: f16, %i1: f32, %i2: f32, %o: f16):
    %r1 = arith.truncf %i1 : f32 to f16
    %s1 = arith.addf %i0, %r1 : f16
    %r2 = arith.truncf %i2 : f32 to f16
    %s2 = arith.addf %s1, %r2 : f16
    linalg.yield %s2 : f16
  } -> tensor<1x2x4x4xf16>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) -> tensor<1x4x4x4xf16>
  %r_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf16>, tensor<3x4x1x1xf16>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r_acc : tensor<1x3x4x4xf32>) outs(%e16_3 : tensor<1x3x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @skip_is_root(%x: tensor<1x4x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.625]], [[-0.25]]], [[[0.875]], [[0.125]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.375]], [[-0.5]]], [[[0.875]], [[-0.125]]]]> : tensor<2x2x1x1xf32>
  %w3 = arith.constant dense<[[[[1.0]], [[0.0]], [[0.0]], [[0.75]]], [[[0.5]], [[0.125]], [[-0.125]], [[0.75]]], [[[-0.125]], [[0.875]], [[-0.875]], [[-0.125]]]]> : tensor<3x4x1x1xf32>
  %wp = arith.constant dense<[[[[0.0]], [[0.875]]], [[[-0.5]], [[0.625]]]]> : tensor<2x2x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %h1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %g = arith.mulf %h1, %h1 : tensor<1x2x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = arith.addf %g, %f : tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @relu_after_ffn2(%x: tensor<1x4x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.375]], [[0.375]]], [[[0.25]], [[1.0]]], [[[-0.375]], [[-0.25]]], [[[-0.625]], [[-0.875]]]]> : tensor<4x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.625]], [[0.875]], [[0.625]], [[-0.75]]], [[[0.25]], [[-0.0]], [[0.25]], [[0.375]]]]> : tensor<2x4x1x1xf32>
  %w3 = arith.constant dense<[[[[-0.375]], [[0.875]], [[-0.125]], [[0.25]]], [[[0.25]], [[-0.625]], [[-0.875]], [[-0.125]]], [[[0.5]], [[0.625]], [[0.5]], [[-0.75]]]]> : tensor<3x4x1x1xf32>
  %wp = arith.constant dense<[[[[0.875]], [[0.625]]], [[[0.75]], [[0.0]]]]> : tensor<2x2x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %h1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w1 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %g = arith.mulf %h1, %h1 : tensor<1x4x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %fr = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f : tensor<1x2x4x4xf32>) outs(%f : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zt = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %zt : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %p = arith.addf %b, %fr : tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @skip_deeper(%x: tensor<1x4x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.875]], [[-0.875]]], [[[-1.0]], [[-1.0]]], [[[-0.5]], [[-0.5]]], [[[-0.625]], [[0.125]]]]> : tensor<4x2x1x1xf32>
  %w2 = arith.constant dense<[[[[-0.875]], [[0.125]], [[-0.625]], [[0.375]]], [[[-1.0]], [[-0.375]], [[0.875]], [[0.125]]]]> : tensor<2x4x1x1xf32>
  %w3 = arith.constant dense<[[[[0.625]], [[0.375]], [[0.25]], [[-0.625]]], [[[0.125]], [[-0.875]], [[0.625]], [[0.875]]], [[[0.75]], [[-0.875]], [[-0.375]], [[-0.375]]]]> : tensor<3x4x1x1xf32>
  %wp = arith.constant dense<[[[[-0.75]], [[0.25]]], [[[0.625]], [[-0.375]]]]> : tensor<2x2x1x1xf32>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %h1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w1 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %g = arith.mulf %h1, %h1 : tensor<1x4x4x4xf32>
  %f = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf32>, tensor<2x4x1x1xf32>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %dd = arith.mulf %g, %g : tensor<1x4x4x4xf32>
  %d = tensor.extract_slice %dd[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %p = arith.addf %d, %f : tensor<1x2x4x4xf32>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @relu_after_ffn2_f16(%x: tensor<1x4x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.75]], [[0.625]]], [[[-0.75]], [[0.5]]], [[[0.75]], [[-0.625]]], [[[0.125]], [[0.25]]]]> : tensor<4x2x1x1xf16>
  %w2 = arith.constant dense<[[[[0.25]], [[-0.75]], [[0.375]], [[0.25]]], [[[0.625]], [[0.625]], [[-0.375]], [[0.5]]]]> : tensor<2x4x1x1xf16>
  %w3 = arith.constant dense<[[[[0.75]], [[0.75]], [[-0.625]], [[-1.0]]], [[[0.25]], [[-0.625]], [[0.125]], [[0.875]]], [[[-0.25]], [[-0.5]], [[-0.125]], [[0.375]]]]> : tensor<3x4x1x1xf16>
  %wp = arith.constant dense<[[[[-0.75]], [[-0.25]]], [[[-0.75]], [[0.375]]]]> : tensor<2x2x1x1xf16>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16_2 = tensor.empty() : tensor<1x2x4x4xf16>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e16_3 = tensor.empty() : tensor<1x3x4x4xf16>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e16_4 = tensor.empty() : tensor<1x4x4x4xf16>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %h1_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w1 : tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %h1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h1_acc : tensor<1x4x4x4xf32>) outs(%e16_4 : tensor<1x4x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x4x4xf16>
  %g = arith.mulf %h1, %h1 : tensor<1x4x4x4xf16>
  %f_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %f = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f_acc : tensor<1x2x4x4xf32>) outs(%e16_2 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x4x4xf16>
  %fr = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f : tensor<1x2x4x4xf16>) outs(%f : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %zt = arith.constant 0.0 : f16
    %m = arith.maximumf %in, %zt : f16
    linalg.yield %m : f16
  } -> tensor<1x2x4x4xf16>
  %p = arith.addf %b, %fr : tensor<1x2x4x4xf16>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) -> tensor<1x4x4x4xf16>
  %r_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf16>, tensor<3x4x1x1xf16>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r_acc : tensor<1x3x4x4xf32>) outs(%e16_3 : tensor<1x3x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}

func.func @skip_deeper_f16(%x: tensor<1x4x4x4xf16>) -> tensor<1x3x4x4xf16> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.625]], [[-0.25]]], [[[-0.25]], [[0.125]]], [[[-0.625]], [[-0.5]]], [[[-0.375]], [[-0.125]]]]> : tensor<4x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.875]], [[0.5]], [[0.125]], [[-0.375]]], [[[-0.875]], [[0.5]], [[-0.75]], [[-0.75]]]]> : tensor<2x4x1x1xf16>
  %w3 = arith.constant dense<[[[[-0.75]], [[-0.875]], [[0.875]], [[-0.5]]], [[[-0.375]], [[0.625]], [[0.25]], [[-0.625]]], [[[-0.125]], [[0.75]], [[-0.25]], [[0.375]]]]> : tensor<3x4x1x1xf16>
  %wp = arith.constant dense<[[[[-0.75]], [[0.5]]], [[[0.5]], [[0.625]]]]> : tensor<2x2x1x1xf16>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16_2 = tensor.empty() : tensor<1x2x4x4xf16>
  %e3 = tensor.empty() : tensor<1x3x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e16_3 = tensor.empty() : tensor<1x3x4x4xf16>
  %e4 = tensor.empty() : tensor<1x4x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e16_4 = tensor.empty() : tensor<1x4x4x4xf16>
  %a = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %b = tensor.extract_slice %x[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %h1_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w1 : tensor<1x2x4x4xf16>, tensor<4x2x1x1xf16>) outs(%z4 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %h1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h1_acc : tensor<1x4x4x4xf32>) outs(%e16_4 : tensor<1x4x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x4x4xf16>
  %g = arith.mulf %h1, %h1 : tensor<1x4x4x4xf16>
  %f_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w2 : tensor<1x4x4x4xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %f = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f_acc : tensor<1x2x4x4xf32>) outs(%e16_2 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x4x4xf16>
  %dd = arith.mulf %g, %g : tensor<1x4x4x4xf16>
  %d = tensor.extract_slice %dd[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf16> to tensor<1x2x4x4xf16>
  %p = arith.addf %d, %f : tensor<1x2x4x4xf16>
  %c = tensor.concat dim(1) %a, %p : (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) -> tensor<1x4x4x4xf16>
  %r_acc = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w3 : tensor<1x4x4x4xf16>, tensor<3x4x1x1xf16>) outs(%z3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r_acc : tensor<1x3x4x4xf32>) outs(%e16_3 : tensor<1x3x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x3x4x4xf16>
  return %r : tensor<1x3x4x4xf16>
}


// The halves a and b read by slice convs, ffn2 composed with its slice: a conv of g.
// CHECK-LABEL: func.func @c2psa(
// CHECK-NOT: tensor.concat
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%a, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>)
// CHECK: %[[B:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%b, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%[[A]] :
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%g, %{{.*}} : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%[[B]] :
// CHECK-NEXT: return %[[R]]
// f16: f16 slices and filters into the f32 accumulator, the conv's rounding kept.
// CHECK-LABEL: func.func @c2psa_f16(
// CHECK-NOT: tensor.concat
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%a, %{{.*}} : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%b, %{{.*}} : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%g, %{{.*}} : tensor<1x4x4x4xf16>, tensor<3x4x1x1xf16>) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[R]] : tensor<1x3x4x4xf32>)
// CHECK: arith.truncf
// Three addends, two chains (proj of u, ffn2 of g; g computed from u): both composed.
// CHECK-LABEL: func.func @c2psa_sum3(
// CHECK-NOT: tensor.concat
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%a, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>)
// CHECK: %[[B:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%b, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%[[A]] :
// CHECK: %[[U:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%u, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%[[B]] :
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%g, %{{.*}} : tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) outs(%[[U]] :
// CHECK-NEXT: return %[[R]]
// The f16 sum rounds its two f32 addends in its body: read at their f32 accumulators.
// CHECK-LABEL: func.func @c2psa_sum3_f16(
// CHECK-NOT: tensor.concat
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%a, %{{.*}} : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%b, %{{.*}} : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%u, %{{.*}} : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%g, %{{.*}} : tensor<1x4x4x4xf16>, tensor<3x4x1x1xf16>)
// The guard at its limit: the skip is the branch's root itself (as deep as it): fused.
// CHECK-LABEL: func.func @skip_is_root(
// CHECK-NOT: tensor.concat
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%a, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>)
// CHECK: %[[G:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%g, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%[[A]] :
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%g, %{{.*}} : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%[[G]] :
// CHECK-NEXT: return %[[R]]
// A relu after ffn2: the addend is no linear branch, nothing to compose.
// CHECK-LABEL: func.func @relu_after_ffn2(
// CHECK: %[[C:.*]] = tensor.concat dim(1) %a, %p
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[C]], %w3 :
// One level past the limit: the skip deeper than the branch's root (g squared): kept.
// CHECK-LABEL: func.func @skip_deeper(
// CHECK: %[[C:.*]] = tensor.concat dim(1) %a, %p
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[C]], %w3 :
// CHECK-LABEL: func.func @relu_after_ffn2_f16(
// CHECK: %[[C:.*]] = tensor.concat dim(1) %a, %p
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[C]], %w3 :
// CHECK-LABEL: func.func @skip_deeper_f16(
// CHECK: %[[C:.*]] = tensor.concat dim(1) %a, %p
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[C]], %w3 :
// REPARSE-LABEL: func.func @c2psa(
// REPARSE-LABEL: func.func @skip_deeper_f16(
// BEFORE: @c2psa {{ +}}4 {{ +}}4
// BEFORE: @c2psa_f16 {{ +}}4 {{ +}}4
// BEFORE: @c2psa_sum3 {{ +}}5 {{ +}}5
// BEFORE: @c2psa_sum3_f16 {{ +}}5 {{ +}}5
// BEFORE: @skip_is_root {{ +}}4 {{ +}}4
// AFTER: @c2psa {{ +}}3 {{ +}}3
// AFTER: @c2psa_f16 {{ +}}3 {{ +}}3
// AFTER: @c2psa_sum3 {{ +}}4 {{ +}}4
// AFTER: @c2psa_sum3_f16 {{ +}}4 {{ +}}4
// AFTER: @skip_is_root {{ +}}3 {{ +}}3
// AFTER: @relu_after_ffn2 {{ +}}4+ {{ +}}4
// AFTER: @skip_deeper {{ +}}4 {{ +}}4
// AFTER: @relu_after_ffn2_f16 {{ +}}4+ {{ +}}4
// AFTER: @skip_deeper_f16 {{ +}}4 {{ +}}4
