// examples/alexnet_tiny.mlir (real front-end IR) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/alexnet_tiny.mlir | filecheck %s
// RUN: heirpy-opt %examples/alexnet_tiny.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/alexnet_tiny.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/alexnet_tiny.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main
// CHECK-COUNT-3: linalg.pooling_nchw_sum
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x64xf32>, tensor<64x10xf32>)
// CHECK: return {{.*}} : tensor<1x10xf32>
// MLIR-LABEL: func.func @main
// MLIR-COUNT-3: linalg.conv_2d_nchw_fchw
// MLIR: linalg.matmul
