// The example of ReportDepthPass's docstring: the table goes to stderr, the IR is
// unchanged on stdout.
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s
// RUN: heirpy-opt %s -p report-depth 2>/dev/null | filecheck %s --check-prefix=IR

func.func @sq(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
// CHECK:      function  depth  result depths  linear ops  weight bytes  ct x ct muls  not modelled
// CHECK-NEXT: --------
// CHECK-NEXT: @sq       1      1              0           0             1             -
// IR: func.func @sq
// IR: arith.mulf
