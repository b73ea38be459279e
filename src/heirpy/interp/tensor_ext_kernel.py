"""`tensor_ext.kernel`, evaluated as its docstring defines it: its body's ops in order,
with the block arguments bound to the operands; the result is what it yields."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Operation

from heirpy.interp.registry import EvaluatorProtocol, HandlerTable
from heirpy.ir.dialects.tensor_ext import KernelOp

HANDLERS = HandlerTable()


@HANDLERS.register("tensor_ext.kernel")
def kernel(ev: EvaluatorProtocol, op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, KernelOp)
    # The body is isolated from above, so running it in the caller's frame cannot read
    # anything but the bound arguments; its SSA values never clash with the caller's.
    return ev.run_block(op.body.block, args, where="tensor_ext.kernel")
