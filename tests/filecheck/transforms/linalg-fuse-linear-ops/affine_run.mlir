// MergeAffineRun (linalg-fuse-linear-ops): a run of elementwise affine ops with two or
// more scales and no linear op to fold into becomes one scale and one shift.
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-linear-ops | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-fuse-ops | filecheck %s --check-prefix=UMBRELLA

func.func @bn_on_input(%x: tensor<2x2x2x3xf32>) -> tensor<2x2x2x3xf32> {
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<2x2x2x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<2x2x2x3xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<2x2x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x3xf32>
  %be = tensor.empty() : tensor<2x2x2x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<2x2x2x3xf32>, tensor<2x1x1xf32>) outs(%be : tensor<2x2x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x3xf32>
  %ce = tensor.empty() : tensor<2x2x2x3xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %gamma : tensor<2x2x2x3xf32>, tensor<2x1x1xf32>) outs(%ce : tensor<2x2x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x3xf32>
  %de = tensor.empty() : tensor<2x2x2x3xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %beta : tensor<2x2x2x3xf32>, tensor<2x1x1xf32>) outs(%de : tensor<2x2x2x3xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<2x2x2x3xf32>
  return %d : tensor<2x2x2x3xf32>
}
// A batch-norm on the function's input (no linear op before it to fold into): its
// four ops merge into one scale and one shift, scale = inv * gamma = [3, 2],
// shift = beta - mean * scale = [-2, -5], each per channel as torch writes them.
// CHECK-LABEL: func.func @bn_on_input(
// CHECK-DAG:  %[[T:.*]] = arith.constant dense<{{.*}}-2.000000e+00{{.*}}-5.000000e+00{{.*}}> : tensor<2x1x1xf32>
// CHECK-DAG:  %[[S:.*]] = arith.constant dense<{{.*}}3.000000e+00{{.*}}2.000000e+00{{.*}}> : tensor<2x1x1xf32>
// CHECK:      %[[M:.*]] = linalg.generic {{.*}} ins(%x, %[[S]] : tensor<2x2x2x3xf32>, tensor<2x1x1xf32>)
// CHECK:      arith.mulf
// CHECK:      %[[A:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[T]] :
// CHECK:      arith.addf
// CHECK-NOT:  linalg.generic
// CHECK:      return %[[A]]
// The umbrella runs it too (then fuses the pair into one generic).
// UMBRELLA-LABEL: func.func @bn_on_input(
// UMBRELLA: linalg.generic {{.*}} ins(%x, %{{.*}}, %{{.*}} : tensor<2x2x2x3xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
// UMBRELLA-NEXT: ^bb0
// UMBRELLA-NEXT: arith.mulf
// UMBRELLA-NEXT: arith.addf
// UMBRELLA-LABEL: func.func @two_bn(

// -----

func.func @two_bn(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %be = tensor.empty() : tensor<1x2x2x2xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%be : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %ce = tensor.empty() : tensor<1x2x2x2xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %gamma : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%ce : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %de = tensor.empty() : tensor<1x2x2x2xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %beta : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%de : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %a2e = tensor.empty() : tensor<1x2x2x2xf32>
  %a2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d, %mean : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%a2e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %b2e = tensor.empty() : tensor<1x2x2x2xf32>
  %b2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a2, %inv : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%b2e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %c2e = tensor.empty() : tensor<1x2x2x2xf32>
  %c2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2, %gamma : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%c2e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %d2e = tensor.empty() : tensor<1x2x2x2xf32>
  %d2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %beta : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%d2e : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  return %d2 : tensor<1x2x2x2xf32>
}
// Two batch-norms in a row: still one scale (9, 4) and one shift (-8, -15).
// CHECK-LABEL: func.func @two_bn(
// CHECK-DAG:  arith.constant dense<{{.*}}-8.000000e+00{{.*}}-1.500000e+01{{.*}}> : tensor<2x1x1xf32>
// CHECK-DAG:  arith.constant dense<{{.*}}9.000000e+00{{.*}}4.000000e+00{{.*}}> : tensor<2x1x1xf32>
// CHECK:      arith.mulf
// CHECK-NOT:  arith.mulf
// CHECK:      arith.addf
// CHECK-NOT:  linalg.generic
// CHECK:      return

// -----

func.func @one_scale(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %be = tensor.empty() : tensor<1x2x2x2xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%be : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %de = tensor.empty() : tensor<1x2x2x2xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %beta : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%de : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  return %d : tensor<1x2x2x2xf32>
}
// Guard (at least two scales): one scale already costs one level; the run is left as
// it is.
// CHECK-LABEL: func.func @one_scale(
// CHECK:      arith.subf
// CHECK:      arith.mulf
// CHECK:      arith.addf
// CHECK:      return %d

// -----

func.func @scale_used_twice(%x: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %mean = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %inv = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %gamma = arith.constant dense<[[[1.5]], [[0.5]]]> : tensor<2x1x1xf32>
  %beta = arith.constant dense<[[[1.0]], [[-1.0]]]> : tensor<2x1x1xf32>
  %ae = tensor.empty() : tensor<1x2x2x2xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%ae : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.subf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %be = tensor.empty() : tensor<1x2x2x2xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %inv : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%be : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %ce = tensor.empty() : tensor<1x2x2x2xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b, %gamma : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%ce : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.mulf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  %de = tensor.empty() : tensor<1x2x2x2xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %beta : tensor<1x2x2x2xf32>, tensor<2x1x1xf32>) outs(%de : tensor<1x2x2x2xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %r = arith.addf %in, %k : f32
    linalg.yield %r : f32
  } -> tensor<1x2x2x2xf32>
  return %d, %b : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
// Guard (single use): %b is also returned, so the run is cut there, and neither part
// has two scales.
// CHECK-LABEL: func.func @scale_used_twice(
// CHECK:      arith.subf
// CHECK:      arith.mulf
// CHECK:      arith.mulf
// CHECK:      arith.addf
// CHECK:      return %d, %b
