// Running the pass twice changes nothing: on the YOLO head, the docstring example and
// every positive and guard case.
// RUN: heirpy-opt %examples/yolo_head_k3.mlir -p linalg-fuse-pointwise -o %t.once
// RUN: heirpy-opt %t.once -p linalg-fuse-pointwise -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: heirpy-opt %S/fuse.mlir --split-input-file -p linalg-fuse-pointwise -o %t.fuse.once
// RUN: heirpy-opt %t.fuse.once --split-input-file -p linalg-fuse-pointwise -o %t.fuse.twice
// RUN: diff %t.fuse.once %t.fuse.twice
// RUN: heirpy-opt %S/guards.mlir --split-input-file -p linalg-fuse-pointwise -o %t.guards.once
// RUN: heirpy-opt %t.guards.once --split-input-file -p linalg-fuse-pointwise -o %t.guards.twice
// RUN: diff %t.guards.once %t.guards.twice
// RUN: heirpy-opt %S/docstring.mlir -p linalg-fuse-pointwise -o %t.doc.once
// RUN: heirpy-opt %t.doc.once -p linalg-fuse-pointwise -o %t.doc.twice
// RUN: diff %t.doc.once %t.doc.twice
