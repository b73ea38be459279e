// `iree-prepare` is IREE's whole preparation in one step, and prints exactly what its
// components print in a row (the pipeline docs/iree.md spells out): on the MobileNet block
// (a 1x1 expansion, a 3x3 depthwise conv, a 1x1 projection) and on the 1x1 YOLO head, for
// both targets. iree-opt re-parses each output, and the output computes what the input did.
// RUN: heirpy-opt %examples/mobilenet_block.mlir -p iree-prepare -o %t.one
// RUN: heirpy-opt %examples/mobilenet_block.mlir -p 'linalg-canonicalizations{max-mac-growth=1},demote-f64,linalg-fuse-ops{max-mac-growth=1 iree-reductions=true constant-budget=0},lower-tensor-ext,detach-constant-transpose,narrow-contraction-inputs,sink-widening-casts,unroll-depthwise-conv,detach-conv-init' -o %t.parts
// RUN: heirpy-opt %examples/mobilenet_block.mlir -p 'iree-prepare{target=gpu}' -o %t.gpu
// RUN: heirpy-opt %examples/mobilenet_block.mlir -p 'linalg-canonicalizations{max-mac-growth=1},demote-f64,linalg-fuse-ops{max-mac-growth=1 iree-reductions=true constant-budget=0},lower-tensor-ext{target=gpu},detach-constant-transpose,narrow-contraction-inputs,sink-widening-casts,detach-conv-init' -o %t.gpuparts
// RUN: diff %t.one %t.parts
// RUN: diff %t.gpu %t.gpuparts
// RUN: iree-opt %t.one | filecheck %s --check-prefix=CPU
// RUN: iree-opt %t.gpu | filecheck %s --check-prefix=GPU
// RUN: heirpy-equiv %examples/mobilenet_block.mlir %t.one | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-equiv %examples/mobilenet_block.mlir %t.gpu | filecheck %s --check-prefix=EQUIV
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p iree-prepare | iree-opt | filecheck %s --check-prefix=HEAD
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p 'iree-prepare{target=gpu}' | iree-opt | filecheck %s --check-prefix=HEADGPU
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p iree-prepare | not grep tensor_ext
// RUN: heirpy-opt %examples/yolo_head_k1.mlir -p 'iree-prepare{target=gpu}' | not grep tensor_ext

// On the CPU the unit-stride depthwise conv becomes a sum of shifted slices (IREE
// vectorises it); the GPU target leaves it named.
// CPU-LABEL: func.func @main
// CPU-NOT:   linalg.depthwise_conv_2d_nchw_chw
// CPU:       tensor.extract_slice
// GPU-LABEL: func.func @main
// GPU:       linalg.depthwise_conv_2d_nchw_chw
// EQUIV:     ): equivalent

// The head's kernel is lowered: the 1x1 conv as a named conv (CPU) or a contraction
// generic with the weights first (GPU), and no tensor_ext op anywhere.
// HEAD-LABEL: func.func @main
// HEAD-NOT:   tensor_ext
// HEAD:       linalg.conv_2d_nchw_fchw
// HEADGPU-LABEL: func.func @main
// HEADGPU-NOT:   linalg.conv_2d_nchw_fchw
// HEADGPU:       linalg.generic
