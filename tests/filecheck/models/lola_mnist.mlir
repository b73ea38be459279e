// examples/lola_mnist.mlir (real front-end IR: LoLa's MNIST net, weights as dense constants) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/lola_mnist.mlir | filecheck %s
// RUN: heirpy-opt %examples/lola_mnist.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/lola_mnist.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/lola_mnist.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main(%{{.*}}: tensor<1x1x28x28xf32>) -> tensor<1x10xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>{{.*}} -> tensor<1x5x13x13xf32>
// CHECK: arith.mulf
// CHECK: tensor.collapse_shape {{.*}} : tensor<1x5x13x13xf32> into tensor<1x845xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x845xf32>, tensor<845x100xf32>)
// CHECK: arith.mulf
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x100xf32>, tensor<100x10xf32>)
// CHECK: return {{.*}} : tensor<1x10xf32>
// MLIR-LABEL: func.func @main
// MLIR: linalg.conv_2d_nchw_fchw
// MLIR-COUNT-2: linalg.matmul
