// examples/yolov5s_detect_concat.mlir (real front-end IR: the YOLOv5s Detect layer in its export form, heads concatenated) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/yolov5s_detect_concat.mlir | filecheck %s
// RUN: heirpy-opt %examples/yolov5s_detect_concat.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/yolov5s_detect_concat.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/yolov5s_detect_concat.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-LABEL: func.func @main(%{{.*}}: tensor<1x128x80x80xf32>, %{{.*}}: tensor<1x256x40x40xf32>, %{{.*}}: tensor<1x512x20x20xf32>) -> tensor<1x25200x85xf32>
// CHECK-COUNT-3: math.exp
// CHECK: %[[P3:.*]] = tensor.collapse_shape {{.*}} : tensor<1x3x80x80x85xf32> into tensor<1x19200x85xf32>
// CHECK: %[[P4:.*]] = tensor.collapse_shape {{.*}} : tensor<1x3x40x40x85xf32> into tensor<1x4800x85xf32>
// CHECK: %[[P5:.*]] = tensor.collapse_shape {{.*}} : tensor<1x3x20x20x85xf32> into tensor<1x1200x85xf32>
// CHECK: tensor.concat dim(1) %[[P3]], %[[P4]], %[[P5]] : (tensor<1x19200x85xf32>, tensor<1x4800x85xf32>, tensor<1x1200x85xf32>) -> tensor<1x25200x85xf32>
// MLIR-LABEL: func.func @main
// MLIR: tensor.concat dim(1)
