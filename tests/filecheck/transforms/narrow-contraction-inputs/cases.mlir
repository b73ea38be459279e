// narrow-contraction-inputs: a contraction whose f32 inputs are widened narrow values
// reads the narrow values (f16 and bf16; an extf generic, an arith.extf, a generic
// yielding extf, an f32 constant exact in f16, through reshapes; matmul, batch_matmul,
// conv); what stays: a constant f16 does not hold exactly, an input computed in f32, two
// constants, a widening generic with another reader, two narrow types, an f32 model.
// Numerics: tests/unit/test_filecheck_numerics.py runs every chunk before/after through
// heirpy's evaluator (the narrow values widen exactly, so the results are equal).
// RUN: heirpy-opt %s --split-input-file -p narrow-contraction-inputs | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p narrow-contraction-inputs | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// ViT-tiny f16's classifier after iree-prepare's fusion: the class token's extf before a
// collapse, and the weight folded to an f32 constant whose values are f16 values.
func.func @classifier_f16(%t: tensor<1x1x4xf16>) -> tensor<1x3xf32> {
  %e = tensor.empty() : tensor<1x1x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<1x1x4xf16>) outs(%e : tensor<1x1x4xf32>) {
  ^bb0(%a: f16, %o: f32):
    %y = arith.extf %a : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x1x4xf32>
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x1x4xf32> into tensor<1x4xf32>
  %w = arith.constant dense<[[0.5, -0.25, 0.125], [1.0, 0.75, -1.5], [0.0625, 2.0, -0.5], [0.25, -0.125, 1.25]]> : tensor<4x3xf32>
  %z = arith.constant dense<0.0> : tensor<1x3xf32>
  %r = linalg.matmul ins(%c, %w : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
// CHECK-LABEL: func.func @classifier_f16
// CHECK-NOT:   arith.extf
// CHECK:       %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1x3xf32>
// CHECK-NEXT:  %[[C:.*]] = tensor.collapse_shape %t {{\[\[}}0, 1], [2]] : tensor<1x1x4xf16> into tensor<1x4xf16>
// CHECK-NEXT:  %[[W:.*]] = arith.constant dense<{{\[\[}}5.000000e-01, -2.500000e-01, 1.250000e-01], {{.*}}> : tensor<4x3xf16>
// CHECK-NEXT:  %[[R:.*]] = linalg.matmul ins(%[[C]], %[[W]] : tensor<1x4xf16>, tensor<4x3xf16>) outs(%[[Z]] : tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:  return %[[R]]
// MLIR-LABEL:  func.func @classifier_f16
// MLIR:        linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x4xf16>, tensor<4x3xf16>) outs(%{{.*}} : tensor<1x3xf32>)
// MLIR-LABEL:  func.func @relu_yields_extf(

// -----

// GhostNet f16's head: a ReLU whose generic yields extf(relu) (pointwise fusion merged
// torch-mlir's extf into it), and the weight as an extf generic of an f16 constant.
func.func @relu_yields_extf(%h: tensor<1x4xf16>) -> tensor<1x3xf32> {
  %e = tensor.empty() : tensor<1x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<1x4xf16>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%a: f16, %o: f32):
    %zero = arith.constant 0.0 : f16
    %m = arith.maximumf %a, %zero : f16
    %y = arith.extf %m : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x4xf32>
  %w16 = arith.constant dense<[[0.5, -0.25, 0.125], [1.0, 0.75, -1.5], [0.0625, 2.0, -0.5], [0.25, -0.125, 1.25]]> : tensor<4x3xf16>
  %ew = tensor.empty() : tensor<4x3xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w16 : tensor<4x3xf16>) outs(%ew : tensor<4x3xf32>) {
  ^bb0(%a: f16, %o: f32):
    %y = arith.extf %a : f16 to f32
    linalg.yield %y : f32
  } -> tensor<4x3xf32>
  %z = arith.constant dense<0.0> : tensor<1x3xf32>
  %r = linalg.matmul ins(%x, %w : tensor<1x4xf32>, tensor<4x3xf32>) outs(%z : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
// CHECK-LABEL: func.func @relu_yields_extf
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<1x4xf16>
// CHECK-NEXT:  %[[X:.*]] = linalg.generic {{.*}} ins(%h : tensor<1x4xf16>) outs(%[[E]] : tensor<1x4xf16>)
// CHECK-NEXT:  ^bb0(%[[A:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:    %[[M:.*]] = arith.maximumf %[[A]], %[[ZERO]] : f16
// CHECK-NEXT:    linalg.yield %[[M]] : f16
// CHECK-NEXT:  } -> tensor<1x4xf16>
// CHECK-NOT:   arith.extf
// CHECK:       linalg.matmul ins(%[[X]], %w16 : tensor<1x4xf16>, tensor<4x3xf16>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NEXT:  return

// -----

// bf16 batch_matmul, both inputs arith.extf on tensors.
func.func @batch_bf16(%a: tensor<2x3x4xbf16>, %b: tensor<2x4x5xbf16>) -> tensor<2x3x5xf32> {
  %x = arith.extf %a : tensor<2x3x4xbf16> to tensor<2x3x4xf32>
  %y = arith.extf %b : tensor<2x4x5xbf16> to tensor<2x4x5xf32>
  %z = arith.constant dense<0.0> : tensor<2x3x5xf32>
  %r = linalg.batch_matmul ins(%x, %y : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%z : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}
// CHECK-LABEL: func.func @batch_bf16
// CHECK:       linalg.batch_matmul ins(%a, %b : tensor<2x3x4xbf16>, tensor<2x4x5xbf16>) outs(%{{.*}} : tensor<2x3x5xf32>)

// -----

// A conv: an extf'd f16 input and an exact f32 filter; the accumulator stays f32.
func.func @conv_f16(%x16: tensor<1x2x3x3xf16>) -> tensor<1x1x2x2xf32> {
  %x = arith.extf %x16 : tensor<1x2x3x3xf16> to tensor<1x2x3x3xf32>
  %w = arith.constant dense<[[[[0.5, -1.0], [0.25, 2.0]], [[1.5, 0.125], [-0.75, 1.0]]]]> : tensor<1x2x2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x1x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<1x2x2x2xf32>) outs(%z : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %r : tensor<1x1x2x2xf32>
}
// CHECK-LABEL: func.func @conv_f16
// CHECK:       %[[W:.*]] = arith.constant {{.*}} : tensor<1x2x2x2xf16>
// CHECK-NEXT:  linalg.conv_2d_nchw_fchw {{.*}} ins(%x16, %[[W]] : tensor<1x2x3x3xf16>, tensor<1x2x2x2xf16>) outs(%{{.*}} : tensor<1x1x2x2xf32>)

// -----

// Negative: 0.1 is not an f16 value; narrowing the weight would round it.
func.func @inexact_weight(%t: tensor<1x2xf16>) -> tensor<1x2xf32> {
  %x = arith.extf %t : tensor<1x2xf16> to tensor<1x2xf32>
  %w = arith.constant dense<[[0.1, 0.5], [0.25, 1.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %r = linalg.matmul ins(%x, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @inexact_weight
// CHECK:       linalg.matmul ins(%{{.*}}, %w : tensor<1x2xf32>, tensor<2x2xf32>)

// -----

// Negative: the input is computed in f32 (a widened pool), no narrow value behind it.
func.func @computed_f32(%p: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[0.5, 0.5], [0.25, 1.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %r = linalg.matmul ins(%p, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @computed_f32
// CHECK:       linalg.matmul ins(%p, %w : tensor<1x2xf32>, tensor<2x2xf32>)

// -----

// Negative: two constants (the folder's business, not a run-time contraction).
func.func @two_constants() -> tensor<1x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %w = arith.constant dense<[[0.5, 0.5], [0.25, 1.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %r = linalg.matmul ins(%a, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @two_constants
// CHECK:       linalg.matmul ins(%a, %w : tensor<1x2xf32>, tensor<2x2xf32>)

// -----

// Negative: the widening generic has another reader (the f32 result is returned too):
// rebuilding it narrow would change what that reader gets.
func.func @shared_widening(%h: tensor<1x2xf16>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %e = tensor.empty() : tensor<1x2xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<1x2xf16>) outs(%e : tensor<1x2xf32>) {
  ^bb0(%a: f16, %o: f32):
    %n = arith.negf %a : f16
    %y = arith.extf %n : f16 to f32
    linalg.yield %y : f32
  } -> tensor<1x2xf32>
  %w = arith.constant dense<[[0.5, 0.5], [0.25, 1.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %r = linalg.matmul ins(%x, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r, %x : tensor<1x2xf32>, tensor<1x2xf32>
}
// CHECK-LABEL: func.func @shared_widening
// CHECK:       arith.extf
// CHECK:       linalg.matmul ins(%x, %w : tensor<1x2xf32>, tensor<2x2xf32>)

// -----

// Negative: an f16 input and a bf16 input: no one narrow type (no mixed named op).
func.func @two_narrow_types(%a: tensor<1x2xf16>, %b: tensor<2x2xbf16>) -> tensor<1x2xf32> {
  %x = arith.extf %a : tensor<1x2xf16> to tensor<1x2xf32>
  %y = arith.extf %b : tensor<2x2xbf16> to tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %r = linalg.matmul ins(%x, %y : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @two_narrow_types
// CHECK:       linalg.matmul ins(%x, %y : tensor<1x2xf32>, tensor<2x2xf32>)

// -----

// Negative: an f32 model: nothing is widened from a narrower type.
func.func @f32_model(%a: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[0.5, 0.5], [0.25, 1.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<0.0> : tensor<1x2xf32>
  %r = linalg.matmul ins(%a, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @f32_model
// CHECK:       linalg.matmul ins(%a, %w : tensor<1x2xf32>, tensor<2x2xf32>)
