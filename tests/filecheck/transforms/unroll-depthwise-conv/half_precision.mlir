// unroll-depthwise-conv in half precision (issue 34): torch-mlir's .half() depthwise conv
// reads f16 input and filter and accumulates into an f32 init. The unrolled body takes
// each operand in its own type (block arguments f16, f16, f32) and extends the taps and
// weights to f32 before it multiplies, as the named op casts its inputs to its output
// type (heirpy once built an all-f32 body: "expected type of bb argument #0 (f32) to
// match ... (f16)"). A pure f16 conv stays f16 throughout; bf16 likewise. Numerics
// (tests/unit/test_filecheck_numerics.py runs every RUN line's pipeline before/after):
// the evaluator gives the unrolled form exactly the conv's values (same roundings).
// RUN: heirpy-opt %s --split-input-file -p unroll-depthwise-conv | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p unroll-depthwise-conv | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

func.func @mixed(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]]> : tensor<2x2x2xf16>
  %b = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %init = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<1x2x3x3xf32>) dimensions = [0, 2, 3]
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x2xf16>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @mixed
// CHECK-NOT:   linalg.depthwise_conv_2d_nchw_chw
// CHECK-COUNT-4: tensor.extract_slice %x{{.*}} : tensor<1x2x4x4xf16> to tensor<1x2x3x3xf16>
// CHECK-COUNT-4: arith.constant dense<{{.*}}> : tensor<2xf16>
// CHECK:       linalg.generic
// CHECK-SAME:  outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK-NEXT:  ^bb0(%[[X0:.*]]: f16, %{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16, %[[V0:.*]]: f16, %{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[XE:.*]] = arith.extf %[[X0]] : f16 to f32
// CHECK-NEXT:    %[[VE:.*]] = arith.extf %[[V0]] : f16 to f32
// CHECK-NEXT:    %[[M0:.*]] = arith.mulf %[[XE]], %[[VE]] : f32
// CHECK-NEXT:    arith.addf %[[B]], %[[M0]] : f32
// CHECK:       } -> tensor<1x2x3x3xf32>
// MLIR-LABEL:  func.func @mixed
// MLIR:        linalg.generic
// MLIR-LABEL:  func.func @pure_f16(
// MLIR-LABEL:  func.func @bf16_into_f32(

// -----

func.func @pure_f16(%x: tensor<1x2x4x4xf16>, %init: tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.5], [0.25, -2.0]]]> : tensor<2x2x2xf16>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x2xf16>) outs(%init : tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16>
  return %r : tensor<1x2x3x3xf16>
}
// CHECK-LABEL: func.func @pure_f16
// CHECK:       ^bb0(%[[X0:.*]]: f16, %{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16, %[[V0:.*]]: f16, %{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NOT:     arith.extf
// CHECK-NEXT:    arith.mulf %[[X0]], %[[V0]] : f16
// CHECK:       } -> tensor<1x2x3x3xf16>

// -----

func.func @bf16_into_f32(%x: tensor<1x2x4x4xbf16>, %w: tensor<2x2x2xbf16>, %init: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xbf16>, tensor<2x2x2xbf16>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
// A filter known only at run time is read through rank-reducing slices, still bf16.
// CHECK-LABEL: func.func @bf16_into_f32
// CHECK-COUNT-4: tensor.extract_slice %w{{.*}} to tensor<2xbf16>
// CHECK:       ^bb0(%[[X0:[0-9a-z_]+]]: bf16, {{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:    arith.extf %[[X0]] : bf16 to f32
