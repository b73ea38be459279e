"""heirpy's dialects: `linalg`, `tensor` and `scf` (registered under MLIR's names, in place
of xDSL's) and `tensor_ext`."""
