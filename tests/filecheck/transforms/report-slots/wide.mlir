// A conv whose output (6x28x28 = 4704) needs 8192 slots; its input counts 28x28, not the
// padded 32x32 (HEIR folds the symmetric zero pad into the conv); a constant-only matvec
// is plaintext work and not listed.
// RUN: heirpy-opt %s -p report-slots 2>&1 >/dev/null | filecheck %s

func.func @main(%x: tensor<1x1x28x28xf32>) -> (tensor<1x6x28x28xf32>, tensor<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x28x28xf32> to tensor<1x1x32x32xf32>
  %w = arith.constant dense<0.1> : tensor<6x1x5x5xf32>
  %b = arith.constant dense<0.0> : tensor<1x6x28x28xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x1x32x32xf32>, tensor<6x1x5x5xf32>) outs(%b : tensor<1x6x28x28xf32>) -> tensor<1x6x28x28xf32>
  %m = arith.constant dense<1.0> : tensor<2x3xf32>
  %v = arith.constant dense<2.0> : tensor<3xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %c = linalg.matvec ins(%m, %v : tensor<2x3xf32>, tensor<3xf32>) outs(%z : tensor<2xf32>) -> tensor<2xf32>
  return %y, %c : tensor<1x6x28x28xf32>, tensor<2xf32>
}
// CHECK:      @main: linear ops on secret data
// CHECK-NEXT:   op                       matrix (out x in)  slots
// CHECK-NEXT:   linalg.conv_2d_nchw_fchw 4704x784           8192
// CHECK-NOT:    linalg.matvec
// CHECK-NEXT:   min-slot-count: 8192: heir-opt --torch-linalg-to-ckks=min-slot-count=8192{{$}}
