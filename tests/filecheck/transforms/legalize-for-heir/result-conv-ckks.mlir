// heir-opt compiles ResultThroughConv's form at the depth bound: matvec, x², and the
// last stage as a conv laid out as the 2x3 result, 3 levels (Q has 4 moduli). Returned
// in pieces (one masked insert per row) it took 4.
// RUN: heirpy-opt %s -p legalize-for-heir | heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks | filecheck %s

func.func @main(%x: tensor<4xf32>) -> tensor<2x3xf32> {
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
// CHECK: ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]
