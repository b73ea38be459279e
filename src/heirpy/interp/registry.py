"""The table from op name to the function that evaluates it.

Each op family lives in its own module and registers its functions here with
`@register("dialect.op", ...)`. Adding an op family is one new function and one
decorator; the evaluator itself never changes.

A handler gets the evaluator (for nested regions, calls and resources), the op and its
operand values in order, and returns one numpy array per op result. It must not write
into its operands: values are SSA, and an array may be shared by many uses or be a
view of another value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

if TYPE_CHECKING:
    from heirpy.interp.evaluator import Evaluator

OpHandler = Callable[["Evaluator", Operation, Sequence[np.ndarray]], Sequence[np.ndarray]]

OP_HANDLERS: dict[str, OpHandler] = {}


def register(*names: str) -> Callable[[OpHandler], OpHandler]:
    """Register the decorated function as the evaluator of every op in `names`."""

    def add(handler: OpHandler) -> OpHandler:
        for name in names:
            if name in OP_HANDLERS:
                raise ValueError(f"two evaluators registered for '{name}'")
            OP_HANDLERS[name] = handler
        return handler

    return add
