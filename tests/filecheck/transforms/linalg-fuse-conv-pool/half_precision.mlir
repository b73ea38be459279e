// linalg-fuse-conv-pool in half precision (issue 34): Conv2d + AvgPool2d(2) as
// torch-mlir exports a .half() model: the conv accumulates into f32 and is rounded to
// f16 by a truncf generic; the pool sums the rounded f16 values into an f16 init and
// divides in f16. The mixed-precision rule (docs/passes.md) moves the truncf past the
// pool and the divide (both linear), so conv + pool fuse as in f32: the fused op reads
// the f16 input and f16 weights and accumulates in f32, the exporter's truncf after it.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-conv-pool | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-conv-pool,lower-tensor-ext | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#v = affine_map<(d0) -> (d0)>
func.func @conv_avgpool_mixed(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x2x2xf16> {
  %zero = arith.constant 0.000000e+00 : f16
  %four = arith.constant 4.000000e+00 : f16
  %w = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[1.0]]]]> : tensor<2x2x1x1xf16>
  %b = arith.constant dense<[0.125, -0.5]> : tensor<2xf16>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %ev = tensor.empty() : tensor<2xf32>
  %bw = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%b : tensor<2xf16>) outs(%ev : tensor<2xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<2xf32>
  %init = linalg.broadcast ins(%bw : tensor<2xf32>) outs(%e32 : tensor<1x2x4x4xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  %ep = tensor.empty() : tensor<1x2x2x2xf16>
  %pi = linalg.fill ins(%zero : f16) outs(%ep : tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16>
  %win = tensor.empty() : tensor<2x2xf16>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%t, %win : tensor<1x2x4x4xf16>, tensor<2x2xf16>) outs(%pi : tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf16>) outs(%ep : tensor<1x2x2x2xf16>) {
  ^bb0(%in: f16, %out: f16):
    %0 = arith.divf %in, %four : f16
    linalg.yield %0 : f16
  } -> tensor<1x2x2x2xf16>
  return %r : tensor<1x2x2x2xf16>
}
// CHECK-LABEL: func.func @conv_avgpool_mixed
// CHECK:       %[[F:.*]] = tensor_ext.fused_conv_pool {{.*}}divisor = 4.000000e+00 : f64{{.*}} ins(%x, %{{.*}}, %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>, tensor<1x2x4x4xf32>) outs(%{{.*}} : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
// CHECK:       %[[R:.*]] = linalg.generic {{.*}} ins(%[[F]] : tensor<1x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x2x2xf16>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32, %{{.*}}: f16):
// CHECK-NEXT:    arith.truncf
// CHECK-NOT:   linalg.pooling_nchw_sum
// CHECK:       return %[[R]]
// MLIR-LABEL:  func.func @conv_avgpool_mixed
// MLIR:        linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x2x2x2xf16>) outs(%{{.*}} : tensor<1x2x2x2xf32>)
// MLIR-LABEL:  func.func @pool_init_from_argument(

// -----

// Not fused: the pool's f16 init is a function argument, not a constant fill, so it
// stays an f16 sum of the rounded values (widening it would need its own extf), and
// the conv's result reaches it only through the truncf.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pool_init_from_argument(%x: tensor<1x2x4x4xf16>, %pi: tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[0.5]], [[-0.25]]], [[[0.75]], [[1.0]]]]> : tensor<2x2x1x1xf16>
  %e32 = tensor.empty() : tensor<1x2x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %e16 = tensor.empty() : tensor<1x2x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x4x4xf32>) outs(%e16 : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x4x4xf16>
  %win = tensor.empty() : tensor<2x2xf16>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%t, %win : tensor<1x2x4x4xf16>, tensor<2x2xf16>) outs(%pi : tensor<1x2x2x2xf16>) -> tensor<1x2x2x2xf16>
  return %p : tensor<1x2x2x2xf16>
}
// CHECK-LABEL: func.func @pool_init_from_argument
// CHECK-NOT:   tensor_ext.fused_conv_pool
// CHECK:       %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK:       %[[T:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x2x4x4xf32>)
// CHECK:       linalg.pooling_nchw_sum {{.*}} ins(%[[T]], %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x2xf16>) outs(%pi : tensor<1x2x2x2xf16>)
