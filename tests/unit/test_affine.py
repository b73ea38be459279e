"""heirpy builds semi-affine expressions as MLIR does and refuses non-affine ones
(tests/filecheck/dialects/builtin has the IR-level cases)."""

from __future__ import annotations

import pytest
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineExpr

from heirpy.ir.affine import NonAffineError, combine, is_symbolic_or_constant

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
