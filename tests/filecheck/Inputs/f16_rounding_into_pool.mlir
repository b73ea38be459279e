// RegNetX-400MF f16's last block as iree-prepare left it before round-in-reductions
// (tests/unit/test_iree_f16_dispatches.py): a 1x1 conv from a zero init, its folded bias
// added in f32, the sum rounded and added to the f16 shortcut (a generic IREE classes as
// a truncation), and the global average pool's sum with the last ReLU in its body,
// reading that sum twice. A second, bare conv of the same shape stands for the first
// block of the stage, whose conv IREE compiles to a dispatch of its own.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#pool = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
module {
  func.func @main(%x: tensor<1x400x2x2xf16>, %r: tensor<1x400x2x2xf16>, %w: tensor<400x400x1x1xf16>, %b: tensor<400xf32>) -> (tensor<1x400x2x2xf32>, tensor<1x400x1x1xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %e32 = tensor.empty() : tensor<1x400x2x2xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x400x2x2xf32>) -> tensor<1x400x2x2xf32>
    %first = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%r, %w : tensor<1x400x2x2xf16>, tensor<400x400x1x1xf16>) outs(%z : tensor<1x400x2x2xf32>) -> tensor<1x400x2x2xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x400x2x2xf16>, tensor<400x400x1x1xf16>) outs(%z : tensor<1x400x2x2xf32>) -> tensor<1x400x2x2xf32>
    %cb = linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %b : tensor<1x400x2x2xf32>, tensor<400xf32>) outs(%e32 : tensor<1x400x2x2xf32>) {
    ^bb0(%i: f32, %j: f32, %o: f32):
      %s = arith.addf %i, %j : f32
      linalg.yield %s : f32
    } -> tensor<1x400x2x2xf32>
    %e16 = tensor.empty() : tensor<1x400x2x2xf16>
    %a = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r, %cb : tensor<1x400x2x2xf16>, tensor<1x400x2x2xf32>) outs(%e16 : tensor<1x400x2x2xf16>) {
    ^bb0(%i: f16, %j: f32, %o: f16):
      %t = arith.truncf %j : f32 to f16
      %s = arith.addf %i, %t : f16
      linalg.yield %s : f16
    } -> tensor<1x400x2x2xf16>
    %init = arith.constant dense<0.000000e+00> : tensor<1x400x1x1xf32>
    %sum = linalg.generic {indexing_maps = [#map, #map, #pool], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %a : tensor<1x400x2x2xf16>, tensor<1x400x2x2xf16>) outs(%init : tensor<1x400x1x1xf32>) {
    ^bb0(%u: f16, %v: f16, %o: f32):
      %c0 = arith.constant 0.000000e+00 : f16
      %p = arith.cmpf ugt, %u, %c0 : f16
      %m = arith.select %p, %v, %c0 : f16
      %e = arith.extf %m : f16 to f32
      %y = arith.addf %e, %o : f32
      linalg.yield %y : f32
    } -> tensor<1x400x1x1xf32>
    return %first, %sum : tensor<1x400x2x2xf32>, tensor<1x400x1x1xf32>
  }
}
