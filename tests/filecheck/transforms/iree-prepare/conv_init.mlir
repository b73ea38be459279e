// iree-prepare gives every conv a zero init (issue 37, item 3): heirpy folds a batch norm
// into its conv, the shift into the conv's init, and under IREE's best CPU flags (data tiling
// and im2col) that init was hoisted into a load-time global, one more executable per conv
// (tests/unit/test_iree_data_tiling.py counts them with iree-compile). The last step,
// detach-conv-init, adds the folded init after the conv, where IREE fuses it into the
// conv's dispatch. f32 and f16; a conv with no bias keeps its zero fill and gets no add.
// Numerics: tests/unit/test_filecheck_numerics.py runs each chunk before/after.
// RUN: heirpy-opt %s --split-input-file -p iree-prepare | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p iree-prepare | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @conv_bn_relu(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %c0 = arith.constant 0.000000e+00 : f32
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]], [[[0.5, 0.5], [-0.5, 1.0]], [[2.0, -1.0], [0.0, 1.5]]]]> : tensor<2x2x2x2xf32>
  %m = arith.constant dense<[[[0.25]], [[-0.5]]]> : tensor<2x1x1xf32>
  %s = arith.constant dense<[[[1.5]], [[0.75]]]> : tensor<2x1x1xf32>
  %b = arith.constant dense<[[[0.5]], [[-1.5]]]> : tensor<2x1x1xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%z : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %m : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %p: f32, %out: f32):
    %v = arith.subf %in, %p : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  %c2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %s : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %p: f32, %out: f32):
    %v = arith.mulf %in, %p : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %b : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %p: f32, %out: f32):
    %v = arith.addf %in, %p : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x2x3x3xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.cmpf ugt, %in, %c0 : f32
    %v = arith.select %p, %in, %c0 : f32
    linalg.yield %v : f32
  } -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @conv_bn_relu
// CHECK-NOT:   linalg.broadcast
// CHECK:       %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[FILL]] : tensor<1x2x3x3xf32>)
// CHECK:       linalg.generic {{.*}} ins(%[[CONV]], %{{.*}} : tensor<1x2x3x3xf32>, tensor<2xf32>)
// CHECK:         arith.addf
// MLIR-LABEL:  func.func @conv_bn_relu
// MLIR:        linalg.conv_2d_nchw_fchw
// MLIR-LABEL:  func.func @conv_bn_f16(

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @conv_bn_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x3x3xf16> {
  %c0 = arith.constant 0.000000e+00 : f16
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]], [[[0.5, 0.5], [-0.5, 1.0]], [[2.0, -1.0], [0.0, 1.5]]]]> : tensor<2x2x2x2xf16>
  %m = arith.constant dense<[[[0.25]], [[-0.5]]]> : tensor<2x1x1xf16>
  %s = arith.constant dense<[[[1.5]], [[0.75]]]> : tensor<2x1x1xf16>
  %b = arith.constant dense<[[[0.5]], [[-1.5]]]> : tensor<2x1x1xf16>
  %e = tensor.empty() : tensor<1x2x3x3xf16>
  %z = linalg.fill ins(%c0 : f16) outs(%e : tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x2x2xf16>) outs(%z : tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16>
  %c1 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %m : tensor<1x2x3x3xf16>, tensor<2x1x1xf16>) outs(%e : tensor<1x2x3x3xf16>) {
  ^bb0(%in: f16, %p: f16, %out: f16):
    %v = arith.subf %in, %p : f16
    linalg.yield %v : f16
  } -> tensor<1x2x3x3xf16>
  %c2 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %s : tensor<1x2x3x3xf16>, tensor<2x1x1xf16>) outs(%e : tensor<1x2x3x3xf16>) {
  ^bb0(%in: f16, %p: f16, %out: f16):
    %v = arith.mulf %in, %p : f16
    linalg.yield %v : f16
  } -> tensor<1x2x3x3xf16>
  %a = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %b : tensor<1x2x3x3xf16>, tensor<2x1x1xf16>) outs(%e : tensor<1x2x3x3xf16>) {
  ^bb0(%in: f16, %p: f16, %out: f16):
    %v = arith.addf %in, %p : f16
    linalg.yield %v : f16
  } -> tensor<1x2x3x3xf16>
  return %a : tensor<1x2x3x3xf16>
}
// CHECK-LABEL: func.func @conv_bn_f16
// CHECK-NOT:   linalg.broadcast
// CHECK:       %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<1x2x3x3xf16>)
// CHECK-NEXT:  %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[FILL]] : tensor<1x2x3x3xf16>)
// CHECK:       %[[R:.*]] = linalg.generic {{.*}} ins(%[[CONV]], %{{.*}} : tensor<1x2x3x3xf16>, tensor<2xf16>)
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f16
// CHECK:       return %[[R]]

// -----

// Must not fire: no bias, the conv keeps its zero fill and nothing is added.
func.func @conv_no_bias(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %c0 = arith.constant 0.000000e+00 : f32
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]], [[[0.5, 0.5], [-0.5, 1.0]], [[2.0, -1.0], [0.0, 1.5]]]]> : tensor<2x2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%z : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %c : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @conv_no_bias
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%z : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  return %[[C]]
