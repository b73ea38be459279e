#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#last = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @main(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
    %c0 = arith.constant 0.000000e+00 : f32
    %c0_64 = arith.constant 0.000000e+00 : f64
    %n32 = arith.constant 8.000000e+00 : f32
    %n64 = arith.constant 8.000000e+00 : f64
    %eps64 = arith.constant 9.9999999999999995E-7 : f64
    %gamma = arith.constant dense<[1.0, 1.5, 0.5, 2.0, 1.25, 0.75, 1.0, 3.0]> : tensor<8xf32>
    %beta = arith.constant dense<[0.0, 0.25, -0.5, 1.0, 0.5, -1.0, 0.125, 2.0]> : tensor<8xf32>
    %et = tensor.empty() : tensor<1x4x4x8xf32>
    %t = linalg.transpose ins(%x : tensor<1x8x4x4xf32>) outs(%et : tensor<1x4x4x8xf32>) permutation = [0, 2, 3, 1]
    %src = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<1x4x4x8xf32> into tensor<4x4x8xf32>
    %e64 = tensor.empty() : tensor<4x4x8xf64>
    %x64 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%src : tensor<4x4x8xf32>) outs(%e64 : tensor<4x4x8xf64>) {
    ^bb0(%in: f32, %out: f64):
      %v = arith.extf %in : f32 to f64
      linalg.yield %v : f64
    } -> tensor<4x4x8xf64>
    %r64 = tensor.empty() : tensor<4x4x1xf64>
    %z64 = linalg.fill ins(%c0_64 : f64) outs(%r64 : tensor<4x4x1xf64>) -> tensor<4x4x1xf64>
    %s64 = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x64 : tensor<4x4x8xf64>) outs(%z64 : tensor<4x4x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %v = arith.addf %in, %out : f64
      linalg.yield %v : f64
    } -> tensor<4x4x1xf64>
    %m64 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s64 : tensor<4x4x1xf64>) outs(%r64 : tensor<4x4x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %v = arith.divf %in, %n64 : f64
      linalg.yield %v : f64
    } -> tensor<4x4x1xf64>
    %d64 = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x64, %m64 : tensor<4x4x8xf64>, tensor<4x4x1xf64>) outs(%e64 : tensor<4x4x8xf64>) {
    ^bb0(%in: f64, %in_1: f64, %out: f64):
      %v = arith.subf %in, %in_1 : f64
      linalg.yield %v : f64
    } -> tensor<4x4x8xf64>
    %q64 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d64, %d64 : tensor<4x4x8xf64>, tensor<4x4x8xf64>) outs(%e64 : tensor<4x4x8xf64>) {
    ^bb0(%in: f64, %in_1: f64, %out: f64):
      %v = arith.mulf %in, %in_1 : f64
      linalg.yield %v : f64
    } -> tensor<4x4x8xf64>
    %ss64 = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q64 : tensor<4x4x8xf64>) outs(%z64 : tensor<4x4x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %v = arith.addf %in, %out : f64
      linalg.yield %v : f64
    } -> tensor<4x4x1xf64>
    %var64 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss64 : tensor<4x4x1xf64>) outs(%r64 : tensor<4x4x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %v = arith.divf %in, %n64 : f64
      linalg.yield %v : f64
    } -> tensor<4x4x1xf64>
    %r32 = tensor.empty() : tensor<4x4x1xf32>
    %var = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%var64 : tensor<4x4x1xf64>) outs(%r32 : tensor<4x4x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %v = arith.truncf %in : f64 to f32
      linalg.yield %v : f32
    } -> tensor<4x4x1xf32>
    %z32 = linalg.fill ins(%c0 : f32) outs(%r32 : tensor<4x4x1xf32>) -> tensor<4x4x1xf32>
    %s32 = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%src : tensor<4x4x8xf32>) outs(%z32 : tensor<4x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.addf %in, %out : f32
      linalg.yield %v : f32
    } -> tensor<4x4x1xf32>
    %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s32 : tensor<4x4x1xf32>) outs(%r32 : tensor<4x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.divf %in, %n32 : f32
      linalg.yield %v : f32
    } -> tensor<4x4x1xf32>
    %ve = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%var : tensor<4x4x1xf32>) outs(%r32 : tensor<4x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %eps = arith.truncf %eps64 : f64 to f32
      %v = arith.addf %in, %eps : f32
      linalg.yield %v : f32
    } -> tensor<4x4x1xf32>
    %rstd = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ve : tensor<4x4x1xf32>) outs(%r32 : tensor<4x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.rsqrt %in : f32
      linalg.yield %v : f32
    } -> tensor<4x4x1xf32>
    %e32 = tensor.empty() : tensor<4x4x8xf32>
    %cen = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%src, %mean : tensor<4x4x8xf32>, tensor<4x4x1xf32>) outs(%e32 : tensor<4x4x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %v = arith.subf %in, %in_1 : f32
      linalg.yield %v : f32
    } -> tensor<4x4x8xf32>
    %nrm = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cen, %rstd : tensor<4x4x8xf32>, tensor<4x4x1xf32>) outs(%e32 : tensor<4x4x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %v = arith.mulf %in, %in_1 : f32
      linalg.yield %v : f32
    } -> tensor<4x4x8xf32>
    %scl = linalg.generic {indexing_maps = [#id, #last, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%nrm, %gamma : tensor<4x4x8xf32>, tensor<8xf32>) outs(%e32 : tensor<4x4x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %v = arith.mulf %in, %in_1 : f32
      linalg.yield %v : f32
    } -> tensor<4x4x8xf32>
    %y = linalg.generic {indexing_maps = [#id, #last, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scl, %beta : tensor<4x4x8xf32>, tensor<8xf32>) outs(%e32 : tensor<4x4x8xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %v = arith.addf %in, %in_1 : f32
      linalg.yield %v : f32
    } -> tensor<4x4x8xf32>
    %ye = tensor.expand_shape %y [[0, 1], [2], [3]] output_shape [1, 4, 4, 8] : tensor<4x4x8xf32> into tensor<1x4x4x8xf32>
    %eo = tensor.empty() : tensor<1x8x4x4xf32>
    %o = linalg.transpose ins(%ye : tensor<1x4x4x8xf32>) outs(%eo : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
    return %o : tensor<1x8x4x4xf32>
  }
}
