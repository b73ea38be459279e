// examples/lenet5.mlir (real front-end IR: LeNet-5 with average pools and x², weights as dense constants) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/lenet5.mlir | filecheck %s
// RUN: heirpy-opt %examples/lenet5.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/lenet5.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/lenet5.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main(%{{.*}}: tensor<1x1x28x28xf32>) -> tensor<1x10xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x6x28x28xf32>
// CHECK: linalg.pooling_nchw_sum {{.*}} -> tensor<1x6x14x14xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x16x10x10xf32>
// CHECK: linalg.pooling_nchw_sum {{.*}} -> tensor<1x16x5x5xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x400xf32>, tensor<400x120xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x120xf32>, tensor<120x84xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x84xf32>, tensor<84x10xf32>)
// CHECK: return {{.*}} : tensor<1x10xf32>
// MLIR-LABEL: func.func @main
// MLIR-COUNT-2: linalg.pooling_nchw_sum
// MLIR-COUNT-3: linalg.matmul
