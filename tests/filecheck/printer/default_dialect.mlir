// Op names print as MLIR's tools print them: a custom-form op drops its dialect prefix
// when it sits in a region whose default dialect is that dialect (`builtin` at the top
// level and in a module, `func` in a function body); every other region (linalg.generic,
// tensor.pad, scf.for, scf.if) has no default dialect, so its ops keep their prefixes.
// The output re-parses in heirpy and in heir-opt; the generic form keeps full names.
// RUN: heirpy-opt %s | filecheck %s
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK:      {{^}}module {
// CHECK-NEXT: {{^}}  module @inner {
// CHECK-NEXT: {{^}}    func.func private @g(i32) -> i32
// CHECK-NEXT: {{^}}  }
// MLIR:       {{^}}module {
// MLIR-NEXT:  {{^}}  module @inner {
// GENERIC:    {{^}}"builtin.module"() ({
// GENERIC:    "builtin.module"() <{sym_name = "inner"}> ({
builtin.module {
  builtin.module @inner {
    func.func private @g(i32) -> i32
  }

  // CHECK-LABEL: {{^}}  func.func @f(
  // MLIR-LABEL:  {{^}}  func.func @f(
  func.func @f(%x: tensor<4xf32>, %i: i32, %n: index, %p: i1) -> tensor<4xf32> {
    // In the function body `func` is the default: `call`; builtin ops keep `builtin.`.
    // CHECK-NEXT: {{^}}    %{{.*}} = call @h(%{{.*}}) : (i32) -> i32
    // CHECK-NEXT: {{^}}    %{{.*}} = builtin.unrealized_conversion_cast %{{.*}} : i32 to i64
    // MLIR-NEXT:  {{^}}    %{{.*}} = call @h(
    // MLIR-NEXT:  {{^}}    %{{.*}} = builtin.unrealized_conversion_cast
    // GENERIC:    "func.call"(%{{.*}}) <{callee = @h}> : (i32) -> i32
    %c = func.call @h(%i) : (i32) -> i32
    %u = builtin.unrealized_conversion_cast %i : i32 to i64

    // scf.for's body has no default dialect: func.call and scf.yield keep their prefixes.
    // CHECK-NEXT: {{^}}    %{{.*}} = scf.for
    // CHECK-NEXT: {{^}}      %{{.*}} = func.call @h(
    // CHECK-NEXT: {{^}}      scf.yield %{{.*}} : tensor<4xf32>
    // CHECK-NEXT: {{^}}    }
    // MLIR-NEXT:  {{^}}    %{{.*}} = scf.for
    // MLIR-NEXT:  {{^}}      %{{.*}} = func.call @h(
    %l = scf.for %iv = %n to %n step %n iter_args(%s = %x) -> (tensor<4xf32>) {
      %k = func.call @h(%i) : (i32) -> i32
      scf.yield %s : tensor<4xf32>
    }

    // CHECK-NEXT: {{^}}    %{{.*}} = scf.if %{{.*}} -> (tensor<4xf32>) {
    // CHECK-NEXT: {{^}}      scf.yield %{{.*}} : tensor<4xf32>
    // CHECK-NEXT: {{^}}    } else {
    // CHECK-NEXT: {{^}}      scf.yield %{{.*}} : tensor<4xf32>
    // CHECK-NEXT: {{^}}    }
    %b = scf.if %p -> (tensor<4xf32>) {
      scf.yield %l : tensor<4xf32>
    } else {
      scf.yield %x : tensor<4xf32>
    }

    // A linalg.generic body and a tensor.pad region keep every prefix.
    // CHECK-NEXT: {{^}}    %{{.*}} = tensor.empty() : tensor<4xf32>
    // CHECK-NEXT: {{^}}    %{{.*}} = linalg.generic
    // CHECK-NEXT: {{^}}    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
    // CHECK-NEXT: {{^}}      %{{.*}} = arith.addf %{{.*}}, %{{.*}} : f32
    // CHECK-NEXT: {{^}}      linalg.yield %{{.*}} : f32
    // CHECK-NEXT: {{^}}    } -> tensor<4xf32>
    // MLIR:       {{^}}      linalg.yield %{{.*}} : f32
    %e = tensor.empty() : tensor<4xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = arith.addf %in, %in : f32
      linalg.yield %y : f32
    } -> tensor<4xf32>

    // CHECK-NEXT: {{^}}    %{{.*}} = arith.constant 0.000000e+00 : f32
    // CHECK-NEXT: {{^}}    %{{.*}} = tensor.pad %{{.*}} low[1] high[1] {
    // CHECK-NEXT: {{^}}    ^bb0(%{{.*}}: index):
    // CHECK-NEXT: {{^}}      tensor.yield %{{.*}} : f32
    // CHECK-NEXT: {{^}}    } : tensor<4xf32> to tensor<6xf32>
    %zero = arith.constant 0.0 : f32
    %pad = tensor.pad %g low[1] high[1] {
    ^bb0(%j: index):
      tensor.yield %zero : f32
    } : tensor<4xf32> to tensor<6xf32>
    %r = tensor.extract_slice %pad[1] [4] [1] : tensor<6xf32> to tensor<4xf32>

    // The function's own terminator is `return`; in the generic form it keeps its name.
    // CHECK:      {{^}}    return %{{.*}} : tensor<4xf32>
    // CHECK-NEXT: {{^}}  }
    // MLIR:       {{^}}    return %{{.*}} : tensor<4xf32>
    // GENERIC:    "func.return"(%{{.*}}) : (tensor<4xf32>) -> ()
    func.return %r : tensor<4xf32>
  }

  // CHECK-NEXT: {{^}}  func.func private @h(i32) -> i32
  // CHECK-NEXT: {{^}}}
  func.func private @h(i32) -> i32
}
