// A zero pad as wide as the conv's filter (pad 1 around a 1x1 conv, two channels): heir-opt
// --torch-linalg-to-ckks dies with SIGSEGV. Likewise pad 2 around 1x1 or 2x2, pad 3 around
// 3x3; pad 2 around 3x3 (narrower than the filter, as torch pads) compiles. Found by
// benchmarks/fuzz_heir.py (a conv2d(padding=2) that heirpy fused with a 1x1 conv).
func.func @main(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x8xf32> to tensor<1x2x10x10xf32>
  %w = arith.constant dense<"0x0000803D0000003E0000403E0000803E"> : tensor<2x2x1x1xf32>
  %b = arith.constant dense<0.0> : tensor<1x2x10x10xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x10x10xf32>, tensor<2x2x1x1xf32>) outs(%b : tensor<1x2x10x10xf32>) -> tensor<1x2x10x10xf32>
  return %y : tensor<1x2x10x10xf32>
}
