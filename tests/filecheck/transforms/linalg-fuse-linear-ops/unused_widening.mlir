// linalg-fuse-linear-ops undoes a widening no fold used (issue 34, IREE in f16):
// `WidenLinearOpInput` lets a conv read the f32 value before torch-mlir's truncf so
// folds see f32; where none then folds, `NarrowUnusedWidening` (last set) puts the
// truncf back, so the conv reads f16 with its f16 filter and accumulates in f32, as
// exported. Left mixed (f32 input, f16 filter), IREE's im2col of a 1x1 conv fails
// ("expected collapsed type to be 'tensor<64x64xf16>', but got 'tensor<64x64xf32>'"):
// tests/unit/test_iree_f16_mixed_conv.py compiles the iree-prepare output. A conv that
// reads `extf(x)` of its filter's type reads `x`. Negative: a batch norm folded into the
// conv before (the widening it used stays: no truncf/extf between them), a truncf
// before the next conv restored; an f32 model untouched; a wide constant matrix with a
// narrow runtime vector untouched (the weight must be the narrow operand). The restored
// cases are exact (the same roundings as exported); so is the folded one, whose first conv
// and scale are powers of two (a power-of-two scale commutes with f16 rounding).
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops | iree-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p linalg-fuse-linear-ops -o %t
// RUN: heirpy-equiv %s %t --function unused_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function unused_bf16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function extf_input_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function bn_then_conv_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function f32_untouched | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function wide_matrix_narrow_vector | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// MLIR-COUNT-6: func.func @

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>

// CHECK-LABEL: func.func @unused_f16
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x4x4xf16>, tensor<8x8x1x1xf16>) outs(%{{.*}} : tensor<1x8x4x4xf32>)
func.func @unused_f16(%arg0: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %w = arith.constant dense<5.000000e-01> : tensor<8x8x1x1xf16>
  %zero = arith.constant 0.000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x8x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x8x4x4xf32>) outs(%e16 : tensor<1x8x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x8x4x4xf16>
  %e32 = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t, %w : tensor<1x8x4x4xf16>, tensor<8x8x1x1xf16>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %c : tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func.func @unused_bf16
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x4x4xbf16>, tensor<8x8x1x1xbf16>) outs(%{{.*}} : tensor<1x8x4x4xf32>)
func.func @unused_bf16(%arg0: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %w = arith.constant dense<-7.500000e-01> : tensor<8x8x1x1xbf16>
  %zero = arith.constant 0.000000e+00 : f32
  %e16 = tensor.empty() : tensor<1x8x4x4xbf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x8x4x4xf32>) outs(%e16 : tensor<1x8x4x4xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<1x8x4x4xbf16>
  %e32 = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t, %w : tensor<1x8x4x4xbf16>, tensor<8x8x1x1xbf16>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %c : tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func.func @extf_input_f16
// CHECK-NOT: arith.extf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %{{.*}} : tensor<1x8x4x4xf16>, tensor<8x8x1x1xf16>) outs(%{{.*}} : tensor<1x8x4x4xf32>)
func.func @extf_input_f16(%arg0: tensor<1x8x4x4xf16>) -> tensor<1x8x4x4xf32> {
  %w = arith.constant dense<2.500000e-01> : tensor<8x8x1x1xf16>
  %zero = arith.constant 0.000000e+00 : f32
  %e32 = tensor.empty() : tensor<1x8x4x4xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x8x4x4xf16>) outs(%e32 : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %r = arith.extf %in : f16 to f32
    linalg.yield %r : f32
  } -> tensor<1x8x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x8x4x4xf32>, tensor<8x8x1x1xf16>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %c : tensor<1x8x4x4xf32>
}

// The scale after the first conv folds into it (through the widened form); the second
// conv then reads the first's f32 result and gets its truncf back.
// CHECK-LABEL: func.func @bn_then_conv_f16
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK-NOT: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: arith.mulf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
func.func @bn_then_conv_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %w0 = arith.constant dense<[[[[0.5]], [[0.0]]], [[[0.0]], [[2.0]]]]> : tensor<2x2x1x1xf16>
  %w1 = arith.constant dense<[[[[1.5]], [[0.25]]], [[[-0.5]], [[2.0]]]]> : tensor<2x2x1x1xf16>
  %gamma = arith.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf16>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xf16>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %t0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %s = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t0, %gamma : tensor<1x2x4x4xf16>, tensor<2x1x1xf16>) outs(%e32 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f16, %g: f16, %out: f32):
    %a = arith.extf %in : f16 to f32
    %b = arith.extf %g : f16 to f32
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t1, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c1 : tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @f32_untouched
// CHECK-NOT: truncf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %{{.*}} : tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) outs(%{{.*}} : tensor<1x8x4x4xf32>)
// CHECK-NOT: truncf
// CHECK: return
func.func @f32_untouched(%arg0: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %w = arith.constant dense<5.000000e-01> : tensor<8x8x1x1xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e32 = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %w : tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %c : tensor<1x8x4x4xf32>
}

// Guard: the narrow operand must be the constant weight. A wide constant matrix with a
// narrow runtime vector (legalize-for-heir's form of a conv reading f16) is left alone:
// rounding the matrix would lose its f32 digits.
// CHECK-LABEL: func.func @wide_matrix_narrow_vector
// CHECK-NOT: truncf
// CHECK: linalg.matvec ins(%{{.*}}, %arg0 : tensor<4x4xf32>, tensor<4xf16>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NOT: truncf
// CHECK: return
func.func @wide_matrix_narrow_vector(%arg0: tensor<4xf16>) -> tensor<4xf32> {
  %m = arith.constant dense<[[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [-0.1, -0.2, -0.3, -0.4], [1.1, 1.2, 1.3, 1.4]]> : tensor<4x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = linalg.matvec ins(%m, %arg0 : tensor<4x4xf32>, tensor<4xf16>) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
