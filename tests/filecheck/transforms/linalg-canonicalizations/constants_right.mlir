// A commutative arith op takes its constant operands last, as MLIR's folder puts them
// (HEIR's expected output relies on it: `arith.mulf %arg0, %cst`). Non-commutative ops
// keep their order; two constants keep theirs. The values are unchanged.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @float_ops(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>
// CHECK:         %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK:         %[[M:.*]] = arith.mulf %[[X]], %[[C]] : tensor<4xf32>
// CHECK:         %[[A:.*]] = arith.addf %[[M]], %[[C]] : tensor<4xf32>
// CHECK:         %[[MAX:.*]] = arith.maximumf %[[A]], %[[C]] : tensor<4xf32>
// CHECK:         %[[S:.*]] = arith.subf %[[C]], %[[MAX]] : tensor<4xf32>
// CHECK:         return %[[S]]
func.func @float_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %m = arith.mulf %c, %x : tensor<4xf32>
  %a = arith.addf %c, %m : tensor<4xf32>
  %max = arith.maximumf %c, %a : tensor<4xf32>
  %s = arith.subf %c, %max : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @integer_ops(
// CHECK-SAME:    %[[X:.*]]: i32
// CHECK:         %[[C3:.*]] = arith.constant 3 : i32
// CHECK:         %[[C5:.*]] = arith.constant 5 : i32
// CHECK:         %[[M:.*]] = arith.muli %[[X]], %[[C3]] : i32
// CHECK:         %[[B:.*]] = arith.andi %[[C5]], %[[C3]] : i32
// CHECK:         %[[D:.*]] = arith.divsi %[[C3]], %[[M]] : i32
// CHECK:         return %[[D]], %[[B]]
func.func @integer_ops(%x: i32) -> (i32, i32) {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %m = arith.muli %c3, %x : i32
  %b = arith.andi %c5, %c3 : i32
  %d = arith.divsi %c3, %m : i32
  return %d, %b : i32, i32
}
