// Linear ops: dilated convs (1-D, 2-D), standalone sum/avg pools (1-D, 2-D) and
// transposed matvec/vecmat, positive and must-not-fire cases.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file > /dev/null

// Dilated convs become undilated convs with zero-interleaved constant filters.
// CHECK-LABEL: func.func @conv1d_dilated(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00, 3.000000e+00]]]> : tensor<1x1x5xf32>
// CHECK-NEXT: linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%{{.*}}, %[[W]] : tensor<1x1x8xf32>, tensor<1x1x5xf32>)
func.func @conv1d_dilated(%arg0: tensor<1x1x8xf32>) -> tensor<1x1x4xf32> {
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x4xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  %filter = arith.constant dense<[[[1.000000e+00, 2.000000e+00, 3.000000e+00]]]> : tensor<1x1x3xf32>
  %2 = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%arg0, %filter : tensor<1x1x8xf32>, tensor<1x1x3xf32>) outs(%1 : tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  return %2 : tensor<1x1x4xf32>
}

// -----

// CHECK-LABEL: func.func @conv1d_dilated3_strided
// CHECK: arith.constant dense<{{\[\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00, 0.000000e+00, 3.000000e+00]]]> : tensor<1x1x7xf32>
// CHECK-NEXT: linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
func.func @conv1d_dilated3_strided(%arg0: tensor<1x1x9xf32>) -> tensor<1x1x2xf32> {
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x2xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %filter = arith.constant dense<[[[1.000000e+00, 2.000000e+00, 3.000000e+00]]]> : tensor<1x1x3xf32>
  %2 = linalg.conv_1d_ncw_fcw {dilations = dense<3> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%arg0, %filter : tensor<1x1x9xf32>, tensor<1x1x3xf32>) outs(%1 : tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  return %2 : tensor<1x1x2xf32>
}

// -----

// CHECK-LABEL: func.func @conv1d_dilated_dense_resource
// CHECK: arith.constant dense<{{\[\[\[}}1.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00, 3.000000e+00]]]> : tensor<1x1x5xf32>
// CHECK-NEXT: linalg.conv_1d_ncw_fcw {{.*}}dilations = dense<1>
func.func @conv1d_dilated_dense_resource(%arg0: tensor<1x1x8xf32>) -> tensor<1x1x4xf32> {
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x4xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  %filter = arith.constant dense_resource<filter_data> : tensor<1x1x3xf32>
  %2 = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%arg0, %filter : tensor<1x1x8xf32>, tensor<1x1x3xf32>) outs(%1 : tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  return %2 : tensor<1x1x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      filter_data: "0x040000000000803F0000004000004040"
    }
  }
#-}

// -----

// CHECK-LABEL: func.func @conv2d_dilated(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00, 0.000000e+00, 3.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [4.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e+00, 0.000000e+00, 0.000000e+00, 6.000000e+00]]]]> : tensor<1x1x3x7xf32>
// CHECK-NEXT: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %[[W]] : tensor<1x1x8x8xf32>, tensor<1x1x3x7xf32>) outs(%{{.*}} : tensor<1x1x6x2xf32>)
func.func @conv2d_dilated(%arg0: tensor<1x1x8x8xf32>) -> tensor<1x1x6x2xf32> {
  %cst_0 = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x1x6x2xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<1x1x6x2xf32>) -> tensor<1x1x6x2xf32>
  %filter = arith.constant dense<[[[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]]]> : tensor<1x1x2x3xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<[2, 3]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %filter : tensor<1x1x8x8xf32>, tensor<1x1x2x3xf32>) outs(%1 : tensor<1x1x6x2xf32>) -> tensor<1x1x6x2xf32>
  return %2 : tensor<1x1x6x2xf32>
}

// -----

// Must not fire: the filter is not a constant.
// CHECK-LABEL: func.func @conv2d_dilated_argument_filter
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<2>
func.func @conv2d_dilated_argument_filter(%arg0: tensor<1x1x8x8xf32>, %w: tensor<1x1x3x3xf32>, %o: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %w : tensor<1x1x8x8xf32>, tensor<1x1x3x3xf32>) outs(%o : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %2 : tensor<1x1x4x4xf32>
}

// -----

// A standalone average pool is a conv with a constant per-channel filter (1/4 on the
// diagonal); the non-zero init is divided too (2 / 4 = 0.5: HEIR keeps 2.0, which is wrong).
// CHECK-LABEL: func.func @avg_pool_2d
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>)
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}2.500000e-01, 2.500000e-01], [2.500000e-01, 2.500000e-01]], {{\[\[}}0.000000e+00, {{.*}} : tensor<3x3x2x2xf32>
// CHECK-NEXT: %[[I:.*]] = arith.constant dense<5.000000e-01> : tensor<1x3x4x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%[[X]], %[[W]] : tensor<1x3x8x8xf32>, tensor<3x3x2x2xf32>) outs(%[[I]] : tensor<1x3x4x4xf32>)
// CHECK-NEXT: return %[[R]]
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avg_pool_2d(%arg0: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %cst_0 = arith.constant 2.000000e+00 : f32
  %cst_1 = arith.constant 4.000000e+00 : f32
  %3 = tensor.empty() : tensor<1x3x4x4xf32>
  %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %5 = arith.constant dense<6.0> : tensor<2x2xf32>
  %6 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %5 : tensor<1x3x8x8xf32>, tensor<2x2xf32>) outs(%4 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<1x3x4x4xf32>) outs(%3 : tensor<1x3x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %32 = arith.divf %in, %cst_1 : f32
    linalg.yield %32 : f32
  } -> tensor<1x3x4x4xf32>
  return %7 : tensor<1x3x4x4xf32>
}

// -----

// 1-D, the divide written as arith.divf on tensors.
// CHECK-LABEL: func.func @avg_pool_1d_tensor_divf
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[}}5.000000e-01, 5.000000e-01], [0.000000e+00, 0.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00], [5.000000e-01, 5.000000e-01]]]> : tensor<2x2x2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<3> : vector<1xi64>} ins(%{{.*}}, %[[W]] : tensor<1x2x8xf32>, tensor<2x2x2xf32>)
// CHECK-NEXT: return %[[R]]
func.func @avg_pool_1d_tensor_divf(%arg0: tensor<1x2x8xf32>) -> tensor<1x2x3xf32> {
  %cst_0 = arith.constant 0.000000e+00 : f32
  %div = arith.constant dense<2.000000e+00> : tensor<1x2x3xf32>
  %3 = tensor.empty() : tensor<1x2x3xf32>
  %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  %5 = tensor.empty() : tensor<2xf32>
  %6 = linalg.pooling_ncw_sum {dilations = dense<1> : vector<1xi64>, strides = dense<3> : vector<1xi64>} ins(%arg0, %5 : tensor<1x2x8xf32>, tensor<2xf32>) outs(%4 : tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  %7 = arith.divf %6, %div : tensor<1x2x3xf32>
  return %7 : tensor<1x2x3xf32>
}

// -----

// The init is unknown, so the divide stays and the filter holds ones.
// CHECK-LABEL: func.func @sum_pool_argument_init
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK-NEXT: arith.divf %[[C]], %{{.*}} : tensor<1x2x3x3xf32>
func.func @sum_pool_argument_init(%arg0: tensor<1x2x6x6xf32>, %init: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %div = arith.constant dense<4.000000e+00> : tensor<1x2x3x3xf32>
  %5 = tensor.empty() : tensor<2x2xf32>
  %6 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %5 : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %7 = arith.divf %6, %div : tensor<1x2x3x3xf32>
  return %7 : tensor<1x2x3x3xf32>
}

// -----

// Must not fire: dynamic shapes.
// CHECK-LABEL: func.func @pool_dynamic
// CHECK: linalg.pooling_nchw_sum
func.func @pool_dynamic(%arg0: tensor<1x2x?x6xf32>, %init: tensor<1x2x?x3xf32>) -> tensor<1x2x?x3xf32> {
  %5 = tensor.empty() : tensor<2x2xf32>
  %6 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %5 : tensor<1x2x?x6xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x?x3xf32>) -> tensor<1x2x?x3xf32>
  return %6 : tensor<1x2x?x3xf32>
}

// -----

// CHECK-LABEL: func.func @vecmat_of_transpose
// CHECK-SAME: (%[[A:.*]]: tensor<5x7xf32>, %[[X:.*]]: tensor<7xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matvec ins(%[[A]], %[[X]] : tensor<5x7xf32>, tensor<7xf32>)
func.func @vecmat_of_transpose(%arg0: tensor<5x7xf32>, %arg2: tensor<7xf32>) -> tensor<5xf32> {
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<5xf32>
  %0 = tensor.empty() : tensor<7x5xf32>
  %transposed = linalg.transpose ins(%arg0 : tensor<5x7xf32>) outs(%0 : tensor<7x5xf32>) permutation = [1, 0]
  %1 = linalg.vecmat ins(%arg2, %transposed : tensor<7xf32>, tensor<7x5xf32>) outs(%cst_0 : tensor<5xf32>) -> tensor<5xf32>
  return %1 : tensor<5xf32>
}

// -----

// CHECK-LABEL: func.func @matvec_of_transpose
// CHECK-SAME: (%[[A:.*]]: tensor<7x5xf32>, %[[X:.*]]: tensor<7xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: linalg.vecmat ins(%[[X]], %[[A]] : tensor<7xf32>, tensor<7x5xf32>)
func.func @matvec_of_transpose(%arg0: tensor<7x5xf32>, %arg2: tensor<7xf32>) -> tensor<5xf32> {
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<5xf32>
  %0 = tensor.empty() : tensor<5x7xf32>
  %transposed = linalg.transpose ins(%arg0 : tensor<7x5xf32>) outs(%0 : tensor<5x7xf32>) permutation = [1, 0]
  %1 = linalg.matvec ins(%transposed, %arg2 : tensor<5x7xf32>, tensor<7xf32>) outs(%cst_0 : tensor<5xf32>) -> tensor<5xf32>
  return %1 : tensor<5xf32>
}

// -----

// Must not fire: no transpose.
// CHECK-LABEL: func.func @matvec_plain
// CHECK: linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<5x7xf32>, tensor<7xf32>)
func.func @matvec_plain(%arg0: tensor<5x7xf32>, %arg2: tensor<7xf32>) -> tensor<5xf32> {
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<5xf32>
  %1 = linalg.matvec ins(%arg0, %arg2 : tensor<5x7xf32>, tensor<7xf32>) outs(%cst_0 : tensor<5xf32>) -> tensor<5xf32>
  return %1 : tensor<5xf32>
}
