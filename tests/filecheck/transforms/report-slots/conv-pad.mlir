// The slots a conv needs for its input: HEIR folds a zero pad that is symmetric and
// equal on every spatial dim (and absent on N and C) into the conv's layout, so the
// unpadded input is what sits in the ciphertext. Any other pad is laid out as it is.
// RUN: heirpy-opt %s -p report-slots 2>&1 >/dev/null | filecheck %s

// 16x32x32 = 16384 elements, padded to 16x34x34 = 18496: 16384 slots suffice.
func.func @folded(%x: tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x32x32xf32> to tensor<1x16x34x34xf32>
  %w = arith.constant dense<0.1> : tensor<16x16x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<1x16x32x32xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x16x34x34xf32>, tensor<16x16x3x3xf32>) outs(%b : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  return %y : tensor<1x16x32x32xf32>
}
// CHECK-LABEL: @folded: linear ops on secret data
// CHECK-NEXT:    op                        matrix (out x in)  slots
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw  16384x16384        16384
// CHECK-NEXT:    min-slot-count: 16384

// Padding with 1.0 is not HEIR's conv padding: the padded tensor is laid out.
func.func @nonzero(%x: tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32> {
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x16x32x32xf32> to tensor<1x16x34x34xf32>
  %w = arith.constant dense<0.1> : tensor<16x16x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<1x16x32x32xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x16x34x34xf32>, tensor<16x16x3x3xf32>) outs(%b : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  return %y : tensor<1x16x32x32xf32>
}
// CHECK-LABEL: @nonzero: linear ops on secret data
// CHECK-NEXT:    op                        matrix (out x in)  slots
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw  16384x18496        32768
// CHECK-NEXT:    min-slot-count: 32768

// Asymmetric (low 1, high 2): not one conv padding.
func.func @asymmetric(%x: tensor<1x16x32x32xf32>) -> tensor<1x16x33x33xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 2, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x32x32xf32> to tensor<1x16x35x35xf32>
  %w = arith.constant dense<0.1> : tensor<16x16x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<1x16x33x33xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x16x35x35xf32>, tensor<16x16x3x3xf32>) outs(%b : tensor<1x16x33x33xf32>) -> tensor<1x16x33x33xf32>
  return %y : tensor<1x16x33x33xf32>
}
// CHECK-LABEL: @asymmetric: linear ops on secret data
// CHECK-NEXT:    op                        matrix (out x in)  slots
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw  17424x19600        32768
// CHECK-NEXT:    min-slot-count: 32768

// A pad of the channel dim (16 -> 18 channels) is not spatial.
func.func @channels(%x: tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 1] high[0, 1, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x32x32xf32> to tensor<1x18x34x34xf32>
  %w = arith.constant dense<0.1> : tensor<16x18x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<1x16x32x32xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x18x34x34xf32>, tensor<16x18x3x3xf32>) outs(%b : tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32>
  return %y : tensor<1x16x32x32xf32>
}
// CHECK-LABEL: @channels: linear ops on secret data
// CHECK-NEXT:    op                        matrix (out x in)  slots
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw  16384x20808        32768
// CHECK-NEXT:    min-slot-count: 32768
