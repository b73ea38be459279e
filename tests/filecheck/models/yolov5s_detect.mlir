// examples/yolov5s_detect.mlir (real front-end IR: the YOLOv5s Detect layer, three heads) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/yolov5s_detect.mlir | filecheck %s
// RUN: heirpy-opt %examples/yolov5s_detect.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/yolov5s_detect.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/yolov5s_detect.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main(%{{.*}}: tensor<1x128x80x80xf32>, %{{.*}}: tensor<1x256x40x40xf32>, %{{.*}}: tensor<1x512x20x20xf32>) -> (tensor<1x3x80x80x85xf32>, tensor<1x3x40x40x85xf32>, tensor<1x3x20x20x85xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x255x80x80xf32>
// CHECK: linalg.transpose {{.*}}permutation = [0, 1, 3, 4, 2]
// CHECK: math.exp
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x255x40x40xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x255x20x20xf32>
// CHECK: return {{.*}} : tensor<1x3x80x80x85xf32>, tensor<1x3x40x40x85xf32>, tensor<1x3x20x20x85xf32>
// MLIR-LABEL: func.func @main
// MLIR-COUNT-3: linalg.conv_2d_nchw_fchw
