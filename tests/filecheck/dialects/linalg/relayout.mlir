// linalg.pack, linalg.unpack and linalg.softmax round-trip in custom and generic form, print as MLIR
// prints them, and what heirpy prints re-parses in heir-opt.
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @pack_unpack(%x: tensor<13x15xf32>, %pad: f32) -> tensor<13x15xf32> {
  %d = tensor.empty() : tensor<8x2x8x2xf32>
  %p = linalg.pack %x padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %d {tag} : tensor<13x15xf32> -> tensor<8x2x8x2xf32>
  %e = tensor.empty() : tensor<13x15xf32>
  %u = linalg.unpack %p outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %e : tensor<8x2x8x2xf32> -> tensor<13x15xf32>
  return %u : tensor<13x15xf32>
}
// CHECK-LABEL: func.func @pack_unpack
// CHECK: %[[P:.*]] = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %{{.*}} {tag} : tensor<13x15xf32> -> tensor<8x2x8x2xf32>
// CHECK: linalg.unpack %[[P]] outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %{{.*}} : tensor<8x2x8x2xf32> -> tensor<13x15xf32>
// MLIR-LABEL: func.func @pack_unpack
// MLIR: linalg.pack %{{.*}} padding_value(%{{.*}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2]
// MLIR: linalg.unpack
// GENERIC: "linalg.pack"(%{{.*}}, %{{.*}}, %{{.*}}) <{inner_dims_pos = array<i64: 0, 1>, operandSegmentSizes = array<i32: 1, 1, 1, 0>, outer_dims_perm = array<i64: 1, 0>, static_inner_tiles = array<i64: 8, 2>}> {tag}
// GENERIC: "linalg.unpack"(%{{.*}}, %{{.*}}) <{inner_dims_pos = array<i64: 0, 1>, outer_dims_perm = array<i64: 1, 0>, static_inner_tiles = array<i64: 8, 2>}>

func.func @dynamic_tiles(%x: tensor<?x?xf32>, %d: tensor<?x?x?x?xf32>, %pad: f32, %n: index, %m: index) -> tensor<?x?x?x?xf32> {
  %p = linalg.pack %x padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [%n, %m] into %d : tensor<?x?xf32> -> tensor<?x?x?x?xf32>
  return %p : tensor<?x?x?x?xf32>
}
// CHECK-LABEL: func.func @dynamic_tiles
// CHECK: linalg.pack %{{.*}} padding_value(%{{.*}} : f32) inner_dims_pos = [0, 1] inner_tiles = [%{{.*}}, %{{.*}}] into %{{.*}} : tensor<?x?xf32> -> tensor<?x?x?x?xf32>
// MLIR-LABEL: func.func @dynamic_tiles
// MLIR: linalg.pack

func.func @no_tiles(%x: tensor<3x5x7xf32>, %d: tensor<3x7x5xf32>) -> tensor<3x7x5xf32> {
  %p = linalg.pack %x outer_dims_perm = [0, 2, 1] inner_dims_pos = [] inner_tiles = [] into %d : tensor<3x5x7xf32> -> tensor<3x7x5xf32>
  return %p : tensor<3x7x5xf32>
}
// CHECK-LABEL: func.func @no_tiles
// CHECK: linalg.pack %{{.*}} outer_dims_perm = [0, 2, 1] inner_dims_pos = [] inner_tiles = [] into %{{.*}} : tensor<3x5x7xf32> -> tensor<3x7x5xf32>
// MLIR-LABEL: func.func @no_tiles
// MLIR: linalg.pack

func.func @softmax(%x: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %e = tensor.empty() : tensor<2x16x32xf32>
  %s = linalg.softmax dimension(2) ins(%x : tensor<2x16x32xf32>) outs(%e: tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  return %s : tensor<2x16x32xf32>
}
// CHECK-LABEL: func.func @softmax
// CHECK: linalg.softmax dimension(2) ins(%{{.*}} : tensor<2x16x32xf32>) outs(%{{.*}} : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
// MLIR-LABEL: func.func @softmax
// MLIR: linalg.softmax dimension(2)
// GENERIC: "linalg.softmax"(%{{.*}}, %{{.*}}) <{dimension = 2 : i64}> : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
