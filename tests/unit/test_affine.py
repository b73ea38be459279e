"""heirpy builds semi-affine expressions as MLIR does and refuses non-affine ones
(tests/filecheck/dialects/builtin has the IR-level cases)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineExpr, AffineMap

from heirpy.ir.affine import NonAffineError, combine, is_symbolic_or_constant
from heirpy.ir.utils import is_identity

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)

d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
s0 = AffineExpr.symbol(0)


def test_symbolic_factor_goes_right() -> None:
    assert combine("*", s0, d0) == AffineBinaryOpExpr(AffineBinaryOpKind.Mul, d0, s0)
    assert combine("*", d0 + 1, s0) == AffineBinaryOpExpr(AffineBinaryOpKind.Mul, d0 + 1, s0)


def test_quotients_by_a_symbol_are_built() -> None:
    assert combine("floordiv", d0, s0) == AffineBinaryOpExpr(AffineBinaryOpKind.FloorDiv, d0, s0)
    assert combine("mod", d0, s0 * 2) == AffineBinaryOpExpr(AffineBinaryOpKind.Mod, d0, s0 * 2)


def test_pure_affine_cases_are_left_to_xdsl() -> None:
    three = AffineExpr.constant(3)
    assert combine("*", d0, three) is None
    assert combine("*", three, d0) is None
    assert combine("ceildiv", d0, three) is None
    assert combine("+", d0, d1) is None


@pytest.mark.parametrize(
    ("operator", "rhs", "message"),
    [
        ("*", d1, "at least one of the multiply operands has to be either a constant or symbolic"),
        ("floordiv", d1 + s0, "right operand of floordiv has to be either a constant or symbolic"),
        ("mod", d0, "right operand of mod has to be either a constant or symbolic"),
    ],
)
def test_non_affine_is_refused_with_mlirs_message(operator: str, rhs: AffineExpr, message: str) -> None:
    with pytest.raises(NonAffineError, match=f"^non-affine expression: {message}$"):
        combine(operator, d0, rhs)


def test_symbolic_or_constant() -> None:
    assert is_symbolic_or_constant(s0 * 2 + 1)
    assert not is_symbolic_or_constant(s0 + d1)


@st.composite
def _maps(draw: st.DrawFn) -> AffineMap:
    dims, symbols = draw(st.integers(0, 4)), draw(st.integers(0, 2))
    choices = [st.integers(0, 2).map(AffineExpr.constant)]
    if dims:
        choices.append(st.integers(0, dims - 1).map(AffineExpr.dimension))
    if symbols:
        choices.append(st.integers(0, symbols - 1).map(AffineExpr.symbol))
    results = draw(st.lists(st.one_of(choices), max_size=5))
    if draw(st.booleans()) and dims:  # identities are rare among random maps
        results = [AffineExpr.dimension(d) for d in range(dims)]
    return AffineMap(dims, symbols, tuple(results))


@settings(max_examples=budget(200))
@given(_maps())
def test_is_identity_is_equality_with_the_identity_map(affine_map: AffineMap) -> None:
    assert is_identity(affine_map) == (affine_map == AffineMap.identity(affine_map.num_dims))
