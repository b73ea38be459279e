// legalize-for-heir: an option-A shortcut (x[:, :, ::2, ::2] as torch-mlir writes it, one
// strided slice per dim, then zero channels by F.pad) of a block whose convs became
// matvecs reads the flat block input expanded back to 1xCxHxW, which HEIR rejects
// ("Only rank-reduced types are supported for ExpandShapeOp"). The slices and the pad
// become one selection matvec of the flat vector (`LayoutToMatvec`): a level on the
// shortcut, which is shallower than the block's conv, x², conv (3 levels, the bound).
// RUN: heirpy-opt %s -p legalize-for-heir | filecheck %s
// RUN: heirpy-opt %s -p legalize-for-heir -o %t
// RUN: heirpy-equiv %s %t --function main | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function main_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function half_pad | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function argument_slice | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %s -p legalize-for-heir | heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks > %t.ckks
// RUN: filecheck %s --check-prefix=CKKS < %t.ckks
// RUN: not grep bootstrap %t.ckks
// EQUIV: equivalent

// Three levels, the bound: Q holds four primes, and no bootstrap (`not grep`).
// CKKS: ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]{{[^0-9]}}

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// The block: conv (a matvec), x², a stride-2 conv (a matvec taking its pad in) and the
// shortcut, a 16x32 selection (2 of 4 channels, every second row and column; the zero
// channels are zero rows) of the same flat x²; the add reads both flat.
// CHECK-LABEL: func.func @main(
// CHECK-NOT:   tensor.expand_shape
// CHECK:       %[[S:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<32xf32>)
// CHECK:       %[[C:.*]] = linalg.matvec ins(%{{.*}}, %[[S]] : tensor<16x32xf32>, tensor<32xf32>)
// CHECK-NEXT:  %[[K:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK-NEXT:  %[[M:.*]] = arith.constant dense<"0x0000{{.*}}"> : tensor<16x32xf32>
// CHECK-NEXT:  %[[A:.*]] = linalg.matvec ins(%[[M]], %[[S]] : tensor<16x32xf32>, tensor<32xf32>) outs(%[[K]] : tensor<16xf32>)
// CHECK:       %[[Y:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[A]] : tensor<16xf32>, tensor<16xf32>)
// CHECK-NOT:   tensor.extract_slice
// CHECK-NOT:   tensor.pad
// CHECK:       return %[[Y]]

func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.274, -0.460, -0.918], [-0.967, 0.627, 0.826], [0.213, 0.459, 0.087]], [[0.870, 0.632, -0.995], [0.715, -0.933, 0.459], [-0.649, 0.726, 0.083]]], [[[-0.401, -0.155, -0.943], [-0.751, 0.341, 0.294], [0.231, -0.233, 0.994]], [[0.962, 0.371, 0.301], [0.377, -0.222, -0.730], [0.443, 0.051, -0.380]]]]> : tensor<2x2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.028, 0.779, 0.868], [-0.284, 0.143, -0.356], [0.189, -0.324, -0.217]], [[0.781, -0.546, 0.246], [-0.832, 0.665, 0.574], [-0.521, 0.753, -0.883]]], [[[-0.328, -0.699, -0.099], [0.593, -0.539, -0.896], [-0.191, -0.603, -0.818]], [[0.161, -0.403, 0.344], [-0.601, 0.884, -0.270], [-0.789, 0.258, 0.854]]], [[[-0.119, 0.909, -0.000], [-0.150, 0.240, 0.990], [0.898, -0.080, 0.515]], [[-0.005, 0.059, 0.572], [-0.171, 0.469, 0.422], [0.864, -0.770, 0.458]]], [[[0.855, 0.936, -0.971], [0.727, 0.962, 0.914], [-0.702, 0.945, 0.780]], [[0.645, -0.040, -0.535], [0.604, 0.847, -0.468], [0.078, -0.114, 0.862]]]]> : tensor<4x2x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e1 = tensor.empty() : tensor<1x2x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %h = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1 : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<1x2x4x4xf32>) outs(%e1 : tensor<1x2x4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %sp = tensor.pad %s low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e2 = tensor.empty() : tensor<1x4x2x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%sp, %w2 : tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) outs(%z2 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %r = tensor.extract_slice %s[0, 0, 0, 0] [1, 2, 2, 4] [1, 1, 2, 1] : tensor<1x2x4x4xf32> to tensor<1x2x2x4xf32>
  %q = tensor.extract_slice %r[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 2] : tensor<1x2x2x4xf32> to tensor<1x2x2x2xf32>
  %fill = arith.constant 0.0 : f32
  %a = tensor.pad %q low[0, 1, 0, 0] high[0, 1, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %fill : f32
  } : tensor<1x2x2x2xf32> to tensor<1x4x2x2xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %a : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) outs(%e2 : tensor<1x4x2x2xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %m = arith.addf %u, %v : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x2xf32>
  %f = tensor.collapse_shape %y [[0, 1, 2, 3]] : tensor<1x4x2x2xf32> into tensor<16xf32>
  return %f : tensor<16xf32>
}


// CHECK-LABEL: func.func @main_f16(
// CHECK:       %[[S:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<32xf16>)
// CHECK:       %[[K:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf16>
// CHECK-NEXT:  %[[M:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<16x32xf16>
// CHECK-NEXT:  linalg.matvec ins(%[[M]], %[[S]] : tensor<16x32xf16>, tensor<32xf16>) outs(%[[K]] : tensor<16xf16>)
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return
func.func @main_f16(%x: tensor<1x2x4x4xf16>) -> tensor<16xf16> {
  %zero = arith.constant 0.0 : f16
  %w1 = arith.constant dense<[[[[0.274, -0.460, -0.918], [-0.967, 0.627, 0.826], [0.213, 0.459, 0.087]], [[0.870, 0.632, -0.995], [0.715, -0.933, 0.459], [-0.649, 0.726, 0.083]]], [[[-0.401, -0.155, -0.943], [-0.751, 0.341, 0.294], [0.231, -0.233, 0.994]], [[0.962, 0.371, 0.301], [0.377, -0.222, -0.730], [0.443, 0.051, -0.380]]]]> : tensor<2x2x3x3xf16>
  %w2 = arith.constant dense<[[[[-0.028, 0.779, 0.868], [-0.284, 0.143, -0.356], [0.189, -0.324, -0.217]], [[0.781, -0.546, 0.246], [-0.832, 0.665, 0.574], [-0.521, 0.753, -0.883]]], [[[-0.328, -0.699, -0.099], [0.593, -0.539, -0.896], [-0.191, -0.603, -0.818]], [[0.161, -0.403, 0.344], [-0.601, 0.884, -0.270], [-0.789, 0.258, 0.854]]], [[[-0.119, 0.909, -0.000], [-0.150, 0.240, 0.990], [0.898, -0.080, 0.515]], [[-0.005, 0.059, 0.572], [-0.171, 0.469, 0.422], [0.864, -0.770, 0.458]]], [[[0.855, 0.936, -0.971], [0.727, 0.962, 0.914], [-0.702, 0.945, 0.780]], [[0.645, -0.040, -0.535], [0.604, 0.847, -0.468], [0.078, -0.114, 0.862]]]]> : tensor<4x2x3x3xf16>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
  %e1 = tensor.empty() : tensor<1x2x4x4xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %h = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1 : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>) outs(%z1 : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<1x2x4x4xf16>) outs(%e1 : tensor<1x2x4x4xf16>) {
  ^bb0(%v: f16, %o: f16):
    %m = arith.mulf %v, %v : f16
    linalg.yield %m : f16
  } -> tensor<1x2x4x4xf16>
  %sp = tensor.pad %s low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
  %e2 = tensor.empty() : tensor<1x4x2x2xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x4x2x2xf16>) -> tensor<1x4x2x2xf16>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%sp, %w2 : tensor<1x2x6x6xf16>, tensor<4x2x3x3xf16>) outs(%z2 : tensor<1x4x2x2xf16>) -> tensor<1x4x2x2xf16>
  %r = tensor.extract_slice %s[0, 0, 0, 0] [1, 2, 2, 4] [1, 1, 2, 1] : tensor<1x2x4x4xf16> to tensor<1x2x2x4xf16>
  %q = tensor.extract_slice %r[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 2] : tensor<1x2x2x4xf16> to tensor<1x2x2x2xf16>
  %fill = arith.constant 0.0 : f16
  %a = tensor.pad %q low[0, 1, 0, 0] high[0, 1, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %fill : f16
  } : tensor<1x2x2x2xf16> to tensor<1x4x2x2xf16>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %a : tensor<1x4x2x2xf16>, tensor<1x4x2x2xf16>) outs(%e2 : tensor<1x4x2x2xf16>) {
  ^bb0(%u: f16, %v: f16, %o: f16):
    %m = arith.addf %u, %v : f16
    linalg.yield %m : f16
  } -> tensor<1x4x2x2xf16>
  %f = tensor.collapse_shape %y [[0, 1, 2, 3]] : tensor<1x4x2x2xf16> into tensor<16xf16>
  return %f : tensor<16xf16>
}


// A pad of another constant: the init holds it where a row reads padding (the first
// and last four rows: channels 0 and 3).
// CHECK-LABEL: func.func @half_pad(
// CHECK:       %[[K:.*]] = arith.constant dense<[5.000000e-01, 5.000000e-01, 5.000000e-01, 5.000000e-01, 0.000000e+00, {{.*}}, 0.000000e+00, 5.000000e-01, 5.000000e-01, 5.000000e-01, 5.000000e-01]> : tensor<16xf32>
// CHECK-NEXT:  arith.constant
// CHECK-NEXT:  linalg.matvec ins({{.*}} : tensor<16x32xf32>, tensor<32xf32>) outs(%[[K]] : tensor<16xf32>)
func.func @half_pad(%x: tensor<1x2x4x4xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.274, -0.460, -0.918], [-0.967, 0.627, 0.826], [0.213, 0.459, 0.087]], [[0.870, 0.632, -0.995], [0.715, -0.933, 0.459], [-0.649, 0.726, 0.083]]], [[[-0.401, -0.155, -0.943], [-0.751, 0.341, 0.294], [0.231, -0.233, 0.994]], [[0.962, 0.371, 0.301], [0.377, -0.222, -0.730], [0.443, 0.051, -0.380]]]]> : tensor<2x2x3x3xf32>
  %w2 = arith.constant dense<[[[[-0.028, 0.779, 0.868], [-0.284, 0.143, -0.356], [0.189, -0.324, -0.217]], [[0.781, -0.546, 0.246], [-0.832, 0.665, 0.574], [-0.521, 0.753, -0.883]]], [[[-0.328, -0.699, -0.099], [0.593, -0.539, -0.896], [-0.191, -0.603, -0.818]], [[0.161, -0.403, 0.344], [-0.601, 0.884, -0.270], [-0.789, 0.258, 0.854]]], [[[-0.119, 0.909, -0.000], [-0.150, 0.240, 0.990], [0.898, -0.080, 0.515]], [[-0.005, 0.059, 0.572], [-0.171, 0.469, 0.422], [0.864, -0.770, 0.458]]], [[[0.855, 0.936, -0.971], [0.727, 0.962, 0.914], [-0.702, 0.945, 0.780]], [[0.645, -0.040, -0.535], [0.604, 0.847, -0.468], [0.078, -0.114, 0.862]]]]> : tensor<4x2x3x3xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e1 = tensor.empty() : tensor<1x2x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %h = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1 : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z1 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<1x2x4x4xf32>) outs(%e1 : tensor<1x2x4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %sp = tensor.pad %s low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e2 = tensor.empty() : tensor<1x4x2x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%sp, %w2 : tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) outs(%z2 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %r = tensor.extract_slice %s[0, 0, 0, 0] [1, 2, 2, 4] [1, 1, 2, 1] : tensor<1x2x4x4xf32> to tensor<1x2x2x4xf32>
  %q = tensor.extract_slice %r[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 1, 2] : tensor<1x2x2x4xf32> to tensor<1x2x2x2xf32>
  %fill = arith.constant 0.5 : f32
  %a = tensor.pad %q low[0, 1, 0, 0] high[0, 1, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %fill : f32
  } : tensor<1x2x2x2xf32> to tensor<1x4x2x2xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %a : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) outs(%e2 : tensor<1x4x2x2xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %m = arith.addf %u, %v : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x2xf32>
  %f = tensor.collapse_shape %y [[0, 1, 2, 3]] : tensor<1x4x2x2xf32> into tensor<16xf32>
  return %f : tensor<16xf32>
}

// Guard (the run starts at a flat vector, expanded): a slice and pad of the argument, a
// value HEIR lays out as it is, stay.
// CHECK-LABEL: func.func @argument_slice(
// CHECK:       tensor.extract_slice %x
// CHECK:       tensor.pad
// CHECK-NOT:   linalg.matvec
// CHECK:       return
func.func @argument_slice(%x: tensor<1x2x4x4xf32>) -> tensor<1x4x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %q = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 2, 2] : tensor<1x2x4x4xf32> to tensor<1x2x2x2xf32>
  %a = tensor.pad %q low[0, 1, 0, 0] high[0, 1, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x2x2xf32> to tensor<1x4x2x2xf32>
  %e = tensor.empty() : tensor<1x4x2x2xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x4x2x2xf32>) outs(%e : tensor<1x4x2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<1x4x2x2xf32>
  return %y : tensor<1x4x2x2xf32>
}
