"""`lower-tensor-ext`: heirpy's `tensor_ext` ops to standard linalg, shared by both back ends
(`heir-prepare` and `iree-prepare` run it), with its helpers (`lower_kernel`,
`kernel_contraction`, `expand_reads`)."""
