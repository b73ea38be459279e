// Must not store into the concatenation: each case keeps its tensor.concat.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-pointwise | filecheck %s

#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// One operand is a function argument, not a kernel's result: the concat stays, and so does
// the kernel (without a store).
func.func @operand_not_a_kernel(%p0: tensor<1x4x2x2xf32>, %w0: tensor<15x4x1x1xf32>, %bias0: tensor<15xf32>, %p1: tensor<1x8x1x1xf32>, %w1: tensor<15x8x1x1xf32>, %bias1: tensor<15xf32>, %rows: tensor<1x7x5xf32>) -> tensor<1x19x5xf32> {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<1x15x2x2xf32>
  %b0 = linalg.broadcast ins(%bias0 : tensor<15xf32>) outs(%e0 : tensor<1x15x2x2xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p0, %w0 : tensor<1x4x2x2xf32>, tensor<15x4x1x1xf32>) outs(%b0 : tensor<1x15x2x2xf32>) -> tensor<1x15x2x2xf32>
  %x0 = tensor.expand_shape %c0 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 2, 2] : tensor<1x15x2x2xf32> into tensor<1x3x5x2x2xf32>
  %t0e = tensor.empty() : tensor<1x3x2x2x5xf32>
  %t0 = linalg.transpose ins(%x0 : tensor<1x3x5x2x2xf32>) outs(%t0e : tensor<1x3x2x2x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s0 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t0 : tensor<1x3x2x2x5xf32>) outs(%t0e : tensor<1x3x2x2x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x2x2x5xf32>
  %f0 = tensor.collapse_shape %s0 [[0], [1, 2, 3], [4]] : tensor<1x3x2x2x5xf32> into tensor<1x12x5xf32>
  %cat = tensor.concat dim(1) %f0, %rows : (tensor<1x12x5xf32>, tensor<1x7x5xf32>) -> tensor<1x19x5xf32>
  return %cat : tensor<1x19x5xf32>
}
// CHECK-LABEL: func.func @operand_not_a_kernel(
// CHECK:       %[[K:.*]] = tensor_ext.kernel ins(%p0, %w0, %bias0 : {{.*}}) -> tensor<1x3x2x2x5xf32>
// CHECK-NOT:     tensor.insert_slice
// CHECK:       %[[F:.*]] = tensor.collapse_shape %[[K]]
// CHECK:       tensor.concat dim(1) %[[F]], %rows

// -----

#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// A head's result is also returned on its own: its kernel cannot give up its result.
func.func @result_also_returned(%p0: tensor<1x4x2x2xf32>, %w0: tensor<15x4x1x1xf32>, %bias0: tensor<15xf32>, %p1: tensor<1x8x1x1xf32>, %w1: tensor<15x8x1x1xf32>, %bias1: tensor<15xf32>) -> (tensor<1x15x5xf32>, tensor<1x3x2x2x5xf32>) {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<1x15x2x2xf32>
  %b0 = linalg.broadcast ins(%bias0 : tensor<15xf32>) outs(%e0 : tensor<1x15x2x2xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p0, %w0 : tensor<1x4x2x2xf32>, tensor<15x4x1x1xf32>) outs(%b0 : tensor<1x15x2x2xf32>) -> tensor<1x15x2x2xf32>
  %x0 = tensor.expand_shape %c0 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 2, 2] : tensor<1x15x2x2xf32> into tensor<1x3x5x2x2xf32>
  %t0e = tensor.empty() : tensor<1x3x2x2x5xf32>
  %t0 = linalg.transpose ins(%x0 : tensor<1x3x5x2x2xf32>) outs(%t0e : tensor<1x3x2x2x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s0 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t0 : tensor<1x3x2x2x5xf32>) outs(%t0e : tensor<1x3x2x2x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x2x2x5xf32>
  %f0 = tensor.collapse_shape %s0 [[0], [1, 2, 3], [4]] : tensor<1x3x2x2x5xf32> into tensor<1x12x5xf32>
  %e1 = tensor.empty() : tensor<1x15x1x1xf32>
  %b1 = linalg.broadcast ins(%bias1 : tensor<15xf32>) outs(%e1 : tensor<1x15x1x1xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x8x1x1xf32>, tensor<15x8x1x1xf32>) outs(%b1 : tensor<1x15x1x1xf32>) -> tensor<1x15x1x1xf32>
  %x1 = tensor.expand_shape %c1 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 1, 1] : tensor<1x15x1x1xf32> into tensor<1x3x5x1x1xf32>
  %t1e = tensor.empty() : tensor<1x3x1x1x5xf32>
  %t1 = linalg.transpose ins(%x1 : tensor<1x3x5x1x1xf32>) outs(%t1e : tensor<1x3x1x1x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s1 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t1 : tensor<1x3x1x1x5xf32>) outs(%t1e : tensor<1x3x1x1x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x1x1x5xf32>
  %f1 = tensor.collapse_shape %s1 [[0], [1, 2, 3], [4]] : tensor<1x3x1x1x5xf32> into tensor<1x3x5xf32>
  %cat = tensor.concat dim(1) %f0, %f1 : (tensor<1x12x5xf32>, tensor<1x3x5xf32>) -> tensor<1x15x5xf32>
  return %cat, %s0 : tensor<1x15x5xf32>, tensor<1x3x2x2x5xf32>
}
// CHECK-LABEL: func.func @result_also_returned(
// CHECK-NOT:   tensor.insert_slice
// CHECK:       tensor.concat dim(1)

// -----

#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// The epilogue reads its init (`%out`): a slice of the destination would change its result.
func.func @epilogue_reads_init(%p0: tensor<1x4x2x2xf32>, %w0: tensor<15x4x1x1xf32>, %bias0: tensor<15xf32>, %p1: tensor<1x8x1x1xf32>, %w1: tensor<15x8x1x1xf32>, %bias1: tensor<15xf32>) -> tensor<1x15x5xf32> {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<1x15x2x2xf32>
  %b0 = linalg.broadcast ins(%bias0 : tensor<15xf32>) outs(%e0 : tensor<1x15x2x2xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p0, %w0 : tensor<1x4x2x2xf32>, tensor<15x4x1x1xf32>) outs(%b0 : tensor<1x15x2x2xf32>) -> tensor<1x15x2x2xf32>
  %x0 = tensor.expand_shape %c0 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 2, 2] : tensor<1x15x2x2xf32> into tensor<1x3x5x2x2xf32>
  %t0e = tensor.empty() : tensor<1x3x2x2x5xf32>
  %t0 = linalg.transpose ins(%x0 : tensor<1x3x5x2x2xf32>) outs(%t0e : tensor<1x3x2x2x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s0 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t0 : tensor<1x3x2x2x5xf32>) outs(%t0e : tensor<1x3x2x2x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %q = arith.divf %one, %den : f32
    %sig = arith.addf %q, %out : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x2x2x5xf32>
  %f0 = tensor.collapse_shape %s0 [[0], [1, 2, 3], [4]] : tensor<1x3x2x2x5xf32> into tensor<1x12x5xf32>
  %e1 = tensor.empty() : tensor<1x15x1x1xf32>
  %b1 = linalg.broadcast ins(%bias1 : tensor<15xf32>) outs(%e1 : tensor<1x15x1x1xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x8x1x1xf32>, tensor<15x8x1x1xf32>) outs(%b1 : tensor<1x15x1x1xf32>) -> tensor<1x15x1x1xf32>
  %x1 = tensor.expand_shape %c1 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 1, 1] : tensor<1x15x1x1xf32> into tensor<1x3x5x1x1xf32>
  %t1e = tensor.empty() : tensor<1x3x1x1x5xf32>
  %t1 = linalg.transpose ins(%x1 : tensor<1x3x5x1x1xf32>) outs(%t1e : tensor<1x3x1x1x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s1 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t1 : tensor<1x3x1x1x5xf32>) outs(%t1e : tensor<1x3x1x1x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x1x1x5xf32>
  %f1 = tensor.collapse_shape %s1 [[0], [1, 2, 3], [4]] : tensor<1x3x1x1x5xf32> into tensor<1x3x5xf32>
  %cat = tensor.concat dim(1) %f0, %f1 : (tensor<1x12x5xf32>, tensor<1x3x5xf32>) -> tensor<1x15x5xf32>
  return %cat : tensor<1x15x5xf32>
}
// CHECK-LABEL: func.func @epilogue_reads_init(
// CHECK-NOT:   tensor.insert_slice
// CHECK:       tensor.concat dim(1)

// -----

#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// The same kernel result twice: one kernel cannot store into two slices.
func.func @same_kernel_twice(%p0: tensor<1x4x2x2xf32>, %w0: tensor<15x4x1x1xf32>, %bias0: tensor<15xf32>, %p1: tensor<1x8x1x1xf32>, %w1: tensor<15x8x1x1xf32>, %bias1: tensor<15xf32>) -> tensor<1x24x5xf32> {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<1x15x2x2xf32>
  %b0 = linalg.broadcast ins(%bias0 : tensor<15xf32>) outs(%e0 : tensor<1x15x2x2xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p0, %w0 : tensor<1x4x2x2xf32>, tensor<15x4x1x1xf32>) outs(%b0 : tensor<1x15x2x2xf32>) -> tensor<1x15x2x2xf32>
  %x0 = tensor.expand_shape %c0 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 2, 2] : tensor<1x15x2x2xf32> into tensor<1x3x5x2x2xf32>
  %t0e = tensor.empty() : tensor<1x3x2x2x5xf32>
  %t0 = linalg.transpose ins(%x0 : tensor<1x3x5x2x2xf32>) outs(%t0e : tensor<1x3x2x2x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s0 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t0 : tensor<1x3x2x2x5xf32>) outs(%t0e : tensor<1x3x2x2x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x2x2x5xf32>
  %f0 = tensor.collapse_shape %s0 [[0], [1, 2, 3], [4]] : tensor<1x3x2x2x5xf32> into tensor<1x12x5xf32>
  %cat = tensor.concat dim(1) %f0, %f0 : (tensor<1x12x5xf32>, tensor<1x12x5xf32>) -> tensor<1x24x5xf32>
  return %cat : tensor<1x24x5xf32>
}
// CHECK-LABEL: func.func @same_kernel_twice(
// CHECK-NOT:   tensor.insert_slice
// CHECK:       tensor.concat dim(1)
