"""`cf.assert`: torch-mlir puts one inside the batch-norm generic that computes
`1 / sqrt(var + eps)` (a zero-element check). It has no results; a false condition at
any element is an evaluation error, as it is a runtime abort in MLIR."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Operation

from heirpy.interp.errors import op_error
from heirpy.interp.registry import EvaluatorProtocol, HandlerTable

HANDLERS = HandlerTable()


@HANDLERS.register("cf.assert")
def _assert(ev: EvaluatorProtocol, op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    (condition,) = args
    if not np.all(condition):
        message = op.properties.get("msg") or op.attributes.get("msg")
        raise op_error(op, f"assertion failed: {message}")
    return []

