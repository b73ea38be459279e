"""`fold_elementwise` (linear/elementwise_folds.py), the arithmetic of folding an
elementwise op into the linear op before it, on each kind, checked by value: for a
matmul out = x·W + b and `y = out <op> c`, the folded weight and init give y for any x.
A division by a zero channel, `c / out` and a constant that varies along another axis
than the output channels are refused. Found by issue 35's mutation habit: the kinds were
checked only through whole passes, where one sign of `sub` was never reached."""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.transforms.linear.elementwise_folds import bias_fold_allowed, fold_elementwise
from heirpy.transforms.linear.linear_match import ElementwiseAffine, LinearOpView

RNG = np.random.default_rng(35)
W = RNG.uniform(-1, 1, (3, 4))  # K x M
B = RNG.uniform(-1, 1, (2, 4))  # N x M
C = np.broadcast_to(np.array([2.0, -0.5, 0.25, 3.0]), (2, 4)).copy()  # per output channel
VIEW = LinearOpView(None, 0, 1, 1, 1, W)  # type: ignore[arg-type]  # out axis 1 = weight axis 1


def _elementwise(kind: str, lhs: bool, constant: np.ndarray) -> ElementwiseAffine:
    return ElementwiseAffine(None, kind, None, lhs, constant, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kind", "lhs"), [
    ("add", True), ("add", False), ("sub", True), ("sub", False), ("mul", True), ("mul", False), ("div", True),
])
def test_each_kind_folds_to_the_same_values(kind: str, lhs: bool) -> None:
    elementwise = _elementwise(kind, lhs, C)
    folded = fold_elementwise(VIEW, B, elementwise)
    assert folded is not None
    x = RNG.standard_normal((2, 3))
    expected = elementwise.apply(x @ W + B, C)
    np.testing.assert_allclose(x @ folded.weight + folded.init, expected, rtol=1e-12)


def test_what_cannot_fold() -> None:
    assert fold_elementwise(VIEW, B, _elementwise("div", False, C)) is None  # c / out
    zero = C.copy()
    zero[:, 2] = 0.0
    assert fold_elementwise(VIEW, B, _elementwise("div", True, zero)) is None
    assert fold_elementwise(VIEW, B, _elementwise("mul", True, zero)) is not None  # a zero scale folds
    rows = np.array([[1.0] * 4, [2.0] * 4])  # varies along the batch, not the channels
    assert fold_elementwise(VIEW, B, _elementwise("mul", True, rows)) is None
    assert fold_elementwise(VIEW, B, _elementwise("add", True, rows)) is not None  # an add needs no channel


def test_bias_fold_allowed() -> None:
    assert bias_fold_allowed(init_is_zero=False, scale_follows=False)
    assert bias_fold_allowed(init_is_zero=True, scale_follows=True)
    assert not bias_fold_allowed(init_is_zero=True, scale_follows=False)
