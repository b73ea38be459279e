// tensor_ext.kernel's verifier names the offending operand, op or type.
// RUN: heirpy-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @arg_type(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %r = tensor_ext.kernel ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x7xf32>):
    %e = tensor.empty() : tensor<4x6xf32>
    tensor_ext.yield %e : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}
// CHECK: kernel_invalid.mlir:5:8: error: 'tensor_ext.kernel' op expects block argument #1 to have the type of operand #1 (tensor<8x6xf32>), got tensor<8x7xf32>

// -----

func.func @no_root(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = tensor_ext.kernel ins(%a : tensor<4x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%ai: tensor<4x6xf32>):
    tensor_ext.yield %ai : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}
// CHECK: kernel_invalid.mlir:17:8: error: 'tensor_ext.kernel' op expects exactly one root op with reduction loops (conv, matmul, fused_conv_pool, ...), found 0

// -----

func.func @yield_type(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %r = tensor_ext.kernel ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x6xf32>):
    tensor_ext.yield %ai : tensor<4x8xf32>
  }
  return %r : tensor<4x6xf32>
}
// CHECK: kernel_invalid.mlir:28:8: error: 'tensor_ext.kernel' op expects 'tensor_ext.yield' to yield the result types (tensor<4x6xf32>), got (tensor<4x8xf32>)

// -----

func.func @pad_after_root(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %r = tensor_ext.kernel ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x6xf32>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x6xf32>
    %m = linalg.matmul ins(%ai, %bi : tensor<4x8xf32>, tensor<8x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %p = tensor.pad %m low[0, 0] high[0, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %z : f32
    } : tensor<4x6xf32> to tensor<4x6xf32>
    tensor_ext.yield %p : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}
// CHECK: kernel_invalid.mlir:39:8: error: 'tensor_ext.kernel' op does not allow 'tensor.pad' after the root (a kernel is prologue ops, one root with reduction loops, one all-parallel linalg.generic)

// -----

func.func @epilogue_not_reading_root(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %c: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = tensor_ext.kernel ins(%a, %b, %c : tensor<4x8xf32>, tensor<8x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32> {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x6xf32>, %ci: tensor<4x6xf32>):
    %e = tensor.empty() : tensor<4x6xf32>
    %m = linalg.matmul ins(%ai, %bi : tensor<4x8xf32>, tensor<8x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ci : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<4x6xf32>
    tensor_ext.yield %s : tensor<4x6xf32>
  }
  return %r : tensor<4x6xf32>
}
// CHECK: kernel_invalid.mlir:57:8: error: 'tensor_ext.kernel' op expects the epilogue to read the root's result (tensor<4x6xf32>)

// -----

func.func @root_result_escapes(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %r:2 = tensor_ext.kernel ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  ^bb0(%ai: tensor<4x8xf32>, %bi: tensor<8x6xf32>):
    %e = tensor.empty() : tensor<4x6xf32>
    %m = linalg.matmul ins(%ai, %bi : tensor<4x8xf32>, tensor<8x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
    ^bb0(%x: f32, %o: f32):
      linalg.yield %x : f32
    } -> tensor<4x6xf32>
    tensor_ext.yield %s, %m : tensor<4x6xf32>, tensor<4x6xf32>
  }
  return %r#0, %r#1 : tensor<4x6xf32>, tensor<4x6xf32>
}
// CHECK: kernel_invalid.mlir:74:10: error: 'tensor_ext.kernel' op expects the root's result (tensor<4x6xf32>) to be used only by the epilogue
