// sink-widening-casts: a generic that stores extf(v) stores v, and each generic reading
// it widens its block argument first (f16 and bf16; one reader, two readers, a reader
// reading it twice, a reduction reader); what stays: a result a contraction, a reshape or
// a return reads, a generic that reads its output, an f32 model.
// Numerics: tests/unit/test_filecheck_numerics.py runs every chunk before/after through
// heirpy's evaluator (the widening is exact, so the results are equal).
// RUN: heirpy-opt %s --split-input-file -p sink-widening-casts | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p sink-widening-casts | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// ViT-tiny f16's last residual add, whose only reader is the final LayerNorm's sum.
func.func @residual_into_layernorm(%a: tensor<2x4xf16>, %b: tensor<2x4xf16>) -> tensor<2x1xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x4xf16>, tensor<2x4xf16>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %s = arith.addf %x, %y : f16
    %w = arith.extf %s : f16 to f32
    linalg.yield %w : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant dense<0.0> : tensor<2x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<2x4xf32>) outs(%zero : tensor<2x1xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %t = arith.addf %v, %acc : f32
    linalg.yield %t : f32
  } -> tensor<2x1xf32>
  return %sum : tensor<2x1xf32>
}
// CHECK-LABEL: func.func @residual_into_layernorm
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<2x4xf16>
// CHECK-NEXT:  %[[R:.*]] = linalg.generic {{.*}} ins(%a, %b : tensor<2x4xf16>, tensor<2x4xf16>) outs(%[[E]] : tensor<2x4xf16>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16):
// CHECK-NEXT:    %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f16
// CHECK-NEXT:    linalg.yield %[[S]] : f16
// CHECK-NEXT:  } -> tensor<2x4xf16>
// CHECK:       linalg.generic {{.*}} ins(%[[R]] : tensor<2x4xf16>) outs(%zero : tensor<2x1xf32>)
// CHECK-NEXT:  ^bb0(%[[V16:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[V:.*]] = arith.extf %[[V16]] : f16 to f32
// CHECK-NEXT:    %[[T:.*]] = arith.addf %[[V]], %[[ACC]] : f32
// CHECK-NEXT:    linalg.yield %[[T]] : f32
// MLIR-LABEL:  func.func @residual_into_layernorm
// MLIR:        ins(%{{.*}} : tensor<2x4xf16>) outs(%{{.*}} : tensor<2x1xf32>)
// MLIR-LABEL:  func.func @two_readers_bf16(

// -----

// bf16, two readers, one of them reading the value twice.
func.func @two_readers_bf16(%a: tensor<4xbf16>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xbf16>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: bf16, %o: f32):
    %n = arith.negf %x : bf16
    %w = arith.extf %n : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<4xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r, %r : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.5 : f32
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %sq, %h : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @two_readers_bf16
// CHECK:       %[[R:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4xbf16>)
// CHECK:         linalg.yield %{{.*}} : bf16
// CHECK:       linalg.generic {{.*}} ins(%[[R]], %[[R]] : tensor<4xbf16>, tensor<4xbf16>)
// CHECK-NEXT:  ^bb0(%{{.*}}: bf16, %{{.*}}: bf16, %{{.*}}: f32):
// CHECK-DAG:     arith.extf %{{.*}} : bf16 to f32
// CHECK-DAG:     arith.extf %{{.*}} : bf16 to f32
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:       linalg.generic {{.*}} ins(%[[R]] : tensor<4xbf16>)
// CHECK-NEXT:  ^bb0(%{{.*}}: bf16, %{{.*}}: f32):
// CHECK-NEXT:    arith.extf %{{.*}} : bf16 to f32

// -----

// Negative: a contraction reads it (narrow-contraction-inputs' business), and a return.
func.func @contraction_reader(%a: tensor<2x2xf16>, %w: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf16>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%x: f16, %o: f32):
    %n = arith.negf %x : f16
    %y = arith.extf %n : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<2x2xf32>
  %m = linalg.matmul ins(%r, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m, %r : tensor<2x2xf32>, tensor<2x2xf32>
}
// CHECK-LABEL: func.func @contraction_reader
// CHECK:       arith.extf %{{.*}} : f16 to f32
// CHECK:       linalg.matmul ins(%r, %w : tensor<2x2xf32>, tensor<2x2xf32>)

// -----

// Negative: a reshape reads it.
func.func @reshape_reader(%a: tensor<1x4xf16>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<1x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x4xf16>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%x: f16, %o: f32):
    %n = arith.negf %x : f16
    %y = arith.extf %n : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x4xf32>
  %c = tensor.collapse_shape %r [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  return %c : tensor<4xf32>
}
// CHECK-LABEL: func.func @reshape_reader
// CHECK:       arith.extf %{{.*}} : f16 to f32
// CHECK:       tensor.collapse_shape %r {{.*}} : tensor<1x4xf32> into tensor<4xf32>

// -----

// Negative: the generic reads its output (an accumulation into the f32 init).
func.func @reads_its_output(%a: tensor<4xf16>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf16>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f16, %o: f32):
    %w = arith.extf %x : f16 to f32
    %s = arith.addf %w, %o : f32
    %t = arith.truncf %s : f32 to f16
    %u = arith.extf %t : f16 to f32
    linalg.yield %u : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  return %h : tensor<4xf32>
}
// CHECK-LABEL: func.func @reads_its_output
// CHECK:       linalg.generic {{.*}} outs(%init : tensor<4xf32>)
// CHECK:         linalg.yield %{{.*}} : f32
// CHECK:       linalg.generic {{.*}} ins(%r : tensor<4xf32>)

// -----

// Negative: an f32 model (nothing narrower is widened).
func.func @f32_model(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %h : tensor<4xf32>
}
// CHECK-LABEL: func.func @f32_model
// CHECK-NOT:   arith.extf
// CHECK:       return
