// matmul, batch_matmul and batch_reduce_matmul with `indexing_maps` (a transposed or
// broadcast operand), `cast`, and `contract`: MLIR's custom form round-trips, default maps
// stay unprinted, and heir-opt re-parses the custom and the generic print.
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

func.func @matmuls(%a: tensor<3x5xf32>, %at: tensor<5x3xf32>, %k: tensor<5xf32>, %b: tensor<5x7xf32>,
                   %c: tensor<3x7xf32>, %i: tensor<3x5xi8>, %j: tensor<5x7xi8>, %ci: tensor<3x7xi32>)
    -> (tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xi32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<3x5xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  %1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%at, %b : tensor<5x3xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  %2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%k, %b : tensor<5xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  %3 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%i, %j : tensor<3x5xi8>, tensor<5x7xi8>) outs(%ci : tensor<3x7xi32>) -> tensor<3x7xi32>
  return %0, %1, %2, %3 : tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xi32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[MAP3:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG: #[[MAP4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[MAP5:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[MAP6:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[MAP7:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MAP8:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @matmuls
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<3x5xf32>, tensor<5x7xf32>) outs(%{{.*}} : tensor<3x7xf32>) -> tensor<3x7xf32>
// CHECK: linalg.matmul indexing_maps = [#[[MAP0]], #[[MAP1]], #[[MAP2]]] ins(
// CHECK: linalg.matmul indexing_maps = [#[[MAP3]], #[[MAP1]], #[[MAP2]]] ins(
// CHECK: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%{{.*}}, %{{.*}} : tensor<3x5xi8>, tensor<5x7xi8>)
// MLIR-LABEL: func.func @matmuls
// MLIR: linalg.matmul ins(
// MLIR: linalg.matmul indexing_maps = [#map, #map1, #map2] ins(
// MLIR: linalg.matmul indexing_maps = [#map3, #map1, #map2] ins(
// MLIR: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(

func.func @batched(%a: tensor<2x3x5xf32>, %bt: tensor<2x7x5xf32>, %c: tensor<2x3x7xf32>, %b: tensor<2x5x7xf32>, %r: tensor<3x7xf32>)
    -> (tensor<2x3x7xf32>, tensor<3x7xf32>) {
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
         ins(%a, %bt : tensor<2x3x5xf32>, tensor<2x7x5xf32>) outs(%c : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
  %1 = linalg.batch_reduce_matmul ins(%a, %b : tensor<2x3x5xf32>, tensor<2x5x7xf32>) outs(%r : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %0, %1 : tensor<2x3x7xf32>, tensor<3x7xf32>
}
// CHECK-LABEL: func.func @batched
// CHECK: linalg.batch_matmul indexing_maps = [#[[MAP4]], #[[MAP5]], #[[MAP6]]] ins(
// CHECK: linalg.batch_reduce_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x5xf32>, tensor<2x5x7xf32>) outs(%{{.*}} : tensor<3x7xf32>) -> tensor<3x7xf32>
// MLIR-LABEL: func.func @batched
// MLIR: linalg.batch_matmul indexing_maps = [
// MLIR: linalg.batch_reduce_matmul ins(

func.func @contract(%a: tensor<3x5xf32>, %b: tensor<7x5xf32>, %c: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %0 = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<3x5xf32>, tensor<7x5xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
// CHECK-LABEL: func.func @contract
// CHECK: linalg.contract indexing_maps = [#[[MAP7]], #[[MAP8]], #[[MAP2]]] ins(
// MLIR-LABEL: func.func @contract
// MLIR: linalg.contract indexing_maps = [

func.func @more_named(%x: tensor<1x8x3xf32>, %w: tensor<3x3x4xf32>, %o: tensor<1x6x4xf32>,
                      %p: tensor<1x9x9x9x2xf32>, %win: tensor<3x3x3xf32>, %po: tensor<1x4x4x4x2xf32>,
                      %v: tensor<5xf32>, %d: tensor<f32>) -> (tensor<1x6x4xf32>, tensor<1x4x4x4x2xf32>, tensor<f32>) {
  %0 = linalg.conv_1d_nwc_wcf ins(%x, %w : tensor<1x8x3xf32>, tensor<3x3x4xf32>) outs(%o : tensor<1x6x4xf32>) -> tensor<1x6x4xf32>
  %1 = linalg.pooling_ndhwc_min {strides = dense<2> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
         ins(%p, %win : tensor<1x9x9x9x2xf32>, tensor<3x3x3xf32>) outs(%po : tensor<1x4x4x4x2xf32>) -> tensor<1x4x4x4x2xf32>
  %2 = linalg.dot ins(%v, %v : tensor<5xf32>, tensor<5xf32>) outs(%d : tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<1x6x4xf32>, tensor<1x4x4x4x2xf32>, tensor<f32>
}
// CHECK-LABEL: func.func @more_named
// CHECK: linalg.conv_1d_nwc_wcf ins(%{{.*}}, %{{.*}} : tensor<1x8x3xf32>, tensor<3x3x4xf32>) outs(%{{.*}} : tensor<1x6x4xf32>) -> tensor<1x6x4xf32>
// CHECK: linalg.pooling_ndhwc_min {dilations = dense<1> : tensor<3xi64>, strides = dense<2> : tensor<3xi64>} ins(
// CHECK: linalg.dot ins(%{{.*}}, %{{.*}} : tensor<5xf32>, tensor<5xf32>) outs(%{{.*}} : tensor<f32>) -> tensor<f32>
// MLIR-LABEL: func.func @more_named
// MLIR: linalg.conv_1d_nwc_wcf ins(
// MLIR: linalg.pooling_ndhwc_min {dilations = dense<1> : tensor<3xi64>, strides = dense<2> : tensor<3xi64>} ins(
// MLIR: linalg.dot ins(
