// scf.for and scf.if read their result types as MLIR does: one type may stand alone
// after `->`, several are bracketed. Both print bracketed, as mlir-opt prints them, and
// the output re-parses in heirpy and in heir-opt.
// RUN: heirpy-opt %s | filecheck %s
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s

// CHECK-LABEL: func.func @single_result_for(
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<4xf32>) {
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<4xf32>) : i32 {
// CHECK:       scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<4xf32>, f32) {
// MLIR-LABEL:  func.func @single_result_for(
// MLIR-COUNT-2: iter_args(%{{.*}} = %{{.*}}) -> (tensor<4xf32>)
func.func @single_result_for(%t: tensor<4xf32>, %x: f32, %lb: index, %ub: index, %n: i32) -> tensor<4xf32> {
  %0 = scf.for %i = %lb to %ub step %lb iter_args(%acc = %t) -> tensor<4xf32> {
    scf.yield %acc : tensor<4xf32>
  }
  %1 = scf.for %i = %n to %n step %n iter_args(%acc = %0) -> tensor<4xf32> : i32 {
    scf.yield %acc : tensor<4xf32>
  }
  %2:2 = scf.for %i = %lb to %ub step %lb iter_args(%acc = %1, %s = %x) -> (tensor<4xf32>, f32) {
    scf.yield %acc, %s : tensor<4xf32>, f32
  }
  return %2#0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @single_result_if(
// CHECK:       scf.if %{{.*}} -> (tensor<4xf32>) {
// CHECK:       scf.if %{{.*}} -> (f32) {
// MLIR-LABEL:  func.func @single_result_if(
// MLIR:        scf.if %{{.*}} -> (tensor<4xf32>) {
func.func @single_result_if(%t: tensor<4xf32>, %x: f32, %c: i1) -> tensor<4xf32> {
  %0 = scf.if %c -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  } else {
    scf.yield %t : tensor<4xf32>
  }
  %1 = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield %x : f32
  }
  return %0 : tensor<4xf32>
}
