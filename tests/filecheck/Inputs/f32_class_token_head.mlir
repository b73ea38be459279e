// The f32 twin of f16_class_token_head.mlir (no casts): iree-prepare's IREE-form steps for
// half precision leave it as it was (tests/unit/test_iree_f16_dispatches.py).
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%x: tensor<1x4x8xf32>) -> tensor<1x3xf32> {
    %w = arith.constant dense<[[0.5, -0.25, 0.125, 1.0, 0.75, 0.5, -1.0, 0.25], [0.0625, -0.5, 0.375, -0.75, 0.25, 0.5, -0.125, 0.5], [-0.5, 0.25, 1.0, -0.25, 0.125, 0.75, -0.5, 0.0625]]> : tensor<3x8xf32>
    %b = arith.constant dense<[0.5, -0.25, 0.125]> : tensor<3xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x4x8xf32>
    %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x8xf32>) outs(%e : tensor<1x4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %c2 = arith.constant 2.0 : f32
      %m = arith.mulf %a, %c2 : f32
      linalg.yield %m : f32
    } -> tensor<1x4x8xf32>
    %s3 = tensor.extract_slice %n[0, 0, 0] [1, 1, 8] [1, 1, 1] : tensor<1x4x8xf32> to tensor<1x1x8xf32>
    %s = tensor.collapse_shape %s3 [[0, 1], [2]] : tensor<1x1x8xf32> into tensor<1x8xf32>
    %e1 = tensor.empty() : tensor<8x3xf32>
    %wt = linalg.transpose ins(%w : tensor<3x8xf32>) outs(%e1 : tensor<8x3xf32>) permutation = [1, 0]
    %e4 = tensor.empty() : tensor<1x3xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %mm = linalg.matmul ins(%s, %wt : tensor<1x8xf32>, tensor<8x3xf32>) outs(%f : tensor<1x3xf32>) -> tensor<1x3xf32>
    %e5 = tensor.empty() : tensor<1x3xf32>
    %out = linalg.generic {indexing_maps = [#m2, #row, #m2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e5 : tensor<1x3xf32>) {
    ^bb0(%a: f32, %bb: f32, %o: f32):
      %s2 = arith.addf %a, %bb : f32
      linalg.yield %s2 : f32
    } -> tensor<1x3xf32>
    return %out : tensor<1x3xf32>
  }
}
