// EXPECT: ok
func.func @f(%a: memref<1x1x4x4xf32>, %w: memref<2x2xf32>, %o: memref<1x1x2x2xf32>) {
  linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%a, %w : memref<1x1x4x4xf32>, memref<2x2xf32>) outs(%o : memref<1x1x2x2xf32>)
  return
}