// policy=diagonals: a chain fuses when the plaintext diagonals Orion packs for the fused
// op are at most max-diagonal-growth (default 2) times those of the ops it replaces, per
// level saved (heirpy.analysis.orion_packing counts them as Orion's packing does).
// @vgg_tail is the end of the VGG-style CIFAR net: a 2x2 average pool, a global pool and
// a Linear(64, 10), the network's last layer, which Orion packs "square". Read from a
// function argument (gap 1) they are 144 + 32 + 73 = 249 diagonals; fused into one
// 10 x 4096 Linear, 4096 + 9 = 4105 (16.5x for two levels): refused by the default bound
// (2^2 = 4) and by max-diagonal-growth=4 (16), fused with 5 (25). In the whole net (gap 4
// there) it is 37 + 100 + 73 -> 4105, and Orion's compile of it was killed at 24 GiB.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{slot-budget=0 policy=diagonals}' | filecheck %s --check-prefix=DIAG
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{slot-budget=0 policy=diagonals max-diagonal-growth=4}' | filecheck %s --check-prefix=GROW4
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{slot-budget=0 policy=diagonals max-diagonal-growth=5}' | filecheck %s --check-prefix=LOOSE
// heirpy.export.orion.ORION_PIPELINE (the diagonals policy in both passes) refuses it too;
// the pipeline it replaces (MACs bounded 4x per level) fused it.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations{policy=diagonals},linalg-fuse-ops{slot-budget=0 policy=diagonals}' | filecheck %s --check-prefix=ORION
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations,linalg-fuse-ops{slot-budget=0 max-mac-growth=4}' | filecheck %s --check-prefix=MAC4

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @vgg_tail(%x: tensor<1x64x8x8xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %sixteen = arith.constant 16.0 : f32
  %w = arith.constant dense<0.125> : tensor<64x10xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e1 = tensor.empty() : tensor<1x64x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x64x8x8xf32>, tensor<2x2xf32>) outs(%z1 : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x64x4x4xf32>) outs(%e1 : tensor<1x64x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x64x4x4xf32>
  %e2 = tensor.empty() : tensor<1x64x1x1xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a : tensor<1x64x4x4xf32>) outs(%z2 : tensor<1x64x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<1x64x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x64x1x1xf32>) outs(%e2 : tensor<1x64x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %sixteen : f32
    linalg.yield %q : f32
  } -> tensor<1x64x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x64x1x1xf32> into tensor<1x64xf32>
  %e3 = tensor.empty() : tensor<1x10xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x10xf32>) -> tensor<1x10xf32>
  %r = linalg.matmul ins(%f, %w : tensor<1x64xf32>, tensor<64x10xf32>) outs(%z3 : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %r : tensor<1x10xf32>
}
// DIAG-LABEL: func.func @vgg_tail(
// DIAG: linalg.pooling_nchw_sum {{.*}} -> tensor<1x64x4x4xf32>
// DIAG: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// DIAG: tensor.collapse_shape {{.*}} into tensor<1x64xf32>
// DIAG: linalg.matmul {{.*}} tensor<1x64xf32>, tensor<64x10xf32>
// DIAG-NEXT: return
// GROW4-LABEL: func.func @vgg_tail(
// GROW4: linalg.pooling_nchw_sum
// GROW4: linalg.matmul {{.*}} tensor<1x64xf32>, tensor<64x10xf32>
// LOOSE-LABEL: func.func @vgg_tail(
// LOOSE-NEXT: tensor.collapse_shape %x {{.*}} into tensor<1x4096xf32>
// LOOSE: linalg.matmul {{.*}} tensor<1x4096xf32>, tensor<4096x10xf32>
// LOOSE-NEXT: return
// ORION-LABEL: func.func @vgg_tail(
// ORION: linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>} {{.*}} -> tensor<1x64x4x4xf32>
// ORION: tensor.collapse_shape {{.*}} into tensor<1x64xf32>
// ORION: linalg.matmul {{.*}} tensor<1x64xf32>, tensor<64x10xf32>
// ORION-NEXT: return
// MAC4-LABEL: func.func @vgg_tail(
// MAC4-NEXT: tensor.collapse_shape %x {{.*}} into tensor<1x4096xf32>
// MAC4: linalg.matmul {{.*}} tensor<1x4096xf32>, tensor<4096x10xf32>
// MAC4-NEXT: return

// -----

// A cheap fusion: a 2x2 sum pool (6 diagonals) and an 8 -> 3 Linear (12) become a 32 -> 3
// Linear (34): 1.9x for one level, within the default bound of 2, not within 1.5.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{policy=diagonals max-diagonal-growth=1.5}' | filecheck %s --check-prefix=TIGHT
func.func @pool2_linear(%x: tensor<1x2x4x4xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant 0.0 : f32
  %div = arith.constant 4.0 : f32
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, -1.0, 0.0, 1.5, 2.0, -0.5, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0]]> : tensor<3x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e1 = tensor.empty() : tensor<1x2x2x2xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e1 : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %div : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<1x8xf32>
  %e2 = tensor.empty() : tensor<8x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x8xf32>) outs(%e2 : tensor<8x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.matmul ins(%f, %wt : tensor<1x8xf32>, tensor<8x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
// DIAG-LABEL: func.func @pool2_linear(
// DIAG-NEXT: %[[F:.*]] = tensor.collapse_shape %x {{.*}} into tensor<1x32xf32>
// DIAG-NEXT: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<32x3xf32>
// DIAG: %[[R:.*]] = linalg.matmul ins(%[[F]], %[[W]] : tensor<1x32xf32>, tensor<32x3xf32>)
// DIAG-NEXT: return %[[R]]
// TIGHT-LABEL: func.func @pool2_linear(
// TIGHT: linalg.pooling_nchw_sum
// TIGHT: linalg.matmul {{.*}} tensor<1x8xf32>, tensor<8x3xf32>
// GROW4-LABEL: func.func @pool2_linear(
// LOOSE-LABEL: func.func @pool2_linear(
// ORION-LABEL: func.func @pool2_linear(
// ORION: linalg.matmul {{.*}} tensor<1x32xf32>, tensor<32x3xf32>
// MAC4-LABEL: func.func @pool2_linear(

// -----

// A 3x3 pool (18 diagonals) into the same Linear (14) is a 72 -> 3 Linear (74): 2.3x, refused.
func.func @pool3_linear(%x: tensor<1x2x6x6xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant 0.0 : f32
  %div = arith.constant 9.0 : f32
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, -1.0, 0.0, 1.5, 2.0, -0.5, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0]]> : tensor<3x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e1 = tensor.empty() : tensor<1x2x2x2xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<3> : vector<2xi64>} ins(%x, %win : tensor<1x2x6x6xf32>, tensor<3x3xf32>) outs(%z1 : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e1 : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %div : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  %f = tensor.collapse_shape %a [[0], [1, 2, 3]] : tensor<1x2x2x2xf32> into tensor<1x8xf32>
  %e2 = tensor.empty() : tensor<8x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x8xf32>) outs(%e2 : tensor<8x3xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.matmul ins(%f, %wt : tensor<1x8xf32>, tensor<8x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
// DIAG-LABEL: func.func @pool3_linear(
// DIAG: linalg.pooling_nchw_sum
// DIAG: linalg.matmul {{.*}} tensor<1x8xf32>, tensor<8x3xf32>
// TIGHT-LABEL: func.func @pool3_linear(
// TIGHT: linalg.pooling_nchw_sum
// ORION-LABEL: func.func @pool3_linear(
// ORION: linalg.matmul {{.*}} tensor<1x8xf32>, tensor<8x3xf32>
