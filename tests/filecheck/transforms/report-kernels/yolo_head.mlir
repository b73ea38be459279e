// The YOLO heads: 4 kernels (5 with the 3x3 conv's pad) and 3 (4) intermediates before,
// one kernel and nothing materialised after linalg-fuse-pointwise.
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p report-kernels 2>&1 >/dev/null | filecheck %s --check-prefix=K1
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p report-kernels 2>&1 >/dev/null | filecheck %s --check-prefix=K3
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-fuse-pointwise,report-kernels 2>&1 >/dev/null | filecheck %s --check-prefix=FUSED
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-fuse-pointwise,lower-tensor-ext,report-kernels 2>&1 >/dev/null | filecheck %s --check-prefix=LOWERED
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p "linalg-fuse-pointwise,lower-tensor-ext{layout-ops=false},report-kernels" 2>&1 >/dev/null | filecheck %s --check-prefix=INLINED

// K1: @main  4  19584000  0  linalg.broadcast, linalg.conv_2d_nchw_fchw, linalg.transpose, linalg.generic
// K3: @main  5  23026688  0  tensor.pad, linalg.broadcast, linalg.conv_2d_nchw_fchw, linalg.transpose, linalg.generic
// FUSED: @main  1  0  0  tensor_ext.kernel
// Lowered for real compilers, the 3x3 conv's result is reshaped by an expand_shape (a
// view) and read by one generic, and the bias leaves the conv's init for the epilogue, so
// no broadcast is materialised.
// LOWERED: @main  3  9970688  0  tensor.pad, linalg.conv_2d_nchw_fchw, linalg.generic
// INLINED: @main  4  16498688  0  tensor.pad, linalg.broadcast, linalg.conv_2d_nchw_fchw, linalg.generic

// The main job's default pipeline (linalg-fuse-ops runs the pointwise groups last)
// reaches the same single kernel from HEIR's canonical form.
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p linalg-canonicalizations,linalg-fuse-ops,report-kernels 2>&1 >/dev/null | filecheck %s --check-prefix=FUSED
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-canonicalizations,linalg-fuse-ops,report-kernels 2>&1 >/dev/null | filecheck %s --check-prefix=FUSED
