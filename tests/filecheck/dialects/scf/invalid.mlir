// Malformed scf.for / scf.if result types: one located line each, MLIR's message.
// RUN: heirpy-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @more_types_than_iter_args(%t: tensor<4xf32>, %i: index) {
  %0 = scf.for %k = %i to %i step %i iter_args(%a = %t) -> (tensor<4xf32>, tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  }
  return
}
// CHECK: invalid.mlir:[[# @LINE - 5]]:{{[0-9]+}}: error: mismatch in number of loop-carried values and defined values

// -----

func.func @fewer_types_than_iter_args(%t: tensor<4xf32>, %i: index) {
  %0:2 = scf.for %k = %i to %i step %i iter_args(%a = %t, %b = %t) -> tensor<4xf32> {
    scf.yield %a, %b : tensor<4xf32>, tensor<4xf32>
  }
  return
}
// CHECK: invalid.mlir:[[# @LINE - 5]]:{{[0-9]+}}: error: mismatch in number of loop-carried values and defined values

// -----

func.func @arrow_without_type(%t: tensor<4xf32>, %c: i1) {
  %0 = scf.if %c -> {
    scf.yield %t : tensor<4xf32>
  }
  return
}
// CHECK: invalid.mlir:[[# @LINE - 5]]:{{[0-9]+}}: error: type expected
