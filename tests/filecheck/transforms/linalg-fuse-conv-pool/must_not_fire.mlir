// linalg-fuse-conv-pool guards: each case must be left exactly as it is, even under
// policy=depth (so the guard, not the cost rule, is what keeps it apart).
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-conv-pool{policy=depth}' | filecheck %s

// An activation between conv and pool (x*x).
func.func @square_between(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%sq, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @square_between
// CHECK-NOT: tensor_ext
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: tensor_ext
// CHECK: arith.mulf
// CHECK-NOT: tensor_ext
// CHECK: linalg.pooling_nchw_sum
// CHECK-NOT: tensor_ext
// CHECK: return

// -----

// relu between conv and pool.
func.func @relu_between(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%r, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @relu_between
// CHECK-NOT: tensor_ext
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: tensor_ext
// CHECK: arith.maximumf
// CHECK-NOT: tensor_ext
// CHECK: linalg.pooling_nchw_sum
// CHECK-NOT: tensor_ext
// CHECK: return

// -----

// A max pool is not linear.
func.func @max_pool(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %p : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @max_pool
// CHECK-NOT: tensor_ext
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: tensor_ext
// CHECK: linalg.pooling_nchw_max
// CHECK-NOT: tensor_ext
// CHECK: return

// -----

// The conv result has another user.
func.func @conv_other_user(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>) {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %p, %c : tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @conv_other_user
// CHECK-NOT: tensor_ext
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: tensor_ext
// CHECK: linalg.pooling_nchw_sum
// CHECK-NOT: tensor_ext
// CHECK: return

// -----

// Dynamic shapes.
func.func @dynamic(%x: tensor<?x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<?x2x4x4xf32>, %pi: tensor<?x2x2x2xf32>) -> tensor<?x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<?x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<?x2x4x4xf32>) -> tensor<?x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<?x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<?x2x2x2xf32>) -> tensor<?x2x2x2xf32>
  return %p : tensor<?x2x2x2xf32>
}
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: tensor_ext
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: tensor_ext
// CHECK: linalg.pooling_nchw_sum
// CHECK-NOT: tensor_ext
// CHECK: return

// -----

// The pool's output (2x3) is smaller than its VALID size (3x3): MLIR allows it, the
// fused op's shape rules do not.
func.func @pool_not_valid(%x: tensor<1x2x17x17xf32>, %w: tensor<3x2x3x3xf32>, %ci: tensor<1x3x7x7xf32>, %pi: tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32> {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x17x17xf32>, tensor<3x2x3x3xf32>) outs(%ci : tensor<1x3x7x7xf32>) -> tensor<1x3x7x7xf32>
  %win = tensor.empty() : tensor<3x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<[2, 1]> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%c, %win : tensor<1x3x7x7xf32>, tensor<3x2xf32>) outs(%pi : tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
  return %p : tensor<1x3x2x3xf32>
}
// CHECK-LABEL: func.func @pool_not_valid
// CHECK-NOT: tensor_ext
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: tensor_ext
// CHECK: linalg.pooling_nchw_sum
// CHECK-NOT: tensor_ext
// CHECK: return

// -----

// count_include_pad=False: the divisor differs per element, so conv + pool fuse but
// the divide stays a separate op (no `divisor`).
func.func @nonuniform_divisor(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %counts = arith.constant dense<[[[[4.0, 2.0], [2.0, 1.0]], [[4.0, 2.0], [2.0, 1.0]]]]> : tensor<1x2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p, %counts : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %n: f32, %o: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %a : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @nonuniform_divisor
// CHECK:     %[[F:.*]] = tensor_ext.fused_conv_pool
// CHECK-NOT: divisor
// CHECK:     linalg.generic {{.*}} ins(%[[F]], %counts
// CHECK:     arith.divf

// -----

// A divide by a value only known at run time stays a separate op.
func.func @runtime_divisor(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %a : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @runtime_divisor
// CHECK:     %[[F:.*]] = tensor_ext.fused_conv_pool
// CHECK-NOT: divisor
// CHECK:     arith.divf %{{.*}}, %s

// -----

// A square after the pool is not a scale: conv + pool fuse, the x*x stays.
func.func @square_after(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %q = arith.mulf %in, %in : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %a : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @square_after
// CHECK:     %[[F:.*]] = tensor_ext.fused_conv_pool
// CHECK-NOT: divisor
// CHECK:     arith.mulf %{{.*}}, %{{.*}} : f32

// -----

// The average's divide reads the pooled sum transposed (H and W swapped): a scale that
// moves into the fused op would drop the transpose. The divide stays a separate op.
func.func @transposed_divisor(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %four = arith.constant 4.0 : f32
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %q = arith.divf %in, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %a : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @transposed_divisor
// CHECK:     %[[F:.*]] = tensor_ext.fused_conv_pool
// CHECK-NOT: divisor
// CHECK:     linalg.generic {{.*}} ins(%[[F]] :
// CHECK:     arith.divf

// -----

// The divide writes its result transposed (output map (d0, d1, d3, d2)): not a divisor of
// the pool in place, so it stays a generic after the fused op.
func.func @divisor_writes_transposed(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf32>, %pi: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %four = arith.constant 4.0 : f32
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %q = arith.divf %in, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %a : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @divisor_writes_transposed
// CHECK:     %[[F:.*]] = tensor_ext.fused_conv_pool
// CHECK-NOT: divisor
// CHECK:     linalg.generic {{.*}} ins(%[[F]] :
// CHECK:     arith.divf

// -----

// Mixed element types the other way round: an f32 conv accumulating into f16 (not a
// form any exporter writes). The fused op takes an accumulator at least as wide as its
// input (torch-mlir's f16 conv into f32 fuses: half_precision.mlir), so the pair stays
// apart.
func.func @narrowing_accumulator(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>, %ci: tensor<1x2x4x4xf16>, %pi: tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16> {
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%ci : tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  %win = tensor.empty() : tensor<2x2xf16>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%c, %win : tensor<1x2x4x4xf16>, tensor<2x2xf16>) outs(%pi : tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16>
  return %p : tensor<1x2x2x2xf16>
}
// CHECK-LABEL: func.func @narrowing_accumulator
// CHECK-NOT: tensor_ext.fused_conv_pool
// CHECK:     %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK-NEXT: %[[W:.*]] = tensor.empty
// CHECK-NEXT: linalg.pooling_nchw_sum {{.*}}ins(%[[C]], %[[W]]
// CHECK-NEXT: return
