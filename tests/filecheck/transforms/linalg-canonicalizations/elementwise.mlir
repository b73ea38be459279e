// Elementwise linalg.generic / linalg.map -> arith/math ops on tensors (HEIR's rules),
// and where it must not fire. (HEIR also copies a generic's extra attributes onto the
// new ops: xDSL's generic parser drops such attributes, so the unit tests check that.)
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file > /dev/null

// CHECK-LABEL: func.func @divf
// CHECK-SAME: (%[[A:.*]]: tensor<1x6x14x14xf32>)
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<4.000000e+00> : tensor<1x6x14x14xf32>
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[A]], %[[C]] : tensor<1x6x14x14xf32>
// CHECK-NEXT: return %[[R]]
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @divf(%arg0: tensor<1x6x14x14xf32>) -> tensor<1x6x14x14xf32> {
  %cst_1 = arith.constant 4.000000e+00 : f32
  %3 = tensor.empty() : tensor<1x6x14x14xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x6x14x14xf32>) outs(%3 : tensor<1x6x14x14xf32>) {
  ^bb0(%in: f32, %out: f32):
    %32 = arith.divf %in, %cst_1 : f32
    linalg.yield %32 : f32
  } -> tensor<1x6x14x14xf32>
  return %0 : tensor<1x6x14x14xf32>
}

// -----

// CHECK-LABEL: func.func @yield_external_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT: return %[[C]]
#map = affine_map<(d0) -> (d0)>
func.func @yield_external_constant(%arg0: tensor<1xi64>) -> tensor<1xi64> {
  %c0_i64 = arith.constant 0 : i64
  %0 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%arg0 : tensor<1xi64>) {
  ^bb0(%out: i64):
    linalg.yield %c0_i64 : i64
  } -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

// CHECK-LABEL: func.func @yield_external_arg
// CHECK-SAME: %[[S:[a-z0-9]+]]: i64
// CHECK-NEXT: %[[R:.*]] = tensor.splat %[[S]] : tensor<3xi64>
// CHECK-NEXT: return %[[R]]
#map = affine_map<(d0) -> (d0)>
func.func @yield_external_arg(%arg0: tensor<3xi64>, %arg1: i64) -> tensor<3xi64> {
  %0 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%arg0 : tensor<3xi64>) {
  ^bb0(%out: i64):
    linalg.yield %arg1 : i64
  } -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// CHECK-LABEL: func.func @sigmoid
// CHECK-SAME: (%[[X:.*]]: tensor<2x5xf32>)
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[X]] : tensor<2x5xf32>
// CHECK-NEXT: %[[E:.*]] = math.exp %[[N]] : tensor<2x5xf32>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<2x5xf32>
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[E]], %[[ONE]] : tensor<2x5xf32>
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[ONE]], %[[D]] : tensor<2x5xf32>
// CHECK-NEXT: return %[[R]]
// The YOLO sigmoid: several ops, a constant defined in the body.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @sigmoid(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %e = tensor.empty() : tensor<2x5xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x5xf32>) outs(%e : tensor<2x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %in : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func.func @reads_output
// CHECK: linalg.generic
// Must not fire: the body reads the output element (an accumulation).
#map = affine_map<(d0) -> (d0)>
func.func @reads_output(%x: tensor<4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @reduction
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// Must not fire: a reduction.
func.func @reduction(%arg0: tensor<3x16xf32>) -> tensor<3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %cst = linalg.fill ins(%z : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<3x16xf32>) outs(%cst : tensor<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.addf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A compare and a select are elementwise too: tensor arith with an i1 tensor condition,
// as HEIR makes it.
// CHECK-LABEL: func.func @relu
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[C:.*]] = arith.cmpf ugt, %[[X]], %[[Z]] : tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = arith.select %[[C]], %[[X]], %[[Z]] : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: return %[[S]]
#map = affine_map<(d0) -> (d0)>
func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.cmpf ugt, %in, %z : f32
    %s = arith.select %c, %in, %z : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @uses_index
// CHECK: linalg.generic
// CHECK: linalg.index
// Must not fire: linalg.index is not elementwise.
#map = affine_map<(d0) -> (d0)>
func.func @uses_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %in, %f : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @map_mulf
// CHECK-SAME: (%[[A:.*]]: tensor<1x512xf32>)
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<1x512xf32>
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[A]], %[[C]] : tensor<1x512xf32>
// CHECK-NEXT: return %[[R]]
func.func @map_mulf(%arg0: tensor<1x512xf32>) -> tensor<1x512xf32> {
  %cst = arith.constant dense<2.000000e+00> : tensor<1x512xf32>
  %0 = arith.constant dense<5.000000e+00> : tensor<1x512xf32>
  %mapped = linalg.map { arith.mulf } ins(%cst, %arg0 : tensor<1x512xf32>, tensor<1x512xf32>) outs(%0 : tensor<1x512xf32>)
  return %mapped : tensor<1x512xf32>
}

// -----

// CHECK-LABEL: func.func @map_unary
// CHECK-NEXT: %[[R:.*]] = math.absf %{{.*}} : tensor<1xf32>
// CHECK-NEXT: return %[[R]]
func.func @map_unary(%arg0: tensor<1xf32>) -> tensor<1xf32> {
  %0 = tensor.empty() : tensor<1xf32>
  %mapped = linalg.map { math.absf } ins(%arg0 : tensor<1xf32>) outs(%0 : tensor<1xf32>)
  return %mapped : tensor<1xf32>
}

// -----

// CHECK-LABEL: func.func @map_out_param
// CHECK-NEXT: %[[R:.*]] = math.absf %{{.*}} : tensor<?xf32>
// CHECK-NEXT: return %[[R]]
func.func @map_out_param(%arg : tensor<?xf32>, %init : tensor<?xf32>) -> tensor<?xf32> attributes {fusion} {
  %0 = linalg.map { math.absf } ins(%arg : tensor<?xf32>) outs(%init : tensor<?xf32>)
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @map_multiple_dest
// CHECK-SAME: (%[[A0:.*]]: tensor<512xf32>, %[[A1:.*]]: tensor<512xf32>)
// CHECK: %[[M:.*]] = arith.mulf %[[A0]], %{{.*}} : tensor<512xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A1]], %[[M]] : tensor<512xf32>
// CHECK-NEXT: return %[[S]]
func.func @map_multiple_dest(%arg0: tensor<512xf32>, %arg1: tensor<512xf32>) -> tensor<512xf32> {
  %cst_0 = arith.constant dense<2.000000e+00> : tensor<512xf32>
  %1 = tensor.empty() : tensor<512xf32>
  %mapped = linalg.map { arith.mulf } ins(%cst_0, %arg0 : tensor<512xf32>, tensor<512xf32>) outs(%1 : tensor<512xf32>)
  %mapped_3 = linalg.map { arith.addf } ins(%arg1, %mapped : tensor<512xf32>, tensor<512xf32>) outs(%1 : tensor<512xf32>)
  return %mapped_3 : tensor<512xf32>
}

// -----

// CHECK-LABEL: func.func @map_swapped
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.*]] = arith.subf %[[B]], %[[A]] : tensor<4xf32>
// The body swaps its arguments: operands follow the block arguments.
func.func @map_swapped(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %m = linalg.map ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %s = arith.subf %y, %x : f32
      linalg.yield %s : f32
    }
  return %m : tensor<4xf32>
}
