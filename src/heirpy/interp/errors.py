"""The evaluator's one error type, with the one-line message format of heirpy's CLIs."""

from __future__ import annotations

from xdsl.ir import Operation

from heirpy.ir.diagnostics import HeirpyError, location_prefix


class EvaluationError(HeirpyError):
    """An op the evaluator cannot run, or bad inputs; `str()` is a one-line diagnostic."""


def op_error(op: Operation, message: str) -> EvaluationError:
    """`file:line:col: error: 'op.name' message` (the location when the op has one)."""
    return EvaluationError(f"{location_prefix(op)}error: '{op.name}' {message}")
