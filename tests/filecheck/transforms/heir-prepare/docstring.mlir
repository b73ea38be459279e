// `legalize-for-heir` is a complete last step after `linalg-fuse-ops`: on the tiny CNN,
// whose conv + pool + x² `linalg-fuse-ops` makes a tensor_ext.kernel (KERNEL),
// exactly `linalg-canonicalizations,linalg-fuse-ops,legalize-for-heir` prints only ops
// heir-opt parses, and heir-opt's CKKS pipeline compiles it at the depth bound, 3 levels
// (Q has 4 moduli). `heir-prepare` (HeirPreparePass's docstring) is the same in one step.
// RUN: heirpy-opt %examples/tiny_cnn.mlir -p linalg-canonicalizations,linalg-fuse-ops | filecheck %s --check-prefix=KERNEL
// RUN: heirpy-opt %examples/tiny_cnn.mlir -p linalg-canonicalizations,linalg-fuse-ops,legalize-for-heir | filecheck %s
// RUN: heirpy-opt %examples/tiny_cnn.mlir -p linalg-canonicalizations,linalg-fuse-ops,legalize-for-heir | heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks | filecheck %s --check-prefix=CKKS
// RUN: heirpy-opt %examples/tiny_cnn.mlir -p heir-prepare | heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' --torch-linalg-to-ckks | filecheck %s --check-prefix=CKKS

// KERNEL: tensor_ext.kernel
// and no tensor_ext op anywhere in that output:
// RUN: heirpy-opt %examples/tiny_cnn.mlir -p linalg-canonicalizations,linalg-fuse-ops,legalize-for-heir | not grep tensor_ext

// CHECK-LABEL: func.func @main
// CHECK-NOT:  tensor_ext
// CHECK:      %[[XF:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : tensor<1x1x8x8xf32> into tensor<64xf32>
// CHECK:      %[[H:.*]] = linalg.matvec ins(%{{.*}}, %[[XF]] : tensor<32x64xf32>, tensor<64xf32>)
// CHECK:      %[[S:.*]] = linalg.generic {{.*}} ins(%[[H]] : tensor<32xf32>)
// CHECK:        arith.mulf
// CHECK:      %[[Y:.*]] = linalg.matvec ins(%{{.*}}, %[[S]] : tensor<10x32xf32>, tensor<32xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1]] output_shape [1, 10]
// CHECK-NEXT: return %[[R]]

// CKKS: ckks.schemeParam = #ckks.scheme_param<{{.*}}Q = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]
