// A conv + pool lowered to one conv keeps the conv's spelling of `strides` / `dilations`
// (`dense<..> : tensor<2xi64>` or `: vector<2xi64>`, both MLIR's), and the pool of a
// non-constant conv init keeps the pool's, as HEIR's conv_pool_fusion tests expect.
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | filecheck %s
// RUN: heirpy-opt %s --split-input-file -p linalg-canonicalizations | heir-opt --split-input-file | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --split-input-file -p 'linalg-canonicalizations{conv-pool=fused},lower-tensor-ext' | filecheck %s --check-prefix=LOWER
// heir-opt accepts all 7 convs as printed.
// MLIR-COUNT-7: linalg.conv_2d_nchw_fchw

// The conv says tensor<2xi64>, the pool vector<2xi64>: the one conv says tensor<2xi64>.
// CHECK-LABEL: func.func @conv_tensor_pool_vector
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x6x6xf32>, tensor<1x1x4x4xf32>)
// CHECK-NOT: linalg.conv
// CHECK: return
// tensor_ext.fused_conv_pool keeps only the numbers; lower-tensor-ext writes vector<2xi64>.
// LOWER-LABEL: func.func @conv_tensor_pool_vector
// LOWER: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
func.func @conv_tensor_pool_vector(%input: tensor<1x1x6x6xf32>) -> tensor<1x1x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<1x1x3x3xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %filter = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%input, %filter : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%ci : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %pe = tensor.empty() : tensor<1x1x2x2xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%conv, %win : tensor<1x1x3x3xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %pool : tensor<1x1x2x2xf32>
}

// -----

// The conv says vector<2xi64>, the pool tensor<2xi64>, and the conv's init is an argument:
// the pool of that init (a conv now) says tensor<2xi64>, the composed conv vector<2xi64>.
// CHECK-LABEL: func.func @conv_vector_pool_tensor_arg_init
// CHECK-SAME: %[[INIT:[^:]+]]: tensor<1x1x3x3xf32>
// CHECK: %[[POOLED:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[INIT]], %{{.*}} : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x6x6xf32>, tensor<1x1x4x4xf32>) outs(%[[POOLED]] :
// LOWER-LABEL: func.func @conv_vector_pool_tensor_arg_init(
// LOWER: linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
func.func @conv_vector_pool_tensor_arg_init(%input: tensor<1x1x6x6xf32>, %ci: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %filter = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%input, %filter : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%ci : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %pe = tensor.empty() : tensor<1x1x2x2xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%conv, %win : tensor<1x1x3x3xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %pool : tensor<1x1x2x2xf32>
}

// -----

// Both tensor<2xi64>, an argument init and an average (the divide moves into the filter
// and the pooled init): both convs say tensor<2xi64>; pool strides 2 compose to 4 (a 5x5 filter).
// CHECK-LABEL: func.func @avg_tensor_arg_init
// CHECK: %[[POOLED:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x9x9xf32>, tensor<1x1x5x5xf32>)
// LOWER-LABEL: func.func @avg_tensor_arg_init(
// LOWER: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>}
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @avg_tensor_arg_init(%input: tensor<1x1x9x9xf32>, %ci: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %filter = arith.constant dense<[[[[1.0, 2.0, 0.5], [3.0, 4.0, -1.0], [0.0, 1.0, 2.0]]]]> : tensor<1x1x3x3xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%input, %filter : tensor<1x1x9x9xf32>, tensor<1x1x3x3xf32>) outs(%ci : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %pe = tensor.empty() : tensor<1x1x2x2xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%conv, %win : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %de = tensor.empty() : tensor<1x1x2x2xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pool : tensor<1x1x2x2xf32>) outs(%de : tensor<1x1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.divf %in, %four : f32
    linalg.yield %q : f32
  } -> tensor<1x1x2x2xf32>
  return %avg : tensor<1x1x2x2xf32>
}

// -----

// Attributes left to their default: a conv with `strides` only (tensor<2xi64>) gives its
// spelling to the new `dilations` too; a pool without any gives vector<2xi64>.
// CHECK-LABEL: func.func @partly_default
// CHECK: %[[POOLED:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x1x6x6xf32>, tensor<1x1x4x4xf32>)
// LOWER-LABEL: func.func @partly_default(
// LOWER: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
func.func @partly_default(%input: tensor<1x1x6x6xf32>, %ci: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %filter = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %conv = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>} ins(%input, %filter : tensor<1x1x6x6xf32>, tensor<1x1x2x2xf32>) outs(%ci : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %pe = tensor.empty() : tensor<1x1x2x2xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nchw_sum ins(%conv, %win : tensor<1x1x3x3xf32>, tensor<2x2xf32>) outs(%pi : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %pool : tensor<1x1x2x2xf32>
}
