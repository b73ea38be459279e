// The example of ReportSlotsPass's docstring: two matvecs on secret vectors; the weights
// (constants) are not counted. The IR is unchanged.
// RUN: heirpy-opt %s -p report-slots 2>&1 | filecheck %s

func.func @main(%x: tensor<64xf32>) -> tensor<10xf32> {
  %w1 = arith.constant dense<0.5> : tensor<32x64xf32>
  %b1 = arith.constant dense<0.0> : tensor<32xf32>
  %h = linalg.matvec ins(%w1, %x : tensor<32x64xf32>, tensor<64xf32>) outs(%b1 : tensor<32xf32>) -> tensor<32xf32>
  %s = arith.mulf %h, %h : tensor<32xf32>
  %w2 = arith.constant dense<0.25> : tensor<10x32xf32>
  %b2 = arith.constant dense<0.0> : tensor<10xf32>
  %y = linalg.matvec ins(%w2, %s : tensor<10x32xf32>, tensor<32xf32>) outs(%b2 : tensor<10xf32>) -> tensor<10xf32>
  return %y : tensor<10xf32>
}
// CHECK:      @main: linear ops on secret data
// CHECK-NEXT:   op             matrix (out x in)  slots
// CHECK-NEXT:   linalg.matvec  32x64              64
// CHECK-NEXT:   linalg.matvec  10x32              32
// CHECK-NEXT:   min-slot-count: 1024 (HEIR's default)
// CHECK:      func.func @main
// CHECK:      linalg.matvec
// CHECK:      linalg.matvec
