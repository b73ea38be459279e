"""Integer and NaN-aware reductions in linalg.generic bodies: the evaluator's fast path
(numpy reductions with the op's signedness) against MLIR's semantics in a literal loop
(each element combined into the running value in order, wrapping at the type's width),
and, for the idempotent combiners, against the same body written so that it must run in
loop order (it reads the running value twice)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

import heirpy
from heirpy.interp.evaluator import Evaluator

U8 = lambda v: int(v) & 0xFF  # noqa: E731
S8 = lambda v: ((int(v) + 128) & 0xFF) - 128  # noqa: E731

# op -> (element type, the combine as MLIR defines it on i8 bit patterns read as Python ints)
COMBINE: dict[str, tuple[str, Callable[[int, int], int]]] = {
    "arith.addi": ("i8", lambda a, b: S8(a + b)),
    "arith.muli": ("i8", lambda a, b: S8(a * b)),
    "arith.maxsi": ("i8", max),
    "arith.minsi": ("i8", min),
    "arith.maxui": ("i8", lambda a, b: S8(max(U8(a), U8(b)))),
    "arith.minui": ("i8", lambda a, b: S8(min(U8(a), U8(b)))),
    "arith.andi": ("i8", lambda a, b: a & b),
    "arith.ori": ("i8", lambda a, b: S8(a | b)),
    "arith.xori": ("i8", lambda a, b: S8(a ^ b)),
}


def reduction(op: str, element: str, twice: bool = False) -> str:
    body = f"%r = {op} %acc, %x : {element}"
    if twice:  # the running value read twice: no pattern, the loop-order path
        body += f"\n    %r2 = {op} %r, %acc : {element}"
    result = "%r2" if twice else "%r"
    return f"""func.func @f(%t: tensor<2x5x{element}>, %init: tensor<2x{element}>) -> tensor<2x{element}> {{
  %g = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}} ins(%t : tensor<2x5x{element}>) outs(%init : tensor<2x{element}>) {{
  ^bb0(%x: {element}, %acc: {element}):
    {body}
    linalg.yield {result} : {element}
  }} -> tensor<2x{element}>
  return %g : tensor<2x{element}>
}}"""


def run(text: str, *inputs: np.ndarray) -> np.ndarray:
    return Evaluator(heirpy.parse(text)).call("f", list(inputs))[0]


DATA = np.array([[-128, 127, -3, 5, 64], [3, -1, 2, -2, 100]], dtype=np.int8)
INIT = np.array([7, -5], dtype=np.int8)


@pytest.mark.parametrize("op", sorted(COMBINE))
def test_integer_reductions_follow_mlir(op: str) -> None:
    element, combine = COMBINE[op]
    expected = []
    for row, start in zip(DATA.tolist(), INIT.tolist()):
        value = start
        for x in row:
            value = combine(value, x)
        expected.append(value)
    got = run(reduction(op, element), DATA, INIT)
    assert got.dtype == np.int8 and got.tolist() == expected
    if op in ("arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui", "arith.andi", "arith.ori"):
        assert run(reduction(op, element, twice=True), DATA, INIT).tolist() == expected


@pytest.mark.parametrize(("op", "expected"), [("arith.addi", [True, False]), ("arith.muli", [False, True]),
                                               ("arith.xori", [True, False]), ("arith.ori", [True, True])])
def test_i1_reductions_are_mod_2(op: str, expected: list[bool]) -> None:
    data = np.array([[True, True, True, False, False], [True, True, True, True, True]])
    init = np.array([False, True])
    got = run(reduction(op, "i1"), data, init)
    assert got.dtype == np.bool_ and got.tolist() == expected


@pytest.mark.parametrize(("op", "pick"), [("arith.maxnumf", max), ("arith.minnumf", min)])
def test_nan_ignoring_float_reductions(op: str, pick: Callable[[float, float], float]) -> None:
    data = np.array([[1.0, np.nan, -2.0, 4.0, np.nan], [np.nan] * 5], dtype=np.float32)
    init = np.array([0.5, np.nan], dtype=np.float32)
    got = run(reduction(op, "f32"), data, init)
    assert got[0] == pick(pick(0.5, 1.0), pick(-2.0, 4.0)) and math.isnan(got[1])
    np.testing.assert_array_equal(run(reduction(op, "f32", twice=True), data, init), got)
