// policy=diagonals on a conv reading a concat over the channels (GhostNet's ghost module:
// cat([primary, cheap]) then a depthwise conv). orion_cost laid the concat out as its
// first operand (2 channels) while the conv's weights have 4, so the diagonal count
// tapped slots past Orion's matrix: "index 155 is out of bounds for axis 0 with size 128"
// at 16 slots (GhostNet-050 at 8192: "index 20350 ... size 16384"), a wrong count below
// that. The concat now has its own 4-channel layout (orion_cost.regrouped); the
// depthwise 3x3 + 1x1 chain is counted and refused (a dense 3x3 conv packs more).
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations{policy=diagonals orion-slots=16},linalg-fuse-ops{slot-budget=0 policy=diagonals orion-slots=16}' | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations{policy=diagonals},linalg-fuse-ops{slot-budget=0 policy=diagonals}' | filecheck %s

func.func @ghost_concat(%a: tensor<1x2x4x4xf32>, %b: tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %cat = tensor.concat dim(1) %a, %b : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %p = tensor.pad %cat low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
  %dw = arith.constant dense<0.5> : tensor<4x3x3xf32>
  %pw = arith.constant dense<0.25> : tensor<4x4x1x1xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %dw : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %pw : tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c : tensor<1x4x4x4xf32>
}
// CHECK-LABEL: func.func @ghost_concat(
// CHECK: tensor.concat
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x4x4x4xf32>
// CHECK-NEXT: return

// -----

// f16 in torch-mlir's mixed form (f32 accumulators, truncf / extf) around the same chain.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @ghost_concat_f16(%a: tensor<1x2x4x4xf16>, %b: tensor<1x2x4x4xf16>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f16
  %zero32 = arith.constant 0.0 : f32
  %cat = tensor.concat dim(1) %a, %b : (tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) -> tensor<1x4x4x4xf16>
  %p = tensor.pad %cat low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<1x4x4x4xf16> to tensor<1x4x6x6xf16>
  %dw = arith.constant dense<0.5> : tensor<4x3x3xf16>
  %pw = arith.constant dense<0.25> : tensor<4x4x1x1xf16>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero32 : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e16 = tensor.empty() : tensor<1x4x4x4xf16>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %dw : tensor<1x4x6x6xf16>, tensor<4x3x3xf16>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d : tensor<1x4x4x4xf32>) outs(%e16 : tensor<1x4x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x4x4x4xf16>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%t, %pw : tensor<1x4x4x4xf16>, tensor<4x4x1x1xf16>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c : tensor<1x4x4x4xf32>
}
// CHECK-LABEL: func.func @ghost_concat_f16(
// CHECK: tensor.concat
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} -> tensor<1x4x4x4xf32>
// CHECK: arith.truncf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<1x4x4x4xf32>
// CHECK-NEXT: return
