// YOLOv5 Detect in its export form, scaled down: three heads (1x1 conv + bias -> view ->
// permute -> sigmoid -> view (1, -1, 5)) concatenated along dim 1. Each head becomes one
// kernel that stores its slice of the concatenation: one destination (tensor.empty), chained
// through the three kernels, and no tensor.concat left.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-pointwise | filecheck %s
// Lowered to standard linalg (extract_slice / insert_slice pairs), the pipeline forms the
// same kernels again: lowering and fusing are stable.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-pointwise,lower-tensor-ext | filecheck %s --check-prefix=LOWERED
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-pointwise,lower-tensor-ext,linalg-fuse-pointwise | filecheck %s

#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @detect(%p0: tensor<1x4x4x4xf32>, %w0: tensor<15x4x1x1xf32>, %bias0: tensor<15xf32>, %p1: tensor<1x8x2x2xf32>, %w1: tensor<15x8x1x1xf32>, %bias1: tensor<15xf32>, %p2: tensor<1x16x1x1xf32>, %w2: tensor<15x16x1x1xf32>, %bias2: tensor<15xf32>) -> tensor<1x63x5xf32> {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<1x15x4x4xf32>
  %b0 = linalg.broadcast ins(%bias0 : tensor<15xf32>) outs(%e0 : tensor<1x15x4x4xf32>) dimensions = [0, 2, 3]
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p0, %w0 : tensor<1x4x4x4xf32>, tensor<15x4x1x1xf32>) outs(%b0 : tensor<1x15x4x4xf32>) -> tensor<1x15x4x4xf32>
  %x0 = tensor.expand_shape %c0 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 4, 4] : tensor<1x15x4x4xf32> into tensor<1x3x5x4x4xf32>
  %t0e = tensor.empty() : tensor<1x3x4x4x5xf32>
  %t0 = linalg.transpose ins(%x0 : tensor<1x3x5x4x4xf32>) outs(%t0e : tensor<1x3x4x4x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s0 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t0 : tensor<1x3x4x4x5xf32>) outs(%t0e : tensor<1x3x4x4x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x4x4x5xf32>
  %f0 = tensor.collapse_shape %s0 [[0], [1, 2, 3], [4]] : tensor<1x3x4x4x5xf32> into tensor<1x48x5xf32>
  %e1 = tensor.empty() : tensor<1x15x2x2xf32>
  %b1 = linalg.broadcast ins(%bias1 : tensor<15xf32>) outs(%e1 : tensor<1x15x2x2xf32>) dimensions = [0, 2, 3]
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x8x2x2xf32>, tensor<15x8x1x1xf32>) outs(%b1 : tensor<1x15x2x2xf32>) -> tensor<1x15x2x2xf32>
  %x1 = tensor.expand_shape %c1 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 2, 2] : tensor<1x15x2x2xf32> into tensor<1x3x5x2x2xf32>
  %t1e = tensor.empty() : tensor<1x3x2x2x5xf32>
  %t1 = linalg.transpose ins(%x1 : tensor<1x3x5x2x2xf32>) outs(%t1e : tensor<1x3x2x2x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s1 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t1 : tensor<1x3x2x2x5xf32>) outs(%t1e : tensor<1x3x2x2x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x2x2x5xf32>
  %f1 = tensor.collapse_shape %s1 [[0], [1, 2, 3], [4]] : tensor<1x3x2x2x5xf32> into tensor<1x12x5xf32>
  %e2 = tensor.empty() : tensor<1x15x1x1xf32>
  %b2 = linalg.broadcast ins(%bias2 : tensor<15xf32>) outs(%e2 : tensor<1x15x1x1xf32>) dimensions = [0, 2, 3]
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p2, %w2 : tensor<1x16x1x1xf32>, tensor<15x16x1x1xf32>) outs(%b2 : tensor<1x15x1x1xf32>) -> tensor<1x15x1x1xf32>
  %x2 = tensor.expand_shape %c2 [[0], [1, 2], [3], [4]] output_shape [1, 3, 5, 1, 1] : tensor<1x15x1x1xf32> into tensor<1x3x5x1x1xf32>
  %t2e = tensor.empty() : tensor<1x3x1x1x5xf32>
  %t2 = linalg.transpose ins(%x2 : tensor<1x3x5x1x1xf32>) outs(%t2e : tensor<1x3x1x1x5xf32>) permutation = [0, 1, 3, 4, 2]
  %s2 = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t2 : tensor<1x3x1x1x5xf32>) outs(%t2e : tensor<1x3x1x1x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    %ex = math.exp %neg : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    linalg.yield %sig : f32
  } -> tensor<1x3x1x1x5xf32>
  %f2 = tensor.collapse_shape %s2 [[0], [1, 2, 3], [4]] : tensor<1x3x1x1x5xf32> into tensor<1x3x5xf32>
  %cat = tensor.concat dim(1) %f0, %f1, %f2 : (tensor<1x48x5xf32>, tensor<1x12x5xf32>, tensor<1x3x5xf32>) -> tensor<1x63x5xf32>
  return %cat : tensor<1x63x5xf32>
}
// CHECK-LABEL: func.func @detect(
// CHECK:       %[[D:.*]] = tensor.empty() : tensor<1x63x5xf32>
// CHECK:       %[[K0:.*]] = tensor_ext.kernel ins(%p0, %w0, {{.*}}%[[D]]{{.*}} : {{.*}}) -> tensor<1x63x5xf32> {
// CHECK:         ^bb0({{.*}}%[[D0:[0-9a-z_]+]]: tensor<1x63x5xf32>
// CHECK:         %[[S0:.*]] = tensor.extract_slice %[[D0]][0, 0, 0] [1, 48, 5] [1, 1, 1]
// CHECK:         %[[V0:.*]] = tensor.expand_shape %[[S0]] {{.*}} into tensor<1x3x4x4x5xf32>
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         %[[E0:.*]] = linalg.generic {{.*}} outs(%[[V0]] : tensor<1x3x4x4x5xf32>)
// CHECK:         %[[F0:.*]] = tensor.collapse_shape %[[E0]]
// CHECK:         %[[I0:.*]] = tensor.insert_slice %[[F0]] into %[[D0]][0, 0, 0] [1, 48, 5] [1, 1, 1]
// CHECK:         tensor_ext.yield %[[I0]] : tensor<1x63x5xf32>
// CHECK:       %[[K1:.*]] = tensor_ext.kernel ins(%p1, %w1, {{.*}}%[[K0]]{{.*}} : {{.*}}) -> tensor<1x63x5xf32> {
// CHECK:         tensor.extract_slice %{{.*}}[0, 48, 0] [1, 12, 5] [1, 1, 1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 48, 0] [1, 12, 5] [1, 1, 1]
// CHECK:       %[[K2:.*]] = tensor_ext.kernel ins(%p2, %w2, {{.*}}%[[K1]]{{.*}} : {{.*}}) -> tensor<1x63x5xf32> {
// CHECK:         tensor.extract_slice %{{.*}}[0, 60, 0] [1, 3, 5] [1, 1, 1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 60, 0] [1, 3, 5] [1, 1, 1]
// CHECK-NOT:   tensor.concat
// CHECK:       return %[[K2]] : tensor<1x63x5xf32>
// LOWERED-LABEL: func.func @detect(
// LOWERED:       %[[D:.*]] = tensor.empty() : tensor<1x63x5xf32>
// LOWERED:       tensor.extract_slice %[[D]][0, 0, 0] [1, 48, 5] [1, 1, 1]
// LOWERED:       %[[I0:.*]] = tensor.insert_slice %{{.*}} into %[[D]][0, 0, 0] [1, 48, 5] [1, 1, 1]
// LOWERED:       tensor.extract_slice %[[I0]][0, 48, 0] [1, 12, 5] [1, 1, 1]
// LOWERED:       %[[I1:.*]] = tensor.insert_slice %{{.*}} into %[[I0]][0, 48, 0] [1, 12, 5] [1, 1, 1]
// LOWERED:       %[[I2:.*]] = tensor.insert_slice %{{.*}} into %[[I1]][0, 60, 0] [1, 3, 5] [1, 1, 1]
// LOWERED-NOT:   tensor_ext
// LOWERED:       return %[[I2]] : tensor<1x63x5xf32>
