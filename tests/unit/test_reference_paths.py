"""heirpy.interp.reference's error paths and the texts heirpy-report prints from a
judgement: each message names the file and what is missing, and each branch of
`judge_rewrite` fills the detail it documents (empty on ok)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from heirpy.interp.reference import (
    compare_with_reference,
    judge_against_reference,
    judge_rewrite,
    load_npz,
    reference_inputs,
)
from heirpy.ir.diagnostics import HeirpyError


def test_an_unreadable_npz_is_a_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(HeirpyError, match=rf"^error: cannot read inputs '{bad}': "):
        load_npz(bad)
    with pytest.raises(HeirpyError, match=r"^error: cannot read inputs '.*missing.npz': "):
        load_npz(tmp_path / "missing.npz")


def test_reference_inputs_lists_every_missing_argument() -> None:
    arrays = {"arg1": np.zeros(1)}
    with pytest.raises(HeirpyError) as err:
        reference_inputs(arrays, 3, "m.npz")
    assert str(err.value) == "error: 'm.npz' has no arg0, arg2 (the function takes 3 argument(s))"
    both = {"arg0": np.ones(2), "arg1": np.zeros(1), "arg2": np.zeros(3)}
    assert [a.shape for a in reference_inputs(both, 2, "m.npz")] == [(2,), (1,)]


def test_a_result_without_a_reference_is_an_error_naming_it() -> None:
    arrays = {"result0": np.ones(2, np.float32)}
    results = [np.ones(2, np.float32), np.ones(2, np.float32)]
    with pytest.raises(HeirpyError) as err:
        compare_with_reference(arrays, results, 1e-4, 1e-5, "r.npz")
    assert str(err.value) == "error: 'r.npz' has no result1 to check against"
    with pytest.raises(HeirpyError) as err:
        judge_against_reference(arrays, results, results, 1e-4, 1e-5, "r.npz")
    assert str(err.value) == "error: 'r.npz' has no result1 to check against"
    (ok,) = compare_with_reference(arrays, results[:1], 1e-4, 1e-5, "r.npz")
    assert ok.ok and ok.index == 0
    (judged,) = judge_against_reference(arrays, results[:1], results[:1], 1e-4, 1e-5, "r.npz")
    assert judged.verdict == "ok" and judged.detail == "" and judged.index == 0
    with pytest.raises(ValueError):  # as many results after the rewrite as before
        judge_against_reference(arrays, results[:1], results, 1e-4, 1e-5, "r.npz")


def test_a_judgement_indexes_its_result_and_states_the_distances() -> None:
    ref = np.array([64.0, 0.0], np.float32)
    model = np.array([64.0, 1.0], np.float32)
    heirpy = np.array([64.0, -2.0], np.float32)
    judged = judge_rewrite(3, ref, model, heirpy, 1e-4, 1e-5)
    assert judged.index == 3
    assert judged.detail.startswith(
        "result #3: heirpy's output vs the reference max abs err 2, the model's own 1, "
        "heirpy's vs the model's 3 (atol "
    )
    assert judged.detail.endswith(": heirpy moved 1 value(s) further from the reference")
    differs = judge_rewrite(3, ref, model, model, 1e-4, 1e-5)
    assert differs.detail.startswith("result #3: ") and differs.detail.endswith(": the model's own arithmetic differs")


def test_the_plain_comparison_keeps_its_line_as_the_detail() -> None:
    ints = np.array([1, 2], np.int64)
    assert judge_rewrite(0, ints, ints, ints, 1e-4, 1e-5).detail == ""
    wrong = judge_rewrite(0, ints, ints, ints + 1, 1e-4, 1e-5)
    assert wrong.verdict == "MISMATCH" and wrong.detail.startswith("result #0")
    # a shape change is heirpy's fault even when the values it kept are the reference's
    ref = np.array([1.0, 2.0], np.float32)
    reshaped = judge_rewrite(0, ref, ref, ref.reshape(2, 1), 1e-4, 1e-5)
    assert reshaped.at_fault and reshaped.detail
