"""What an op handler is, and the table each op family fills.

Each op family lives in its own module with a `HANDLERS = HandlerTable()` of its own,
filled with `@HANDLERS.register("dialect.op", ...)`; `heirpy.interp.evaluator` joins
the families' tables into `OP_HANDLERS`. Adding an op family is one new module and one
line there; the evaluator's logic never changes.

A handler gets the evaluator (for nested regions, calls and resources: only what
`EvaluatorProtocol` offers, so handler modules never import the evaluator), the op and
its operand values in order, and returns one numpy array per op result. It must not
write into its operands: values are SSA, and an array may be shared by many uses or be
a view of another value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Protocol

import numpy as np
from xdsl.ir import Block, Operation, SSAValue


class EvaluatorProtocol(Protocol):
    """The part of `heirpy.interp.evaluator.Evaluator` that handlers use."""

    def call(self, name: str, inputs: Sequence[np.ndarray]) -> list[np.ndarray]: ...

    def run_block(
        self, block: Block, args: Sequence[np.ndarray], *, where: str = "region"
    ) -> list[np.ndarray]: ...

    def eval_op(self, op: Operation) -> None: ...

    def bind(self, ssa: SSAValue, value: np.ndarray) -> None: ...

    def value(self, ssa: SSAValue, user: Operation) -> np.ndarray: ...

    def iteration_space(self, grids: Sequence[np.ndarray]) -> AbstractContextManager[None]: ...

    def loop_index(self, op: Operation, dim: int) -> np.ndarray: ...

    def resource(self, op: Operation, handle: str) -> bytes: ...


OpHandler = Callable[[EvaluatorProtocol, Operation, Sequence[np.ndarray]], Sequence[np.ndarray]]


class HandlerTable(dict[str, OpHandler]):
    """Op name -> handler, for one op family."""

    def register(self, *names: str) -> Callable[[OpHandler], OpHandler]:
        """Register the decorated function as the evaluator of every op in `names`."""

        def add(handler: OpHandler) -> OpHandler:
            for name in names:
                if name in self:
                    raise ValueError(f"two evaluators registered for '{name}'")
                self[name] = handler
            return handler

        return add


def join_tables(*tables: HandlerTable) -> dict[str, OpHandler]:
    """One table of all families; an op claimed by two families is a bug."""
    joined: dict[str, OpHandler] = {}
    for table in tables:
        for name, handler in table.items():
            if name in joined:
                raise ValueError(f"two evaluators registered for '{name}'")
            joined[name] = handler
    return joined
