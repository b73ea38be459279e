// demote-f64's docstring example: an f64 island between an extf and a truncf becomes f32,
// and the casts go. heirpy-equiv checks the output against the input (f32 rounding of the
// f64 sum is within its tolerance); iree-opt re-parses it.
// RUN: heirpy-opt %s -p demote-f64 | filecheck %s
// RUN: heirpy-opt %s -p demote-f64 | iree-opt | filecheck %s
// RUN: heirpy-opt %s -p demote-f64 | not grep f64
// RUN: heirpy-opt %s -p demote-f64 -o %t && heirpy-equiv %s %t | filecheck %s --check-prefix=EQUIV

func.func @main(%t: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = arith.extf %t : tensor<4x8xf32> to tensor<4x8xf64>
  %s = arith.addf %e, %e : tensor<4x8xf64>
  %r = arith.truncf %s : tensor<4x8xf64> to tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @main(%{{.*}}: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT:  return %[[S]] : tensor<4x8xf32>
// EQUIV: equivalent
