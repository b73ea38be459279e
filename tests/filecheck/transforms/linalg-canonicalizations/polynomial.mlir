// A quadratic activation, however it is written, becomes (s*x + t)^2 + k (k - (s*x + t)^2
// for a negative leading coefficient): one square, an affine map of x that fusion folds
// into the op computing x, and a constant added (canonicalize/polynomial.py). Cubics,
// polynomials of two values and DAGs read elsewhere are left as they are.
// RUN: heirpy-opt %s -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s -p linalg-canonicalizations -o %t
// RUN: heirpy-equiv %s %t --function user_form | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function product_form | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function negative | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function residual | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function scale_each | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %s %t --function user_form_f16 --rtol 1e-2 --atol 1e-2 | filecheck %s --check-prefix=EQUIV
// EQUIV: equivalent

// 0.125*x*x + 0.5*x + 0.25 as torch-mlir exports it: (sqrt(0.125)*x + 0.5/(2*sqrt(0.125)))^2 - 0.25.
// CHECK-LABEL: func.func @user_form
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense<0.353553385> : tensor<1x4x4x4xf32>
// CHECK-NEXT:    %[[U:.*]] = arith.mulf %x, %[[S]]
// CHECK-NEXT:    %[[T:.*]] = arith.constant dense<0.707106769> : tensor<1x4x4x4xf32>
// CHECK-NEXT:    %[[V:.*]] = arith.addf %[[U]], %[[T]]
// CHECK-NEXT:    %[[Q:.*]] = arith.mulf %[[V]], %[[V]]
// CHECK-NEXT:    %[[K:.*]] = arith.constant dense<-2.500000e-01> : tensor<1x4x4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[Q]], %[[K]]
// CHECK-NEXT:    return %[[R]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @user_form(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %m = arith.mulf %c, %v : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %x : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %m = arith.mulf %v, %w : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %v, %h : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x4xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %c : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %q = arith.constant 0.25 : f32
    %s = arith.addf %v, %w : f32
    %r = arith.addf %s, %q : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  return %d : tensor<1x4x4x4xf32>
}

// (x + 1)(x + 3) = (x + 2)^2 - 1: a unit scale is left out.
// CHECK-LABEL: func.func @product_form
// CHECK-NEXT:    %[[T:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    %[[V:.*]] = arith.addf %x, %[[T]]
// CHECK-NEXT:    %[[Q:.*]] = arith.mulf %[[V]], %[[V]]
// CHECK-NEXT:    %[[K:.*]] = arith.constant dense<-1.000000e+00> : tensor<8xf32>
// CHECK-NEXT:    arith.addf %[[Q]], %[[K]]
func.func @product_form(%x: tensor<8xf32>) -> tensor<8xf32> {
  %one = arith.constant dense<1.0> : tensor<8xf32>
  %three = arith.constant dense<3.0> : tensor<8xf32>
  %a = arith.addf %x, %one : tensor<8xf32>
  %b = arith.addf %x, %three : tensor<8xf32>
  %r = arith.mulf %a, %b : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -0.5*x^2 + x: k - (s*x + t)^2 with s = sqrt(0.5), t = -1/(2*sqrt(0.5)), k = 0.5.
// CHECK-LABEL: func.func @negative
// CHECK:         arith.constant dense<-0.707106769> : tensor<8xf32>
// CHECK:         %[[Q:.*]] = arith.mulf %[[V:.*]], %[[V]]
// CHECK-NEXT:    %[[K:.*]] = arith.constant dense<5.000000e-01> : tensor<8xf32>
// CHECK-NEXT:    arith.subf %[[K]], %[[Q]]
func.func @negative(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.constant dense<-0.5> : tensor<8xf32>
  %a = arith.mulf %x, %x : tensor<8xf32>
  %b = arith.mulf %a, %c : tensor<8xf32>
  %r = arith.addf %b, %x : tensor<8xf32>
  return %r : tensor<8xf32>
}

// The activation after a residual add: the add (of two values) is its x, and the
// scale then goes to each addend (ScaleEachAddend, below).
// CHECK-LABEL: func.func @residual
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense<0.353553385>
// CHECK-NEXT:    %[[A:.*]] = arith.mulf %y, %[[S]]
// CHECK-NEXT:    %[[B:.*]] = arith.mulf %z, %[[S]]
// CHECK-NEXT:    %[[X:.*]] = arith.addf %[[A]], %[[B]]
// CHECK-NEXT:    %[[T:.*]] = arith.constant dense<0.707106769>
// CHECK-NEXT:    %[[V:.*]] = arith.addf %[[X]], %[[T]]
// CHECK-NEXT:    arith.mulf %[[V]], %[[V]]
func.func @residual(%y: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<8xf32> {
  %a8 = arith.constant dense<0.125> : tensor<8xf32>
  %h = arith.constant dense<0.5> : tensor<8xf32>
  %q = arith.constant dense<0.25> : tensor<8xf32>
  %x = arith.addf %y, %z : tensor<8xf32>
  %a = arith.mulf %x, %a8 : tensor<8xf32>
  %b = arith.mulf %a, %x : tensor<8xf32>
  %c = arith.mulf %x, %h : tensor<8xf32>
  %d = arith.addf %b, %c : tensor<8xf32>
  %r = arith.addf %d, %q : tensor<8xf32>
  return %r : tensor<8xf32>
}

// f16: the constants are rounded to f16.
// CHECK-LABEL: func.func @user_form_f16
// CHECK:         arith.mulf %x, %{{.*}} : tensor<8xf16>
// CHECK:         %[[Q:.*]] = arith.mulf %[[V:.*]], %[[V]] : tensor<8xf16>
// CHECK:         arith.addf %[[Q]], %{{.*}} : tensor<8xf16>
func.func @user_form_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  %a8 = arith.constant dense<0.125> : tensor<8xf16>
  %h = arith.constant dense<0.5> : tensor<8xf16>
  %q = arith.constant dense<0.25> : tensor<8xf16>
  %a = arith.mulf %x, %a8 : tensor<8xf16>
  %b = arith.mulf %a, %x : tensor<8xf16>
  %c = arith.mulf %x, %h : tensor<8xf16>
  %d = arith.addf %b, %c : tensor<8xf16>
  %r = arith.addf %d, %q : tensor<8xf16>
  return %r : tensor<8xf16>
}

// A cubic written 0.0625*x*x*x + 0.125*x*x + 0.5*x + 0.25 stays as it is: none of its
// quadratic pieces is rewritten on its own.
// CHECK-LABEL: func.func @cubic
// CHECK-NEXT:    arith.constant dense<6.250000e-02>
// CHECK-NEXT:    arith.constant dense<1.250000e-01>
// CHECK-NEXT:    arith.constant dense<5.000000e-01>
// CHECK-NEXT:    arith.constant dense<2.500000e-01>
// CHECK-NEXT:    %[[A:.*]] = arith.mulf %x, %{{.*}}
// CHECK-NEXT:    %[[B:.*]] = arith.mulf %[[A]], %x
// CHECK-NEXT:    %[[C:.*]] = arith.mulf %[[B]], %x
// CHECK-NEXT:    %[[D:.*]] = arith.mulf %x, %{{.*}}
// CHECK-NEXT:    %[[E:.*]] = arith.mulf %[[D]], %x
// CHECK-NEXT:    arith.addf %[[C]], %[[E]]
func.func @cubic(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c3 = arith.constant dense<0.0625> : tensor<8xf32>
  %c2 = arith.constant dense<0.125> : tensor<8xf32>
  %c1 = arith.constant dense<0.5> : tensor<8xf32>
  %c0 = arith.constant dense<0.25> : tensor<8xf32>
  %a = arith.mulf %x, %c3 : tensor<8xf32>
  %b = arith.mulf %a, %x : tensor<8xf32>
  %c = arith.mulf %b, %x : tensor<8xf32>
  %d = arith.mulf %x, %c2 : tensor<8xf32>
  %e = arith.mulf %d, %x : tensor<8xf32>
  %f = arith.addf %c, %e : tensor<8xf32>
  %g = arith.mulf %x, %c1 : tensor<8xf32>
  %h = arith.addf %f, %g : tensor<8xf32>
  %r = arith.addf %h, %c0 : tensor<8xf32>
  return %r : tensor<8xf32>
}

// Left as they are: already the form (x^2, (x + 1)^2 + 2), a cubic, a linear map, a
// polynomial of two values, a per-channel (non-splat) coefficient, and a DAG whose
// inner product is read elsewhere (rewriting it would compute x*x twice).
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant dense<2.000000e+00>
// CHECK-NEXT:    %[[SQ:.*]] = arith.mulf %x, %x
// CHECK-NEXT:    %[[P:.*]] = arith.addf %x, %[[ONE]]
// CHECK-NEXT:    %[[PP:.*]] = arith.mulf %[[P]], %[[P]]
// CHECK-NEXT:    arith.addf %[[PP]], %[[TWO]]
// CHECK-NEXT:    %[[CUBE:.*]] = arith.mulf %[[SQ]], %x
// CHECK-NEXT:    %[[LIN:.*]] = arith.mulf %x, %[[TWO]]
// CHECK-NEXT:    %[[XY:.*]] = arith.mulf %x, %y
// CHECK-NEXT:    %[[XY2:.*]] = arith.addf %[[XY]], %x
// CHECK-NEXT:    %[[CH:.*]] = arith.mulf %[[SQ]], %[[C]]
// CHECK-NEXT:    %[[CH2:.*]] = arith.addf %[[CH]], %x
// CHECK-NEXT:    %[[SH:.*]] = arith.mulf %[[SQ]], %[[TWO]]
// CHECK-NEXT:    %[[SH2:.*]] = arith.addf %[[SH]], %x
func.func @kept(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %one = arith.constant dense<1.0> : tensor<8xf32>
  %two = arith.constant dense<2.0> : tensor<8xf32>
  %sq = arith.mulf %x, %x : tensor<8xf32>
  %p = arith.addf %x, %one : tensor<8xf32>
  %pp = arith.mulf %p, %p : tensor<8xf32>
  %form = arith.addf %pp, %two : tensor<8xf32>
  %cube = arith.mulf %sq, %x : tensor<8xf32>
  %lin = arith.mulf %x, %two : tensor<8xf32>
  %xy = arith.mulf %x, %y : tensor<8xf32>
  %xy2 = arith.addf %xy, %x : tensor<8xf32>
  %ch = arith.mulf %sq, %c : tensor<8xf32>
  %ch2 = arith.addf %ch, %x : tensor<8xf32>
  %sh = arith.mulf %sq, %two : tensor<8xf32>
  %sh2 = arith.addf %sh, %x : tensor<8xf32>
  return %sq, %form, %cube, %lin, %xy2, %ch2, %sh2, %sq : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// A splat scale of a sum of two computed values scales each (ScaleEachAddend): after a
// residual add, fusion folds one into the conv, the shortcut pays its level where it is
// shallower.
// CHECK-LABEL: func.func @scale_each
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense<5.000000e-01>
// CHECK-NEXT:    %[[A:.*]] = arith.mulf %y, %[[S]]
// CHECK-NEXT:    %[[B:.*]] = arith.mulf %z, %[[S]]
// CHECK-NEXT:    %[[R:.*]] = arith.addf %[[A]], %[[B]]
// CHECK-NEXT:    return %[[R]]
func.func @scale_each(%y: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<8xf32> {
  %s = arith.constant dense<0.5> : tensor<8xf32>
  %x = arith.addf %y, %z : tensor<8xf32>
  %r = arith.mulf %x, %s : tensor<8xf32>
  return %r : tensor<8xf32>
}

// Kept: the sum is read elsewhere too (scaling apart would add work), an addend is a
// constant (a shift: fusion's), the scale is not a splat.
// CHECK-LABEL: func.func @scale_kept
// CHECK-NEXT:    arith.constant dense<5.000000e-01>
// CHECK-NEXT:    arith.constant dense<[1.000000e+00
// CHECK-NEXT:    %[[X:.*]] = arith.addf %y, %z
// CHECK-NEXT:    arith.mulf %[[X]], %{{.*}}
// CHECK-NEXT:    %[[W:.*]] = arith.addf %y, %{{.*}}
// CHECK-NEXT:    arith.mulf %[[W]], %{{.*}}
// CHECK-NEXT:    %[[V:.*]] = arith.addf %y, %z
// CHECK-NEXT:    arith.mulf %[[V]], %{{.*}}
func.func @scale_kept(%y: tensor<8xf32>, %z: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %s = arith.constant dense<0.5> : tensor<8xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %x = arith.addf %y, %z : tensor<8xf32>
  %a = arith.mulf %x, %s : tensor<8xf32>
  %w = arith.addf %y, %s : tensor<8xf32>
  %b = arith.mulf %w, %s : tensor<8xf32>
  %v = arith.addf %y, %z : tensor<8xf32>
  %d = arith.mulf %v, %c : tensor<8xf32>
  return %a, %b, %d, %x : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
