// Verifier diagnostics name the op, the location and the offending operand/attribute.
// RUN: heirpy-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @conv_input_too_small(%x: tensor<1x3x16x16xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32> {
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x3x16x16xf32>, tensor<4x3x3x3xf32>) outs(%b : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  return %r : tensor<1x4x16x16xf32>
}
// CHECK: invalid.mlir:5:8: error: 'linalg.conv_2d_nchw_fchw' op inferred input/output operand #0 has shape's dimension #2 to be greater than or equal to 18, but found 16

// -----

func.func @strides_wrong_rank(%in: tensor<1x2x8x8xf32>, %win: tensor<2x2xf32>, %o: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %0 = linalg.pooling_nchw_sum {strides = dense<2> : vector<3xi64>} ins(%in, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}
// CHECK: invalid.mlir:13:8: error: 'linalg.pooling_nchw_sum' op attribute 'strides' failed to satisfy constraint: 64-bit signless int elements attribute of shape [2]

// -----

func.func @zero_dilation(%in: tensor<1x2x8xf32>, %f: tensor<4x2x3xf32>, %o: tensor<1x4x6xf32>) -> tensor<1x4x6xf32> {
  %0 = linalg.conv_1d_ncw_fcw {dilations = dense<0> : vector<1xi64>} ins(%in, %f : tensor<1x2x8xf32>, tensor<4x2x3xf32>) outs(%o : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
  return %0 : tensor<1x4x6xf32>
}
// CHECK: invalid.mlir:21:8: error: 'linalg.conv_1d_ncw_fcw' op expects positive 'dilations'

// -----

func.func @matvec_wrong_vector(%a: tensor<4x3xf32>, %x: tensor<5xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.matvec ins(%a, %x : tensor<4x3xf32>, tensor<5xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: invalid.mlir:29:8: error: 'linalg.matvec' op inferred input/output operand #1 has shape's dimension #0 to be 3, but found 5

// -----

func.func @map_shape(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {
  %0 = linalg.map { arith.addf } ins(%a, %b : tensor<4xf32>, tensor<5xf32>) outs(%a : tensor<4xf32>)
  return %0 : tensor<4xf32>
}
// CHECK: invalid.mlir:37:8: error: 'linalg.map' op expected shape of input (5) to match shape of output (4)

// -----

func.func @parse_error(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.matvec ins(%a : tensor<4xf32>) outs(%a tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: invalid.mlir:45:{{[0-9]+}}: error: {{.+}}

// -----

func.func @matmul_map_outside_default(%a: tensor<3x5xf32>, %b: tensor<5x7xf32>, %c: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, n)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<3x5xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 4]]:{{[0-9]+}}: error: 'linalg.matmul' op Unexpected dim expression in map result.

// -----

func.func @matmul_broadcast_without_k(%a: tensor<3xf32>, %b: tensor<5x7xf32>, %c: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<3xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 4]]:{{[0-9]+}}: error: 'linalg.matmul' op Invalid broadcast requested, should be (d2).

// -----

func.func @batch_matmul_bad_output_map(%a: tensor<2x3x5xf32>, %b: tensor<2x5x7xf32>, %c: tensor<2x3x7xf32>) -> tensor<2x3x7xf32> {
  %0 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<2x3x5xf32>, tensor<2x5x7xf32>) outs(%c : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>
  return %0 : tensor<2x3x7xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 4]]:{{[0-9]+}}: error: 'linalg.batch_matmul' op expects 3 dims, but got (2).

// -----

func.func @contract_without_contraction(%a: tensor<3xf32>, %b: tensor<7xf32>, %c: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %0 = linalg.contract indexing_maps = [affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>]
         ins(%a, %b : tensor<3xf32>, tensor<7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 4]]:{{[0-9]+}}: error: 'linalg.contract' op 'indexing_maps' do not specify a contracting dimension

// -----

func.func @contract_without_maps(%a: tensor<3x5xf32>, %b: tensor<5x7xf32>, %c: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %0 = linalg.contract ins(%a, %b : tensor<3x5xf32>, tensor<5x7xf32>) outs(%c : tensor<3x7xf32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: expected 'indexing_maps' attribute

// -----

func.func @unsigned_max_on_floats(%in: tensor<1x4x4x1xf32>, %w: tensor<2x2xf32>, %o: tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = linalg.pooling_nhwc_max_unsigned ins(%in, %w : tensor<1x4x4x1xf32>, tensor<2x2xf32>) outs(%o : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: unsupported operation: unsigned max not on uint

// -----

func.func @quantized_conv_without_zero_points(%i: tensor<1x4x4x1xi8>, %k: tensor<2x2x1x1xi8>, %o: tensor<1x3x3x1xi32>) -> tensor<1x3x3x1xi32> {
  %0 = linalg.conv_2d_nhwc_hwcf_q ins(%i, %k : tensor<1x4x4x1xi8>, tensor<2x2x1x1xi8>) outs(%o : tensor<1x3x3x1xi32>) -> tensor<1x3x3x1xi32>
  return %0 : tensor<1x3x3x1xi32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'linalg.conv_2d_nhwc_hwcf_q' expects 4 ins and 1 outs operand(s), got 2 and 1

// -----

func.func @transpose_not_a_permutation(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 1]
  return %0 : tensor<3x2xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'linalg.transpose' op permutation is not valid

// -----

func.func @transpose_wrong_init(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<2x3xf32>) permutation = [1, 0]
  return %0 : tensor<2x3xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'linalg.transpose' op dim(result, 0) = 2 doesn't match dim(input, permutation[0]) = 3

// -----

func.func @broadcast_dim_mismatch(%a: tensor<4xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = linalg.broadcast ins(%a : tensor<4xf32>) outs(%b : tensor<3x5xf32>) dimensions = [0]
  return %0 : tensor<3x5xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'linalg.broadcast' op input dim 0 should match init dim 1. input: 4, init: 5

// -----

func.func @reduce_wrong_init(%a: tensor<2x3xf32>, %i: tensor<3xf32>) -> tensor<3xf32> {
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<2x3xf32>) outs(%i : tensor<3xf32>) dimensions = [1]
  return %0 : tensor<3xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'linalg.reduce' op init dimensions [3] doesn't match input dimensions after reduction [2]

// -----

func.func @fill_wrong_type(%v: f64, %o: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.fill ins(%v : f64) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'linalg.fill' op expected fill value type ('f64') to match output element type ('f32')

// -----

func.func @yield_outside_linalg(%v: f32) {
  linalg.yield %v : f32
}
// CHECK: invalid.mlir:[[# @LINE - 2]]:{{[0-9]+}}: error: 'linalg.yield' op expected parent op with LinalgOp interface

// -----

func.func @yield_wrong_type(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.map ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>)
    (%x: f32, %init: f32) {
      %c = arith.constant 0 : i32
      linalg.yield %c : i32
    }
  return %0 : tensor<4xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 4]]:{{[0-9]+}}: error: 'linalg.yield' op type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')

// -----

func.func @pack_padding_of_another_type(%x: tensor<13x15xf32>, %d: tensor<2x8x8x2xf32>, %pad: i32) -> tensor<2x8x8x2xf32> {
  %0 = linalg.pack %x padding_value(%pad : i32) inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %d : tensor<13x15xf32> -> tensor<2x8x8x2xf32>
  return %0 : tensor<2x8x8x2xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'linalg.pack' op expected padding_value has 'f32' but got: 'i32'

// -----

func.func @unpack_wrong_outer_dims(%p: tensor<3x8x2xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.unpack %p inner_dims_pos = [0] inner_tiles = [2] into %d : tensor<3x8x2xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: 'linalg.unpack' op expected 'tensor<4x8x2xf32>' for the packed domain value, got 'tensor<3x8x2xf32>'

// -----

func.func @reduce_unequal_groups(%a: tensor<32xi32>, %b: tensor<32xi32>, %i: tensor<i32>) -> tensor<i32> {
  %0 = linalg.reduce ins(%a, %b : tensor<32xi32>, tensor<32xi32>) outs(%i : tensor<i32>) dimensions = [0]
    (%x: i32, %y: i32, %acc: i32) {
      %v = arith.addi %x, %acc : i32
      linalg.yield %v : i32
    }
  return %0 : tensor<i32>
}
// CHECK: invalid.mlir:[[# @LINE - 7]]:{{[0-9]+}}: error: 'linalg.reduce' op expected equal number of inputs and outputs (required by SameVariadicOperandSize), got 2 input(s) and 1 output(s)

// -----

func.func @unsigned_max_on_bools(%in: tensor<1x4x4x1xi1>, %w: tensor<2x2xi1>, %o: tensor<1x3x3x1xi1>) -> tensor<1x3x3x1xi1> {
  %0 = linalg.pooling_nhwc_max_unsigned ins(%in, %w : tensor<1x4x4x1xi1>, tensor<2x2xi1>) outs(%o : tensor<1x3x3x1xi1>) -> tensor<1x3x3x1xi1>
  return %0 : tensor<1x3x3x1xi1>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: unsupported operation: unsigned max not on uint

// -----

func.func @legacy_add_on_complex(%a: tensor<2xcomplex<f32>>, %o: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = linalg.add ins(%a, %a : tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) outs(%o : tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:3: error: expects integer or floating-point elements, got 'complex<f32>'

// -----

func.func @generic_result_type_differs_from_init(%a: tensor<2xf32>) -> tensor<3xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%a : tensor<2xf32>) {
  ^bb0(%x: f32):
    linalg.yield %x : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 6]]:8: error: 'linalg.generic' op expected type of operand #0 ('tensor<2xf32>') to match type of corresponding result ('tensor<3xf32>')

// -----

func.func @generic_missing_result(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<2xf32>) outs(%b : tensor<2xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return %b : tensor<2xf32>
}
// CHECK: invalid.mlir:[[# @LINE - 6]]:3: error: 'linalg.generic' op expected the number of tensor results (0) to be equal to the number of output tensors (1)
