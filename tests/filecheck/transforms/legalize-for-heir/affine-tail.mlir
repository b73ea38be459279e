// legalize-for-heir: a constant scale and shift that end the activation before a
// matvec (a batch norm after x², fused into it by pointwise fusion, before the global
// average pool and the Linear) move into the matvec's matrix and init
// (`FoldAffineTailIntoMatvec`): conv, x², Linear is 3 levels, not 4.
// RUN: heirpy-opt %s -p legalize-for-heir | filecheck %s
// RUN: heirpy-opt %s -p legalize-for-heir -o %t
// RUN: heirpy-equiv %s %t --function main | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function main_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function shift_only | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function two_readers | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function grid_tail | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %s -p legalize-for-heir,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=DEPTH
// RUN: heirpy-opt %s -p legalize-for-heir | heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks > %t.ckks
// RUN: filecheck %s --check-prefix=CKKS < %t.ckks
// RUN: not grep bootstrap %t.ckks
// EQUIV: equivalent

// Three levels: Q holds four primes, and no bootstrap (`not grep`).
// CKKS: ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]{{[^0-9]}}

// DEPTH: @main {{ +}}3
// DEPTH: @main_f16 {{ +}}3
// DEPTH: @shift_only {{ +}}3
// DEPTH: @two_readers {{ +}}4

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>

// The activation yields the square; the Linear's 3x32 matrix and its init hold the
// scale and the shift.
// CHECK-LABEL: func.func @main(
// CHECK:       %[[A:.*]] = linalg.generic {{.*}} ins(%{{[^ ,]*}} : tensor<32xf32>) outs(
// CHECK-NEXT:  ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[Q:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK-NEXT:    linalg.yield %[[Q]] : f32
// CHECK:       linalg.matvec ins(%{{.*}}, %[[A]] : tensor<3x32xf32>, tensor<32xf32>)
func.func @main(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.477, -0.403, 0.628], [-0.816, 0.200, 0.457], [-0.624, -0.890, -0.450]], [[0.315, 0.125, -0.700], [-0.135, 0.339, -0.154], [0.266, 0.935, 0.366]]], [[[-0.217, -0.625, -0.308], [0.022, 0.782, 0.551], [-0.364, 0.848, -0.058]], [[0.388, -0.786, -0.791], [-0.596, 0.769, 0.360], [0.698, 0.289, -0.187]]]]> : tensor<2x2x3x3xf32>
  %lin = arith.constant dense<[[0.033, 0.187, 0.724], [-0.124, 0.784, 0.227], [0.659, -0.004, 0.385], [-0.322, 0.046, -0.568], [-0.799, -0.923, 0.404], [-0.087, 0.795, 0.670], [-0.230, 0.947, 0.184], [0.532, -0.186, -0.608], [-0.656, -0.638, 0.208], [-0.775, -0.960, 0.666], [-0.801, -0.099, -0.023], [0.241, 0.008, 0.875], [0.501, 0.149, 0.235], [0.013, 0.930, -0.547], [0.378, 0.110, -0.916], [-0.408, 0.854, 0.569], [-0.974, -0.407, -0.980], [0.655, -0.779, -0.885], [0.964, -0.108, -0.363], [-0.902, -0.221, -0.268], [0.047, -0.986, -0.704], [-0.580, -0.119, -0.395], [0.227, -0.429, 0.819], [0.924, -0.881, -0.582], [0.126, 0.541, -0.872], [-0.630, -0.087, 0.337], [0.807, 0.734, 0.588], [-0.895, 0.953, 0.229], [-0.828, -0.490, 0.242], [-0.229, -0.107, 0.609], [0.648, 0.094, 0.585], [-0.188, 0.949, 0.210]]> : tensor<32x3xf32>
  %scale = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %shift = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %scale, %shift : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %q = arith.mulf %v, %v : f32
    %r = arith.mulf %q, %s : f32
    %u = arith.addf %r, %t : f32
    linalg.yield %u : f32
  } -> tensor<1x2x4x4xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x4x4xf32> into tensor<1x32xf32>
  %ye = tensor.empty() : tensor<1x3xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x3xf32>) -> tensor<1x3xf32>
  %y0 = linalg.matmul ins(%f, %lin : tensor<1x32xf32>, tensor<32x3xf32>) outs(%yz : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %y0 : tensor<1x3xf32>
}


// CHECK-LABEL: func.func @main_f16(
// CHECK:       %[[A:.*]] = linalg.generic {{.*}} ins(%{{[^ ,]*}} : tensor<32xf16>) outs(
// CHECK-NEXT:  ^bb0(%[[V:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:    %[[Q:.*]] = arith.mulf %[[V]], %[[V]] : f16
// CHECK-NEXT:    linalg.yield %[[Q]] : f16
// CHECK:       linalg.matvec ins(%{{.*}}, %[[A]] : tensor<3x32xf16>, tensor<32xf16>)
func.func @main_f16(%x: tensor<1x2x4x4xf16>) -> (tensor<1x3xf16>) {
  %zero = arith.constant 0.0 : f16
  %w = arith.constant dense<[[[[-0.477, -0.403, 0.628], [-0.816, 0.200, 0.457], [-0.624, -0.890, -0.450]], [[0.315, 0.125, -0.700], [-0.135, 0.339, -0.154], [0.266, 0.935, 0.366]]], [[[-0.217, -0.625, -0.308], [0.022, 0.782, 0.551], [-0.364, 0.848, -0.058]], [[0.388, -0.786, -0.791], [-0.596, 0.769, 0.360], [0.698, 0.289, -0.187]]]]> : tensor<2x2x3x3xf16>
  %lin = arith.constant dense<[[0.033, 0.187, 0.724], [-0.124, 0.784, 0.227], [0.659, -0.004, 0.385], [-0.322, 0.046, -0.568], [-0.799, -0.923, 0.404], [-0.087, 0.795, 0.670], [-0.230, 0.947, 0.184], [0.532, -0.186, -0.608], [-0.656, -0.638, 0.208], [-0.775, -0.960, 0.666], [-0.801, -0.099, -0.023], [0.241, 0.008, 0.875], [0.501, 0.149, 0.235], [0.013, 0.930, -0.547], [0.378, 0.110, -0.916], [-0.408, 0.854, 0.569], [-0.974, -0.407, -0.980], [0.655, -0.779, -0.885], [0.964, -0.108, -0.363], [-0.902, -0.221, -0.268], [0.047, -0.986, -0.704], [-0.580, -0.119, -0.395], [0.227, -0.429, 0.819], [0.924, -0.881, -0.582], [0.126, 0.541, -0.872], [-0.630, -0.087, 0.337], [0.807, 0.734, 0.588], [-0.895, 0.953, 0.229], [-0.828, -0.490, 0.242], [-0.229, -0.107, 0.609], [0.648, 0.094, 0.585], [-0.188, 0.949, 0.210]]> : tensor<32x3xf16>
  %scale = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf16>
  %shift = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf16>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
  %e = tensor.empty() : tensor<1x2x4x4xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>) outs(%z : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %a = linalg.generic {indexing_maps = [#id, #chan, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %scale, %shift : tensor<1x2x4x4xf16>, tensor<2x1x1xf16>, tensor<2x1x1xf16>) outs(%e : tensor<1x2x4x4xf16>) {
  ^bb0(%v: f16, %s: f16, %t: f16, %o: f16):
    %q = arith.mulf %v, %v : f16
    %r = arith.mulf %q, %s : f16
    %u = arith.addf %r, %t : f16
    linalg.yield %u : f16
  } -> tensor<1x2x4x4xf16>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x4x4xf16> into tensor<1x32xf16>
  %ye = tensor.empty() : tensor<1x3xf16>
  %yz = linalg.fill ins(%zero : f16) outs(%ye : tensor<1x3xf16>) -> tensor<1x3xf16>
  %y0 = linalg.matmul ins(%f, %lin : tensor<1x32xf16>, tensor<32x3xf16>) outs(%yz : tensor<1x3xf16>) -> tensor<1x3xf16>
  return %y0 : tensor<1x3xf16>
}


// Guard (a scale in the tail): a shift alone costs no level and stays.
// CHECK-LABEL: func.func @shift_only(
// CHECK:       linalg.generic
// CHECK:       arith.addf
// CHECK:       linalg.matvec
func.func @shift_only(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.477, -0.403, 0.628], [-0.816, 0.200, 0.457], [-0.624, -0.890, -0.450]], [[0.315, 0.125, -0.700], [-0.135, 0.339, -0.154], [0.266, 0.935, 0.366]]], [[[-0.217, -0.625, -0.308], [0.022, 0.782, 0.551], [-0.364, 0.848, -0.058]], [[0.388, -0.786, -0.791], [-0.596, 0.769, 0.360], [0.698, 0.289, -0.187]]]]> : tensor<2x2x3x3xf32>
  %lin = arith.constant dense<[[0.033, 0.187, 0.724], [-0.124, 0.784, 0.227], [0.659, -0.004, 0.385], [-0.322, 0.046, -0.568], [-0.799, -0.923, 0.404], [-0.087, 0.795, 0.670], [-0.230, 0.947, 0.184], [0.532, -0.186, -0.608], [-0.656, -0.638, 0.208], [-0.775, -0.960, 0.666], [-0.801, -0.099, -0.023], [0.241, 0.008, 0.875], [0.501, 0.149, 0.235], [0.013, 0.930, -0.547], [0.378, 0.110, -0.916], [-0.408, 0.854, 0.569], [-0.974, -0.407, -0.980], [0.655, -0.779, -0.885], [0.964, -0.108, -0.363], [-0.902, -0.221, -0.268], [0.047, -0.986, -0.704], [-0.580, -0.119, -0.395], [0.227, -0.429, 0.819], [0.924, -0.881, -0.582], [0.126, 0.541, -0.872], [-0.630, -0.087, 0.337], [0.807, 0.734, 0.588], [-0.895, 0.953, 0.229], [-0.828, -0.490, 0.242], [-0.229, -0.107, 0.609], [0.648, 0.094, 0.585], [-0.188, 0.949, 0.210]]> : tensor<32x3xf32>
  %scale = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %shift = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %scale, %shift : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %q = arith.mulf %v, %v : f32
    %u = arith.addf %q, %t : f32
    linalg.yield %u : f32
  } -> tensor<1x2x4x4xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x4x4xf32> into tensor<1x32xf32>
  %ye = tensor.empty() : tensor<1x3xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x3xf32>) -> tensor<1x3xf32>
  %y0 = linalg.matmul ins(%f, %lin : tensor<1x32xf32>, tensor<32x3xf32>) outs(%yz : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %y0 : tensor<1x3xf32>
}


// Guard (affine): s / x² is no affine map of x², and stays.
// CHECK-LABEL: func.func @reciprocal(
// CHECK:       linalg.generic
// CHECK:       arith.divf
// CHECK:       linalg.matvec
func.func @reciprocal(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.477, -0.403, 0.628], [-0.816, 0.200, 0.457], [-0.624, -0.890, -0.450]], [[0.315, 0.125, -0.700], [-0.135, 0.339, -0.154], [0.266, 0.935, 0.366]]], [[[-0.217, -0.625, -0.308], [0.022, 0.782, 0.551], [-0.364, 0.848, -0.058]], [[0.388, -0.786, -0.791], [-0.596, 0.769, 0.360], [0.698, 0.289, -0.187]]]]> : tensor<2x2x3x3xf32>
  %lin = arith.constant dense<[[0.033, 0.187, 0.724], [-0.124, 0.784, 0.227], [0.659, -0.004, 0.385], [-0.322, 0.046, -0.568], [-0.799, -0.923, 0.404], [-0.087, 0.795, 0.670], [-0.230, 0.947, 0.184], [0.532, -0.186, -0.608], [-0.656, -0.638, 0.208], [-0.775, -0.960, 0.666], [-0.801, -0.099, -0.023], [0.241, 0.008, 0.875], [0.501, 0.149, 0.235], [0.013, 0.930, -0.547], [0.378, 0.110, -0.916], [-0.408, 0.854, 0.569], [-0.974, -0.407, -0.980], [0.655, -0.779, -0.885], [0.964, -0.108, -0.363], [-0.902, -0.221, -0.268], [0.047, -0.986, -0.704], [-0.580, -0.119, -0.395], [0.227, -0.429, 0.819], [0.924, -0.881, -0.582], [0.126, 0.541, -0.872], [-0.630, -0.087, 0.337], [0.807, 0.734, 0.588], [-0.895, 0.953, 0.229], [-0.828, -0.490, 0.242], [-0.229, -0.107, 0.609], [0.648, 0.094, 0.585], [-0.188, 0.949, 0.210]]> : tensor<32x3xf32>
  %scale = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %shift = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %scale, %shift : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %q = arith.mulf %v, %v : f32
    %u = arith.divf %s, %q : f32
    linalg.yield %u : f32
  } -> tensor<1x2x4x4xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x4x4xf32> into tensor<1x32xf32>
  %ye = tensor.empty() : tensor<1x3xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x3xf32>) -> tensor<1x3xf32>
  %y0 = linalg.matmul ins(%f, %lin : tensor<1x32xf32>, tensor<32x3xf32>) outs(%yz : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %y0 : tensor<1x3xf32>
}


// Guard (one reader): the activation read by two Linears keeps its scale (it would
// have to fold into both).
// CHECK-LABEL: func.func @two_readers(
// CHECK:       linalg.generic
// CHECK:       arith.mulf
// CHECK:       arith.mulf
// CHECK:       arith.addf
// CHECK:       linalg.matvec
// CHECK:       linalg.matvec
func.func @two_readers(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.477, -0.403, 0.628], [-0.816, 0.200, 0.457], [-0.624, -0.890, -0.450]], [[0.315, 0.125, -0.700], [-0.135, 0.339, -0.154], [0.266, 0.935, 0.366]]], [[[-0.217, -0.625, -0.308], [0.022, 0.782, 0.551], [-0.364, 0.848, -0.058]], [[0.388, -0.786, -0.791], [-0.596, 0.769, 0.360], [0.698, 0.289, -0.187]]]]> : tensor<2x2x3x3xf32>
  %lin = arith.constant dense<[[0.033, 0.187, 0.724], [-0.124, 0.784, 0.227], [0.659, -0.004, 0.385], [-0.322, 0.046, -0.568], [-0.799, -0.923, 0.404], [-0.087, 0.795, 0.670], [-0.230, 0.947, 0.184], [0.532, -0.186, -0.608], [-0.656, -0.638, 0.208], [-0.775, -0.960, 0.666], [-0.801, -0.099, -0.023], [0.241, 0.008, 0.875], [0.501, 0.149, 0.235], [0.013, 0.930, -0.547], [0.378, 0.110, -0.916], [-0.408, 0.854, 0.569], [-0.974, -0.407, -0.980], [0.655, -0.779, -0.885], [0.964, -0.108, -0.363], [-0.902, -0.221, -0.268], [0.047, -0.986, -0.704], [-0.580, -0.119, -0.395], [0.227, -0.429, 0.819], [0.924, -0.881, -0.582], [0.126, 0.541, -0.872], [-0.630, -0.087, 0.337], [0.807, 0.734, 0.588], [-0.895, 0.953, 0.229], [-0.828, -0.490, 0.242], [-0.229, -0.107, 0.609], [0.648, 0.094, 0.585], [-0.188, 0.949, 0.210]]> : tensor<32x3xf32>
  %scale = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %shift = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %scale, %shift : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %q = arith.mulf %v, %v : f32
    %r = arith.mulf %q, %s : f32
    %u = arith.addf %r, %t : f32
    linalg.yield %u : f32
  } -> tensor<1x2x4x4xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x4x4xf32> into tensor<1x32xf32>
  %ye = tensor.empty() : tensor<1x3xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x3xf32>) -> tensor<1x3xf32>
  %y0 = linalg.matmul ins(%f, %lin : tensor<1x32xf32>, tensor<32x3xf32>) outs(%yz : tensor<1x3xf32>) -> tensor<1x3xf32>
  %y1 = linalg.matmul ins(%f, %lin : tensor<1x32xf32>, tensor<32x3xf32>) outs(%yz : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %y0, %y1 : tensor<1x3xf32>, tensor<1x3xf32>
}

// The feature map before the pool and Linear stays 4-D (here the argument's square, as
// on the grid at ResNet-20's size): the scale and shift read per channel through their
// maps, and the collapse_shape to the matvec's vector stays.
// CHECK-LABEL: func.func @grid_tail(
// CHECK:       %[[A:.*]] = linalg.generic {{.*}} ins(%x : tensor<1x2x4x4xf32>) outs(
// CHECK-NEXT:  ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[Q:.*]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK-NEXT:    linalg.yield %[[Q]] : f32
// CHECK:       %[[F:.*]] = tensor.collapse_shape %[[A]] {{.*}} into tensor<32xf32>
// CHECK:       linalg.matvec ins(%{{.*}}, %[[F]] : tensor<3x32xf32>, tensor<32xf32>)
// DEPTH: @grid_tail {{ +}}2
func.func @grid_tail(%x: tensor<1x2x4x4xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant 0.0 : f32
  %lin = arith.constant dense<[[-0.829, -0.526, 0.603], [0.164, -0.812, -0.134], [-0.042, -0.681, 0.469], [-0.773, -0.218, 0.033], [-0.139, 0.174, 0.476], [0.913, -0.432, 0.297], [0.392, -0.415, -0.997], [0.947, -0.403, -0.372], [0.783, 0.170, -0.057], [0.547, -0.939, 0.414], [-0.252, -0.818, 0.321], [0.863, -0.586, 0.260], [-0.404, 0.484, 0.444], [-0.563, 0.660, 0.315], [0.366, 0.640, -0.143], [0.517, 0.757, -0.795], [0.700, -0.212, -0.041], [-0.707, 0.397, -0.416], [0.742, -0.449, 0.124], [-0.201, 0.226, -0.607], [-0.639, 0.494, 0.504], [0.134, 0.842, -0.588], [0.702, -0.662, 0.929], [0.247, 0.214, 0.941], [0.574, 0.580, -0.892], [-0.261, -0.830, -0.613], [-0.572, 0.717, -0.746], [-0.406, -0.014, 0.699], [0.930, 0.416, -0.573], [0.090, 0.412, -0.896], [0.360, -0.263, 0.179], [0.339, 0.338, 0.046]]> : tensor<32x3xf32>
  %scale = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %shift = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %scale, %shift : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%v: f32, %s: f32, %t: f32, %o: f32):
    %q = arith.mulf %v, %v : f32
    %r = arith.mulf %q, %s : f32
    %u = arith.addf %r, %t : f32
    linalg.yield %u : f32
  } -> tensor<1x2x4x4xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x4x4xf32> into tensor<1x32xf32>
  %ye = tensor.empty() : tensor<1x3xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x3xf32>) -> tensor<1x3xf32>
  %y = linalg.matmul ins(%f, %lin : tensor<1x32xf32>, tensor<32x3xf32>) outs(%yz : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}
