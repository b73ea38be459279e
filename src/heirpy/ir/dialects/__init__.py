"""heirpy's dialects: `linalg` (registered under MLIR's name) and `tensor_ext`."""
