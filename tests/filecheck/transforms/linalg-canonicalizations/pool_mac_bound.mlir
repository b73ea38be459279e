// A standalone average pool becomes HEIR's conv with a diagonal filter (C x C x 2 x 2, C times
// the pool's work) by default; a cost rule that bounds MACs (a plaintext back end such as IREE,
// iree-prepare) keeps it a pool.
// RUN: heirpy-opt %s -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s -p 'linalg-canonicalizations{max-mac-growth=1}' | filecheck %s --check-prefix=MACS
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avgpool(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x3x8x8xf32>, tensor<2x2xf32>) outs(%z : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x3x4x4xf32>) outs(%e : tensor<1x3x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %four : f32
    linalg.yield %d : f32
  } -> tensor<1x3x4x4xf32>
  return %a : tensor<1x3x4x4xf32>
}
// CHECK-LABEL: func.func @avgpool(
// CHECK-NOT: linalg.pooling_nchw_sum
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2> : vector<2xi64>} ins(%x, %{{.*}} : tensor<1x3x8x8xf32>, tensor<3x3x2x2xf32>)
// CHECK-NOT: arith.divf
// CHECK: return
// MACS-LABEL: func.func @avgpool(
// MACS-NOT: linalg.conv_2d_nchw_fchw
// MACS: linalg.pooling_nchw_sum {{.*}}ins(%x, %{{.*}} : tensor<1x3x8x8xf32>, tensor<2x2xf32>)
// MACS: arith.divf
// MACS: return
