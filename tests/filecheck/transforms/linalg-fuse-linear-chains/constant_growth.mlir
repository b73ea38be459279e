// Weight growth priced in stored constants: a global average pool merged into a Linear
// is weighed by its distinct weights (the Linear's 3x4, within max-weight-growth), but it
// is written as a 144x3 matrix. Constants stored before: the Linear's 12 weights, its
// 3-element bias and the pool's divisor (16 elements, 64 bytes); after: the 144x3 matrix
// and its bias (435, 1,740 bytes): 27.1875x for one level saved.
// By default such a chain is fused with a remark saying so (more than 1.5x per level
// saved), through this pass and through linalg-fuse-ops, naming the pass it ran in; the
// f16 copy counts 2 bytes an element.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{pointwise=false constant-budget=0}' 2>&1 >/dev/null | filecheck %s --check-prefix=OPSREMARK
// REMARK: constant_growth.mlir:63:8: {{[r]}}emark
// REMARK-SAME: linalg-fuse-linear-chains: fused a linear chain saving 1 level although its constants grow 27.2x (64 -> 1,740 bytes), more than 1.5x per level saved: its weights grow 1.0x, within the cost rule; max-constant-growth=1.5 keeps such chains apart
// REMARK: constant_growth.mlir:94:8: {{[r]}}emark
// REMARK-SAME: linalg-fuse-linear-chains: {{.*}} (32 -> 870 bytes)
// OPSREMARK: {{[r]}}emark
// OPSREMARK-SAME: linalg-fuse-ops: fused a linear chain saving 1 level although its constants grow 27.2x
// max-constant-growth refuses it: at the limit (27.1875) it fuses, just under it the
// chain stays as it was (and no remark), just over it it fuses.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-constant-growth=27.1875}' | filecheck %s --check-prefix=FUSED
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-constant-growth=28}' | filecheck %s --check-prefix=FUSED
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-constant-growth=27.18}' | filecheck %s --check-prefix=KEPT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-constant-growth=1.5}' 2>&1 | filecheck %s --check-prefix=KEPT
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-constant-growth=1.5}' 2>&1 >/dev/null | not grep remark
// RUN: heirpy-opt %s -p 'linalg-fuse-ops{max-constant-growth=1.5 pointwise=false}' | filecheck %s --check-prefix=KEPT
// policy=depth fuses whatever the constants.
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{policy=depth max-constant-growth=1.5}' | filecheck %s --check-prefix=FUSED
// Numerics, f32 and f16: the fused function computes what the chain did.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function gap_linear | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function gap_linear_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// An error names the option.
// RUN: not heirpy-opt %s -p 'linalg-fuse-linear-chains{max-constant-growth=0.5}' 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{^}}error: linalg-fuse-linear-chains{max-constant-growth=0.5}: expected 0 (off) or a number >= 1{{$}}
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

// FUSED-LABEL: func.func @gap_linear(
// FUSED-NOT: linalg.generic
// FUSED: linalg.matmul {{.*}} tensor<1x144xf32>, tensor<144x3xf32>
// FUSED-LABEL: func.func @gap_linear_f16(
// FUSED: linalg.matmul {{.*}} tensor<1x144xf16>, tensor<144x3xf16>
// KEPT-LABEL: func.func @gap_linear(
// KEPT: linalg.generic
// KEPT: linalg.matmul {{.*}} tensor<1x4xf32>, tensor<4x3xf32>
// KEPT-LABEL: func.func @gap_linear_f16(
// KEPT: linalg.matmul {{.*}} tensor<1x4xf16>, tensor<4x3xf16>
