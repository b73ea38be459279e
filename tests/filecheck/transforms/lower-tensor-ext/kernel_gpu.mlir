// lower-tensor-ext{target=gpu}: a kernel whose root is a 1x1 unit-stride conv becomes a
// contraction generic in the epilogue's loop order with the weights as its first operand,
// and the epilogue reads it through the identity. IREE keeps the two in one dispatch and
// tiles the contraction 32x32 on CUDA and ROCm, where the default form (conv + expand_shape
// + transpose) gets 128x8 tiles (docs/iree.md, "On a GPU"). Other kernels lower as for
// the CPU.
// RUN: heirpy-opt %s --split-input-file -p "lower-tensor-ext{target=gpu}" | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p "lower-tensor-ext{target=gpu}" | heir-opt --split-input-file | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --split-input-file -p "lower-tensor-ext{target=gpu}" | iree-opt --split-input-file | filecheck %s --check-prefix=MLIR

// The half head: f16 image and weights, an f32 bias init, truncf + sigmoid through
// reshape 6 -> 2x3 + transpose.
func.func @half(%x: tensor<1x8x4x4xf16>, %w: tensor<6x8x1x1xf16>, %b: tensor<6xf32>) -> tensor<1x2x4x4x3xf16> {
  %r = tensor_ext.kernel ins(%x, %w, %b : tensor<1x8x4x4xf16>, tensor<6x8x1x1xf16>, tensor<6xf32>) -> tensor<1x2x4x4x3xf16> {
  ^bb0(%xi: tensor<1x8x4x4xf16>, %wi: tensor<6x8x1x1xf16>, %bi: tensor<6xf32>):
    %one = arith.constant 1.0 : f16
    %e = tensor.empty() : tensor<1x6x4x4xf32>
    %acc = linalg.broadcast ins(%bi : tensor<6xf32>) outs(%e : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
    %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : tensor<1x8x4x4xf16>, tensor<6x8x1x1xf16>) outs(%acc : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %o = tensor.empty() : tensor<1x2x4x4x3xf16>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x4x4xf32>) outs(%o : tensor<1x2x4x4x3xf16>) {
    ^bb0(%in: f32, %out: f16):
      %t = arith.truncf %in : f32 to f16
      %n = arith.negf %t : f16
      %x1 = math.exp %n : f16
      %d = arith.addf %x1, %one : f16
      %q = arith.divf %one, %d : f16
      linalg.yield %q : f16
    } -> tensor<1x2x4x4x3xf16>
    tensor_ext.yield %s : tensor<1x2x4x4x3xf16>
  }
  return %r : tensor<1x2x4x4x3xf16>
}
// CHECK-DAG: #[[WMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>
// CHECK-DAG: #[[XMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d2, d3)>
// CHECK-DAG: #[[OMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[BMAP:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK-LABEL: func.func @half(
// CHECK-SAME:    %[[X:.*]]: tensor<1x8x4x4xf16>, %[[W:.*]]: tensor<6x8x1x1xf16>, %[[B:.*]]: tensor<6xf32>)
// CHECK-NOT:   {{tensor_ext|linalg.conv|linalg.transpose|linalg.broadcast}}
// CHECK:       %[[W2:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<6x8x1x1xf16> into tensor<6x8xf16>
// CHECK-NEXT:  %[[W3:.*]] = tensor.expand_shape %[[W2]] {{\[}}[0, 1], [2]] output_shape [2, 3, 8] : tensor<6x8xf16> into tensor<2x3x8xf16>
// CHECK-NEXT:  %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<1x2x4x4x3xf32>
// CHECK-NEXT:  %[[C:.*]] = linalg.generic {indexing_maps = [#[[WMAP]], #[[XMAP]], #[[OMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[W3]], %[[X]] : tensor<2x3x8xf16>, tensor<1x8x4x4xf16>) outs(%[[Z]] : tensor<1x2x4x4x3xf32>)
// CHECK-NEXT:  ^bb0(%[[WI:.*]]: f16, %[[XI:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[WE:.*]] = arith.extf %[[WI]] : f16 to f32
// CHECK-NEXT:    %[[XE:.*]] = arith.extf %[[XI]] : f16 to f32
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[WE]], %[[XE]] : f32
// CHECK-NEXT:    %[[A:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT:    linalg.yield %[[A]] : f32
// CHECK:       %[[B2:.*]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK-NEXT:  %[[S:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[BMAP]], #[[ID]]]{{.*}} ins(%[[C]], %[[B2]] :
// CHECK-NEXT:  ^bb0(%[[IN:.*]]: f32, %[[BIAS:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[IN]], %[[BIAS]] : f32
// CHECK-NEXT:    arith.truncf %[[SUM]] : f32 to f16
// CHECK:       return %[[S]]

// MLIR-LABEL: func.func @half(
// MLIR-NOT:   {{tensor_ext|linalg.conv|linalg.transpose}}
// MLIR:       linalg.generic
// MLIR-SAME:  "reduction"
// MLIR:       linalg.generic
// MLIR-NOT:   {{tensor_ext|linalg.generic}}
// MLIR:       return

// -----

// Must keep the CPU form: a 3x3 conv needs IREE's conv code generation (the named op),
// so the permutation stays in the epilogue's read, as with target=cpu.
// CHECK-LABEL: func.func @three_by_three(
// CHECK:       linalg.conv_2d_nchw_fchw
// CHECK-NOT:   "reduction"
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%{{.*}}, %{{.*}} : tensor<1x2x3x4x4xf32>, tensor<2x3xf32>)
// CHECK:       return
// MLIR-LABEL: func.func @three_by_three(
// MLIR:       linalg.conv_2d_nchw_fchw
// MLIR:       return
func.func @three_by_three(%x: tensor<1x8x6x6xf32>, %w: tensor<6x8x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  %r = tensor_ext.kernel ins(%x, %w, %b : tensor<1x8x6x6xf32>, tensor<6x8x3x3xf32>, tensor<6xf32>) -> tensor<1x2x4x4x3xf32> {
  ^bb0(%xi: tensor<1x8x6x6xf32>, %wi: tensor<6x8x3x3xf32>, %bi: tensor<6xf32>):
    %e = tensor.empty() : tensor<1x6x4x4xf32>
    %acc = linalg.broadcast ins(%bi : tensor<6xf32>) outs(%e : tensor<1x6x4x4xf32>) dimensions = [0, 2, 3]
    %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : tensor<1x8x6x6xf32>, tensor<6x8x3x3xf32>) outs(%acc : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %o = tensor.empty() : tensor<1x2x4x4x3xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x4x4xf32>) outs(%o : tensor<1x2x4x4x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<1x2x4x4x3xf32>
    tensor_ext.yield %s : tensor<1x2x4x4x3xf32>
  }
  return %r : tensor<1x2x4x4x3xf32>
}

// -----

// Must keep the CPU form: a stride-2 1x1 conv is no contraction over the image's own
// positions (IREE does not fold into it either).
// CHECK-LABEL: func.func @strided(
// CHECK:       linalg.conv_2d_nchw_fchw
// CHECK-NOT:   "reduction"
// CHECK:       return
// MLIR-LABEL: func.func @strided(
// MLIR:       linalg.conv_2d_nchw_fchw
// MLIR:       return
func.func @strided(%x: tensor<1x8x8x8xf32>, %w: tensor<6x8x1x1xf32>) -> tensor<1x2x4x4x3xf32> {
  %r = tensor_ext.kernel ins(%x, %w : tensor<1x8x8x8xf32>, tensor<6x8x1x1xf32>) -> tensor<1x2x4x4x3xf32> {
  ^bb0(%xi: tensor<1x8x8x8xf32>, %wi: tensor<6x8x1x1xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x6x4x4xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xi, %wi : tensor<1x8x8x8xf32>, tensor<6x8x1x1xf32>) outs(%acc : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %o = tensor.empty() : tensor<1x2x4x4x3xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 3 + d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x4x4xf32>) outs(%o : tensor<1x2x4x4x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<1x2x4x4x3xf32>
    tensor_ext.yield %s : tensor<1x2x4x4x3xf32>
  }
  return %r : tensor<1x2x4x4x3xf32>
}

// -----

// Must keep the CPU form: the epilogue has a loop the conv's result does not have (it
// writes each value twice), so no contraction in its loop order computes the root.
// CHECK-LABEL: func.func @broadcast_read(
// CHECK:       linalg.conv_2d_nchw_fchw
// CHECK-NOT:   "reduction"
// CHECK:       return
// MLIR-LABEL: func.func @broadcast_read(
// MLIR:       linalg.conv_2d_nchw_fchw
// MLIR:       return
func.func @broadcast_read(%x: tensor<1x8x4x4xf32>, %w: tensor<6x8x1x1xf32>) -> tensor<2x1x4x4x6xf32> {
  %r = tensor_ext.kernel ins(%x, %w : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) -> tensor<2x1x4x4x6xf32> {
  ^bb0(%xi: tensor<1x8x4x4xf32>, %wi: tensor<6x8x1x1xf32>):
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x6x4x4xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi : tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) outs(%acc : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    %o = tensor.empty() : tensor<2x1x4x4x6xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x4x4xf32>) outs(%o : tensor<2x1x4x4x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<2x1x4x4x6xf32>
    tensor_ext.yield %s : tensor<2x1x4x4x6xf32>
  }
  return %r : tensor<2x1x4x4x6xf32>
}
