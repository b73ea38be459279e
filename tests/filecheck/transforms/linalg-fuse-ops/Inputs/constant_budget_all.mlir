// The four functions of ../constant_budget.mlir in one module (for heirpy-equiv).
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

func.func @gap_linear(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf32>) outs(%e1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%e2 : tensor<4x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

func.func @gap_linear_f16(%x: tensor<1x4x6x6xf16>) -> (tensor<1x3xf16>) {
  %zero = arith.constant 0.0 : f16
  %n = arith.constant 36.0 : f16
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf16>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf16>
  %e1 = tensor.empty() : tensor<1x4x1x1xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x4x1x1xf16>) -> tensor<1x4x1x1xf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf16>) outs(%z1 : tensor<1x4x1x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<1x4x1x1xf16>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf16>) outs(%e1 : tensor<1x4x1x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %q = arith.divf %in, %n : f16
    linalg.yield %q : f16
  } -> tensor<1x4x1x1xf16>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf16> into tensor<1x4xf16>
  %e2 = tensor.empty() : tensor<4x3xf16>
  %wt = linalg.transpose ins(%w : tensor<3x4xf16>) outs(%e2 : tensor<4x3xf16>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf16>
  %z3 = linalg.fill ins(%zero : f16) outs(%e3 : tensor<1x3xf16>) -> tensor<1x3xf16>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf16>, tensor<4x3xf16>) outs(%z3 : tensor<1x3xf16>) -> tensor<1x3xf16>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf16>, tensor<3xf16>) outs(%e3 : tensor<1x3xf16>) {
  ^bb0(%in: f16, %bb: f16, %out: f16):
    %v = arith.addf %in, %bb : f16
    linalg.yield %v : f16
  } -> tensor<1x3xf16>
  return %r : tensor<1x3xf16>
}

func.func @gap_linear_beside_deeper(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>, tensor<1x4x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf32>) outs(%e1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%e2 : tensor<4x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  %e4 = tensor.empty() : tensor<1x4x6x6xf32>
  %x2 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x6x6xf32>) outs(%e4 : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x6x6xf32>
  %x4 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2 : tensor<1x4x6x6xf32>) outs(%e4 : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x6x6xf32>
  %x8 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x4 : tensor<1x4x6x6xf32>) outs(%e4 : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<1x4x6x6xf32>
  return %r, %x8 : tensor<1x3xf32>, tensor<1x4x6x6xf32>
}

func.func @gap_linear_linear(%x: tensor<1x4x6x6xf32>) -> (tensor<1x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 36.0 : f32
  %w = arith.constant dense<[[0.35, 0.82, 0.33, -1.30], [0.91, 0.45, -0.54, 0.58], [0.36, 0.29, 0.03, 0.55]]> : tensor<3x4xf32>
  %b = arith.constant dense<[-0.74, -0.16, -0.48]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x4x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x6x6xf32>) outs(%z1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x4x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf32>) outs(%e1 : tensor<1x4x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x4x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%e2 : tensor<4x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  %w2 = arith.constant dense<[[0.5, -0.25, 1.0], [0.75, 0.125, -0.5], [-1.0, 0.25, 0.5]]> : tensor<3x3xf32>
  %e5 = tensor.empty() : tensor<3x3xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<3x3xf32>) outs(%e5 : tensor<3x3xf32>) permutation = [1, 0]
  %z5 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r2 = linalg.matmul ins(%r, %w2t : tensor<1x3xf32>, tensor<3x3xf32>) outs(%z5 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r2 : tensor<1x3xf32>
}
