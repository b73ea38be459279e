// Scales, weights, biases and inits that are run-time plaintext: function arguments
// without `secret.secret` (HEIR's rule: only marked arguments, and what is computed
// from them, are secret). numpy cannot fold them, so the fold is written as plaintext
// ops before the linear op; the linear op's result then takes no multiplication.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-ops{bias-into-init=false}' | filecheck %s --check-prefix=KEEP

// HEIR's doctest form: a column scale and a bias, both arguments, after a matmul.
func.func @arg_scale_and_bias(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e1 = tensor.empty() : tensor<2x4xf32>
  %sb = linalg.broadcast ins(%s : tensor<4xf32>) outs(%e1 : tensor<2x4xf32>) dimensions = [0]
  %ms = arith.mulf %m, %sb : tensor<2x4xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e2 : tensor<2x4xf32>) dimensions = [0]
  %r = arith.addf %ms, %bb : tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @arg_scale_and_bias(
// CHECK-NEXT: %[[EW:.*]] = tensor.empty() : tensor<3x4xf32>
// CHECK-NEXT: %[[SW:.*]] = linalg.broadcast ins(%s : tensor<4xf32>) outs(%[[EW]] : tensor<3x4xf32>) dimensions = [0]
// CHECK-NEXT: %[[W:.*]] = arith.mulf %w, %[[SW]] : tensor<3x4xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT: %[[BB:.*]] = linalg.broadcast ins(%b : tensor<4xf32>) outs(%[[E2]] : tensor<2x4xf32>) dimensions = [0]
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%x, %[[W]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[BB]] : tensor<2x4xf32>)
// CHECK-NEXT: return %[[R]]
// With linalg-fuse-ops' bias rule the scale still moves; the bias stays an add.
// KEEP-LABEL: func.func @arg_scale_and_bias(
// KEEP:      %[[W:.*]] = arith.mulf %w, %{{.*}} : tensor<3x4xf32>
// KEEP:      %[[M:.*]] = linalg.matmul ins(%x, %[[W]] : {{.*}}) outs(%e : tensor<2x4xf32>)
// KEEP:      %[[R:.*]] = arith.addf %[[M]], %bb : tensor<2x4xf32>
// KEEP-NEXT: return %[[R]]

// -----

// A 1-D result: the scale is the argument itself; the weight of a matvec is on the left.
func.func @matvec_arg_scale(%a: tensor<2x3xf32>, %x: tensor<3xf32>, %s: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %ms = arith.divf %m, %s : tensor<2xf32>
  %r = arith.subf %ms, %b : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @matvec_arg_scale(
// CHECK-NEXT: %[[EW:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT: %[[SW:.*]] = linalg.broadcast ins(%s : tensor<2xf32>) outs(%[[EW]] : tensor<2x3xf32>) dimensions = [1]
// CHECK-NEXT: %[[A:.*]] = arith.divf %a, %[[SW]] : tensor<2x3xf32>
// CHECK-NEXT: %[[NB:.*]] = arith.negf %b : tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matvec ins(%[[A]], %x : tensor<2x3xf32>, tensor<3xf32>) outs(%[[NB]] : tensor<2xf32>)
// CHECK-NEXT: return %[[R]]

// -----

// A depthwise conv's per-channel scale multiplies filter K[c]; a row scale of W @ x
// multiplies W's rows.
func.func @depthwise_and_row_scale(%x: tensor<1x2x3x3xf32>, %k: tensor<2x2x2xf32>, %s: tensor<2xf32>,
                                   %w: tensor<2x4xf32>, %y: tensor<4x5xf32>, %t: tensor<2xf32>) -> (tensor<1x2x2x2xf32>, tensor<2x5xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x2x3x3xf32>, tensor<2x2x2xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %e1 = tensor.empty() : tensor<1x2x2x2xf32>
  %sb = linalg.broadcast ins(%s : tensor<2xf32>) outs(%e1 : tensor<1x2x2x2xf32>) dimensions = [0, 2, 3]
  %cs = arith.mulf %sb, %c : tensor<1x2x2x2xf32>
  %e2 = tensor.empty() : tensor<2x5xf32>
  %m = linalg.matmul ins(%w, %y : tensor<2x4xf32>, tensor<4x5xf32>) outs(%e2 : tensor<2x5xf32>) -> tensor<2x5xf32>
  %e3 = tensor.empty() : tensor<2x5xf32>
  %tb = linalg.broadcast ins(%t : tensor<2xf32>) outs(%e3 : tensor<2x5xf32>) dimensions = [1]
  %ms = arith.mulf %m, %tb : tensor<2x5xf32>
  return %cs, %ms : tensor<1x2x2x2xf32>, tensor<2x5xf32>
}
// CHECK-LABEL: func.func @depthwise_and_row_scale(
// CHECK:      %[[SK:.*]] = linalg.broadcast ins(%s : tensor<2xf32>) outs(%{{.*}} : tensor<2x2x2xf32>) dimensions = [1, 2]
// CHECK-NEXT: %[[K:.*]] = arith.mulf %k, %[[SK]] : tensor<2x2x2xf32>
// CHECK-NEXT: %[[C:.*]] = linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%x, %[[K]] : {{.*}}) outs(%f : tensor<1x2x2x2xf32>)
// CHECK:      %[[SW:.*]] = linalg.broadcast ins(%t : tensor<2xf32>) outs(%{{.*}} : tensor<2x4xf32>) dimensions = [1]
// CHECK-NEXT: %[[W:.*]] = arith.mulf %w, %[[SW]] : tensor<2x4xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul ins(%[[W]], %y : {{.*}}) outs(%e2 : tensor<2x5xf32>)
// CHECK-NEXT: return %[[C]], %[[M]]

// -----

// A pre-existing accumulator (an argument) is scaled too, then takes the bias
// (HEIR scales only the weights: its expected output here is a miscompile).
func.func @arg_accumulator(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %s: tensor<4xf32>, %b: tensor<2x4xf32>, %acc: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  %e1 = tensor.empty() : tensor<2x4xf32>
  %sb = linalg.broadcast ins(%s : tensor<4xf32>) outs(%e1 : tensor<2x4xf32>) dimensions = [0]
  %ms = arith.mulf %m, %sb : tensor<2x4xf32>
  %r = arith.addf %b, %ms : tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @arg_accumulator(
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT: %[[SB:.*]] = linalg.broadcast ins(%s : tensor<4xf32>) outs(%[[E1]] : tensor<2x4xf32>) dimensions = [0]
// CHECK-NEXT: tensor.empty() : tensor<3x4xf32>
// CHECK-NEXT: %[[SW:.*]] = linalg.broadcast ins(%s
// CHECK-NEXT: %[[W:.*]] = arith.mulf %w, %[[SW]] : tensor<3x4xf32>
// CHECK-NEXT: %[[ACC:.*]] = arith.mulf %acc, %[[SB]] : tensor<2x4xf32>
// CHECK-NEXT: %[[INIT:.*]] = arith.addf %[[ACC]], %b : tensor<2x4xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%x, %[[W]] : {{.*}}) outs(%[[INIT]] : tensor<2x4xf32>)
// CHECK-NEXT: return %[[R]]
// KEEP-LABEL: func.func @arg_accumulator(
// KEEP:      %[[INIT:.*]] = arith.addf %{{.*}}, %b : tensor<2x4xf32>
// KEEP-NEXT: %[[R:.*]] = linalg.matmul ins(%x, %{{.*}} : {{.*}}) outs(%[[INIT]] : tensor<2x4xf32>)
// KEEP-NEXT: return %[[R]]

// -----

// Batch-norm with run-time parameters after a conv: (c - mean) * s + beta folds whole
// under both bias rules (the scale after the subtraction needs the conv's result).
func.func @arg_batch_norm(%x: tensor<1x1x3x3xf32>, %k: tensor<2x1x2x2xf32>, %mean: tensor<2xf32>, %s: tensor<2xf32>, %beta: tensor<2xf32>) -> tensor<1x2x2x2xf32> {
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %k : tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %e1 = tensor.empty() : tensor<1x2x2x2xf32>
  %mb = linalg.broadcast ins(%mean : tensor<2xf32>) outs(%e1 : tensor<1x2x2x2xf32>) dimensions = [0, 2, 3]
  %d = arith.subf %c, %mb : tensor<1x2x2x2xf32>
  %e2 = tensor.empty() : tensor<1x2x2x2xf32>
  %sb = linalg.broadcast ins(%s : tensor<2xf32>) outs(%e2 : tensor<1x2x2x2xf32>) dimensions = [0, 2, 3]
  %n = arith.mulf %d, %sb : tensor<1x2x2x2xf32>
  %e3 = tensor.empty() : tensor<1x2x2x2xf32>
  %bb = linalg.broadcast ins(%beta : tensor<2xf32>) outs(%e3 : tensor<1x2x2x2xf32>) dimensions = [0, 2, 3]
  %r = arith.addf %n, %bb : tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// CHECK-LABEL: func.func @arg_batch_norm(
// CHECK:      %[[NM:.*]] = arith.negf %mb : tensor<1x2x2x2xf32>
// CHECK:      %[[K:.*]] = arith.mulf %k, %{{.*}} : tensor<2x1x2x2xf32>
// CHECK-NEXT: %[[I1:.*]] = arith.mulf %[[NM]], %sb : tensor<1x2x2x2xf32>
// CHECK:      %[[I2:.*]] = arith.addf %[[I1]], %bb : tensor<1x2x2x2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[K]] : {{.*}}) outs(%[[I2]] : tensor<1x2x2x2xf32>)
// CHECK-NEXT: return %[[R]]
// KEEP-LABEL: func.func @arg_batch_norm(
// KEEP:      %[[R:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : tensor<1x2x2x2xf32>)
// KEEP-NEXT: return %[[R]]

// -----

// A generic that accumulates into its init (`out + a * b`) takes an argument bias.
#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @generic_accumulator(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %init: tensor<2x4xf32>, %bias: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %g = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%init : tensor<2x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.mulf %p, %q : f32
    %u = arith.addf %o, %t : f32
    linalg.yield %u : f32
  } -> tensor<2x4xf32>
  %r = arith.addf %g, %bias : tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @generic_accumulator(
// CHECK-NEXT: %[[I:.*]] = arith.addf %init, %bias : tensor<2x4xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} outs(%[[I]] : tensor<2x4xf32>)
// CHECK:      return %[[G]]
// An init that already holds something takes the bias under linalg-fuse-ops' rule too.
// KEEP-LABEL: func.func @generic_accumulator(
// KEEP-NEXT: %[[I:.*]] = arith.addf %init, %bias : tensor<2x4xf32>

// -----

// Must not fire: the generic reads its init twice (`out + out * a`), so a bias added to
// the init would be scaled too.
#id = affine_map<(d0) -> (d0)>
func.func @no_generic_reads_init_twice(%a: tensor<4xf32>, %init: tensor<4xf32>, %bias: tensor<4xf32>) -> tensor<4xf32> {
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %t = arith.mulf %o, %p : f32
    %u = arith.addf %o, %t : f32
    linalg.yield %u : f32
  } -> tensor<4xf32>
  %r = arith.addf %g, %bias : tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @no_generic_reads_init_twice(
// CHECK:      %[[G:.*]] = linalg.generic {{.*}} outs(%init : tensor<4xf32>)
// CHECK:      %[[R:.*]] = arith.addf %[[G]], %bias : tensor<4xf32>
// CHECK-NEXT: return %[[R]]

// -----

// Must not fire: a secret scale, a secret weight (the scale would make a new
// ciphertext multiplication), a secret bias, a secret accumulator.
func.func @no_secret_scale(%a: tensor<2x3xf32>, %x: tensor<3xf32>, %s: tensor<2xf32> {secret.secret}) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.mulf %m, %s : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @no_secret_scale(
// CHECK:      %[[M:.*]] = linalg.matvec ins(%a, %x
// CHECK-NEXT: arith.mulf %[[M]], %s

// -----

func.func @no_secret_weight(%a: tensor<2x3xf32> {secret.secret}, %x: tensor<3xf32>, %s: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.mulf %m, %s : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @no_secret_weight(
// CHECK:      %[[M:.*]] = linalg.matvec ins(%a, %x
// CHECK-NEXT: arith.mulf %[[M]], %s

// -----

func.func @no_secret_bias(%a: tensor<2x3xf32>, %x: tensor<3xf32>, %b: tensor<2xf32> {secret.secret}) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %m = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %sq = arith.mulf %b, %b : tensor<2xf32>
  %r = arith.addf %m, %sq : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @no_secret_bias(
// CHECK:      %[[M:.*]] = linalg.matvec ins(%a, %x
// CHECK:      arith.addf %[[M]], %sq

// -----

func.func @no_secret_accumulator(%a: tensor<2x3xf32>, %x: tensor<3xf32>, %acc: tensor<2xf32> {secret.secret}, %s: tensor<2xf32>) -> tensor<2xf32> {
  %m = linalg.matvec ins(%a, %x : tensor<2x3xf32>, tensor<3xf32>) outs(%acc : tensor<2xf32>) -> tensor<2xf32>
  %r = arith.mulf %m, %s : tensor<2xf32>
  return %r : tensor<2xf32>
}
// CHECK-LABEL: func.func @no_secret_accumulator(
// CHECK:      %[[M:.*]] = linalg.matvec ins(%a, %x {{.*}} outs(%acc
// CHECK-NEXT: arith.mulf %[[M]], %s

// -----

// Must not fire: `b - L(x)` (it would negate the weights), a scale that is a whole
// run-time tensor (not visibly one value per output column), a bias computed by a call
// after the matmul (a call cannot move before it), a result with a second user.
func.func @make_bias() -> tensor<2x4xf32> {
  %c = arith.constant dense<1.5> : tensor<2x4xf32>
  return %c : tensor<2x4xf32>
}
func.func @no_other_forms(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %b: tensor<2x4xf32>, %s: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %e = tensor.empty() : tensor<2x4xf32>
  %m1 = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r1 = arith.subf %b, %m1 : tensor<2x4xf32>
  %m2 = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r2 = arith.mulf %m2, %s : tensor<2x4xf32>
  %m3 = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %c = func.call @make_bias() : () -> tensor<2x4xf32>
  %r3 = arith.addf %m3, %c : tensor<2x4xf32>
  %m4 = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r4 = arith.addf %m4, %m4 : tensor<2x4xf32>
  return %r1, %r2, %r3, %r4 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
// CHECK-LABEL: func.func @no_other_forms(
// CHECK:      %[[M1:.*]] = linalg.matmul ins(%x, %w {{.*}} outs(%e
// CHECK-NEXT: %[[R1:.*]] = arith.subf %b, %[[M1]]
// CHECK-NEXT: %[[M2:.*]] = linalg.matmul ins(%x, %w {{.*}} outs(%e
// CHECK-NEXT: %[[R2:.*]] = arith.mulf %[[M2]], %s
// CHECK-NEXT: %[[M3:.*]] = linalg.matmul ins(%x, %w {{.*}} outs(%e
// CHECK-NEXT: %[[C:.*]] = call @make_bias()
// CHECK-NEXT: %[[R3:.*]] = arith.addf %[[M3]], %[[C]]
// CHECK-NEXT: %[[M4:.*]] = linalg.matmul ins(%x, %w {{.*}} outs(%e
// CHECK-NEXT: %[[R4:.*]] = arith.addf %[[M4]], %[[M4]]
// CHECK-NEXT: return %[[R1]], %[[R2]], %[[R3]], %[[R4]]

// -----

// Must not fire: a residual add and a scale computed from the linear op's own input.
// No argument is marked, yet `%x` is the data the network runs on (heirpy's depth
// model counts it as the ciphertext): moving it into the init or the weights would
// make a parameter of it.
func.func @no_data_path_operands(%a: tensor<2x2xf32>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<2xf32>
  %m1 = linalg.matvec ins(%a, %x : tensor<2x2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r1 = arith.addf %m1, %x : tensor<2xf32>
  %m2 = linalg.matvec ins(%a, %x : tensor<2x2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %x2 = arith.mulf %x, %x : tensor<2xf32>
  %r2 = arith.mulf %m2, %x2 : tensor<2xf32>
  return %r1, %r2 : tensor<2xf32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @no_data_path_operands(
// CHECK:      %[[M1:.*]] = linalg.matvec ins(%a, %x {{.*}} outs(%e
// CHECK-NEXT: %[[R1:.*]] = arith.addf %[[M1]], %x
// CHECK-NEXT: %[[M2:.*]] = linalg.matvec ins(%a, %x {{.*}} outs(%e
// CHECK-NEXT: %[[X2:.*]] = arith.mulf %x, %x
// CHECK-NEXT: %[[R2:.*]] = arith.mulf %[[M2]], %[[X2]]
// CHECK-NEXT: return %[[R1]], %[[R2]]
// KEEP-LABEL: func.func @no_data_path_operands(
// KEEP:      arith.addf %{{.*}}, %x
