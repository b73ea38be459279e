"""How heirpy-report judges numerics (docs/usage.md, "How numerics are judged"): a tolerance
from the result's float type and the magnitude of its values, and a verdict that keeps the
model's own arithmetic (before vs the reference) apart from heirpy's rewrite (after vs
before): a rewrite is at fault only where it moves a value further from the reference than
the model's own output is, by more than the tolerance.

Each case sits at the tolerance's limit and one representable value to each side, in f16
and in f32. The reference is [64, 0]: its largest value 64 sets the absolute tolerance,
4 ulps of the type at 64 (f16: 4 * 2^-10 * 64 = 0.25; f32: 4 * 2^-23 * 64 = 2^-15, above
the 1e-5 floor), and the element 0 is judged by it alone (its relative term is 0)."""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.interp.equivalence import compare_arrays, magnitude_tolerance
from heirpy.interp.reference import MODEL_DIFFERS, judge_rewrite

RTOL, ATOL = 1e-4, 1e-5  # heirpy-report's

DTYPES = [np.float16, np.float32]


def limit(dtype: type) -> float:
    """The absolute tolerance of a result whose largest value is 64 (the module docstring)."""
    return 4 * float(np.finfo(dtype).eps) * 64


def above(value: float, dtype: type) -> float:
    """The next value of `dtype` above `value`."""
    return float(np.nextafter(dtype(value), dtype(np.inf)))


def below(value: float, dtype: type) -> float:
    return float(np.nextafter(dtype(value), dtype(-np.inf)))


def arrays(dtype: type, second: float) -> np.ndarray:
    return np.array([64.0, second], dtype)


def verdict(dtype: type, model: float, heirpy: float) -> str:
    """The verdict when the reference's 0 comes out as `model` from the input model and as
    `heirpy` from heirpy's output (the 64 exactly, both times)."""
    return judge_rewrite(0, arrays(dtype, 0.0), arrays(dtype, model), arrays(dtype, heirpy), RTOL, ATOL).verdict


def test_the_tolerance_is_four_ulps_of_the_type_and_of_the_largest_value() -> None:
    assert magnitude_tolerance(arrays(np.float16, 0.0), RTOL, ATOL) == (2**-8, 0.25)
    assert magnitude_tolerance(arrays(np.float32, 0.0), RTOL, ATOL) == (RTOL, 2**-15)
    # small values: the requested atol is the floor; non-finite values set no magnitude
    assert magnitude_tolerance(np.array([1.0, np.inf], np.float32), RTOL, ATOL) == (RTOL, ATOL)
    assert magnitude_tolerance(np.array([0.5, -2.0], np.float16), RTOL, ATOL) == (2**-8, 4 * 2**-10 * 2)
    assert limit(np.float16) == 0.25 and limit(np.float32) == 2**-15


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_a_model_off_the_reference_is_the_models_difference_not_heirpys(dtype: type) -> None:
    """heirpy leaves the values as they are (after == before): never a mismatch. Within the
    tolerance the model itself matches ("ok"); one value further it does not, and the
    verdict says so, a pass."""
    tol = limit(dtype)
    assert verdict(dtype, below(tol, dtype), below(tol, dtype)) == "ok"
    assert verdict(dtype, tol, tol) == "ok"
    assert verdict(dtype, above(tol, dtype), above(tol, dtype)) == MODEL_DIFFERS
    assert verdict(dtype, 100 * tol, 100 * tol) == MODEL_DIFFERS
    assert verdict(dtype, -100 * tol, -100 * tol) == MODEL_DIFFERS


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_heirpy_changing_an_exact_model_is_its_fault_past_the_tolerance(dtype: type) -> None:
    tol = limit(dtype)
    assert verdict(dtype, 0.0, below(tol, dtype)) == "ok"
    assert verdict(dtype, 0.0, tol) == "ok"
    assert verdict(dtype, 0.0, -tol) == "ok"
    assert verdict(dtype, 0.0, above(tol, dtype)) == "MISMATCH"
    assert verdict(dtype, 0.0, -above(tol, dtype)) == "MISMATCH"


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_heirpy_is_judged_against_how_far_off_the_model_already_is(dtype: type) -> None:
    """The model is 8 tolerances off: heirpy's output may be anywhere within 9 of the
    reference (nearer than the model is, on the other side, or one tolerance further), but
    not one value past that."""
    tol = limit(dtype)
    model = 8 * tol
    for heirpy in (0.0, 0.5 * model, -model, -9 * tol, 9 * tol, below(9 * tol, dtype)):
        assert verdict(dtype, model, heirpy) == MODEL_DIFFERS, heirpy
    assert verdict(dtype, model, above(9 * tol, dtype)) == "MISMATCH"
    assert verdict(dtype, model, -above(9 * tol, dtype)) == "MISMATCH"


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_the_relative_term_scales_with_each_value(dtype: type) -> None:
    """At 64 the tolerance is atol + rtol * 64: f16 0.25 + 2^-8 * 64 = 0.5, one f16 ulp
    (2^-4 at 64) past it is a mismatch; f32 2^-15 + 1e-4 * 64."""
    ref = np.array([64.0, 0.0], dtype)
    rtol, atol = magnitude_tolerance(ref, RTOL, ATOL)
    edge = 64.0 + atol + rtol * 64.0
    exact = np.array([64.0, 0.0], dtype)
    # the largest value of dtype within the tolerance, and the next one
    inside = dtype(edge) if float(dtype(edge)) <= edge else np.nextafter(dtype(edge), dtype(0))
    outside = np.nextafter(inside, dtype(np.inf))
    assert judge_rewrite(0, ref, exact, np.array([inside, 0.0], dtype), RTOL, ATOL).verdict == "ok"
    assert judge_rewrite(0, ref, exact, np.array([outside, 0.0], dtype), RTOL, ATOL).verdict == "MISMATCH"
    if dtype is np.float16:
        assert float(inside) == 64.5 and float(outside) == 64.5625


def test_the_judgement_reports_the_three_distances() -> None:
    ref, model, heirpy = arrays(np.float16, 0.0), arrays(np.float16, 1.0), arrays(np.float16, -1.5)
    judged = judge_rewrite(0, ref, model, heirpy, RTOL, ATOL)
    assert judged.verdict == "MISMATCH" and judged.at_fault
    assert (judged.max_abs_error, judged.model_abs_error, judged.changed_abs_error) == (1.5, 1.0, 2.5)
    assert (judged.rtol, judged.atol) == (2**-8, 0.25)
    assert "heirpy moved 1 value(s) further from the reference" in judged.detail
    differs = judge_rewrite(0, ref, model, model, RTOL, ATOL)
    assert not differs.at_fault and "the model's own arithmetic differs" in differs.detail


def test_nan_in_the_model_excuses_heirpy_but_nan_from_heirpy_alone_does_not() -> None:
    ref = np.array([1.0, 2.0], np.float16)
    nan = np.array([1.0, np.nan], np.float16)
    assert judge_rewrite(0, ref, nan, nan, RTOL, ATOL).verdict == MODEL_DIFFERS
    assert judge_rewrite(0, ref, ref, nan, RTOL, ATOL).verdict == "MISMATCH"
    # a NaN in the reference proves nothing: not comparable, as before
    assert judge_rewrite(0, nan, nan, nan, RTOL, ATOL).verdict == "not comparable: reference has NaN"


def test_shapes_dtypes_and_integers_take_the_plain_comparison() -> None:
    ref = np.array([1.0, 2.0], np.float16)
    assert judge_rewrite(0, ref, ref, ref.astype(np.float32), RTOL, ATOL).verdict == "MISMATCH"
    ints = np.array([1, 2], np.int64)
    assert judge_rewrite(0, ints, ints, ints, RTOL, ATOL).verdict == "ok"
    assert judge_rewrite(0, ints, ints + 1, ints + 1, RTOL, ATOL).verdict == MODEL_DIFFERS
    assert judge_rewrite(0, ints, ints, ints + 1, RTOL, ATOL).verdict == "MISMATCH"


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_compare_arrays_scales_atol_only_when_asked(dtype: type) -> None:
    """The evaluator check (heirpy's output against the input model on random inputs) uses
    the same tolerance: at the limit ok, one value past it a mismatch; without `scale_atol`
    (heirpy-equiv, the tests' own checks) the limit stays 4 ulps of the type at 1."""
    tol = limit(dtype)
    ref = arrays(dtype, 0.0)
    assert compare_arrays(0, ref, arrays(dtype, tol), RTOL, ATOL, scale_atol=True).ok
    assert not compare_arrays(0, ref, arrays(dtype, above(tol, dtype)), RTOL, ATOL, scale_atol=True).ok
    assert not compare_arrays(0, ref, arrays(dtype, tol), RTOL, ATOL).ok
