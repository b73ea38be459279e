// Affine maps, integer sets and tuple types of more than 16 elements print as MLIR prints
// them at the top level: one alias line each ahead of the module (`#map = affine_map<...>`),
// numbered in order of first use, maps before sets, an alias holding another one after it;
// the IR names them (`#map3`). A map the custom form leaves out (affine.store's, the loop's
// constant lower bound) has none; an identity memref layout is not printed at all. In the
// generic form those maps are printed, and an op's regions are met before its own types
// and attributes. --print-local-scope (mlir-opt's --mlir-print-local-scope) prints inline.
// The custom form is byte-identical to heir-opt's; each --split-input-file chunk has its own
// aliases. heir-opt's generic, local-scope and split outputs pass the same checks.
// RUN: heirpy-opt %s > %t.heirpy && heir-opt %s > %t.mlir && diff %t.heirpy %t.mlir
// RUN: heirpy-opt %s | filecheck %s
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: heir-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: heirpy-opt %s --print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: heir-opt %s --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: heirpy-opt %s --split-input-file | filecheck %s --check-prefix=SPLIT
// RUN: heir-opt %s --split-input-file | filecheck %s --check-prefix=SPLIT
// RUN: heirpy-opt %s --split-input-file | heirpy-opt --split-input-file | filecheck %s --check-prefix=SPLIT

// CHECK:      #map = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map1 = affine_map<(d0) -> (d0 * 2)>
// CHECK-NEXT: #map2 = affine_map<(d0) -> (d0 + 7)>
// CHECK-NEXT: #map3 = affine_map<(d0, d1) -> (d0)>
// CHECK-NEXT: #map4 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map5 = affine_map<(d0) -> (d0 + 1)>
// CHECK-NEXT: #set = affine_set<(d0) : (d0 >= 0)>
// CHECK-NEXT: !tuple = tuple<i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, memref<2xf32, #map1>>
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @aliases(%arg0: tensor<3xf32>, %arg1: memref<4x4xf32, #map>, %arg2: index, %arg3: f32, %arg4: !tuple, %arg5: memref<4xf32>) -> tensor<3x16xf32> attributes {cond = #set, maps = [#map2, {inner = #map3}]} {
// CHECK:          affine.for %arg6 = 0 to #map1(%arg2) {
// CHECK-NEXT:       affine.store %arg3, %arg1[%arg6, %arg6 + 1] : memref<4x4xf32, #map>
// CHECK:          linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel"]}

// GENERIC:      #map = affine_map<(d0, d1) -> (d1, d0)>
// GENERIC-NEXT: #map1 = affine_map<(d0) -> (d0 * 2)>
// GENERIC-NEXT: #map2 = affine_map<{{.*}}-> ({{[ds]}}0, {{[ds]}}0 + 1)>
// GENERIC-NEXT: #map3 = affine_map<() -> (0)>
// GENERIC-NEXT: #map4 = affine_map<(d0, d1) -> (d0)>
// GENERIC-NEXT: #map5 = affine_map<(d0, d1) -> (d0, d1)>
// GENERIC-NEXT: #map6 = affine_map<(d0) -> (d0 + 7)>
// GENERIC-NEXT: #map7 = affine_map<(d0) -> (d0 + 1)>
// GENERIC-NEXT: #set = affine_set<(d0) : (d0 >= 0)>
// GENERIC-NEXT: !tuple = tuple<i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, memref<2xf32, #map1>>
// GENERIC-NEXT: "builtin.module"() ({
// GENERIC:      "affine.for"({{.*}}) <{lowerBoundMap = #map3, {{.*}}upperBoundMap = #map1}>
// GENERIC:      "affine.store"({{.*}}) <{map = #map2}>
// GENERIC:      "linalg.generic"({{.*}}) <{indexing_maps = [#map4, #map5],
// GENERIC:      }) {cond = #set, maps = [#map6, {inner = #map4}]} : () -> ()

// LOCAL-NOT:  #map
// LOCAL:      module {
// LOCAL-NEXT:   func.func @aliases(%arg0: tensor<3xf32>, %arg1: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>,
// LOCAL-SAME:     attributes {cond = affine_set<(d0) : (d0 >= 0)>, maps = [affine_map<(d0) -> (d0 + 7)>, {inner = affine_map<(d0, d1) -> (d0)>}]} {
// LOCAL-NOT:  #map
// LOCAL:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// LOCAL-NOT:  #map
// LOCAL:      func.func @second() attributes {m = affine_map<(d0) -> (d0 + 1)>}

// SPLIT:      #map = affine_map<(d0, d1) -> (d1, d0)>
// SPLIT:      module {
// SPLIT:        func.func @aliases(
// SPLIT:      // -----
// SPLIT-NEXT: #map = affine_map<(d0) -> (d0 + 1)>
// SPLIT-NEXT: module {
// SPLIT-NEXT:   func.func @second() attributes {m = #map} {
func.func @aliases(%arg0: tensor<3xf32>, %arg1: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, %arg2: index, %arg3: f32, %arg4: tuple<i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, memref<2xf32, affine_map<(d0) -> (d0 * 2)>>>, %arg5: memref<4xf32, affine_map<(d0) -> (d0)>>) -> tensor<3x16xf32> attributes {cond = affine_set<(d0) : (d0 >= 0)>, maps = [affine_map<(d0) -> (d0 + 7)>, {inner = affine_map<(d0, d1) -> (d0)>}]} {
  %0 = tensor.empty() : tensor<3x16xf32>
  affine.for %arg6 = 0 to affine_map<(d0) -> (d0 * 2)>(%arg2) {
    affine.store %arg3, %arg1[%arg6, %arg6 + 1] : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  }
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3xf32>) outs(%0 : tensor<3x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x16xf32>
  return %1 : tensor<3x16xf32>
}

// -----

func.func @second() attributes {m = affine_map<(d0) -> (d0 + 1)>} {
  return
}
