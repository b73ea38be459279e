// Linalg ops on tensors have no side effects: dce and canonicalize remove dead ones,
// including heirpy's added ops. Ops on memrefs write memory and must stay.
// RUN: heirpy-opt %s -p dce | filecheck %s
// RUN: heirpy-opt %s -p canonicalize | filecheck %s

func.func @dead(%in: tensor<1x2x8x8xf32>, %win: tensor<2x2xf32>, %o: tensor<1x2x4x4xf32>, %f: tensor<3x2x3x3xf32>, %co: tensor<1x3x6x6xf32>, %cst: f32) -> tensor<1x2x4x4xf32> {
  %0 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = linalg.conv_2d_nchw_fchw ins(%in, %f : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) outs(%co : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %2 = linalg.fill ins(%cst : f32) outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0 : tensor<1x2x4x4xf32>) outs(%o : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %4 = linalg.pooling_nchw_max ins(%in, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @dead
// CHECK-NEXT: %[[P:.*]] = linalg.pooling_nchw_sum
// CHECK-NEXT: return %[[P]]

func.func @memref_kept(%a: memref<4xf32>, %cst: f32) {
  linalg.fill ins(%cst : f32) outs(%a : memref<4xf32>)
  return
}
// CHECK-LABEL: func.func @memref_kept
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<4xf32>)
