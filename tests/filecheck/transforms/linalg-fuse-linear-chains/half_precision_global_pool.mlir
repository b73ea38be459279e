// The half-precision global average pool as torch-mlir writes it (issue 34): an f16
// sum into an f16 init, an f16 divide by H*W, a flatten, then the Linear's `extf` to
// f32 and an f32 matmul. `WidenRunBeforeExtf` (transforms/linear/mixed_precision.py)
// moves the `extf` up to the pool's input, so the pool sums and divides in f32 and the
// chain pool -> divide -> flatten -> Linear fuses into ONE matmul, as in f32 (the
// @*_f32 twins): one linear op instead of two. The exporter's accumulator (f32) stays,
// the result is rounded to f16 once, where the exporter rounds it. The rewritten
// function is no further from the exact result than the input (heirpy-equiv at f16's
// tolerance: only the f16 roundings of the sum and the divide are gone).
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | heir-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains 2>/dev/null | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p linalg-canonicalizations,linalg-fuse-ops 2>/dev/null | filecheck %s --check-prefix=MAIN
// RUN: heirpy-opt %s -p 'linalg-fuse-linear-chains{max-weight-growth=100 max-mac-growth=100}' 2>/dev/null | filecheck %s --check-prefix=LOOSE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t 2>/dev/null
// RUN: heirpy-equiv %s %t --function pool_head_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function pool_head_bf16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function sum_pool_head_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function pool_conv_f16 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function runtime_init_f16 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE-COUNT-8: func.func @

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#sum2 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>

// torch-mlir's form on a 3x5 grid (divide by 15, a captured f16 scalar).
// CHECK-LABEL: func.func @pool_head_f16(
// CHECK-NOT: "reduction"
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<1x2x3x5xf32> into tensor<1x30xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x30xf32>, tensor<30x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: return
// MAIN-LABEL: func.func @pool_head_f16(
// MAIN-NOT: "reduction"
// MAIN: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x30xf32>, tensor<30x3xf32>)
// MAIN-NOT: linalg.matmul
// MAIN: return
func.func @pool_head_f16(%x: tensor<1x2x3x5xf16>) -> tensor<1x3xf16> {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %n = arith.constant 15.0 : f16
  %w = arith.constant dense<[[0.25, -0.75, 0.5], [1.125, 0.375, -0.625]]> : tensor<2x3xf16>
  %b = arith.constant dense<[0.125, -0.5, 0.25]> : tensor<3xf16>
  %e1 = tensor.empty() : tensor<1x2x1x1xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x2x1x1xf16>) -> tensor<1x2x1x1xf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x2x3x5xf16>) outs(%z1 : tensor<1x2x1x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<1x2x1x1xf16>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x1x1xf16>) outs(%e1 : tensor<1x2x1x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %q = arith.divf %in, %n : f16
    linalg.yield %q : f16
  } -> tensor<1x2x1x1xf16>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x2x1x1xf16> into tensor<1x2xf16>
  %ef = tensor.empty() : tensor<1x2xf32>
  %fw = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%f : tensor<1x2xf16>) outs(%ef : tensor<1x2xf32>) {
  ^bb0(%in: f16, %out: f32):
    %c = arith.extf %in : f16 to f32
    linalg.yield %c : f32
  } -> tensor<1x2xf32>
  %ew = tensor.empty() : tensor<2x3xf32>
  %ww = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<2x3xf16>) outs(%ew : tensor<2x3xf32>) {
  ^bb0(%in: f16, %out: f32):
    %c = arith.extf %in : f16 to f32
    linalg.yield %c : f32
  } -> tensor<2x3xf32>
  %eb = tensor.empty() : tensor<3xf32>
  %bw = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%b : tensor<3xf16>) outs(%eb : tensor<3xf32>) {
  ^bb0(%in: f16, %out: f32):
    %c = arith.extf %in : f16 to f32
    linalg.yield %c : f32
  } -> tensor<3xf32>
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero32 : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%fw, %ww : tensor<1x2xf32>, tensor<2x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %bw : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  %e4 = tensor.empty() : tensor<1x3xf16>
  %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<1x3xf32>) outs(%e4 : tensor<1x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %c = arith.truncf %in : f32 to f16
    linalg.yield %c : f16
  } -> tensor<1x3xf16>
  return %t : tensor<1x3xf16>
}

// The f32 twin: the same single matmul.
// CHECK-LABEL: func.func @pool_head_f32(
// CHECK-NOT: "reduction"
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<1x2x3x5xf32> into tensor<1x30xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x30xf32>, tensor<30x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: return
// MAIN-LABEL: func.func @pool_head_f32(
// MAIN: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x30xf32>, tensor<30x3xf32>)
// MAIN-NOT: linalg.matmul
// MAIN: return
func.func @pool_head_f32(%x: tensor<1x2x3x5xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 15.0 : f32
  %w = arith.constant dense<[[0.25, -0.75, 0.5], [1.125, 0.375, -0.625]]> : tensor<2x3xf32>
  %b = arith.constant dense<[0.125, -0.5, 0.25]> : tensor<3xf32>
  %e1 = tensor.empty() : tensor<1x2x1x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x2x3x5xf32>) outs(%z1 : tensor<1x2x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x2x1x1xf32>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x1x1xf32>) outs(%e1 : tensor<1x2x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x2x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<1x2xf32>
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%f, %w : tensor<1x2xf32>, tensor<2x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<1x3xf32>, tensor<3xf32>) outs(%e3 : tensor<1x3xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v = arith.addf %in, %bb : f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// bf16, ShuffleNet's `x.mean([2, 3])` spelling: the sum writes a (d0, d1) output (no
// flatten), the divide and the cast are arith ops on tensors (as linalg-canonicalizations
// writes them), on a 4x4 grid.
// CHECK-LABEL: func.func @pool_head_bf16(
// MAIN-LABEL: func.func @pool_head_bf16(
// CHECK-NOT: "reduction"
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x32xf32>, tensor<32x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NOT: linalg.matmul
// CHECK: arith.truncf %{{.*}} : tensor<1x3xf32> to tensor<1x3xbf16>
// CHECK: return
func.func @pool_head_bf16(%x: tensor<1x2x4x4xbf16>) -> tensor<1x3xbf16> {
  %zero = arith.constant 0.0 : bf16
  %zero32 = arith.constant 0.0 : f32
  %n = arith.constant dense<16.0> : tensor<1x2xbf16>
  %w = arith.constant dense<[[0.25, -0.75, 0.5], [1.125, 0.375, -0.625]]> : tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<1x2xbf16>
  %z1 = linalg.fill ins(%zero : bf16) outs(%e1 : tensor<1x2xbf16>) -> tensor<1x2xbf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x2x4x4xbf16>) outs(%z1 : tensor<1x2xbf16>) {
  ^bb0(%in: bf16, %acc: bf16):
    %a = arith.addf %in, %acc : bf16
    linalg.yield %a : bf16
  } -> tensor<1x2xbf16>
  %m = arith.divf %s, %n : tensor<1x2xbf16>
  %fw = arith.extf %m : tensor<1x2xbf16> to tensor<1x2xf32>
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero32 : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%fw, %w : tensor<1x2xf32>, tensor<2x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = arith.truncf %mm : tensor<1x3xf32> to tensor<1x3xbf16>
  return %r : tensor<1x3xbf16>
}

// avg_pool2d over the whole 4x4 grid (`linalg.pooling_nchw_sum`, window 4x4, f16 init):
// the pool sums in f32 and the matmul reads it without a cast. The default cost rule
// keeps this chain apart in f32 as well (a pool has no weights of its own: the fused
// matrix's grow 16x); a looser rule fuses it, in f16 as in f32.
// CHECK-LABEL: func.func @sum_pool_head_f16(
// CHECK: %[[P:.*]] = linalg.pooling_nchw_sum {{.*}} ins(%{{.*}}, %win : tensor<1x2x4x4xf32>, tensor<4x4xf16>) outs(%{{.*}} : tensor<1x2x1x1xf32>)
// CHECK: %[[D:.*]] = arith.divf %[[P]], %{{.*}} : tensor<1x2x1x1xf32>
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[D]] {{\[}}[0], [1, 2, 3]] : tensor<1x2x1x1xf32> into tensor<1x2xf32>
// CHECK: linalg.matmul ins(%[[F]], %w : tensor<1x2xf32>, tensor<2x3xf32>)
// CHECK: return
// LOOSE-LABEL: func.func @sum_pool_head_f16(
// LOOSE-NOT: linalg.pooling_nchw_sum
// LOOSE: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x32xf32>, tensor<32x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// LOOSE-NOT: linalg.matmul
// LOOSE: return
// LOOSE-LABEL: func.func @pool_conv_f16(
func.func @sum_pool_head_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x3xf16> {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %n = arith.constant dense<16.0> : tensor<1x2x1x1xf16>
  %w = arith.constant dense<[[0.25, -0.75, 0.5], [1.125, 0.375, -0.625]]> : tensor<2x3xf32>
  %win = tensor.empty() : tensor<4x4xf16>
  %e1 = tensor.empty() : tensor<1x2x1x1xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x2x1x1xf16>) -> tensor<1x2x1x1xf16>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf16>, tensor<4x4xf16>) outs(%z1 : tensor<1x2x1x1xf16>) -> tensor<1x2x1x1xf16>
  %m = arith.divf %p, %n : tensor<1x2x1x1xf16>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x2x1x1xf16> into tensor<1x2xf16>
  %fw = arith.extf %f : tensor<1x2xf16> to tensor<1x2xf32>
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero32 : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%fw, %w : tensor<1x2xf32>, tensor<2x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = arith.truncf %mm : tensor<1x3xf32> to tensor<1x3xf16>
  return %r : tensor<1x3xf16>
}

// timm's squeeze-excite and conv_head: the pooled f16 value goes straight into a 1x1 conv
// that reads f16 and accumulates in f32 (no extf to move): the chain fuses as in f32 into
// one matmul with f16 weights (the conv's storage type, the pool's 1/9 folded in).
// CHECK-LABEL: func.func @pool_conv_f16(
// CHECK-NOT: "reduction"
// CHECK: tensor.collapse_shape %x {{\[}}[0], [1, 2, 3]] : tensor<1x4x3x3xf16> into tensor<1x36xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x36xf16>, tensor<36x2xf16>) outs(%{{.*}} : tensor<1x2xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: arith.truncf
// CHECK: return
func.func @pool_conv_f16(%x: tensor<1x4x3x3xf16>) -> tensor<1x2x1x1xf16> {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %n = arith.constant 9.0 : f16
  %w = arith.constant dense<[[[[0.25]], [[-0.5]], [[0.75]], [[1.0]]], [[[0.5]], [[0.125]], [[-0.25]], [[2.0]]]]> : tensor<2x4x1x1xf16>
  %e1 = tensor.empty() : tensor<1x4x1x1xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x4x1x1xf16>) -> tensor<1x4x1x1xf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x4x3x3xf16>) outs(%z1 : tensor<1x4x1x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<1x4x1x1xf16>
  %m = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x1x1xf16>) outs(%e1 : tensor<1x4x1x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %q = arith.divf %in, %n : f16
    linalg.yield %q : f16
  } -> tensor<1x4x1x1xf16>
  %e2 = tensor.empty() : tensor<1x2x1x1xf32>
  %z2 = linalg.fill ins(%zero32 : f32) outs(%e2 : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%m, %w : tensor<1x4x1x1xf16>, tensor<2x4x1x1xf16>) outs(%z2 : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %r = arith.truncf %c : tensor<1x2x1x1xf32> to tensor<1x2x1x1xf16>
  return %r : tensor<1x2x1x1xf16>
}

// Must not fire: the pooled f16 value is returned too, so the narrow pool stays and
// nothing fuses (the pool is still a linear op of its own).
// CHECK-LABEL: func.func @pooled_value_reused_f16(
// CHECK: linalg.generic {{.*}} ins(%x : tensor<1x2x4x4xf16>) outs(%{{.*}} : tensor<1x2x1x1xf16>)
// CHECK: arith.extf
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x2xf32>, tensor<2x3xf32>)
// CHECK: return
func.func @pooled_value_reused_f16(%x: tensor<1x2x4x4xf16>) -> (tensor<1x3xf32>, tensor<1x2x1x1xf16>) {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %n = arith.constant dense<16.0> : tensor<1x2x1x1xf16>
  %w = arith.constant dense<[[0.25, -0.75, 0.5], [1.125, 0.375, -0.625]]> : tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<1x2x1x1xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x2x1x1xf16>) -> tensor<1x2x1x1xf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x2x4x4xf16>) outs(%z1 : tensor<1x2x1x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<1x2x1x1xf16>
  %m = arith.divf %s, %n : tensor<1x2x1x1xf16>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x2x1x1xf16> into tensor<1x2xf16>
  %fw = arith.extf %f : tensor<1x2xf16> to tensor<1x2xf32>
  %e3 = tensor.empty() : tensor<1x3xf32>
  %z3 = linalg.fill ins(%zero32 : f32) outs(%e3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%fw, %w : tensor<1x2xf32>, tensor<2x3xf32>) outs(%z3 : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %mm, %m : tensor<1x3xf32>, tensor<1x2x1x1xf16>
}

// Must not fire: x * x is no linear step, the extf stays after it (the sum before it
// is not reached).
// CHECK-LABEL: func.func @square_before_extf_f16(
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x1x1xf16>)
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<1x2x1x1xf16>
// CHECK: arith.extf %{{.*}} : tensor<1x2x1x1xf16> to tensor<1x2x1x1xf32>
// CHECK: return
func.func @square_before_extf_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x1x1xf32> {
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<1x2x1x1xf16>
  %z1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x2x1x1xf16>) -> tensor<1x2x1x1xf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x2x4x4xf16>) outs(%z1 : tensor<1x2x1x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<1x2x1x1xf16>
  %q = arith.mulf %s, %s : tensor<1x2x1x1xf16>
  %fw = arith.extf %q : tensor<1x2x1x1xf16> to tensor<1x2x1x1xf32>
  return %fw : tensor<1x2x1x1xf32>
}

// Must not fire: a sum into a runtime init (an argument) keeps its f16 accumulator; the
// divide after it is widened, the sum is not.
// CHECK-LABEL: func.func @runtime_init_f16(
// CHECK: linalg.generic {{.*}} ins(%x : tensor<1x2x4x4xf16>) outs(%init : tensor<1x2x1x1xf16>)
// CHECK: return
func.func @runtime_init_f16(%x: tensor<1x2x4x4xf16>, %init: tensor<1x2x1x1xf16>) -> tensor<1x2x1x1xf16> {
  %n = arith.constant dense<16.0> : tensor<1x2x1x1xf16>
  %s = linalg.generic {indexing_maps = [#id4, #sum], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x2x4x4xf16>) outs(%init : tensor<1x2x1x1xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %a = arith.addf %in, %acc : f16
    linalg.yield %a : f16
  } -> tensor<1x2x1x1xf16>
  %m = arith.divf %s, %n : tensor<1x2x1x1xf16>
  %fw = arith.extf %m : tensor<1x2x1x1xf16> to tensor<1x2x1x1xf32>
  %r = arith.truncf %fw : tensor<1x2x1x1xf32> to tensor<1x2x1x1xf16>
  return %r : tensor<1x2x1x1xf16>
}
