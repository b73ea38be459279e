"""`lower-tensor-ext`: heirpy's `tensor_ext` ops to standard linalg."""
