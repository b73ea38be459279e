// torch-mlir's AdaptiveAvgPool2d(1) + flatten + Linear (bias-free) on a 1x4x4x4 input: a sum over
// H and W into 1x4x1x1, a divide by 16, a collapse and a 1xK matmul. heir-opt --torch-linalg-to-ckks
// dies with SIGSEGV (without the divide it rejects the two-dim reduction instead); the raw
// torch-mlir export of ResNet-20 (its last block + GAP + Linear alone) crashes the same way.
func.func @main(%arg0: tensor<1x4x4x4xf32>) -> tensor<1x2xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %w = arith.constant dense<[[0.25, -0.5], [0.5, 0.125], [-0.25, 1.0], [0.75, -0.125]]> : tensor<4x2xf32>
  %0 = tensor.empty() : tensor<1x4x1x1xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<1x4x4x4xf32>) outs(%1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<1x4x1x1xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<1x4x1x1xf32>) outs(%0 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.constant 1.600000e+01 : f32
    %9 = arith.divf %in, %s : f32
    linalg.yield %9 : f32
  } -> tensor<1x4x1x1xf32>
  %collapsed = tensor.collapse_shape %d [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %5 = tensor.empty() : tensor<1x2xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<1x2xf32>) -> tensor<1x2xf32>
  %7 = linalg.matmul ins(%collapsed, %w : tensor<1x4xf32>, tensor<4x2xf32>) outs(%6 : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %7 : tensor<1x2xf32>
}
