// The pass docstring's example: a unit-stride 2x2 depthwise conv with a constant filter
// becomes one elementwise generic over four slices of the input and four per-channel
// weight vectors; heir-opt and iree-opt re-parse it, and it computes what the conv did.
// RUN: heirpy-opt %s -p unroll-depthwise-conv | filecheck %s
// RUN: heirpy-opt %s -p unroll-depthwise-conv | iree-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s -p unroll-depthwise-conv -o %t && heirpy-equiv %s %t | filecheck %s --check-prefix=EQUIV

func.func @main(%x: tensor<1x2x4x4xf32>, %b: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]]> : tensor<2x2x2xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2xf32>) outs(%b : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @main
// CHECK-NOT:   linalg.depthwise_conv_2d_nchw_chw
// CHECK:       %[[S0:.*]] = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1] : tensor<1x2x4x4xf32> to tensor<1x2x3x3xf32>
// CHECK-NEXT:  %[[S1:.*]] = tensor.extract_slice %x[0, 0, 0, 1] [1, 2, 3, 3] [1, 1, 1, 1]
// CHECK-NEXT:  %[[S2:.*]] = tensor.extract_slice %x[0, 0, 1, 0] [1, 2, 3, 3] [1, 1, 1, 1]
// CHECK-NEXT:  %[[S3:.*]] = tensor.extract_slice %x[0, 0, 1, 1] [1, 2, 3, 3] [1, 1, 1, 1]
// CHECK-NEXT:  %[[W0:.*]] = arith.constant dense<[1.000000e+00, -1.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:  %[[W1:.*]] = arith.constant dense<[2.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK-NEXT:  %[[W2:.*]] = arith.constant dense<[3.000000e+00, 2.500000e-01]> : tensor<2xf32>
// CHECK-NEXT:  %[[W3:.*]] = arith.constant dense<[4.000000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT:  %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID:map[0-9]*]], #[[ID]], #[[ID]], #[[ID]], #[[CH:map[0-9]*]], #[[CH]], #[[CH]], #[[CH]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[W0]], %[[W1]], %[[W2]], %[[W3]], %b : {{.*}}) outs(%[[E]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  ^bb0(%[[X0:.*]]: f32, %[[X1:.*]]: f32, %[[X2:.*]]: f32, %[[X3:.*]]: f32, %[[V0:.*]]: f32, %[[V1:.*]]: f32, %[[V2:.*]]: f32, %[[V3:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[M0:.*]] = arith.mulf %[[X0]], %[[V0]] : f32
// CHECK-NEXT:    %[[A0:.*]] = arith.addf %[[B]], %[[M0]] : f32
// CHECK-NEXT:    %[[M1:.*]] = arith.mulf %[[X1]], %[[V1]] : f32
// CHECK-NEXT:    %[[A1:.*]] = arith.addf %[[A0]], %[[M1]] : f32
// CHECK-NEXT:    %[[M2:.*]] = arith.mulf %[[X2]], %[[V2]] : f32
// CHECK-NEXT:    %[[A2:.*]] = arith.addf %[[A1]], %[[M2]] : f32
// CHECK-NEXT:    %[[M3:.*]] = arith.mulf %[[X3]], %[[V3]] : f32
// CHECK-NEXT:    %[[A3:.*]] = arith.addf %[[A2]], %[[M3]] : f32
// CHECK-NEXT:    linalg.yield %[[A3]] : f32
// CHECK:       return %[[R]]
// MLIR-LABEL: func.func @main
// MLIR-COUNT-4: tensor.extract_slice
// MLIR:       linalg.generic
// EQUIV: equivalent
