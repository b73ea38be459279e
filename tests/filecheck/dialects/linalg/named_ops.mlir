// Every op heirpy adds to linalg round-trips in custom and generic form, and what
// heirpy prints re-parses in heir-opt.
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

func.func @pooling(%in: tensor<1x2x8x8xf32>, %win: tensor<2x2xf32>, %o: tensor<1x2x4x4xf32>,
                   %in_nhwc: tensor<1x8x8x2xf32>, %o_nhwc: tensor<1x4x4x2xf32>,
                   %in1: tensor<1x2x8xf32>, %win1: tensor<3xf32>, %o1: tensor<1x2x3xf32>)
    -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>) {
  %0 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %1 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%in, %win : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %2 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%in_nhwc, %win : tensor<1x8x8x2xf32>, tensor<2x2xf32>) outs(%o_nhwc : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %3 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%in_nhwc, %win : tensor<1x8x8x2xf32>, tensor<2x2xf32>) outs(%o_nhwc : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %4 = linalg.pooling_ncw_sum {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%in1, %win1 : tensor<1x2x8xf32>, tensor<3xf32>) outs(%o1 : tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  %5 = linalg.pooling_ncw_max {dilations = dense<2> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%in1, %win1 : tensor<1x2x8xf32>, tensor<3xf32>) outs(%o1 : tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>
}
// CHECK-LABEL: func.func @pooling
// CHECK: linalg.pooling_nchw_sum {{.*}}strides = dense<2> : vector<2xi64>{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x8x8xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
// CHECK: linalg.pooling_nchw_max {{.*}}strides = dense<2> : vector<2xi64>
// CHECK: linalg.pooling_nhwc_sum {{.*}}strides = dense<2> : tensor<2xi64>
// CHECK: linalg.pooling_nhwc_max {{.*}}strides = dense<2> : tensor<2xi64>
// CHECK: linalg.pooling_ncw_sum {{.*}}strides = dense<2> : vector<1xi64>{{.*}} -> tensor<1x2x3xf32>
// CHECK: linalg.pooling_ncw_max {{.*}}dilations = dense<2> : vector<1xi64>
// MLIR-LABEL: func.func @pooling
// MLIR-COUNT-6: linalg.pooling_n

func.func @convs(%in: tensor<1x2x8x8xf32>, %f: tensor<3x2x3x3xf32>, %o: tensor<1x3x6x6xf32>,
                 %dw: tensor<2x3x3xf32>, %odw: tensor<1x2x6x6xf32>,
                 %in1: tensor<2x2x9xf32>, %f1: tensor<4x2x3xf32>, %o1: tensor<2x4x4xf32>)
    -> (tensor<1x3x6x6xf32>, tensor<1x2x6x6xf32>, tensor<2x4x4xf32>) {
  %0 = linalg.conv_2d_nchw_fchw ins(%in, %f : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) outs(%o : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %dw : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%odw : tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %2 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%in1, %f1 : tensor<2x2x9xf32>, tensor<4x2x3xf32>) outs(%o1 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %0, %1, %2 : tensor<1x3x6x6xf32>, tensor<1x2x6x6xf32>, tensor<2x4x4xf32>
}
// Omitted strides/dilations mean MLIR's default, 1, and stay omitted as MLIR prints them;
// given ones print back in MLIR's sorted order.
// CHECK-LABEL: func.func @convs
// CHECK: linalg.conv_2d_nchw_fchw ins(
// CHECK: linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x8x8xf32>, tensor<2x3x3xf32>) outs(%{{.*}} : tensor<1x2x6x6xf32>)
// CHECK: linalg.conv_1d_ncw_fcw {{.*}}strides = dense<2> : vector<1xi64>{{.*}} -> tensor<2x4x4xf32>
// MLIR-LABEL: func.func @convs
// MLIR: linalg.conv_2d_nchw_fchw
// MLIR: linalg.depthwise_conv_2d_nchw_chw
// MLIR: linalg.conv_1d_ncw_fcw

func.func @contractions(%a: tensor<4x3xf32>, %x: tensor<3xf32>, %y: tensor<4xf32>, %v: tensor<4xf32>, %r: tensor<3xf32>,
                        %ba: tensor<2x4x3xf32>, %bb: tensor<2x3x5xf32>, %bc: tensor<2x4x5xf32>)
    -> (tensor<4xf32>, tensor<3xf32>, tensor<2x4x5xf32>) {
  %0 = linalg.matvec ins(%a, %x : tensor<4x3xf32>, tensor<3xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.vecmat ins(%v, %a : tensor<4xf32>, tensor<4x3xf32>) outs(%r : tensor<3xf32>) -> tensor<3xf32>
  %2 = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x3xf32>, tensor<2x3x5xf32>) outs(%bc : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<3xf32>, tensor<2x4x5xf32>
}
// CHECK-LABEL: func.func @contractions
// CHECK: linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.vecmat ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4x3xf32>) outs(%{{.*}} : tensor<3xf32>) -> tensor<3xf32>
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x3xf32>, tensor<2x3x5xf32>) outs(%{{.*}} : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
// MLIR-LABEL: func.func @contractions
// MLIR: linalg.matvec
// MLIR: linalg.vecmat
// MLIR: linalg.batch_matmul

func.func @map(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // Operands not in the block's order: MLIR prints the long form.
  %2 = linalg.map ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>)
    (%x: f32, %y: f32, %init: f32) {
      %s = arith.subf %y, %x : f32
      linalg.yield %s : f32
    }
  // The short form parses, and a long body that is one payload op prints as it.
  %3 = linalg.map { arith.mulf } ins(%2, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>)
  // Older MLIR's body without the init argument gains it.
  %4 = linalg.map ins(%3, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>)
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @map
// CHECK: %[[M:.*]] = linalg.map ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT: (%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32) {
// CHECK-NEXT: arith.subf %[[Y]], %[[X]] : f32
// CHECK: %[[N:.*]] = linalg.map { arith.mulf } ins(%[[M]], %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT: linalg.map { arith.addf } ins(%[[N]], %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT: return
// MLIR-LABEL: func.func @map
// MLIR-COUNT-3: linalg.map

// A value and its index reduce together (torch's max with indices); MLIR prints the
// long form because the payload is more than one op.
func.func @reduce_two(%a: tensor<2x3xf32>, %j: tensor<2x3xi64>, %m: tensor<2xf32>, %k: tensor<2xi64>) -> (tensor<2xf32>, tensor<2xi64>) {
  %0:2 = linalg.reduce ins(%a, %j : tensor<2x3xf32>, tensor<2x3xi64>) outs(%m, %k : tensor<2xf32>, tensor<2xi64>) dimensions = [1]
    (%in: f32, %in_j: i64, %init: f32, %init_k: i64) {
      %gt = arith.cmpf ogt, %in, %init : f32
      %v = arith.select %gt, %in, %init : f32
      %i = arith.select %gt, %in_j, %init_k : i64
      linalg.yield %v, %i : f32, i64
    }
  %1 = linalg.reduce { arith.maximumf } ins(%a : tensor<2x3xf32>) outs(%m : tensor<2xf32>) dimensions = [1]
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xi64>
}
// CHECK-LABEL: func.func @reduce_two
// CHECK: linalg.reduce ins(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xi64>) outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi64>) dimensions = [1]
// CHECK-NEXT: (%{{.*}}: f32, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: i64) {
// CHECK: linalg.reduce { arith.maximumf } ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2xf32>) dimensions = [1]
// MLIR-LABEL: func.func @reduce_two
// MLIR-COUNT-2: linalg.reduce
