// A half-precision input into a chain that accumulates in f32 (an f16 conv, a flatten,
// then a Linear with f16 operands and an f32 accumulator, as torch-mlir writes a
// .half() layer) fuses into a flatten and ONE matmul. The flatten keeps the input's
// element type: linalg.matmul casts its f16 operand to f32, a collapse_shape cannot
// change the element type (heirpy once wrote `tensor<2x8xf32>` here, which heir-opt
// and iree-opt reject; found by benchmarks/fuzz_iree.py, f16 program #777). The fused
// weights are composed in float64 and rounded once to the f16 the chain stores them in;
// the accumulator stays f32 (the mixed-precision rule, docs/passes.md).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | heir-opt | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt | filecheck %s
// CHECK-LABEL: func.func @half_into_f32_accumulator(
// CHECK-NOT: linalg.conv
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<2x2x2x2xf16> into tensor<2x8xf16>
// CHECK: linalg.matmul ins(%[[FLAT]], %{{.*}} : tensor<2x8xf16>, tensor<8x2xf16>) outs(%{{.*}} : tensor<2x2xf32>)
// CHECK: arith.truncf
func.func @half_into_f32_accumulator(%x: tensor<2x2x2x2xf16>) -> tensor<2x2xf16> {
  %zero16 = arith.constant 0.0 : f16
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.25, -0.5], [0.75, 0.125]], [[-0.25, 0.5], [0.375, -0.625]]], [[[0.5, 0.25], [-0.125, 0.875]], [[0.625, -0.375], [0.25, 0.5]]], [[[-0.75, 0.125], [0.5, -0.25]], [[0.125, 0.25], [-0.5, 0.375]]]]> : tensor<3x2x2x2xf16>
  %e1 = tensor.empty() : tensor<2x3x1x1xf16>
  %z1 = linalg.fill ins(%zero16 : f16) outs(%e1 : tensor<2x3x1x1xf16>) -> tensor<2x3x1x1xf16>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<2x2x2x2xf16>, tensor<3x2x2x2xf16>) outs(%z1 : tensor<2x3x1x1xf16>) -> tensor<2x3x1x1xf16>
  %f = tensor.collapse_shape %c1 [[0], [1, 2, 3]] : tensor<2x3x1x1xf16> into tensor<2x3xf16>
  %w2 = arith.constant dense<[[0.5, 0.125], [-0.25, 0.375], [0.75, -0.5]]> : tensor<3x2xf16>
  %e2 = tensor.empty() : tensor<2x2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%f, %w2 : tensor<2x3xf16>, tensor<3x2xf16>) outs(%z2 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %e3 = tensor.empty() : tensor<2x2xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x2xf32>) outs(%e3 : tensor<2x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x2xf16>
  return %h : tensor<2x2xf16>
}
