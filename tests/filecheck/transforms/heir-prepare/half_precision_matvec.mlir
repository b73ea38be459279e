// heir-prepare on torch-mlir's f16 form of two YOLO heads (found by benchmarks/fuzz_dtypes.py,
// seed 0, f16-torch and bf16-torch programs #992-#995 of 1,000): a conv of f16 operands
// accumulating in f32 (then truncf) and an all-f16 conv, each reshaped, transposed and
// through a sigmoid, concatenated. legalize-for-heir writes each head as a matvec on its
// flat input; the matvec's result takes its init's type (f32 for the accumulating conv;
// heirpy once gave it the matrix's f16: "'linalg.matvec' op expected one result per tensor
// init, of the init's type"). The same program with bf16 storage.
// widen-half=false: these pin legalize-for-heir's half-precision types, which heir-prepare's
// last step (heir-widen-half, half_precision_widen.mlir) then computes in f32.
// RUN: heirpy-opt %s --split-input-file -p 'heir-prepare{widen-half=false}' | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'heir-prepare{widen-half=false}' | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

module {
  func.func @matvec_f16(%arg0: tensor<1x4x11x5xf16>, %arg1: tensor<4x4x3x1xf16>) -> tensor<1x79x3xf16> {
    %cst23 = arith.constant 1.000000e+00 : f16
    %cst1 = arith.constant 0.000000e+00 : f16
    %v2 = tensor.empty() : tensor<1x4x5x5xf16>
    %v3 = linalg.fill ins(%cst1 : f16) outs(%v2 : tensor<1x4x5x5xf16>) -> tensor<1x4x5x5xf16>
    %v4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%arg0, %arg1 : tensor<1x4x11x5xf16>, tensor<4x4x3x1xf16>) outs(%v3 : tensor<1x4x5x5xf16>) -> tensor<1x4x5x5xf16>
    %cst5 = arith.constant dense<[[[[0.578125]], [[-0.328125]], [[-0.140625]], [[-0.40625]]], [[[-0.265625]], [[-0.453125]], [[0.0625]], [[-0.546875]]], [[[-0.046875]], [[0.3125]], [[-0.203125]], [[-0.21875]]]]> : tensor<3x4x1x1xf16>
    %cst6 = arith.constant dense<[-0.46875, 0.140625, -0.671875]> : tensor<3xf16>
    %v7 = tensor.empty() : tensor<3xf32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%cst6 : tensor<3xf16>) outs(%v7 : tensor<3xf32>) {
    ^bb0(%in9: f16, %out10: f32):
      %v11 = arith.extf %in9 : f16 to f32
      linalg.yield %v11 : f32
    } -> tensor<3xf32>
    %v12 = tensor.empty() : tensor<1x3x2x2xf32>
    %broadcasted13 = linalg.broadcast ins(%v8 : tensor<3xf32>) outs(%v12 : tensor<1x3x2x2xf32>) dimensions = [0, 2, 3]
    %v14 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%v4, %cst5 : tensor<1x4x5x5xf16>, tensor<3x4x1x1xf16>) outs(%broadcasted13 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    %v15 = tensor.empty() : tensor<1x3x2x2xf16>
    %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v14 : tensor<1x3x2x2xf32>) outs(%v15 : tensor<1x3x2x2xf16>) {
    ^bb0(%in17: f32, %out18: f16):
      %v19 = arith.truncf %in17 : f32 to f16
      linalg.yield %v19 : f16
    } -> tensor<1x3x2x2xf16>
    %expanded20 = tensor.expand_shape %v16 [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 2, 2] : tensor<1x3x2x2xf16> into tensor<1x1x3x2x2xf16>
    %v21 = tensor.empty() : tensor<1x1x2x2x3xf16>
    %transposed22 = linalg.transpose ins(%expanded20 : tensor<1x1x3x2x2xf16>) outs(%v21 : tensor<1x1x2x2x3xf16>) permutation = [0, 1, 3, 4, 2]
    %v24 = tensor.empty() : tensor<1x1x2x2x3xf16>
    %v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed22 : tensor<1x1x2x2x3xf16>) outs(%v24 : tensor<1x1x2x2x3xf16>) {
    ^bb0(%in26: f16, %out27: f16):
      %v28 = arith.negf %in26 : f16
      %v29 = math.exp %v28 : f16
      %v30 = arith.addf %v29, %cst23 : f16
      %v31 = arith.divf %cst23, %v30 : f16
      linalg.yield %v31 : f16
    } -> tensor<1x1x2x2x3xf16>
    %collapsed32 = tensor.collapse_shape %v25 [[0], [1, 2, 3], [4]] : tensor<1x1x2x2x3xf16> into tensor<1x4x3xf16>
    %cst33 = arith.constant dense<[[[[0.234375]], [[0.328125]], [[-0.734375]], [[0.203125]]], [[[-0.09375]], [[-0.34375]], [[-0.71875]], [[0.265625]]], [[[0.625]], [[-0.953125]], [[0.953125]], [[-0.015625]]], [[[-0.03125]], [[-0.09375]], [[-0.015625]], [[-0.140625]]], [[[0.578125]], [[-0.984375]], [[0.0625]], [[-0.203125]]], [[[-0.3125]], [[-0.0625]], [[0.296875]], [[-0.375]]], [[[-0.375]], [[-0.578125]], [[-0.140625]], [[-0.125]]], [[[0.71875]], [[-0.0]], [[-0.59375]], [[-0.6875]]], [[[0.453125]], [[0.484375]], [[-0.21875]], [[0.25]]]]> : tensor<9x4x1x1xf16>
    %cst34 = arith.constant dense_resource<blob_34_9.float16> : tensor<9xf16>
    %v35 = tensor.empty() : tensor<1x9x5x5xf16>
    %broadcasted36 = linalg.broadcast ins(%cst34 : tensor<9xf16>) outs(%v35 : tensor<1x9x5x5xf16>) dimensions = [0, 2, 3]
    %v37 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%v4, %cst33 : tensor<1x4x5x5xf16>, tensor<9x4x1x1xf16>) outs(%broadcasted36 : tensor<1x9x5x5xf16>) -> tensor<1x9x5x5xf16>
    %expanded38 = tensor.expand_shape %v37 [[0], [1, 2], [3], [4]] output_shape [1, 3, 3, 5, 5] : tensor<1x9x5x5xf16> into tensor<1x3x3x5x5xf16>
    %v39 = tensor.empty() : tensor<1x3x5x5x3xf16>
    %transposed40 = linalg.transpose ins(%expanded38 : tensor<1x3x3x5x5xf16>) outs(%v39 : tensor<1x3x5x5x3xf16>) permutation = [0, 1, 3, 4, 2]
    %v41 = tensor.empty() : tensor<1x3x5x5x3xf16>
    %v42 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed40 : tensor<1x3x5x5x3xf16>) outs(%v41 : tensor<1x3x5x5x3xf16>) {
    ^bb0(%in43: f16, %out44: f16):
      %v45 = arith.negf %in43 : f16
      %v46 = math.exp %v45 : f16
      %v47 = arith.addf %v46, %cst23 : f16
      %v48 = arith.divf %cst23, %v47 : f16
      linalg.yield %v48 : f16
    } -> tensor<1x3x5x5x3xf16>
    %collapsed49 = tensor.collapse_shape %v42 [[0], [1, 2, 3], [4]] : tensor<1x3x5x5x3xf16> into tensor<1x75x3xf16>
    %concat50 = tensor.concat dim(1) %collapsed32, %collapsed49 : (tensor<1x4x3xf16>, tensor<1x75x3xf16>) -> tensor<1x79x3xf16>
    %v51 = tensor.empty() : tensor<1x79x3xf16>
    %v52 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat50 : tensor<1x79x3xf16>) outs(%v51 : tensor<1x79x3xf16>) {
    ^bb0(%in53: f16, %out54: f16):
      %v55 = arith.negf %in53 : f16
      %v56 = math.exp %v55 : f16
      %v57 = arith.addf %v56, %cst23 : f16
      %v58 = arith.divf %cst23, %v57 : f16
      linalg.yield %v58 : f16
    } -> tensor<1x79x3xf16>
    return %v52 : tensor<1x79x3xf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob_34_9.float16: "0x02000000002D80308031C03A002400B580B3203B60B9"
    }
  }
#-}
// CHECK-LABEL: func.func @matvec_f16(
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<12x180xf16>, tensor<180xf16>) outs(%{{.*}} : tensor<12xf32>) -> tensor<12xf32>
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<225x180xf16>, tensor<180xf16>) outs(%{{.*}} : tensor<225xf16>) -> tensor<225xf16>
// MLIR-LABEL:  func.func @matvec_f16(
// MLIR:        linalg.matvec {{.*}} -> tensor<12xf32>

// -----

module {
  func.func @matvec_bf16(%arg0: tensor<1x4x11x5xbf16>, %arg1: tensor<4x4x3x1xbf16>) -> tensor<1x79x3xbf16> {
    %cst23 = arith.constant 1.000000e+00 : bf16
    %cst1 = arith.constant 0.000000e+00 : bf16
    %v2 = tensor.empty() : tensor<1x4x5x5xbf16>
    %v3 = linalg.fill ins(%cst1 : bf16) outs(%v2 : tensor<1x4x5x5xbf16>) -> tensor<1x4x5x5xbf16>
    %v4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%arg0, %arg1 : tensor<1x4x11x5xbf16>, tensor<4x4x3x1xbf16>) outs(%v3 : tensor<1x4x5x5xbf16>) -> tensor<1x4x5x5xbf16>
    %cst5 = arith.constant dense<[[[[0.578125]], [[-0.328125]], [[-0.140625]], [[-0.40625]]], [[[-0.265625]], [[-0.453125]], [[0.0625]], [[-0.546875]]], [[[-0.046875]], [[0.3125]], [[-0.203125]], [[-0.21875]]]]> : tensor<3x4x1x1xbf16>
    %cst6 = arith.constant dense<[-0.46875, 0.140625, -0.671875]> : tensor<3xbf16>
    %v7 = tensor.empty() : tensor<3xf32>
    %v8 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%cst6 : tensor<3xbf16>) outs(%v7 : tensor<3xf32>) {
    ^bb0(%in9: bf16, %out10: f32):
      %v11 = arith.extf %in9 : bf16 to f32
      linalg.yield %v11 : f32
    } -> tensor<3xf32>
    %v12 = tensor.empty() : tensor<1x3x2x2xf32>
    %broadcasted13 = linalg.broadcast ins(%v8 : tensor<3xf32>) outs(%v12 : tensor<1x3x2x2xf32>) dimensions = [0, 2, 3]
    %v14 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%v4, %cst5 : tensor<1x4x5x5xbf16>, tensor<3x4x1x1xbf16>) outs(%broadcasted13 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    %v15 = tensor.empty() : tensor<1x3x2x2xbf16>
    %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v14 : tensor<1x3x2x2xf32>) outs(%v15 : tensor<1x3x2x2xbf16>) {
    ^bb0(%in17: f32, %out18: bf16):
      %v19 = arith.truncf %in17 : f32 to bf16
      linalg.yield %v19 : bf16
    } -> tensor<1x3x2x2xbf16>
    %expanded20 = tensor.expand_shape %v16 [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 2, 2] : tensor<1x3x2x2xbf16> into tensor<1x1x3x2x2xbf16>
    %v21 = tensor.empty() : tensor<1x1x2x2x3xbf16>
    %transposed22 = linalg.transpose ins(%expanded20 : tensor<1x1x3x2x2xbf16>) outs(%v21 : tensor<1x1x2x2x3xbf16>) permutation = [0, 1, 3, 4, 2]
    %v24 = tensor.empty() : tensor<1x1x2x2x3xbf16>
    %v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed22 : tensor<1x1x2x2x3xbf16>) outs(%v24 : tensor<1x1x2x2x3xbf16>) {
    ^bb0(%in26: bf16, %out27: bf16):
      %v28 = arith.negf %in26 : bf16
      %v29 = math.exp %v28 : bf16
      %v30 = arith.addf %v29, %cst23 : bf16
      %v31 = arith.divf %cst23, %v30 : bf16
      linalg.yield %v31 : bf16
    } -> tensor<1x1x2x2x3xbf16>
    %collapsed32 = tensor.collapse_shape %v25 [[0], [1, 2, 3], [4]] : tensor<1x1x2x2x3xbf16> into tensor<1x4x3xbf16>
    %cst33 = arith.constant dense<[[[[0.234375]], [[0.328125]], [[-0.734375]], [[0.203125]]], [[[-0.09375]], [[-0.34375]], [[-0.71875]], [[0.265625]]], [[[0.625]], [[-0.953125]], [[0.953125]], [[-0.015625]]], [[[-0.03125]], [[-0.09375]], [[-0.015625]], [[-0.140625]]], [[[0.578125]], [[-0.984375]], [[0.0625]], [[-0.203125]]], [[[-0.3125]], [[-0.0625]], [[0.296875]], [[-0.375]]], [[[-0.375]], [[-0.578125]], [[-0.140625]], [[-0.125]]], [[[0.71875]], [[-0.0]], [[-0.59375]], [[-0.6875]]], [[[0.453125]], [[0.484375]], [[-0.21875]], [[0.25]]]]> : tensor<9x4x1x1xbf16>
    %cst34 = arith.constant dense_resource<blob_34_9.bf16> : tensor<9xbf16>
    %v35 = tensor.empty() : tensor<1x9x5x5xbf16>
    %broadcasted36 = linalg.broadcast ins(%cst34 : tensor<9xbf16>) outs(%v35 : tensor<1x9x5x5xbf16>) dimensions = [0, 2, 3]
    %v37 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%v4, %cst33 : tensor<1x4x5x5xbf16>, tensor<9x4x1x1xbf16>) outs(%broadcasted36 : tensor<1x9x5x5xbf16>) -> tensor<1x9x5x5xbf16>
    %expanded38 = tensor.expand_shape %v37 [[0], [1, 2], [3], [4]] output_shape [1, 3, 3, 5, 5] : tensor<1x9x5x5xbf16> into tensor<1x3x3x5x5xbf16>
    %v39 = tensor.empty() : tensor<1x3x5x5x3xbf16>
    %transposed40 = linalg.transpose ins(%expanded38 : tensor<1x3x3x5x5xbf16>) outs(%v39 : tensor<1x3x5x5x3xbf16>) permutation = [0, 1, 3, 4, 2]
    %v41 = tensor.empty() : tensor<1x3x5x5x3xbf16>
    %v42 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed40 : tensor<1x3x5x5x3xbf16>) outs(%v41 : tensor<1x3x5x5x3xbf16>) {
    ^bb0(%in43: bf16, %out44: bf16):
      %v45 = arith.negf %in43 : bf16
      %v46 = math.exp %v45 : bf16
      %v47 = arith.addf %v46, %cst23 : bf16
      %v48 = arith.divf %cst23, %v47 : bf16
      linalg.yield %v48 : bf16
    } -> tensor<1x3x5x5x3xbf16>
    %collapsed49 = tensor.collapse_shape %v42 [[0], [1, 2, 3], [4]] : tensor<1x3x5x5x3xbf16> into tensor<1x75x3xbf16>
    %concat50 = tensor.concat dim(1) %collapsed32, %collapsed49 : (tensor<1x4x3xbf16>, tensor<1x75x3xbf16>) -> tensor<1x79x3xbf16>
    %v51 = tensor.empty() : tensor<1x79x3xbf16>
    %v52 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat50 : tensor<1x79x3xbf16>) outs(%v51 : tensor<1x79x3xbf16>) {
    ^bb0(%in53: bf16, %out54: bf16):
      %v55 = arith.negf %in53 : bf16
      %v56 = math.exp %v55 : bf16
      %v57 = arith.addf %v56, %cst23 : bf16
      %v58 = arith.divf %cst23, %v57 : bf16
      linalg.yield %v58 : bf16
    } -> tensor<1x79x3xbf16>
    return %v52 : tensor<1x79x3xbf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob_34_9.bf16: "0x02000000A03D103E303E583F803CA0BE70BE643F2CBF"
    }
  }
#-}
// CHECK-LABEL: func.func @matvec_bf16(
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<12x180xbf16>, tensor<180xbf16>) outs(%{{.*}} : tensor<12xf32>) -> tensor<12xf32>
// CHECK:       linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<225x180xbf16>, tensor<180xbf16>) outs(%{{.*}} : tensor<225xbf16>) -> tensor<225xbf16>
// MLIR-LABEL:  func.func @matvec_bf16(
// MLIR:        linalg.matvec {{.*}} -> tensor<12xf32>
