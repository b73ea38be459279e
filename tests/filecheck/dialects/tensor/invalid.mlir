// MLIR's tensor verifiers: each bad op is one located line with MLIR's message.
// RUN: heirpy-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @extract_index_count(%t: tensor<4x4xf32>, %i: index) -> f32 {
  %0 = tensor.extract %t[%i] : tensor<4x4xf32>
  return %0 : f32
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.extract' op incorrect number of indices for extract_element

// -----

func.func @insert_index_count(%t: tensor<4xf32>, %i: index, %v: f32) -> tensor<4xf32> {
  %0 = tensor.insert %v into %t[%i, %i] : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.insert' op incorrect number of indices

// -----

func.func @from_elements_count(%a: f32) -> tensor<3xf32> {
  %0 = tensor.from_elements %a, %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.from_elements' op number of operands and types do not match: got 2 operands and 3 types

// -----

func.func @empty_dynamic_count(%n: index) -> tensor<?x?xf32> {
  %0 = tensor.empty(%n) : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.empty' op incorrect number of dynamic sizes, has 1, expected 2

// -----

func.func @slice_result_size(%t: tensor<8x8xf32>) -> tensor<3x4xf32> {
  %0 = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<8x8xf32> to tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.extract_slice' op expected type to be 'tensor<4x4xf32>' or a rank-reduced version. (size mismatch)

// -----

func.func @slice_rank_reduced_ok_then_out_of_bounds(%t: tensor<8x8xf32>) -> tensor<5xf32> {
  %0 = tensor.extract_slice %t[6, 0] [1, 5] [1, 2] : tensor<8x8xf32> to tensor<5xf32>
  return %0 : tensor<5xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.extract_slice' op slice along dimension 1 runs out-of-bounds: 8 >= 8

// -----

func.func @insert_slice_element_type(%s: tensor<2xi32>, %t: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tensor.insert_slice %s into %t[0] [2] [1] : tensor<2xi32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.insert_slice' op expected element type to be 'f32'

// -----

func.func @slice_offset_count(%t: tensor<8x8xf32>) -> tensor<2x2xf32> {
  %0 = tensor.extract_slice %t[0] [2, 2] [1, 1] : tensor<8x8xf32> to tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.extract_slice' op expected mixed offsets rank to match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed.

// -----

func.func @collapse_static_size(%t: tensor<2x3x4xf32>) -> tensor<6x5xf32> {
  %0 = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.collapse_shape' op expected dimension 1 of collapsed type to be static value of 4

// -----

func.func @pad_block_argument(%t: tensor<4xf32>, %v: f32) -> tensor<6xf32> {
  %0 = tensor.pad %t low[1] high[1] {
  ^bb0(%i: i32):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %0 : tensor<6xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 6]]:{{[0-9]+}}: error: 'tensor.pad' op expected block argument 1 to be an index

// -----

func.func @pad_yield_type(%t: tensor<4xf32>, %v: f64) -> tensor<6xf32> {
  %0 = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f64
  } : tensor<4xf32> to tensor<6xf32>
  return %0 : tensor<6xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 6]]:{{[0-9]+}}: error: 'tensor.pad' op expected yield type to match shape element type

// -----

func.func @pad_static_mismatch(%t: tensor<4xf32>, %v: f32) -> tensor<7xf32> {
  %0 = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<7xf32>
  return %0 : tensor<7xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 6]]:{{[0-9]+}}: error: 'tensor.pad' op specified type 'tensor<7xf32>' does not match the inferred type 'tensor<6xf32>'

// -----

func.func @gather_result(%src: tensor<5x6xf32>, %idx: tensor<3x1xindex>) -> tensor<3x5xf32> {
  %0 = tensor.gather %src[%idx] gather_dims([0]) : (tensor<5x6xf32>, tensor<3x1xindex>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.gather' op result type mismatch: expected 'tensor<3x1x6xf32>' or its rank-reduced variant 'tensor<3x6xf32>' (got: 'tensor<3x5xf32>')

// -----

func.func @generate_yield(%n: index) -> tensor<?xf32> {
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    tensor.yield %i : index
  } : tensor<?xf32>
  return %0 : tensor<?xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 6]]:{{[0-9]+}}: error: 'tensor.generate' op body must be terminated with a `yield` operation of the tensor element type

// -----

func.func @slice_rank(%t: tensor<8x8xf32>) -> tensor<2xf32> {
  %0 = tensor.extract_slice %t[0] [2] [1] : tensor<8x8xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'tensor.extract_slice' op expected 2 offset values, got 1
