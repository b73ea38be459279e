// arith.extf / arith.truncf of a constant tensor fold to the converted constant, as
// MLIR's folders make them: torch-mlir widens an f16 bias to the conv's f32
// accumulator this way (examples/yolo_head_k1_f16.mlir). And where they must not fold.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file > /dev/null

// The bias of a half conv: extf of an f16 vector, then broadcast into the f32 init.
// CHECK-LABEL: func.func @extf_bias
// CHECK-NEXT: %[[B:.*]] = arith.constant dense<[1.500000e+00, -2.000000e+00, 6.550400e+04]> : tensor<3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.broadcast ins(%[[B]] : tensor<3xf32>) outs(%[[E]] : tensor<3x2xf32>) dimensions = [1]
// CHECK-NEXT: %[[S:.*]] = arith.addf %x, %[[R]] : tensor<3x2xf32>
// CHECK-NEXT: return %[[S]]
func.func @extf_bias(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %b = arith.constant dense<[1.5, -2.0, 65504.0]> : tensor<3xf16>
  %0 = tensor.empty() : tensor<3xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : tensor<3xf16>) outs(%0 : tensor<3xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    linalg.yield %w : f32
  } -> tensor<3xf32>
  %2 = tensor.empty() : tensor<3x2xf32>
  %3 = linalg.broadcast ins(%1 : tensor<3xf32>) outs(%2 : tensor<3x2xf32>) dimensions = [1]
  %4 = arith.addf %x, %3 : tensor<3x2xf32>
  return %4 : tensor<3x2xf32>
}

// -----

// A truncf whose values f16 holds exactly folds.
// CHECK-LABEL: func.func @truncf_exact
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1.000000e+00, -2.500000e-01, 6.550400e+04]> : tensor<3xf16>
// CHECK-NEXT: return %[[C]]
func.func @truncf_exact() -> tensor<3xf16> {
  %c = arith.constant dense<[1.0, -0.25, 65504.0]> : tensor<3xf32>
  %t = arith.truncf %c : tensor<3xf32> to tensor<3xf16>
  return %t : tensor<3xf16>
}

// -----

// Must not fold: a truncf that rounds (1 + 2^-11 lies halfway between two f16 values)
// or overflows (1e5) stays an op, as MLIR's folder leaves it (it refuses a conversion
// that loses information).
// CHECK-LABEL: func.func @truncf_inexact
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1.00048828, 1.000000e+05]> : tensor<2xf32>
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[C]] : tensor<2xf32> to tensor<2xf16>
// CHECK-NEXT: return %[[T]]
func.func @truncf_inexact() -> tensor<2xf16> {
  %c = arith.constant dense<[1.00048828125, 1.0e5]> : tensor<2xf32>
  %t = arith.truncf %c : tensor<2xf32> to tensor<2xf16>
  return %t : tensor<2xf16>
}

// -----

// Must not fold: the operand is a function argument, not a constant.
// CHECK-LABEL: func.func @extf_of_argument
// CHECK-NEXT: %[[W:.*]] = arith.extf %b : tensor<3xf16> to tensor<3xf32>
// CHECK-NEXT: return %[[W]]
func.func @extf_of_argument(%b: tensor<3xf16>) -> tensor<3xf32> {
  %w = arith.extf %b : tensor<3xf16> to tensor<3xf32>
  return %w : tensor<3xf32>
}
