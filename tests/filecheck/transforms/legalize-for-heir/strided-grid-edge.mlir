// strided-on-grid at its limit: a conv on a grid slice whose strided output positions
// s*t*i must all lie on the grid the stride-1 conv computes (ConvOnGrid). A 1x1 stride-2
// conv puts an 8x8 input's 4x4 result on its 8x8 grid (a 9x9 input's 5x5 on 9x9); a 2x2
// conv reads that slice padded 1 before (and 1 or 0 after). slot-count=16 keeps every
// conv a conv.
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16}' | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16}' 2>&1 >/dev/null | not grep "@at_the_edge keeps its strided convs"

// Past the limit by exactly one: the 2x2 conv padded 1 on both sides gives 5x5 from
// the 4x4 slice, its last output at grid position 2*4 = 8, one past the 8x8 grid's last
// row (the grid conv, padded 2 before and 0 after, is 8x8). Nothing can take the slice:
// the function keeps its strided conv, with a remark naming the conv.
func.func @one_past_the_edge(%x: tensor<1x2x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %w0 = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[0.125]]], [[[-0.5]], [[1.0]]]]> : tensor<3x2x1x1xf32>
  %b0 = arith.constant dense<0.0> : tensor<1x3x4x4xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w0 : tensor<1x2x8x8xf32>, tensor<3x2x1x1xf32>) outs(%b0 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %p1 = tensor.pad %c0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x4x4xf32> to tensor<1x3x6x6xf32>
  %w1 = arith.constant dense<[[[[0.5, -0.25], [0.75, 0.125]], [[-0.5, 1.0], [0.25, -0.75]], [[0.375, -0.125], [-1.0, 0.5]]]]> : tensor<1x3x2x2xf32>
  %b1 = arith.constant dense<0.5> : tensor<1x1x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x3x6x6xf32>, tensor<1x3x2x2xf32>) outs(%b1 : tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  %f = tensor.collapse_shape %c1 [[0, 1, 2, 3]] : tensor<1x1x5x5xf32> into tensor<25xf32>
  %m = arith.constant dense<0.5> : tensor<3x25xf32>
  %mb = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x25xf32>, tensor<25xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// REMARK:      legalize-for-heir: @one_past_the_edge keeps its strided convs ({{.*}}:{{[0-9]+}}:{{[0-9]+}}: 'tensor.pad' reads a strided conv's result
// CHECK-LABEL: func.func @one_past_the_edge
// CHECK:       strides = dense<2>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3x6x6xf32>, tensor<1x3x2x2xf32>) outs(%{{.*}} : tensor<1x1x5x5xf32>)
// CHECK:       return

// -----

// At the limit: on a 9x9 grid (a 9x9 input, its 5x5 stride-2 result) the same 2x2 conv
// padded 1 on both sides gives 6x6, its last output at grid position 10, past the grid;
// padded 1 before and 0 after it gives 5x5, its last output at position 8, the 9x9 grid's
// last row: that one runs on the grid (padded 2 before, 0 after, dilation 2; then
// `heir_foldable_pads` evens the pad to 2 and 2 with a zero last tap).
func.func @at_the_edge(%x: tensor<1x2x9x9xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %w0 = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[0.125]]], [[[-0.5]], [[1.0]]]]> : tensor<3x2x1x1xf32>
  %b0 = arith.constant dense<0.0> : tensor<1x3x5x5xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w0 : tensor<1x2x9x9xf32>, tensor<3x2x1x1xf32>) outs(%b0 : tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32>
  %p1 = tensor.pad %c0 low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x3x5x5xf32> to tensor<1x3x6x6xf32>
  %w1 = arith.constant dense<[[[[0.5, -0.25], [0.75, 0.125]], [[-0.5, 1.0], [0.25, -0.75]], [[0.375, -0.125], [-1.0, 0.5]]]]> : tensor<1x3x2x2xf32>
  %b1 = arith.constant dense<0.5> : tensor<1x1x5x5xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x3x6x6xf32>, tensor<1x3x2x2xf32>) outs(%b1 : tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  %f = tensor.collapse_shape %c1 [[0, 1, 2, 3]] : tensor<1x1x5x5xf32> into tensor<25xf32>
  %m = arith.constant dense<0.5> : tensor<3x25xf32>
  %mb = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x25xf32>, tensor<25xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @at_the_edge
// CHECK-NOT:   strides = dense<2>
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x9x9xf32>, tensor<3x2x1x1xf32>) outs(%{{.*}} : tensor<1x3x9x9xf32>)
// CHECK:       tensor.pad %{{.*}} low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x3x13x13xf32>, tensor<1x3x3x3xf32>) outs(%{{.*}} : tensor<1x1x9x9xf32>)
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x81xf32>, tensor<81xf32>)

// -----

// A strided conv whose pad is narrower than its window on H (2x3 window, no H pad: the
// stride-1 output, 7 rows, is widened to the input's 8) and wider on W (padded 3 and 3:
// 12 columns, more than the input's 8): the grid is 8x12, W keeps its stride-1 size
// (generated by tests/edge_strategies.py; the grid was once cut to 8x8, a crash).
func.func @widened_on_one_axis(%x: tensor<1x1x8x8xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 0, 3] high[0, 0, 0, 3] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f32
  } : tensor<1x1x8x8xf32> to tensor<1x1x8x14xf32>
  %w0 = arith.constant dense<[[[[0.5, -0.25, 0.75], [0.125, -1.0, 0.375]]], [[[-0.5, 0.25, 1.0], [0.625, 0.875, -0.125]]]]> : tensor<2x1x2x3xf32>
  %b0_v = arith.constant dense<[0.1, -0.2]> : tensor<2xf32>
  %b0_e = tensor.empty() : tensor<1x2x4x6xf32>
  %b0 = linalg.broadcast ins(%b0_v : tensor<2xf32>) outs(%b0_e : tensor<1x2x4x6xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p0, %w0 : tensor<1x1x8x14xf32>, tensor<2x1x2x3xf32>) outs(%b0 : tensor<1x2x4x6xf32>) -> tensor<1x2x4x6xf32>
  %e0 = tensor.empty() : tensor<1x2x4x6xf32>
  %s0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x2x4x6xf32>) outs(%e0 : tensor<1x2x4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x2x4x6xf32>
  %f = tensor.collapse_shape %s0 [[0, 1, 2, 3]] : tensor<1x2x4x6xf32> into tensor<48xf32>
  %m = arith.constant dense<0.5> : tensor<3x48xf32>
  %mb = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x48xf32>, tensor<48xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @widened_on_one_axis
// CHECK:       tensor.pad %x low[0, 0, 0, 3] high[0, 0, 1, 3]
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x9x14xf32>, tensor<2x1x2x3xf32>) outs(%{{.*}} : tensor<1x2x8x12xf32>)
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x192xf32>, tensor<192xf32>)


// -----

// A dilated strided conv (3x3, dilation 2, stride 2) on its grid: the stride-1 output is
// 9 - 4 = 5 per axis, where the 3x3 strided result sits at every second position.
func.func @dilated_strided(%x: tensor<1x2x9x9xf32>) -> tensor<3xf32> {
  %w0 = arith.constant dense<[[[[0.5, -0.25, 0.75], [0.125, -1.0, 0.375], [1.0, 0.25, -0.5]], [[-0.5, 0.25, 1.0], [0.625, 0.875, -0.125], [0.25, -0.75, 0.5]]]]> : tensor<1x2x3x3xf32>
  %b0 = arith.constant dense<0.5> : tensor<1x1x3x3xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w0 : tensor<1x2x9x9xf32>, tensor<1x2x3x3xf32>) outs(%b0 : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %e0 = tensor.empty() : tensor<1x1x3x3xf32>
  %s0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x1x3x3xf32>) outs(%e0 : tensor<1x1x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x1x3x3xf32>
  %f = tensor.collapse_shape %s0 [[0, 1, 2, 3]] : tensor<1x1x3x3xf32> into tensor<9xf32>
  %m = arith.constant dense<[[0.5, -1.0, 2.0, 0.25, 1.5, -0.5, 1.0, 0.75, -0.25], [1.0, 0.5, -0.5, 2.0, 0.25, 1.0, -1.0, 0.5, 0.125], [-0.25, 0.75, 1.0, -1.5, 0.5, 0.25, 2.0, -0.5, 1.0]]> : tensor<3x9xf32>
  %mb = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = linalg.matvec ins(%m, %f : tensor<3x9xf32>, tensor<9xf32>) outs(%mb : tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
// CHECK-LABEL: func.func @dilated_strided
// CHECK-NOT:   strides = dense<2>
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x2x9x9xf32>, tensor<1x2x3x3xf32>) outs(%{{.*}} : tensor<1x1x5x5xf32>)
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<3x25xf32>, tensor<25xf32>)
