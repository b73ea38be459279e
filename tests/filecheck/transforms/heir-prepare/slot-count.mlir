// One slot setting. The batch-2 net of issue 24 (conv stride 2 -> avg pool -> flatten ->
// Linear -> Linear, no activation; 2x2x40x40 = 6400 input elements): the chain is the
// whole function, so it fuses by default (its input is a ciphertext anyway) into one
// block-diagonal matvec on the 6400-element input (depth 1). heirpy picks the 8192
// slots that takes and names the one heir-opt flag; `heir-prepare{slot-count=8192}` is
// the same with the count named once, and equals its three passes with that count.
// RUN: heirpy-opt %S/Inputs/batch2_linear.mlir -p heir-prepare,report-depth 2>&1 | filecheck %s
// RUN: heirpy-opt %S/Inputs/batch2_linear.mlir -p 'heir-prepare{slot-count=8192}',report-slots 2>&1 | filecheck %s --check-prefix=NAMED
// RUN: heirpy-opt %S/Inputs/batch2_linear.mlir -p 'heir-prepare{slot-count=1024}' 2>&1 | filecheck %s --check-prefix=SMALL

// CHECK: remark: legalize-for-heir: the module needs 8192 slots (@main has a secret tensor of 6400 elements): run heir-opt --torch-linalg-to-ckks=min-slot-count=8192
// CHECK: @main  1
// CHECK-LABEL: func.func @main
// CHECK:      tensor.collapse_shape {{.*}} into tensor<6400xf32>
// CHECK:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<10x6400xf32>, tensor<6400xf32>)
// CHECK:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<10x6400xf32>, tensor<6400xf32>)
// CHECK:      return

// NAMED: remark: legalize-for-heir: the module needs 8192 slots (@main has a secret tensor of 6400 elements): run heir-opt --torch-linalg-to-ckks=min-slot-count=8192
// NAMED: min-slot-count: 8192: heir-opt --torch-linalg-to-ckks=min-slot-count=8192

// A count too small for the function: the remark names the count to ask for.
// SMALL: remark: legalize-for-heir: @main has a secret tensor of 6400 elements, more than 1024 slots: run heir-prepare{slot-count=8192} (or leave slot-count out), then heir-opt --torch-linalg-to-ckks=min-slot-count=8192
