// linalg-fuse-linear-chains: scales (a batch-norm) with no linear op before them fold
// into the chain that follows (its weights along the input channels, the shift into
// its init), saving their level.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | filecheck %s

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
// A batch-norm on the input, then a conv: the scale goes into the weights along the
// input-channel axis (channel 0 x3, channel 1 x2), the shift through the conv into
// its init (no padding: one value per output channel).
// CHECK-LABEL: func.func @bn_conv(
// CHECK:      %[[W:.*]] = arith.constant dense<{{\[}}[{{\[}}[3.000000e+00, -3.000000e+00], [1.500000e+00, 6.000000e+00]], {{\[}}[5.000000e-01, 0.000000e+00], [-1.000000e+00, 2.000000e+00]]], {{.*}}> : tensor<2x2x2x2xf32>
// CHECK:      %[[B:.*]] = arith.constant dense<[-8.750000e+00, -1.150000e+01]> : tensor<2xf32>
// CHECK:      %[[I:.*]] = linalg.broadcast ins(%[[B]]
// CHECK:      %[[Y:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : {{.*}} outs(%[[I]] :
// CHECK-NEXT: return %[[Y]]

// -----

func.func @bn_pad_conv(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]], [[0.25, 0.0], [-0.5, 1.0]]], [[[0.0, 1.0], [1.0, 0.0]], [[2.0, -2.0], [1.0, 0.5]]]]> : tensor<2x2x2x2xf32>
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<1x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %be = tensor.empty() : tensor<1x2x3x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%be : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x3x3xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %gamma : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ce : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %de = tensor.empty() : tensor<1x2x3x3xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %beta : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%de : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %p = tensor.pad %d low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x3x3xf32> to tensor<1x2x5x5xf32>
  %ye = tensor.empty() : tensor<1x2x4x4xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%yz : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
// With a zero pad between, the shift is NOT a per-channel constant after the conv: a
// border output reads padded zeros, not shifted ones. The init is the exact bias map
// (corner -9, interior -8.75), and the pad moves to the input.
// CHECK-LABEL: func.func @bn_pad_conv(
// CHECK:      %[[P:.*]] = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:      %[[I:.*]] = arith.constant dense<{{\[}}[{{\[}}[-9.000000e+00, -7.500000e+00, -7.500000e+00, 1.500000e+00], [-7.000000e+00, -8.750000e+00, {{.*}}> : tensor<1x2x4x4xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%[[I]] :
// CHECK-NEXT: return %[[Y]]

// -----

func.func @shift_conv(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]], [[0.25, 0.0], [-0.5, 1.0]]], [[[0.0, 1.0], [1.0, 0.0]], [[2.0, -2.0], [1.0, 0.5]]]]> : tensor<2x2x2x2xf32>
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<1x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %ye = tensor.empty() : tensor<1x2x2x2xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %w : tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) outs(%yz : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}
// Negative: a shift alone before the conv costs no level; it stays outside.
// CHECK-LABEL: func.func @shift_conv(
// CHECK:      %[[A:.*]] = linalg.generic
// CHECK:      arith.subf
// CHECK:      linalg.conv_2d_nchw_fchw {{.*}} ins(%[[A]], %w :

// -----

func.func @bn_used_twice(%x: tensor<1x2x3x3xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]], [[0.25, 0.0], [-0.5, 1.0]]], [[[0.0, 1.0], [1.0, 0.0]], [[2.0, -2.0], [1.0, 0.5]]]]> : tensor<2x2x2x2xf32>
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<1x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %be = tensor.empty() : tensor<1x2x3x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%be : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %ce = tensor.empty() : tensor<1x2x3x3xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %gamma : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%ce : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %de = tensor.empty() : tensor<1x2x3x3xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %beta : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%de : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %ye = tensor.empty() : tensor<1x2x2x2xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %w : tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) outs(%yz : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %y, %d : tensor<1x2x2x2xf32>, tensor<1x2x3x3xf32>
}
// Guard (single use): the batch-norm's result is also returned; nothing moves.
// CHECK-LABEL: func.func @bn_used_twice(
// CHECK:      arith.mulf
// CHECK:      arith.mulf
// CHECK:      %[[D:.*]] = linalg.generic
// CHECK:      linalg.conv_2d_nchw_fchw {{.*}} ins(%[[D]], %w :

// -----

func.func @bn_head(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0, -1.0], [0.5, 2.0]], [[0.25, 0.0], [-0.5, 1.0]]], [[[0.0, 1.0], [1.0, 0.0]], [[2.0, -2.0], [1.0, 0.5]]]]> : tensor<2x2x2x2xf32>
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<1x2x6x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x2x6x6xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %be = tensor.empty() : tensor<1x2x6x6xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x6x6xf32>, tensor<2x1x1xf32>) outs(%be : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %ce = tensor.empty() : tensor<1x2x6x6xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %gamma : tensor<1x2x6x6xf32>, tensor<2x1x1xf32>) outs(%ce : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %de = tensor.empty() : tensor<1x2x6x6xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %beta : tensor<1x2x6x6xf32>, tensor<2x1x1xf32>) outs(%de : tensor<1x2x6x6xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x6x6xf32>
  %c1e = tensor.empty() : tensor<1x2x5x5xf32>
  %c1z = linalg.fill ins(%zero : f32) outs(%c1e : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %w : tensor<1x2x6x6xf32>, tensor<2x2x2x2xf32>) outs(%c1z : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %p = tensor.pad %c1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>
  %ye = tensor.empty() : tensor<1x2x6x6xf32>
  %yz = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x7x7xf32>, tensor<2x2x2x2xf32>) outs(%yz : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %y : tensor<1x2x6x6xf32>
}
// The whole chain (batch-norm, conv, pad, conv) is refused by the cost rule (as a
// matrix: 72x72 for 40 weights); its head, the batch-norm and the first conv, still
// fuses (a conv, no weight growth), and the rest stays as it was.
// CHECK-LABEL: func.func @bn_head(
// CHECK:      %[[W:.*]] = arith.constant dense<{{\[}}[{{\[}}[3.000000e+00, -3.000000e+00], {{.*}}> : tensor<2x2x2x2xf32>
// CHECK:      %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x6x6xf32>
// CHECK:      %[[P:.*]] = tensor.pad %[[C]]
// CHECK:      linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %w :
