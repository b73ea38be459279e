// A function whose linear stage does not fit the slots gets a remark naming the
// min-slot-count to run with; one that fits gets none.
// RUN: heirpy-opt %s --split-input-file -p 'legalize-for-heir{slot-count=16}' 2>&1 | filecheck %s

func.func @wide(%x: tensor<20xf32>) -> tensor<2xf32> {
  %a = arith.constant dense<1.0> : tensor<2x20xf32>
  %b = arith.constant dense<0.0> : tensor<2xf32>
  %y = linalg.matvec ins(%a, %x : tensor<2x20xf32>, tensor<20xf32>) outs(%b : tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK: remark: legalize-for-heir: @wide has a secret tensor of 20 elements, more than 16 slots: run heir-prepare{slot-count=1024} (or leave slot-count out), then heir-opt --torch-linalg-to-ckks=min-slot-count=1024
// CHECK-LABEL: func.func @wide

// -----

func.func @narrow(%x: tensor<8xf32>) -> tensor<2xf32> {
  %a = arith.constant dense<1.0> : tensor<2x8xf32>
  %b = arith.constant dense<0.0> : tensor<2xf32>
  %y = linalg.matvec ins(%a, %x : tensor<2x8xf32>, tensor<8xf32>) outs(%b : tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
// CHECK-NOT: remark
// CHECK-LABEL: func.func @narrow
