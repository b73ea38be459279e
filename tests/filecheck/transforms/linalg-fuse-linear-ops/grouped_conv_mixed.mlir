// Batch norm after a grouped conv in torch-mlir's mixed half-precision form (issue 34):
// `nn.Conv2d(groups=G)` + `nn.BatchNorm2d`, `.half()` / `.bfloat16()`, exported by
// torch_mlir.fx.export_and_import (linalg-on-tensors; weights set to multiples of 1/8,
// the blobs written as literals). The grouped conv reads f16 and accumulates into an f32
// init, the `collapse_shape` of [G, F] is f32, a truncf generic rounds it to f16, and
// batch norm widens it again and computes in f32 with its f16 gamma/beta widened. The
// mixed-precision normalisation (WidenElementwise) lets the batch norm read the f32
// collapse; FuseElementwiseIntoGroupedConv then folds it (RegNetX/Y's f16 twins reach
// their f32 depth). Folding in float64, the filter is rounded to its storage type once
// per run of folds, the init kept at f32. f16, bf16 and a 3-group conv with a bias fold;
// a relu between, or the rounded conv returned too, keep the batch norm (negatives).
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-ops | filecheck %s --check-prefix=UMBRELLA
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// Numerics (f16 / bf16 compared to a few ulps of their type), the negatives included.
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops -o %t
// RUN: heirpy-equiv %s %t --function grouped_bn_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function grouped_bn_bf16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function grouped3_bias_bn_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function relu_between_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function conv_returned_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %s -p linalg-fuse-ops -o %t.umbrella
// RUN: heirpy-equiv %s %t.umbrella --function grouped_bn_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE-COUNT-5: linalg.conv_2d_ngchw_gfchw
// BEFORE: @grouped_bn_f16 {{ +}}3
// BEFORE: @grouped_bn_bf16 {{ +}}3
// BEFORE: @grouped3_bias_bn_f16 {{ +}}3
// BEFORE: @relu_between_f16 {{ +}}3{{[+]}}
// BEFORE: @conv_returned_f16 {{ +}}3
// AFTER: @grouped_bn_f16 {{ +}}1
// AFTER: @grouped_bn_bf16 {{ +}}1
// AFTER: @grouped3_bias_bn_f16 {{ +}}1
// AFTER: @relu_between_f16 {{ +}}2{{[+]}}
// AFTER: @conv_returned_f16 {{ +}}2

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#v = affine_map<(d0) -> (d0)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>

// The fold: the grouped conv reads f16 and accumulates into its f32 init (the
// exporter's accumulator, now holding -mean*inv*gamma+beta), its f16 filter scaled by
// inv*gamma and rounded once; only torch-mlir's final truncf is left after the collapse.
// CHECK-LABEL: func.func @grouped_bn_f16(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x8x8xf16>, tensor<2x2x2x3x3xf16>) outs(%{{.*}} : tensor<1x2x2x3x3xf32>)
// CHECK-NEXT: tensor.collapse_shape {{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
// CHECK-NOT: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: arith.mulf
// CHECK: return
// UMBRELLA-LABEL: func.func @grouped_bn_f16(
// UMBRELLA: linalg.conv_2d_ngchw_gfchw {{.*}} outs(%{{.*}} : tensor<1x2x2x3x3xf32>)
// UMBRELLA-NOT: arith.mulf
// UMBRELLA: return
func.func @grouped_bn_f16(%arg0: tensor<1x4x6x6xf16>) -> tensor<1x4x3x3xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant dense<[-0.875, 0.25, -0.125, 0.75]> : tensor<4xf16>
  %cst_3 = arith.constant dense<[-0.125, 0.375, -0.375, 0.0]> : tensor<4xf16>
  %cst_4 = arith.constant 1.000000e-05 : f64
  %cst_5 = arith.constant dense<[1.125, 1.25, 1.375, 1.5]> : tensor<4xf16>
  %cst_6 = arith.constant dense<[0.875, 0.25, 0.75, -0.625]> : tensor<4xf16>
  %cst_7 = arith.constant dense<[[[[0.75, -0.875, -0.5], [0.25, 0.875, -0.875], [0.25, 0.5, 0.0]], [[0.5, 0.75, -0.0], [0.625, -0.875, 0.5], [0.5, -0.875, -0.75]]], [[[-0.25, -0.375, -0.5], [0.625, -1.0, -0.625], [0.25, -0.0, 0.0]], [[0.375, -0.875, 0.5], [0.25, 0.75, 0.25], [1.0, -0.0, 0.5]]], [[[-0.875, -0.5, -0.625], [0.125, -0.125, -0.625], [-0.125, -0.75, -0.125]], [[0.875, 0.0, -0.125], [-0.0, -0.5, 0.125], [-0.625, -0.75, -0.0]]], [[[-0.75, 0.375, 0.25], [-0.125, -0.625, -0.25], [0.875, 0.375, 0.625]], [[-0.75, 1.0, -0.25], [-0.25, -0.25, -0.75], [0.5, -0.5, -0.0]]]]> : tensor<4x2x3x3xf16>
  %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : f16
  } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
  %0 = tensor.empty() : tensor<1x4x3x3xf32>
  %expanded = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf16> into tensor<1x2x2x8x8xf16>
  %expanded_8 = tensor.expand_shape %cst_7 [[0, 1], [2], [3], [4]] output_shape [2, 2, 2, 3, 3] : tensor<4x2x3x3xf16> into tensor<2x2x2x3x3xf16>
  %expanded_9 = tensor.expand_shape %0 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 3, 3] : tensor<1x4x3x3xf32> into tensor<1x2x2x3x3xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%expanded_9 : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %2 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%expanded, %expanded_8 : tensor<1x2x2x8x8xf16>, tensor<2x2x2x3x3xf16>) outs(%1 : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %collapsed = tensor.collapse_shape %2 [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %3 = tensor.empty() : tensor<1x4x3x3xf16>
  %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed : tensor<1x4x3x3xf32>) outs(%3 : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %16 = arith.truncf %in : f32 to f16
    linalg.yield %16 : f16
  } -> tensor<1x4x3x3xf16>
  %5 = tensor.empty() : tensor<4xf32>
  %6 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_6 : tensor<4xf16>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %16 = arith.extf %in : f16 to f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %7 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_5 : tensor<4xf16>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %16 = arith.extf %in : f16 to f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %8 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%7 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.truncf %cst_4 : f64 to f32
    %17 = arith.addf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %9 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%8 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = math.sqrt %in : f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %10 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%9 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.cmpf one, %in, %cst_0 : f32
    cf.assert %16, "unimplemented: tensor with zero element"
    %17 = arith.divf %cst_1, %in : f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %expanded_10 = tensor.expand_shape %6 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %expanded_11 = tensor.expand_shape %10 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %11 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %expanded_10 : tensor<1x4x3x3xf16>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f16, %in_14: f32, %out: f32):
    %16 = arith.extf %in : f16 to f32
    %17 = arith.subf %16, %in_14 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %12 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %expanded_11 : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f32, %out: f32):
    %16 = arith.mulf %in, %in_14 : f32
    linalg.yield %16 : f32
  } -> tensor<1x4x3x3xf32>
  %expanded_12 = tensor.expand_shape %cst_3 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf16> into tensor<4x1x1xf16>
  %13 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_12 : tensor<1x4x3x3xf32>, tensor<4x1x1xf16>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f16, %out: f32):
    %16 = arith.extf %in_14 : f16 to f32
    %17 = arith.mulf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %expanded_13 = tensor.expand_shape %cst_2 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf16> into tensor<4x1x1xf16>
  %14 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_13 : tensor<1x4x3x3xf32>, tensor<4x1x1xf16>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f16, %out: f32):
    %16 = arith.extf %in_14 : f16 to f32
    %17 = arith.addf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %15 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<1x4x3x3xf32>) outs(%3 : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %16 = arith.truncf %in : f32 to f16
    linalg.yield %16 : f16
  } -> tensor<1x4x3x3xf16>
  return %15 : tensor<1x4x3x3xf16>
}

// The same in bf16: f32 accumulator kept, the filter rounded to bf16 once.
// CHECK-LABEL: func.func @grouped_bn_bf16(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} : tensor<1x2x2x8x8xbf16>, tensor<2x2x2x3x3xbf16>) outs(%{{.*}} : tensor<1x2x2x3x3xf32>)
// CHECK-NEXT: tensor.collapse_shape
// CHECK-NOT: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: arith.mulf
// CHECK: return
// UMBRELLA-LABEL: func.func @grouped_bn_bf16(
// UMBRELLA: linalg.conv_2d_ngchw_gfchw
// UMBRELLA-NOT: arith.mulf
// UMBRELLA: return
func.func @grouped_bn_bf16(%arg0: tensor<1x4x6x6xbf16>) -> tensor<1x4x3x3xbf16> {
  %cst = arith.constant 0.000000e+00 : bf16
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant dense<[0.125, 0.375, -0.125, -0.875]> : tensor<4xbf16>
  %cst_3 = arith.constant dense<[-0.875, -1.0, -0.875, 0.625]> : tensor<4xbf16>
  %cst_4 = arith.constant 1.000000e-05 : f64
  %cst_5 = arith.constant dense<[1.75, 1.125, 1.875, 1.5]> : tensor<4xbf16>
  %cst_6 = arith.constant dense<[-0.375, 0.0, 0.125, -0.5]> : tensor<4xbf16>
  %cst_7 = arith.constant dense<[[[[0.5, 0.5, -0.125], [-0.75, 0.875, -0.375], [-0.625, 0.75, 0.0]], [[-0.625, 0.5, 0.625], [0.125, 0.625, 0.25], [-0.125, -0.375, 0.375]]], [[[0.75, -0.625, 0.25], [-0.875, 0.125, -0.75], [0.5, 0.875, 0.875]], [[0.5, 0.5, 0.375], [0.125, -0.375, -0.125], [0.75, 1.0, 0.75]]], [[[0.375, -0.125, 0.25], [0.75, 0.875, 0.875], [-1.0, 0.25, -0.5]], [[-1.0, -0.875, 0.625], [-0.125, -0.75, 0.875], [-0.0, 0.5, 0.125]]], [[[0.125, 0.125, -0.5], [-0.25, -0.625, 0.5], [-0.0, -0.0, -0.25]], [[0.875, 0.875, -0.125], [-0.875, 0.875, 0.375], [-0.25, 0.75, -0.875]]]]> : tensor<4x2x3x3xbf16>
  %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : bf16
  } : tensor<1x4x6x6xbf16> to tensor<1x4x8x8xbf16>
  %0 = tensor.empty() : tensor<1x4x3x3xf32>
  %expanded = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xbf16> into tensor<1x2x2x8x8xbf16>
  %expanded_8 = tensor.expand_shape %cst_7 [[0, 1], [2], [3], [4]] output_shape [2, 2, 2, 3, 3] : tensor<4x2x3x3xbf16> into tensor<2x2x2x3x3xbf16>
  %expanded_9 = tensor.expand_shape %0 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 3, 3] : tensor<1x4x3x3xf32> into tensor<1x2x2x3x3xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%expanded_9 : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %2 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%expanded, %expanded_8 : tensor<1x2x2x8x8xbf16>, tensor<2x2x2x3x3xbf16>) outs(%1 : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %collapsed = tensor.collapse_shape %2 [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %3 = tensor.empty() : tensor<1x4x3x3xbf16>
  %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed : tensor<1x4x3x3xf32>) outs(%3 : tensor<1x4x3x3xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %16 = arith.truncf %in : f32 to bf16
    linalg.yield %16 : bf16
  } -> tensor<1x4x3x3xbf16>
  %5 = tensor.empty() : tensor<4xf32>
  %6 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_6 : tensor<4xbf16>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %16 = arith.extf %in : bf16 to f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %7 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_5 : tensor<4xbf16>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %16 = arith.extf %in : bf16 to f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %8 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%7 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.truncf %cst_4 : f64 to f32
    %17 = arith.addf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %9 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%8 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = math.sqrt %in : f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %10 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%9 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.cmpf one, %in, %cst_0 : f32
    cf.assert %16, "unimplemented: tensor with zero element"
    %17 = arith.divf %cst_1, %in : f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %expanded_10 = tensor.expand_shape %6 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %expanded_11 = tensor.expand_shape %10 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %11 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %expanded_10 : tensor<1x4x3x3xbf16>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: bf16, %in_14: f32, %out: f32):
    %16 = arith.extf %in : bf16 to f32
    %17 = arith.subf %16, %in_14 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %12 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %expanded_11 : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f32, %out: f32):
    %16 = arith.mulf %in, %in_14 : f32
    linalg.yield %16 : f32
  } -> tensor<1x4x3x3xf32>
  %expanded_12 = tensor.expand_shape %cst_3 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xbf16> into tensor<4x1x1xbf16>
  %13 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_12 : tensor<1x4x3x3xf32>, tensor<4x1x1xbf16>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: bf16, %out: f32):
    %16 = arith.extf %in_14 : bf16 to f32
    %17 = arith.mulf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %expanded_13 = tensor.expand_shape %cst_2 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xbf16> into tensor<4x1x1xbf16>
  %14 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_13 : tensor<1x4x3x3xf32>, tensor<4x1x1xbf16>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: bf16, %out: f32):
    %16 = arith.extf %in_14 : bf16 to f32
    %17 = arith.addf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %15 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<1x4x3x3xf32>) outs(%3 : tensor<1x4x3x3xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %16 = arith.truncf %in : f32 to bf16
    linalg.yield %16 : bf16
  } -> tensor<1x4x3x3xbf16>
  return %15 : tensor<1x4x3x3xbf16>
}

// Another grouping (3 groups of one input channel, two filters each) with a conv bias:
// torch-mlir's init is the f16 bias widened (extf generic) and broadcast; it folds as well.
// CHECK-LABEL: func.func @grouped3_bias_bn_f16(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} : tensor<1x3x1x8x8xf16>, tensor<3x2x1x3x3xf16>) outs(%{{.*}} : tensor<1x3x2x3x3xf32>)
// CHECK-NEXT: tensor.collapse_shape
// CHECK-NOT: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: arith.mulf
// CHECK: return
// UMBRELLA-LABEL: func.func @grouped3_bias_bn_f16(
func.func @grouped3_bias_bn_f16(%arg0: tensor<1x3x6x6xf16>) -> tensor<1x6x3x3xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant dense<[-0.875, 0.875, 0.375, -0.25, 0.75, -0.875]> : tensor<6xf16>
  %cst_3 = arith.constant dense<[-0.0, -0.0, -0.25, 0.875, 0.875, -0.125]> : tensor<6xf16>
  %cst_4 = arith.constant 1.000000e-05 : f64
  %cst_5 = arith.constant dense<[0.625, 1.75, 1.375, 1.5, 1.125, 0.625]> : tensor<6xf16>
  %cst_6 = arith.constant dense<[0.125, 0.125, -0.5, -0.25, -0.625, 0.5]> : tensor<6xf16>
  %cst_7 = arith.constant dense<[[[[0.5, 0.5, -0.125], [-0.75, 0.875, -0.375], [-0.625, 0.75, 0.0]]], [[[-0.625, 0.5, 0.625], [0.125, 0.625, 0.25], [-0.125, -0.375, 0.375]]], [[[0.75, -0.625, 0.25], [-0.875, 0.125, -0.75], [0.5, 0.875, 0.875]]], [[[0.5, 0.5, 0.375], [0.125, -0.375, -0.125], [0.75, 1.0, 0.75]]], [[[0.375, -0.125, 0.25], [0.75, 0.875, 0.875], [-1.0, 0.25, -0.5]]], [[[-1.0, -0.875, 0.625], [-0.125, -0.75, 0.875], [-0.0, 0.5, 0.125]]]]> : tensor<6x1x3x3xf16>
  %cst_8 = arith.constant dense<[-0.375, 0.0, 0.125, -0.5, -0.875, -1.0]> : tensor<6xf16>
  %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : f16
  } : tensor<1x3x6x6xf16> to tensor<1x3x8x8xf16>
  %0 = tensor.empty() : tensor<1x6x3x3xf32>
  %1 = tensor.empty() : tensor<6xf32>
  %2 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_8 : tensor<6xf16>) outs(%1 : tensor<6xf32>) {
  ^bb0(%in: f16, %out: f32):
    %16 = arith.extf %in : f16 to f32
    linalg.yield %16 : f32
  } -> tensor<6xf32>
  %broadcasted = linalg.broadcast ins(%2 : tensor<6xf32>) outs(%0 : tensor<1x6x3x3xf32>) dimensions = [0, 2, 3]
  %expanded = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [1, 3, 1, 8, 8] : tensor<1x3x8x8xf16> into tensor<1x3x1x8x8xf16>
  %expanded_9 = tensor.expand_shape %cst_7 [[0, 1], [2], [3], [4]] output_shape [3, 2, 1, 3, 3] : tensor<6x1x3x3xf16> into tensor<3x2x1x3x3xf16>
  %expanded_10 = tensor.expand_shape %broadcasted [[0], [1, 2], [3], [4]] output_shape [1, 3, 2, 3, 3] : tensor<1x6x3x3xf32> into tensor<1x3x2x3x3xf32>
  %3 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%expanded, %expanded_9 : tensor<1x3x1x8x8xf16>, tensor<3x2x1x3x3xf16>) outs(%expanded_10 : tensor<1x3x2x3x3xf32>) -> tensor<1x3x2x3x3xf32>
  %collapsed = tensor.collapse_shape %3 [[0], [1, 2], [3], [4]] : tensor<1x3x2x3x3xf32> into tensor<1x6x3x3xf32>
  %4 = tensor.empty() : tensor<1x6x3x3xf16>
  %5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed : tensor<1x6x3x3xf32>) outs(%4 : tensor<1x6x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %16 = arith.truncf %in : f32 to f16
    linalg.yield %16 : f16
  } -> tensor<1x6x3x3xf16>
  %6 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_6 : tensor<6xf16>) outs(%1 : tensor<6xf32>) {
  ^bb0(%in: f16, %out: f32):
    %16 = arith.extf %in : f16 to f32
    linalg.yield %16 : f32
  } -> tensor<6xf32>
  %7 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_5 : tensor<6xf16>) outs(%1 : tensor<6xf32>) {
  ^bb0(%in: f16, %out: f32):
    %16 = arith.extf %in : f16 to f32
    linalg.yield %16 : f32
  } -> tensor<6xf32>
  %8 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%7 : tensor<6xf32>) outs(%1 : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.truncf %cst_4 : f64 to f32
    %17 = arith.addf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<6xf32>
  %9 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%8 : tensor<6xf32>) outs(%1 : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = math.sqrt %in : f32
    linalg.yield %16 : f32
  } -> tensor<6xf32>
  %10 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%9 : tensor<6xf32>) outs(%1 : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.cmpf one, %in, %cst_0 : f32
    cf.assert %16, "unimplemented: tensor with zero element"
    %17 = arith.divf %cst_1, %in : f32
    linalg.yield %17 : f32
  } -> tensor<6xf32>
  %expanded_11 = tensor.expand_shape %6 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
  %expanded_12 = tensor.expand_shape %10 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
  %11 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %expanded_11 : tensor<1x6x3x3xf16>, tensor<6x1x1xf32>) outs(%0 : tensor<1x6x3x3xf32>) {
  ^bb0(%in: f16, %in_15: f32, %out: f32):
    %16 = arith.extf %in : f16 to f32
    %17 = arith.subf %16, %in_15 : f32
    linalg.yield %17 : f32
  } -> tensor<1x6x3x3xf32>
  %12 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %expanded_12 : tensor<1x6x3x3xf32>, tensor<6x1x1xf32>) outs(%0 : tensor<1x6x3x3xf32>) {
  ^bb0(%in: f32, %in_15: f32, %out: f32):
    %16 = arith.mulf %in, %in_15 : f32
    linalg.yield %16 : f32
  } -> tensor<1x6x3x3xf32>
  %expanded_13 = tensor.expand_shape %cst_3 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf16> into tensor<6x1x1xf16>
  %13 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_13 : tensor<1x6x3x3xf32>, tensor<6x1x1xf16>) outs(%0 : tensor<1x6x3x3xf32>) {
  ^bb0(%in: f32, %in_15: f16, %out: f32):
    %16 = arith.extf %in_15 : f16 to f32
    %17 = arith.mulf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<1x6x3x3xf32>
  %expanded_14 = tensor.expand_shape %cst_2 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf16> into tensor<6x1x1xf16>
  %14 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_14 : tensor<1x6x3x3xf32>, tensor<6x1x1xf16>) outs(%0 : tensor<1x6x3x3xf32>) {
  ^bb0(%in: f32, %in_15: f16, %out: f32):
    %16 = arith.extf %in_15 : f16 to f32
    %17 = arith.addf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<1x6x3x3xf32>
  %15 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<1x6x3x3xf32>) outs(%4 : tensor<1x6x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %16 = arith.truncf %in : f32 to f16
    linalg.yield %16 : f16
  } -> tensor<1x6x3x3xf16>
  return %15 : tensor<1x6x3x3xf16>
}

// Must not fire: a relu (in f16, on the rounded conv) between the conv and the batch
// norm. The batch norm is merged into one scale and one shift (MergeAffineRun), in f32.
// CHECK-LABEL: func.func @relu_between_f16(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%expanded, %expanded_{{[0-9]+}} :
// CHECK: arith.select
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
func.func @relu_between_f16(%arg0: tensor<1x4x6x6xf16>) -> tensor<1x4x3x3xf16> {
  %cst = arith.constant 0.000000e+00 : f16
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant dense<[0.0, -0.375, -0.25, 0.75]> : tensor<4xf16>
  %cst_3 = arith.constant dense<[0.25, 1.0, -0.125, -0.75]> : tensor<4xf16>
  %cst_4 = arith.constant 1.000000e-05 : f64
  %cst_5 = arith.constant dense<[0.5, 1.0, 1.125, 1.5]> : tensor<4xf16>
  %cst_6 = arith.constant dense<[-0.875, -0.875, 0.125, -0.125]> : tensor<4xf16>
  %cst_7 = arith.constant dense<[[[[-0.25, 0.25, 0.0], [0.375, 0.25, 0.75], [0.125, 0.0, 0.5]], [[-0.625, -0.75, -0.875], [-0.0, -0.25, -0.625], [-0.25, 0.375, 0.375]]], [[[0.5, -0.375, -1.0], [0.5, 0.25, -0.125], [-0.25, 0.375, 0.75]], [[-0.75, -0.5, -0.25], [0.875, -0.875, -0.125], [-0.375, 0.75, 0.875]]], [[[0.75, -0.125, -0.875], [0.125, 0.25, -0.375], [-0.75, -0.375, -0.875]], [[1.0, -1.0, -0.25], [0.25, -0.625, -0.25], [0.875, 0.25, 1.0]]], [[[0.875, 0.625, -1.0], [-0.75, -0.5, -0.125], [0.875, 0.375, 0.125]], [[-0.625, 0.375, -1.0], [0.375, 0.125, -0.875], [0.625, -0.5, -0.0]]]]> : tensor<4x2x3x3xf16>
  %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : f16
  } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
  %0 = tensor.empty() : tensor<1x4x3x3xf32>
  %expanded = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf16> into tensor<1x2x2x8x8xf16>
  %expanded_8 = tensor.expand_shape %cst_7 [[0, 1], [2], [3], [4]] output_shape [2, 2, 2, 3, 3] : tensor<4x2x3x3xf16> into tensor<2x2x2x3x3xf16>
  %expanded_9 = tensor.expand_shape %0 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 3, 3] : tensor<1x4x3x3xf32> into tensor<1x2x2x3x3xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%expanded_9 : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %2 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%expanded, %expanded_8 : tensor<1x2x2x8x8xf16>, tensor<2x2x2x3x3xf16>) outs(%1 : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %collapsed = tensor.collapse_shape %2 [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %3 = tensor.empty() : tensor<1x4x3x3xf16>
  %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed : tensor<1x4x3x3xf32>) outs(%3 : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %17 = arith.truncf %in : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<1x4x3x3xf16>
  %5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4 : tensor<1x4x3x3xf16>) outs(%3 : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f16, %out: f16):
    %17 = arith.cmpf ugt, %in, %cst : f16
    %18 = arith.select %17, %in, %cst : f16
    linalg.yield %18 : f16
  } -> tensor<1x4x3x3xf16>
  %6 = tensor.empty() : tensor<4xf32>
  %7 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_6 : tensor<4xf16>) outs(%6 : tensor<4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %17 = arith.extf %in : f16 to f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %8 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_5 : tensor<4xf16>) outs(%6 : tensor<4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %17 = arith.extf %in : f16 to f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %9 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%8 : tensor<4xf32>) outs(%6 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = arith.truncf %cst_4 : f64 to f32
    %18 = arith.addf %in, %17 : f32
    linalg.yield %18 : f32
  } -> tensor<4xf32>
  %10 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%9 : tensor<4xf32>) outs(%6 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = math.sqrt %in : f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %11 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%10 : tensor<4xf32>) outs(%6 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %17 = arith.cmpf one, %in, %cst_0 : f32
    cf.assert %17, "unimplemented: tensor with zero element"
    %18 = arith.divf %cst_1, %in : f32
    linalg.yield %18 : f32
  } -> tensor<4xf32>
  %expanded_10 = tensor.expand_shape %7 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %expanded_11 = tensor.expand_shape %11 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %12 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %expanded_10 : tensor<1x4x3x3xf16>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f16, %in_14: f32, %out: f32):
    %17 = arith.extf %in : f16 to f32
    %18 = arith.subf %17, %in_14 : f32
    linalg.yield %18 : f32
  } -> tensor<1x4x3x3xf32>
  %13 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_11 : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f32, %out: f32):
    %17 = arith.mulf %in, %in_14 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %expanded_12 = tensor.expand_shape %cst_3 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf16> into tensor<4x1x1xf16>
  %14 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_12 : tensor<1x4x3x3xf32>, tensor<4x1x1xf16>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f16, %out: f32):
    %17 = arith.extf %in_14 : f16 to f32
    %18 = arith.mulf %in, %17 : f32
    linalg.yield %18 : f32
  } -> tensor<1x4x3x3xf32>
  %expanded_13 = tensor.expand_shape %cst_2 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf16> into tensor<4x1x1xf16>
  %15 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %expanded_13 : tensor<1x4x3x3xf32>, tensor<4x1x1xf16>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f16, %out: f32):
    %17 = arith.extf %in_14 : f16 to f32
    %18 = arith.addf %in, %17 : f32
    linalg.yield %18 : f32
  } -> tensor<1x4x3x3xf32>
  %16 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x4x3x3xf32>) outs(%3 : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %17 = arith.truncf %in : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<1x4x3x3xf16>
  return %16 : tensor<1x4x3x3xf16>
}

// Must not fire: the rounded conv output is returned too (the collapse has two readers
// once the batch norm reads it unrounded); its value must not change.
// CHECK-LABEL: func.func @conv_returned_f16(
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%expanded, %expanded_{{[0-9]+}} :
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: return
func.func @conv_returned_f16(%arg0: tensor<1x4x6x6xf16>) -> (tensor<1x4x3x3xf16>, tensor<1x4x3x3xf16>) {
  %cst = arith.constant 0.000000e+00 : f16
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e+00 : f32
  %cst_2 = arith.constant dense<[0.625, 0.375, 0.375, 0.5]> : tensor<4xf16>
  %cst_3 = arith.constant dense<[-0.625, 0.875, 0.875, 0.5]> : tensor<4xf16>
  %cst_4 = arith.constant 1.000000e-05 : f64
  %cst_5 = arith.constant dense<[0.75, 1.25, 0.875, 1.125]> : tensor<4xf16>
  %cst_6 = arith.constant dense<[-0.5, -0.0, 1.0, -0.625]> : tensor<4xf16>
  %cst_7 = arith.constant dense<[[[[-0.25, 0.125, -0.25], [0.25, 0.25, -1.0], [0.5, 1.0, 0.0]], [[-0.75, 0.75, 0.25], [-0.25, 0.375, 0.875], [0.125, -1.0, -0.75]]], [[[0.625, -0.875, 0.75], [-0.25, -0.875, -0.75], [0.625, 0.125, 0.75]], [[0.375, 0.75, -0.5], [-0.875, 0.125, -0.875], [-0.625, 0.5, 0.0]]], [[[0.75, 0.125, 0.25], [-0.125, 0.375, -0.375], [-0.25, 1.0, -0.625]], [[0.125, 0.0, 0.875], [-0.125, -0.75, 0.75], [-0.375, 0.375, 0.5]]], [[[-0.75, 0.875, -0.875], [0.75, 0.625, 0.25], [-0.125, -0.125, -0.875]], [[0.25, -0.875, -0.5], [-0.375, -0.75, 0.625], [-0.125, -0.625, 0.125]]]]> : tensor<4x2x3x3xf16>
  %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : f16
  } : tensor<1x4x6x6xf16> to tensor<1x4x8x8xf16>
  %0 = tensor.empty() : tensor<1x4x3x3xf32>
  %expanded = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf16> into tensor<1x2x2x8x8xf16>
  %expanded_8 = tensor.expand_shape %cst_7 [[0, 1], [2], [3], [4]] output_shape [2, 2, 2, 3, 3] : tensor<4x2x3x3xf16> into tensor<2x2x2x3x3xf16>
  %expanded_9 = tensor.expand_shape %0 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 3, 3] : tensor<1x4x3x3xf32> into tensor<1x2x2x3x3xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%expanded_9 : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %2 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%expanded, %expanded_8 : tensor<1x2x2x8x8xf16>, tensor<2x2x2x3x3xf16>) outs(%1 : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  %collapsed = tensor.collapse_shape %2 [[0], [1, 2], [3], [4]] : tensor<1x2x2x3x3xf32> into tensor<1x4x3x3xf32>
  %3 = tensor.empty() : tensor<1x4x3x3xf16>
  %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed : tensor<1x4x3x3xf32>) outs(%3 : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %16 = arith.truncf %in : f32 to f16
    linalg.yield %16 : f16
  } -> tensor<1x4x3x3xf16>
  %5 = tensor.empty() : tensor<4xf32>
  %6 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_6 : tensor<4xf16>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %16 = arith.extf %in : f16 to f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %7 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%cst_5 : tensor<4xf16>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %16 = arith.extf %in : f16 to f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %8 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%7 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.truncf %cst_4 : f64 to f32
    %17 = arith.addf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %9 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%8 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = math.sqrt %in : f32
    linalg.yield %16 : f32
  } -> tensor<4xf32>
  %10 = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%9 : tensor<4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %16 = arith.cmpf one, %in, %cst_0 : f32
    cf.assert %16, "unimplemented: tensor with zero element"
    %17 = arith.divf %cst_1, %in : f32
    linalg.yield %17 : f32
  } -> tensor<4xf32>
  %expanded_10 = tensor.expand_shape %6 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %expanded_11 = tensor.expand_shape %10 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %11 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %expanded_10 : tensor<1x4x3x3xf16>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f16, %in_14: f32, %out: f32):
    %16 = arith.extf %in : f16 to f32
    %17 = arith.subf %16, %in_14 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %12 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %expanded_11 : tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f32, %out: f32):
    %16 = arith.mulf %in, %in_14 : f32
    linalg.yield %16 : f32
  } -> tensor<1x4x3x3xf32>
  %expanded_12 = tensor.expand_shape %cst_3 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf16> into tensor<4x1x1xf16>
  %13 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_12 : tensor<1x4x3x3xf32>, tensor<4x1x1xf16>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f16, %out: f32):
    %16 = arith.extf %in_14 : f16 to f32
    %17 = arith.mulf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %expanded_13 = tensor.expand_shape %cst_2 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf16> into tensor<4x1x1xf16>
  %14 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_13 : tensor<1x4x3x3xf32>, tensor<4x1x1xf16>) outs(%0 : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %in_14: f16, %out: f32):
    %16 = arith.extf %in_14 : f16 to f32
    %17 = arith.addf %in, %16 : f32
    linalg.yield %17 : f32
  } -> tensor<1x4x3x3xf32>
  %15 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<1x4x3x3xf32>) outs(%3 : tensor<1x4x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %16 = arith.truncf %in : f32 to f16
    linalg.yield %16 : f16
  } -> tensor<1x4x3x3xf16>
  return %15, %4 : tensor<1x4x3x3xf16>, tensor<1x4x3x3xf16>
}
