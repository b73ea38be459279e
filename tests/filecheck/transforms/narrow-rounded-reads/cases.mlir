// narrow-rounded-reads: generics reading a wide value that is also rounded (truncf) read
// the rounding and widen it in their bodies (torch-mlir's f16 form: a residual stream of
// two blocks, a reduction reader reading it twice, bf16); what stays: a wide value also
// read by a contraction or returned, a constant, a reader before the rounding, an f32
// model, a value no truncf rounds.
// Numerics: tests/unit/test_filecheck_numerics.py runs every chunk before/after through
// heirpy's evaluator (one f16 rounding more per moved read, judged in f16).
// RUN: heirpy-opt %s --split-input-file -p narrow-rounded-reads | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p narrow-rounded-reads | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// Two inverted-residual blocks as heirpy's f16 rules leave them: each projection (a 1x1
// conv as a matmul, its folded bias added in f32) is rounded for the next block and also
// added, unrounded, to the f32 residual stream. After: the adds read the roundings, and
// the stream is stored in f16 (only the truncfs read the f32 values).
func.func @residual_stream(%x: tensor<4x8xf16>, %w1: tensor<8x4xf16>, %w2: tensor<4x4xf16>, %b: tensor<4xf32>) -> tensor<4x4xf16> {
  %z = arith.constant dense<0.0> : tensor<4x4xf32>
  %e32 = tensor.empty() : tensor<4x4xf32>
  %e16 = tensor.empty() : tensor<4x4xf16>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf16>, tensor<8x4xf16>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m1, %b : tensor<4x4xf32>, tensor<4xf32>) outs(%e32 : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %t1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y1 : tensor<4x4xf32>) outs(%e16 : tensor<4x4xf16>) {
  ^bb0(%p: f32, %o: f16):
    %r = arith.truncf %p : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x4xf16>
  %m2 = linalg.matmul ins(%t1, %w2 : tensor<4x4xf16>, tensor<4x4xf16>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m2, %y1 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e32 : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %t2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y2 : tensor<4x4xf32>) outs(%e16 : tensor<4x4xf16>) {
  ^bb0(%p: f32, %o: f16):
    %r = arith.truncf %p : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x4xf16>
  %m3 = linalg.matmul ins(%t2, %w2 : tensor<4x4xf16>, tensor<4x4xf16>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m3, %y2 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e16 : tensor<4x4xf16>) {
  ^bb0(%p: f32, %q: f32, %o: f16):
    %s = arith.addf %p, %q : f32
    %r = arith.truncf %s : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4x4xf16>
  return %y3 : tensor<4x4xf16>
}
// CHECK-LABEL: func.func @residual_stream
// CHECK:       %[[T1:.*]] = linalg.generic {{.*}} ins(%y1 : tensor<4x4xf32>) outs(%e16 : tensor<4x4xf16>)
// CHECK:       %[[Y2:.*]] = linalg.generic {{.*}} ins(%m2, %[[T1]] : tensor<4x4xf32>, tensor<4x4xf16>) outs(%e32 : tensor<4x4xf32>)
// CHECK-NEXT:  ^bb0(%[[P:.*]]: f32, %[[Q16:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT:    %[[Q:.*]] = arith.extf %[[Q16]] : f16 to f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[P]], %[[Q]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// CHECK:       %[[T2:.*]] = linalg.generic {{.*}} ins(%[[Y2]] : tensor<4x4xf32>) outs(%e16 : tensor<4x4xf16>)
// CHECK:       linalg.generic {{.*}} ins(%m3, %[[T2]] : tensor<4x4xf32>, tensor<4x4xf16>) outs(%e16 : tensor<4x4xf16>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32, %{{.*}}: f16, %{{.*}}: f16):
// CHECK-NEXT:    arith.extf %{{.*}} : f16 to f32
// MLIR-LABEL:  func.func @residual_stream
// MLIR-COUNT-2: ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x4xf16>)

// -----

// bf16; a reduction reads the wide value twice (a sum of squares), beside its rounding.
func.func @reduction_reads_twice_bf16(%a: tensor<2x4xbf16>, %c: tensor<2x4xbf16>) -> (tensor<2x4xbf16>, tensor<2x1xf32>) {
  %e32 = tensor.empty() : tensor<2x4xf32>
  %e16 = tensor.empty() : tensor<2x4xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %c : tensor<2x4xbf16>, tensor<2x4xbf16>) outs(%e32 : tensor<2x4xf32>) {
  ^bb0(%p: bf16, %q: bf16, %o: f32):
    %pw = arith.extf %p : bf16 to f32
    %qw = arith.extf %q : bf16 to f32
    %s = arith.addf %pw, %qw : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<2x4xf32>) outs(%e16 : tensor<2x4xbf16>) {
  ^bb0(%p: f32, %o: bf16):
    %r = arith.truncf %p : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<2x4xbf16>
  %zero = arith.constant dense<0.0> : tensor<2x1xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%y, %y : tensor<2x4xf32>, tensor<2x4xf32>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x1xf32>
  return %t, %sq : tensor<2x4xbf16>, tensor<2x1xf32>
}
// CHECK-LABEL: func.func @reduction_reads_twice_bf16
// CHECK:       %[[T:.*]] = linalg.generic {{.*}} ins(%y : tensor<2x4xf32>) outs(%e16 : tensor<2x4xbf16>)
// CHECK:       linalg.generic {{.*}} ins(%[[T]], %[[T]] : tensor<2x4xbf16>, tensor<2x4xbf16>) outs(%zero : tensor<2x1xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: bf16, %{{.*}}: bf16, %{{.*}}: f32):
// CHECK-DAG:     arith.extf %{{.*}} : bf16 to f32
// CHECK-DAG:     arith.extf %{{.*}} : bf16 to f32
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// MLIR-LABEL:  func.func @reduction_reads_twice_bf16
// MLIR:        ins(%{{.*}}, %{{.*}} : tensor<2x4xbf16>, tensor<2x4xbf16>)
// MLIR-LABEL:  func.func @contraction_reads_too(

// -----

// Negative: a contraction reads the wide value too (it stays stored), and so does a return.
func.func @contraction_reads_too(%a: tensor<2x2xf32>, %w: tensor<2x2xf32>) -> (tensor<2x2xf16>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %e32 = tensor.empty() : tensor<2x2xf32>
  %e16 = tensor.empty() : tensor<2x2xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf32>) outs(%e32 : tensor<2x2xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    linalg.yield %n : f32
  } -> tensor<2x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<2x2xf32>) outs(%e16 : tensor<2x2xf16>) {
  ^bb0(%p: f32, %o: f16):
    %r = arith.truncf %p : f32 to f16
    linalg.yield %r : f16
  } -> tensor<2x2xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<2x2xf32>) outs(%e32 : tensor<2x2xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.mulf %p, %p : f32
    linalg.yield %m : f32
  } -> tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<2x2xf32>
  %m = linalg.matmul ins(%y, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %t, %h, %m : tensor<2x2xf16>, tensor<2x2xf32>, tensor<2x2xf32>
}
// CHECK-LABEL: func.func @contraction_reads_too
// CHECK:       %h = linalg.generic {{.*}} ins(%y : tensor<2x2xf32>)
// CHECK-NOT:     arith.extf
// CHECK:       linalg.matmul ins(%y, %w : tensor<2x2xf32>, tensor<2x2xf32>)

// -----

// Negatives: a constant's rounding (nothing is stored per call), and a reader that comes
// before the rounding.
func.func @constant_and_order(%a: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>, tensor<4xf16>, tensor<4xf32>) {
  %k = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %e32 = tensor.empty() : tensor<4xf32>
  %e16 = tensor.empty() : tensor<4xf16>
  %tk = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%k : tensor<4xf32>) outs(%e16 : tensor<4xf16>) {
  ^bb0(%p: f32, %o: f16):
    %r = arith.truncf %p : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4xf16>
  %hk = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %k : tensor<4xf32>, tensor<4xf32>) outs(%e32 : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e32 : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %early = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e32 : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.mulf %p, %p : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %ty = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e16 : tensor<4xf16>) {
  ^bb0(%p: f32, %o: f16):
    %r = arith.truncf %p : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4xf16>
  return %tk, %hk, %ty, %early : tensor<4xf16>, tensor<4xf32>, tensor<4xf16>, tensor<4xf32>
}
// CHECK-LABEL: func.func @constant_and_order
// CHECK:       %hk = linalg.generic {{.*}} ins(%a, %k : tensor<4xf32>, tensor<4xf32>)
// CHECK-NOT:     arith.extf
// CHECK:       %early = linalg.generic {{.*}} ins(%y : tensor<4xf32>)
// CHECK-NOT:     arith.extf
// CHECK:       %ty = linalg.generic

// -----

// Negative: an f32 model (no rounding), and a wide value no truncf reads.
func.func @f32_model(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.mulf %p, %p : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %h : tensor<4xf32>
}
// CHECK-LABEL: func.func @f32_model
// CHECK:       %h = linalg.generic {{.*}} ins(%y : tensor<4xf32>)
// CHECK-NOT:     arith.extf
// CHECK:       return %h

// -----

// LeViT-128S f16's MLP residual: the add rounds the wide projection itself before adding
// (f16 arithmetic). Reading the rounding, its `truncf(extf(r))` is `r`: no round trip is
// left (IREE keeps it, and the block's executable then differs from its twins'). The second
// reader also uses the wide value: its widening stays, only its rounding reads `r`.
func.func @reader_rounds_itself(%a: tensor<4xf32>, %s: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>, tensor<4xf32>) {
  %e16 = tensor.empty() : tensor<4xf16>
  %e32 = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e32 : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.mulf %p, %p : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e16 : tensor<4xf16>) {
  ^bb0(%p: f32, %o: f16):
    %r = arith.truncf %p : f32 to f16
    linalg.yield %r : f16
  } -> tensor<4xf16>
  %add = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s, %y : tensor<4xf16>, tensor<4xf32>) outs(%e16 : tensor<4xf16>) {
  ^bb0(%q: f16, %p: f32, %o: f16):
    %r = arith.truncf %p : f32 to f16
    %v = arith.addf %q, %r : f16
    linalg.yield %v : f16
  } -> tensor<4xf16>
  %both = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : tensor<4xf32>) outs(%e32 : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %r = arith.truncf %p : f32 to f16
    %w = arith.extf %r : f16 to f32
    %v = arith.addf %w, %p : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %t, %add, %both : tensor<4xf16>, tensor<4xf16>, tensor<4xf32>
}
// CHECK-LABEL: func.func @reader_rounds_itself
// CHECK:       %[[T:.*]] = linalg.generic {{.*}} ins(%y : tensor<4xf32>) outs(%e16 : tensor<4xf16>)
// CHECK:       linalg.generic {{.*}} ins(%s, %[[T]] : tensor<4xf16>, tensor<4xf16>)
// CHECK-NEXT:  ^bb0(%[[Q:.*]]: f16, %[[R:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:    %[[V:.*]] = arith.addf %[[Q]], %[[R]] : f16
// CHECK-NEXT:    linalg.yield %[[V]] : f16
// CHECK:       linalg.generic {{.*}} ins(%[[T]] : tensor<4xf16>)
// CHECK-NEXT:  ^bb0(%[[R2:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT:    %[[W:.*]] = arith.extf %[[R2]] : f16 to f32
// CHECK-NEXT:    %[[W2:.*]] = arith.extf %[[R2]] : f16 to f32
// CHECK-NEXT:    arith.addf %[[W2]], %[[W]] : f32
// MLIR-LABEL:  func.func @reader_rounds_itself
