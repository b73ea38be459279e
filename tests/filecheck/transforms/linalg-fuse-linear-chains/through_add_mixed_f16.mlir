// Linear chains through a skip connection in torch-mlir's f16 form (issue 34; YOLO11n's
// PSA block: `ffn1(proj(h) + x)`): the branch's conv reads f16 and accumulates in f32, a
// truncf generic rounds it to f16 before the f16 add, and the conv after the add reads
// the f16 sum into an f32 accumulator. The branch ends at the f32 value and the rounding
// goes with the add (the mixed-precision rule: a linear run is rounded once, where it
// ends), so the conv composes with the branch as in f32: one level, the composed filter
// rounded once to the filter's f16, the kept conv of the skip as the fused conv's init.
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | filecheck %s
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains | iree-opt | filecheck %s --check-prefix=REPARSE
// RUN: heirpy-opt %s -p report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains,report-depth 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: heirpy-opt %s -p linalg-fuse-linear-chains -o %t
// RUN: heirpy-equiv %s %t --function mixed_residual --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function mixed_rounding_shared --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function mixed_relu_rounding | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent
// REPARSE: func.func @mixed_residual
// BEFORE: @mixed_residual {{ +}}2 
// BEFORE: @mixed_relu_rounding {{ +}}2 
// BEFORE: @mixed_rounding_shared {{ +}}2 
// AFTER: @mixed_residual {{ +}}1 
// AFTER: @mixed_relu_rounding {{ +}}2 
// AFTER: @mixed_rounding_shared {{ +}}1 
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// The rounding and the add go; the composed 3x2 filter is f16, the accumulator f32.
// CHECK-LABEL: func.func @mixed_residual
// CHECK-NOT: arith.truncf
// CHECK: %[[KEPT:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<3x2x1x1xf16>
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%[[KEPT]] : tensor<1x3x4x4xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @mixed_residual(%x: tensor<1x2x4x4xf16>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %eh = tensor.empty() : tensor<1x2x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x2x4x4xf32>) outs(%eh : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %t : tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) outs(%eh : tensor<1x2x4x4xf16>) {
  ^bb0(%p: f16, %q: f16, %out: f16):
    %r = arith.addf %p, %q : f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

// A relu in the rounding generic is a nonlinearity: nothing composes.
// CHECK-LABEL: func.func @mixed_relu_rounding
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: arith.maximumf
// CHECK: arith.addf
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
func.func @mixed_relu_rounding(%x: tensor<1x2x4x4xf16>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %eh = tensor.empty() : tensor<1x2x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x2x4x4xf32>) outs(%eh : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %c0 = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %c0 : f32
    %r = arith.truncf %m : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %t : tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) outs(%eh : tensor<1x2x4x4xf16>) {
  ^bb0(%p: f16, %q: f16, %out: f16):
    %r = arith.addf %p, %q : f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

// The rounded branch is also returned: it stays for that reader, the composed conv beside.
// CHECK-LABEL: func.func @mixed_rounding_shared
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w1
// CHECK: arith.truncf
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %w2
// CHECK: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %{{.*}} : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>)
// CHECK: return %[[R]], %t
func.func @mixed_rounding_shared(%x: tensor<1x2x4x4xf16>) -> (tensor<1x3x4x4xf32>, tensor<1x2x4x4xf16>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[0.250]], [[0.794]]], [[[0.551]], [[-0.550]]]]> : tensor<2x2x1x1xf16>
  %w2 = arith.constant dense<[[[[-0.400]], [[0.747]]], [[[-0.989]], [[0.642]]], [[[0.594]], [[-0.064]]]]> : tensor<3x2x1x1xf16>
  %ea = tensor.empty() : tensor<1x2x4x4xf32>
  %za = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) outs(%za : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %eh = tensor.empty() : tensor<1x2x4x4xf16>
  %t = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x2x4x4xf32>) outs(%eh : tensor<1x2x4x4xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %t : tensor<1x2x4x4xf16>, tensor<1x2x4x4xf16>) outs(%eh : tensor<1x2x4x4xf16>) {
  ^bb0(%p: f16, %q: f16, %out: f16):
    %r = arith.addf %p, %q : f16
    linalg.yield %r : f16
  } -> tensor<1x2x4x4xf16>
  %er = tensor.empty() : tensor<1x3x4x4xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%s, %w2 : tensor<1x2x4x4xf16>, tensor<3x2x1x1xf16>) outs(%zr : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r, %t : tensor<1x3x4x4xf32>, tensor<1x2x4x4xf16>
}
