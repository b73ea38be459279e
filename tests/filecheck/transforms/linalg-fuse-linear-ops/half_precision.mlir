// linalg-fuse-linear-ops in half precision (issue 34): batch norm after a conv as
// torch-mlir exports a .half() model (tools: torch_mlir.fx.export_and_import of
// Conv2d + BatchNorm2d + ReLU, .half(), shrunk to 2 channels): the conv reads f16 and
// accumulates into an f32 init (its f16 bias widened by an extf generic), a truncf
// generic rounds it to f16, batch norm widens it again (extf in the first generic's
// body), computes in f32 with its f16 gamma/beta widened in each body, and truncates.
// The mixed-precision rule (docs/passes.md): the truncf/extf round trip goes, the f16
// constants are widened outside the bodies, and the four ops fold into the conv as in
// f32: the weights computed in float64 and rounded to f16 once per fold, the init in
// f32, the exporter's truncf kept before the relu.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#v = affine_map<(d0) -> (d0)>
func.func @bn_mixed(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %zero = arith.constant 0.000000e+00 : f16
  %w = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[1.0]]]]> : tensor<2x2x1x1xf16>
  %b = arith.constant dense<[0.125, -0.5]> : tensor<2xf16>
  %mean = arith.constant dense<[[[0.25]], [[-0.75]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.75]]]> : tensor<2x1x1xf16>
  %beta = arith.constant dense<[[[-0.25]], [[0.5]]]> : tensor<2x1x1xf16>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %ev = tensor.empty() : tensor<2xf32>
  %bw = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%b : tensor<2xf16>) outs(%ev : tensor<2xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<2xf32>
  %init = linalg.broadcast ins(%bw : tensor<2xf32>) outs(%e32 : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %mean : tensor<1x2x4x4xf16>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f16, %m: f32, %out: f32):
    %0 = arith.extf %in : f16 to f32
    %1 = arith.subf %0, %m : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x4x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %inv : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %gamma : tensor<1x2x4x4xf32>, tensor<2x1x1xf16>) outs(%e32 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f16, %out: f32):
    %0 = arith.extf %k : f16 to f32
    %1 = arith.mulf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g, %beta : tensor<1x2x4x4xf32>, tensor<2x1x1xf16>) outs(%e32 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f16, %out: f32):
    %0 = arith.extf %k : f16 to f32
    %1 = arith.addf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x4x4xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<1x2x4x4xf16>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = arith.cmpf ugt, %in, %zero : f16
    %1 = arith.select %0, %in, %zero : f16
    linalg.yield %1 : f16
  } -> tensor<1x2x4x4xf16>
  return %r : tensor<1x2x4x4xf16>
}
// CHECK-LABEL: func.func @bn_mixed
// CHECK-DAG:   %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.500000e+00]], {{\[\[}}-7.500000e-01]]], {{\[\[\[}}2.812500e-01]], {{\[\[}}3.750000e-01]]]]> : tensor<2x2x1x1xf16>
// CHECK-DAG:   %[[B:.*]] = arith.constant dense<[-6.250000e-01, 5.937500e-01]> : tensor<2xf32>
// CHECK:       %[[INIT:.*]] = linalg.broadcast ins(%[[B]] : tensor<2xf32>)
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%[[INIT]] : tensor<1x2x4x4xf32>)
// CHECK-NEXT:  tensor.empty() : tensor<1x2x4x4xf16>
// CHECK-NEXT:  %[[H:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x2x4x4xf32>)
// CHECK:         arith.truncf
// CHECK:       linalg.generic {{.*}} ins(%[[H]] : tensor<1x2x4x4xf16>)
// CHECK:         arith.cmpf ugt
// CHECK-NOT:   arith.subf
// CHECK-NOT:   arith.mulf
// CHECK-NOT:   arith.extf
// CHECK:       return
// MLIR-LABEL:  func.func @bn_mixed
// MLIR:        linalg.conv_2d_nchw_fchw
// MLIR-LABEL:  func.func @rounded_conv_also_returned(
// MLIR-LABEL:  func.func @bn_on_f16_input(

// -----

// Not folded: the conv's rounded result is also returned, so the conv has a second
// user once batch norm reads its f32 result (the fold would change what is returned).
// Negative, but not unchanged: the scale now reads the unrounded f32 value, so its
// result moves by at most the removed rounding (numerics: within f16's tolerance).
// Batch norm still reads the conv's f32 value and its f16 gamma is widened outside.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @rounded_conv_also_returned(%x: tensor<1x2x4x4xf16>) -> (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) {
  %w = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[1.0]]]]> : tensor<2x2x1x1xf16>
  %gamma = arith.constant dense<[[[1.5]], [[0.75]]]> : tensor<2x1x1xf16>
  %zero = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  %g = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %gamma : tensor<1x2x4x4xf16>, tensor<2x1x1xf16>) outs(%e32 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f16, %k: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    %1 = arith.extf %k : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<1x2x4x4xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  return %h, %t : tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>
}
// CHECK-LABEL: func.func @rounded_conv_also_returned
// CHECK:       %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}-2.500000e-01]]], {{\[\[\[}}7.500000e-01]], {{\[\[}}1.000000e+00]]]]> : tensor<2x2x1x1xf16>
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] :
// CHECK:       %[[T:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x2x4x4xf32>)
// CHECK:         arith.truncf
// CHECK:       %[[G:.*]] = linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:    arith.mulf
// CHECK:       %[[H:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<1x2x4x4xf32>)
// CHECK:       return %[[H]], %[[T]]

// -----

// Not folded: batch norm after a relu in f16 has no linear op before it and its f16
// input is no rounded f32 value (the body's extf of a run-time value stays: widening it
// would materialise an f32 copy for nothing). Nothing changes.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @bn_on_f16_input(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf32> {
  %mean = arith.constant dense<[[[0.25]], [[-0.75]]]> : tensor<2x1x1xf32>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x2x4x4xf16>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f16, %m: f32, %out: f32):
    %0 = arith.extf %in : f16 to f32
    %1 = arith.subf %0, %m : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x4x4xf32>
  return %s : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @bn_on_f16_input
// CHECK:       linalg.generic {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x1x1xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f16, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:    arith.extf
// CHECK-NEXT:    arith.subf
