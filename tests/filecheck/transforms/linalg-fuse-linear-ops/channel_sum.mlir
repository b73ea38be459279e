// A sum over a linear op's output channels (LayerNorm's mean) read through a one-output-
// channel op of the linear op's input (channel_sums.FoldChannelSumIntoLinearOp, in the
// linear-op group, priced by linalg-fuse-ops' cost rule): the
// mean sits at the linear op's depth, one level earlier. ConvNeXt: depthwise conv ->
// NHWC transpose -> sum over C; ViT: x @ W + b, expand, + residual -> f64 -> sum over C
// (the residual keeps a sum of its own). The linear op stays for its other readers.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false}' 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | iree-opt --split-input-file | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops 2>/dev/null | heir-opt --split-input-file | filecheck %s --check-prefix=REPARSE
// The cost rule prices it: the weights grow (one output channel more), so policy=size refuses.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{policy=size pointwise=false}' 2>/dev/null | filecheck %s --check-prefix=SIZE
// Depth: the mean one level earlier.
// RUN: heirpy-opt %s --split-input-file -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics, f32 and f16 (f16: the one-channel sum is rounded to f16 once where the
// original rounds each channel, so within f16's tolerance).
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function dw_mean | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function dw_mean_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function proj_residual | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function spatial_sum | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function bmm_residual | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE-LABEL: func.func @dw_mean(
// SIZE-LABEL: func.func @dw_mean(
// SIZE-NOT: linalg.conv_2d_nchw_fchw
// SIZE: linalg.generic
// SIZE-SAME: "reduction"
// SIZE-LABEL: func.func @dw_mean_f16(
// BEFORE: @dw_mean 2
// AFTER: @dw_mean 1

// CHECK-LABEL: func.func @dw_mean(
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00, 3.000000e-01, -2.700000e-01]{{.*}}> : tensor<1x4x3x3xf32>
// CHECK:         %[[C:.*]] = linalg.depthwise_conv_2d_nchw_chw
// CHECK:         %[[I:.*]] = arith.constant dense<0.16{{[0-9]*}}> : tensor<1x1x4x4xf32>
// CHECK:         %[[M:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x4x6x6xf32>, tensor<1x4x3x3xf32>) outs(%[[I]] : tensor<1x1x4x4xf32>)
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[M]] : tensor<1x1x4x4xf32>) outs(%{{.*}} : tensor<1x4x4x1xf32>) permutation = [0, 2, 3, 1]
// CHECK-NOT:     "reduction"
// CHECK:         return %[[C]], %[[T]]
func.func @dw_mean(%x: tensor<1x4x6x6xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x1xf32>) {
  %w = arith.constant dense<[[[0.0, 0.3, -0.27], [-0.89, -0.45, -0.99], [0.06, 1.34, -0.49]], [[-0.62, 0.49, 0.36], [0.11, -0.93, -0.03], [0.7, -1.34, -0.46]], [[-1.9, -1.29, -1.84], [-0.24, -1.27, 0.27], [0.16, -0.19, -2.52]], [[-0.54, -0.05, 0.11], [-1.53, -0.48, -0.98], [-0.81, 1.06, -0.81]]]> : tensor<4x3x3xf32>
  %b = arith.constant dense<[-0.03, 0.88, -0.58, -0.11]> : tensor<4xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %init = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %et = tensor.empty() : tensor<1x4x4x4xf32>
  %t = linalg.transpose ins(%c : tensor<1x4x4x4xf32>) outs(%et : tensor<1x4x4x4xf32>) permutation = [0, 2, 3, 1]
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<1x4x4x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%es : tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%t : tensor<1x4x4x4xf32>) outs(%z : tensor<1x4x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x4x4x1xf32>
  return %c, %s : tensor<1x4x4x4xf32>, tensor<1x4x4x1xf32>
}

// -----

// torch-mlir's f16 form: f16 operands, an f32 accumulator rounded to f16, the sum in f32
// (rounded to f16 as the model's LayerNorm output is). The one-channel op keeps the form
// (f16 filter, f32 init); the casts are replayed.
// CHECK-LABEL: func.func @dw_mean_f16(
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK:         %[[M:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x4x6x6xf16>, tensor<1x4x3x3xf16>) outs(%{{.*}} : tensor<1x1x4x4xf32>)
// CHECK:         %[[R:.*]] = arith.truncf %[[M]] : tensor<1x1x4x4xf32> to tensor<1x1x4x4xf16>
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[R]] : tensor<1x1x4x4xf16>)
// CHECK:         %[[W:.*]] = arith.extf %[[T]] : tensor<1x4x4x1xf16> to tensor<1x4x4x1xf32>
// CHECK-NOT:     "reduction"
// CHECK:         %[[H:.*]] = arith.truncf %[[W]] : tensor<1x4x4x1xf32> to tensor<1x4x4x1xf16>
// CHECK:         return %{{.*}}, %[[H]]
func.func @dw_mean_f16(%x: tensor<1x4x6x6xf16>) -> (tensor<1x4x4x4xf16>, tensor<1x4x4x1xf16>) {
  %w = arith.constant dense<[[[0.0, 0.3, -0.27], [-0.89, -0.45, -0.99], [0.06, 1.34, -0.49]], [[-0.62, 0.49, 0.36], [0.11, -0.93, -0.03], [0.7, -1.34, -0.46]], [[-1.9, -1.29, -1.84], [-0.24, -1.27, 0.27], [0.16, -0.19, -2.52]], [[-0.54, -0.05, 0.11], [-1.53, -0.48, -0.98], [-0.81, 1.06, -0.81]]]> : tensor<4x3x3xf16>
  %b = arith.constant dense<[-0.03, 0.88, -0.58, -0.11]> : tensor<4xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %init = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x6x6xf16>, tensor<4x3x3xf16>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %h = arith.truncf %c : tensor<1x4x4x4xf32> to tensor<1x4x4x4xf16>
  %et = tensor.empty() : tensor<1x4x4x4xf16>
  %t = linalg.transpose ins(%h : tensor<1x4x4x4xf16>) outs(%et : tensor<1x4x4x4xf16>) permutation = [0, 2, 3, 1]
  %wide = arith.extf %t : tensor<1x4x4x4xf16> to tensor<1x4x4x4xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<1x4x4x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%es : tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%wide : tensor<1x4x4x4xf32>) outs(%z : tensor<1x4x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x4x4x1xf32>
  %s16 = arith.truncf %s : tensor<1x4x4x1xf32> to tensor<1x4x4x1xf16>
  return %h, %s16 : tensor<1x4x4x4xf16>, tensor<1x4x4x1xf16>
}

// -----

// ViT: the projection x @ W, its bias (a step, folded into the one-channel init), the
// expand to [1, tokens, C], the residual add, the f64 statistics. W's column sums
// [-1.17, 1.9, 1.74, -0.56] and the bias's sum -0.84 make the one-channel matmul; the
// residual's own sum is added to it (as the reduction's init where the bias rule folds
// adds into inits, else as an add).
// CHECK-LABEL: func.func @proj_residual(
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[}}-1.170000e+00], [1.900000e+00], [1.740000e+00], [-5.600000e-01]]> : tensor<4x1xf32>
// CHECK:         %[[R64:.*]] = arith.extf %r : tensor<1x5x6xf32> to tensor<1x5x6xf64>
// CHECK-DAG:     linalg.generic {{.*}}"reduction"{{.*}} ins(%[[R64]] : tensor<1x5x6xf64>)
// CHECK-DAG:     arith.constant dense<-0.840000{{[0-9]*}}> : tensor<5x1xf32>
// CHECK-DAG:     linalg.matmul ins(%x, %[[W]] : tensor<5x4xf32>, tensor<4x1xf32>) outs(%{{.*}} : tensor<5x1xf32>)
// CHECK:         return %y,
func.func @proj_residual(%x: tensor<5x4xf32>, %r: tensor<1x5x6xf32>) -> (tensor<1x5x6xf32>, tensor<1x5x1xf64>) {
  %w = arith.constant dense<[[0.11, 0.06, -1.23, 0.08, 1.36, -1.55], [0.86, 0.12, -0.64, 2.0, 0.76, -1.2], [0.07, 0.58, -0.19, 0.68, -0.07, 0.67], [1.44, -0.68, 0.2, -0.46, 0.13, -1.19]]> : tensor<4x6xf32>
  %b = arith.constant dense<[-0.58, -0.2, 0.9, 1.15, -1.32, -0.79]> : tensor<6xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x6xf32>) -> tensor<5x6xf32>
  %m = linalg.matmul ins(%x, %w : tensor<5x4xf32>, tensor<4x6xf32>) outs(%z : tensor<5x6xf32>) -> tensor<5x6xf32>
  %mb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<5x6xf32>, tensor<6xf32>) outs(%e : tensor<5x6xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %a = arith.addf %in, %k : f32
    linalg.yield %a : f32
  } -> tensor<5x6xf32>
  %ex = tensor.expand_shape %mb [[0, 1], [2]] output_shape [1, 5, 6] : tensor<5x6xf32> into tensor<1x5x6xf32>
  %y = arith.addf %r, %ex : tensor<1x5x6xf32>
  %y64 = arith.extf %y : tensor<1x5x6xf32> to tensor<1x5x6xf64>
  %zero64 = arith.constant 0.0 : f64
  %es = tensor.empty() : tensor<1x5x1xf64>
  %zs = linalg.fill ins(%zero64 : f64) outs(%es : tensor<1x5x1xf64>) -> tensor<1x5x1xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y64 : tensor<1x5x6xf64>) outs(%zs : tensor<1x5x1xf64>) {
  ^bb0(%in: f64, %out: f64):
    %a = arith.addf %in, %out : f64
    linalg.yield %a : f64
  } -> tensor<1x5x1xf64>
  return %y, %s : tensor<1x5x6xf32>, tensor<1x5x1xf64>
}

// -----

// Negative: a sum over a spatial axis (NCHW's W) is no channel sum: it stays.
// CHECK-LABEL: func.func @spatial_sum(
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK:         linalg.generic {{.*}}"reduction"
func.func @spatial_sum(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x4x1xf32> {
  %w = arith.constant dense<[[[0.0, 0.3, -0.27], [-0.89, -0.45, -0.99], [0.06, 1.34, -0.49]], [[-0.62, 0.49, 0.36], [0.11, -0.93, -0.03], [0.7, -1.34, -0.46]], [[-1.9, -1.29, -1.84], [-0.24, -1.27, 0.27], [0.16, -0.19, -2.52]], [[-0.54, -0.05, 0.11], [-1.53, -0.48, -0.98], [-0.81, 1.06, -0.81]]]> : tensor<4x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %es = tensor.empty() : tensor<1x4x4x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%es : tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%c : tensor<1x4x4x4xf32>) outs(%z : tensor<1x4x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<1x4x4x1xf32>
  return %s : tensor<1x4x4x1xf32>
}

// -----

// MobileViT's attention projection: a batch_matmul whose right operand is the Linear's
// weight broadcast over the patches; the one-channel op is a batch_matmul with one column
// per patch ([2, 3, 1], the column sums [1.5, -0.5, 2.0] twice).
// CHECK-LABEL: func.func @bmm_residual(
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[}}1.500000e+00], [-5.000000e-01], [2.000000e+00]], {{\[\[}}1.500000e+00], [-5.000000e-01], [2.000000e+00]]]> : tensor<2x3x1xf32>
// CHECK-DAG:     linalg.generic {{.*}}"reduction"{{.*}} ins(%r : tensor<2x4x2xf32>)
// CHECK-DAG:     linalg.batch_matmul ins(%x, %[[W]] : tensor<2x4x3xf32>, tensor<2x3x1xf32>) outs(%{{.*}} : tensor<2x4x1xf32>)
func.func @bmm_residual(%x: tensor<2x4x3xf32>, %r: tensor<2x4x2xf32>) -> (tensor<2x4x2xf32>, tensor<2x4x1xf32>) {
  %w = arith.constant dense<[[1.0, 0.5], [-1.5, 1.0], [0.25, 1.75]]> : tensor<3x2xf32>
  %ew = tensor.empty() : tensor<2x3x2xf32>
  %wb = linalg.broadcast ins(%w : tensor<3x2xf32>) outs(%ew : tensor<2x3x2xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %p = linalg.batch_matmul ins(%x, %wb : tensor<2x4x3xf32>, tensor<2x3x2xf32>) outs(%z : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %y = arith.addf %r, %p : tensor<2x4x2xf32>
  %es = tensor.empty() : tensor<2x4x1xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y : tensor<2x4x2xf32>) outs(%zs : tensor<2x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x4x1xf32>
  return %y, %s : tensor<2x4x2xf32>, tensor<2x4x1xf32>
}
