// One slot setting. The batch-2 net of issue 24 (conv stride 2 -> avg pool -> flatten ->
// Linear -> Linear, no activation; 2x2x40x40 = 6400 input elements): the chain is the
// whole function, so it fuses by default (its input is a ciphertext anyway) into one
// block-diagonal matvec on the 6400-element input (depth 1). heirpy picks the 8192
// slots that takes and names the one heir-opt flag; `heir-prepare{slot-count=8192}` is
// the same with the count named once, and equals its three passes with that count.
// Its 2x10 result is returned flat by default (a 2x10 in rows costs HEIR a level: the
// 6400-element input is no power of two); flat-results=false keeps the shape.
// RUN: heirpy-opt %S/Inputs/batch2_linear.mlir -p heir-prepare,report-depth 2>&1 | filecheck %s
// RUN: heirpy-opt %S/Inputs/batch2_linear.mlir -p 'heir-prepare{flat-results=false}' 2>&1 | filecheck %s --check-prefix=SHAPED
// RUN: heirpy-opt %S/Inputs/batch2_linear.mlir -p 'heir-prepare{slot-count=8192}',report-slots 2>&1 | filecheck %s --check-prefix=NAMED
// RUN: heirpy-opt %S/Inputs/batch2_linear.mlir -p 'heir-prepare{slot-count=1024}' 2>&1 | filecheck %s --check-prefix=SMALL

// CHECK: remark: legalize-for-heir: the module needs 8192 slots (@main has a secret tensor of 6400 elements): run heir-opt --torch-linalg-to-ckks=min-slot-count=8192
// CHECK: remark: legalize-for-heir: @main returns flat results (flat-results): result #0 tensor<20xf32> is the tensor<2x10xf32> result in row-major order (flat-results=false keeps the shape, at one level more)
// CHECK: remark: heir-prepare: @main has depth 1 and needs 8192 slots: run heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks=min-slot-count=8192{{$}}
// CHECK: @main  1
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> tensor<20xf32>
// CHECK:      %[[X:.*]] = tensor.collapse_shape {{.*}} into tensor<6400xf32>
// CHECK:      %[[V:.*]] = linalg.matvec ins(%{{.*}}, %[[X]] : tensor<20x6400xf32>, tensor<6400xf32>)
// CHECK-NEXT: return %[[V]]

// SHAPED-LABEL: func.func @main
// SHAPED-SAME: -> tensor<2x10xf32>
// SHAPED:      tensor.collapse_shape {{.*}} into tensor<6400xf32>
// SHAPED:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<10x6400xf32>, tensor<6400xf32>)
// SHAPED:      linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<10x6400xf32>, tensor<6400xf32>)
// SHAPED:      return

// NAMED: remark: legalize-for-heir: the module needs 8192 slots (@main has a secret tensor of 6400 elements): run heir-opt --torch-linalg-to-ckks=min-slot-count=8192
// NAMED: min-slot-count: 8192: heir-opt --torch-linalg-to-ckks=min-slot-count=8192

// A count too small for the function: the remark names the count to ask for.
// SMALL: remark: legalize-for-heir: @main has a secret tensor of 6400 elements, more than 1024 slots: run heir-prepare{slot-count=8192} (or leave slot-count out), then heir-opt --torch-linalg-to-ckks=min-slot-count=8192
