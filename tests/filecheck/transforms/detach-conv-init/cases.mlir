// detach-conv-init: which convs start from zero with their init added after them (a
// broadcast bias, a non-zero fill, a dense constant, a computed tensor; f32, f16, mixed
// f16 -> f32, grouped), and which keep their init (a zero fill or zero splat, an integer
// conv, a matmul, which IREE detaches itself). Numerics: tests/unit/test_filecheck_numerics.py
// runs every chunk before/after; the heirpy-equiv lines below check the f32 and f16 chunks
// by name. heir-opt's parser is not needed: this is an IREE-only form; iree-opt re-parses it.
// RUN: heirpy-opt %s --split-input-file -p detach-conv-init | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p detach-conv-init | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// torch-mlir's conv + bias after heirpy folded the bias into the init: the conv now
// starts from zero and one generic adds the bias vector, read through a channel map.
func.func @bias_broadcast(%x: tensor<1x3x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [0.75, 0.0, 1.5]], [[-0.25, 0.5, 1.0], [0.0, -1.5, 0.5], [1.0, 1.0, -1.0]], [[0.5, 0.5, 0.5], [-0.5, 0.25, 0.75], [0.0, 1.0, -0.25]]], [[[1.0, 0.0, -1.0], [0.5, 0.5, 0.5], [-0.75, 0.25, 1.0]], [[0.0, 1.0, 0.0], [1.5, -0.5, 0.25], [0.5, -1.0, 0.5]], [[-1.0, 0.5, 0.0], [0.25, 0.25, -0.5], [1.0, 0.0, 0.75]]]]> : tensor<2x3x3x3xf32>
  %b = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %init = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x3x5x5xf32>, tensor<2x3x3x3xf32>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[CH:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bias_broadcast
// CHECK-NOT:   linalg.broadcast
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[E0:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E0]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w : {{.*}}) outs(%[[FILL]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  %[[E1:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[CONV]], %b : tensor<1x2x3x3xf32>, tensor<2xf32>) outs(%[[E1]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  ^bb0(%[[S:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[S]], %[[B]] : f32
// CHECK-NEXT:    linalg.yield %[[SUM]] : f32
// CHECK:       return %[[R]]
// MLIR-LABEL:  func.func @bias_broadcast
// MLIR:        linalg.conv_2d_nchw_fchw
// MLIR:        linalg.generic
// MLIR-LABEL:  func.func @bias_broadcast_f16(

// -----

// Pure f16: the zero, the fill and the add are f16.
func.func @bias_broadcast_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x3x3xf16> {
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]], [[[0.5, 0.5], [-0.5, 1.0]], [[2.0, -1.0], [0.0, 1.5]]]]> : tensor<2x2x2x2xf16>
  %b = arith.constant dense<[0.5, -1.5]> : tensor<2xf16>
  %e = tensor.empty() : tensor<1x2x3x3xf16>
  %init = linalg.broadcast ins(%b : tensor<2xf16>) outs(%e : tensor<1x2x3x3xf16>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x2x2xf16>) outs(%init : tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16>
  return %r : tensor<1x2x3x3xf16>
}
// CHECK-LABEL: func.func @bias_broadcast_f16
// CHECK-NOT:   linalg.broadcast
// CHECK:       arith.constant 0.000000e+00 : f16
// CHECK:       %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<1x2x3x3xf16>)
// CHECK-NEXT:  %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[FILL]] : tensor<1x2x3x3xf16>)
// CHECK:       linalg.generic {{.*}} ins(%[[CONV]], %b : tensor<1x2x3x3xf16>, tensor<2xf16>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16):
// CHECK-NEXT:    arith.addf %{{.*}}, %{{.*}} : f16

// -----

// torch-mlir's .half() conv: f16 input and filter, an f32 accumulator and bias; the add
// is in the accumulator's type.
func.func @mixed_f16_f32(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]], [[[0.5, 0.5], [-0.5, 1.0]], [[2.0, -1.0], [0.0, 1.5]]]]> : tensor<2x2x2x2xf16>
  %b = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %init = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x2x2xf16>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @mixed_f16_f32
// CHECK:       %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x2x2xf16>) outs(%[[FILL]] : tensor<1x2x3x3xf32>)
// CHECK:       linalg.generic {{.*}} ins(%[[CONV]], %b : tensor<1x2x3x3xf32>, tensor<2xf32>)
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32

// -----

// A computed init (a residual folded into the conv) is added whole, through the identity.
func.func @residual_init(%x: tensor<1x2x3x3xf32>, %res: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[[0.5]], [[-1.0]]], [[[2.0]], [[0.25]]]]> : tensor<2x2x1x1xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) outs(%res : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @residual_init
// CHECK:       %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], {{.*}} ins(%[[CONV]], %res : {{.*}}) outs(%[[E]] : {{.*}})
// CHECK:       return %[[R]]

// -----

// A non-zero fill and a dense constant are inits too; both convs share nothing.
func.func @fill_and_dense(%x: tensor<1x1x3x3xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]]], [[[0.25, 0.0], [-0.5, 1.0]]]]> : tensor<2x1x2x2xf32>
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %d = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]> : tensor<1x2x2x2xf32>
  %r0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) outs(%d : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r0, %r1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @fill_and_dense
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw {{.*}} outs(%zero_init{{.*}} : tensor<1x2x2x2xf32>)
// CHECK-NOT:   linalg.conv
// CHECK:       return

// -----

// A grouped conv (RegNet's): the bias varies along (g, f), read through (d1, d2).
func.func @grouped(%x: tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x2x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x2x2x2x2xf32>
  %b = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2x2xf32>
  %init = linalg.broadcast ins(%b : tensor<2x2xf32>) outs(%e : tensor<1x2x2x2x2xf32>) dimensions = [0, 3, 4]
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x3x3xf32>, tensor<2x2x2x2x2xf32>) outs(%init : tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  return %r : tensor<1x2x2x2x2xf32>
}
// CHECK-DAG:   #[[GF:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>
// CHECK-LABEL: func.func @grouped
// CHECK-NOT:   linalg.broadcast
// CHECK:       %[[CONV:.*]] = linalg.conv_2d_ngchw_gfchw {{.*}} outs(%zero_init : tensor<1x2x2x2x2xf32>)
// CHECK:       linalg.generic {indexing_maps = [#{{map[0-9]*}}, #[[GF]], #{{map[0-9]*}}], {{.*}} ins(%[[CONV]], %b : {{.*}})

// -----

// Must not fire: a zero fill and a zero splat are what IREE wants already.
func.func @zero_inits(%x: tensor<1x1x3x3xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]]], [[[0.25, 0.0], [-0.5, 1.0]]]]> : tensor<2x1x2x2xf32>
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2x2x2xf32>
  %r0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r0, %r1 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @zero_inits
// CHECK-NOT:   linalg.generic
// CHECK:       %r0 = linalg.conv_2d_nchw_fchw {{.*}} outs(%f : tensor<1x2x2x2xf32>)
// CHECK-NEXT:  %r1 = linalg.conv_2d_nchw_fchw {{.*}} outs(%z : tensor<1x2x2x2xf32>)
// CHECK-NEXT:  return %r0, %r1

// -----

// Must not fire: an integer conv (no float add), and a matmul with a bias init (a named
// contraction IREE detaches itself under every flag; only im2col's convs escape it).
func.func @int_conv_and_matmul(%x: tensor<1x1x3x3xi32>, %a: tensor<2x3xf32>, %m: tensor<3x4xf32>) -> (tensor<1x1x2x2xi32>, tensor<2x4xf32>) {
  %w = arith.constant dense<[[[[1, -1], [2, 3]]]]> : tensor<1x1x2x2xi32>
  %i = arith.constant dense<[[[[1, 2], [3, 4]]]]> : tensor<1x1x2x2xi32>
  %ri = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x3x3xi32>, tensor<1x1x2x2xi32>) outs(%i : tensor<1x1x2x2xi32>) -> tensor<1x1x2x2xi32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %init = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<2x4xf32>) dimensions = [0]
  %rm = linalg.matmul ins(%a, %m : tensor<2x3xf32>, tensor<3x4xf32>) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %ri, %rm : tensor<1x1x2x2xi32>, tensor<2x4xf32>
}
// CHECK-LABEL: func.func @int_conv_and_matmul
// CHECK:       %ri = linalg.conv_2d_nchw_fchw {{.*}} outs(%i : tensor<1x1x2x2xi32>)
// CHECK:       %init = linalg.broadcast
// CHECK-NEXT:  %rm = linalg.matmul ins(%a, %m : {{.*}}) outs(%init : tensor<2x4xf32>)
// CHECK-NEXT:  return %ri, %rm
