// The model-level weight budget (`constant-budget`, heirpy.transforms.linear.constant_budget):
// the module's constants may grow at most X per level the growing chains buy (the depth
// without any chain that grows its constants minus the depth with them), compounded,
// X^max(L, 1); beyond it every chain is priced alone (max-constant-growth=X) and a remark
// says how much the growing chains would have grown the module for how many levels.
// Each chunk is one module (a global average pool merged into a Linear: 3x4 weights
// written as a 144x3 matrix):
//   @gap_linear        29x (60 -> 1,740 bytes) for 1 level
//   @gap_linear_f16    29x for 1 level: priced as its f32 twin (60 -> 1,740 bytes: every element
//                      counts 4 bytes, as CKKS encodes f16 and f32 alike; it stores 30 -> 870)
//   @gap_linear_beside_deeper  the same chain beside a deeper branch (x^8): 29x for 0 levels
//                      (pure waste: refused under any budget below 29)
//   @gap_linear_linear a second Linear after it: 18.125x (96 -> 1,740 bytes) for 2 levels
// linalg-fuse-ops (the main pipeline) holds it to 1.5 by default; with free-constant-bytes=0
// (these modules are far under its 4 MiB) all four are refused.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0}' | filecheck %s --check-prefixes=G1,G2,G0,G22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0}' 2>&1 >/dev/null | filecheck %s --check-prefix=SAYS
// SAYS: remark: linalg-fuse-ops: the fused linear chains grow the module's constants 29.00x (60 -> 1,740 bytes) and buy 1 level (depth 2 -> 1): more than constant-budget=1.5 per level bought (1.50x); each chain priced alone instead, 1.5x per level it saves: 1.00x (60 bytes), depth 2
// SAYS: remark: linalg-fuse-ops: the fused linear chains grow the module's constants 29.00x (60 -> 1,740 bytes) and buy 1 level
// SAYS: remark: linalg-fuse-ops: the fused linear chains grow the module's constants 29.00x (60 -> 1,740 bytes) and buy 0 levels (depth 3 -> 3): more than constant-budget=1.5 per level bought (1.50x); they buy no level: refused every chain that grows its constants: 1.00x (60 bytes), depth 3
// SAYS: remark: linalg-fuse-ops: the fused linear chains grow the module's constants 18.12x (96 -> 1,740 bytes) and buy 2 levels (depth 3 -> 1): more than constant-budget=1.5 per level bought (2.25x)
// At the limit for one level (29) everything fuses (no level need be counted: 29 <= 29^1);
// just under it (28.99) the one-level chains are priced alone, each on its own constants
// (27.19x, 64 -> 1,740 bytes: the pool's divisor counted) and fused, the waste is refused
// and the two-level chain fuses (28.99^2); 4.26^2 = 18.15 keeps the two-level chain, with
// a remark saying why; at 4.16 (4.16^2 = 17.31, below both 18.12x and the chain's own
// 17.4x) it is refused.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 constant-budget=29}' | filecheck %s --check-prefixes=F1,F2,F0,F22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 constant-budget=4.26}' 2>&1 >/dev/null | filecheck %s --check-prefix=WITHIN
// WITHIN: remark: linalg-fuse-ops: the fused linear chains grow the module's constants 18.12x (96 -> 1,740 bytes) and buy 2 levels (depth 3 -> 1): within constant-budget=4.26 per level bought (18.15x), kept
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 constant-budget=28.99}' | filecheck %s --check-prefixes=F1,F2,G0,F22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 constant-budget=4.26}' | filecheck %s --check-prefixes=G1,G2,G0,F22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 constant-budget=4.16}' | filecheck %s --check-prefixes=G1,G2,G0,G22
// A per-fusion cap above the chains' growth (30x) lets the group fuse them all; over the
// budget, each is then priced at the smaller of the two, 1.5x, and refused as by default.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 max-constant-growth=30}' | filecheck %s --check-prefixes=G1,G2,G0,G22
// Off (0), the component pass's default, and policy=depth: every chain fuses.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 constant-budget=0}' | filecheck %s --check-prefixes=F1,F2,F0,F22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 constant-budget=0}' 2>&1 >/dev/null | not grep "module's"
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-chains | filecheck %s --check-prefixes=F1,F2,F0,F22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false policy=depth}' | filecheck %s --check-prefixes=F1,F2,F0,F22
// Growth that adds at most `free-constant-bytes` (default 4 MiB) is kept whatever its
// ratio: these small modules all fuse by default. At the limit (@gap_linear, its f16
// twin and the waste chain add exactly 1,680 bytes, each element priced as 4) they fuse,
// one byte under it they do not, while the two-level one (1,644) still fits.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false}' | filecheck %s --check-prefixes=F1,F2,F0,F22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=1680}' | filecheck %s --check-prefixes=F1,F2,F0,F22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=1679}' | filecheck %s --check-prefixes=G1,G2,G0,F22
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{pointwise=false}' 2>&1 >/dev/null | filecheck %s --check-prefix=FREE
// FREE: remark: linalg-fuse-ops: the fused linear chains grow the module's constants 29.00x (60 -> 1,740 bytes), adding at most free-constant-bytes=4,194,304: kept
// RUN: not heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{free-constant-bytes=-1}' 2>&1 | filecheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: linalg-fuse-ops{free-constant-bytes=-1}: expected a byte count >= 0
// The component pass takes the option too.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-chains{constant-budget=1.5 free-constant-bytes=0}' | filecheck %s --check-prefixes=G1,G2,G0,G22
// Numerics, f32 and f16, refused (the four in one module: 0 levels bought, the waste
// branch is the deepest) and fused (budget off).
// RUN: heirpy-opt %S/Inputs/constant_budget_all.mlir -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0}' -o %t.refused
// RUN: heirpy-opt %S/Inputs/constant_budget_all.mlir -p 'linalg-fuse-ops{pointwise=false free-constant-bytes=0 constant-budget=0}' -o %t.fused
// RUN: cat %t.refused | filecheck %s --check-prefixes=G1,G2,G0,G22
// RUN: heirpy-equiv %S/Inputs/constant_budget_all.mlir %t.refused --function gap_linear_linear | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %S/Inputs/constant_budget_all.mlir %t.fused --function gap_linear_linear | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %S/Inputs/constant_budget_all.mlir %t.fused --function gap_linear_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %S/Inputs/constant_budget_all.mlir %t.refused --function gap_linear_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %S/Inputs/constant_budget_all.mlir %t.fused --function gap_linear_beside_deeper | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent

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
// G1-LABEL: func.func @gap_linear(
// G1: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<4x3xf32>)
// F1-LABEL: func.func @gap_linear(
// F1-NOT: tensor<4x3xf32>
// F1: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x144xf32>, tensor<144x3xf32>)

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
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

// G2-LABEL: func.func @gap_linear_f16(
// G2: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x4xf16>, tensor<4x3xf16>)
// F2-LABEL: func.func @gap_linear_f16(
// F2-NOT: tensor<4x3xf16>
// F2: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x144xf16>, tensor<144x3xf16>)

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
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
// G0-LABEL: func.func @gap_linear_beside_deeper(
// G0: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<4x3xf32>)
// F0-LABEL: func.func @gap_linear_beside_deeper(
// F0-NOT: tensor<4x3xf32>
// F0: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x144xf32>, tensor<144x3xf32>)

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sumb = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
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
// G22-LABEL: func.func @gap_linear_linear(
// G22: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<4x3xf32>)
// F22-LABEL: func.func @gap_linear_linear(
// F22-NOT: tensor<4x3xf32>
// F22: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x144xf32>, tensor<144x3xf32>)
