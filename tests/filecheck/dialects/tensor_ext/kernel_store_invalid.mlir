// A store (tensor.insert_slice into a destination operand) must write back exactly the slice
// its epilogue's init came from; the verifier names what is wrong.
// RUN: heirpy-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @slice_elsewhere(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %dst: tensor<9x6xf32>) -> tensor<9x6xf32> {
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
    %r = tensor.insert_slice %g into %d[3, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<9x6xf32>
    tensor_ext.yield %r : tensor<9x6xf32>
  }
  return %k : tensor<9x6xf32>
}
// CHECK: kernel_store_invalid.mlir:6:8: error: 'tensor_ext.kernel' op expects the store to write the same static slice its init was taken from

// -----

func.func @yield_not_store(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %dst: tensor<9x6xf32>) -> tensor<9x6xf32> {
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
    tensor_ext.yield %d : tensor<9x6xf32>
  }
  return %k : tensor<9x6xf32>
}
// CHECK: kernel_store_invalid.mlir:28:8: error: 'tensor_ext.kernel' op expects 'tensor_ext.yield' to yield the store's result

// -----

func.func @dest_read_twice(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %dst: tensor<9x6xf32>) -> tensor<9x6xf32> {
  %k = tensor_ext.kernel ins(%a, %b, %dst : tensor<4x8xf32>, tensor<8x6xf32>, tensor<9x6xf32>) -> tensor<9x6xf32> {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x6xf32>, %d: tensor<9x6xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %s = tensor.extract_slice %d[2, 0] [4, 6] [1, 1] : tensor<9x6xf32> to tensor<4x6xf32>
    %again = tensor.extract_slice %d[0, 0] [4, 6] [1, 1] : tensor<9x6xf32> to tensor<4x6xf32>
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
// CHECK: kernel_store_invalid.mlir:50:8: error: 'tensor_ext.kernel' op allows 'tensor.extract_slice' only once, as the epilogue's init taken from a store's destination

// -----

func.func @init_not_slice(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %dst: tensor<9x6xf32>) -> tensor<9x6xf32> {
  %k = tensor_ext.kernel ins(%a, %b, %dst : tensor<4x8xf32>, tensor<8x6xf32>, tensor<9x6xf32>) -> tensor<9x6xf32> {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x6xf32>, %d: tensor<9x6xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x6xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %s = tensor.extract_slice %d[2, 0] [4, 6] [1, 1] : tensor<9x6xf32> to tensor<4x6xf32>
    %m = linalg.matmul ins(%ai, %bi : tensor<4x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x6xf32>) outs(%acc : tensor<4x6xf32>) {
    ^bb0(%x: f32, %out: f32):
      %t = arith.mulf %x, %x : f32
      linalg.yield %t : f32
    } -> tensor<4x6xf32>
    %r = tensor.insert_slice %g into %d[2, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<9x6xf32>
    tensor_ext.yield %r : tensor<9x6xf32>
  }
  return %k : tensor<9x6xf32>
}
// CHECK: kernel_store_invalid.mlir:73:8: error: 'tensor_ext.kernel' op expects the epilogue's init to be a slice of the store's destination (operand #2) or a tensor.empty

