// linalg-canonicalizations' pool -> conv rewrite folds a following divide into the
// filter only when the divide is `sum / c`, c a non-zero constant, read through identity
// maps. Each case below is a standalone sum pool whose user is almost that divide: the
// pool still becomes a conv (its filter stays 1.0 on the channel diagonal), the generic
// stays as it was. (elementwise=false keeps the generics as generics; otherwise they
// become arith ops on tensors first and these guards are never reached.) Also: the
// transpose rewrites of vecmat/matvec need a real [1, 0] transpose.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations{elementwise=false}' | filecheck %s

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @divide_reads_another_input(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %p : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %q = arith.divf %a, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// the divide reads the generic's other input, not the sum: the generic stays.
// CHECK-LABEL: func.func @divide_reads_another_input(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00], {{\[}}1.000000e+00, 1.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00]
// CHECK-NEXT: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins({{.*}}%[[P]] : {{.*}}) outs(%e : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^
// CHECK-NEXT: arith.divf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @divisor_read_transposed(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.divf %a, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// the divide reads the sum through a transposing map: the generic stays.
// CHECK-LABEL: func.func @divisor_read_transposed(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00], {{\[}}1.000000e+00, 1.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00]
// CHECK-NEXT: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins({{.*}}%[[P]] : {{.*}}) outs(%e : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^
// CHECK-NEXT: arith.divf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @divide_then_scale(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.divf %a, %four : f32
    %t = arith.mulf %q, %four : f32
    linalg.yield %t : f32
  } -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// the body divides, then multiplies (not a bare divide): the generic stays.
// CHECK-LABEL: func.func @divide_then_scale(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00], {{\[}}1.000000e+00, 1.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00]
// CHECK-NEXT: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins({{.*}}%[[P]] : {{.*}}) outs(%e : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^
// CHECK-NEXT: arith.divf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @multiply_not_divide(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.mulf %a, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// x * 4 is not x / 4: the generic stays.
// CHECK-LABEL: func.func @multiply_not_divide(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00], {{\[}}1.000000e+00, 1.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00]
// CHECK-NEXT: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins({{.*}}%[[P]] : {{.*}}) outs(%e : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @yield_the_undivided_sum(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.divf %a, %four : f32
    linalg.yield %a : f32
  } -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// the divide is computed but the sum is yielded (the dead divide is erased): the generic
// stays.
// CHECK-LABEL: func.func @yield_the_undivided_sum(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00], {{\[}}1.000000e+00, 1.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00]
// CHECK-NEXT: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins({{.*}}%[[P]] : {{.*}}) outs(%e : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^
// CHECK-NEXT: linalg.yield %a
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @constant_over_the_sum(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.divf %four, %a : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// 4 / x is not x / 4: the generic stays.
// CHECK-LABEL: func.func @constant_over_the_sum(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00], {{\[}}1.000000e+00, 1.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00]
// CHECK-NEXT: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins({{.*}}%[[P]] : {{.*}}) outs(%e : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^
// CHECK-NEXT: arith.divf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @constant_over_a_constant(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.divf %four, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// 4 / 4 reads no block argument (the sum is not divided): the generic stays.
// CHECK-LABEL: func.func @constant_over_a_constant(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00], {{\[}}1.000000e+00, 1.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00]
// CHECK-NEXT: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins({{.*}}%[[P]] : {{.*}}) outs(%e : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^
// CHECK-NEXT: arith.divf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
func.func @divisor_is_an_argument(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>, %s: f32) -> tensor<1x2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>} ins(%x, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
// the divisor is a run-time scalar: the generic stays.
// CHECK-LABEL: func.func @divisor_is_an_argument(
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 1.000000e+00], {{\[}}1.000000e+00, 1.000000e+00]], {{\[\[}}0.000000e+00, 0.000000e+00]
// CHECK-NEXT: %[[P:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%x, %[[W]] : tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>)
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} ins({{.*}}%[[P]] : {{.*}}) outs(%e : tensor<1x2x2x2xf32>)
// CHECK-NEXT: ^
// CHECK-NEXT: arith.divf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]

// -----

func.func @vecmat_of_identity_transpose(%a: tensor<3x3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3xf32>
  %t = linalg.transpose ins(%a : tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) permutation = [0, 1]
  %e1 = tensor.empty() : tensor<3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.vecmat ins(%x, %t : tensor<3xf32>, tensor<3x3xf32>) outs(%z : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
// A [0, 1] "transpose" is a copy: the vecmat keeps its operands.
// CHECK-LABEL: func.func @vecmat_of_identity_transpose(
// CHECK: %[[T:.*]] = linalg.transpose ins(%a : tensor<3x3xf32>) {{.*}} permutation = [0, 1]
// CHECK: linalg.vecmat ins(%x, %[[T]] :

// -----

func.func @matvec_of_identity_transpose(%a: tensor<3x3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3xf32>
  %t = linalg.transpose ins(%a : tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) permutation = [0, 1]
  %e1 = tensor.empty() : tensor<3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.matvec ins(%t, %x : tensor<3x3xf32>, tensor<3xf32>) outs(%z : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
// A [0, 1] "transpose" is a copy: the matvec keeps its operands.
// CHECK-LABEL: func.func @matvec_of_identity_transpose(
// CHECK: %[[T:.*]] = linalg.transpose ins(%a : tensor<3x3xf32>) {{.*}} permutation = [0, 1]
// CHECK: linalg.matvec ins(%[[T]], %x :
