// Attention's scale, (q kᵀ) * 1/sqrt(d), moves into the qkv projection: the columns of
// the projection (and of its bias) that become q are multiplied by the scale, and the
// elementwise scale op after the ct x ct product disappears. The projection here is
// Linear(6 -> 18) = q | k | v for 2 heads of width 3, torch-mlir's reshape/permute/
// slice form between; q is columns 0-5 (per token: head 0 q, head 1 q ... as the
// (3, 2, 3) split of the 18 columns says: columns 0..5 are q).
// With HEIR's bias rule a subtracted bias would move into the projection's init first,
// and @bias_is_a_subtraction could not test the subtraction guard: the bias rule
// here is linalg-fuse-ops' own.
// RUN: heirpy-opt %s --split-input-file -p 'linalg-fuse-linear-ops{bias-into-init=false}' | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-ops | filecheck %s --check-prefix=UMBRELLA

func.func @attention_scale(%x: tensor<1x4x6xf32>) -> tensor<2x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.addf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.mulf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @attention_scale(
// CHECK-NOT: arith.constant 5.000000e-01
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<6x18xf32>
// CHECK: %[[B:.*]] = arith.constant dense<{{.*}}> : tensor<18xf32>
// CHECK: %[[I:.*]] = linalg.broadcast ins(%[[B]] : tensor<18xf32>)
// CHECK-NEXT: %[[P:.*]] = linalg.matmul ins(%{{.*}}, %[[W]] : tensor<4x6xf32>, tensor<6x18xf32>) outs(%[[I]] : tensor<4x18xf32>)
// CHECK-NEXT: tensor.expand_shape %[[P]]
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<2x4x3xf32>
// CHECK: linalg.batch_matmul ins(%[[S]], %{{.*}} : tensor<2x4x4xf32>, tensor<2x4x3xf32>)
// UMBRELLA-LABEL: func.func @attention_scale(
// UMBRELLA-NOT: arith.constant 5.000000e-01
// UMBRELLA: linalg.matmul

// -----

// A division by the constant moves the same way (x / 2 is x * 0.5).
func.func @attention_divide(%x: tensor<1x4x6xf32>) -> tensor<2x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 2.0 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.addf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.divf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @attention_divide(
// CHECK-NOT: arith.divf
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_matmul

// -----

// Must not fire: k reads q's columns too (the slices overlap), so scaling them would
// scale k as well.
func.func @overlapping_slices(%x: tensor<1x4x6xf32>) -> tensor<2x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.addf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.mulf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @overlapping_slices(
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]] : tensor<2x4x4xf32>)
// CHECK: arith.mulf

// -----

// Must not fire: a scale that is not one number (a per-position mask) is not a scale of q.
func.func @non_uniform(%x: tensor<1x4x6xf32>) -> tensor<2x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %cm = arith.constant dense<[[0.5, 1.0, 2.0, 4.0]]> : tensor<1x4xf32>
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.addf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %cm : tensor<2x4x4xf32>, tensor<1x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %v1 = arith.mulf %in, %m : f32
    linalg.yield %v1 : f32
  } -> tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @non_uniform(
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]], %{{.*}} : tensor<2x4x4xf32>, tensor<1x4xf32>)

// -----

// torch-mlir expands the batch_matmul's result to 4-D before scaling it: a uniform scale
// commutes with that view, so it moves all the same.
func.func @attention_scale_through_view(%x: tensor<1x4x6xf32>) -> tensor<2x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.addf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf32> into tensor<1x2x4x4xf32>
  %e6 = tensor.empty() : tensor<1x2x4x4xf32>
  %ss4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<1x2x4x4xf32>) outs(%e6 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.mulf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<1x2x4x4xf32>
  %ss = tensor.collapse_shape %ss4 [[0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @attention_scale_through_view(
// CHECK-NOT: arith.constant 5.000000e-01
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-NEXT: %[[S4:.*]] = tensor.expand_shape %[[S]]
// CHECK-NEXT: %[[SS:.*]] = tensor.collapse_shape %[[S4]]

// -----

// The product of a projection with itself (q qᵀ-like, both operands the same value): a
// scale moved into the projection would be squared. The scale stays after the product.
func.func @square_of_projection(%x: tensor<4x6xf32>) -> tensor<1x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44], [-0.33, 0.77, 0.28, -0.55], [-0.33, -0.79, 0.45, -0.10], [0.13, -0.89, 0.84, 0.19], [-1.01, 0.78, 2.06, -1.64], [0.84, 0.13, 1.08, 0.72]]> : tensor<6x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.matmul ins(%x, %w : tensor<4x6xf32>, tensor<6x4xf32>) outs(%z1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %q = tensor.expand_shape %p [[0, 1], [2]] output_shape [1, 4, 4] : tensor<4x4xf32> into tensor<1x4x4xf32>
  %e4 = tensor.empty() : tensor<1x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %q : tensor<1x4x4xf32>, tensor<1x4x4xf32>) outs(%z4 : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x4xf32>) outs(%e4 : tensor<1x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.mulf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<1x4x4xf32>
  return %ss : tensor<1x4x4xf32>
}
// CHECK-LABEL: func.func @square_of_projection(
// CHECK: %p = linalg.matmul ins(%x, %w
// CHECK: linalg.batch_matmul ins(%q, %q
// CHECK: arith.mulf %in, %c
// UMBRELLA-LABEL: func.func @square_of_projection(
// UMBRELLA: linalg.matmul ins(%x, %w
// UMBRELLA: %[[S:.*]] = linalg.batch_matmul ins(%[[Q:.*]], %[[Q]] :
// UMBRELLA: ins(%[[S]] :
// UMBRELLA: arith.mulf %in, %c

// -----

// Must not fire: a division by zero is no scale to move.
// UMBRELLA-LABEL: func.func @divide_by_zero(
func.func @divide_by_zero(%x: tensor<1x4x6xf32>) -> tensor<2x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.0 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.addf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.divf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @divide_by_zero(
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]] : tensor<2x4x4xf32>)
// CHECK: arith.divf

// -----

// Must not fire: the projection's per-column op is a subtraction, not a bias add.
func.func @bias_is_a_subtraction(%x: tensor<1x4x6xf32>) -> tensor<2x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 2.0 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.subf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.divf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o : tensor<2x4x3xf32>
}
// CHECK-LABEL: func.func @bias_is_a_subtraction(
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]] : tensor<2x4x4xf32>)
// CHECK: arith.divf

// -----

// Must not fire: the unscaled scores are also returned, so the scale cannot move before them.
func.func @scores_read_twice(%x: tensor<1x4x6xf32>) -> (tensor<2x4x3xf32>, tensor<2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 2.0 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.addf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.divf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o, %s : tensor<2x4x3xf32>, tensor<2x4x4xf32>
}
// CHECK-LABEL: func.func @scores_read_twice(
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]] : tensor<2x4x4xf32>)
// CHECK: arith.divf

// -----

// Must not fire: the projection (before its bias) is also returned, so its weights cannot change.
func.func @projection_read_twice(%x: tensor<1x4x6xf32>) -> (tensor<2x4x3xf32>, tensor<4x18xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 2.0 : f32
  %w = arith.constant dense<[[0.19, -0.52, -0.41, -2.44, 1.80, 1.14],
 [-0.33, 0.77, 0.28, -0.55, 0.98, -0.31],
 [-0.33, -0.79, 0.45, -0.10, 0.55, -0.61],
 [0.13, -0.89, 0.84, 0.19, 0.33, 0.41],
 [-1.01, 0.78, 2.06, -1.64, -1.73, -1.50],
 [0.84, 0.13, 1.08, 0.72, 0.21, 0.28],
 [-0.17, 0.87, -1.13, -0.42, 0.24, 1.80],
 [-0.76, -1.08, -0.56, 0.97, -0.24, 1.32],
 [-1.87, 1.13, 1.03, -1.42, 0.15, 1.22],
 [0.09, 1.00, 2.37, 0.27, -0.28, -0.77],
 [0.65, -0.20, -0.18, -0.11, 0.65, -1.07],
 [-1.53, -2.43, 1.20, 0.07, 1.51, -0.01],
 [-0.74, 0.48, -0.08, -1.25, -0.89, 1.77],
 [0.35, 0.42, -0.28, -0.69, 0.89, -0.10],
 [-0.76, -0.13, -0.91, 0.19, 1.13, -0.84],
 [1.43, -0.67, 0.15, -0.84, -0.22, 0.05],
 [-0.43, -0.70, -0.68, -0.82, -1.57, -0.26],
 [0.40, 0.91, 0.65, 2.46, 0.32, -0.46]]> : tensor<18x6xf32>
  %bias = arith.constant dense<[1.87, -1.05, 0.97, -0.96, 0.35, -1.97, 0.90, -0.16, -0.97, 1.68, 0.77, 0.05, -0.75, -0.04, -0.16, 0.72, 0.80, -0.67]> : tensor<18xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x4x6xf32> into tensor<4x6xf32>
  %e0 = tensor.empty() : tensor<6x18xf32>
  %wt = linalg.transpose ins(%w : tensor<18x6xf32>) outs(%e0 : tensor<6x18xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x18xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %p = linalg.matmul ins(%xf, %wt : tensor<4x6xf32>, tensor<6x18xf32>) outs(%z1 : tensor<4x18xf32>) -> tensor<4x18xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %bias : tensor<4x18xf32>, tensor<18xf32>) outs(%e1 : tensor<4x18xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %v0 = arith.addf %in, %bb : f32
    linalg.yield %v0 : f32
  } -> tensor<4x18xf32>
  %ex = tensor.expand_shape %pb [[0, 1], [2, 3, 4]] output_shape [1, 4, 3, 2, 3] : tensor<4x18xf32> into tensor<1x4x3x2x3xf32>
  %e2 = tensor.empty() : tensor<3x1x2x4x3xf32>
  %t = linalg.transpose ins(%ex : tensor<1x4x3x2x3xf32>) outs(%e2 : tensor<3x1x2x4x3xf32>) permutation = [2, 0, 3, 1, 4]
  %qs = tensor.extract_slice %t[0, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %ks = tensor.extract_slice %t[1, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %vs = tensor.extract_slice %t[2, 0, 0, 0, 0] [1, 1, 2, 4, 3] [1, 1, 1, 1, 1] : tensor<3x1x2x4x3xf32> to tensor<1x1x2x4x3xf32>
  %q = tensor.collapse_shape %qs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %k4 = tensor.collapse_shape %ks [[0, 1], [2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<1x2x4x3xf32>
  %e3 = tensor.empty() : tensor<1x2x3x4xf32>
  %kt4 = linalg.transpose ins(%k4 : tensor<1x2x4x3xf32>) outs(%e3 : tensor<1x2x3x4xf32>) permutation = [0, 1, 3, 2]
  %kt = tensor.collapse_shape %kt4 [[0, 1], [2], [3]] : tensor<1x2x3x4xf32> into tensor<2x3x4xf32>
  %v = tensor.collapse_shape %vs [[0, 1, 2], [3], [4]] : tensor<1x1x2x4x3xf32> into tensor<2x4x3xf32>
  %e4 = tensor.empty() : tensor<2x4x4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs(%z4 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v1 = arith.divf %in, %c : f32
    linalg.yield %v1 : f32
  } -> tensor<2x4x4xf32>
  %e5 = tensor.empty() : tensor<2x4x3xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %o = linalg.batch_matmul ins(%ss, %v : tensor<2x4x4xf32>, tensor<2x4x3xf32>) outs(%z5 : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %o, %p : tensor<2x4x3xf32>, tensor<4x18xf32>
}
// CHECK-LABEL: func.func @projection_read_twice(
// CHECK: %[[S:.*]] = linalg.batch_matmul
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]] : tensor<2x4x4xf32>)
// CHECK: arith.divf
