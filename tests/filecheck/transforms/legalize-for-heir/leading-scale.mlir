// legalize-for-heir: a dense stage takes in the elementwise ops that compute its input
// when one of them scales (a batch-norm on the input, or after an x²): one matvec, one
// level, instead of a plaintext multiply and the matvec.
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{flat-results=true}' 2>/dev/null | filecheck %s

func.func @bn_conv(%x: tensor<2x2x3x3xf32>) -> tensor<2x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]], [[0.25, 0.0], [-0.5, 1.0]]], [[[0.0, 1.0], [1.0, 0.0]], [[2.0, -2.0], [1.0, 0.5]]]]> : tensor<2x2x2x2xf32>
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<2x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %be = tensor.empty() : tensor<2x2x3x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%be : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %ce = tensor.empty() : tensor<2x2x3x3xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %gamma : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ce : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %de = tensor.empty() : tensor<2x2x3x3xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %beta : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%de : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %ye = tensor.empty() : tensor<2x2x2x2xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %w : tensor<2x2x3x3xf32>, tensor<2x2x2x2xf32>) outs(%yz : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  return %y : tensor<2x2x2x2xf32>
}
// A batch-2 batch-norm on the input, then a conv: ONE block-diagonal matvec of the
// input itself, the batch-norm inside the matrix and its init.
// CHECK-LABEL: func.func @bn_conv(
// CHECK-NEXT: %[[F:.*]] = tensor.collapse_shape %x {{.*}} into tensor<36xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[-8.750000e+00, {{.*}}> : tensor<16xf32>
// CHECK-NEXT: %[[A:.*]] = arith.constant dense<{{.*}}> : tensor<16x36xf32>
// CHECK-NEXT: %[[V:.*]] = linalg.matvec ins(%[[A]], %[[F]] : tensor<16x36xf32>, tensor<36xf32>) outs(%[[B]] :
// CHECK-NEXT: return %[[V]]

// -----

func.func @shift_conv(%x: tensor<2x2x3x3xf32>) -> tensor<2x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]], [[0.25, 0.0], [-0.5, 1.0]]], [[[0.0, 1.0], [1.0, 0.0]], [[2.0, -2.0], [1.0, 0.5]]]]> : tensor<2x2x2x2xf32>
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<2x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %ye = tensor.empty() : tensor<2x2x2x2xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %w : tensor<2x2x3x3xf32>, tensor<2x2x2x2xf32>) outs(%yz : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  return %y : tensor<2x2x2x2xf32>
}
// Guard (a scale among the leading ops): a shift alone costs no level and stays.
// CHECK-LABEL: func.func @shift_conv(
// CHECK:      arith.subf
// CHECK:      linalg.matvec

// -----

func.func @bn_used_twice(%x: tensor<2x2x3x3xf32>) -> (tensor<2x2x2x2xf32>, tensor<2x2x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]], [[0.25, 0.0], [-0.5, 1.0]]], [[[0.0, 1.0], [1.0, 0.0]], [[2.0, -2.0], [1.0, 0.5]]]]> : tensor<2x2x2x2xf32>
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<2x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %be = tensor.empty() : tensor<2x2x3x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%be : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %ce = tensor.empty() : tensor<2x2x3x3xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %gamma : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ce : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %de = tensor.empty() : tensor<2x2x3x3xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %beta : tensor<2x2x3x3xf32>, tensor<2x1x1xf32>) outs(%de : tensor<2x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3xf32>
  %ye = tensor.empty() : tensor<2x2x2x2xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %w : tensor<2x2x3x3xf32>, tensor<2x2x2x2xf32>) outs(%yz : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  return %y, %d : tensor<2x2x2x2xf32>, tensor<2x2x3x3xf32>
}
// Guard (single use): the batch-norm's result is also returned; it stays, and the
// matvec reads it.
// CHECK-LABEL: func.func @bn_used_twice(
// CHECK:      arith.mulf
// CHECK:      arith.mulf
// CHECK:      %[[D:.*]] = linalg.generic
// CHECK:      tensor.collapse_shape %[[D]]
// CHECK:      linalg.matvec
