// examples/resnet_block.mlir (real front-end IR: a ResNet basic block with batch-norm, x² and a residual add) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/resnet_block.mlir | filecheck %s
// RUN: heirpy-opt %examples/resnet_block.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/resnet_block.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/resnet_block.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// Eval-mode batch-norm reaches linalg as per-channel generics on [16x1x1] constants, with
// torch-mlir's zero check (`cf.assert`) inside the generic computing 1 / sqrt(var + eps).
// CHECK-LABEL: func.func @main(%arg0: tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x16x32x32xf32>
// CHECK: math.sqrt
// CHECK: cf.assert {{.*}}, "unimplemented: tensor with zero element"
// CHECK: arith.subf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x16x32x32xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %arg0 : tensor<1x16x32x32xf32>, tensor<1x16x32x32xf32>)
// CHECK: return {{.*}} : tensor<1x16x32x32xf32>
// MLIR-LABEL: func.func @main
// MLIR-COUNT-2: linalg.conv_2d_nchw_fchw
// MLIR: cf.assert
