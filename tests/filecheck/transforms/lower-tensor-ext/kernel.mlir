// lower-tensor-ext inlines a tensor_ext.kernel: the root op plus one generic, which
// heir-opt and iree-opt accept.
// RUN: heirpy-opt %s -p lower-tensor-ext | filecheck %s
// RUN: heirpy-opt %s -p lower-tensor-ext | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p lower-tensor-ext | iree-opt | filecheck %s --check-prefix=MLIR

func.func @k(%x: tensor<1x8x4x4xf32>, %w: tensor<6x8x1x1xf32>, %b: tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  %r = tensor_ext.kernel ins(%x, %w, %b : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>, tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  ^bb0(%xi: tensor<1x8x4x4xf32>, %wi: tensor<6x8x1x1xf32>, %bi: tensor<6xf32>):
    %one = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<1x6x4x4xf32>
    %acc = linalg.broadcast ins(%bi : tensor<6xf32>) outs(%e : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
    %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) outs(%acc : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %o = tensor.empty() : tensor<1x2x4x4x3xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x4x4xf32>) outs(%o : tensor<1x2x4x4x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      %x1 = math.exp %n : f32
      %d = arith.addf %x1, %one : f32
      %q = arith.divf %one, %d : f32
      linalg.yield %q : f32
    } -> tensor<1x2x4x4x3xf32>
    tensor_ext.yield %s : tensor<1x2x4x4x3xf32>
  }
  return %r : tensor<1x2x4x4x3xf32>
}
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[X:.*]]: tensor<1x8x4x4xf32>, %[[W:.*]]: tensor<6x8x1x1xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK-NOT:   tensor_ext
// CHECK:       %[[ACC:.*]] = linalg.broadcast ins(%[[B]]
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[ACC]] :
// CHECK:       %[[S:.*]] = linalg.generic {{.*}} ins(%[[C]] :
// CHECK:       func.return %[[S]]

// MLIR-LABEL: func.func @k(
// MLIR-NOT:   {{tensor_ext|linalg.generic}}
// MLIR:       linalg.conv_2d_nchw_fchw
// MLIR-NOT:   tensor_ext
// MLIR:       linalg.generic
// MLIR-NOT:   {{tensor_ext|linalg.generic}}
// MLIR:       return
