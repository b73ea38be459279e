// ViT-tiny f16's classifier in torch-mlir's form (issue 37: f16 under IREE's defaults): a
// LayerNorm-like generic rounding to f16, the class token sliced out and flattened, then
// torch-mlir's Linear: the weight transposed and widened, the input widened, an f32
// matmul, the f16 bias added, the result rounded. iree-prepare's fusion moves the input's
// extf before the flatten and folds the small weight into an f32 constant; IREE then ran
// the widening as a dispatch of its own (raw 2 dispatches, heirpy 3 before
// narrow-contraction-inputs; tests/unit/test_iree_f16_dispatches.py).
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%x: tensor<1x4x8xf32>) -> tensor<1x3xf16> {
    %w = arith.constant dense<[[0.5, -0.25, 0.125, 1.0, 0.75, 0.5, -1.0, 0.25], [0.0625, -0.5, 0.375, -0.75, 0.25, 0.5, -0.125, 0.5], [-0.5, 0.25, 1.0, -0.25, 0.125, 0.75, -0.5, 0.0625]]> : tensor<3x8xf16>
    %b = arith.constant dense<[0.5, -0.25, 0.125]> : tensor<3xf16>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x4x8xf16>
    %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x8xf32>) outs(%e : tensor<1x4x8xf16>) {
    ^bb0(%a: f32, %o: f16):
      %c2 = arith.constant 2.0 : f32
      %m = arith.mulf %a, %c2 : f32
      %t = arith.truncf %m : f32 to f16
      linalg.yield %t : f16
    } -> tensor<1x4x8xf16>
    %s3 = tensor.extract_slice %n[0, 0, 0] [1, 1, 8] [1, 1, 1] : tensor<1x4x8xf16> to tensor<1x1x8xf16>
    %s = tensor.collapse_shape %s3 [[0, 1], [2]] : tensor<1x1x8xf16> into tensor<1x8xf16>
    %e1 = tensor.empty() : tensor<8x3xf16>
    %wt = linalg.transpose ins(%w : tensor<3x8xf16>) outs(%e1 : tensor<8x3xf16>) permutation = [1, 0]
    %e2 = tensor.empty() : tensor<1x8xf32>
    %xw = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<1x8xf16>) outs(%e2 : tensor<1x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %y = arith.extf %a : f16 to f32
      linalg.yield %y : f32
    } -> tensor<1x8xf32>
    %e3 = tensor.empty() : tensor<8x3xf32>
    %ww = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%wt : tensor<8x3xf16>) outs(%e3 : tensor<8x3xf32>) {
    ^bb0(%a: f16, %o: f32):
      %y = arith.extf %a : f16 to f32
      linalg.yield %y : f32
    } -> tensor<8x3xf32>
    %e4 = tensor.empty() : tensor<1x3xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x3xf32>) -> tensor<1x3xf32>
    %mm = linalg.matmul ins(%xw, %ww : tensor<1x8xf32>, tensor<8x3xf32>) outs(%f : tensor<1x3xf32>) -> tensor<1x3xf32>
    %e5 = tensor.empty() : tensor<1x3xf16>
    %out = linalg.generic {indexing_maps = [#m2, #row, #m2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf16>) outs(%e5 : tensor<1x3xf16>) {
    ^bb0(%a: f32, %bb: f16, %o: f16):
      %be = arith.extf %bb : f16 to f32
      %s2 = arith.addf %a, %be : f32
      %t = arith.truncf %s2 : f32 to f16
      linalg.yield %t : f16
    } -> tensor<1x3xf16>
    return %out : tensor<1x3xf16>
  }
}
