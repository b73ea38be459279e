// examples/vit_attention.mlir (real front-end IR: ViT-Tiny self-attention with softmax) parses, verifies and prints in custom and
// generic form; both re-parse in heirpy and in heir-opt (real MLIR).
// RUN: heirpy-opt %examples/vit_attention.mlir | filecheck %s
// RUN: heirpy-opt %examples/vit_attention.mlir --print-op-generic | heirpy-opt | filecheck %s
// RUN: heirpy-opt %examples/vit_attention.mlir | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/vit_attention.mlir --print-op-generic | heir-opt | filecheck %s --check-prefix=MLIR

// CHECK-DAG: #[[SUM:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
// CHECK-LABEL: func.func @main(%arg0: tensor<1x197x192xf32>) -> tensor<1x197x192xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<197x192xf32>, tensor<192x576xf32>)
// CHECK: linalg.transpose {{.*}}permutation = [2, 0, 3, 1, 4]
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<3x197x64xf32>, tensor<3x64x197xf32>)
// softmax: max and argmax in one generic with two results, x - max, exp, sum into (d0, d1, d2, 0), divide.
// CHECK: %[[MAX:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}}outs(%{{.*}}, %{{.*}} : tensor<1x3x197xf32>, tensor<1x3x197xi64>)
// CHECK: arith.maximumf
// CHECK: arith.select
// CHECK: } -> (tensor<1x3x197xf32>, tensor<1x3x197xi64>)
// CHECK: tensor.expand_shape %[[MAX]]#0
// CHECK: math.exp
// CHECK: indexing_maps = [{{.*}}#[[SUM]]]
// CHECK: arith.divf
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<3x197x197xf32>, tensor<3x197x64xf32>)
// CHECK: return {{.*}} : tensor<1x197x192xf32>
// MLIR-LABEL: func.func @main
// MLIR: linalg.generic
// MLIR: } -> (tensor<1x3x197xf32>, tensor<1x3x197xi64>)
// MLIR: linalg.batch_matmul
