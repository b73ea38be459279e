// heir-prepare on a conv + batch norm + x² as torch-mlir writes it in a .half() model: the
// conv reads f16 and accumulates in an f32 fill (then truncf), the batch norm widens its
// f16 input and constants (extf), computes in f32 and truncates, x² is f16. heirpy folds
// the batch norm into the conv in the model's precision, then `heir-widen-half` computes
// the HEIR form in f32: CKKS slots hold reals, not f16, and heir-opt's
// --torch-linalg-to-ckks rejects the f16-input / f32-accumulator conv ("unexpected
// unrealized conversion cast op found"; the WIDEN-OFF prefix checks what heir-prepare{widen-half=false}
// prints). Widened, heir-opt compiles it at the depth bound, 2 levels (Q has 3 moduli),
// as it does the f32 twin (third chunk: nothing to widen). The second chunk
// is the same with bf16 storage. (sed names each function main for heir-opt's --secretize.)
// RUN: heirpy-opt %s --split-input-file -p heir-prepare | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p heir-prepare 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: heirpy-opt %s --split-input-file -p 'heir-prepare{widen-half=false}' | filecheck %s --check-prefix=WIDEN-OFF
// RUN: heirpy-opt %s --split-input-file -p heir-prepare | sed -E 's/@conv_bn_square_b?f(16|32)/@main/' | heir-opt --split-input-file --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks | filecheck %s --check-prefix=CKKS

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @conv_bn_square_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x3x3xf16> {
  %w = arith.constant dense<[[[[0.5, -1.0], [0.25, 2.0]], [[1.0, 0.5], [-0.5, 0.25]]], [[[-1.0, 0.75], [0.5, 0.5]], [[0.25, -0.25], [1.0, -1.5]]]]> : tensor<2x2x2x2xf16>
  %zero = arith.constant 0.000000e+00 : f32
  %mean = arith.constant dense<[[[0.25]], [[-0.5]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[1.25]], [[0.75]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf16>
  %beta = arith.constant dense<[[[0.125]], [[-0.25]]]> : tensor<2x1x1xf16>
  %e32 = tensor.empty() : tensor<1x2x3x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf16>, tensor<2x2x2x2xf16>) outs(%acc : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %e16 = tensor.empty() : tensor<1x2x3x3xf16>
  %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x3x3xf32>) outs(%e16 : tensor<1x2x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x3x3xf16>
  %b1 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %mean : tensor<1x2x3x3xf16>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f16, %m: f32, %out: f32):
    %wide = arith.extf %in : f16 to f32
    %r = arith.subf %wide, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b2 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1, %inv : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.mulf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b3 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2, %gamma : tensor<1x2x3x3xf32>, tensor<2x1x1xf16>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %g: f16, %out: f32):
    %wide = arith.extf %g : f16 to f32
    %r = arith.mulf %in, %wide : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b4 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b3, %beta : tensor<1x2x3x3xf32>, tensor<2x1x1xf16>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %b: f16, %out: f32):
    %wide = arith.extf %b : f16 to f32
    %r = arith.addf %in, %wide : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %n = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b4 : tensor<1x2x3x3xf32>) outs(%e16 : tensor<1x2x3x3xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x3x3xf16>
  %sq = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n : tensor<1x2x3x3xf16>) outs(%e16 : tensor<1x2x3x3xf16>) {
  ^bb0(%in: f16, %out: f16):
    %r = arith.mulf %in, %in : f16
    linalg.yield %r : f16
  } -> tensor<1x2x3x3xf16>
  return %sq : tensor<1x2x3x3xf16>
}
// CHECK-LABEL: func.func @conv_bn_square_f16(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
// CHECK-NOT:   f16
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK-NOT:   f16
// CHECK:       arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:  linalg.yield %{{.*}} : f32
// CHECK-NEXT:  } -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  return %{{.*}} : tensor<1x2x3x3xf32>
// REMARK:      heir-widen-half: @conv_bn_square_f16 computes in f32 (CKKS slots hold reals, not f16): its signature is now (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>; encode its inputs as f32
// WIDEN-OFF-LABEL: func.func @conv_bn_square_f16(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x3x3xf16> {
// WIDEN-OFF:       linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf16>, tensor<2x2x2x2xf16>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CKKS:        ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @conv_bn_square_bf16(%x: tensor<1x2x4x4xbf16>) -> tensor<1x2x3x3xbf16> {
  %w = arith.constant dense<[[[[0.5, -1.0], [0.25, 2.0]], [[1.0, 0.5], [-0.5, 0.25]]], [[[-1.0, 0.75], [0.5, 0.5]], [[0.25, -0.25], [1.0, -1.5]]]]> : tensor<2x2x2x2xbf16>
  %zero = arith.constant 0.000000e+00 : f32
  %mean = arith.constant dense<[[[0.25]], [[-0.5]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[1.25]], [[0.75]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xbf16>
  %beta = arith.constant dense<[[[0.125]], [[-0.25]]]> : tensor<2x1x1xbf16>
  %e32 = tensor.empty() : tensor<1x2x3x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xbf16>, tensor<2x2x2x2xbf16>) outs(%acc : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %e16 = tensor.empty() : tensor<1x2x3x3xbf16>
  %t = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x3x3xf32>) outs(%e16 : tensor<1x2x3x3xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<1x2x3x3xbf16>
  %b1 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t, %mean : tensor<1x2x3x3xbf16>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: bf16, %m: f32, %out: f32):
    %wide = arith.extf %in : bf16 to f32
    %r = arith.subf %wide, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b2 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1, %inv : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.mulf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b3 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2, %gamma : tensor<1x2x3x3xf32>, tensor<2x1x1xbf16>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %g: bf16, %out: f32):
    %wide = arith.extf %g : bf16 to f32
    %r = arith.mulf %in, %wide : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b4 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b3, %beta : tensor<1x2x3x3xf32>, tensor<2x1x1xbf16>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %b: bf16, %out: f32):
    %wide = arith.extf %b : bf16 to f32
    %r = arith.addf %in, %wide : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %n = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b4 : tensor<1x2x3x3xf32>) outs(%e16 : tensor<1x2x3x3xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %r = arith.truncf %in : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<1x2x3x3xbf16>
  %sq = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n : tensor<1x2x3x3xbf16>) outs(%e16 : tensor<1x2x3x3xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %r = arith.mulf %in, %in : bf16
    linalg.yield %r : bf16
  } -> tensor<1x2x3x3xbf16>
  return %sq : tensor<1x2x3x3xbf16>
}
// CHECK-LABEL: func.func @conv_bn_square_bf16(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
// CHECK-NOT:   bf16
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK-NOT:   bf16
// CHECK:       arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:  linalg.yield %{{.*}} : f32
// CHECK-NEXT:  } -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  return %{{.*}} : tensor<1x2x3x3xf32>
// REMARK:      heir-widen-half: @conv_bn_square_bf16 computes in f32 (CKKS slots hold reals, not f16): its signature is now (tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>; encode its inputs as f32
// WIDEN-OFF-LABEL: func.func @conv_bn_square_bf16(%x: tensor<1x2x4x4xbf16>) -> tensor<1x2x3x3xbf16> {
// WIDEN-OFF:       linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xbf16>, tensor<2x2x2x2xbf16>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CKKS:        ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @conv_bn_square_f32(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<[[[[0.5, -1.0], [0.25, 2.0]], [[1.0, 0.5], [-0.5, 0.25]]], [[[-1.0, 0.75], [0.5, 0.5]], [[0.25, -0.25], [1.0, -1.5]]]]> : tensor<2x2x2x2xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %mean = arith.constant dense<[[[0.25]], [[-0.5]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[1.25]], [[0.75]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[0.125]], [[-0.25]]]> : tensor<2x1x1xf32>
  %e32 = tensor.empty() : tensor<1x2x3x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e32 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%acc : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %b1 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %mean : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %r = arith.subf %in, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b2 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1, %inv : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %r = arith.mulf %in, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b3 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2, %gamma : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %r = arith.mulf %in, %g : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %b4 = linalg.generic {indexing_maps = [#map, #chan, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b3, %beta : tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %r = arith.addf %in, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  %sq = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b4 : tensor<1x2x3x3xf32>) outs(%e32 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  return %sq : tensor<1x2x3x3xf32>
}
// CHECK-LABEL: func.func @conv_bn_square_f32(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
// CHECK:       linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK:       arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:  linalg.yield %{{.*}} : f32
// CHECK-NEXT:  } -> tensor<1x2x3x3xf32>
// CHECK-NEXT:  return %{{.*}} : tensor<1x2x3x3xf32>
// WIDEN-OFF-LABEL: func.func @conv_bn_square_f32(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32> {
// WIDEN-OFF:       linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CKKS:        ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]
