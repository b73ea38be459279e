"""Are two modules the same function? Run both on the same random inputs and compare.

    report = check_equivalence(before, after, function="main", seeds=(0, 1, 2))
    if not report.ok:
        print(report.summary())

Inputs are drawn from the function signature: floats from a standard normal, signed
integers from [-4, 4], unsigned and index from [0, 8], i1 uniformly. Float results pass
when `|b - a| <= atol + rtol * |a|` elementwise (`a` from the first module, the
reference); integer results must be equal. The report keeps the max absolute and
relative error of each result over all seeds.

A result has one of three verdicts. "ok": every element within tolerance. "MISMATCH":
some element is not (a NaN or Inf in `b` where `a` holds a number is one). "not
comparable": the reference itself holds NaN or Inf (x² overflowing, say) and the finite
elements agree; equal NaNs say nothing about whether two computations agree, so that is
never "ok", and a checker treats it as not passed.

`nonfinite_equal=True` is for test harnesses that check a rewrite keeps a program's
values, NaN and Inf included (generated programs, the FileCheck inputs' numerics): there
a NaN or Inf must come out as the same NaN or Inf, which then counts as agreeing.

A result is compared no more finely than its own type rounds: `rtol` and `atol` are at
least `ULPS_OF_SLACK` units in the last place of its float type (`compare_arrays`). For
f32 that is 4.8e-7, under the usual 1e-4 and 1e-5; for f16 it is 3.9e-3, because the
same function rounded to f16 at other points (PyTorch's half sigmoid computed in f32 and
rounded once, against the IR's four f16 ops; a bias added before or after a conv's f32
sum) differs by a unit or two in the last place, 4.9e-4 just under 1.

`scale_atol=True` (heirpy-report's checks) also judges an element against the magnitude
of its whole result: `atol` is at least `ULPS_OF_SLACK` ulps of the largest finite
value of the reference (`magnitude_tolerance`). A value near zero that came out of a
sum of large terms (a box corner `anchor - distance`, a conv output that cancels) is
off by a few ulps of those terms, not of itself; in f16, 4 ulps of 64 are 0.25.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IndexType, ModuleOp, ShapedType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from heirpy.interp.errors import EvaluationError
from heirpy.interp.evaluator import Evaluator
from heirpy.ir.constants import element_dtype, float_eps, is_float_dtype
from heirpy.ir.utils import element_type, static_shape


@dataclass(frozen=True)
class ResultComparison:
    """One result of the function, compared over every seed."""

    index: int
    shape: tuple[int, ...]
    dtype: str
    max_abs_error: float
    max_rel_error: float
    ok: bool
    problem: str = ""  # a shape or dtype mismatch, when there is one
    not_comparable: str = ""  # why the values cannot be compared ("reference has NaN")
    judged: str = ""  # how a half-precision result off the plain tolerance was judged (`judge_half`)

    @property
    def verdict(self) -> str:
        """'ok', 'MISMATCH' or 'not comparable: <why>' (the module docstring)."""
        if self.ok:
            return "ok"
        return f"not comparable: {self.not_comparable}" if self.not_comparable else "MISMATCH"

    def line(self) -> str:
        shape = "x".join(map(str, self.shape)) or "scalar"
        text = (
            f"result #{self.index} {shape} {self.dtype}: max abs err {self.max_abs_error:.3g}, "
            f"max rel err {self.max_rel_error:.3g}  {self.verdict}"
        )
        text = f"{text} ({self.problem})" if self.problem else text
        return f"{text}; {self.judged}" if self.judged else text


@dataclass(frozen=True)
class EquivalenceReport:
    function: str
    seeds: tuple[int, ...]
    rtol: float
    atol: float
    results: tuple[ResultComparison, ...]
    problems: tuple[str, ...] = ()  # signature mismatches: nothing was run

    @property
    def ok(self) -> bool:
        return not self.problems and all(r.ok for r in self.results)

    @property
    def verdict(self) -> str:
        """'equivalent', 'NOT equivalent' (a result differs, or the signatures do), or
        'not comparable: <why>' (no result differs, but a reference value is NaN or Inf)."""
        if self.ok:
            return "equivalent"
        if self.problems or any(r.verdict == "MISMATCH" for r in self.results):
            return "NOT equivalent"
        first = next(r for r in self.results if not r.ok)
        return f"not comparable: {first.not_comparable}"

    def summary(self) -> str:
        head = (
            f"@{self.function} on seeds {list(self.seeds)} (rtol {self.rtol:g}, atol {self.atol:g}): "
            f"{self.verdict}"
        )
        return "\n".join([head, *(f"  error: {p}" for p in self.problems), *(f"  {r.line()}" for r in self.results)])


ULPS_OF_SLACK = 4
"""The least tolerance of a float comparison, in units in the last place of its type."""


def type_tolerance(dtype: np.dtype, rtol: float, atol: float) -> tuple[float, float]:
    """`(rtol, atol)` raised to `ULPS_OF_SLACK` ulps of the float `dtype` (see above)."""
    floor = ULPS_OF_SLACK * float_eps(dtype)
    return max(rtol, floor), max(atol, floor)


def magnitude_tolerance(expected: np.ndarray, rtol: float, atol: float) -> tuple[float, float]:
    """`(rtol, atol)` of a float result compared with `expected`: `type_tolerance`, and
    `atol` at least `ULPS_OF_SLACK * eps * max|expected|` over its finite values (the
    module docstring: an element is as exact as the magnitude of its result allows)."""
    rtol, atol = type_tolerance(expected.dtype, rtol, atol)
    values = np.abs(expected[np.isfinite(expected)].astype(np.float64))
    largest = float(values.max(initial=0.0))
    return rtol, max(atol, ULPS_OF_SLACK * float_eps(expected.dtype) * largest)


def compare_arrays(
    index: int, expected: np.ndarray, actual: np.ndarray, rtol: float, atol: float,
    *, nonfinite_equal: bool = False, scale_atol: bool = False,
) -> ResultComparison:
    """Compare one pair of results (`expected` is the reference; `nonfinite_equal`: the
    module docstring); float tolerances are at least `ULPS_OF_SLACK` ulps of the result
    type (`type_tolerance`), and with `scale_atol` of its largest value
    (`magnitude_tolerance`)."""
    expected, actual = np.asarray(expected), np.asarray(actual)
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return ResultComparison(
            index, expected.shape, str(expected.dtype), float("inf"), float("inf"), False,
            f"{actual.shape} {actual.dtype} vs {expected.shape} {expected.dtype}",
        )
    if not is_float_dtype(expected.dtype):
        diff = np.abs(expected.astype(np.float64) - actual.astype(np.float64))
        max_abs = float(diff.max(initial=0.0))
        return ResultComparison(index, expected.shape, str(expected.dtype), max_abs,
                                _max_rel(diff, expected), bool(np.array_equal(expected, actual)))
    rtol, atol = magnitude_tolerance(expected, rtol, atol) if scale_atol else type_tolerance(expected.dtype, rtol, atol)
    a, b = expected.astype(np.float64), actual.astype(np.float64)
    defined = np.isfinite(a)  # only a finite reference says what the value should be
    with np.errstate(invalid="ignore"):
        diff = np.where(defined, np.abs(a - b), 0.0)
    diff = np.where(np.isnan(diff), np.inf, diff)  # NaN out, number in: infinitely off
    if nonfinite_equal:  # the same NaN or Inf agrees; anything else there is infinitely off
        same = (np.isnan(a) & np.isnan(b)) | (a == b)
        diff = np.where(defined | same, diff, np.inf)
    ok = bool(np.all(diff <= atol + rtol * np.where(defined, np.abs(a), 0.0)))
    max_abs, max_rel = float(diff.max(initial=0.0)), _max_rel(diff, a)
    problem = "" if ok or np.all(np.isfinite(b[defined])) else "output has NaN or Inf where the reference has a number"
    reason = _non_finite(a, "reference") if ok and not nonfinite_equal else ""
    return ResultComparison(index, expected.shape, str(expected.dtype), max_abs, max_rel,
                            ok and not reason, problem, reason)


def moved_further(reference: np.ndarray, before: np.ndarray, after: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    """Where `after` is further from `reference` than `before` is, by more than
    `atol + rtol * |reference|` (elementwise; NaN where the reference is a number counts as
    infinitely off, and an infinite `before` error excuses nothing further)."""
    ref, b, a = (np.asarray(x).astype(np.float64) for x in (reference, before, after))
    with np.errstate(invalid="ignore"):
        model_err, rewrite_err = np.abs(b - ref), np.abs(a - ref)
    model_err, rewrite_err = (np.where(np.isnan(e), np.inf, e) for e in (model_err, rewrite_err))
    with np.errstate(invalid="ignore"):  # inf - inf: the model was already infinitely off
        return np.asarray(rewrite_err - model_err > atol + rtol * np.abs(ref))


def is_half(dtype: np.dtype) -> bool:
    """f16 or bf16: a type whose roundings a deep function's output shows by many ulps."""
    return dtype == np.float16 or dtype.name == "bfloat16"


def judge_half(
    plain: ResultComparison, wide: np.ndarray, expected: np.ndarray, actual: np.ndarray, rtol: float, atol: float
) -> ResultComparison:
    """A half-precision result that missed the plain tolerance (`plain`), judged against
    `wide`, the first module's function computed in f32 (`heir-widen-half`): it passes when
    the second module moves no element further from `wide` (rounded once to the half type)
    than the first module's own output, by more than `magnitude_tolerance` (the rule of
    `reference.judge_rewrite`). Why: the plain rule compares two roundings of the same
    function within 4 ulps, but a deep f16 network's output carries tens of ulps of its own
    rounding error (EfficientNet-lite0's IR: 2.1e-2 off its f32 computation at logits of 4),
    so a rewrite that rounds at other points (a batch norm folded into f16 weights rounds
    each weight once, where the IR rounded the activation four times) misses it while it
    is as close to the exact values; a wrong rewrite is still off the f32 computation."""
    if plain.ok or plain.problem or plain.not_comparable:
        return plain
    reference = rounded_to(wide, expected.dtype)
    if reference.shape != expected.shape or not np.all(np.isfinite(reference)):
        return plain
    rtol, atol = magnitude_tolerance(reference, rtol, atol)
    worse = moved_further(reference, expected, actual, rtol, atol)
    ref = reference.astype(np.float64)
    err_a = float(np.max(np.abs(expected.astype(np.float64) - ref), initial=0.0))
    err_b = float(np.max(np.abs(actual.astype(np.float64) - ref), initial=0.0))
    verdict = f"moved {int(worse.sum())} value(s) further" if np.any(worse) else "ok"
    note = (f"against the first computed in f32: max abs err {err_b:.3g}, the first's own {err_a:.3g} "
            f"(atol {atol:.3g}, rtol {rtol:.3g}): {verdict}")
    return dataclasses.replace(plain, ok=not np.any(worse), judged=note)


def _non_finite(values: np.ndarray, side: str) -> str:
    """'reference has NaN' (or Inf, or NaN and Inf), or '' when every value is finite."""
    kinds = [name for name, test in (("NaN", np.isnan), ("Inf", np.isinf)) if np.any(test(values))]
    return f"{side} has {' and '.join(kinds)}" if kinds else ""


def _max_rel(diff: np.ndarray, reference: np.ndarray) -> float:
    scale = np.abs(reference.astype(np.float64))
    nonzero = scale > 0
    if not np.any(nonzero):
        return 0.0 if not np.any(diff) else float("inf")
    d, s = diff[nonzero], scale[nonzero]
    # An infinite reference has no relative error to divide out: 0 where the other side
    # is the same infinity (diff 0), inf otherwise (inf / inf would be NaN).
    rel = np.where(d > 0, np.inf, 0.0)
    finite = np.isfinite(s)
    rel[finite] = d[finite] / s[finite]
    return float(np.max(rel))


def _in_shape_of(expected: np.ndarray, actual: np.ndarray) -> np.ndarray:
    expected, actual = np.asarray(expected), np.asarray(actual)
    return actual.reshape(expected.shape) if actual.size == expected.size else actual


def _merge(a: ResultComparison, b: ResultComparison) -> ResultComparison:
    mismatch = "MISMATCH" in (a.verdict, b.verdict)
    return ResultComparison(
        a.index, a.shape, a.dtype, max(a.max_abs_error, b.max_abs_error),
        max(a.max_rel_error, b.max_rel_error), a.ok and b.ok, a.problem or b.problem,
        "" if mismatch else a.not_comparable or b.not_comparable, _merge_judged(a.judged, b.judged),
    )


def _merge_judged(a: str, b: str) -> str:
    """The notes of two seeds: the one that failed (it says why), else the first."""
    return next((j for j in (a, b) if "further" in j), a or b)


def random_input(type_: Attribute, rng: np.random.Generator) -> np.ndarray:
    """A random value of an argument type; a dynamic dim is an error (no size to draw)."""
    shape: tuple[int, ...] = ()
    if isinstance(type_, ShapedType):
        shape = type_.get_shape()
        if any(d < 0 for d in shape):
            raise EvaluationError(f"error: cannot draw a random input of dynamic type {type_}")
    dtype = element_dtype(type_)
    if is_float_dtype(dtype):
        return rng.standard_normal(shape).astype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    low = -4 if dtype.kind == "i" and not _is_index(type_) else 0
    return rng.integers(low, low + 9, shape).astype(dtype)


def _is_index(type_: Attribute) -> bool:
    element = element_type(type_)
    return isinstance(element, IndexType)


def random_inputs(func: FuncOp, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [random_input(t, rng) for t in func.function_type.inputs.data]


def padded_to(array: np.ndarray, type_: Attribute) -> np.ndarray:
    """`array` with zeros added at the high end of each dim up to `type_`'s static shape
    (an argument `legalize-for-heir{pad-input-channels}` widened), else `array` itself."""
    shape = static_shape(type_)
    array = np.asarray(array)
    if shape is None or len(shape) != array.ndim or shape == array.shape or any(
        s < d for s, d in zip(shape, array.shape)
    ):
        return array
    return np.pad(array, [(0, s - d) for s, d in zip(shape, array.shape)])


def padded_inputs(inputs: Sequence[np.ndarray], func: FuncOp) -> list[np.ndarray]:
    """`inputs` for `func`, each zero-padded to its argument's shape where that is larger."""
    return [padded_to(x, t) for x, t in zip(inputs, func.function_type.inputs.data)]


def _widened(a: Attribute, b: Attribute) -> bool:
    shape_a, shape_b = static_shape(a), static_shape(b)
    return (shape_a is not None and shape_b is not None and len(shape_a) == len(shape_b)
            and all(x <= y for x, y in zip(shape_a, shape_b)))


def _same_but_wider_float(a: Attribute, b: Attribute) -> bool:
    """`b` is `a`'s shape in a float type at least as wide (f16 -> f32)."""
    dtype_a, dtype_b = element_dtype(a), element_dtype(b)
    return (static_shape(a) == static_shape(b) and is_float_dtype(dtype_a) and is_float_dtype(dtype_b)
            and dtype_b.itemsize >= dtype_a.itemsize)


def _signature_problems(a: FuncOp, b: FuncOp, padded_args: bool = False, widened_floats: bool = False) -> list[str]:
    problems = []
    ins_a, ins_b = a.function_type.inputs.data, b.function_type.inputs.data
    outs_a, outs_b = a.function_type.outputs.data, b.function_type.outputs.data
    if padded_args and len(ins_a) == len(ins_b) and all(x == y or _widened(x, y) for x, y in zip(ins_a, ins_b)):
        pass
    elif widened_floats and len(ins_a) == len(ins_b) and all(
        x == y or _same_but_wider_float(x, y) for x, y in zip(ins_a, ins_b)
    ):
        pass
    elif ins_a != ins_b:
        problems.append(f"argument types differ: ({', '.join(map(str, ins_a))}) vs ({', '.join(map(str, ins_b))})")
    if len(outs_a) != len(outs_b):
        problems.append(f"result counts differ: {len(outs_a)} vs {len(outs_b)}")
    return problems


def rounded_to(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`values` rounded to the float `dtype` when both are floats of different types,
    else `values` itself (a widened result read in the model's storage type)."""
    values = np.asarray(values)
    if values.dtype == dtype or not (is_float_dtype(values.dtype) and is_float_dtype(dtype)):
        return values
    with np.errstate(over="ignore"):  # past the narrow type's range is its Inf, as storing it gives
        return values.astype(dtype)


def check_equivalence(
    module_a: ModuleOp,
    module_b: ModuleOp,
    function: str = "main",
    seeds: Sequence[int] = (0, 1, 2),
    rtol: float = 1e-4,
    atol: float = 1e-5,
    *,
    resources_a: Mapping[str, bytes] | None = None,
    resources_b: Mapping[str, bytes] | None = None,
    nonfinite_equal: bool = False,
    row_major_results: bool = False,
    padded_args: bool = False,
    scale_atol: bool = False,
    widened_floats: bool = False,
    half_reference: ModuleOp | None = None,
    resources_reference: Mapping[str, bytes] | None = None,
) -> EquivalenceReport:
    """Run `@function` of both modules on the same random inputs for each seed.

    `resources_*` are each module's dense_resource blobs (from `load_module`); give them
    when both modules were parsed in this process with the same resource names.
    `row_major_results`: a result of the second module with as many elements as the
    first's is compared in the first's shape (the same values in row-major order, e.g.
    a feature map returned flat by `legalize-for-heir{flat-results=true}`).
    `padded_args`: an argument of the second module may be larger in each dim; it gets
    the same input with zeros added at the end (`pad-input-channels`).
    `scale_atol`: `atol` scales with each result's largest value (`magnitude_tolerance`).
    `widened_floats`: the second module may compute in a wider float type than the first
    (`heir-prepare`'s f32 form of an f16 model): its arguments get the same inputs in its
    types, and each of its results is rounded to the first's type before comparing (as a
    caller storing f16 reads it).
    `half_reference`: the first module's function computed in f32 (`heir-widen-half`); a
    half-precision result off the plain tolerance is then judged against it (`judge_half`).
    """
    eval_a, eval_b = Evaluator(module_a, resources_a), Evaluator(module_b, resources_b)
    eval_wide = None if half_reference is None else Evaluator(half_reference, resources_reference)
    func_a, func_b = eval_a.function(function), eval_b.function(function)
    seeds = tuple(seeds)
    problems = _signature_problems(func_a, func_b, padded_args, widened_floats)
    if problems:
        return EquivalenceReport(function, seeds, rtol, atol, (), tuple(problems))
    merged: list[ResultComparison] = []
    for seed in seeds:
        inputs = random_inputs(func_a, seed)
        results_a = eval_a.call(function, inputs)
        inputs_b = padded_inputs(inputs, func_b) if padded_args else inputs
        if widened_floats:
            types_b = func_b.function_type.inputs.data
            inputs_b = [np.asarray(x).astype(element_dtype(t)) for x, t in zip(inputs_b, types_b)]
        results_b = eval_b.call(function, inputs_b)
        if widened_floats:
            results_b = [rounded_to(b, a.dtype) for a, b in zip(results_a, results_b)]
        if row_major_results:
            results_b = [_in_shape_of(a, b) for a, b in zip(results_a, results_b)]
        comparisons = [compare_arrays(i, a, b, rtol, atol, nonfinite_equal=nonfinite_equal,
                                      scale_atol=scale_atol)
                       for i, (a, b) in enumerate(zip(results_a, results_b))]
        wide = None
        if eval_wide is not None and any(not c.ok and is_half(np.asarray(a).dtype)
                                         for c, a in zip(comparisons, results_a)):
            wide_types = eval_wide.function(function).function_type.inputs.data
            wide_inputs = [np.asarray(x).astype(element_dtype(t)) for x, t in zip(inputs, wide_types)]
            try:
                wide = eval_wide.call(function, wide_inputs)
            except EvaluationError:  # an op the evaluator has no f32 form of: the plain rule alone
                wide = None
        if wide is not None:
            comparisons = [judge_half(c, np.asarray(w), np.asarray(a), np.asarray(b), rtol, atol)
                           if is_half(np.asarray(a).dtype) else c
                           for c, w, a, b in zip(comparisons, wide, results_a, results_b)]
        merged = comparisons if not merged else [_merge(m, c) for m, c in zip(merged, comparisons)]
    return EquivalenceReport(function, seeds, rtol, atol, tuple(merged))
