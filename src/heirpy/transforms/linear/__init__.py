"""Linear-op fusion: `linalg-fuse-linear-ops`, `linalg-fuse-conv-pool`,
`linalg-fuse-linear-chains`, and the linear-map algebra and constant folding they share."""
