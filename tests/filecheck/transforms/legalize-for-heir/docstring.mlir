// The example of LegalizeForHeirPass's docstring, small: a strided conv on a padded
// input, x², and a torch Linear (1xK matmul). HEIR rejects the input (1xK matmul) and
// compiles the output to 3 levels, the depth bound (Q has 4 moduli).
// RUN: heirpy-opt %s -p legalize-for-heir | filecheck %s
// RUN: heirpy-opt %s -p legalize-for-heir | heir-opt --secretize=function=doc '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks | filecheck %s --check-prefix=CKKS

func.func @doc(%x: tensor<1x1x4x4xf32>) -> tensor<1x2xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x4x4xf32> to tensor<1x1x6x6xf32>
  %w = arith.constant dense<[[[[0.5, -1.0], [0.25, 2.0]]], [[[1.0, 0.0], [-0.5, 1.5]]]]> : tensor<2x1x2x2xf32>
  %b = arith.constant dense<0.125> : tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x1x6x6xf32>, tensor<2x1x2x2xf32>) outs(%b : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x3x3xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x2x3x3xf32>
  %f = tensor.collapse_shape %s [[0], [1, 2, 3]] : tensor<1x2x3x3xf32> into tensor<1x18xf32>
  %fc = arith.constant dense<0.0625> : tensor<18x2xf32>
  %z = arith.constant dense<[[1.0, -1.0]]> : tensor<1x2xf32>
  %y = linalg.matmul ins(%f, %fc : tensor<1x18xf32>, tensor<18x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @doc
// CHECK-NEXT: %[[XF:.*]] = tensor.collapse_shape %x {{\[}}[0, 1, 2, 3]] : tensor<1x1x4x4xf32> into tensor<16xf32>
// CHECK-NEXT: %[[B1:.*]] = arith.constant dense<1.250000e-01> : tensor<18xf32>
// CHECK-NEXT: %[[A1:.*]] = arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<18x16xf32>
// CHECK-NEXT: %[[H:.*]] = linalg.matvec ins(%{{.*}}, %[[XF]] : tensor<18x16xf32>, tensor<16xf32>) outs(%[[B1]] : tensor<18xf32>)
// CHECK:      %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP0]]], iterator_types = ["parallel"]} ins(%[[H]] : tensor<18xf32>)
// CHECK:        arith.mulf
// CHECK:      } -> tensor<18xf32>
// CHECK-NEXT: %[[B2:.*]] = arith.constant dense<[1.000000e+00, -1.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[W2:.*]] = arith.constant dense<6.250000e-02> : tensor<2x18xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.matvec ins(%[[W2]], %[[S]] : tensor<2x18xf32>, tensor<18xf32>) outs(%[[B2]] : tensor<2xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
// CHECK-NEXT: return %[[R]]
// CKKS: ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]
