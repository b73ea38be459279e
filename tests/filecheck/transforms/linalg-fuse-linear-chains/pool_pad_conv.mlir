// linalg-fuse-linear-chains: a zero pad between a pool and the next conv moves to the pool's input
// when the pool's windows are no wider than its stride and read its input to the end
// (linear_maps.pad_through_window), so pool and conv become one conv. Under policy=depth
// a chain that is the whole function may also become its dense matrix (its vectors are the
// function's own argument and result, encrypted anyway): a must-not-fire case that does is
// checked to be that matrix and no conv, since without the guard the one conv is cheaper.
// RUN: heirpy-opt %s --split-input-file -p "linalg-fuse-linear-chains{policy=depth}" | filecheck %s

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// VGG's stage boundary: AvgPool2d(2) -> pad 1 -> conv 3x3. pad(pool(x), 1) == pool(pad(x, 2)): one
// 6x6 stride-2 conv of x padded by 2.
func.func @avgpool_pad_conv(%x: tensor<1x2x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 1.000e-03,  2.990e-01, -2.740e-01],   [-8.910e-01, -4.550e-01, -9.920e-01],   [ 6.000e-02,  1.340e+00, -4.920e-01]],  [[-6.200e-01,  4.900e-01,  3.570e-01],   [ 1.050e-01, -9.300e-01, -2.900e-02],   [ 6.950e-01, -1.344e+00, -4.580e-01]]], [[[-1.901e+00, -1.290e+00, -1.842e+00],   [-2.350e-01, -1.267e+00,  2.710e-01],   [ 1.570e-01, -1.870e-01, -2.517e+00]],  [[-5.390e-01, -4.900e-02,  1.130e-01],   [-1.530e+00, -4.780e-01, -9.790e-01],   [-8.090e-01,  1.061e+00, -8.080e-01]]], [[[-3.300e-02,  8.840e-01, -5.840e-01],   [-1.120e-01,  1.100e-01,  6.400e-02],   [-1.225e+00,  7.600e-02,  1.359e+00]],  [[-1.547e+00,  8.590e-01,  1.190e-01],   [-6.410e-01,  2.000e+00,  7.620e-01],   [-1.199e+00,  7.500e-02,  5.770e-01]]]]> : tensor<3x2x3x3xf32>
  %b = arith.constant dense<[-0.189,  0.683, -0.067]> : tensor<3xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x2x4x4xf32>) outs(%pe : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x2x4x4xf32>
  %pad = tensor.pad %avg low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pv : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %ce = tensor.empty() : tensor<1x3x4x4xf32>
  %cb = linalg.broadcast ins(%b : tensor<3xf32>) outs(%ce : tensor<1x3x4x4xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%cb : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}
// CHECK-LABEL: func.func @avgpool_pad_conv(
// CHECK: tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK-NOT: linalg.pooling_nchw_sum
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x12x12xf32>, tensor<3x2x6x6xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// An asymmetric pad moves too, each side scaled by the stride: low (1, 0), high (0, 2) -> (2, 0), (0, 4).
func.func @asymmetric_pad(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.667,  1.439, -0.676],   [ 0.203, -0.463,  0.127],   [-1.187, -0.579, -0.196]],  [[ 0.899,  1.145, -1.324],   [-0.795,  0.647, -1.992],   [-0.463, -0.097,  1.257]]], [[[ 0.689, -0.327, -0.369],   [-0.25 ,  1.524, -0.428],   [-0.304,  0.353, -0.121]],  [[-0.197, -1.114, -0.012],   [-0.444,  1.166,  0.653],   [-0.024,  0.668, -0.34 ]]]]> : tensor<2x2x3x3xf32>
  %b = arith.constant dense<[ 1.052, -0.005]> : tensor<2xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x2x4x4xf32>) outs(%pe : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x2x4x4xf32>
  %pad = tensor.pad %avg low[0, 0, 1, 0] high[0, 0, 0, 2] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pv : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x5x6xf32>
  %ce = tensor.empty() : tensor<1x2x3x4xf32>
  %cb = linalg.broadcast ins(%b : tensor<2xf32>) outs(%ce : tensor<1x2x3x4xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad, %w : tensor<1x2x5x6xf32>, tensor<2x2x3x3xf32>) outs(%cb : tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  return %y : tensor<1x2x3x4xf32>
}
// CHECK-LABEL: func.func @asymmetric_pad(
// CHECK: tensor.pad %x low[0, 0, 2, 0] high[0, 0, 0, 4]
// CHECK-NOT: linalg.pooling_nchw_sum
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x10x12xf32>, tensor<2x2x6x6xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// A 2x2 pool of 9 rows leaves row 8 out; a pad on the low side only still moves (no new output
// reads past the pooled rows).
func.func @odd_rows_low_pad(%x: tensor<1x2x9x9xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.583, -1.291],   [ 0.347, -1.688]],  [[-2.035, -0.304],   [-0.9  ,  0.164]]], [[[ 2.245, -0.832],   [-0.624,  0.205]],  [[ 0.493, -0.176],   [-0.206,  0.702]]]]> : tensor<2x2x2x2xf32>
  %b = arith.constant dense<[ 0.52 , -1.034]> : tensor<2xf32>
  %pe = tensor.empty() : tensor<1x2x4x4xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x9x9xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x2x4x4xf32>) outs(%pe : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x2x4x4xf32>
  %pad = tensor.pad %avg low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pv : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x5x5xf32>
  %ce = tensor.empty() : tensor<1x2x4x4xf32>
  %cb = linalg.broadcast ins(%b : tensor<2xf32>) outs(%ce : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad, %w : tensor<1x2x5x5xf32>, tensor<2x2x2x2xf32>) outs(%cb : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @odd_rows_low_pad(
// CHECK: tensor.pad %x low[0, 0, 2, 2] high[0, 0, 0, 0]
// CHECK-NOT: linalg.pooling_nchw_sum
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x11x11xf32>, tensor<2x2x4x4xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// Must not fire: AvgPool2d(3, stride 2) windows overlap, so the new output before the first
// pooled one would read input row 0 (a low pad only: the high side alone would not move either).
func.func @overlapping_windows(%x: tensor<1x8x17x17xf32>) -> tensor<1x2x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 9.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.079,  0.035, -1.054],   [ 0.26 , -0.858,  0.972],   [ 0.193,  0.089, -0.591]],  [[-0.119, -1.998, -1.131],   [ 0.363, -2.129,  0.847],   [-1.746,  0.757, -0.845]],  [[ 0.779,  0.131, -1.537],   [ 1.249,  1.442, -0.066],   [-0.274, -0.16 , -0.975]],  [[ 1.099, -0.543, -0.051],   [-0.793, -0.626, -1.278],   [ 1.257, -0.154,  0.966]],  [[ 0.013, -0.694, -0.327],   [-0.56 ,  0.008, -0.375],   [-0.3  , -1.379, -0.807]],  [[ 1.654, -0.671, -1.054],   [ 0.337,  1.407, -1.454],   [-0.209, -0.632, -1.761]],  [[ 0.735, -0.023,  0.071],   [-0.752,  0.455, -0.539],   [-0.143, -1.108, -1.216]],  [[ 1.336, -0.507,  0.292],   [-0.034, -0.441, -0.508],   [ 0.63 , -0.302, -0.151]]], [[[ 0.022,  1.177,  0.681],   [ 0.383, -0.564, -1.382],   [ 0.95 ,  0.966, -0.141]],  [[ 0.542,  0.781,  0.831],   [ 0.921, -0.456,  1.515],   [-1.247,  0.862,  0.494]],  [[ 0.874,  1.879,  1.484],   [-1.145, -1.689,  0.817],   [-1.015, -0.012,  0.84 ]],  [[-1.644, -2.11 ,  0.259],   [ 0.044, -0.246,  0.039],   [-0.861, -1.513, -0.167]],  [[-0.972, -1.643,  0.506],   [-0.061,  0.407, -0.989],   [-0.658, -0.999, -0.887]],  [[ 0.195, -0.783,  0.356],   [ 0.34 ,  2.025, -1.393],   [ 0.888, -0.089, -0.014]],  [[-1.45 , -0.46 ,  0.743],   [-0.082,  0.081, -0.291],   [ 1.155, -0.021, -2.2  ]],  [[-0.692, -1.969, -3.251],   [-0.53 ,  1.334,  0.047],   [-1.173, -0.941,  1.131]]]]> : tensor<2x8x3x3xf32>
  %b = arith.constant dense<[0.158, 0.048]> : tensor<2xf32>
  %pe = tensor.empty() : tensor<1x8x8x8xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x8x17x17xf32>, tensor<3x3xf32>) outs(%pz : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x8x8xf32>) outs(%pe : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x8x8x8xf32>
  %pad = tensor.pad %avg low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pv : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x9x9xf32>
  %ce = tensor.empty() : tensor<1x2x7x7xf32>
  %cb = linalg.broadcast ins(%b : tensor<2xf32>) outs(%ce : tensor<1x2x7x7xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad, %w : tensor<1x8x9x9xf32>, tensor<2x8x3x3xf32>) outs(%cb : tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  return %y : tensor<1x2x7x7xf32>
}
// CHECK-LABEL: func.func @overlapping_windows(
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x2312xf32>, tensor<2312x98xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// Must not fire: the 2x2 pool of 17 rows leaves row 16 out, which the new output after the last
// pooled one would read.
func.func @row_left_out(%x: tensor<1x8x17x17xf32>) -> tensor<1x2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-5.300e-02,  3.800e-02,  8.050e-01],   [ 5.530e-01,  2.160e-01, -1.043e+00],   [ 5.110e-01, -6.840e-01,  1.094e+00]],  [[-1.271e+00, -1.380e-01, -7.000e-03],   [-1.325e+00,  1.722e+00,  1.460e+00],   [-4.640e-01,  7.720e-01,  3.790e-01]],  [[-2.614e+00,  2.500e-01, -6.100e-02],   [ 8.300e-02, -1.077e+00, -2.690e-01],   [-1.780e-01,  1.188e+00,  3.340e-01]],  [[-6.000e-03,  1.529e+00, -5.550e-01],   [-3.890e-01, -1.817e+00,  1.569e+00],   [ 9.640e-01,  9.170e-01,  6.690e-01]],  [[ 1.100e-01,  2.150e-01, -2.520e-01],   [-2.040e-01,  5.400e-02,  1.512e+00],   [ 5.560e-01, -5.800e-02, -5.790e-01]],  [[-6.350e-01,  1.603e+00,  5.070e-01],   [ 6.800e-02, -3.460e-01, -1.109e+00],   [-6.700e-02,  8.740e-01, -3.930e-01]],  [[-2.270e-01, -2.210e-01,  1.100e-01],   [-1.593e+00, -2.350e-01, -8.540e-01],   [ 8.850e-01, -7.710e-01,  5.770e-01]],  [[ 1.524e+00, -3.140e-01, -6.020e-01],   [ 1.910e-01, -2.000e-03, -9.940e-01],   [ 4.610e-01,  2.016e+00, -2.580e-01]]], [[[-2.030e-01, -1.045e+00,  3.190e-01],   [-1.247e+00, -1.107e+00,  1.280e+00],   [-9.050e-01,  1.081e+00,  1.524e+00]],  [[ 2.590e-01,  5.530e-01,  1.952e+00],   [-1.970e-01, -5.930e-01, -1.353e+00],   [ 4.200e-02,  1.479e+00,  9.600e-01]],  [[-9.420e-01, -8.550e-01, -5.040e-01],   [ 2.920e-01, -2.050e-01,  2.140e-01],   [ 2.970e-01, -2.990e-01, -4.000e-02]],  [[ 2.070e-01, -8.400e-02,  5.040e-01],   [ 1.871e+00,  5.920e-01,  5.600e-02],   [-1.686e+00,  3.880e-01, -1.947e+00]],  [[-1.409e+00,  8.550e-01,  7.060e-01],   [-1.500e-01, -1.710e+00, -3.710e-01],   [-6.790e-01,  6.370e-01,  2.258e+00]],  [[ 2.170e-01, -7.790e-01, -1.171e+00],   [-5.600e-02, -1.770e-01, -1.152e+00],   [ 1.160e-01, -1.151e+00,  1.112e+00]],  [[ 1.063e+00,  1.085e+00, -4.740e-01],   [ 5.150e-01, -1.320e-01, -3.890e-01],   [-3.390e-01, -1.300e+00, -1.444e+00]],  [[ 7.940e-01, -1.910e-01,  2.160e-01],   [ 1.002e+00, -1.733e+00, -7.840e-01],   [ 1.750e-01,  3.920e-01, -3.770e-01]]]]> : tensor<2x8x3x3xf32>
  %b = arith.constant dense<[1.029, 0.21 ]> : tensor<2xf32>
  %pe = tensor.empty() : tensor<1x8x8x8xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x8x17x17xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x8x8xf32>) outs(%pe : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x8x8x8xf32>
  %pad = tensor.pad %avg low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pv : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %cb = linalg.broadcast ins(%b : tensor<2xf32>) outs(%ce : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad, %w : tensor<1x8x10x10xf32>, tensor<2x8x3x3xf32>) outs(%cb : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  return %y : tensor<1x2x8x8xf32>
}
// CHECK-LABEL: func.func @row_left_out(
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x2312xf32>, tensor<2312x128xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// Must not fire: a pad of 1.0 is not the pool of a pad (the pooled pad would be 4.0 / 4 only
// for this divide; a conv's taps would not sum to it).
func.func @nonzero_pad_value(%x: tensor<1x8x16x16xf32>) -> tensor<1x2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %pv = arith.constant 1.0 : f32
  %w = arith.constant dense<[[[[-1.213, -0.931,  0.805],   [ 0.464, -1.899,  1.348],   [ 0.598,  1.343, -0.384]],  [[-0.296, -1.126,  2.537],   [-0.175,  1.588, -0.647],   [ 0.164, -1.671, -0.383]],  [[ 0.984, -1.252,  1.072],   [ 0.337, -1.044, -0.502],   [-0.459, -0.05 , -0.536]],  [[-0.827, -0.305, -1.027],   [-1.29 , -0.048,  0.883],   [-1.529,  0.004, -0.65 ]],  [[-0.977,  0.853, -0.518],   [ 1.498, -0.78 ,  0.387],   [-0.227, -0.754,  0.588]],  [[-0.155,  0.603, -0.047],   [-1.086, -0.102,  0.052],   [ 0.958, -0.906, -0.039]],  [[-1.722,  0.651, -1.081],   [-1.806, -0.059,  1.106],   [-1.524, -1.088, -0.743]],  [[-1.129,  0.379, -0.807],   [-0.722,  0.583, -0.756],   [ 0.433, -0.971, -1.212]]], [[[-1.835,  1.861, -0.32 ],   [ 0.244, -0.031,  0.16 ],   [ 0.05 ,  1.908, -1.039]],  [[-1.557, -1.012, -1.335],   [ 0.747,  0.82 , -0.961],   [-1.39 , -0.355,  1.391]],  [[-2.82 ,  0.527, -1.076],   [ 1.04 , -1.078, -0.285],   [-1.506, -0.977,  1.386]],  [[ 0.821, -0.402, -0.87 ],   [-1.894, -0.394, -0.031],   [-0.084, -0.094, -1.122]],  [[-0.066, -0.039,  1.291],   [ 1.867, -0.137, -0.766],   [-0.065, -0.608, -0.742]],  [[-0.059, -1.043,  0.606],   [-0.104,  0.25 , -0.183],   [-0.727, -0.948, -0.237]],  [[-0.549,  0.234, -0.004],   [-1.362,  0.067, -1.343],   [-0.616, -0.294, -2.075]],  [[ 0.092,  0.151, -0.158],   [-0.424, -0.374, -0.977],   [-0.27 , -0.553,  0.092]]]]> : tensor<2x8x3x3xf32>
  %b = arith.constant dense<[-1.204,  0.236]> : tensor<2xf32>
  %pe = tensor.empty() : tensor<1x8x8x8xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x8x16x16xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x8x8xf32>) outs(%pe : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x8x8x8xf32>
  %pad = tensor.pad %avg low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pv : f32
  } : tensor<1x8x8x8xf32> to tensor<1x8x10x10xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %cb = linalg.broadcast ins(%b : tensor<2xf32>) outs(%ce : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad, %w : tensor<1x8x10x10xf32>, tensor<2x8x3x3xf32>) outs(%cb : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  return %y : tensor<1x2x8x8xf32>
}
// CHECK-LABEL: func.func @nonzero_pad_value(
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x2048xf32>, tensor<2048x128xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// Must not fire: the pad also adds a channel (only H and W pads move).
func.func @channel_pad(%x: tensor<1x8x16x16xf32>) -> tensor<1x2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %pv = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[ 0.143, -0.142, -0.439],   [ 0.552, -1.665,  0.46 ],   [ 0.243,  0.283,  0.383]],  [[-0.654, -0.259,  0.637],   [ 0.431,  0.207, -1.514],   [ 0.538,  1.169,  1.01 ]],  [[ 0.234, -1.558,  0.943],   [-0.147, -2.533,  0.377],   [-1.492, -1.296, -0.635]],  [[ 1.273, -0.371,  0.271],   [ 1.748,  1.594, -0.103],   [-0.242, -1.261, -0.694]],  [[ 0.425,  0.396,  0.11 ],   [ 0.995, -0.772, -0.056],   [ 0.731,  0.584,  1.071]],  [[ 0.397, -0.309,  0.362],   [-1.003, -1.639,  0.581],   [-0.055,  0.308, -1.698]],  [[-0.365, -0.6  , -0.864],   [-2.255, -0.335,  0.897],   [ 0.381, -0.601, -0.015]],  [[ 0.757, -2.76 , -0.125],   [ 0.543,  0.682,  1.701],   [ 1.135,  0.313,  0.302]],  [[ 0.787, -0.539, -0.04 ],   [ 0.906,  1.957, -0.159],   [-0.048,  0.198,  1.343]]], [[[-0.03 ,  1.469, -0.967],   [-0.186, -0.198,  0.787],   [ 1.045, -1.509, -0.915]],  [[ 0.337, -0.659, -1.522],   [ 1.038,  0.494,  0.493],   [-0.475,  1.029, -0.24 ]],  [[ 1.096, -0.912, -0.854],   [ 0.205, -0.702,  0.675],   [ 0.26 , -0.923,  0.073]],  [[-0.351,  0.916, -0.633],   [-0.439,  1.211,  2.239],   [ 1.999,  0.063,  0.219]],  [[ 1.533, -0.124, -0.976],   [ 0.117,  0.452, -0.829],   [-1.646, -1.437,  0.665]],  [[-0.758, -0.141,  0.213],   [ 0.619, -0.335,  0.499],   [-0.89 , -0.362, -1.024]],  [[ 1.132, -0.027, -0.739],   [-0.352, -0.222,  0.701],   [-1.596, -1.037, -0.378]],  [[ 2.532,  0.956, -0.111],   [ 0.712,  2.057, -0.234],   [-0.366,  1.212,  0.494]],  [[ 0.671, -0.508,  1.924],   [ 1.71 ,  0.566,  0.684],   [-2.027,  0.638, -0.194]]]]> : tensor<2x9x3x3xf32>
  %b = arith.constant dense<[0.434, 0.682]> : tensor<2xf32>
  %pe = tensor.empty() : tensor<1x8x8x8xf32>
  %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x8x16x16xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x8x8xf32>) outs(%pe : tensor<1x8x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x8x8x8xf32>
  %pad = tensor.pad %avg low[0, 1, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pv : f32
  } : tensor<1x8x8x8xf32> to tensor<1x9x10x10xf32>
  %ce = tensor.empty() : tensor<1x2x8x8xf32>
  %cb = linalg.broadcast ins(%b : tensor<2xf32>) outs(%ce : tensor<1x2x8x8xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pad, %w : tensor<1x9x10x10xf32>, tensor<2x9x3x3xf32>) outs(%cb : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  return %y : tensor<1x2x8x8xf32>
}
// CHECK-LABEL: func.func @channel_pad(
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x2048xf32>, tensor<2048x128xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
