// tensor ops heirpy adds or extends (generate, gather, scatter, rank, bitcast, reshape of
// unranked tensors, pad to a static size with dynamic padding, expand_shape of a 0-d
// tensor) round-trip, and heir-opt re-parses heirpy's custom and generic print.
// RUN: heirpy-opt %s | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %s | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %s --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

func.func @generate(%n: index) -> tensor<?x4xindex> {
  %t = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    tensor.yield %s : index
  } : tensor<?x4xindex>
  return %t : tensor<?x4xindex>
}
// CHECK-LABEL: func.func @generate
// CHECK:       tensor.generate %{{.*}} {
// CHECK-NEXT:  ^{{.*}}(%{{.*}}: index, %{{.*}}: index):
// CHECK:         tensor.yield %{{.*}} : index
// CHECK-NEXT:  } : tensor<?x4xindex>
// MLIR-LABEL: func.func @generate
// MLIR: tensor.generate

func.func @gather_scatter(%src: tensor<5x6x7xf32>, %idx: tensor<2x3x2xindex>) -> (tensor<2x3x5xf32>, tensor<5x6x7xf32>) {
  %g = tensor.gather %src[%idx] gather_dims([1, 2]) : (tensor<5x6x7xf32>, tensor<2x3x2xindex>) -> tensor<2x3x5xf32>
  %s = tensor.scatter %g into %src[%idx] scatter_dims([1, 2]) unique : (tensor<2x3x5xf32>, tensor<5x6x7xf32>, tensor<2x3x2xindex>) -> tensor<5x6x7xf32>
  return %g, %s : tensor<2x3x5xf32>, tensor<5x6x7xf32>
}
// CHECK-LABEL: func.func @gather_scatter
// CHECK: tensor.gather %{{.*}}[%{{.*}}] gather_dims([1, 2]) : (tensor<5x6x7xf32>, tensor<2x3x2xindex>) -> tensor<2x3x5xf32>
// CHECK: tensor.scatter %{{.*}} into %{{.*}}[%{{.*}}] scatter_dims([1, 2]) unique : (tensor<2x3x5xf32>, tensor<5x6x7xf32>, tensor<2x3x2xindex>) -> tensor<5x6x7xf32>
// MLIR-LABEL: func.func @gather_scatter
// MLIR: tensor.gather
// MLIR: tensor.scatter

func.func @unranked(%u: tensor<*xf32>, %s: tensor<2xi64>, %t: tensor<2x3xf32>) -> (index, tensor<?x?xf32>, tensor<*xf32>, tensor<2x3xi32>) {
  %r = tensor.rank %u : tensor<*xf32>
  %m = tensor.reshape %u(%s) : (tensor<*xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %c = tensor.cast %t : tensor<2x3xf32> to tensor<*xf32>
  %b = tensor.bitcast %t : tensor<2x3xf32> to tensor<2x3xi32>
  return %r, %m, %c, %b : index, tensor<?x?xf32>, tensor<*xf32>, tensor<2x3xi32>
}
// CHECK-LABEL: func.func @unranked
// CHECK: tensor.rank %{{.*}} : tensor<*xf32>
// CHECK: tensor.reshape %{{.*}}(%{{.*}}) : (tensor<*xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK: tensor.cast %{{.*}} : tensor<2x3xf32> to tensor<*xf32>
// CHECK: tensor.bitcast %{{.*}} : tensor<2x3xf32> to tensor<2x3xi32>
// MLIR-LABEL: func.func @unranked
// MLIR: tensor.rank
// MLIR: tensor.reshape
// MLIR: tensor.cast
// MLIR: tensor.bitcast

func.func @pad_and_expand(%x: tensor<?x?xf32>, %h: index, %v: f32, %s: tensor<f32>) -> (tensor<4x5xf32>, tensor<1x1xf32>) {
  %c0 = arith.constant 0 : index
  %p = tensor.pad %x low[1, %c0] high[%h, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x?xf32> to tensor<4x5xf32>
  %e = tensor.expand_shape %s [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  return %p, %e : tensor<4x5xf32>, tensor<1x1xf32>
}
// CHECK-LABEL: func.func @pad_and_expand
// CHECK: tensor.pad %{{.*}} low[1, %{{.*}}] high[%{{.*}}, 2]
// CHECK: } : tensor<?x?xf32> to tensor<4x5xf32>
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// MLIR-LABEL: func.func @pad_and_expand
// MLIR: tensor.pad
// MLIR: tensor.expand_shape
