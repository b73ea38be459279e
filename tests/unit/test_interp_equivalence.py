"""The equivalence checker passes identical functions and flags a wrong rewrite."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from heirpy.api import print_module
from heirpy.interp import EvaluationError, check_equivalence, load_file, load_module, run_function
from heirpy.interp.equivalence import EquivalenceReport, ResultComparison, compare_arrays

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"

CONV = """
func.func @main(%x: tensor<1x2x6x6xf32>) -> tensor<1x3x4x4xf32> {
  %w = arith.constant dense<FILTER> : tensor<3x2x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>)
         outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}
"""


def conv_module(weights: np.ndarray) -> str:
    return CONV.replace("FILTER", np.array2string(weights, separator=", ", threshold=10**6, floatmode="unique"))


def test_identity_rewrite_passes() -> None:
    weights = np.random.default_rng(0).standard_normal((3, 2, 3, 3)).astype(np.float32)
    before = load_module(conv_module(weights))
    # A print / parse round trip is the identity rewrite every pass starts from.
    after = load_module(print_module(before.module))
    report = check_equivalence(before.module, after.module)
    assert report.ok, report.summary()
    assert report.results[0].max_abs_error == 0.0


def test_one_changed_filter_weight_is_flagged() -> None:
    weights = np.random.default_rng(0).standard_normal((3, 2, 3, 3)).astype(np.float32)
    changed = weights.copy()
    changed[1, 0, 2, 1] += 0.25
    report = check_equivalence(load_module(conv_module(weights)).module, load_module(conv_module(changed)).module)
    assert not report.ok
    assert report.results[0].max_abs_error > 0.1
    assert "NOT equivalent" in report.summary()


def test_changed_weight_in_a_front_end_model_is_flagged() -> None:
    text = (EXAMPLES_DIR / "tiny_cnn_onnx.mlir").read_text()
    original = "-0.0024956069"  # the first weight of the first conv filter
    assert text.count(original) == 1
    before = load_module(text)
    after = load_module(text.replace(original, "0.5"))
    assert check_equivalence(before.module, before.module, "main_graph").ok
    report = check_equivalence(before.module, after.module, "main_graph")
    assert not report.ok, report.summary()


def test_same_resource_names_with_different_blobs_are_kept_apart() -> None:
    """Both modules name their blobs alike (xDSL would share them): the checker must
    still compare the two filters, not one filter with itself."""
    text = (EXAMPLES_DIR / "tiny_cnn.mlir").read_text()
    blob = '"0x04000000568D23BB'  # header, then the first weight of the first conv filter
    assert text.count(blob) == 1
    before = load_file(EXAMPLES_DIR / "tiny_cnn.mlir")
    after = load_module(text.replace(blob, '"0x040000000000803F'))  # that weight := 1.0
    same = check_equivalence(before.module, before.module, resources_a=before.resources, resources_b=before.resources)
    assert same.ok
    report = check_equivalence(
        before.module, after.module, resources_a=before.resources, resources_b=after.resources
    )
    assert not report.ok, report.summary()


INT_MODULE = """
func.func @main(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %r = arith.addi %a, %b OFFSET: tensor<4xi8>
  return RESULT : tensor<4xi8>
}
"""


def test_integer_results_compare_exactly() -> None:
    plain = INT_MODULE.replace("OFFSET", "").replace("RESULT", "%r")
    plus_one = INT_MODULE.replace(" OFFSET", "").replace(
        "  return RESULT",
        "  %one = arith.constant dense<1> : tensor<4xi8>\n  %s = arith.addi %r, %one : tensor<4xi8>\n  return %s",
    )
    a, b = load_module(plain).module, load_module(plus_one).module
    assert check_equivalence(a, a).ok
    # A difference of 1 is far below rtol * |a| for most values: integers must still differ.
    report = check_equivalence(a, b, rtol=1.0, atol=1.0)
    assert not report.ok
    assert report.results[0].max_abs_error == 1.0


def test_signature_mismatch_is_reported() -> None:
    conv = load_module(conv_module(np.zeros((3, 2, 3, 3), np.float32))).module
    tiny = load_file(EXAMPLES_DIR / "tiny_cnn.mlir")
    report = check_equivalence(conv, tiny.module, resources_b=tiny.resources)
    assert not report.ok
    assert "argument types differ" in report.summary()


def test_signature_mismatch_lists_every_argument_type() -> None:
    def module(types: str) -> str:
        a, b = types.split(", ")
        return f"func.func @main(%a: {a}, %b: {b}) -> {a} {{\n  return %a : {a}\n}}\n"

    report = check_equivalence(load_module(module("tensor<2xf32>, tensor<3xf32>")).module,
                               load_module(module("tensor<2xf32>, tensor<4xf32>")).module)
    assert report.problems == (
        "argument types differ: (tensor<2xf32>, tensor<3xf32>) vs (tensor<2xf32>, tensor<4xf32>)",
    )


def test_padded_args_feed_the_wider_argument_the_input_with_zeros_added() -> None:
    """`padded_args` (heir-prepare's pad-input-channels): the second module's argument
    may be larger in each dim, and gets the first's input with zeros at the end; an
    argument that would need cutting is still a mismatch."""
    weights = np.arange(54, dtype=np.float32).reshape(3, 2, 3, 3) / 50
    wide = np.zeros((3, 4, 3, 3), np.float32)
    wide[:, :2] = weights
    narrow = load_module(conv_module(weights)).module
    widened = load_module(conv_module(wide).replace("tensor<1x2x6x6xf32>", "tensor<1x4x6x6xf32>")
                          .replace("tensor<3x2x3x3xf32>", "tensor<3x4x3x3xf32>")).module
    assert check_equivalence(narrow, widened, padded_args=True).ok
    assert "argument types differ" in check_equivalence(narrow, widened).summary()
    # A nonzero weight on an added channel reads the zeros: still equal. Reading the
    # first input's channels in the wrong place is not.
    wide[:, 2:] = 1.0
    assert check_equivalence(narrow, load_module(conv_module(wide).replace("tensor<1x2x6x6xf32>", "tensor<1x4x6x6xf32>")
                             .replace("tensor<3x2x3x3xf32>", "tensor<3x4x3x3xf32>")).module, padded_args=True).ok
    shifted = np.zeros((3, 4, 3, 3), np.float32)
    shifted[:, 2:] = weights
    assert not check_equivalence(narrow, load_module(conv_module(shifted).replace("tensor<1x2x6x6xf32>", "tensor<1x4x6x6xf32>")
                                 .replace("tensor<3x2x3x3xf32>", "tensor<3x4x3x3xf32>")).module, padded_args=True).ok
    assert not check_equivalence(widened, narrow, padded_args=True).ok  # narrower: no padding


def test_run_function_returns_one_array_per_result() -> None:
    loaded = load_module(INT_MODULE.replace("OFFSET", "").replace("RESULT", "%r"))
    a = np.array([100, 1, -128, 5], dtype=np.int8)
    (result,) = run_function(loaded.module, "main", [a, a])
    np.testing.assert_array_equal(result, np.array([-56, 2, 0, 10], dtype=np.int8))


def test_report_text_is_exact() -> None:
    """heirpy-equiv prints this summary: users read the verdicts, shapes and errors."""

    good = ResultComparison(0, (2, 3), "float32", 1.5e-7, 2e-7, True)
    bad = ResultComparison(1, (), "int32", 3.0, 0.5, False, "(2,) int32 vs () int32")
    report = EquivalenceReport("main", (0, 1), 1e-4, 1e-5, (good, bad))
    assert report.summary() == (
        "@main on seeds [0, 1] (rtol 0.0001, atol 1e-05): NOT equivalent\n"
        "  result #0 2x3 float32: max abs err 1.5e-07, max rel err 2e-07  ok\n"
        "  result #1 scalar int32: max abs err 3, max rel err 0.5  MISMATCH ((2,) int32 vs () int32)"
    )
    fine = EquivalenceReport("f", (3,), 1e-4, 1e-5, (good,))
    assert fine.summary().splitlines()[0] == "@f on seeds [3] (rtol 0.0001, atol 1e-05): equivalent"
    broken = EquivalenceReport("f", (3,), 1e-4, 1e-5, (), ("result counts differ: 1 vs 2",))
    assert broken.summary().splitlines() == [
        "@f on seeds [3] (rtol 0.0001, atol 1e-05): NOT equivalent",
        "  error: result counts differ: 1 vs 2",
    ]


def test_nan_in_the_rewrite_only_is_a_mismatch() -> None:
    """A rewrite that computes NaN where the original computed a number differs (NaN
    equals NaN only when both sides hold it)."""
    expected = np.array([1.0, 2.0], dtype=np.float32)
    comparison = compare_arrays(0, expected, np.array([1.0, np.nan], dtype=np.float32), 1e-4, 1e-5)
    assert not comparison.ok
    assert comparison.max_abs_error == float("inf")


def test_results_of_another_shape_or_dtype_are_a_mismatch() -> None:
    expected = np.zeros((2, 3), dtype=np.float32)
    for actual in (np.zeros((3, 2), dtype=np.float32), np.zeros((2, 3), dtype=np.float64)):
        comparison = compare_arrays(1, expected, actual, 1e-4, 1e-5)
        assert not comparison.ok
        assert (comparison.max_abs_error, comparison.max_rel_error) == (float("inf"), float("inf"))
    assert "(3, 2) float32 vs (2, 3) float32" in compare_arrays(1, expected, np.zeros((3, 2), np.float32), 0, 0).line()


def test_dense_resource_without_a_blob_is_an_error_naming_it() -> None:
    ir = """func.func @main() -> tensor<2xf32> {
  %c = arith.constant dense_resource<missing_blob> : tensor<2xf32>
  return %c : tensor<2xf32>
}"""
    loaded = load_module(ir)
    with pytest.raises(EvaluationError, match=r"^<string>:2:8: error: 'arith.constant' reads "
                                              r"dense_resource<missing_blob>, which has no blob$"):
        run_function(loaded.module, "main", [], resources=loaded.resources)


@pytest.mark.parametrize(
    ("reference", "output", "why"),
    [
        ([np.nan, 1.0], [np.nan, 1.0], "reference has NaN"),
        ([np.inf, 1.0], [np.inf, 1.0], "reference has Inf"),
        ([np.nan, -np.inf], [np.nan, -np.inf], "reference has NaN and Inf"),
        ([np.nan, 1.0], [2.0, 1.0], "reference has NaN"),  # a number where NaN was: no truth to compare with
    ],
)
def test_nan_or_inf_in_the_reference_is_not_comparable_never_ok(reference: list[float], output: list[float], why: str) -> None:
    """Issue 25: equal NaNs (or infinities) were "ok (max abs err 0)". Two computations that
    both overflow say nothing about whether they agree."""
    comparison = compare_arrays(0, np.array(reference, np.float32), np.array(output, np.float32), 1e-4, 1e-5)
    assert not comparison.ok
    assert comparison.verdict == f"not comparable: {why}"
    assert comparison.line().endswith(f"not comparable: {why}")


def test_a_mismatch_among_finite_values_outranks_not_comparable() -> None:
    comparison = compare_arrays(0, np.array([np.nan, 1.0], np.float32), np.array([np.nan, 3.0], np.float32), 1e-4, 1e-5)
    assert comparison.verdict == "MISMATCH"
    assert comparison.max_abs_error == 2.0


def test_nan_out_where_the_reference_has_a_number_is_a_mismatch_that_says_so() -> None:
    comparison = compare_arrays(0, np.array([1.0, 2.0], np.float32), np.array([np.inf, 2.0], np.float32), 1e-4, 1e-5)
    assert comparison.verdict == "MISMATCH"
    assert comparison.problem == "output has NaN or Inf where the reference has a number"


def test_equivalence_report_verdicts() -> None:
    ok = ResultComparison(0, (2,), "float32", 0.0, 0.0, True)
    nan = ResultComparison(1, (2,), "float32", 0.0, 0.0, False, "", "reference has NaN")
    bad = ResultComparison(2, (2,), "float32", 1.0, 1.0, False)
    assert EquivalenceReport("f", (0,), 1e-4, 1e-5, (ok,)).verdict == "equivalent"
    assert EquivalenceReport("f", (0,), 1e-4, 1e-5, (ok, nan)).verdict == "not comparable: reference has NaN"
    assert EquivalenceReport("f", (0,), 1e-4, 1e-5, (nan, bad)).verdict == "NOT equivalent"


def test_check_equivalence_on_overflowing_inputs_is_not_comparable() -> None:
    """x*1e30 squared overflows f32 on every random input, before and after alike."""
    ir = """func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = arith.constant dense<1.0e+30> : tensor<3xf32>
  %m = arith.mulf %x, %c : tensor<3xf32>
  %s = arith.mulf %m, %m : tensor<3xf32>
  %d = arith.subf %s, %s : tensor<3xf32>
  return %d : tensor<3xf32>
}"""
    a, b = load_module(ir), load_module(ir)
    report = check_equivalence(a.module, b.module, "main", seeds=(0, 1))
    assert not report.ok
    assert report.verdict == "not comparable: reference has NaN"
    assert report.summary().splitlines()[0].endswith("not comparable: reference has NaN")


HALF = """func.func @main(%x: tensor<3xf16>) -> tensor<3xf16> {
  %c = arith.constant dense<[0.5, 1.5, 65504.0]> : tensor<3xf16>
  %a = arith.addf %x, %c : tensor<3xf16>
  %b = arith.addf %a, %c : tensor<3xf16>
  return %b : tensor<3xf16>
}
"""


def test_widened_floats_compares_an_f32_twin_read_in_the_models_type() -> None:
    """heir-prepare's f32 form of an f16 function: the arguments get the inputs in f32 and
    the results are rounded to f16 (x + 2 * 65504, past f16's range, is f16's Inf on
    both sides, with no overflow warning); without `widened_floats` the signatures differ."""
    wide = load_module(HALF.replace("xf16", "xf32"))
    half = load_module(HALF)
    with np.errstate(over="raise"):
        report = check_equivalence(half.module, wide.module, "main", seeds=(0, 1), rtol=1e-3, atol=1e-3,
                                   widened_floats=True, nonfinite_equal=True)
    assert report.ok, report.summary()
    assert not check_equivalence(half.module, wide.module, "main", seeds=(0,)).ok
    shifted = load_module(HALF.replace("xf16", "xf32").replace("0.5, 1.5", "0.75, 1.5"))
    assert not check_equivalence(half.module, shifted.module, "main", seeds=(0,), rtol=1e-3, atol=1e-3,
                                 widened_floats=True, nonfinite_equal=True).ok
