// linalg-fuse-linear-chains in torch-mlir's f16 form (issue 34): Conv2d -> Conv2d of a
// .half() model (torch_mlir.fx.export_and_import), each conv reading f16, accumulating
// into f32 and rounded back to f16 by a truncf generic. The mixed-precision rule
// (docs/passes.md) lets the second conv read the first's f32 value (it casts its input
// to f32 anyway), so the two compose as in f32: one conv reading the f16 input with the
// composed weights rounded once to f16, accumulating in f32, the last truncf kept.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_conv_mixed(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %z = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[1.0]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[1.5]], [[0.5]]], [[[-1.0]], [[0.25]]]]> : tensor<2x2x1x1xf16>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.fill ins(%z : f32) outs(%e32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xf16>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t1, %w2 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %t2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2 : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  return %t2 : tensor<1x2x4x4xf16>
}
// w2 . w1 = [[1.5*0.5 + 0.5*0.75, 1.5*-0.25 + 0.5*1], [-1*0.5 + 0.25*0.75, -1*-0.25 + 0.25*1]]
// CHECK-LABEL: func.func @conv_conv_mixed
// CHECK:       %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.125000e+00]], {{\[\[}}1.250000e-01]]], {{\[\[\[}}-3.125000e-01]], {{\[\[}}5.000000e-01]]]]> : tensor<2x2x1x1xf16>
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
// CHECK:       %[[T:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x2x4x4xf32>)
// CHECK:         arith.truncf
// CHECK:       return %[[T]]
// MLIR-LABEL:  func.func @conv_conv_mixed
// MLIR-COUNT-1: linalg.conv_2d_nchw_fchw
// MLIR-LABEL:  func.func @relu_between(

// -----

// Not fused: a relu in f16 between the rounded conv and the next conv is a nonlinearity;
// the truncf stays where the exporter put it (before the relu) and both convs stay.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @relu_between(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %z16 = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[1.0]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[1.5]], [[0.5]]], [[[-1.0]], [[0.25]]]]> : tensor<2x2x1x1xf16>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %i1 = linalg.fill ins(%z : f32) outs(%e32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xf16>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t1 : tensor<1x2x4x4xf16>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = arith.cmpf ugt, %in, %z16 : f16
    %1 = arith.select %0, %in, %z16 : f16
    linalg.yield %1 : f16
  } -> tensor<1x2x4x4xf16>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r, %w2 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%i1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @relu_between
// CHECK:       %[[C1:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x,
// CHECK:       %[[T1:.*]] = linalg.generic {{.*}} ins(%[[C1]] : tensor<1x2x4x4xf32>)
// CHECK:         arith.truncf
// CHECK:       %[[R:.*]] = linalg.generic {{.*}} ins(%[[T1]] : tensor<1x2x4x4xf16>)
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[R]], %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>)
