// demote-f64: which functions are demoted (f64 values computed in f32, as IREE's
// `--iree-input-demote-f64-to-f32` does, then CSE merges twins) and which are left as they
// were (f64 in the signature, a bitcast of f64 bits). Numerics against the input: heirpy-equiv.
// RUN: heirpy-opt %s -p demote-f64 | filecheck %s
// RUN: heirpy-opt %s -p demote-f64 | iree-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p demote-f64 -o %t
// RUN: heirpy-equiv %s %t --function twins | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function half_island | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function no_f64 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// MLIR-COUNT-5: func.func @

#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0, 0)>

// torch-mlir's LayerNorm statistics: the same row sum in f64 (for the variance) and in f32
// (for the mean). Demoted, the two sums, their fills and their divides are one.
func.func @twins(%x: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>) {
  %c0_64 = arith.constant 0.0 : f64
  %c0 = arith.constant 0.0 : f32
  %n64 = arith.constant dense<8.0> : tensor<4x1xf64>
  %n = arith.constant dense<8.0> : tensor<4x1xf32>
  %x64 = arith.extf %x : tensor<4x8xf32> to tensor<4x8xf64>
  %e64 = tensor.empty() : tensor<4x1xf64>
  %z64 = linalg.fill ins(%c0_64 : f64) outs(%e64 : tensor<4x1xf64>) -> tensor<4x1xf64>
  %s64 = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x64 : tensor<4x8xf64>) outs(%z64 : tensor<4x1xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %v = arith.addf %in, %acc : f64
    linalg.yield %v : f64
  } -> tensor<4x1xf64>
  %m64 = arith.divf %s64, %n64 : tensor<4x1xf64>
  %a = arith.truncf %m64 : tensor<4x1xf64> to tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%z : tensor<4x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %v = arith.addf %in, %acc : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %b = arith.divf %s, %n : tensor<4x1xf32>
  return %a, %b : tensor<4x1xf32>, tensor<4x1xf32>
}
// CHECK-LABEL: func.func @twins
// CHECK-NOT:   f64
// CHECK:       %[[S:.*]] = linalg.generic {{.*}} ins(%x : tensor<4x8xf32>)
// CHECK:       %[[M:.*]] = arith.divf %[[S]], %{{.*}} : tensor<4x1xf32>
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   arith.divf
// CHECK:       return %[[M]], %[[M]] : tensor<4x1xf32>, tensor<4x1xf32>

// An f64 island in f16: the casts now go f16 -> f32 -> f16 and stay.
func.func @half_island(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %e = arith.extf %x : tensor<4x8xf16> to tensor<4x8xf64>
  %s = arith.mulf %e, %e : tensor<4x8xf64>
  %r = arith.truncf %s : tensor<4x8xf64> to tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}
// CHECK-LABEL: func.func @half_island
// CHECK-NEXT:  %[[E:.*]] = arith.extf %x : tensor<4x8xf16> to tensor<4x8xf32>
// CHECK-NEXT:  %[[S:.*]] = arith.mulf %[[E]], %[[E]] : tensor<4x8xf32>
// CHECK-NEXT:  arith.truncf %[[S]] : tensor<4x8xf32> to tensor<4x8xf16>

// No f64: nothing changes.
func.func @no_f64(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = arith.addf %x, %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @no_f64
// CHECK-NEXT:  arith.addf %x, %x : tensor<4x8xf32>

// f64 in the signature: left as it was (callers see its types).
func.func @f64_signature(%x: tensor<4xf64>) -> tensor<4xf64> {
  %s = arith.addf %x, %x : tensor<4xf64>
  return %s : tensor<4xf64>
}
// CHECK-LABEL: func.func @f64_signature(%x: tensor<4xf64>) -> tensor<4xf64>
// CHECK-NEXT:  arith.addf %x, %x : tensor<4xf64>

// f64 bits reinterpreted: demoting would change the bits read, so the function is left.
func.func @bitcast(%x: tensor<4xi64>) -> tensor<4xf32> {
  %f = arith.bitcast %x : tensor<4xi64> to tensor<4xf64>
  %r = arith.truncf %f : tensor<4xf64> to tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @bitcast
// CHECK-NEXT:  arith.bitcast %x : tensor<4xi64> to tensor<4xf64>
// CHECK-NEXT:  arith.truncf %{{.*}} : tensor<4xf64> to tensor<4xf32>
