// Conv2d + BatchNorm2d (eval mode) exported by torch-mlir (benchmarks/gen_bn.py): the
// batch-norm's (x - mean) * (1 / sqrt(var + eps)) * gamma + beta generics, including
// the cf.assert torch-mlir puts in the reciprocal, fold into ONE conv.
// RUN: heirpy-opt %S/Inputs/conv_batchnorm_torch.mlir -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %S/Inputs/conv_batchnorm_torch.mlir -p linalg-fuse-linear-ops | heir-opt | filecheck %s --check-prefix=HEIR

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<3x2x3x3xf32>
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<{{.*}}> : tensor<3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3x4x4xf32>
// CHECK-NEXT: %[[INIT:.*]] = linalg.broadcast ins(%[[B]]
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%arg0, %[[W]] {{.*}} outs(%[[INIT]]
// CHECK-NEXT: return %[[R]]
// HEIR-LABEL: func.func @main(
// HEIR-NEXT: arith.constant dense<{{.*}}> : tensor<3x2x3x3xf32>
// HEIR-NEXT: arith.constant dense<{{.*}}> : tensor<3xf32>
// HEIR-NEXT: tensor.empty() : tensor<2x3x4x4xf32>
// HEIR-NEXT: linalg.broadcast
// HEIR-NEXT: linalg.conv_2d_nchw_fchw
// HEIR-NEXT: return
