// The example in ReportKernelsPass's docstring; the IR is printed unchanged.
// RUN: heirpy-opt %s -p report-kernels 2>&1 >/dev/null | filecheck %s
// RUN: heirpy-opt %s -p report-kernels 2>/dev/null | filecheck %s --check-prefix=IR

func.func @f(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %e0 = tensor.empty() : tensor<4x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x6xf32>) outs(%e1 : tensor<6x4xf32>) permutation = [1, 0]
  return %t : tensor<6x4xf32>
}
// CHECK:      function  kernels  intermediate bytes  dynamic  kernel ops
// CHECK-NEXT: @f        2        96                  0        linalg.generic, linalg.transpose

// IR: linalg.generic
// IR: linalg.transpose
