// lower-tensor-ext lowers a tensor_ext.kernel to standard linalg that heir-opt and iree-opt
// accept. By default (layout-ops=true) the root keeps its named form with a zero init,
// the reshape of its result is an expand_shape again, its transpose a linalg.transpose
// where IREE folds that into the root (a 1x1 unit-stride conv) and else part of the
// epilogue's read, and the root's old init (the bias) is added in the epilogue: the form
// IREE compiles best (benchmarks/bench_iree.py). layout-ops=false inlines the body as is.
// RUN: heirpy-opt %s --split-input-file -p lower-tensor-ext | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p "lower-tensor-ext{layout-ops=false}" | filecheck %s --check-prefix=INLINE
// RUN: heirpy-opt %s --split-input-file -p lower-tensor-ext | heir-opt --split-input-file | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --split-input-file -p lower-tensor-ext | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// A conv with a bias init, read by a sigmoid through reshape 6 -> 2x3 + transpose.
func.func @k(%x: tensor<1x8x4x4xf32>, %w: tensor<6x8x1x1xf32>, %b: tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  %r = tensor_ext.kernel ins(%x, %w, %b : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>, tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  ^bb0(%xi: tensor<1x8x4x4xf32>, %wi: tensor<6x8x1x1xf32>, %bi: tensor<6xf32>):
    %one = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<1x6x4x4xf32>
    %acc = linalg.broadcast ins(%bi : tensor<6xf32>) outs(%e : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
    %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) outs(%acc : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %o = tensor.empty() : tensor<1x2x4x4x3xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x4x4xf32>) outs(%o : tensor<1x2x4x4x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      %x1 = math.exp %n : f32
      %d = arith.addf %x1, %one : f32
      %q = arith.divf %one, %d : f32
      linalg.yield %q : f32
    } -> tensor<1x2x4x4x3xf32>
    tensor_ext.yield %s : tensor<1x2x4x4x3xf32>
  }
  return %r : tensor<1x2x4x4x3xf32>
}
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK-LABEL: func.func @k(
// CHECK-SAME:    %[[X:.*]]: tensor<1x8x4x4xf32>, %[[W:.*]]: tensor<6x8x1x1xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK-NOT:   tensor_ext
// CHECK-NOT:   linalg.broadcast
// CHECK:       %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1x6x4x4xf32>
// CHECK-NOT:   linalg.broadcast
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[Z]] :
// CHECK:       %[[V:.*]] = tensor.expand_shape %[[C]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 4, 4] : tensor<1x6x4x4xf32> into tensor<1x2x3x4x4xf32>
// CHECK:       %[[T:.*]] = linalg.transpose ins(%[[V]]{{.*}}) outs({{.*}}) permutation = [0, 1, 3, 4, 2]
// CHECK:       %[[B2:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK-NEXT:  %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP0]], #[[MAP1]], #[[MAP0]]]{{.*}} ins(%[[T]], %[[B2]] :
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %[[BIAS:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[IN]], %[[BIAS]] : f32
// CHECK-NEXT:    arith.negf %[[SUM]] : f32
// CHECK-NOT:   d1 * 3
// CHECK:       return %[[S]]

// INLINE-DAG: #[[MAP2:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>
// INLINE-LABEL: func.func @k(
// INLINE-SAME:    %[[X:.*]]: tensor<1x8x4x4xf32>, %[[W:.*]]: tensor<6x8x1x1xf32>, %[[B:.*]]: tensor<6xf32>)
// INLINE-NOT:   tensor_ext
// INLINE:       %[[ACC:.*]] = linalg.broadcast ins(%[[B]]
// INLINE:       %[[C:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[ACC]] :
// INLINE-NOT:   linalg.transpose
// INLINE:       %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP2]]{{.*}} ins(%[[C]] :
// INLINE:       return %[[S]]

// MLIR-LABEL: func.func @k(
// MLIR-NOT:   {{tensor_ext|linalg.generic|linalg.broadcast}}
// MLIR:       linalg.conv_2d_nchw_fchw
// MLIR-NOT:   linalg.generic
// MLIR:       tensor.expand_shape
// MLIR-NOT:   linalg.generic
// MLIR:       linalg.transpose
// MLIR:       linalg.generic
// MLIR-NOT:   {{tensor_ext|linalg.generic}}
// MLIR:       return

// -----

// An identity read: nothing to move; the bias stays in the conv's init.
// INLINE-LABEL: func.func @identity(
func.func @identity(%x: tensor<1x8x4x4xf32>, %w: tensor<6x8x1x1xf32>, %b: tensor<6xf32>) -> tensor<1x6x4x4xf32> {
  %r = tensor_ext.kernel ins(%x, %w, %b : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32> {
  ^bb0(%xi: tensor<1x8x4x4xf32>, %wi: tensor<6x8x1x1xf32>, %bi: tensor<6xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x6x4x4xf32>
    %acc = linalg.broadcast ins(%bi : tensor<6xf32>) outs(%e : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
    %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) outs(%acc : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x4x4xf32>) outs(%e : tensor<1x6x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x6x4x4xf32>
    tensor_ext.yield %s : tensor<1x6x4x4xf32>
  }
  return %r : tensor<1x6x4x4xf32>
}
// MLIR-LABEL: func.func @identity(
// CHECK-LABEL: func.func @identity(
// CHECK:       %[[ACC:.*]] = linalg.broadcast
// CHECK-NEXT:  %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%[[ACC]] :
// CHECK-NOT:   tensor.expand_shape
// CHECK-NOT:   linalg.transpose
// CHECK-NEXT:  %[[S:.*]] = linalg.generic {{.*}} ins(%[[C]] :
// CHECK-NOT:   arith.addf
// CHECK:       return %[[S]]

// -----

// A max pool does not accumulate by addition: its init stays (max(init, .) is not
// max(0, .) + init); IREE cannot fold a transpose into a pool, so the permutation stays
// in the epilogue's read and nothing changes but the inlining.
func.func @max_pool(%x: tensor<1x2x4x4xf32>, %init: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %r = tensor_ext.kernel ins(%x, %init : tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  ^bb0(%xi: tensor<1x2x4x4xf32>, %ii: tensor<1x2x2x2xf32>):
    %win = tensor.empty() : tensor<2x2xf32>
    %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xi, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%ii : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %o = tensor.empty() : tensor<1x2x2x2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%o : tensor<1x2x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<1x2x2x2xf32>
    tensor_ext.yield %s : tensor<1x2x2x2xf32>
  }
  return %r : tensor<1x2x2x2xf32>
}
// CHECK-DAG: #[[MAP3:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
// CHECK-DAG: #[[MAP4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @max_pool(
// CHECK-SAME:    %[[X:.*]]: tensor<1x2x4x4xf32>, %[[I:.*]]: tensor<1x2x2x2xf32>)
// CHECK:       %[[P:.*]] = linalg.pooling_nchw_max {{.*}} outs(%[[I]] :
// CHECK-NOT:   {{tensor.expand_shape|linalg.transpose}}
// CHECK:       %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP3]], #[[MAP4]]]{{.*}} ins(%[[P]] :
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    math.tanh %[[IN]] : f32

// -----

// A 3x3 conv: IREE's conv code generation needs it named, so no transpose is folded into
// it; the bias still moves to the epilogue, which reads the expanded conv in its map.
func.func @conv3x3(%x: tensor<1x8x6x6xf32>, %w: tensor<6x8x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  %r = tensor_ext.kernel ins(%x, %w, %b : tensor<1x8x6x6xf32>, tensor<6x8x3x3xf32>, tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  ^bb0(%xi: tensor<1x8x6x6xf32>, %wi: tensor<6x8x3x3xf32>, %bi: tensor<6xf32>):
    %e = tensor.empty() : tensor<1x6x4x4xf32>
    %acc = linalg.broadcast ins(%bi : tensor<6xf32>) outs(%e : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
    %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : tensor<1x8x6x6xf32>, tensor<6x8x3x3xf32>) outs(%acc : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %o = tensor.empty() : tensor<1x2x4x4x3xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x4x4xf32>) outs(%o : tensor<1x2x4x4x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<1x2x4x4x3xf32>
    tensor_ext.yield %s : tensor<1x2x4x4x3xf32>
  }
  return %r : tensor<1x2x4x4x3xf32>
}
// CHECK-DAG: #[[MAP5:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2, d3)>
// CHECK-DAG: #[[MAP1:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK-DAG: #[[MAP0:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv3x3(
// CHECK-SAME:    %[[X:.*]]: tensor<1x8x6x6xf32>, %[[W:.*]]: tensor<6x8x3x3xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK-NOT:   linalg.broadcast
// CHECK:       %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1x6x4x4xf32>
// CHECK-NEXT:  %[[C:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[Z]] :
// CHECK-NOT:   linalg.transpose
// CHECK:       %[[V:.*]] = tensor.expand_shape %[[C]] {{.*}} into tensor<1x2x3x4x4xf32>
// CHECK-NOT:   linalg.transpose
// CHECK:       %[[B2:.*]] = tensor.expand_shape %[[B]] {{.*}} into tensor<2x3xf32>
// CHECK-NEXT:  %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP5]], #[[MAP1]], #[[MAP0]]]{{.*}} ins(%[[V]], %[[B2]] :
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %[[BIAS:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[IN]], %[[BIAS]] : f32
// CHECK-NEXT:    math.tanh %[[SUM]] : f32

// -----

// A zero init adds nothing: no extra operand, no add; the matmul result's rows split
// 8 -> 2x4, read with the 4 innermost (IREE folds no transpose into a named matmul).
func.func @zero_init(%a: tensor<8x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x5x4xf32> {
  %r = tensor_ext.kernel ins(%a, %b : tensor<8x3xf32>, tensor<3x5xf32>) -> tensor<2x5x4xf32> {
  ^bb0(%ai: tensor<8x3xf32>, %bi: tensor<3x5xf32>):
    %z = arith.constant dense<0.0> : tensor<8x5xf32>
    %m = linalg.matmul ins(%ai, %bi : tensor<8x3xf32>, tensor<3x5xf32>) outs(%z : tensor<8x5xf32>) -> tensor<8x5xf32>
    %o = tensor.empty() : tensor<2x5x4xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 4 + d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m : tensor<8x5xf32>) outs(%o : tensor<2x5x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = arith.mulf %in, %in : f32
      linalg.yield %t : f32
    } -> tensor<2x5x4xf32>
    tensor_ext.yield %s : tensor<2x5x4xf32>
  }
  return %r : tensor<2x5x4xf32>
}
// CHECK-DAG: #[[MAP6:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[MAP7:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @zero_init(
// CHECK:       %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<8x5xf32>
// CHECK-NEXT:  %[[M:.*]] = linalg.matmul {{.*}} outs(%[[Z]] :
// CHECK-NOT:   linalg.transpose
// CHECK:       %[[V:.*]] = tensor.expand_shape %[[M]] {{\[}}[0, 1], [2]] output_shape [2, 4, 5]
// CHECK-NEXT:  %[[S:.*]] = linalg.generic {indexing_maps = [#[[MAP6]], #[[MAP7]]]{{.*}} ins(%[[V]] :
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    arith.mulf %[[IN]], %[[IN]] : f32

// -----

// A root that reads its accumulator twice (out + out * in: init * prod(1 + in), a
// product, not init + a sum) does not accumulate by addition: its init stays in the root
// and the epilogue adds nothing, though the epilogue's read is a transpose.
func.func @acc_read_twice(%x: tensor<2x3x4xf32>, %init: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %r = tensor_ext.kernel ins(%x, %init : tensor<2x3x4xf32>, tensor<2x3xf32>) -> tensor<3x2xf32> {
  ^bb0(%xi: tensor<2x3x4xf32>, %ii: tensor<2x3xf32>):
    %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xi : tensor<2x3x4xf32>) outs(%ii : tensor<2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %out, %in : f32
      %a = arith.addf %out, %m : f32
      linalg.yield %a : f32
    } -> tensor<2x3xf32>
    %o = tensor.empty() : tensor<3x2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x3xf32>) outs(%o : tensor<3x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<3x2xf32>
    tensor_ext.yield %s : tensor<3x2xf32>
  }
  return %r : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @acc_read_twice(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:  %[[P:.*]] = linalg.generic {{.*}} ins(%[[X]] : {{.*}}) outs(%[[I]] :
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[OUT]], %[[IN]] : f32
// CHECK-NEXT:    %[[A:.*]] = arith.addf %[[OUT]], %[[M]] : f32
// CHECK-NEXT:    linalg.yield %[[A]] : f32
// CHECK-NEXT:  } -> tensor<2x3xf32>
// CHECK-NEXT:  %[[O:.*]] = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT:  %[[S:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<2x3xf32>) outs(%[[O]] :
// CHECK-NEXT:  ^bb0(%[[E:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[T:.*]] = math.tanh %[[E]] : f32
// CHECK-NEXT:    linalg.yield %[[T]] : f32
// CHECK-NEXT:  } -> tensor<3x2xf32>
// CHECK-NEXT:  return %[[S]]
