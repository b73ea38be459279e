// The YOLOv5s heads after the main pipeline and lower-tensor-ext, in the form IREE
// compiles to the fewest, fastest dispatches (1x1 head: one dispatch; see
// tests/unit/test_iree_dispatches.py and benchmarks/bench_iree.py): the named conv with a
// zero init, then the expand_shape of its result and nothing else between them, then
// (1x1 conv) a linalg.transpose IREE folds into the conv and ONE identity-mapped generic,
// or (3x3 conv) ONE generic reading the expanded conv through the permutation; the
// generic adds the [3x85] bias and applies the sigmoid. No mixed-radix map
// (d1 * 85 + d4) and no bias broadcast are left.
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext | filecheck %s --check-prefixes=CHECK,K1
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext | filecheck %s --check-prefixes=CHECK,K3

// The maps, all of them (none mixed-radix), as MLIR's aliases ahead of the module:
// K1:          #[[ID:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// K1-NEXT:     #[[BIAS:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// K3:          #[[PERM:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2, d3)>
// K3-NEXT:     #[[BIAS:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// K3-NEXT:     #[[ID:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-NEXT:  module {
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<1x128x80x80xf32>) -> tensor<1x3x80x80x85xf32>
// CHECK-DAG:   %[[W:.*]] = arith.constant dense_resource<torch_tensor_255_128_{{[13]}}_{{[13]}}_torch.float32>
// CHECK-DAG:   %[[B:.*]] = arith.constant dense_resource<torch_tensor_255_torch.float32> : tensor<255xf32>
// CHECK-NOT:   linalg.broadcast
// K3:          %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:       %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1x255x80x80xf32>
// CHECK-NOT:   linalg.broadcast
// K1-NEXT:     %[[C:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[Z]] : tensor<1x255x80x80xf32>)
// K3-NEXT:     %[[C:.*]] = linalg.conv_2d_nchw_fchw{{.*}} ins(%[[P]], %[[W]] : {{.*}}) outs(%[[Z]] : tensor<1x255x80x80xf32>)
// CHECK-NOT:   linalg.generic
// CHECK:       %[[V:.*]] = tensor.expand_shape %[[C]] {{.*}} output_shape [1, 3, 85, 80, 80] : tensor<1x255x80x80xf32> into tensor<1x3x85x80x80xf32>
// CHECK-NOT:   linalg.generic
// K1:          %[[T:.*]] = linalg.transpose ins(%[[V]]{{.*}}) outs(%{{.*}} : tensor<1x3x80x80x85xf32>) permutation = [0, 1, 3, 4, 2]
// K3-NOT:      linalg.transpose
// CHECK:       %[[B2:.*]] = tensor.expand_shape %[[B]] {{.*}} output_shape [3, 85] : tensor<255xf32> into tensor<3x85xf32>
// K1-NEXT:     %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[BIAS]], #[[ID]]]{{.*}} ins(%[[T]], %[[B2]] : tensor<1x3x80x80x85xf32>, tensor<3x85xf32>)
// K3-NEXT:     %[[Y:.*]] = linalg.generic {indexing_maps = [#[[PERM]], #[[BIAS]], #[[ID]]]{{.*}} ins(%[[V]], %[[B2]] : tensor<1x3x85x80x80xf32>, tensor<3x85xf32>)
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %[[BIAS:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[IN]], %[[BIAS]] : f32
// CHECK-NEXT:    arith.negf %[[SUM]]
// CHECK-NEXT:    math.exp
// CHECK-NOT:   * 85
// CHECK:       return %[[Y]] : tensor<1x3x80x80x85xf32>
