// The named elementwise ops (linalg.add, sub, mul, div, exp, ...) that older MLIR
// and xDSL print. Current MLIR (heir-opt 2026.11, iree-opt 3.13) has replaced them by
// `linalg.elementwise <kind>` and rejects them, so heirpy parses and prints them but
// its passes never emit them; this test has no heir-opt check on purpose.
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s

func.func @div(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %0 = linalg.div ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.div ins(%i, %i : tensor<4xi32>, tensor<4xi32>) outs(%i : tensor<4xi32>) -> tensor<4xi32>
  %2 = linalg.add ins(%0, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @div
// CHECK: %[[D:.*]] = linalg.div ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.div ins(%{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xi32>) outs(%{{.*}} : tensor<4xi32>) -> tensor<4xi32>
// CHECK: linalg.add ins(%[[D]], %{{.*}} : tensor<4xf32>, tensor<4xf32>)

func.func @others(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = linalg.sub ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.mul ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.max ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %3 = linalg.min ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %4 = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %5 = linalg.log ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %6 = linalg.sqrt ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @others
// CHECK: linalg.sub ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>)
// CHECK: linalg.mul ins(
// CHECK: linalg.max ins(
// CHECK: linalg.min ins(
// CHECK: linalg.exp ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: linalg.log ins(
// CHECK: linalg.sqrt ins(
