// examples/yolo_head_k1.mlir (real front-end IR) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/yolo_head_k1.mlir | filecheck %s
// RUN: heirpy-opt %examples/yolo_head_k1.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/yolo_head_k1.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/yolo_head_k1.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x255x80x80xf32>
// CHECK: tensor.expand_shape {{.*}} : tensor<1x255x80x80xf32> into tensor<1x3x85x80x80xf32>
// CHECK: linalg.transpose ins({{.*}}tensor<1x3x85x80x80xf32>) outs({{.*}}tensor<1x3x80x80x85xf32>) permutation = [0, 1, 3, 4, 2]
// CHECK: math.exp
// CHECK: return {{.*}} : tensor<1x3x80x80x85xf32>
// MLIR-LABEL: func.func @main
// MLIR: linalg.conv_2d_nchw_fchw
// MLIR: linalg.transpose
