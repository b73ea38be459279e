// The ops heirpy reuses from xDSL's linalg round-trip in custom and generic form too;
// those current MLIR still has re-parse in heir-opt.
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

func.func @structured(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %c: tensor<4x5xf32>, %v: tensor<4xf32>, %cst: f32) -> (tensor<4x5xf32>, tensor<3x4xf32>, tensor<4x3x2xf32>, tensor<4xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %1 = linalg.transpose ins(%a : tensor<4x3xf32>) outs(%e : tensor<3x4xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<4x3x2xf32>
  %2 = linalg.broadcast ins(%a : tensor<4x3xf32>) outs(%e2 : tensor<4x3x2xf32>) dimensions = [2]
  %3 = linalg.reduce ins(%a : tensor<4x3xf32>) outs(%v : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %4 = linalg.fill ins(%cst : f32) outs(%a : tensor<4x3xf32>) -> tensor<4x3xf32>
  %5 = linalg.copy ins(%4 : tensor<4x3xf32>) outs(%a : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x5xf32>, tensor<3x4xf32>, tensor<4x3x2xf32>, tensor<4xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}
// CHECK-LABEL: func.func @structured
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3x5xf32>) outs(%{{.*}} : tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: linalg.transpose ins({{.*}}tensor<4x3xf32>) outs({{.*}}tensor<3x4xf32>) permutation = [1, 0]
// CHECK: linalg.broadcast ins({{.*}}tensor<4x3xf32>) outs({{.*}}tensor<4x3x2xf32>) dimensions = [2]
// CHECK: linalg.reduce ins({{.*}}tensor<4x3xf32>) outs({{.*}}tensor<4xf32>) dimensions = [1]
// CHECK: arith.addf
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: linalg.copy ins(%{{.*}} : tensor<4x3xf32>) outs(%{{.*}} : tensor<4x3xf32>) -> tensor<4x3xf32>
// MLIR-LABEL: func.func @structured
// MLIR: linalg.matmul
// MLIR: linalg.transpose
// MLIR: linalg.broadcast
// MLIR: linalg.reduce
// MLIR: linalg.fill
// MLIR: linalg.copy

func.func @convs(%x: tensor<1x8x8x2xf32>, %w: tensor<3x3x2x4xf32>, %o: tensor<1x6x6x4xf32>, %wf: tensor<4x3x3x2xf32>) -> (tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>) {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %1 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %wf : tensor<1x8x8x2xf32>, tensor<4x3x3x2xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %0, %1 : tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>
}
// CHECK-LABEL: func.func @convs
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x2xf32>, tensor<3x3x2x4xf32>) outs(%{{.*}} : tensor<1x6x6x4xf32>)
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x2xf32>, tensor<4x3x3x2xf32>)
// MLIR-LABEL: func.func @convs
// MLIR: linalg.conv_2d_nhwc_hwcf
// MLIR: linalg.conv_2d_nhwc_fhwc
