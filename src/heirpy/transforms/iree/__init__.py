"""IREE's room: `iree-prepare{target=cpu|gpu}` (the one-step pipeline measured on IREE) and the
passes only it runs (`unroll-depthwise-conv`, `im2col-grouped-conv`,
`generalize-direct-conv`)."""
