// ConvNeXt-atto f16's head LayerNorm as torch-mlir exports it (channels 320 -> 32): the
// pooled features transposed to channels-last, widened, `var_mean` with the variance in
// f64 and the mean in f32, the normalisation, the rounding. heirpy's `demote-f64` makes the
// two centrings `x - mean` one op read by the variance and by the normalisation.
// tests/unit/test_iree_f16_dispatches.py compiles it (raw 2 executables / 2 dispatches).
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d3)>
module {
  func.func @main(%p: tensor<1x32x1x1xf16>, %g: tensor<32xf16>, %b: tensor<32xf16>) -> tensor<1x1x1x32xf16> {
    %z64 = arith.constant 0.000000e+00 : f64
    %z32 = arith.constant 0.000000e+00 : f32
    %eps = arith.constant 9.9999999999999995E-7 : f64
    %n64 = arith.constant 3.200000e+01 : f64
    %n32 = arith.constant 3.200000e+01 : f32
    %499 = tensor.empty() : tensor<1x1x1x32xf16>
    %transposed_250 = linalg.transpose ins(%p : tensor<1x32x1x1xf16>) outs(%499 : tensor<1x1x1x32xf16>) permutation = [0, 2, 3, 1] 
    %500 = tensor.empty() : tensor<1x1x1x32xf32>
    %501 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_250 : tensor<1x1x1x32xf16>) outs(%500 : tensor<1x1x1x32xf32>) {
    ^bb0(%in: f16, %out: f32):
      %537 = arith.extf %in : f16 to f32
      linalg.yield %537 : f32
    } -> tensor<1x1x1x32xf32>
    %502 = tensor.empty() : tensor<1x1x1x32xf64>
    %503 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%501 : tensor<1x1x1x32xf32>) outs(%502 : tensor<1x1x1x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %537 = arith.extf %in : f32 to f64
      linalg.yield %537 : f64
    } -> tensor<1x1x1x32xf64>
    %504 = tensor.empty() : tensor<1x1x1x1xf64>
    %505 = linalg.fill ins(%z64 : f64) outs(%504 : tensor<1x1x1x1xf64>) -> tensor<1x1x1x1xf64>
    %506 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%503 : tensor<1x1x1x32xf64>) outs(%505 : tensor<1x1x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %537 = arith.addf %in, %out : f64
      linalg.yield %537 : f64
    } -> tensor<1x1x1x1xf64>
    %507 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%506 : tensor<1x1x1x1xf64>) outs(%504 : tensor<1x1x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %537 = arith.divf %in, %n64 : f64
      linalg.yield %537 : f64
    } -> tensor<1x1x1x1xf64>
    %508 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%503, %507 : tensor<1x1x1x32xf64>, tensor<1x1x1x1xf64>) outs(%502 : tensor<1x1x1x32xf64>) {
    ^bb0(%in: f64, %in_254: f64, %out: f64):
      %537 = arith.subf %in, %in_254 : f64
      linalg.yield %537 : f64
    } -> tensor<1x1x1x32xf64>
    %509 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%508, %508 : tensor<1x1x1x32xf64>, tensor<1x1x1x32xf64>) outs(%502 : tensor<1x1x1x32xf64>) {
    ^bb0(%in: f64, %in_254: f64, %out: f64):
      %537 = arith.mulf %in, %in_254 : f64
      linalg.yield %537 : f64
    } -> tensor<1x1x1x32xf64>
    %510 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%509 : tensor<1x1x1x32xf64>) outs(%505 : tensor<1x1x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %537 = arith.addf %in, %out : f64
      linalg.yield %537 : f64
    } -> tensor<1x1x1x1xf64>
    %511 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%510 : tensor<1x1x1x1xf64>) outs(%504 : tensor<1x1x1x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %537 = arith.divf %in, %n64 : f64
      linalg.yield %537 : f64
    } -> tensor<1x1x1x1xf64>
    %512 = tensor.empty() : tensor<1x1x1x1xf32>
    %513 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%511 : tensor<1x1x1x1xf64>) outs(%512 : tensor<1x1x1x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %537 = arith.truncf %in : f64 to f32
      linalg.yield %537 : f32
    } -> tensor<1x1x1x1xf32>
    %514 = linalg.fill ins(%z32 : f32) outs(%512 : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
    %515 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%501 : tensor<1x1x1x32xf32>) outs(%514 : tensor<1x1x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %537 = arith.addf %in, %out : f32
      linalg.yield %537 : f32
    } -> tensor<1x1x1x1xf32>
    %516 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%515 : tensor<1x1x1x1xf32>) outs(%512 : tensor<1x1x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %537 = arith.divf %in, %n32 : f32
      linalg.yield %537 : f32
    } -> tensor<1x1x1x1xf32>
    %517 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%513 : tensor<1x1x1x1xf32>) outs(%512 : tensor<1x1x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %537 = arith.truncf %eps : f64 to f32
      %538 = arith.addf %in, %537 : f32
      linalg.yield %538 : f32
    } -> tensor<1x1x1x1xf32>
    %518 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%517 : tensor<1x1x1x1xf32>) outs(%512 : tensor<1x1x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %537 = math.rsqrt %in : f32
      linalg.yield %537 : f32
    } -> tensor<1x1x1x1xf32>
    %519 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%501, %516 : tensor<1x1x1x32xf32>, tensor<1x1x1x1xf32>) outs(%500 : tensor<1x1x1x32xf32>) {
    ^bb0(%in: f32, %in_254: f32, %out: f32):
      %537 = arith.subf %in, %in_254 : f32
      linalg.yield %537 : f32
    } -> tensor<1x1x1x32xf32>
    %520 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%519, %518 : tensor<1x1x1x32xf32>, tensor<1x1x1x1xf32>) outs(%500 : tensor<1x1x1x32xf32>) {
    ^bb0(%in: f32, %in_254: f32, %out: f32):
      %537 = arith.mulf %in, %in_254 : f32
      linalg.yield %537 : f32
    } -> tensor<1x1x1x32xf32>
    %521 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%520, %g : tensor<1x1x1x32xf32>, tensor<32xf16>) outs(%500 : tensor<1x1x1x32xf32>) {
    ^bb0(%in: f32, %in_254: f16, %out: f32):
      %537 = arith.extf %in_254 : f16 to f32
      %538 = arith.mulf %in, %537 : f32
      linalg.yield %538 : f32
    } -> tensor<1x1x1x32xf32>
    %522 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%521, %b : tensor<1x1x1x32xf32>, tensor<32xf16>) outs(%500 : tensor<1x1x1x32xf32>) {
    ^bb0(%in: f32, %in_254: f16, %out: f32):
      %537 = arith.extf %in_254 : f16 to f32
      %538 = arith.addf %in, %537 : f32
      linalg.yield %538 : f32
    } -> tensor<1x1x1x32xf32>
    %523 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%522 : tensor<1x1x1x32xf32>) outs(%499 : tensor<1x1x1x32xf16>) {
    ^bb0(%in: f32, %out: f16):
      %537 = arith.truncf %in : f32 to f16
      linalg.yield %537 : f16
    } -> tensor<1x1x1x32xf16>
    return %523 : tensor<1x1x1x32xf16>
  }
}
