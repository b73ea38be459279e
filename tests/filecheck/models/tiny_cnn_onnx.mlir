// examples/tiny_cnn_onnx.mlir (real front-end IR) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/tiny_cnn_onnx.mlir | filecheck %s
// RUN: heirpy-opt %examples/tiny_cnn_onnx.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/tiny_cnn_onnx.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/tiny_cnn_onnx.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main_graph
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x2x8x8xf32>
// CHECK: linalg.pooling_nchw_sum {{.*}}strides = dense<2>{{.*}} -> tensor<1x2x4x4xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: linalg.pooling_nchw_sum {{.*}}strides = dense<2>{{.*}} -> tensor<1x4x2x2xf32>
// CHECK: tensor.collapse_shape
// CHECK: linalg.matmul
// CHECK: return {{.*}} : tensor<1x10xf32>
// MLIR-LABEL: func.func @main_graph
// MLIR-COUNT-2: linalg.pooling_nchw_sum
// MLIR: linalg.matmul
