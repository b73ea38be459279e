// examples/cryptonets.mlir (real front-end IR: CryptoNets, weights as dense constants) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/cryptonets.mlir | filecheck %s
// RUN: heirpy-opt %examples/cryptonets.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/cryptonets.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/cryptonets.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main(%{{.*}}: tensor<1x1x28x28xf32>) -> tensor<1x10xf32>
// CHECK: arith.constant dense<"0x{{[0-9A-F]+}}"> : tensor<100x1250xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>{{.*}} -> tensor<1x5x13x13xf32>
// CHECK: arith.mulf
// CHECK: linalg.pooling_nchw_sum {{.*}}ins(%{{.*}}, %{{.*}} : tensor<1x5x15x15xf32>, tensor<3x3xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x50x5x5xf32>
// CHECK: linalg.pooling_nchw_sum {{.*}}ins(%{{.*}}, %{{.*}} : tensor<1x50x7x7xf32>, tensor<3x3xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x1250xf32>, tensor<1250x100xf32>)
// CHECK: arith.mulf
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x100xf32>, tensor<100x10xf32>)
// CHECK: return {{.*}} : tensor<1x10xf32>
// MLIR-LABEL: func.func @main
// MLIR-COUNT-2: linalg.pooling_nchw_sum
// MLIR-COUNT-2: linalg.matmul
