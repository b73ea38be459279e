// A miscompile: one elementwise result read by two 1x1 convs with strides 4 and 2 (the
// levels of a YOLO Detect on one feature map). IREE 3.13 (llvm-cpu) returns 0 for the
// stride-2 conv's middle column, the one input column (2) that only that conv reads;
// the other columns and the stride-4 conv are right. numpy: %a = -x[..., ::4] * wa,
// %b = -x[..., ::2] * wb (heirpy's evaluator agrees). Without the elementwise producer,
// or with only one of the convs, IREE computes it right. Found by benchmarks/fuzz_iree.py
// (f32 program #487 of `--count 1000 --seed 0`: avg pool -> two YOLO heads -> concat).
func.func @main(%x: tensor<1x1x1x5xf32>, %wa: tensor<1x1x1x1xf32>, %wb: tensor<1x1x1x1xf32>) -> (tensor<1x1x1x2xf32>, tensor<1x1x1x3xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x1x1x5xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x1x5xf32>) outs(%e : tensor<1x1x1x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x1x1x5xf32>
  %ea = tensor.empty() : tensor<1x1x1x2xf32>
  %ia = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%y, %wa : tensor<1x1x1x5xf32>, tensor<1x1x1x1xf32>) outs(%ia : tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  %eb = tensor.empty() : tensor<1x1x1x3xf32>
  %ib = linalg.fill ins(%zero : f32) outs(%eb : tensor<1x1x1x3xf32>) -> tensor<1x1x1x3xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%y, %wb : tensor<1x1x1x5xf32>, tensor<1x1x1x1xf32>) outs(%ib : tensor<1x1x1x3xf32>) -> tensor<1x1x1x3xf32>
  return %a, %b : tensor<1x1x1x2xf32>, tensor<1x1x1x3xf32>
}
