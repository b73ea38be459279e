// The grid form (strided-on-grid) for what residual nets put after a strided conv:
// generics reading per-channel constants through maps with constant results (torch-mlir's
// batch norm: a 4x1x1 mean through (d1, 0, 0)), a constant that varies along H and W,
// an option-A shortcut (x[:, :, ::2, ::2] as torch-mlir writes it, one slice per dim,
// then zero channels by F.pad), in f32 and f16; and the forms that keep their strided
// convs, each with the remark naming the op. slot-count=16 keeps every conv a conv.
// RUN: heirpy-opt %s -p 'legalize-for-heir{slot-count=16}' | filecheck %s
// RUN: heirpy-opt %s -p 'legalize-for-heir{slot-count=16}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: heirpy-opt %s -p 'legalize-for-heir{slot-count=16}' -o %t
// RUN: heirpy-equiv %s %t --function per_channel | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function spatial_constant | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function option_a | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function option_a_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function offset_slice | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#hw = affine_map<(d0, d1, d2, d3) -> (d2, d3)>

// A batch norm as torch-mlir writes it after a strided conv, (x - mean) * scale, then x²:
// the 4x1x1 constants read the same on the grid, through the same maps.
// REMARK-NOT:  @per_channel keeps its strided convs
// CHECK-LABEL: func.func @per_channel
// CHECK-NOT:   strides = dense<2>
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} {{.*}} outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       linalg.generic {indexing_maps = [#{{.*}}, #[[CHAN:[a-z0-9]+]], #[[CHAN]], #{{.*}}]{{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>, tensor<4x1x1xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x256xf32>, tensor<256xf32>)
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return
func.func @per_channel(%x: tensor<1x4x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %cw = arith.constant dense<0.25> : tensor<4x4x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %cw : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%b : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %mean = arith.constant dense<[[[0.5]], [[-0.25]], [[0.125]], [[1.0]]]> : tensor<4x1x1xf32>
  %scale = arith.constant dense<[[[1.5]], [[0.75]], [[-0.5]], [[2.0]]]> : tensor<4x1x1xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #chan, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %mean, %scale : tensor<1x4x4x4xf32>, tensor<4x1x1xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %y = arith.mulf %d, %s : f32
    %q = arith.mulf %y, %y : f32
    linalg.yield %q : f32
  } -> tensor<1x4x4x4xf32>
  %f = tensor.collapse_shape %n [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>
  %A = arith.constant dense<0.0625> : tensor<3x64xf32>
  %i = arith.constant dense<0.0> : tensor<3xf32>
  %r = linalg.matvec ins(%A, %f : tensor<3x64xf32>, tensor<64xf32>) outs(%i : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// A constant that varies along H and W (a 4x4 table through (d2, d3)): put on the grid
// at the valid positions, read through the identity.
// REMARK-NOT:  @spatial_constant keeps its strided convs
// CHECK-LABEL: func.func @spatial_constant
// CHECK-NOT:   strides = dense<2>
// CHECK:       linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x256xf32>, tensor<256xf32>)
// CHECK:       return
func.func @spatial_constant(%x: tensor<1x4x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %w = arith.constant dense<0.25> : tensor<4x4x3x3xf32>
  %b = arith.constant dense<0.125> : tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%b : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %k = arith.constant dense<[[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 1.0], [0.75, 0.5, 0.25, -2.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<4x4xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #hw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %k : tensor<1x4x4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.addf %v, %m : f32
    %q = arith.mulf %d, %d : f32
    linalg.yield %q : f32
  } -> tensor<1x4x4x4xf32>
  %f = tensor.collapse_shape %n [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>
  %A = arith.constant dense<0.0625> : tensor<3x64xf32>
  %i = arith.constant dense<0.0> : tensor<3xf32>
  %r = linalg.matvec ins(%A, %f : tensor<3x64xf32>, tensor<64xf32>) outs(%i : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// An option-A shortcut (He et al.'s CIFAR ResNet): the block input's every second pixel
// (torch-mlir slices H, then W) with zero channels added (F.pad) meets the strided
// conv's result: both read the block input's 8x8 grid.
// REMARK-NOT:  @option_a keeps its strided convs
// CHECK-LABEL: func.func @option_a
// CHECK-NOT:   strides = dense<2>
// CHECK:       %[[PAD:.*]] = tensor.pad %x low[0, 2, 0, 0] high[0, 2, 0, 0]
// CHECK:       linalg.generic {{.*}} ins(%{{.*}}, %[[PAD]] : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x512xf32>, tensor<512xf32>)
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return
func.func @option_a(%x: tensor<1x4x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %w = arith.constant dense<0.25> : tensor<8x4x3x3xf32>
  %b = arith.constant dense<0.125> : tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%b : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %h = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 4, 8] [1, 1, 2, 1] : tensor<1x4x8x8xf32> to tensor<1x4x4x8xf32>
  %s = tensor.extract_slice %h[0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 1, 2] : tensor<1x4x4x8xf32> to tensor<1x4x4x4xf32>
  %sp = tensor.pad %s low[0, 2, 0, 0] high[0, 2, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x4x4xf32> to tensor<1x8x4x4xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %sp : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %y = arith.addf %u, %v : f32
    %q = arith.mulf %y, %y : f32
    linalg.yield %q : f32
  } -> tensor<1x8x4x4xf32>
  %f = tensor.collapse_shape %a [[0, 1, 2, 3]] : tensor<1x8x4x4xf32> into tensor<128xf32>
  %A = arith.constant dense<0.0625> : tensor<3x128xf32>
  %i = arith.constant dense<0.0> : tensor<3xf32>
  %r = linalg.matvec ins(%A, %f : tensor<3x128xf32>, tensor<128xf32>) outs(%i : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// The same in f16.
// REMARK-NOT:  @option_a_f16 keeps its strided convs
// CHECK-LABEL: func.func @option_a_f16
// CHECK-NOT:   strides = dense<2>
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x512xf16>, tensor<512xf16>)
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return
func.func @option_a_f16(%x: tensor<1x4x8x8xf16>) -> tensor<3xf16> {
  %z = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f16
  } : tensor<1x4x8x8xf16> to tensor<1x4x10x10xf16>
  %w = arith.constant dense<0.25> : tensor<8x4x3x3xf16>
  %b = arith.constant dense<0.125> : tensor<1x8x4x4xf16>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf16>, tensor<8x4x3x3xf16>) outs(%b : tensor<1x8x4x4xf16>) -> tensor<1x8x4x4xf16>
  %h = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 4, 8] [1, 1, 2, 1] : tensor<1x4x8x8xf16> to tensor<1x4x4x8xf16>
  %s = tensor.extract_slice %h[0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 1, 2] : tensor<1x4x4x8xf16> to tensor<1x4x4x4xf16>
  %sp = tensor.pad %s low[0, 2, 0, 0] high[0, 2, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f16
  } : tensor<1x4x4x4xf16> to tensor<1x8x4x4xf16>
  %e = tensor.empty() : tensor<1x8x4x4xf16>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %sp : tensor<1x8x4x4xf16>, tensor<1x8x4x4xf16>) outs(%e : tensor<1x8x4x4xf16>) {
  ^bb0(%u: f16, %v: f16, %o: f16):
    %y = arith.addf %u, %v : f16
    %q = arith.mulf %y, %y : f16
    linalg.yield %q : f16
  } -> tensor<1x8x4x4xf16>
  %f = tensor.collapse_shape %a [[0, 1, 2, 3]] : tensor<1x8x4x4xf16> into tensor<128xf16>
  %A = arith.constant dense<0.0625> : tensor<3x128xf16>
  %i = arith.constant dense<0.0> : tensor<3xf16>
  %r = linalg.matvec ins(%A, %f : tensor<3x128xf16>, tensor<128xf16>) outs(%i : tensor<3xf16>) -> tensor<3xf16>
  return %r : tensor<3xf16>
}

// x[:, :, 1::2, 1::2]: the odd pixels do not sit where the strided conv's grid puts its
// values (offset 0), so the function keeps its strided conv, and the remark names the add.
// REMARK:      legalize-for-heir: @offset_slice keeps its strided convs ({{.*}}: 'linalg.generic' reads a strided conv's result
// CHECK-LABEL: func.func @offset_slice
// CHECK:       strides = dense<2>
// CHECK:       tensor.extract_slice %x[0, 0, 1, 0] [1, 4, 4, 8] [1, 1, 2, 1]
// CHECK:       return
func.func @offset_slice(%x: tensor<1x4x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %w = arith.constant dense<0.25> : tensor<8x4x3x3xf32>
  %b = arith.constant dense<0.125> : tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%b : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %h = tensor.extract_slice %x[0, 0, 1, 0] [1, 4, 4, 8] [1, 1, 2, 1] : tensor<1x4x8x8xf32> to tensor<1x4x4x8xf32>
  %s = tensor.extract_slice %h[0, 0, 0, 1] [1, 4, 4, 4] [1, 1, 1, 2] : tensor<1x4x4x8xf32> to tensor<1x4x4x4xf32>
  %sp = tensor.pad %s low[0, 2, 0, 0] high[0, 2, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x4x4xf32> to tensor<1x8x4x4xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %sp : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %y = arith.addf %u, %v : f32
    %q = arith.mulf %y, %y : f32
    linalg.yield %q : f32
  } -> tensor<1x8x4x4xf32>
  %f = tensor.collapse_shape %a [[0, 1, 2, 3]] : tensor<1x8x4x4xf32> into tensor<128xf32>
  %A = arith.constant dense<0.0625> : tensor<3x128xf32>
  %i = arith.constant dense<0.0> : tensor<3xf32>
  %r = linalg.matvec ins(%A, %f : tensor<3x128xf32>, tensor<128xf32>) outs(%i : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// A slice that keeps only part of the row (3 of the 4 even columns, padded back): the
// grid would hold values past the slice's end, so the strided conv stays.
// REMARK:      legalize-for-heir: @partial_slice keeps its strided convs
// CHECK-LABEL: func.func @partial_slice
// CHECK:       strides = dense<2>
// CHECK:       return
func.func @partial_slice(%x: tensor<1x4x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %w = arith.constant dense<0.25> : tensor<8x4x3x3xf32>
  %b = arith.constant dense<0.125> : tensor<1x8x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%b : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %h = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 4, 8] [1, 1, 2, 1] : tensor<1x4x8x8xf32> to tensor<1x4x4x8xf32>
  %s = tensor.extract_slice %h[0, 0, 0, 0] [1, 4, 4, 3] [1, 1, 1, 2] : tensor<1x4x4x8xf32> to tensor<1x4x4x3xf32>
  %sp = tensor.pad %s low[0, 2, 0, 0] high[0, 2, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x4x3xf32> to tensor<1x8x4x4xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %sp : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %y = arith.addf %u, %v : f32
    %q = arith.mulf %y, %y : f32
    linalg.yield %q : f32
  } -> tensor<1x8x4x4xf32>
  %f = tensor.collapse_shape %a [[0, 1, 2, 3]] : tensor<1x8x4x4xf32> into tensor<128xf32>
  %A = arith.constant dense<0.0625> : tensor<3x128xf32>
  %i = arith.constant dense<0.0> : tensor<3xf32>
  %r = linalg.matvec ins(%A, %f : tensor<3x128xf32>, tensor<128xf32>) outs(%i : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// A generic reading its position (linalg.index): a grid position is not the slice's.
// REMARK:      legalize-for-heir: @indexed keeps its strided convs
// CHECK-LABEL: func.func @indexed
// CHECK:       strides = dense<2>
// CHECK:       return
func.func @indexed(%x: tensor<1x4x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %w = arith.constant dense<0.25> : tensor<4x4x3x3xf32>
  %b = arith.constant dense<0.125> : tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%b : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %j = linalg.index 2 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %d = arith.addf %v, %jf : f32
    %q = arith.mulf %d, %d : f32
    linalg.yield %q : f32
  } -> tensor<1x4x4x4xf32>
  %f = tensor.collapse_shape %n [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>
  %A = arith.constant dense<0.0625> : tensor<3x64xf32>
  %i = arith.constant dense<0.0> : tensor<3xf32>
  %r = linalg.matvec ins(%A, %f : tensor<3x64xf32>, tensor<64xf32>) outs(%i : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
