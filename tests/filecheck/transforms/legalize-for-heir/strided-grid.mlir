// legalize-for-heir runs a strided conv HEIR would lay out with gaps at stride 1 on its
// input's grid: the convs after it read the grid dilated by the stride (pad times the
// stride), elementwise ops run on the whole grid, and the matvec at the end reads only
// the valid positions (zero columns elsewhere). slot-count=16 keeps every conv a conv
// (no stage fits 16 slots), as ResNet-20's convs stay convs at its real size.
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16}' | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16 strided-on-grid=false}' | filecheck %s --check-prefix=OFF

func.func @downsample(%x: tensor<1x2x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x3x3xf32>
  %b0_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b0_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<4xf32>) outs(%b0_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%b0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e0 = tensor.empty() : tensor<1x4x4x4xf32>
  %s0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x4x4x4xf32>) outs(%e0 : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x4x4xf32>
  %p1 = tensor.pad %s0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
  %w1 = arith.constant dense<-0.25> : tensor<4x4x3x3xf32>
  %b1_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b1_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b1 = linalg.broadcast ins(%b1_v : tensor<4xf32>) outs(%b1_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%b1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %ws = arith.constant dense<0.5> : tensor<4x2x1x1xf32>
  %bs_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %bs_e = tensor.empty() : tensor<1x4x4x4xf32>
  %bs = linalg.broadcast ins(%bs_v : tensor<4xf32>) outs(%bs_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %cs = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %ws : tensor<1x2x8x8xf32>, tensor<4x2x1x1xf32>) outs(%bs : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %ea = tensor.empty() : tensor<1x4x4x4xf32>
  %a0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %cs : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%ea : tensor<1x4x4x4xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %sum = arith.addf %u, %v : f32
    %sq = arith.mulf %sum, %sum : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x4x4xf32>
  %p2 = tensor.pad %a0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
  %w2 = arith.constant dense<0.0625> : tensor<4x4x3x3xf32>
  %b2_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b2_e = tensor.empty() : tensor<1x4x2x2xf32>
  %b2 = linalg.broadcast ins(%b2_v : tensor<4xf32>) outs(%b2_e : tensor<1x4x2x2xf32>) dimensions = [0, 2, 3]
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p2, %w2 : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%b2 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %e2 = tensor.empty() : tensor<1x4x2x2xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2 : tensor<1x4x2x2xf32>) outs(%e2 : tensor<1x4x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x2x2xf32>
  %f = tensor.collapse_shape %s2 [[0, 1, 2, 3]] : tensor<1x4x2x2xf32> into tensor<16xf32>
  %m = arith.constant dense<0.5> : tensor<3x16xf32>
  %mb = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x16xf32>, tensor<16xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// The grid (4x8x8 = 256 elements) is what the slot remark counts.
// REMARK:      legalize-for-heir: @downsample has a secret tensor of 256 elements
// REMARK-NOT:  @downsample keeps its strided convs
// CHECK-LABEL: func.func @downsample
// CHECK-NOT:   tensor.extract_slice
// CHECK-NOT:   strides = dense<2>
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       tensor.pad %{{.*}} low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x4x12x12xf32>, tensor<4x4x3x3xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x2x8x8xf32>, tensor<4x2x1x1xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x4x12x12xf32>, tensor<4x4x3x3xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2, 3]] : tensor<1x4x8x8xf32> into tensor<256xf32>
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x256xf32>, tensor<256xf32>)
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return
// OFF-LABEL:   func.func @downsample
// OFF-COUNT-2: strides = dense<2>
// OFF:         linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x16xf32>, tensor<16xf32>)
// OFF-LABEL:   func.func @returned(

// -----

// A strided conv accumulating onto a secret init (an argument): no grid form of the
// init, so the conv stays strided (and no remark but the slot count's: nothing was tried).
func.func @secret_init(%x: tensor<1x2x8x8xf32>, %b: tensor<1x4x4x4xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x3x3xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%b : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %f = tensor.collapse_shape %c0 [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>
  %m = arith.constant dense<0.5> : tensor<3x64xf32>
  %mb = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x64xf32>, tensor<64xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// REMARK:      legalize-for-heir: @secret_init has a secret tensor
// REMARK-NOT:  @secret_init keeps its strided convs
// CHECK-LABEL: func.func @secret_init
// CHECK:       strides = dense<2>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return

// -----

// A 4x4 window (a conv with a 2x2 average pool fused in, as in VGG): at stride 1 its
// output would be 7x7; one more row and column of pad keep the grid at the input's 8x8.
// That pad (1 before, 2 after) HEIR would not fold: it becomes 2 on every side, with a
// zero first row and column in a 5x5 filter (heir_foldable_pads, foldable-pads.mlir).
func.func @widened(%x: tensor<1x2x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x4x4xf32>
  %b0_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b0_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<4xf32>) outs(%b0_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x4x4xf32>) outs(%b0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e0 = tensor.empty() : tensor<1x4x4x4xf32>
  %s0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x4x4x4xf32>) outs(%e0 : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x4x4xf32>
  %f = tensor.collapse_shape %s0 [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>
  %m = arith.constant dense<0.5> : tensor<3x64xf32>
  %mb = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x64xf32>, tensor<64xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @widened
// CHECK:       tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x12x12xf32>, tensor<4x2x5x5xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>)
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x256xf32>, tensor<256xf32>)

// -----

// A feature map returned after a strided conv and a conv: nothing takes the grid at the
// return, so the function keeps its strided conv, and a remark names the op that stopped it.
func.func @returned(%x: tensor<1x2x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x3x3xf32>
  %b0_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b0_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<4xf32>) outs(%b0_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%b0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e0 = tensor.empty() : tensor<1x4x4x4xf32>
  %s0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x4x4x4xf32>) outs(%e0 : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x4x4xf32>
  %p1 = tensor.pad %s0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
  %w1 = arith.constant dense<-0.25> : tensor<4x4x3x3xf32>
  %b1_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b1_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b1 = linalg.broadcast ins(%b1_v : tensor<4xf32>) outs(%b1_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%b1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c1 : tensor<1x4x4x4xf32>
}
// REMARK:      legalize-for-heir: @returned keeps its strided convs ({{.*}}:{{[0-9]+}}:{{[0-9]+}}: 'func.return' reads a strided conv's result
// CHECK-LABEL: func.func @returned
// CHECK:       strides = dense<2>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return

// -----

// The strided result meets a secret that is not on the grid (a second argument): the
// elementwise op cannot run on the grid, and the function stays as it was.
func.func @off_grid(%x: tensor<1x2x8x8xf32>, %r: tensor<1x4x4x4xf32>) -> tensor<16xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x3x3xf32>
  %b0_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b0_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<4xf32>) outs(%b0_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%b0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %ea = tensor.empty() : tensor<1x4x4x4xf32>
  %a0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0, %r : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%ea : tensor<1x4x4x4xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %sum = arith.addf %u, %v : f32
    %sq = arith.mulf %sum, %sum : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x4x4xf32>
  %f = tensor.collapse_shape %a0 [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>
  %m = arith.constant dense<0.5> : tensor<16x64xf32>
  %mb = arith.constant dense<0.0> : tensor<16xf32>
  %y = linalg.matvec ins(%m, %f : tensor<16x64xf32>, tensor<64xf32>) outs(%mb : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}
// REMARK:      legalize-for-heir: @off_grid keeps its strided convs ({{.*}}'linalg.generic' reads
// CHECK-LABEL: func.func @off_grid
// CHECK:       strides = dense<2>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<16x64xf32>, tensor<64xf32>)

// -----

// A 1x1 stride-3 conv with a low pad of 1 (of ones) after the strided conv: on the grid
// its pad would need a negative high side (the pad is wider than the window reaches),
// though its outputs (grid rows 0 and 6) fit the grid, so it stays.
func.func @wide_pad(%x: tensor<1x2x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x3x3xf32>
  %b0_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b0_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<4xf32>) outs(%b0_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%b0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p1 = tensor.pad %c0 low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %one : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x5x5xf32>
  %w1 = arith.constant dense<0.5> : tensor<4x4x1x1xf32>
  %b1_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b1_e = tensor.empty() : tensor<1x4x2x2xf32>
  %b1 = linalg.broadcast ins(%b1_v : tensor<4xf32>) outs(%b1_e : tensor<1x4x2x2xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<3> : vector<2xi64>} ins(%p1, %w1 : tensor<1x4x5x5xf32>, tensor<4x4x1x1xf32>) outs(%b1 : tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %f = tensor.collapse_shape %c1 [[0, 1, 2, 3]] : tensor<1x4x2x2xf32> into tensor<16xf32>
  %m = arith.constant dense<0.5> : tensor<3x16xf32>
  %mb = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x16xf32>, tensor<16xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// REMARK:      legalize-for-heir: @wide_pad keeps its strided convs ({{.*}}'tensor.pad' reads
// CHECK-LABEL: func.func @wide_pad
// CHECK:       strides = dense<2>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return

// -----

// Two strided results of one shape on different grids (8x8 every 2nd, 16x16 every 4th):
// their sum has no one grid, so both convs stay strided.
func.func @two_grids(%x: tensor<1x2x8x8xf32>, %big: tensor<1x2x16x16xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x3x3xf32>
  %b0_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b0_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<4xf32>) outs(%b0_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%b0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %wv = arith.constant dense<0.5> : tensor<4x2x1x1xf32>
  %bv_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %bv_e = tensor.empty() : tensor<1x4x4x4xf32>
  %bv = linalg.broadcast ins(%bv_v : tensor<4xf32>) outs(%bv_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %cv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%big, %wv : tensor<1x2x16x16xf32>, tensor<4x2x1x1xf32>) outs(%bv : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %ea = tensor.empty() : tensor<1x4x4x4xf32>
  %a0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0, %cv : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%ea : tensor<1x4x4x4xf32>) {
  ^bb0(%u: f32, %v: f32, %out: f32):
    %sum = arith.addf %u, %v : f32
    %sq = arith.mulf %sum, %sum : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x4x4xf32>
  %f = tensor.collapse_shape %a0 [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>
  %m = arith.constant dense<0.5> : tensor<3x64xf32>
  %mb = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x64xf32>, tensor<64xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// REMARK:      legalize-for-heir: @two_grids keeps its strided convs ({{.*}}'linalg.generic' reads
// CHECK-LABEL: func.func @two_grids
// CHECK-COUNT-2: strides = dense<{{[24]}}>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return

// -----

// A pad of 4 on the high side only, then a 1x1 conv: its output positions 4..7 would
// sit at grid positions 8..14, past the 8x8 grid, so it stays.
func.func @past_end(%x: tensor<1x2x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x3x3xf32>
  %b0_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b0_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<4xf32>) outs(%b0_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%b0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p1 = tensor.pad %c0 low[0, 0, 0, 0] high[0, 0, 4, 4] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x8x8xf32>
  %w1 = arith.constant dense<0.5> : tensor<4x4x1x1xf32>
  %b1_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b1_e = tensor.empty() : tensor<1x4x8x8xf32>
  %b1 = linalg.broadcast ins(%b1_v : tensor<4xf32>) outs(%b1_e : tensor<1x4x8x8xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) outs(%b1 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %f = tensor.collapse_shape %c1 [[0, 1, 2, 3]] : tensor<1x4x8x8xf32> into tensor<256xf32>
  %m = arith.constant dense<0.5> : tensor<3x256xf32>
  %mb = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x256xf32>, tensor<256xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// REMARK:      legalize-for-heir: @past_end keeps its strided convs ({{.*}}'tensor.pad' reads
// CHECK-LABEL: func.func @past_end
// CHECK:       strides = dense<2>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return

// -----

// A pad whose value depends on the row (its region reads the index): on the grid the
// rows are other rows, so it stays.
func.func @indexed_pad(%x: tensor<1x2x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w0 = arith.constant dense<0.125> : tensor<4x2x3x3xf32>
  %b0_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b0_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<4xf32>) outs(%b0_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x2x10x10xf32>, tensor<4x2x3x3xf32>) outs(%b0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p1 = tensor.pad %c0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %k = arith.index_cast %i2 : index to i64
    %kf = arith.sitofp %k : i64 to f32
    tensor.yield %kf : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
  %w1 = arith.constant dense<0.5> : tensor<4x4x3x3xf32>
  %b1_v = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %b1_e = tensor.empty() : tensor<1x4x4x4xf32>
  %b1 = linalg.broadcast ins(%b1_v : tensor<4xf32>) outs(%b1_e : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) outs(%b1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %f = tensor.collapse_shape %c1 [[0, 1, 2, 3]] : tensor<1x4x4x4xf32> into tensor<64xf32>
  %m = arith.constant dense<0.5> : tensor<3x64xf32>
  %mb = arith.constant dense<0.0> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x64xf32>, tensor<64xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// REMARK:      legalize-for-heir: @indexed_pad keeps its strided convs ({{.*}}'tensor.pad' reads
// CHECK-LABEL: func.func @indexed_pad
// CHECK:       strides = dense<2>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return

