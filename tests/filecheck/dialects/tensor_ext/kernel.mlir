// tensor_ext.kernel round-trips in custom and generic form.
// RUN: heirpy-opt %s --split-input-file | heirpy-opt --split-input-file | filecheck %s
// RUN: heirpy-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: heirpy-opt %s --split-input-file --print-op-generic | heirpy-opt --split-input-file | filecheck %s

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
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>
// CHECK-LABEL: func.func @k(
// CHECK:       %[[R:.*]] = tensor_ext.kernel ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>, tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
// CHECK-NEXT:  ^bb0(%[[X:.*]]: tensor<1x8x4x4xf32>, %[[W:.*]]: tensor<6x8x1x1xf32>, %[[B:.*]]: tensor<6xf32>):
// CHECK:         %[[ACC:.*]] = linalg.broadcast ins(%[[B]]
// CHECK:         %[[C:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[ACC]] :
// CHECK:         %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], {{.*}} ins(%[[C]] :
// CHECK:         tensor_ext.yield %[[S]] : tensor<1x2x4x4x3xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  return %[[R]]

// GENERIC: "tensor_ext.kernel"(%{{.*}}, %{{.*}}, %{{.*}}) ({
// GENERIC: "tensor_ext.yield"(%{{.*}}) : (tensor<1x2x4x4x3xf32>) -> ()
// GENERIC: }) : (tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>, tensor<6xf32>) -> tensor<1x2x4x4x3xf32>

// -----

// A matmul root, a bias epilogue, two results are not needed: one kernel, one result.
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %bias: tensor<6xf32>) -> tensor<2x6x2xf32> {
  %r = tensor_ext.kernel ins(%a, %b, %bias : tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<2x6x2xf32> {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x6xf32>, %ci: tensor<6xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %m = linalg.matmul ins(%ai, %bi : tensor<4x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
    %o = tensor.empty() : tensor<2x6x2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 2 + d2, d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %ci : tensor<4x6xf32>, tensor<6xf32>) outs(%o : tensor<2x6x2xf32>) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %t = arith.addf %x, %y : f32
      linalg.yield %t : f32
    } -> tensor<2x6x2xf32>
    tensor_ext.yield %s : tensor<2x6x2xf32>
  }
  return %r : tensor<2x6x2xf32>
}
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2) -> (d0 * 2 + d2, d1)>
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @matmul(
// CHECK:       tensor_ext.kernel ins({{.*}}) -> tensor<2x6x2xf32> {
// CHECK:         linalg.fill
// CHECK:         linalg.matmul
// CHECK:         linalg.generic {indexing_maps = [#[[MAP1]], #[[MAP2]],
// CHECK:         tensor_ext.yield
