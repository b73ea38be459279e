"""Every FileCheck test of a transformation, run by the evaluator: the IR a RUN line
feeds `heirpy-opt -p PIPELINE` (each `// -----` chunk under --split-input-file) computes
the same before and after the pipeline, and after lowering tensor_ext, on random inputs
(tests/filecheck_numerics.py). The FileCheck tests pin the IR, these pin the numbers,
so each must-not-fire case is also a numeric test of the guard that keeps it unfused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from filecheck_numerics import NumericCase, case_problems, numeric_cases  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CASES = numeric_cases(ROOT / "tests" / "filecheck", ["transforms", "generated"], ROOT / "examples")


def test_every_fusion_pass_has_numeric_cases() -> None:
    passes = {case.test.parent.name for case in CASES}
    for name in ("linalg-canonicalizations", "linalg-fuse-conv-pool", "linalg-fuse-linear-chains",
                 "linalg-fuse-linear-ops", "linalg-fuse-pointwise", "linalg-fuse-ops", "lower-tensor-ext"):
        assert name in passes


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_filecheck_input_keeps_its_values(case: NumericCase) -> None:
    assert case_problems(case) == []


def test_a_wide_result_of_an_f16_computation_is_judged_in_f16() -> None:
    """torch-mlir's f16 form returns an f32 accumulator of f16 values: a difference within
    f16's rounding of the result passes, one far past it does not."""
    import numpy as np

    from filecheck_numerics import _result_problem

    before = np.array([1.0, -2.0, 0.5], np.float32)
    within = before + np.float32(2.0 * 2.0**-11)  # under half an f16 ulp of the largest value
    beyond = before + np.float32(0.1)  # about 50 f16 ulps of the largest value
    assert _result_problem(0, before, within, "p", np.dtype(np.float16)) is None
    assert _result_problem(0, before, within, "p", None) is not None  # f32 alone: 1e-4 relative
    assert _result_problem(0, before, beyond, "p", np.dtype(np.float16)) is not None
