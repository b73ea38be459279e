// A batch norm after an activation read by a conv and by the shortcut (an add): the
// conv gets its own copy of the BN's ops, which linalg-fuse-ops folds into its filter,
// and the add keeps the original (canonicalize/affine_readers.py). Without the copy the
// BN stays and its multiply costs the conv a level (depth 3 instead of 2).
// RUN: heirpy-opt %s -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s -p linalg-canonicalizations -o %t
// RUN: heirpy-equiv %s %t --function bn_after_square | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function bn_after_square_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function two_convs | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function bn_after_conv | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %s -p 'heir-prepare,report-depth' 2>&1 >/dev/null | filecheck %s --check-prefix=DEPTH
// RUN: heirpy-opt %s -p 'linalg-canonicalizations{max-mac-growth=1}' | filecheck %s --check-prefix=MAC
// EQUIV: equivalent

// x² 1, the conv with the BN in its filter 2, the add (the BN on the shortcut: 2) 2.
// DEPTH: @bn_after_square {{ +}}2
// DEPTH: @bn_after_square_f16 {{ +}}2
// DEPTH: @two_convs {{ +}}2
// DEPTH: @shift_only {{ +}}2

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>

// CHECK-LABEL: func.func @bn_after_square(
// CHECK:       %[[S:.*]] = arith.mulf %x, %x
// CHECK:       %[[A:.*]] = linalg.generic {{.*}} ins(%[[S]], %mean
// CHECK:       %[[B:.*]] = linalg.generic {{.*}} ins(%[[A]], %inv
// CHECK:       %[[A1:.*]] = linalg.generic {{.*}} ins(%[[S]], %mean
// CHECK:       %[[B1:.*]] = linalg.generic {{.*}} ins(%[[A1]], %inv
// CHECK:       tensor.pad %[[B1]]
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK:       arith.addf %[[C]], %[[B]]
// A back end that pays MACs keeps one BN.
// MAC-LABEL:   func.func @bn_after_square(
// MAC-COUNT-2: linalg.generic
// MAC-NOT:     linalg.generic
// MAC:         return
// MAC-LABEL: func.func @bn_after_square_f16(
func.func @bn_after_square(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[0.024, 0.901, -0.712], [0.897, -0.376, -0.153], [0.655, -0.182, 0.099]], [[-0.945, 0.507, 0.076], [-0.341, 0.577, -0.394], [-0.093, -0.732, -0.194]]], [[[-0.593, -0.475, 0.501], [-0.439, -0.030, 0.961], [0.923, 0.450, 0.082]], [[-0.446, -0.679, 0.940], [0.032, -0.768, 0.247], [0.553, 0.226, 0.835]]]]> : tensor<2x2x3x3xf32>
  %w1 = arith.constant dense<[[[[-0.921]], [[0.057]]], [[[-0.081]], [[-0.875]]]]> : tensor<2x2x1x1xf32>
  %mean = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %s = arith.mulf %x, %x : tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mean : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %p = tensor.pad %b low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = arith.addf %c, %b : tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}


// CHECK-LABEL: func.func @bn_after_square_f16(
// CHECK-COUNT-4: linalg.generic
// CHECK:       linalg.conv_2d_nchw_fchw
func.func @bn_after_square_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16> {
  %zero = arith.constant 0.0 : f16
  %w = arith.constant dense<[[[[0.024, 0.901, -0.712], [0.897, -0.376, -0.153], [0.655, -0.182, 0.099]], [[-0.945, 0.507, 0.076], [-0.341, 0.577, -0.394], [-0.093, -0.732, -0.194]]], [[[-0.593, -0.475, 0.501], [-0.439, -0.030, 0.961], [0.923, 0.450, 0.082]], [[-0.446, -0.679, 0.940], [0.032, -0.768, 0.247], [0.553, 0.226, 0.835]]]]> : tensor<2x2x3x3xf16>
  %w1 = arith.constant dense<[[[[-0.921]], [[0.057]]], [[[-0.081]], [[-0.875]]]]> : tensor<2x2x1x1xf16>
  %mean = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf16>
  %inv = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf16>
  %s = arith.mulf %x, %x : tensor<1x2x4x4xf16>
  %e = tensor.empty() : tensor<1x2x4x4xf16>
  %a = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mean : tensor<1x2x4x4xf16>, tensor<2x1x1xf16>) outs(%e : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f16, %k: f16, %o: f16):
    %r = arith.subf %in, %k : f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %b = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x4x4xf16>, tensor<2x1x1xf16>) outs(%e : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f16, %k: f16, %o: f16):
    %r = arith.mulf %in, %k : f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %p = tensor.pad %b low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf16>, tensor<2x2x3x3xf16>) outs(%z : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %y = arith.addf %c, %b : tensor<1x2x4x4xf16>
  return %y : tensor<1x2x4x4xf16>
}


// Every reader a conv (a 3x3 through its pad, and a 1x1, option B's shortcut): the
// original keeps one, the other gets the copy.
// CHECK-LABEL: func.func @two_convs(
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @two_convs(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[0.024, 0.901, -0.712], [0.897, -0.376, -0.153], [0.655, -0.182, 0.099]], [[-0.945, 0.507, 0.076], [-0.341, 0.577, -0.394], [-0.093, -0.732, -0.194]]], [[[-0.593, -0.475, 0.501], [-0.439, -0.030, 0.961], [0.923, 0.450, 0.082]], [[-0.446, -0.679, 0.940], [0.032, -0.768, 0.247], [0.553, 0.226, 0.835]]]]> : tensor<2x2x3x3xf32>
  %w1 = arith.constant dense<[[[[-0.921]], [[0.057]]], [[[-0.081]], [[-0.875]]]]> : tensor<2x2x1x1xf32>
  %mean = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %s = arith.mulf %x, %x : tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mean : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %p = tensor.pad %b low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = arith.addf %c, %c1 : tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}


// Guard (a scale in the run): a shift alone costs no level and is not copied.
// CHECK-LABEL: func.func @shift_only(
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @shift_only(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[0.024, 0.901, -0.712], [0.897, -0.376, -0.153], [0.655, -0.182, 0.099]], [[-0.945, 0.507, 0.076], [-0.341, 0.577, -0.394], [-0.093, -0.732, -0.194]]], [[[-0.593, -0.475, 0.501], [-0.439, -0.030, 0.961], [0.923, 0.450, 0.082]], [[-0.446, -0.679, 0.940], [0.032, -0.768, 0.247], [0.553, 0.226, 0.835]]]]> : tensor<2x2x3x3xf32>
  %w1 = arith.constant dense<[[[[-0.921]], [[0.057]]], [[[-0.081]], [[-0.875]]]]> : tensor<2x2x1x1xf32>
  %mean = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %s = arith.mulf %x, %x : tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mean : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %p = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = arith.addf %c, %a : tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}


// Guard (a linear reader): a BN read twice by an add stays one.
// CHECK-LABEL: func.func @no_linear_reader(
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @no_linear_reader(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %mean = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %s = arith.mulf %x, %x : tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mean : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %y = arith.addf %b, %b : tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// Guard (no linear op before the run): a BN right after a conv, read by a conv and the
// add, folds back into that conv for both readers (linalg-fuse-linear-ops); no copy,
// which would leave the add's copy a plaintext multiply (3 linear ops instead of 2). Under
// heir-prepare the folded conv, read by the second conv and the add, then composes with
// the second conv through the fork (chains_through_forks): depth 2, the bound.
// CHECK-LABEL: func.func @bn_after_conv(
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
// DEPTH: @bn_after_conv {{ +}}2 {{ +}}2 {{ +}}2 
func.func @bn_after_conv(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.921]], [[0.057]]], [[[-0.081]], [[-0.875]]]]> : tensor<2x2x1x1xf32>
  %w2 = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[1.0]], [[0.75]]]]> : tensor<2x2x1x1xf32>
  %mean = arith.constant dense<[[[0.5]], [[-1.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[0.25]]]> : tensor<2x1x1xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %mean : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %k: f32, %o: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %s = arith.mulf %b, %b : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %w2 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%z : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = arith.addf %c2, %s : tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
