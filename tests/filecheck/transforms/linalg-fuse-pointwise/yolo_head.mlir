// The YOLOv5s head (conv + bias -> reshape -> transpose -> sigmoid) is one kernel for a
// 1x1 and a 3x3 conv (whose input pad joins the kernel's prologue). Lowered, it is one
// conv, the reshape of its result, and one generic that heir-opt and
// iree-opt accept; with kernels=false, one conv and one generic.
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p linalg-fuse-pointwise | filecheck %s
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-fuse-pointwise | filecheck %s --check-prefixes=CHECK,K3
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-fuse-pointwise,lower-tensor-ext | heir-opt | filecheck %s --check-prefix=LOWERED
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-fuse-pointwise,lower-tensor-ext | iree-opt | filecheck %s --check-prefix=LOWERED
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p 'linalg-fuse-pointwise{kernels=false}' | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 85 + d4, d2, d3)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @main(
// CHECK-NOT:   linalg.
// CHECK:       %[[K:.*]] = tensor_ext.kernel ins(
// K3:            tensor.pad
// CHECK:         linalg.broadcast
// CHECK:         %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK:         %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]]]{{.*}} ins(%[[C]] : tensor<1x255x80x80xf32>) outs(%{{.*}} : tensor<1x3x80x80x85xf32>)
// CHECK:         math.exp
// CHECK:         tensor_ext.yield %[[S]]
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[K]]

// MLIR-LABEL: func.func @main(
// MLIR-NOT:   {{linalg.transpose|tensor.expand_shape|linalg.generic}}
// MLIR:       linalg.conv_2d_nchw_fchw
// MLIR-NOT:   {{linalg.transpose|tensor.expand_shape}}
// MLIR:       linalg.generic
// MLIR-NOT:   {{linalg.transpose|tensor.expand_shape|linalg.generic}}
// MLIR:       return

// LOWERED-LABEL: func.func @main(
// LOWERED-NOT:   {{linalg.transpose|linalg.generic|linalg.broadcast}}
// LOWERED:       linalg.conv_2d_nchw_fchw
// LOWERED-NOT:   linalg.generic
// LOWERED:       tensor.expand_shape {{.*}} into tensor<1x3x85x80x80xf32>
// LOWERED-NOT:   linalg.transpose
// LOWERED:       linalg.generic
// LOWERED-NOT:   {{linalg.transpose|linalg.generic}}
// LOWERED:       return
