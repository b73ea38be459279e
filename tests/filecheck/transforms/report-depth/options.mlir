// report-depth's options reach its cost model: `plaintext-args` (argument indices that
// are plaintext, comma-separated, spaces and a trailing comma allowed) makes x * w a
// linear op on plaintext weights instead of a ciphertext product, or the whole function
// plaintext; `scalar-mul-levels=1` charges a level for x * 0.5.
// RUN: heirpy-opt %s -p 'report-depth{plaintext-args="1, "}' 2>&1 >/dev/null | filecheck %s --check-prefix=WEIGHT
// RUN: heirpy-opt %s -p 'report-depth{plaintext-args="0,1"}' 2>&1 >/dev/null | filecheck %s --check-prefix=PLAIN
// RUN: heirpy-opt %s -p 'report-depth{scalar-mul-levels=1}' 2>&1 >/dev/null | filecheck %s --check-prefix=SCALAR
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=DEFAULT

func.func @mul_by_weight(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @half(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
// WEIGHT:      function        depth  result depths  linear ops  weight bytes  ct x ct muls  not modelled
// WEIGHT-NEXT: --------
// WEIGHT-NEXT: @mul_by_weight  1      1              1           16            0             -
// WEIGHT-NEXT: @half           0      0              0           0             0             -
// PLAIN:      function        depth  result depths  linear ops  weight bytes  ct x ct muls  not modelled
// PLAIN-NEXT: --------
// PLAIN-NEXT: @mul_by_weight  0      pt             0           0             0             -
// PLAIN-NEXT: @half           0      pt             0           0             0             -
// SCALAR:      function        depth  result depths  linear ops  weight bytes  ct x ct muls  not modelled
// SCALAR-NEXT: --------
// SCALAR-NEXT: @mul_by_weight  1      1              0           0             1             -
// SCALAR-NEXT: @half           1      1              0           0             0             -
// DEFAULT:      function        depth  result depths  linear ops  weight bytes  ct x ct muls  not modelled
// DEFAULT-NEXT: --------
// DEFAULT-NEXT: @mul_by_weight  1      1              0           0             1             -
// DEFAULT-NEXT: @half           0      0              0           0             0             -
