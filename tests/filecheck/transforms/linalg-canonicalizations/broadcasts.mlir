// Broadcasts: unit-dim broadcasts become expand_shape; broadcasts and transposes hidden
// in elementwise generics' maps become explicit ops (as HEIR and MLIR do).
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file > /dev/null

// A broadcast adding a unit dim is an expand_shape; collapsing it back is the input.
// CHECK-LABEL: func.func @expand_then_collapse
// CHECK-SAME: (%[[A:.*]]: tensor<512xf32>)
// CHECK-NEXT: return %[[A]]
func.func @expand_then_collapse(%arg1 : tensor<512xf32>) -> (tensor<512xf32>) {
  %2 = tensor.empty() : tensor<1x512xf32>
  %broadcasted = linalg.broadcast ins(%arg1 : tensor<512xf32>) outs(%2 : tensor<1x512xf32>) dimensions = [0]
  %collapsed_1 = tensor.collapse_shape %broadcasted [[0, 1]] : tensor<1x512xf32> into tensor<512xf32>
  return %collapsed_1 : tensor<512xf32>
}

// -----

// Must not fire: the added dim is not a unit dim.
// CHECK-LABEL: func.func @no_match
// CHECK: linalg.broadcast
// CHECK: tensor.collapse_shape
func.func @no_match(%arg1 : tensor<512xf32>) -> (tensor<1024xf32>) {
  %2 = tensor.empty() : tensor<512x2xf32>
  %broadcasted = linalg.broadcast ins(%arg1 : tensor<512xf32>) outs(%2 : tensor<512x2xf32>) dimensions = [1]
  %collapsed_1 = tensor.collapse_shape %broadcasted [[0, 1]] : tensor<512x2xf32> into tensor<1024xf32>
  return %collapsed_1 : tensor<1024xf32>
}

// -----

// CHECK-LABEL: func.func @unit_dims
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [1, 2, 3, 1] : tensor<2x3xf32> into tensor<1x2x3x1xf32>
// CHECK-NEXT: return %[[R]]
func.func @unit_dims(%arg1 : tensor<2x3xf32>) -> (tensor<1x2x3x1xf32>) {
  %2 = tensor.empty() : tensor<1x2x3x1xf32>
  %broadcasted = linalg.broadcast ins(%arg1 : tensor<2x3xf32>) outs(%2 : tensor<1x2x3x1xf32>) dimensions = [0, 3]
  return %broadcasted : tensor<1x2x3x1xf32>
}

// -----

// Must not fire: dynamic shapes are left alone.
// CHECK-LABEL: func.func @dynamic_broadcast
// CHECK: linalg.broadcast
func.func @dynamic_broadcast(%arg1 : tensor<?xf32>, %init : tensor<1x?xf32>) -> (tensor<1x?xf32>) {
  %broadcasted = linalg.broadcast ins(%arg1 : tensor<?xf32>) outs(%init : tensor<1x?xf32>) dimensions = [0]
  return %broadcasted : tensor<1x?xf32>
}

// -----

// Broadcasting maps of a multi-input generic become explicit broadcasts (HEIR).
// CHECK-LABEL: func.func @basic_broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3x16xf32>)
// CHECK: %[[BC:.*]] = linalg.broadcast ins(%[[A]] : tensor<3xf32>) outs(%{{.*}} : tensor<3x16xf32>) dimensions = [1]
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[BC]], %[[B]] : tensor<3x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @basic_broadcast(%arg0: tensor<3xf32>, %arg1: tensor<3x16xf32>) -> tensor<3x16xf32> {
  %cst = tensor.empty() : tensor<3x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<3xf32>, tensor<3x16xf32>) outs(%cst : tensor<3x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.addf %in, %in_0 : f32
    linalg.yield %1 : f32
  } -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

// CHECK-LABEL: func.func @multiple_broadcast
// CHECK: %[[B0:.*]] = linalg.broadcast ins(%{{.*}} : tensor<3xf32>) {{.*}} dimensions = [1]
// CHECK: %[[B1:.*]] = linalg.broadcast ins(%{{.*}} : tensor<16xf32>) {{.*}} dimensions = [0]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[B0]], %[[B1]] : tensor<3x16xf32>
// CHECK-NEXT: arith.addf %[[S]], %{{.*}} : tensor<3x16xf32>
func.func @multiple_broadcast(%arg0: tensor<3xf32>, %arg1: tensor<16xf32>, %arg2: tensor<3x16xf32>) -> tensor<3x16xf32> {
  %cst = tensor.empty() : tensor<3x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1, %arg2 : tensor<3xf32>, tensor<16xf32>, tensor<3x16xf32>) outs(%cst : tensor<3x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %in_1: f32, %out: f32):
    %1 = arith.addf %in, %in_0 : f32
    %2 = arith.addf %1, %in_1 : f32
    linalg.yield %2 : f32
  } -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

// Batch-norm style: the (d1, 0) operand is collapsed to 1-D, then broadcast.
// CHECK-LABEL: func.func @batchnorm1d
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x16xf32>, %[[M:.*]]: tensor<3x1xf32>)
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[M]] {{\[}}[0, 1]] : tensor<3x1xf32> into tensor<3xf32>
// CHECK: %[[B:.*]] = linalg.broadcast ins(%[[C]] : tensor<3xf32>) outs(%{{.*}} : tensor<1x3x16xf32>) dimensions = [0, 2]
// CHECK-NEXT: %[[R:.*]] = arith.subf %[[X]], %[[B]] : tensor<1x3x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @batchnorm1d(%arg0: tensor<1x3x16xf32>, %arg1: tensor<3x1xf32>) -> tensor<1x3x16xf32> {
  %empty = tensor.empty() : tensor<1x3x16xf32>
  %result = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : tensor<1x3x16xf32>, tensor<3x1xf32>) outs(%empty : tensor<1x3x16xf32>) {
  ^bb0(%in: f32, %in_elt: f32, %out: f32):
    %sub = arith.subf %in, %in_elt : f32
    linalg.yield %sub : f32
  } -> tensor<1x3x16xf32>
  return %result : tensor<1x3x16xf32>
}

// -----

// The broadcast is materialised, then the body is tensor arith, the cast included, as
// HEIR emits it.
// CHECK-LABEL: func.func @broadcast_type_mismatch
// CHECK-SAME: (%[[A:.*]]: tensor<3xi32>, %[[Y:.*]]: tensor<3x16xf32>)
// CHECK: %[[B:.*]] = linalg.broadcast ins(%[[A]] : tensor<3xi32>) outs(%{{.*}} : tensor<3x16xi32>) dimensions = [1]
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[B]] : tensor<3x16xi32> to tensor<3x16xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[F]], %[[Y]] : tensor<3x16xf32>
// CHECK-NEXT: return %[[S]]
func.func @broadcast_type_mismatch(%arg0: tensor<3xi32>, %arg1: tensor<3x16xf32>) -> tensor<3x16xf32> {
  %cst = tensor.empty() : tensor<3x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<3xi32>, tensor<3x16xf32>) outs(%cst : tensor<3x16xf32>) {
  ^bb0(%in: i32, %in_0: f32, %out: f32):
    %1 = arith.sitofp %in : i32 to f32
    %2 = arith.addf %1, %in_0 : f32
    linalg.yield %2 : f32
  } -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

// Must not fire: a single-input broadcast generic is already minimal.
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @single_input_no_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]]]
func.func @single_input_no_broadcast(%arg0: tensor<3xf32>) -> tensor<3x16xf32> {
  %cst = tensor.empty() : tensor<3x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3xf32>) outs(%cst : tensor<3x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

// A transposing map becomes a linalg.transpose (MLIR's DecomposeProjectedPermutation).
// CHECK-LABEL: func.func @transpose_non_unit
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<3x2x4xf32>)
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[B]] : tensor<3x2x4xf32>) outs(%{{.*}} : tensor<2x3x4xf32>) permutation = [1, 0, 2]
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[A]], %[[T]] : tensor<2x3x4xf32>
func.func @transpose_non_unit(%arg0: tensor<2x3x4xf32>, %arg1: tensor<3x2x4xf32>) -> tensor<2x3x4xf32> {
  %out = tensor.empty() : tensor<2x3x4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x3x4xf32>, tensor<3x2x4xf32>) outs(%out : tensor<2x3x4xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out_val: f32):
    %add = arith.addf %in0, %in1 : f32
    linalg.yield %add : f32
  } -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Transpose first, then broadcast.
// CHECK-LABEL: func.func @transpose_and_broadcast
// CHECK: %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<4x2xf32>) outs(%{{.*}} : tensor<2x4xf32>) permutation = [1, 0]
// CHECK: %[[B:.*]] = linalg.broadcast ins(%[[T]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x3x4xf32>) dimensions = [1]
// CHECK-NEXT: arith.mulf %[[B]], %{{.*}} : tensor<2x3x4xf32>
func.func @transpose_and_broadcast(%x: tensor<4x2xf32>, %y: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %out = tensor.empty() : tensor<2x3x4xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %y : tensor<4x2xf32>, tensor<2x3x4xf32>) outs(%out : tensor<2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Must not fire: dynamic shapes.
// CHECK-LABEL: func.func @dynamic_transpose
// CHECK-NOT: linalg.transpose
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-NOT: linalg.transpose
// CHECK: return %[[R]]
func.func @dynamic_transpose(%arg0: tensor<?x3xf32>, %arg1: tensor<3x?xf32>, %o: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<?x3xf32>, tensor<3x?xf32>) outs(%o : tensor<?x3xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out_val: f32):
    %add = arith.addf %in0, %in1 : f32
    linalg.yield %add : f32
  } -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Batch-norm with constant statistics: the mean is a constant, so it keeps its
// broadcasting map; unfolded it would become a 1x3x16 constant (16 times its content).
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[MAP3:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @batchnorm_constant_mean
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x16xf32>)
// CHECK-NEXT: %[[M:.*]] = arith.constant dense<{{\[}}[1.000000e+00], [2.000000e+00], [3.000000e+00]]> : tensor<3x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<1x3x16xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP2]], #[[MAP3]], #[[MAP2]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[M]] : tensor<1x3x16xf32>, tensor<3x1xf32>)
// CHECK:        arith.subf
// CHECK:      return %[[R]]
func.func @batchnorm_constant_mean(%arg0: tensor<1x3x16xf32>) -> tensor<1x3x16xf32> {
  %mean = arith.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %empty = tensor.empty() : tensor<1x3x16xf32>
  %result = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %mean : tensor<1x3x16xf32>, tensor<3x1xf32>) outs(%empty : tensor<1x3x16xf32>) {
  ^bb0(%in: f32, %in_elt: f32, %out: f32):
    %sub = arith.subf %in, %in_elt : f32
    linalg.yield %sub : f32
  } -> tensor<1x3x16xf32>
  return %result : tensor<1x3x16xf32>
}

// -----

// A constant computed from constants (torch-mlir's 1/sqrt(var + eps)) counts as a
// constant too; the activation's broadcast (an argument) is still unfolded.
// CHECK-DAG: #[[MAP2:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[MAP4:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @computed_scale_and_argument_bias
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x16xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK:      %[[S:.*]] = arith.divf %{{.*}}, %{{.*}} : tensor<3xf32>
// CHECK:      %[[BB:.*]] = linalg.broadcast ins(%[[B]] : tensor<3xf32>) outs(%{{.*}} : tensor<1x3x16xf32>) dimensions = [0, 2]
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [#[[MAP2]], #[[MAP4]], #[[MAP2]], #[[MAP2]]], {{.*}} ins(%[[X]], %[[S]], %[[BB]] : tensor<1x3x16xf32>, tensor<3xf32>, tensor<1x3x16xf32>)
// CHECK:      return %[[R]]
func.func @computed_scale_and_argument_bias(%arg0: tensor<1x3x16xf32>, %bias: tensor<3xf32>) -> tensor<1x3x16xf32> {
  %one = arith.constant 1.0 : f32
  %var = arith.constant dense<[1.0, 4.0, 9.0]> : tensor<3xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %inv = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%var : tensor<3xf32>) outs(%e3 : tensor<3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.sqrt %v : f32
    %q = arith.divf %one, %r : f32
    linalg.yield %q : f32
  } -> tensor<3xf32>
  %empty = tensor.empty() : tensor<1x3x16xf32>
  %result = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %inv, %bias : tensor<1x3x16xf32>, tensor<3xf32>, tensor<3xf32>) outs(%empty : tensor<1x3x16xf32>) {
  ^bb0(%in: f32, %s: f32, %b: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    %a = arith.addf %m, %b : f32
    linalg.yield %a : f32
  } -> tensor<1x3x16xf32>
  return %result : tensor<1x3x16xf32>
}

// -----

// A constant read through a transposing map with no broadcast is unfolded: the
// transpose folds into a constant of the same size.
// CHECK-LABEL: func.func @transpose_constant_operand
// CHECK-NEXT: %[[T:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: arith.addf %{{.*}}, %[[T]] : tensor<2x2xf32>
func.func @transpose_constant_operand(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %out = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %c : tensor<2x2xf32>, tensor<2x2xf32>) outs(%out : tensor<2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
