// torch-mlir's written-out softmax becomes linalg.softmax (canonicalize/softmax.py), and where it must not.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file > /dev/null

// torch-mlir's softmax over the last dim (max with its unused argmax, expand_shape,
// subtract, exp, sum, divide): one linalg.softmax. The rest is dead, the max generic
// too (its linalg.index is pure).
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x5xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3x5xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.softmax dimension(2) ins(%[[X]] : tensor<2x3x5xf32>) outs(%[[E]] : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: return %[[R]]
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @softmax(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%z : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in, %in_1 : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// The argmax result is used: the max generic must stay, so nothing is raised.
// CHECK-LABEL: func.func @argmax_used
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @argmax_used(%x: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%z : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in, %in_1 : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r, %m#1 : tensor<2x3x5xf32>, tensor<2x3xi64>
}

// -----

// The exp is also returned: raising would compute it twice.
// CHECK-LABEL: func.func @exp_used_twice
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @exp_used_twice(%x: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%z : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in, %in_1 : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r, %z : tensor<2x3x5xf32>, tensor<2x3x5xf32>
}

// -----

// The shifted input is also returned.
// CHECK-LABEL: func.func @shift_used_twice
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @shift_used_twice(%x: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%z : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in, %in_1 : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r, %y : tensor<2x3x5xf32>, tensor<2x3x5xf32>
}

// -----

// The sum adds the inputs, not their exps: not a softmax.
// CHECK-LABEL: func.func @sum_of_the_input
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @sum_of_the_input(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in, %in_1 : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// The max starts from 0, not -inf (a max with 0 is not softmax's shift).
// CHECK-LABEL: func.func @max_init_not_neg_inf
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @max_init_not_neg_inf(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %ninf = arith.constant 0.000000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%z : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in, %in_1 : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// The subtract shifts a different tensor than the one whose max it takes.
// CHECK-LABEL: func.func @shift_of_another_tensor
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @shift_of_another_tensor(%x: tensor<2x3x5xf32>, %w: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%z : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in, %in_1 : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

// -----

// The subtract is max - x, not x - max (exp(max - x) / sum is no softmax).
// CHECK-LABEL: func.func @shift_swapped
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @shift_swapped(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in_1, %in : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%z : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in, %in_1 : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}


// -----

// The divide is sum / exp, not exp / sum.
// CHECK-LABEL: func.func @divide_swapped
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
#unit = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @divide_swapped(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : i64
  %e2 = tensor.empty() : tensor<2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<2x3xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ei : tensor<2x3xi64>) -> tensor<2x3xi64>
  %m:2 = linalg.generic {indexing_maps = [#id, #red, #red], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x3x5xf32>) outs(%mi, %ii : tensor<2x3xf32>, tensor<2x3xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ki, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %mb = tensor.expand_shape %m#0 [[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xf32> into tensor<2x3x1xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %y = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mb : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %d = arith.subf %in, %in_1 : f32
    linalg.yield %d : f32
  } -> tensor<2x3x5xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y : tensor<2x3x5xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ex = math.exp %in : f32
    linalg.yield %ex : f32
  } -> tensor<2x3x5xf32>
  %e1 = tensor.empty() : tensor<2x3x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #unit], iterator_types = ["parallel", "parallel", "reduction"]} ins(%z : tensor<2x3x5xf32>) outs(%si : tensor<2x3x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x3x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%z, %s : tensor<2x3x5xf32>, tensor<2x3x1xf32>) outs(%e : tensor<2x3x5xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %q = arith.divf %in_1, %in : f32
    linalg.yield %q : f32
  } -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

