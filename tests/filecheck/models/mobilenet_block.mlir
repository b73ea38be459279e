// examples/mobilenet_block.mlir (real front-end IR: a MobileNet depthwise-separable block with batch-norm and global average pooling) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/mobilenet_block.mlir | filecheck %s
// RUN: heirpy-opt %examples/mobilenet_block.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/mobilenet_block.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/mobilenet_block.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
// CHECK-LABEL: func.func @main(%arg0: tensor<1x32x32x32xf32>) -> tensor<1x10xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}}ins(%{{.*}}, %{{.*}} : tensor<1x32x34x34xf32>, tensor<32x3x3xf32>)
// CHECK: cf.assert
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x64x32x32xf32>
// AdaptiveAvgPool2d(1): a sum into the unit dims of (d0, d1, 0, 0), then a divide by 32*32.
// CHECK: linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<1x64x32x32xf32>) outs(%{{.*}} : tensor<1x64x1x1xf32>)
// CHECK: arith.divf
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x64xf32>, tensor<64x10xf32>)
// CHECK: return {{.*}} : tensor<1x10xf32>
// MLIR: = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
// MLIR-LABEL: func.func @main
// MLIR: linalg.depthwise_conv_2d_nchw_chw
// MLIR: iterator_types = ["parallel", "parallel", "reduction", "reduction"]
