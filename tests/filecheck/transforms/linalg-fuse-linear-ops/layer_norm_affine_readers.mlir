// LayerNorm's gamma and beta folded FORWARD into EACH linear op that reads the LayerNorm
// (`forward_affine_folds.FoldAffineIntoNextLinearOp`, issue 37): DeiT's final LayerNorm is
// read by two heads through two `extract_slice`s (class and distillation token); ConvNeXt's
// stem LayerNorm by the first depthwise conv and by the first block's residual add. Each
// linear reader that reads the value through channel-preserving layout ops gets its own
// scaled weight and `W b` init; every other reader (a residual add, a nonlinearity, a slice
// that cuts the channel, a shift before a pad) keeps the scaled value, and a layout op that
// such a reader reads too is copied for the linear readers. `%n` stands for the ct x ct
// normalisation `(x - mean) * rstd`.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR
// IREE's rule (max-mac-growth=1, as iree-prepare runs linalg-fuse-ops): a fold only when
// every reader takes it (the step goes); no split, which would keep the step, copy the
// layout op and leave the normalisation two consumers (one more IREE dispatch).
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-ops{max-mac-growth=1 pointwise=false linear-chains=false conv-pool=false}' | filecheck %s --check-prefix=IREE

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// DeiT's two heads: both slices keep every channel (the limit of the slice guard), so
// gamma and beta go into both Linears and the LayerNorm's affine generics are gone.
// CHECK-LABEL: func.func @two_heads
// CHECK-DAG:     %[[WA:.*]] = arith.constant dense<{{\[\[}}2.000000e+00, 0.000000e+00], [1.000000e+00, -5.000000e-01], [-3.000000e+00, -1.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG:     %[[WB:.*]] = arith.constant dense<{{\[\[}}0.000000e+00, 2.000000e+00], [5.000000e-01, 5.000000e-01], [1.000000e+00, -2.000000e+00]]> : tensor<3x2xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[CLS:.*]] = tensor.extract_slice %n[0, 0, 0] [1, 1, 3] [1, 1, 1]
// CHECK:         %[[DIST:.*]] = tensor.extract_slice %n[0, 1, 0] [1, 1, 3] [1, 1, 1]
// CHECK:         arith.constant dense<[0.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[WA]] :
// CHECK:         arith.constant dense<[-3.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[WB]] :
// IREE-LABEL: func.func @two_heads
// IREE-NOT:     linalg.generic
// IREE:         linalg.matmul
// IREE:         linalg.matmul
// MLIR-LABEL: func.func @two_heads
func.func @two_heads(%n: tensor<1x3x3xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %b = arith.constant dense<[1.0, -2.0, 1.0]> : tensor<3xf32>
  %wa = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %wb = arith.constant dense<[[0.0, 1.0], [1.0, 1.0], [-1.0, 2.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<1x3x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x3x3xf32>, tensor<3xf32>) outs(%e : tensor<1x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x3x3xf32>
  %t = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %b : tensor<1x3x3xf32>, tensor<3xf32>) outs(%e : tensor<1x3x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.addf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x3x3xf32>
  %cls = tensor.extract_slice %t[0, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<1x3x3xf32> to tensor<1x1x3xf32>
  %fa = tensor.collapse_shape %cls [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
  %dist = tensor.extract_slice %t[0, 1, 0] [1, 1, 3] [1, 1, 1] : tensor<1x3x3xf32> to tensor<1x1x3xf32>
  %fb = tensor.collapse_shape %dist [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2xf32>) -> tensor<1x2xf32>
  %ma = linalg.matmul ins(%fa, %wa : tensor<1x3xf32>, tensor<3x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mb = linalg.matmul ins(%fb, %wb : tensor<1x3xf32>, tensor<3x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %ma, %mb : tensor<1x2xf32>, tensor<1x2xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c4 = affine_map<(d0, d1, d2, d3) -> (d3)>
// ConvNeXt's stem LayerNorm: the NHWC -> NCHW transpose is read by the first block's
// depthwise conv (through its zero pad) and by the block's residual add. The conv takes
// gamma through a copy of the transpose of the unscaled value; the add keeps the scaled one.
// CHECK-LABEL: func.func @stem_residual
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[\[\[}}3.000000e+00, 6.000000e+00], [1.500000e+00, -3.000000e+00]], {{\[\[}}-1.000000e+00, -0.000000e+00], [-5.000000e-01, -5.000000e-01]]]> : tensor<2x2x2xf32>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%n, %{{.*}} :
// CHECK:         %[[P:.*]] = linalg.transpose ins(%[[S]] :
// CHECK:         %[[Q:.*]] = linalg.transpose ins(%n :
// CHECK:         %[[PAD:.*]] = tensor.pad %[[Q]]
// CHECK:         linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%[[PAD]], %[[W]] :
// CHECK:         arith.addf %[[P]], %x
// IREE-LABEL: func.func @stem_residual
// IREE:         %[[S:.*]] = linalg.generic
// IREE:         %[[P:.*]] = linalg.transpose ins(%[[S]] :
// IREE-NOT:     linalg.transpose
// IREE:         tensor.pad %[[P]]
// IREE:         linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %w :
// IREE-LABEL: func.func @slice_limit(
// MLIR-LABEL: func.func @stem_residual
func.func @stem_residual(%n: tensor<1x2x2x2xf32>, %x: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %g = arith.constant dense<[3.0, -0.5]> : tensor<2xf32>
  %w = arith.constant dense<[[[1.0, 2.0], [0.5, -1.0]], [[2.0, 0.0], [1.0, 1.0]]]> : tensor<2x2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %s = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x2xf32>
  %p = linalg.transpose ins(%s : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) permutation = [0, 3, 1, 2]
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %p low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x2x2xf32> to tensor<1x2x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x2x3x3xf32>, tensor<2x2x2xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = arith.addf %p, %x : tensor<1x2x2x2xf32>
  return %c, %r : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// The slice guard at its limit and on each side: the slice of all 3 channels folds, the
// slices of 2 (offset 0, one channel short; offset 1) keep reading the scaled value.
// CHECK-LABEL: func.func @slice_limit
// CHECK-DAG:     %[[G:.*]] = arith.constant dense<[2.000000e+00, 5.000000e-01, -1.000000e+00]>
// CHECK-DAG:     %[[WA:.*]] = arith.constant dense<{{\[\[}}2.000000e+00, 0.000000e+00], [1.000000e+00, -5.000000e-01], [-3.000000e+00, -1.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG:     %[[WB:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [2.000000e+00, -1.000000e+00]]> : tensor<2x2xf32>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%n, %[[G]] :
// CHECK:         tensor.extract_slice %n[0, 0, 0] [1, 1, 3] [1, 1, 1]
// CHECK:         tensor.extract_slice %[[S]][0, 0, 0] [1, 1, 2] [1, 1, 1]
// CHECK:         tensor.extract_slice %[[S]][0, 0, 1] [1, 1, 2] [1, 1, 1]
// CHECK:         linalg.matmul ins(%{{.*}}, %[[WA]] :
// CHECK:         linalg.matmul ins(%{{.*}}, %[[WB]] :
// CHECK:         linalg.matmul ins(%{{.*}}, %[[WB]] :
// MLIR-LABEL: func.func @slice_limit
func.func @slice_limit(%n: tensor<1x2x3xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %wa = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %wb = arith.constant dense<[[1.0, 0.0], [2.0, -1.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %all = tensor.extract_slice %s[0, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<1x2x3xf32> to tensor<1x1x3xf32>
  %fa = tensor.collapse_shape %all [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
  %short = tensor.extract_slice %s[0, 0, 0] [1, 1, 2] [1, 1, 1] : tensor<1x2x3xf32> to tensor<1x1x2xf32>
  %fb = tensor.collapse_shape %short [[0, 1], [2]] : tensor<1x1x2xf32> into tensor<1x2xf32>
  %shifted = tensor.extract_slice %s[0, 0, 1] [1, 1, 2] [1, 1, 1] : tensor<1x2x3xf32> to tensor<1x1x2xf32>
  %fc = tensor.collapse_shape %shifted [[0, 1], [2]] : tensor<1x1x2xf32> into tensor<1x2xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2xf32>) -> tensor<1x2xf32>
  %ma = linalg.matmul ins(%fa, %wa : tensor<1x3xf32>, tensor<3x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mb = linalg.matmul ins(%fb, %wb : tensor<1x2xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mc = linalg.matmul ins(%fc, %wb : tensor<1x2xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %ma, %mb, %mc : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// A nonlinearity beside the Linear: the relu keeps the scaled value, the Linear's
// collapse_shape (read by the Linear only) reads the unscaled one, no copy.
// CHECK-LABEL: func.func @relu_beside
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<{{\[\[}}2.000000e+00, 0.000000e+00], [1.000000e+00, -5.000000e-01], [-3.000000e+00, -1.000000e+00]]> : tensor<3x2xf32>
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK:         %[[F:.*]] = tensor.collapse_shape %n
// CHECK:         linalg.matmul ins(%[[F]], %[[W]] :
// CHECK:         linalg.generic {{.*}} ins(%[[S]] :
// CHECK:           arith.maximumf
// MLIR-LABEL: func.func @relu_beside
func.func @relu_beside(%n: tensor<1x2x3xf32>) -> (tensor<2x2xf32>, tensor<1x2x3xf32>) {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0], [3.0, 1.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %flat = tensor.collapse_shape %s [[0, 1], [2]] : tensor<1x2x3xf32> into tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  return %m, %r : tensor<2x2xf32>, tensor<1x2x3xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// Must not fire: no linear reader (a relu, and a Linear behind a slice that cuts a channel).
// CHECK-LABEL: func.func @no_linear_reader
// CHECK-DAG:     %[[G:.*]] = arith.constant dense<[2.000000e+00, 5.000000e-01, -1.000000e+00]>
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [2.000000e+00, -1.000000e+00]]> : tensor<2x2xf32>
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%n, %[[G]] :
// CHECK:         tensor.extract_slice %[[S]][0, 0, 1] [1, 1, 2] [1, 1, 1]
// CHECK:         linalg.matmul ins(%{{.*}}, %[[W]] :
// CHECK:         linalg.generic {{.*}} ins(%[[S]] :
// MLIR-LABEL: func.func @no_linear_reader
func.func @no_linear_reader(%n: tensor<1x2x3xf32>) -> (tensor<1x2xf32>, tensor<1x2x3xf32>) {
  %g = arith.constant dense<[2.0, 0.5, -1.0]> : tensor<3xf32>
  %w = arith.constant dense<[[1.0, 0.0], [2.0, -1.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x3xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g : tensor<1x2x3xf32>, tensor<3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.mulf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  %part = tensor.extract_slice %s[0, 0, 1] [1, 1, 2] [1, 1, 1] : tensor<1x2x3xf32> to tensor<1x1x2xf32>
  %flat = tensor.collapse_shape %part [[0, 1], [2]] : tensor<1x1x2xf32> into tensor<1x2xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2xf32>) -> tensor<1x2xf32>
  %m = linalg.matmul ins(%flat, %w : tensor<1x2xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x3xf32>) outs(%e : tensor<1x2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x3xf32>
  return %m, %r : tensor<1x2xf32>, tensor<1x2x3xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c4 = affine_map<(d0, d1, d2, d3) -> (d3)>
// A shift read by a 1x1 conv and, through a zero pad, by a depthwise conv: the pad would
// read the shift, so the depthwise conv keeps the shifted value; the 1x1 conv takes W b
// through a copy of the shared transpose.
// CHECK-LABEL: func.func @shift_pad_and_conv
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<[3.000000e+00, -5.000000e-01]>
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%n, %[[B]] :
// CHECK:         %[[P:.*]] = linalg.transpose ins(%[[T]] :
// CHECK:         %[[Q:.*]] = linalg.transpose ins(%n :
// CHECK:         tensor.pad %[[P]]
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK:         %[[I:.*]] = arith.constant dense<[2.500000e+00, 5.500000e+00]> : tensor<2xf32>
// CHECK:         %[[BI:.*]] = linalg.broadcast ins(%[[I]]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%[[Q]], %{{.*}} : {{.*}}) outs(%[[BI]] :
// MLIR-LABEL: func.func @shift_pad_and_conv
func.func @shift_pad_and_conv(%n: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %b = arith.constant dense<[3.0, -0.5]> : tensor<2xf32>
  %w = arith.constant dense<[[[1.0, 2.0], [0.5, -1.0]], [[2.0, 0.0], [1.0, 1.0]]]> : tensor<2x2x2xf32>
  %w1 = arith.constant dense<[[[[1.0]], [[1.0]]], [[[2.0]], [[1.0]]]]> : tensor<2x2x1x1xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %t = linalg.generic {indexing_maps = [#id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%n, %b : tensor<1x2x2x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %0 = arith.addf %in, %k : f32
    linalg.yield %0 : f32
  } -> tensor<1x2x2x2xf32>
  %p = linalg.transpose ins(%t : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) permutation = [0, 3, 1, 2]
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %p low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x2x2x2xf32> to tensor<1x2x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %w : tensor<1x2x3x3xf32>, tensor<2x2x2xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w1 : tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %c, %d : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}

// -----

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c3 = affine_map<(d0, d1, d2) -> (d2)>
// torch-mlir's f16 form of DeiT's heads: the LayerNorm computes in f32 (its f16 gamma and
// beta widened), its result is rounded to f16, and both heads read f16 slices with f16
// weights accumulating in f32. Each folded weight is computed in float64 and rounded to
// f16 once; each init takes W beta in f32; the truncf stays.
// CHECK-LABEL: func.func @half_two_heads
// CHECK-DAG:     %[[WA:.*]] = arith.constant dense<{{\[\[}}3.000000e+00, 0.000000e+00], [-1.500000e+00, 7.500000e-01]]> : tensor<2x2xf16>
// CHECK-DAG:     %[[WB:.*]] = arith.constant dense<{{\[\[}}7.500000e-01, 1.500000e+00], [-7.500000e-01, -7.500000e-01]]> : tensor<2x2xf16>
// CHECK:         %[[H:.*]] = linalg.generic {{.*}} ins(%n : tensor<1x2x2xf32>) outs(%{{.*}} : tensor<1x2x2xf16>)
// CHECK:           arith.truncf
// CHECK-NOT:     linalg.generic
// CHECK:         tensor.extract_slice %[[H]][0, 0, 0] [1, 1, 2] [1, 1, 1]
// CHECK:         tensor.extract_slice %[[H]][0, 1, 0] [1, 1, 2] [1, 1, 1]
// CHECK:         arith.constant dense<[1.500000e+00, -5.000000e-01]> : tensor<2xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[WA]] : tensor<1x2xf16>, tensor<2x2xf16>) outs(%{{.*}} : tensor<1x2xf32>)
// CHECK:         arith.constant dense<[6.250000e-01, 7.500000e-01]> : tensor<2xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[WB]] : tensor<1x2xf16>, tensor<2x2xf16>) outs(%{{.*}} : tensor<1x2xf32>)
// MLIR-LABEL: func.func @half_two_heads
func.func @half_two_heads(%n: tensor<1x2x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %g16 = arith.constant dense<[1.5, -0.75]> : tensor<2xf16>
  %b16 = arith.constant dense<[0.25, 0.5]> : tensor<2xf16>
  %wa = arith.constant dense<[[2.0, 0.0], [2.0, -1.0]]> : tensor<2x2xf16>
  %wb = arith.constant dense<[[0.5, 1.0], [1.0, 1.0]]> : tensor<2x2xf16>
  %e = tensor.empty() : tensor<1x2x2xf32>
  %s = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %g16 : tensor<1x2x2xf32>, tensor<2xf16>) outs(%e : tensor<1x2x2xf32>) {
  ^bb0(%in: f32, %k: f16, %out: f32):
    %0 = arith.extf %k : f16 to f32
    %1 = arith.mulf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x2xf32>
  %t = linalg.generic {indexing_maps = [#id3, #c3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %b16 : tensor<1x2x2xf32>, tensor<2xf16>) outs(%e : tensor<1x2x2xf32>) {
  ^bb0(%in: f32, %k: f16, %out: f32):
    %0 = arith.extf %k : f16 to f32
    %1 = arith.addf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x2x2xf32>
  %e16 = tensor.empty() : tensor<1x2x2xf16>
  %h = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<1x2x2xf32>) outs(%e16 : tensor<1x2x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %0 = arith.truncf %in : f32 to f16
    linalg.yield %0 : f16
  } -> tensor<1x2x2xf16>
  %cls = tensor.extract_slice %h[0, 0, 0] [1, 1, 2] [1, 1, 1] : tensor<1x2x2xf16> to tensor<1x1x2xf16>
  %fa = tensor.collapse_shape %cls [[0, 1], [2]] : tensor<1x1x2xf16> into tensor<1x2xf16>
  %dist = tensor.extract_slice %h[0, 1, 0] [1, 1, 2] [1, 1, 1] : tensor<1x2x2xf16> to tensor<1x1x2xf16>
  %fb = tensor.collapse_shape %dist [[0, 1], [2]] : tensor<1x1x2xf16> into tensor<1x2xf16>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2xf32>) -> tensor<1x2xf32>
  %ma = linalg.matmul ins(%fa, %wa : tensor<1x2xf16>, tensor<2x2xf16>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mb = linalg.matmul ins(%fb, %wb : tensor<1x2xf16>, tensor<2x2xf16>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  return %ma, %mb : tensor<1x2xf32>, tensor<1x2xf32>
}
