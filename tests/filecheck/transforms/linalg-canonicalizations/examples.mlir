// The pass on every example model: its output (with tensor_ext lowered) re-parses in
// heir-opt; conv + pool pairs end up as one conv each, pools never stand alone.
// (tests/unit/test_linalg_canonicalizations.py checks the numbers.)
// RUN: heirpy-opt %examples/tiny_cnn.mlir -p 'linalg-canonicalizations{conv-pool=fused}' | filecheck %s --check-prefix=CNN
// RUN: heirpy-opt %examples/alexnet_tiny.mlir -p 'linalg-canonicalizations{conv-pool=fused}' | filecheck %s --check-prefix=ALEX
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p linalg-canonicalizations | filecheck %s --check-prefix=YOLO
// RUN: heirpy-opt %examples/tiny_cnn.mlir -p linalg-canonicalizations | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/tiny_cnn_dense.mlir -p linalg-canonicalizations | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/tiny_cnn_onnx.mlir -p linalg-canonicalizations | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/alexnet_tiny.mlir -p linalg-canonicalizations | heir-opt | filecheck %s --check-prefix=MLIR
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p linalg-canonicalizations | heir-opt | filecheck %s --check-prefix=YOLO
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-canonicalizations | heir-opt | filecheck %s --check-prefix=YOLO

// CNN-LABEL: func.func @main
// CNN-NOT: linalg.pooling_nchw_sum
// CNN: tensor_ext.fused_conv_pool {{.*}}divisor = 4.0
// CNN-NEXT: arith.mulf
// CNN: tensor_ext.fused_conv_pool {{.*}}divisor = 4.0
// CNN-NOT: linalg.generic
// CNN: linalg.matmul
// CNN: arith.addf

// ALEX-LABEL: func.func @main
// ALEX-NOT: linalg.{{pooling|conv}}
// ALEX: tensor_ext.fused_conv_pool
// ALEX-NOT: linalg.{{pooling|conv}}
// ALEX: tensor_ext.fused_conv_pool
// ALEX-NOT: linalg.{{pooling|conv}}
// ALEX: tensor_ext.fused_conv_pool
// ALEX-NOT: linalg.{{pooling|conv}}
// ALEX: return

// MLIR-LABEL: func.func @main
// MLIR-NOT: linalg.pooling
// MLIR: linalg.conv_2d_nchw_fchw
// MLIR-NOT: linalg.pooling
// MLIR: linalg.matmul
// MLIR-NOT: linalg.pooling
// MLIR: return

// The sigmoid generic becomes arith/math on tensors; the bias broadcast (6.5 MB if
// folded) stays a broadcast.
// YOLO-LABEL: func.func @main
// YOLO: linalg.broadcast
// YOLO: linalg.conv_2d_nchw_fchw
// YOLO: tensor.expand_shape
// YOLO: linalg.transpose
// YOLO: arith.negf
// YOLO: math.exp
