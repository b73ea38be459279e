"""heirpy's `tensor_ext` ops, each evaluated from the semantics its docstring states.

`fused_conv_pool` is evaluated as the ops it replaces -- the conv into `conv_init`, then
the sum pool into `pool_init`, then the optional divide -- and never through a composed
filter, so that it checks the fusion rewrites rather than repeating them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Operation

from heirpy.interp.linalg_named import CONV_LAYOUTS, POOL_LAYOUTS, convolve, pool
from heirpy.interp.registry import EvaluatorProtocol, HandlerTable
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp

HANDLERS = HandlerTable()


@HANDLERS.register("tensor_ext.fused_conv_pool")
def fused_conv_pool(ev: EvaluatorProtocol, op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, FusedConvPoolOp)
    image, kernel, conv_init, pool_init = args
    conv = convolve(
        CONV_LAYOUTS["linalg.conv_2d_nchw_fchw"],
        image,
        kernel,
        conv_init,
        op.int_values("conv_strides"),
        op.int_values("conv_dilations"),
    )
    letters, _ = POOL_LAYOUTS["linalg.pooling_nchw_sum"]
    pooled = pool(
        letters,
        "sum",
        conv,
        op.int_values("pool_window"),
        pool_init,
        op.int_values("pool_strides"),
        op.int_values("pool_dilations"),
    )
    divisor = op.divisor_value()
    if divisor is None:
        return [pooled]
    # The divide is an f32 (element type) divf by the divisor rounded to that type.
    return [pooled / np.asarray(divisor, dtype=pooled.dtype)]
