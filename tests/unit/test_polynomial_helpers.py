"""canonicalize/polynomial.py's helpers at each branch: `splat_value` (splat, scalar,
non-splat, integer, empty), `combine` (neg, sub, add, mul), `canonical` (v², v² + k,
k − v², and the forms that are not: k + v², v² − k, v·w) and `square_form` (each
constant left out when it is 1 or 0, k − (…)² when negative), the last checked by
value with the evaluator. Found by issue 35's mutation habit."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import Float32Type, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp

from heirpy.api import parse
from heirpy.interp.evaluator import run_function
from heirpy.transforms.canonicalize.polynomial import canonical, combine, splat_value, square_form

T = "tensor<4xf32>"
CONSTANTS = f"""
func.func @f(%x: {T}) -> {T} {{
  %splat = arith.constant dense<2.5> : {T}
  %scalar = arith.constant 1.5 : f32
  %mixed = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : {T}
  %int = arith.constant dense<3> : tensor<4xi32>
  %empty = arith.constant dense<> : tensor<0xf32>
  return %x : {T}
}}"""


def _values(text: str) -> dict[str, object]:
    module = parse(text)
    return {op.results[0].name_hint: op.results[0] for op in module.walk() if op.results and op.results[0].name_hint}


def test_splat_value() -> None:
    values = _values(CONSTANTS)
    assert splat_value(values["splat"]) == 2.5  # type: ignore[arg-type]
    assert splat_value(values["scalar"]) == 1.5  # type: ignore[arg-type]
    for name in ("mixed", "int", "empty"):
        assert splat_value(values[name]) is None, name  # type: ignore[arg-type]
    func = next(op for op in parse(CONSTANTS).walk() if isinstance(op, FuncOp))
    assert splat_value(func.body.block.args[0]) is None


def test_combine() -> None:
    x, k = np.array([0.0, 1.0]), np.array([2.0])
    np.testing.assert_array_equal(combine("arith.negf", [x]), [0.0, -1.0])
    np.testing.assert_array_equal(combine("arith.subf", [k, x]), [2.0, -1.0])
    np.testing.assert_array_equal(combine("arith.addf", [x, k]), [2.0, 1.0])
    np.testing.assert_array_equal(combine("arith.mulf", [x, x]), [0.0, 0.0, 1.0])


FORMS = f"""
func.func @f(%x: {T}, %y: {T}) -> {T} {{
  %k = arith.constant dense<2.0> : {T}
  %sq = arith.mulf %x, %x : {T}
  %plus = arith.addf %sq, %k : {T}
  %minus_from = arith.subf %k, %sq : {T}
  %k_plus = arith.addf %k, %sq : {T}
  %sq_minus = arith.subf %sq, %k : {T}
  %xy = arith.mulf %x, %y : {T}
  %xy_plus = arith.addf %xy, %k : {T}
  %two = arith.addf %sq, %xy : {T}
  return %x : {T}
}}"""


@pytest.mark.parametrize(("name", "expected"), [
    ("sq", True), ("plus", True), ("minus_from", True),
    ("k_plus", False), ("sq_minus", False), ("xy", False), ("xy_plus", False), ("two", False),
])
def test_canonical(name: str, expected: bool) -> None:
    value = _values(FORMS)[name]
    assert canonical(value.owner) is expected  # type: ignore[attr-defined]


@pytest.mark.parametrize(("s", "t", "k", "negative", "names"), [
    (2.0, 0.5, -1.0, False, ["arith.mulf", "arith.addf", "arith.mulf", "arith.addf"]),
    (1.0, 0.0, 0.0, False, ["arith.mulf"]),
    (1.0, 0.5, 0.0, False, ["arith.addf", "arith.mulf"]),
    (2.0, 0.0, 3.0, True, ["arith.mulf", "arith.mulf", "arith.subf"]),
    (1.0, 0.0, 0.0, True, ["arith.mulf", "arith.subf"]),
])
def test_square_form(s: float, t: float, k: float, negative: bool, names: list[str]) -> None:
    """(s·x + t)² + k, or k − (s·x + t)², with a unit s, a zero t and (when positive) a
    zero k left out; its values are the formula's."""
    module = parse(f"func.func @f(%x: {T}) -> {T} {{\n  return %x : {T}\n}}")
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    block = func.body.block
    ops = square_form(block.args[0], TensorType(Float32Type(), [4]), s, t, k, negative)
    assert [op.name for op in ops if op.name != "arith.constant"] == names
    ret = block.last_op
    assert isinstance(ret, ReturnOp)
    block.insert_ops_before(ops, ret)
    ret.operands = [ops[-1].results[0]]
    x = np.array([-2.0, -0.5, 0.25, 3.0], dtype=np.float32)
    square = (s * x + t) ** 2
    expected = k - square if negative else square + k
    np.testing.assert_allclose(run_function(module, "f", [x])[0], expected, rtol=1e-6)
