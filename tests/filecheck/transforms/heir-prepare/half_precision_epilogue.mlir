// heir-prepare on torch-mlir's f16 Linear (found by benchmarks/fuzz_dtypes.py, f16-torch
// programs #56, #57, #124, #186, #187, #193, #279 of 300): a matmul of f16 operands
// accumulating in f32, then one generic adding the f32 bias and truncating to f16. When
// legalize-for-heir flattens that epilogue, the bias constant keeps its own element type
// (f32; heirpy once wrote it as f16, which the generic's f32 block argument rejects:
// "expected type of bb argument #1 (f32) to match ... (f16)"); the same in a result
// sliced into rows.
// widen-half=false: these pin legalize-for-heir's half-precision types, which heir-prepare's
// last step (heir-widen-half, half_precision_widen.mlir) then computes in f32.
// RUN: heirpy-opt %s -p 'heir-prepare{widen-half=false}' | filecheck %s
// RUN: heirpy-opt %s -p 'heir-prepare{widen-half=false}' | iree-opt | filecheck %s

func.func @main(%x: tensor<2x5xf16>) -> tensor<2x2xf16> {
  %w = arith.constant dense<[[0.25, -0.5], [0.75, 0.125], [-0.25, 0.5], [0.375, -0.625], [0.5, 0.25]]> : tensor<5x2xf16>
  %b = arith.constant dense<[0.4375, 0.015625]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e32 = tensor.empty() : tensor<2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e32 : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x5xf16>, tensor<5x2xf16>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %e16 = tensor.empty() : tensor<2x2xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<2x2xf32>, tensor<2xf32>) outs(%e16 : tensor<2x2xf16>) {
  ^bb0(%in: f32, %bias: f32, %out: f16):
    %s = arith.addf %in, %bias : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x2xf16>
  return %r : tensor<2x2xf16>
}
// CHECK-LABEL: func.func @main
// CHECK:       linalg.matvec
// CHECK:       linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<4xf16>)
// CHECK-NEXT:  ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f16):
// CHECK:         arith.truncf
