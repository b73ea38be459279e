"""heirpy.interp.equivalence's parts on their own: the random inputs each element type
gets, the zero padding of a widened argument (and the shapes it leaves alone), the
relative error's zero and infinite references, the non-finite rules of `compare_arrays`,
and how `_merge` keeps a mismatch over a not-comparable verdict across seeds."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerType, Signedness, TensorType, f16, f32, i1, i8, i64

from heirpy.interp.equivalence import (
    _max_rel,
    _merge,
    compare_arrays,
    magnitude_tolerance,
    padded_to,
    random_input,
)
from heirpy.interp.errors import EvaluationError


def test_random_inputs_per_element_type() -> None:
    rng = np.random.default_rng(0)
    floats = random_input(TensorType(f16, [400]), rng)
    assert floats.dtype == np.float16 and floats.min() < -1 and floats.max() > 1  # standard normal
    flags = random_input(TensorType(i1, [400]), rng)
    assert flags.dtype == np.bool_ and set(flags.tolist()) == {False, True}
    signed = random_input(TensorType(i8, [400]), rng)
    assert signed.dtype == np.int8 and set(signed.tolist()) == set(range(-4, 5))
    index = random_input(TensorType(IndexType(), [400]), rng)
    assert index.dtype == np.int64 and set(index.tolist()) == set(range(0, 9))
    unsigned = random_input(TensorType(IntegerType(16, Signedness.UNSIGNED), [400]), rng)
    assert unsigned.dtype == np.uint16 and set(unsigned.tolist()) == set(range(0, 9))
    assert random_input(i64, rng).shape == ()
    with pytest.raises(EvaluationError) as err:
        random_input(TensorType(f32, [2, DYNAMIC_INDEX]), rng)
    assert str(err.value) == "error: cannot draw a random input of dynamic type tensor<2x?xf32>"


def test_padding_a_widened_argument() -> None:
    x = np.ones((1, 3, 2), np.float32)
    padded = padded_to(x, TensorType(f32, [1, 4, 3]))
    assert padded.shape == (1, 4, 3) and padded.sum() == 6 and padded[0, 3].sum() == 0 and padded[0, :3, 2].sum() == 0
    assert padded_to(x, TensorType(f32, [1, 3, 2])) is not None
    for other in ([1, 2, 2], [1, 3], [1, 3, DYNAMIC_INDEX]):  # narrower, another rank, dynamic: left alone
        assert padded_to(x, TensorType(f32, other)).shape == (1, 3, 2)


def test_relative_errors_of_zero_and_infinite_references() -> None:
    assert _max_rel(np.array([0.0, 0.0]), np.array([0.0, 0.0])) == 0.0
    assert _max_rel(np.array([0.5, 0.0]), np.array([0.0, 0.0])) == float("inf")
    assert _max_rel(np.array([0.0, 0.5]), np.array([0.0, 2.0])) == 0.25
    assert _max_rel(np.array([0.0, 0.5]), np.array([np.inf, 2.0])) == 0.25  # same infinity: 0
    assert _max_rel(np.array([np.inf, 0.0]), np.array([np.inf, 2.0])) == float("inf")


def test_nonfinite_rules() -> None:
    ref = np.array([1.0, np.nan, np.inf], np.float32)
    same = compare_arrays(0, ref, ref.copy(), 1e-4, 1e-5, nonfinite_equal=True)
    assert same.ok and same.verdict == "ok"
    plain = compare_arrays(0, ref, ref.copy(), 1e-4, 1e-5)
    assert not plain.ok and plain.verdict == "not comparable: reference has NaN and Inf"
    swapped = compare_arrays(0, ref, np.array([1.0, np.inf, np.nan], np.float32), 1e-4, 1e-5, nonfinite_equal=True)
    assert not swapped.ok and swapped.max_abs_error == float("inf")
    nan_out = compare_arrays(0, np.array([1.0, 2.0], np.float32), np.array([1.0, np.nan], np.float32), 1e-4, 1e-5)
    assert nan_out.verdict == "MISMATCH" and nan_out.problem == "output has NaN or Inf where the reference has a number"
    assert magnitude_tolerance(np.array([np.inf, -3.0, 2.0], np.float32), 0.0, 0.0)[1] == 4 * 2.0**-23 * 3.0


def test_merging_seeds_keeps_the_worst() -> None:
    ok = compare_arrays(0, np.array([1.0], np.float32), np.array([1.0], np.float32), 1e-4, 1e-5)
    bad = compare_arrays(0, np.array([1.0], np.float32), np.array([2.0], np.float32), 1e-4, 1e-5)
    nan = compare_arrays(0, np.array([np.nan], np.float32), np.array([np.nan], np.float32), 1e-4, 1e-5)
    assert _merge(ok, bad).verdict == "MISMATCH" and _merge(ok, bad).max_abs_error == 1.0
    assert _merge(nan, ok).verdict == "not comparable: reference has NaN"
    assert _merge(ok, nan).verdict == "not comparable: reference has NaN"
    assert _merge(nan, bad).verdict == "MISMATCH" and _merge(bad, nan).verdict == "MISMATCH"
    assert _merge(ok, ok).verdict == "ok"
