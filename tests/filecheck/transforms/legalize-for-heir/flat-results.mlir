// `flat-results`: a result no conv can lay out (here the last stage reads the 5-element
// argument, no power of two, so ResultThroughConv declines) is returned as its flat
// vector, not in pieces (pieces.mlir): the result type becomes 1-D, a remark says so,
// and heir-opt compiles it at the bound, 1 level (Q has 2 moduli; in pieces, 2).
// RUN: heirpy-opt %s -p 'legalize-for-heir{flat-results=true}' 2>&1 | filecheck %s
// RUN: heirpy-opt %s -p 'legalize-for-heir{flat-results=true}' | heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks | filecheck %s --check-prefix=CKKS
// RUN: heirpy-opt %s -p legalize-for-heir | filecheck %s --check-prefix=PIECES

func.func @main(%x: tensor<5xf32>) -> tensor<2x3xf32> {
  %a = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.5], [0.0, 1.0, 0.0, 0.0, 0.5], [0.0, 0.0, 1.0, 0.0, 0.5], [0.0, 0.0, 0.0, 1.0, 0.5], [1.0, 1.0, 0.0, 0.0, 0.5], [0.0, 0.0, 1.0, 1.0, 0.5]]> : tensor<6x5xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %h = linalg.matvec ins(%a, %x : tensor<6x5xf32>, tensor<5xf32>) outs(%b : tensor<6xf32>) -> tensor<6xf32>
  %t = tensor.expand_shape %h [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}
// CHECK: remark: legalize-for-heir: @main returns flat results (flat-results): result #0 tensor<6xf32> is the tensor<2x3xf32> result in row-major order{{.*}}
// CHECK-LABEL: func.func @main(%x: tensor<5xf32>) -> tensor<6xf32>
// CHECK-NOT:   tensor.insert_slice
// CHECK:       %[[H:.*]] = linalg.matvec ins(%{{.*}}, %x : tensor<6x5xf32>, tensor<5xf32>)
// CHECK-NEXT:  return %[[H]] : tensor<6xf32>
// CKKS: ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}]
// PIECES-LABEL: func.func @main(%x: tensor<5xf32>) -> tensor<2x3xf32>
// PIECES:       tensor.insert_slice
