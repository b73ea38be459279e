"""Reference data for a model: an .npz holding its inputs `arg0`, `arg1`, ... and the
outputs another framework computed, `result0`, ... (the format of examples/*.npz, whose
results come from PyTorch and whose inputs are drawn from seeds: `npz_recipes`).
`heirpy-run --check` and `heirpy-report` compare heirpy's evaluation with them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from heirpy.interp.equivalence import ResultComparison, compare_arrays
from heirpy.interp.npz_recipes import load_arrays
from heirpy.ir.diagnostics import HeirpyError


def load_npz(path: Path) -> dict[str, np.ndarray]:
    """Every array of an .npz, those its recipes make included (`npz_recipes`: the examples'
    inputs are drawn from seeds); an unreadable file is a one-line error."""
    try:
        return load_arrays(path)
    except (OSError, ValueError) as err:
        raise HeirpyError(f"error: cannot read inputs '{path}': {err}") from err


def reference_inputs(arrays: Mapping[str, np.ndarray], count: int, source: str) -> list[np.ndarray]:
    """`arg0` .. `arg{count-1}` of an .npz's arrays."""
    missing = [f"arg{i}" for i in range(count) if f"arg{i}" not in arrays]
    if missing:
        raise HeirpyError(f"error: '{source}' has no {', '.join(missing)} (the function takes {count} argument(s))")
    return [arrays[f"arg{i}"] for i in range(count)]


def compare_with_reference(
    arrays: Mapping[str, np.ndarray], results: Sequence[np.ndarray], rtol: float, atol: float, source: str
) -> list[ResultComparison]:
    """Each result against the .npz's `result{i}` (the reference side of the comparison)."""
    comparisons = []
    for index, value in enumerate(results):
        key = f"result{index}"
        if key not in arrays:
            raise HeirpyError(f"error: '{source}' has no {key} to check against")
        comparisons.append(compare_arrays(index, arrays[key], value, rtol, atol))
    return comparisons
