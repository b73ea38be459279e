// heirpy's output for a small MobileNet block (depthwise part cut): a 1x1 conv, then one generic
// computing BN, x² and the global-average-pool sum (reduction loops, output map (d0, d1, 0, 0)),
// the /16, a collapse. heir-opt --torch-linalg-to-ckks crashes (SIGSEGV in a memcpy).
builtin.module {
  func.func @main(%arg0: tensor<1x2x4x4xf32>) -> tensor<1x4xf32> {
    %cst = arith.constant dense<[1.090000e+00, 9.200000e-01, 9.200000e-01, 7.700000e-01]> : tensor<4xf32>
    %cst_1 = arith.constant dense<[[[[-4.800000e-01]], [[-3.100000e-01]]], [[[2.600000e-01]], [[5.900000e-01]]], [[[-1.500000e-01]], [[5.300000e-01]]], [[[-1.100000e-01]], [[7.000000e-02]]]]> : tensor<4x2x1x1xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %0 = arith.constant dense<0.000000e+00> : tensor<1x4x4x4xf32>
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %cst_1 : tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) outs(%0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %2 = tensor.empty() : tensor<4xf32>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%cst : tensor<4xf32>) outs(%2 : tensor<4xf32>) {
    ^bb0(%4: f32, %5: f32):
      %6 = arith.constant 1.000000e-05 : f64
      %7 = arith.truncf %6 : f64 to f32
      %8 = arith.addf %4, %7 : f32
      %9 = math.sqrt %8 : f32
      %10 = arith.constant 1.000000e+00 : f32
      %11 = arith.divf %10, %9 : f32
      linalg.yield %11 : f32
    } -> tensor<4xf32>
    %12 = arith.constant dense<[[[[-0.465977073, -0.465977073, -0.465977073, -0.465977073], [-0.465977073, -0.465977073, -0.465977073, -0.465977073], [-0.465977073, -0.465977073, -0.465977073, -0.465977073], [-0.465977073, -0.465977073, -0.465977073, -0.465977073]], [[0.444246233, 0.444246233, 0.444246233, 0.444246233], [0.444246233, 0.444246233, 0.444246233, 0.444246233], [0.444246233, 0.444246233, 0.444246233, 0.444246233], [0.444246233, 0.444246233, 0.444246233, 0.444246233]], [[0.380179882, 0.380179882, 0.380179882, 0.380179882], [0.380179882, 0.380179882, 0.380179882, 0.380179882], [0.380179882, 0.380179882, 0.380179882, 0.380179882], [0.380179882, 0.380179882, 0.380179882, 0.380179882]], [[-0.498763978, -0.498763978, -0.498763978, -0.498763978], [-0.498763978, -0.498763978, -0.498763978, -0.498763978], [-0.498763978, -0.498763978, -0.498763978, -0.498763978], [-0.498763978, -0.498763978, -0.498763978, -0.498763978]]]]> : tensor<1x4x4x4xf32>
    %13 = arith.constant dense<0.000000e+00> : tensor<1x4x1x1xf32>
    %14 = tensor.empty() : tensor<1x4x1x1xf32>
    %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%1, %12, %3 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<4xf32>) outs(%13 : tensor<1x4x1x1xf32>) {
    ^bb0(%16: f32, %17: f32, %18: f32, %19: f32):
      %20 = arith.subf %16, %17 : f32
      %21 = arith.mulf %20, %18 : f32
      %22 = arith.constant 1.000000e+00 : f32
      %23 = arith.mulf %21, %22 : f32
      %24 = arith.constant 0.000000e+00 : f32
      %25 = arith.addf %23, %24 : f32
      %26 = arith.mulf %25, %25 : f32
      %27 = arith.addf %26, %19 : f32
      linalg.yield %27 : f32
    } -> tensor<1x4x1x1xf32>
    %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<1x4x1x1xf32>) outs(%14 : tensor<1x4x1x1xf32>) {
    ^bb0(%29: f32, %30: f32):
      %31 = arith.constant 1.600000e+01 : f32
      %32 = arith.divf %29, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<1x4x1x1xf32>
    %collapsed = tensor.collapse_shape %28 [[0 : i64], [1 : i64, 2 : i64, 3 : i64]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
    func.return %collapsed : tensor<1x4xf32>
  }
}

