"""Pointwise fusion across layout ops: `linalg-fuse-pointwise`, the axis map that tracks
how reshape/transpose/broadcast remap axes, and the indexing-map arithmetic on top."""
