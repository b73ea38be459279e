// ResultThroughConv: the last linear stage of a result with two or three non-unit dims
// becomes a conv laid out as the result (HEIR returns its row-major 1xFxHxW layout as it
// is; result-conv-ckks.mlir runs heir-opt on @padded_rows). Its input vector must be a
// power of two long: a producing matvec gets zero rows up to it.
// RUN: heirpy-opt %s --split-input-file -p legalize-for-heir | filecheck %s

// A 2x3 result from a 6-row stage after x² of a 6-row matvec: that matvec gets two zero
// rows (8), x² runs on 8, and the conv reads the 8 as 1x8x1x1 padded by P = 2, with
// 4x3 taps; out comes 1x1x2x3, collapsed to 2x3.
func.func @padded_rows(%x: tensor<4xf32>) -> tensor<2x3xf32> {
  %a = arith.constant dense<[[0.75, 0.75, 0.75, 0.5], [0.0, 0.0, -0.75, 0.25], [0.0, 0.25, 0.0, -0.5], [0.0, 0.5, -0.75, 0.25], [-0.25, 0.75, 0.25, 0.0], [-1.0, -1.0, -0.5, 0.0]]> : tensor<6x4xf32>
  %b = arith.constant dense<[0.125, 0.25, 0.375, 0.5, 0.625, 0.75]> : tensor<6xf32>
  %h = linalg.matvec ins(%a, %x : tensor<6x4xf32>, tensor<4xf32>) outs(%b : tensor<6xf32>) -> tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%h : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<6xf32>
  %m = arith.constant dense<[[0.0, 0.75, -0.75, 0.25, -0.25, 0.25], [-1.0, -0.25, -0.75, -0.25, -0.75, 0.5], [0.5, -1.0, -0.5, 0.75, 1.0, 0.75], [-0.75, 1.0, -0.25, -0.75, 0.5, -0.75], [-1.0, 1.0, -0.75, -0.25, 0.75, -0.5], [-0.5, -0.25, 0.5, 0.25, -0.5, -0.75]]> : tensor<6x6xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %y = linalg.matvec ins(%m, %s : tensor<6x6xf32>, tensor<6xf32>) outs(%c : tensor<6xf32>) -> tensor<6xf32>
  %t = tensor.expand_shape %y [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @padded_rows
// CHECK:      %[[H:.*]] = linalg.matvec ins(%{{.*}}, %x : tensor<8x4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK:      %[[S:.*]] = linalg.generic {{.*}} ins(%[[H]] : tensor<8xf32>)
// CHECK:        arith.mulf
// CHECK:      } -> tensor<8xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.expand_shape %[[S]] {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
// CHECK:      %[[P:.*]] = tensor.pad %[[E]] low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:      } : tensor<1x8x1x1xf32> to tensor<1x8x5x5xf32>
// CHECK:      %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<1x8x4x3xf32>
// CHECK:      %[[B:.*]] = arith.constant dense<{{\[}}{{\[}}{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]]]> : tensor<1x1x2x3xf32>
// CHECK-NEXT: %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[P]], %[[W]] : tensor<1x8x5x5xf32>, tensor<1x8x4x3xf32>) outs(%[[B]] : tensor<1x1x2x3xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1, 2], [3]] : tensor<1x1x2x3xf32> into tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]

// -----

// The argument is 8 long (a power of two): the conv reads it as it is. The x² after the
// last stage runs on the conv's 1x3x2x2 result, which is the returned shape.
func.func @tail(%x: tensor<8xf32>) -> tensor<1x3x2x2xf32> {
  %a = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0]]> : tensor<12x8xf32>
  %b = arith.constant dense<0.5> : tensor<12xf32>
  %h = linalg.matvec ins(%a, %x : tensor<12x8xf32>, tensor<8xf32>) outs(%b : tensor<12xf32>) -> tensor<12xf32>
  %e = tensor.empty() : tensor<12xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%h : tensor<12xf32>) outs(%e : tensor<12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<12xf32>
  %t = tensor.expand_shape %s [[0, 1, 2, 3]] output_shape [1, 3, 2, 2] : tensor<12xf32> into tensor<1x3x2x2xf32>
  return %t : tensor<1x3x2x2xf32>
}
// CHECK-LABEL: func.func @tail
// CHECK-NOT:  linalg.matvec
// CHECK:      %[[E:.*]] = tensor.expand_shape %x {{\[}}[0, 1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<8xf32> into tensor<1x8x1x1xf32>
// CHECK:      %[[P:.*]] = tensor.pad %[[E]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:      %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x8x3x3xf32>, tensor<3x8x2x2xf32>) outs(%{{.*}} : tensor<1x3x2x2xf32>)
// CHECK:      %[[S:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[C]] : tensor<1x3x2x2xf32>)
// CHECK:        arith.mulf
// CHECK:      } -> tensor<1x3x2x2xf32>
// CHECK-NEXT: return %[[S]]

// -----

// Two elementwise generics after the last stage (x², then + 1) run on the conv's result
// in the order the function applies them.
func.func @two_step_tail(%x: tensor<8xf32>) -> tensor<1x3x2x2xf32> {
  %a = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0]]> : tensor<12x8xf32>
  %b = arith.constant dense<0.5> : tensor<12xf32>
  %h = linalg.matvec ins(%a, %x : tensor<12x8xf32>, tensor<8xf32>) outs(%b : tensor<12xf32>) -> tensor<12xf32>
  %one = arith.constant dense<1.0> : tensor<12xf32>
  %e = tensor.empty() : tensor<12xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%h : tensor<12xf32>) outs(%e : tensor<12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<12xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s, %one : tensor<12xf32>, tensor<12xf32>) outs(%e : tensor<12xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %sum = arith.addf %in, %c : f32
    linalg.yield %sum : f32
  } -> tensor<12xf32>
  %t = tensor.expand_shape %p [[0, 1, 2, 3]] output_shape [1, 3, 2, 2] : tensor<12xf32> into tensor<1x3x2x2xf32>
  return %t : tensor<1x3x2x2xf32>
}
// CHECK-LABEL: func.func @two_step_tail
// CHECK-NOT:  linalg.matvec
// CHECK:      %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : tensor<1x3x2x2xf32>)
// CHECK:      %[[S:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x3x2x2xf32>)
// CHECK:        arith.mulf
// CHECK:      %[[P:.*]] = linalg.generic {{.*}} ins(%[[S]], %{{.*}} : tensor<1x3x2x2xf32>, tensor<1x3x2x2xf32>)
// CHECK:        arith.addf
// CHECK:      } -> tensor<1x3x2x2xf32>
// CHECK-NEXT: return %[[P]]

// -----

// A unit dim between the non-unit ones: the conv's 1x1x2x3 is collapsed to 2x3 and
// expanded (unit dims only, which HEIR allows) to 2x1x3.
func.func @unit_between(%x: tensor<4xf32>) -> tensor<2x1x3xf32> {
  %a = arith.constant dense<[[0.75, 0.75, 0.75, 0.5], [0.0, 0.0, -0.75, 0.25], [0.0, 0.25, 0.0, -0.5], [0.0, 0.5, -0.75, 0.25], [-0.25, 0.75, 0.25, 0.0], [-1.0, -1.0, -0.5, 0.0]]> : tensor<6x4xf32>
  %b = arith.constant dense<[0.125, 0.25, 0.375, 0.5, 0.625, 0.75]> : tensor<6xf32>
  %h = linalg.matvec ins(%a, %x : tensor<6x4xf32>, tensor<4xf32>) outs(%b : tensor<6xf32>) -> tensor<6xf32>
  %t = tensor.expand_shape %h [[0, 1, 2]] output_shape [2, 1, 3] : tensor<6xf32> into tensor<2x1x3xf32>
  return %t : tensor<2x1x3xf32>
}
// CHECK-LABEL: func.func @unit_between
// CHECK:      %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x1x2x3xf32>
// CHECK-NEXT: %[[F:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1, 2], [3]] : tensor<1x1x2x3xf32> into tensor<2x3xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %[[F]] {{\[}}[0], [1, 2]] output_shape [2, 1, 3] : tensor<2x3xf32> into tensor<2x1x3xf32>
// CHECK-NEXT: return %[[R]]

// -----

// Negative: four non-unit dims (a batch-2 feature map) are more than a conv's output
// has (N is 1): the result is assembled in pieces.
func.func @four_dims(%x: tensor<4xf32>) -> tensor<2x2x2x2xf32> {
  %a = arith.constant dense<0.25> : tensor<16x4xf32>
  %b = arith.constant dense<0.5> : tensor<16xf32>
  %h = linalg.matvec ins(%a, %x : tensor<16x4xf32>, tensor<4xf32>) outs(%b : tensor<16xf32>) -> tensor<16xf32>
  %t = tensor.expand_shape %h [[0, 1, 2, 3]] output_shape [2, 2, 2, 2] : tensor<16xf32> into tensor<2x2x2x2xf32>
  return %t : tensor<2x2x2x2xf32>
}
// CHECK-LABEL: func.func @four_dims
// CHECK-NOT:  linalg.conv_2d_nchw_fchw
// CHECK:      tensor.insert_slice
// CHECK-NOT:  linalg.conv_2d_nchw_fchw
// CHECK:      return

// -----

// Negative (the guard on padding): the 6-row matvec that would need zero rows is also
// returned, so its rows cannot change; the 6-long input is no power of two, and the
// 2x3 result is assembled in pieces.
func.func @producer_shared(%x: tensor<4xf32>) -> (tensor<2x3xf32>, tensor<6xf32>) {
  %a = arith.constant dense<[[0.75, 0.75, 0.75, 0.5], [0.0, 0.0, -0.75, 0.25], [0.0, 0.25, 0.0, -0.5], [0.0, 0.5, -0.75, 0.25], [-0.25, 0.75, 0.25, 0.0], [-1.0, -1.0, -0.5, 0.0]]> : tensor<6x4xf32>
  %b = arith.constant dense<0.0> : tensor<6xf32>
  %h = linalg.matvec ins(%a, %x : tensor<6x4xf32>, tensor<4xf32>) outs(%b : tensor<6xf32>) -> tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%h : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<6xf32>
  %m = arith.constant dense<0.5> : tensor<6x6xf32>
  %c = arith.constant dense<1.0> : tensor<6xf32>
  %y = linalg.matvec ins(%m, %s : tensor<6x6xf32>, tensor<6xf32>) outs(%c : tensor<6xf32>) -> tensor<6xf32>
  %t = tensor.expand_shape %y [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %t, %h : tensor<2x3xf32>, tensor<6xf32>
}
// CHECK-LABEL: func.func @producer_shared
// CHECK-NOT:  linalg.conv_2d_nchw_fchw
// CHECK:      linalg.matvec ins(%{{.*}}, %x : tensor<6x4xf32>, tensor<4xf32>)
// CHECK:      tensor.insert_slice
// CHECK-NOT:  linalg.conv_2d_nchw_fchw
// CHECK:      return

// -----

// The generic after the padded matvec divides by a constant ((x / k)²): the two padded
// rows compute 0 / k there, so k's padded entries are ones (zeros would give 0 / 0, NaN,
// which the conv's zero taps would carry into every output: NaN * 0 is NaN). (A divide
// after the square is a scale the next matvec takes in: affine-tail.mlir.)
func.func @padded_rows_divide(%x: tensor<4xf32>) -> tensor<2x3xf32> {
  %a = arith.constant dense<[[0.75, 0.75, 0.75, 0.5], [0.0, 0.0, -0.75, 0.25], [0.0, 0.25, 0.0, -0.5], [0.0, 0.5, -0.75, 0.25], [-0.25, 0.75, 0.25, 0.0], [-1.0, -1.0, -0.5, 0.0]]> : tensor<6x4xf32>
  %b = arith.constant dense<[0.125, 0.25, 0.375, 0.5, 0.625, 0.75]> : tensor<6xf32>
  %h = linalg.matvec ins(%a, %x : tensor<6x4xf32>, tensor<4xf32>) outs(%b : tensor<6xf32>) -> tensor<6xf32>
  %k = arith.constant dense<[2.0, 4.0, 0.5, 8.0, 1.5, 3.0]> : tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%h, %k : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%in: f32, %kin: f32, %out: f32):
    %q = arith.divf %in, %kin : f32
    %sq = arith.mulf %q, %q : f32
    linalg.yield %sq : f32
  } -> tensor<6xf32>
  %m = arith.constant dense<[[0.0, 0.75, -0.75, 0.25, -0.25, 0.25], [-1.0, -0.25, -0.75, -0.25, -0.75, 0.5], [0.5, -1.0, -0.5, 0.75, 1.0, 0.75], [-0.75, 1.0, -0.25, -0.75, 0.5, -0.75], [-1.0, 1.0, -0.75, -0.25, 0.75, -0.5], [-0.5, -0.25, 0.5, 0.25, -0.5, -0.75]]> : tensor<6x6xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %y = linalg.matvec ins(%m, %s : tensor<6x6xf32>, tensor<6xf32>) outs(%c : tensor<6xf32>) -> tensor<6xf32>
  %t = tensor.expand_shape %y [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @padded_rows_divide
// CHECK:      %[[H:.*]] = linalg.matvec ins(%{{.*}}, %x : tensor<8x4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK:      %[[K:.*]] = arith.constant dense<[2.000000e+00, 4.000000e+00, 5.000000e-01, 8.000000e+00, 1.500000e+00, 3.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<8xf32>
// CHECK:      %[[S:.*]] = linalg.generic {{.*}} ins(%[[H]], %[[K]] : tensor<8xf32>, tensor<8xf32>)
// CHECK:        arith.divf
// CHECK:      } -> tensor<8xf32>
// CHECK:      linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x1x2x3xf32>
