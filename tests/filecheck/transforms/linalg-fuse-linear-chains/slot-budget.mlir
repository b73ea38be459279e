// The slot budget: a chain whose only exact form is a dense matrix (a zero pad between
// the convs breaks translation invariance) is fused when its vectors fit the budget, or
// when no vector of the matrix is longer than one the function carries anyway: a linear
// op outside the chain reads or writes it, or the function takes or returns it (its
// arguments and results are ciphertexts whatever is fused, so a chain that is the whole
// function always fits). The chain's own convs do not count. A chain that composes into
// one conv is fused whatever the budget. `policy=depth`: the padded chains' matrices are
// many times the convs' weights, which the default cost rule (cost_rule.mlir) would
// refuse anyway.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{policy=depth}' | filecheck %s --check-prefix=FIT
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{slot-budget=64 policy=depth}' | filecheck %s --check-prefix=TIGHT

func.func @padded(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<0.5> : tensor<2x2x3x3xf32>
  %b1 = arith.constant dense<0.0> : tensor<1x2x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) outs(%b1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = tensor.pad %c1 low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x7x7xf32>
  %w2 = arith.constant dense<0.25> : tensor<2x2x4x4xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x2x7x7xf32>, tensor<2x2x4x4xf32>) outs(%b2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// FIT-LABEL: func.func @padded
// FIT-NOT:   linalg.conv_2d_nchw_fchw
// FIT:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x128xf32>, tensor<128x32xf32>)
// FIT-NOT:   linalg.conv_2d_nchw_fchw
// FIT:       return
// The chain is the whole function: its 128-element input is the function's argument,
// a ciphertext anyway, so it fuses under the tight budget too.
// TIGHT-LABEL: func.func @padded
// TIGHT-NOT:   linalg.conv_2d_nchw_fchw
// TIGHT:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x128xf32>, tensor<128x32xf32>)
// TIGHT-NOT:   linalg.conv_2d_nchw_fchw
// TIGHT:       return

// -----

// Two unpadded convs compose into one conv, which the budget does not limit.
func.func @composable(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %w1 = arith.constant dense<0.5> : tensor<2x2x3x3xf32>
  %b1 = arith.constant dense<0.0> : tensor<1x2x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) outs(%b1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %w2 = arith.constant dense<0.25> : tensor<2x2x3x3xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%c1, %w2 : tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) outs(%b2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// FIT-LABEL: func.func @composable
// FIT:       %[[C:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%x, %{{.*}} : tensor<1x2x8x8xf32>, tensor<2x2x5x5xf32>)
// FIT-NEXT:  return %[[C]]
// TIGHT-LABEL: func.func @composable
// TIGHT:       %[[C:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%x, %{{.*}} : tensor<1x2x8x8xf32>, tensor<2x2x5x5xf32>)
// TIGHT-NEXT:  return %[[C]]

// -----

// The same chain after a conv that reads a 1x4x10x10 = 400-element vector (and an x²):
// the function needs 400 slots for that conv, so the 128-wide matrix fits under any
// budget.
func.func @padded_after_wider(%x: tensor<1x4x10x10xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w0 = arith.constant dense<0.125> : tensor<2x4x3x3xf32>
  %b0 = arith.constant dense<0.0> : tensor<1x2x8x8xf32>
  %c0 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x4x10x10xf32>, tensor<2x4x3x3xf32>) outs(%b0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x2x8x8xf32>) outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<1x2x8x8xf32>
  %w1 = arith.constant dense<0.5> : tensor<2x2x3x3xf32>
  %b1 = arith.constant dense<0.0> : tensor<1x2x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%sq, %w1 : tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) outs(%b1 : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %p = tensor.pad %c1 low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x7x7xf32>
  %w2 = arith.constant dense<0.25> : tensor<2x2x4x4xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x2x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x2x7x7xf32>, tensor<2x2x4x4xf32>) outs(%b2 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %c2 : tensor<1x2x4x4xf32>
}
// FIT-LABEL: func.func @padded_after_wider
// FIT:       linalg.conv_2d_nchw_fchw{{.*}} ins(%x, %{{.*}} : tensor<1x4x10x10xf32>, tensor<2x4x3x3xf32>)
// FIT:       arith.mulf
// FIT-NOT:   linalg.conv_2d_nchw_fchw
// FIT:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x128xf32>, tensor<128x32xf32>)
// FIT-NOT:   linalg.conv_2d_nchw_fchw
// FIT:       return
// TIGHT-LABEL: func.func @padded_after_wider
// TIGHT:       linalg.conv_2d_nchw_fchw{{.*}} ins(%x, %{{.*}} : tensor<1x4x10x10xf32>, tensor<2x4x3x3xf32>)
// TIGHT:       arith.mulf
// TIGHT-NOT:   linalg.conv_2d_nchw_fchw
// TIGHT-NOT:   tensor.pad
// TIGHT:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x128xf32>, tensor<128x32xf32>)
// TIGHT-NOT:   linalg.conv_2d_nchw_fchw
// TIGHT:       return

// -----

// A chain whose matrix writes a vector longer than anything the function carries: the
// 1x8x4x4 = 128 elements that the slice cuts to 32 before the return, beside a 72-element
// input, a Linear on 96 and results of 32 and 10. Under the tight budget the 128 needs a
// larger ring than the function does, so no matrix; the guard is the budget itself (FIT
// fuses the same chain into one). The zero pad does not move through the 3x3 conv, so the
// chain is a conv only with edge corrections (edge_corrections.py): a 4x4 conv of
// pad(x), and the last row, column and corner, whose vectors are no longer than the
// chain's own.
func.func @wider_than_carried(%x: tensor<1x2x6x6xf32>, %y: tensor<1x96xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %wl = arith.constant dense<0.125> : tensor<96x10xf32>
  %bl = arith.constant dense<0.0> : tensor<1x10xf32>
  %lin = linalg.matmul ins(%y, %wl : tensor<1x96xf32>, tensor<96x10xf32>) outs(%bl : tensor<1x10xf32>) -> tensor<1x10xf32>
  %w1 = arith.constant dense<0.5> : tensor<8x2x3x3xf32>
  %b1 = arith.constant dense<0.0> : tensor<1x8x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x6x6xf32>, tensor<8x2x3x3xf32>) outs(%b1 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %p = tensor.pad %c1 low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x5x5xf32>
  %w2 = arith.constant dense<0.25> : tensor<8x8x2x2xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x8x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w2 : tensor<1x8x5x5xf32>, tensor<8x8x2x2xf32>) outs(%b2 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %s = tensor.extract_slice %c2[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x8x4x4xf32> to tensor<1x2x4x4xf32>
  return %s, %lin : tensor<1x2x4x4xf32>, tensor<1x10xf32>
}
// FIT-LABEL: func.func @wider_than_carried
// FIT:       linalg.matmul ins(%y, %{{.*}} : tensor<1x96xf32>, tensor<96x10xf32>)
// FIT-NOT:   linalg.conv_2d_nchw_fchw
// FIT:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x72xf32>, tensor<72x128xf32>)
// FIT-NOT:   linalg.conv_2d_nchw_fchw
// FIT:       tensor.extract_slice
// FIT:       return
// TIGHT-LABEL: func.func @wider_than_carried
// TIGHT:       linalg.matmul ins(%y, %{{.*}} : tensor<1x96xf32>, tensor<96x10xf32>)
// TIGHT-NOT:   linalg.matmul
// TIGHT:       %[[X:.*]] = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 1, 1]
// TIGHT:       linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %{{.*}} : tensor<1x2x7x7xf32>, tensor<8x2x4x4xf32>)
// TIGHT-NOT:   linalg.matmul
// TIGHT:       tensor.extract_slice %[[X]][0, 0, 4, 0] [1, 2, 2, 7]
// TIGHT:       tensor.extract_slice %[[X]][0, 0, 0, 4] [1, 2, 7, 2]
// TIGHT:       tensor.extract_slice %[[X]][0, 0, 4, 4] [1, 2, 2, 2]
// TIGHT-NOT:   linalg.matmul
// TIGHT:       return
