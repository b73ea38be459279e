"""`func.call` (`func.return` is a terminator: the evaluator passes its operands on)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.func import CallOp
from xdsl.ir import Operation

from heirpy.interp.registry import EvaluatorProtocol, HandlerTable

HANDLERS = HandlerTable()


@HANDLERS.register("func.call")
def call(ev: EvaluatorProtocol, op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, CallOp)
    return ev.call(op.callee.string_value(), args)
