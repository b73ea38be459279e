"""heirpy: MLIR-compatible linalg-on-tensors fusion passes on xDSL.

Library entry points (see `heirpy.api`): `parse`, `run_pipeline`, `print_module`,
`make_context`, and `HeirpyError` for one-line user diagnostics.
"""

from heirpy.api import build_pipeline, parse, print_module, run_pipeline
from heirpy.ir.context import make_context
from heirpy.ir.diagnostics import HeirpyError, verify_module

__all__ = [
    "HeirpyError",
    "build_pipeline",
    "make_context",
    "parse",
    "print_module",
    "run_pipeline",
    "verify_module",
]
