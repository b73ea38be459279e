// detach-contraction-transpose: a pointwise generic that reads its input through a
// permutation and whose result a matmul reads becomes linalg.transpose, then the generic
// through identity maps (attention's scaled k^T, with and without an absorbed unit
// dimension; a matmul's weight side; a second input through the identity); what stays:
// a permuted generic no contraction reads, one that is the matmul's init, one with a
// second use, a permuted generic with two permuted inputs, a broadcast read, a generic
// with a reduction loop, a constant input. Numerics: tests/unit/test_filecheck_numerics.py runs every
// chunk before/after through heirpy's evaluator.
// RUN: heirpy-opt %s --split-input-file -p detach-contraction-transpose | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p detach-contraction-transpose | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// DeiT's attention after pointwise fusion: k (a slice of qkv with a unit axis) scaled and
// transposed by one generic, collapsed, read by the batch matmul.
func.func @attention_keys(%qkv: tensor<3x1x2x5x4xf32>, %q: tensor<2x5x4xf32>) -> tensor<2x5x5xf32> {
  %k = tensor.extract_slice %qkv[1, 0, 0, 0, 0] [1, 1, 2, 5, 4] [1, 1, 1, 1, 1] : tensor<3x1x2x5x4xf32> to tensor<1x1x2x5x4xf32>
  %e = tensor.empty() : tensor<1x2x4x5xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x1x2x5x4xf32>) outs(%e : tensor<1x2x4x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x5xf32>
  %kt = tensor.collapse_shape %s [[0, 1], [2], [3]] : tensor<1x2x4x5xf32> into tensor<2x4x5xf32>
  %zero = arith.constant 0.0 : f32
  %ae = tensor.empty() : tensor<2x5x5xf32>
  %af = linalg.fill ins(%zero : f32) outs(%ae : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  %r = linalg.batch_matmul ins(%q, %kt : tensor<2x5x4xf32>, tensor<2x4x5xf32>) outs(%af : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  return %r : tensor<2x5x5xf32>
}
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @attention_keys
// CHECK:       %[[K:.*]] = tensor.extract_slice
// CHECK:       %[[K4:.*]] = tensor.collapse_shape %[[K]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x1x2x5x4xf32> into tensor<1x2x5x4xf32>
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<1x2x4x5xf32>
// CHECK-NEXT:  %[[T:.*]] = linalg.transpose ins(%[[K4]] : tensor<1x2x5x4xf32>) outs(%[[E]] : tensor<1x2x4x5xf32>) permutation = [0, 1, 3, 2]
// CHECK-NEXT:  %[[S:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[T]] : tensor<1x2x4x5xf32>)
// CHECK:         arith.mulf
// CHECK:       tensor.collapse_shape %[[S]]
// CHECK:       linalg.batch_matmul
// MLIR-LABEL:  func.func @attention_keys
// MLIR:        linalg.transpose
// MLIR-LABEL:  func.func @matmul_weight_side

// -----

// A plain 2-d permutation read as the matmul's second operand, with a second input
// through the identity: only the permuted one is transposed.
func.func @matmul_weight_side(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>, %b: tensor<4x3xf32>) -> tensor<3x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<3x4xf32>, tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.addf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %me = tensor.empty() : tensor<3x3xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = linalg.matmul ins(%y, %s : tensor<3x4xf32>, tensor<4x3xf32>) outs(%mf : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
// CHECK-LABEL: func.func @matmul_weight_side
// CHECK:       %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<3x4xf32>) outs(%{{.*}} : tensor<4x3xf32>) permutation = [1, 0]
// CHECK-NEXT:  linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}, #{{map[0-9]*}}], {{.*}} ins(%[[T]], %{{.*}} : tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK:       linalg.matmul

// -----

// Stays: no contraction reads the permuted generic (IREE fuses it as it is).
func.func @no_contraction(%x: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @no_contraction
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}]
// CHECK-NOT:   linalg.transpose
// CHECK:       return

// -----

// Stays: the permuted generic is the matmul's init (accumulator), not one of its inputs.
func.func @matmul_init(%x: tensor<3x3xf32>, %y: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %e = tensor.empty() : tensor<3x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<3x3xf32>
  %r = linalg.matmul ins(%x, %y : tensor<3x3xf32>, tensor<3x3xf32>) outs(%s : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
// CHECK-LABEL: func.func @matmul_init
// CHECK-NOT:   linalg.transpose
// CHECK:       return

// -----

// Stays: the result has a second use besides the matmul.
func.func @second_use(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> (tensor<3x3xf32>, tensor<4x3xf32>) {
  %e = tensor.empty() : tensor<4x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %me = tensor.empty() : tensor<3x3xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = linalg.matmul ins(%y, %s : tensor<3x4xf32>, tensor<4x3xf32>) outs(%mf : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r, %s : tensor<3x3xf32>, tensor<4x3xf32>
}
// CHECK-LABEL: func.func @second_use
// CHECK-NOT:   linalg.transpose
// CHECK:       return

// -----

// Stays: two inputs read through a permutation (one transpose would not do), and a
// broadcast read (not a permutation of every loop).
func.func @two_permuted_and_broadcast(%x: tensor<3x4xf32>, %z: tensor<3x4xf32>, %v: tensor<3xf32>, %y: tensor<3x4xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %e = tensor.empty() : tensor<4x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %z : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %me = tensor.empty() : tensor<3x3xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = linalg.matmul ins(%y, %s : tensor<3x4xf32>, tensor<4x3xf32>) outs(%mf : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r2 = linalg.matmul ins(%y, %b : tensor<3x4xf32>, tensor<4x3xf32>) outs(%mf : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r, %r2 : tensor<3x3xf32>, tensor<3x3xf32>
}
// CHECK-LABEL: func.func @two_permuted_and_broadcast
// CHECK-NOT:   linalg.transpose
// CHECK:       return

// -----

// Stays: a reduction (a permuted row sum read by a matmul) is not pointwise.
func.func @reduction(%x: tensor<4x3x2xf32>, %y: tensor<4x3xf32>) -> tensor<3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x3x2xf32>) outs(%f : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<3x4xf32>
  %me = tensor.empty() : tensor<3x3xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = linalg.matmul ins(%s, %y : tensor<3x4xf32>, tensor<4x3xf32>) outs(%mf : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
// CHECK-LABEL: func.func @reduction
// CHECK-NOT:   linalg.transpose
// CHECK:       return

// -----

// Stays: the permuted input is a constant (an f16 Linear's weight widened through its
// transpose is detach-constant-transpose's; IREE transposes a constant at compile time).
func.func @constant_input(%y: tensor<3x4xf32>) -> tensor<3x3xf32> {
  %w = arith.constant dense<[[0.5, -1.0, 0.25, 2.0], [1.5, 0.125, -0.75, 1.0], [0.5, 0.5, -0.5, -2.0]]> : tensor<3x4xf16>
  %e = tensor.empty() : tensor<4x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<3x4xf16>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %me = tensor.empty() : tensor<3x3xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = linalg.matmul ins(%y, %s : tensor<3x4xf32>, tensor<4x3xf32>) outs(%mf : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
// CHECK-LABEL: func.func @constant_input
// CHECK-NOT:   linalg.transpose
// CHECK:       return
