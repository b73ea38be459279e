// A ViT-like stack of four f16 blocks in torch-mlir's form (issue 37: f16 under IREE's
// defaults): each block widens its input with a standalone extf generic read by two
// row reductions (a LayerNorm's sums), normalises and rounds to f16, runs an f16 Linear
// (transposed weight, extf generics, f32 matmul) and adds the residual in f16; the last
// block's output goes to a final LayerNorm-like pair of reductions only. iree-prepare's
// pointwise fusion moved that last extf into the last residual add, which then stored
// f32 and compiled to an executable the other blocks could not share (raw 7 executables,
// 8 before sink-widening-casts, 7 with it; 14 dispatches per call in all three;
// tests/unit/test_iree_f16_dispatches.py). The weights are
// exact f16 values.
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#r2 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @main(%x: tensor<16x8xf16>) -> tensor<16x1xf32> {
    %w0 = arith.constant dense<[[0.5, -0.25, 0.125, 1.0, 0.75, 0.5, -1.0, 0.25], [0.0625, -0.5, 0.375, -0.75, 0.25, 0.5, -0.125, 0.5], [-0.5, 0.25, 1.0, -0.25, 0.125, 0.75, -0.5, 0.0625], [0.25, 0.5, -0.125, 0.5, -0.5, 0.25, 1.0, -0.25], [0.125, 0.75, -0.5, 0.0625, 1.0, -1.0, 0.5, 0.25], [-0.75, 0.125, 0.25, 0.5, 0.5, -0.25, 0.125, 1.0], [1.0, -1.0, 0.5, 0.25, -0.75, 0.125, 0.25, 0.5], [0.75, 0.5, -1.0, 0.25, 0.0625, -0.5, 0.375, -0.75]]> : tensor<8x8xf16>
    %w1 = arith.constant dense<[[0.5625, -0.25, 0.125, 1.0, 0.75, 0.5, -1.0, 0.25], [0.0625, -0.5, 0.375, -0.75, 0.25, 0.5, -0.125, 0.5], [-0.5, 0.25, 1.0, -0.25, 0.125, 0.75, -0.5, 0.0625], [0.25, 0.5, -0.125, 0.5, -0.5, 0.25, 1.0, -0.25], [0.125, 0.75, -0.5, 0.0625, 1.0, -1.0, 0.5, 0.25], [-0.75, 0.125, 0.25, 0.5, 0.5, -0.25, 0.125, 1.0], [1.0, -1.0, 0.5, 0.25, -0.75, 0.125, 0.25, 0.5], [0.75, 0.5, -1.0, 0.25, 0.0625, -0.5, 0.375, -0.75]]> : tensor<8x8xf16>
    %w2 = arith.constant dense<[[0.625, -0.25, 0.125, 1.0, 0.75, 0.5, -1.0, 0.25], [0.0625, -0.5, 0.375, -0.75, 0.25, 0.5, -0.125, 0.5], [-0.5, 0.25, 1.0, -0.25, 0.125, 0.75, -0.5, 0.0625], [0.25, 0.5, -0.125, 0.5, -0.5, 0.25, 1.0, -0.25], [0.125, 0.75, -0.5, 0.0625, 1.0, -1.0, 0.5, 0.25], [-0.75, 0.125, 0.25, 0.5, 0.5, -0.25, 0.125, 1.0], [1.0, -1.0, 0.5, 0.25, -0.75, 0.125, 0.25, 0.5], [0.75, 0.5, -1.0, 0.25, 0.0625, -0.5, 0.375, -0.75]]> : tensor<8x8xf16>
    %w3 = arith.constant dense<[[0.6875, -0.25, 0.125, 1.0, 0.75, 0.5, -1.0, 0.25], [0.0625, -0.5, 0.375, -0.75, 0.25, 0.5, -0.125, 0.5], [-0.5, 0.25, 1.0, -0.25, 0.125, 0.75, -0.5, 0.0625], [0.25, 0.5, -0.125, 0.5, -0.5, 0.25, 1.0, -0.25], [0.125, 0.75, -0.5, 0.0625, 1.0, -1.0, 0.5, 0.25], [-0.75, 0.125, 0.25, 0.5, 0.5, -0.25, 0.125, 1.0], [1.0, -1.0, 0.5, 0.25, -0.75, 0.125, 0.25, 0.5], [0.75, 0.5, -1.0, 0.25, 0.0625, -0.5, 0.375, -0.75]]> : tensor<8x8xf16>
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<16x1xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
    %e16 = tensor.empty() : tensor<16x8xf16>
    %e32 = tensor.empty() : tensor<16x8xf32>
    %e88 = tensor.empty() : tensor<8x8xf16>
    %e88f = tensor.empty() : tensor<8x8xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<16x8xf32>) -> tensor<16x8xf32>

    %xe0 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %sum0 = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xe0 : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %s = arith.addf %w, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %sq0 = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xe0 : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %m = arith.mulf %w, %w : f32
      %s = arith.addf %m, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %n0 = linalg.generic {indexing_maps = [#m2, #r2, #r2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xe0, %sum0, %sq0 : tensor<16x8xf32>, tensor<16x1xf32>, tensor<16x1xf32>) outs(%e16 : tensor<16x8xf16>) {
    ^bb0(%w: f32, %m: f32, %q: f32, %o: f16):
      %c = arith.constant 0.125 : f32
      %mm = arith.mulf %m, %c : f32
      %qq = arith.mulf %q, %c : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %qq, %one : f32
      %dd = arith.subf %w, %mm : f32
      %d = arith.divf %dd, %den : f32
      %t = arith.truncf %d : f32 to f16
      linalg.yield %t : f16
    } -> tensor<16x8xf16>
    %ne0 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%n0 : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %wt0 = linalg.transpose ins(%w0 : tensor<8x8xf16>) outs(%e88 : tensor<8x8xf16>) permutation = [1, 0]
    %we0 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%wt0 : tensor<8x8xf16>) outs(%e88f : tensor<8x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<8x8xf32>
    %mm0 = linalg.matmul ins(%ne0, %we0 : tensor<16x8xf32>, tensor<8x8xf32>) outs(%z2 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %y0 = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x, %mm0 : tensor<16x8xf16>, tensor<16x8xf32>) outs(%e16 : tensor<16x8xf16>) {
    ^bb0(%a: f16, %b: f32, %o: f16):
      %t = arith.truncf %b : f32 to f16
      %s = arith.addf %a, %t : f16
      linalg.yield %s : f16
    } -> tensor<16x8xf16>

    %xe1 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y0 : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %sum1 = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xe1 : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %s = arith.addf %w, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %sq1 = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xe1 : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %m = arith.mulf %w, %w : f32
      %s = arith.addf %m, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %n1 = linalg.generic {indexing_maps = [#m2, #r2, #r2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xe1, %sum1, %sq1 : tensor<16x8xf32>, tensor<16x1xf32>, tensor<16x1xf32>) outs(%e16 : tensor<16x8xf16>) {
    ^bb0(%w: f32, %m: f32, %q: f32, %o: f16):
      %c = arith.constant 0.125 : f32
      %mm = arith.mulf %m, %c : f32
      %qq = arith.mulf %q, %c : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %qq, %one : f32
      %dd = arith.subf %w, %mm : f32
      %d = arith.divf %dd, %den : f32
      %t = arith.truncf %d : f32 to f16
      linalg.yield %t : f16
    } -> tensor<16x8xf16>
    %ne1 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%n1 : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %wt1 = linalg.transpose ins(%w1 : tensor<8x8xf16>) outs(%e88 : tensor<8x8xf16>) permutation = [1, 0]
    %we1 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%wt1 : tensor<8x8xf16>) outs(%e88f : tensor<8x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<8x8xf32>
    %mm1 = linalg.matmul ins(%ne1, %we1 : tensor<16x8xf32>, tensor<8x8xf32>) outs(%z2 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %y1 = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y0, %mm1 : tensor<16x8xf16>, tensor<16x8xf32>) outs(%e16 : tensor<16x8xf16>) {
    ^bb0(%a: f16, %b: f32, %o: f16):
      %t = arith.truncf %b : f32 to f16
      %s = arith.addf %a, %t : f16
      linalg.yield %s : f16
    } -> tensor<16x8xf16>

    %xe2 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y1 : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %sum2 = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xe2 : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %s = arith.addf %w, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %sq2 = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xe2 : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %m = arith.mulf %w, %w : f32
      %s = arith.addf %m, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %n2 = linalg.generic {indexing_maps = [#m2, #r2, #r2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xe2, %sum2, %sq2 : tensor<16x8xf32>, tensor<16x1xf32>, tensor<16x1xf32>) outs(%e16 : tensor<16x8xf16>) {
    ^bb0(%w: f32, %m: f32, %q: f32, %o: f16):
      %c = arith.constant 0.125 : f32
      %mm = arith.mulf %m, %c : f32
      %qq = arith.mulf %q, %c : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %qq, %one : f32
      %dd = arith.subf %w, %mm : f32
      %d = arith.divf %dd, %den : f32
      %t = arith.truncf %d : f32 to f16
      linalg.yield %t : f16
    } -> tensor<16x8xf16>
    %ne2 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%n2 : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %wt2 = linalg.transpose ins(%w2 : tensor<8x8xf16>) outs(%e88 : tensor<8x8xf16>) permutation = [1, 0]
    %we2 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%wt2 : tensor<8x8xf16>) outs(%e88f : tensor<8x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<8x8xf32>
    %mm2 = linalg.matmul ins(%ne2, %we2 : tensor<16x8xf32>, tensor<8x8xf32>) outs(%z2 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %y2 = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y1, %mm2 : tensor<16x8xf16>, tensor<16x8xf32>) outs(%e16 : tensor<16x8xf16>) {
    ^bb0(%a: f16, %b: f32, %o: f16):
      %t = arith.truncf %b : f32 to f16
      %s = arith.addf %a, %t : f16
      linalg.yield %s : f16
    } -> tensor<16x8xf16>

    %xe3 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y2 : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %sum3 = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xe3 : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %s = arith.addf %w, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %sq3 = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xe3 : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %m = arith.mulf %w, %w : f32
      %s = arith.addf %m, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %n3 = linalg.generic {indexing_maps = [#m2, #r2, #r2, #m2], iterator_types = ["parallel", "parallel"]} ins(%xe3, %sum3, %sq3 : tensor<16x8xf32>, tensor<16x1xf32>, tensor<16x1xf32>) outs(%e16 : tensor<16x8xf16>) {
    ^bb0(%w: f32, %m: f32, %q: f32, %o: f16):
      %c = arith.constant 0.125 : f32
      %mm = arith.mulf %m, %c : f32
      %qq = arith.mulf %q, %c : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %qq, %one : f32
      %dd = arith.subf %w, %mm : f32
      %d = arith.divf %dd, %den : f32
      %t = arith.truncf %d : f32 to f16
      linalg.yield %t : f16
    } -> tensor<16x8xf16>
    %ne3 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%n3 : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %wt3 = linalg.transpose ins(%w3 : tensor<8x8xf16>) outs(%e88 : tensor<8x8xf16>) permutation = [1, 0]
    %we3 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%wt3 : tensor<8x8xf16>) outs(%e88f : tensor<8x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<8x8xf32>
    %mm3 = linalg.matmul ins(%ne3, %we3 : tensor<16x8xf32>, tensor<8x8xf32>) outs(%z2 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %y3 = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y2, %mm3 : tensor<16x8xf16>, tensor<16x8xf32>) outs(%e16 : tensor<16x8xf16>) {
    ^bb0(%a: f16, %b: f32, %o: f16):
      %t = arith.truncf %b : f32 to f16
      %s = arith.addf %a, %t : f16
      linalg.yield %s : f16
    } -> tensor<16x8xf16>


    %xef = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%y3 : tensor<16x8xf16>) outs(%e32 : tensor<16x8xf32>) {
    ^bb0(%a: f16, %o: f32):
      %w = arith.extf %a : f16 to f32
      linalg.yield %w : f32
    } -> tensor<16x8xf32>
    %final = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xef : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %s = arith.addf %w, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %finalsq = linalg.generic {indexing_maps = [#m2, #r2], iterator_types = ["parallel", "reduction"]} ins(%xef : tensor<16x8xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%w: f32, %o: f32):
      %m = arith.mulf %w, %w : f32
      %s = arith.addf %m, %o : f32
      linalg.yield %s : f32
    } -> tensor<16x1xf32>
    %fin = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%final, %finalsq : tensor<16x1xf32>, tensor<16x1xf32>) outs(%z1 : tensor<16x1xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<16x1xf32>
    return %fin : tensor<16x1xf32>
  }
}
