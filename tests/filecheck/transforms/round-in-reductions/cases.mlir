// round-in-reductions: an elementwise generic that rounds (an input of its result's rank
// is wider than its result: IREE's truncation) and is read only by reductions yields the
// wide value, and each reduction rounds its block argument first (f16, bf16, a reduction
// reading it twice); what stays: a generic also read by an elementwise op, one whose wide
// input is a lower-rank broadcast (no truncation for IREE), one with only narrow inputs,
// an f32 model.
// Numerics: tests/unit/test_filecheck_numerics.py runs every chunk before/after through
// heirpy's evaluator (truncf(extf(v)) is v: the values are equal).
// RUN: heirpy-opt %s --split-input-file -p round-in-reductions | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p round-in-reductions | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// RegNetX-400MF f16's last block: the projection conv's f32 value, rounded and added to
// the f16 shortcut, read by the global average pool (the last ReLU in its body, reading
// the sum twice).
func.func @residual_into_pool(%r: tensor<1x4x2x2xf16>, %y: tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32> {
  %e = tensor.empty() : tensor<1x4x2x2xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r, %y : tensor<1x4x2x2xf16>, tensor<1x4x2x2xf32>) outs(%e : tensor<1x4x2x2xf16>) {
  ^bb0(%p: f16, %q: f32, %o: f16):
    %t = arith.truncf %q : f32 to f16
    %s = arith.addf %p, %t : f16
    linalg.yield %s : f16
  } -> tensor<1x4x2x2xf16>
  %zero = arith.constant dense<0.0> : tensor<1x4x1x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %a : tensor<1x4x2x2xf16>, tensor<1x4x2x2xf16>) outs(%zero : tensor<1x4x1x1xf32>) {
  ^bb0(%u: f16, %v: f16, %acc: f32):
    %c0 = arith.constant 0.0 : f16
    %gt = arith.cmpf ugt, %u, %c0 : f16
    %relu = arith.select %gt, %v, %c0 : f16
    %w = arith.extf %relu : f16 to f32
    %n = arith.addf %w, %acc : f32
    linalg.yield %n : f32
  } -> tensor<1x4x1x1xf32>
  return %sum : tensor<1x4x1x1xf32>
}
// CHECK-LABEL: func.func @residual_into_pool
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<1x4x2x2xf32>
// CHECK-NEXT:  %[[A:.*]] = linalg.generic {{.*}} ins(%r, %y : tensor<1x4x2x2xf16>, tensor<1x4x2x2xf32>) outs(%[[E]] : tensor<1x4x2x2xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f16, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:    %[[S:.*]] = arith.addf %{{.*}}, %[[T]] : f16
// CHECK-NEXT:    %[[W:.*]] = arith.extf %[[S]] : f16 to f32
// CHECK-NEXT:    linalg.yield %[[W]] : f32
// CHECK-NEXT:  } -> tensor<1x4x2x2xf32>
// CHECK:       linalg.generic {{.*}} ins(%[[A]], %[[A]] : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) outs(%zero : tensor<1x4x1x1xf32>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-DAG:     arith.truncf %{{.*}} : f32 to f16
// CHECK-DAG:     arith.truncf %{{.*}} : f32 to f16
// CHECK:         arith.cmpf ugt
// MLIR-LABEL:  func.func @residual_into_pool
// MLIR:        ins(%{{.*}}, %{{.*}} : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>)

// -----

// bf16 into a row sum.
func.func @bf16_sum(%x: tensor<2x4xf32>) -> tensor<2x1xf32> {
  %e = tensor.empty() : tensor<2x4xbf16>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xbf16>) {
  ^bb0(%p: f32, %o: bf16):
    %t = arith.truncf %p : f32 to bf16
    %n = arith.negf %t : bf16
    linalg.yield %n : bf16
  } -> tensor<2x4xbf16>
  %zero = arith.constant dense<0.0> : tensor<2x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<2x4xbf16>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%v: bf16, %acc: f32):
    %w = arith.extf %v : bf16 to f32
    %n = arith.addf %w, %acc : f32
    linalg.yield %n : f32
  } -> tensor<2x1xf32>
  return %sum : tensor<2x1xf32>
}
// CHECK-LABEL: func.func @bf16_sum
// CHECK:       %[[A:.*]] = linalg.generic {{.*}} ins(%x : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK:         arith.extf %{{.*}} : bf16 to f32
// CHECK:       linalg.generic {{.*}} ins(%[[A]] : tensor<2x4xf32>) outs(%zero : tensor<2x1xf32>)
// CHECK-NEXT:  ^bb0(%[[V:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    arith.truncf %[[V]] : f32 to bf16
// MLIR-LABEL:  func.func @bf16_sum
// MLIR:        ins(%{{.*}} : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x1xf32>)
// MLIR-LABEL:  func.func @elementwise_reader_too(

// -----

// Negatives: an elementwise op reads it too (IREE's placement is then the other blocks'),
// and two reductions read it (a LayerNorm's mean and variance: IREE fuses it into neither).
func.func @elementwise_reader_too(%r: tensor<2x4xf16>, %y: tensor<2x4xf32>) -> (tensor<2x1xf32>, tensor<2x4xf16>, tensor<2x1xf32>, tensor<2x1xf32>) {
  %e = tensor.empty() : tensor<2x4xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %y : tensor<2x4xf16>, tensor<2x4xf32>) outs(%e : tensor<2x4xf16>) {
  ^bb0(%p: f16, %q: f32, %o: f16):
    %t = arith.truncf %q : f32 to f16
    %s = arith.addf %p, %t : f16
    linalg.yield %s : f16
  } -> tensor<2x4xf16>
  %zero = arith.constant dense<0.0> : tensor<2x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<2x4xf16>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %w = arith.extf %v : f16 to f32
    %n = arith.addf %w, %acc : f32
    linalg.yield %n : f32
  } -> tensor<2x1xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x4xf16>) outs(%e : tensor<2x4xf16>) {
  ^bb0(%v: f16, %o: f16):
    %n = arith.negf %v : f16
    linalg.yield %n : f16
  } -> tensor<2x4xf16>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %y : tensor<2x4xf16>, tensor<2x4xf32>) outs(%e : tensor<2x4xf16>) {
  ^bb0(%p: f16, %q: f32, %o: f16):
    %t = arith.truncf %q : f32 to f16
    %s = arith.mulf %p, %t : f16
    linalg.yield %s : f16
  } -> tensor<2x4xf16>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<2x4xf16>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %w = arith.extf %v : f16 to f32
    %n = arith.addf %w, %acc : f32
    linalg.yield %n : f32
  } -> tensor<2x1xf32>
  %var = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<2x4xf16>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %w = arith.extf %v : f16 to f32
    %q = arith.mulf %w, %w : f32
    %n = arith.addf %q, %acc : f32
    linalg.yield %n : f32
  } -> tensor<2x1xf32>
  return %sum, %neg, %mean, %var : tensor<2x1xf32>, tensor<2x4xf16>, tensor<2x1xf32>, tensor<2x1xf32>
}
// CHECK-LABEL: func.func @elementwise_reader_too
// CHECK:       %a = linalg.generic {{.*}} outs(%e : tensor<2x4xf16>)
// CHECK:       linalg.generic {{.*}} ins(%a : tensor<2x4xf16>) outs(%zero : tensor<2x1xf32>)
// CHECK:       %b = linalg.generic {{.*}} outs(%e : tensor<2x4xf16>)
// CHECK:       %mean = linalg.generic {{.*}} ins(%b : tensor<2x4xf16>)
// CHECK:       %var = linalg.generic {{.*}} ins(%b : tensor<2x4xf16>)

// -----

// Negatives: the wide input is a per-row vector of lower rank (IREE requires the ranks to
// match for a truncation), and a generic with narrow inputs only.
func.func @broadcast_wide_input(%r: tensor<2x4xf16>, %b: tensor<2xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>) {
  %e = tensor.empty() : tensor<2x4xf16>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r, %b : tensor<2x4xf16>, tensor<2xf32>) outs(%e : tensor<2x4xf16>) {
  ^bb0(%p: f16, %q: f32, %o: f16):
    %t = arith.truncf %q : f32 to f16
    %s = arith.addf %p, %t : f16
    linalg.yield %s : f16
  } -> tensor<2x4xf16>
  %n16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<2x4xf16>) outs(%e : tensor<2x4xf16>) {
  ^bb0(%p: f16, %o: f16):
    %n = arith.negf %p : f16
    linalg.yield %n : f16
  } -> tensor<2x4xf16>
  %zero = arith.constant dense<0.0> : tensor<2x1xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<2x4xf16>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %w = arith.extf %v : f16 to f32
    %n = arith.addf %w, %acc : f32
    linalg.yield %n : f32
  } -> tensor<2x1xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%n16 : tensor<2x4xf16>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%v: f16, %acc: f32):
    %w = arith.extf %v : f16 to f32
    %n = arith.addf %w, %acc : f32
    linalg.yield %n : f32
  } -> tensor<2x1xf32>
  return %s1, %s2 : tensor<2x1xf32>, tensor<2x1xf32>
}
// CHECK-LABEL: func.func @broadcast_wide_input
// CHECK:       %a = linalg.generic {{.*}} outs(%e : tensor<2x4xf16>)
// CHECK:       %n16 = linalg.generic {{.*}} outs(%e : tensor<2x4xf16>)
// CHECK:       linalg.generic {{.*}} ins(%a : tensor<2x4xf16>)
// CHECK:       linalg.generic {{.*}} ins(%n16 : tensor<2x4xf16>)

// -----

// Negative: an f32 model (nothing is rounded).
func.func @f32_model(%x: tensor<2x4xf32>) -> tensor<2x1xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    linalg.yield %n : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant dense<0.0> : tensor<2x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<2x4xf32>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %n = arith.addf %v, %acc : f32
    linalg.yield %n : f32
  } -> tensor<2x1xf32>
  return %sum : tensor<2x1xf32>
}
// CHECK-LABEL: func.func @f32_model
// CHECK:       %a = linalg.generic {{.*}} outs(%e : tensor<2x4xf32>)
// CHECK-NOT:     arith.truncf
// CHECK:       return %sum
