// linalg-fuse-ops (both pipelines' fusion step) ends with no linear op reading a wide
// input with a narrow filter (issue 34): a widening a fold used stays (two 1x1 convs
// with torch-mlir's truncf between compose into one conv reading the f16 input, no
// truncf left), one no fold used is undone (the conv after a sigmoid reads the rounded
// f16 value again, as exported), in f16 and bf16.
// RUN: heirpy-opt %s -p linalg-fuse-ops | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-ops | iree-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p linalg-fuse-ops -o %t
// RUN: heirpy-equiv %s %t --function chain_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function after_sigmoid_bf16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// MLIR-COUNT-2: func.func @

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @chain_f16
// CHECK-NOT: truncf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
func.func @chain_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %w0 = arith.constant dense<[[[[0.5]], [[0.0]]], [[[0.0]], [[2.0]]]]> : tensor<2x2x1x1xf16>
  %w1 = arith.constant dense<[[[[1.5]], [[0.25]]], [[[-0.5]], [[2.0]]]]> : tensor<2x2x1x1xf16>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xf16>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %t0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t0, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c1 : tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @after_sigmoid_bf16
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x4x4xbf16>, tensor<2x2x1x1xbf16>) outs(%{{.*}} : tensor<1x2x4x4xf32>)
func.func @after_sigmoid_bf16(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %w = arith.constant dense<[[[[1.5]], [[0.25]]], [[[-0.5]], [[2.0]]]]> : tensor<2x2x1x1xbf16>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xbf16>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x4x4xf32>) outs(%e32 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<1x2x4x4xbf16>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t, %w : tensor<1x2x4x4xbf16>, tensor<2x2x1x1xbf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}
