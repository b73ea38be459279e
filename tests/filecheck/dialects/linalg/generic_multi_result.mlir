// A linalg.generic with several results (what torch-mlir prints for max, argmax and the max
// inside softmax) parses, prints as MLIR does (`%r:2 = ...` used as `%r#0`, `-> (t1, t2)`), and re-parses in custom and
// generic form, in heirpy and in heir-opt. So does a generic whose attributes come from an
// alias (`#trait`) or that carries extra attributes (`attrs = {...}`).
// RUN: heirpy-opt %s | filecheck %s
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

func.func @max_argmax(%x: tensor<1x3x7xf32>) -> (tensor<1x3xf32>, tensor<1x3xi64>) {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<1x3xf32>
  %e1 = tensor.empty() : tensor<1x3xi64>
  %m = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<1x3xf32>) -> tensor<1x3xf32>
  %i = linalg.fill ins(%c0 : i64) outs(%e1 : tensor<1x3xi64>) -> tensor<1x3xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x3x7xf32>) outs(%m, %i : tensor<1x3xf32>, tensor<1x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %idx = linalg.index 2 : index
    %ii = arith.index_cast %idx : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ii, %out_0 : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<1x3xf32>, tensor<1x3xi64>)
  return %r#0, %r#1 : tensor<1x3xf32>, tensor<1x3xi64>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @max_argmax
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]], #[[MAP1]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}} : tensor<1x3x7xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<1x3xi64>) {
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, i64
// CHECK-NEXT: } -> (tensor<1x3xf32>, tensor<1x3xi64>)
// CHECK: return %[[R]]#0, %[[R]]#1 : tensor<1x3xf32>, tensor<1x3xi64>
// MLIR-LABEL: func.func @max_argmax
// MLIR: %[[R:.*]]:2 = linalg.generic
// MLIR: } -> (tensor<1x3xf32>, tensor<1x3xi64>)
// MLIR: return %[[R]]#0, %[[R]]#1

#trait = {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
func.func @trait_alias(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %r:2 = linalg.generic #trait ins(%a : tensor<8xf32>) outs(%e, %e : tensor<8xf32>, tensor<8xf32>) attrs = {note = "kept"} {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    %n = arith.negf %in : f32
    %s = arith.mulf %in, %in : f32
    linalg.yield %n, %s : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}
// CHECK-LABEL: func.func @trait_alias
// CHECK: linalg.generic {indexing_maps = [#[[MAP2]], #[[MAP2]], #[[MAP2]]], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<8xf32>) outs(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>) attrs = {note = "kept"}
// CHECK: } -> (tensor<8xf32>, tensor<8xf32>)
// MLIR-LABEL: func.func @trait_alias
// MLIR: linalg.generic {{.*}}attrs = {note = "kept"}
// MLIR: } -> (tensor<8xf32>, tensor<8xf32>)
