"""Affine expressions as MLIR's parser builds them, semi-affine ones included.

MLIR accepts a product with a symbolic operand (`d0 * s0`) and a quotient or
remainder by a symbolic one (`d0 floordiv s0`, `d0 mod s0`): a *semi-affine* map.
It refuses a product of two dimension terms (`d0 * d1`) and a division by one, with
a `non-affine expression` error. xDSL builds only the pure-affine case and raises
`NotImplementedError` for the rest, which reached users as an internal error.

`combine` is the parser's binary step: it keeps xDSL's expressions (and their
simplifications) where both agree, builds the semi-affine node itself, and raises
`NonAffineError` with MLIR's message where MLIR refuses.
"""

from __future__ import annotations

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)

__all__ = ["NonAffineError", "combine", "is_symbolic_or_constant"]

_QUOTIENTS = {
    "floordiv": AffineBinaryOpKind.FloorDiv,
    "ceildiv": AffineBinaryOpKind.CeilDiv,
    "mod": AffineBinaryOpKind.Mod,
}


class NonAffineError(ValueError):
    """An expression MLIR refuses; the message is MLIR's."""


def is_symbolic_or_constant(expr: AffineExpr) -> bool:
    """MLIR's `isSymbolicOrConstant`: no dimension anywhere in `expr`."""
    return not any(isinstance(node, AffineDimExpr) for node in expr.dfs())


def combine(operator: str, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    """`lhs operator rhs` when it is semi-affine, None when xDSL's arithmetic builds
    it (pure affine: a constant factor or divisor, or a sum)."""
    if operator == "*":
        return _product(lhs, rhs)
    kind = _QUOTIENTS.get(operator)
    if kind is None:
        return None
    if not is_symbolic_or_constant(rhs):
        raise NonAffineError(
            f"non-affine expression: right operand of {operator} has to be either a constant or symbolic"
        )
    if isinstance(rhs, AffineConstantExpr):
        return None
    return AffineBinaryOpExpr(kind, lhs, rhs)


def _product(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    lhs_symbolic, rhs_symbolic = is_symbolic_or_constant(lhs), is_symbolic_or_constant(rhs)
    if not lhs_symbolic and not rhs_symbolic:
        raise NonAffineError(
            "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"
        )
    # MLIR keeps the symbolic (or, if both are, the constant) factor on the right.
    if (lhs_symbolic and not rhs_symbolic) or isinstance(lhs, AffineConstantExpr):
        lhs, rhs = rhs, lhs
    if isinstance(rhs, AffineConstantExpr):
        return None
    return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, lhs, rhs)
