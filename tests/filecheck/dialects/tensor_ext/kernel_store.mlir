// A tensor_ext.kernel that stores its result into a slice of a destination operand
// (destination-passing style) round-trips in custom and generic form, and runs as its body:
// the destination with rows [2, 6) replaced by the squared matmul.
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s -p lower-tensor-ext | heir-opt | filecheck %s --check-prefix=LOWERED

func.func @store_rows(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %dst: tensor<9x6xf32>) -> tensor<9x6xf32> {
  %k = tensor_ext.kernel ins(%a, %b, %dst : tensor<4x8xf32>, tensor<8x6xf32>, tensor<9x6xf32>) -> tensor<9x6xf32> {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x6xf32>, %d: tensor<9x6xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %s = tensor.extract_slice %d[2, 0] [4, 6] [1, 1] : tensor<9x6xf32> to tensor<4x6xf32>
    %m = linalg.matmul ins(%ai, %bi : tensor<4x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x6xf32>) outs(%s : tensor<4x6xf32>) {
    ^bb0(%x: f32, %out: f32):
      %t = arith.mulf %x, %x : f32
      linalg.yield %t : f32
    } -> tensor<4x6xf32>
    %r = tensor.insert_slice %g into %d[2, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<9x6xf32>
    tensor_ext.yield %r : tensor<9x6xf32>
  }
  return %k : tensor<9x6xf32>
}
// CHECK-LABEL: func.func @store_rows(
// CHECK:       tensor_ext.kernel ins(%a, %b, %dst : tensor<4x8xf32>, tensor<8x6xf32>, tensor<9x6xf32>) -> tensor<9x6xf32> {
// CHECK:         ^bb0(%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x6xf32>, %[[D:.*]]: tensor<9x6xf32>):
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[D]][2, 0] [4, 6] [1, 1] : tensor<9x6xf32> to tensor<4x6xf32>
// CHECK:         linalg.matmul
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<4x6xf32>)
// CHECK:         %[[R:.*]] = tensor.insert_slice %[[G]] into %[[D]][2, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<9x6xf32>
// CHECK:         tensor_ext.yield %[[R]] : tensor<9x6xf32>
// LOWERED-LABEL: func.func @store_rows(
// LOWERED:       %[[S:.*]] = tensor.extract_slice %arg2[2, 0] [4, 6] [1, 1]
// LOWERED:       %[[G:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<4x6xf32>)
// LOWERED:       %[[R:.*]] = tensor.insert_slice %[[G]] into %arg2[2, 0] [4, 6] [1, 1]
// LOWERED:       return %[[R]] : tensor<9x6xf32>
