"""Reference data for a model: an .npz holding its inputs `arg0`, `arg1`, ... and the
outputs another framework computed, `result0`, ... (the format of examples/*.npz, whose
results come from PyTorch and whose inputs are drawn from seeds: `npz_recipes`).
`heirpy-run --check` and `heirpy-report` compare heirpy's evaluation with them.

`judge_rewrite` is heirpy-report's verdict, which keeps two questions apart (docs/usage.md,
"How numerics are judged"): does the model's own arithmetic, as its IR computes it (an f16
model rounds where PyTorch does not), give the reference's values? And did heirpy's rewrite
change them? A rewrite is at fault only where its output is further from the reference than
the model's own output, by more than the tolerance:

    |after - ref| > |before - ref| + atol + rtol * |ref|      (elementwise)

which implies `|after - before|` is over the tolerance too (the triangle inequality): a
rewrite that leaves the values alone, or moves them no further from the reference, is never
at fault. The tolerance is `magnitude_tolerance`'s: at least `ULPS_OF_SLACK` ulps of the
result's float type, relative, and of the result's largest value, absolute."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from heirpy.interp.equivalence import ResultComparison, compare_arrays, magnitude_tolerance, moved_further
from heirpy.interp.npz_recipes import load_arrays
from heirpy.ir.constants import is_float_dtype
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


MODEL_DIFFERS = "model≠ref, heirpy ok"
"""The verdict of a model whose own output is off the reference while heirpy's rewrite is
not at fault: a pass (heirpy-report exits 0), shown so that nobody mistakes it for ok."""


@dataclass(frozen=True)
class Judgement:
    """One result of a rewrite judged against a reference (`judge_rewrite`)."""

    index: int
    verdict: str  # "ok", MODEL_DIFFERS, "MISMATCH" (heirpy's fault) or "not comparable: <why>"
    max_abs_error: float  # heirpy's output against the reference
    model_abs_error: float  # the model's own output (before the rewrite) against the reference
    changed_abs_error: float  # heirpy's output against the model's: what the rewrite changed
    rtol: float
    atol: float
    detail: str = ""

    @property
    def at_fault(self) -> bool:
        """heirpy's rewrite made this result worse (or the comparison could not be made)."""
        return self.verdict not in ("ok", MODEL_DIFFERS)


def judge_rewrite(
    index: int, reference: np.ndarray, before: np.ndarray, after: np.ndarray, rtol: float, atol: float
) -> Judgement:
    """Result `index` of a model (`before`) and of heirpy's rewrite of it (`after`), both run
    on the reference's inputs, against the `reference` (the module docstring's rule)."""
    reference, before, after = np.asarray(reference), np.asarray(before), np.asarray(after)
    model = compare_arrays(index, reference, before, rtol, atol, scale_atol=True)
    rewrite = compare_arrays(index, reference, after, rtol, atol, scale_atol=True)
    changed = compare_arrays(index, before, after, rtol, atol, scale_atol=True)
    errors = (rewrite.max_abs_error, model.max_abs_error, changed.max_abs_error)
    same_form = all(x.shape == reference.shape and x.dtype == reference.dtype for x in (before, after))
    if not is_float_dtype(reference.dtype) or not same_form or rewrite.not_comparable:
        # No float rule to apply (an integer result, a shape or dtype that differs, a NaN or
        # Inf in the reference): the plain comparison decides, and an exact integer result
        # that heirpy left as it was is the model's difference, not heirpy's.
        verdict = rewrite.verdict
        if verdict == "MISMATCH" and same_form and changed.ok:
            verdict = MODEL_DIFFERS
        return Judgement(index, verdict, *errors, rtol, atol, "" if verdict == "ok" else rewrite.line())
    rtol, atol = magnitude_tolerance(reference, rtol, atol)
    worse = moved_further(reference, before, after, rtol, atol)
    summary = (f"result #{index}: heirpy's output vs the reference max abs err {errors[0]:.3g}, the model's own "
               f"{errors[1]:.3g}, heirpy's vs the model's {errors[2]:.3g} (atol {atol:.3g}, rtol {rtol:.3g})")
    if np.any(worse):
        return Judgement(index, "MISMATCH", *errors, rtol, atol,
                         f"{summary}: heirpy moved {int(worse.sum())} value(s) further from the reference")
    if model.ok:
        return Judgement(index, "ok", *errors, rtol, atol)
    return Judgement(index, MODEL_DIFFERS, *errors, rtol, atol, f"{summary}: the model's own arithmetic differs")


def judge_against_reference(
    arrays: Mapping[str, np.ndarray], before: Sequence[np.ndarray], after: Sequence[np.ndarray],
    rtol: float, atol: float, source: str,
) -> list[Judgement]:
    """Each result of the model (`before`) and of heirpy's rewrite (`after`) against the
    .npz's `result{i}` (`judge_rewrite`)."""
    judgements = []
    for index, (b, a) in enumerate(zip(before, after, strict=True)):
        key = f"result{index}"
        if key not in arrays:
            raise HeirpyError(f"error: '{source}' has no {key} to check against")
        judgements.append(judge_rewrite(index, arrays[key], b, a, rtol, atol))
    return judgements
