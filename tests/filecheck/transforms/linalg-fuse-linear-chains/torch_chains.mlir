// Real torch-mlir chains (benchmarks/gen_chains.py exports them to Inputs/).
//
// conv -> conv(stride 2), batch 2, biases: one conv, stride 2, composed 4x4 filter.
// RUN: heirpy-opt %S/Inputs/cc.mlir -p linalg-fuse-linear-chains | filecheck %s --check-prefix=CC
// CC-LABEL: func.func @main(
// CC-NOT: linalg.{{conv|generic}}
// CC: %[[INIT:.*]] = linalg.broadcast
// CC-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %{{.*}} : tensor<2x2x9x9xf32>, tensor<4x2x4x4xf32>) outs(%[[INIT]] : tensor<2x4x3x3xf32>)
// CC-NEXT: return %[[R]]
//
// conv -> avgpool -> conv -> avgpool without padding: one conv (cheaper than a matrix).
// RUN: heirpy-opt %S/Inputs/cpcp_nopad.mlir -p linalg-fuse-linear-chains | filecheck %s --check-prefix=NOPAD
// NOPAD-LABEL: func.func @main(
// NOPAD-NOT: linalg.{{pooling|conv|generic}}
// NOPAD: %[[INIT:.*]] = linalg.broadcast
// NOPAD-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%arg0, %{{.*}} : tensor<1x3x16x16xf32>, tensor<8x3x10x10xf32>) outs(%[[INIT]]
// NOPAD-NEXT: return %[[R]]
//
// The same with torch's padding=1: the pad between the convs is not a conv, so the
// chain (its leading pad included) becomes one 768 x 128 matrix: 98,304 weights for
// 396, 248x for 3 levels, which only `policy=depth` pays (the default `balanced`
// allows 4^3 = 64x, see cost_rule.mlir).
// RUN: heirpy-opt %S/Inputs/cpcp_pad.mlir -p 'linalg-fuse-linear-chains{policy=depth}' | filecheck %s --check-prefix=PAD
// PAD-LABEL: func.func @main(
// PAD-NEXT: %[[F:.*]] = tensor.collapse_shape %arg0 {{.*}} : tensor<1x3x16x16xf32> into tensor<1x768xf32>
// PAD-NOT: {{tensor.pad|linalg.pooling|linalg.conv|linalg.generic}}
// PAD: %[[INIT:.*]] = linalg.broadcast
// PAD-NEXT: %[[M:.*]] = linalg.matmul ins(%[[F]], %{{.*}} : tensor<1x768xf32>, tensor<768x128xf32>)
// PAD-NEXT: %[[R:.*]] = tensor.expand_shape %[[M]] {{.*}} into tensor<1x8x4x4xf32>
// PAD-NEXT: return %[[R]]
//
// Under the default policy the chain stays: two convs and two pools.
// RUN: heirpy-opt %S/Inputs/cpcp_pad.mlir -p linalg-fuse-linear-chains | filecheck %s --check-prefix=PADBAL
// PADBAL-LABEL: func.func @main(
// PADBAL-NOT: linalg.matmul
// PADBAL: linalg.conv_2d_nchw_fchw
// PADBAL: linalg.pooling_nchw_sum
// PADBAL: linalg.conv_2d_nchw_fchw
// PADBAL: linalg.pooling_nchw_sum
//
// conv -> avgpool -> flatten -> Linear (transposed weight, bias generic), batch 2.
// RUN: heirpy-opt %S/Inputs/pool_linear.mlir -p linalg-fuse-linear-chains | filecheck %s --check-prefix=LIN
// LIN-LABEL: func.func @main(
// LIN-NEXT: %[[F:.*]] = tensor.collapse_shape %arg0 {{.*}} : tensor<2x1x8x8xf32> into tensor<2x64xf32>
// LIN-NOT: linalg.{{pooling|conv|generic|matmul}}
// LIN: %[[INIT:.*]] = linalg.broadcast
// LIN-NEXT: %[[M:.*]] = linalg.matmul ins(%[[F]], %{{.*}} : tensor<2x64xf32>, tensor<64x10xf32>)
// LIN-NEXT: return %[[M]]
//
// Linear -> Linear: one matmul.
// RUN: heirpy-opt %S/Inputs/linlin.mlir -p linalg-fuse-linear-chains | filecheck %s --check-prefix=LL
// LL-LABEL: func.func @main(
// LL-NOT: linalg.{{matmul|generic}}
// LL: %[[INIT:.*]] = linalg.broadcast
// LL-NEXT: %[[R:.*]] = linalg.matmul ins(%arg0, %{{.*}} : tensor<2x6xf32>, tensor<6x3xf32>)
// LL-NEXT: return %[[R]]
//
// Must not fire: relu between two convs.
// RUN: heirpy-opt %S/Inputs/cc_relu.mlir -p linalg-fuse-linear-chains | filecheck %s --check-prefix=RELU
// RELU-LABEL: func.func @main(
// RELU: linalg.conv_2d_nchw_fchw
// RELU: arith.cmpf ugt
// RELU: linalg.conv_2d_nchw_fchw
//
// heir-opt accepts the matrix form (collapse_shape + matmul + expand_shape).
// RUN: heirpy-opt %S/Inputs/cpcp_pad.mlir -p 'linalg-fuse-linear-chains{policy=depth}' | heir-opt | filecheck %s --check-prefix=HEIR
// HEIR-LABEL: func.func @main(
// HEIR-NOT: linalg.{{conv|matmul|pooling}}
// HEIR: linalg.broadcast
// HEIR-NEXT: linalg.matmul
// HEIR-NEXT: tensor.expand_shape
// HEIR-NEXT: return
