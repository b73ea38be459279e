"""Quadratic activations in one form: the square of an affine map of x, plus a constant.

Users write a quadratic activation many ways (`0.125*x*x + 0.5*x + 0.25`, `(x + 2)*(x + 2)/8`,
`a*x**2 + b*x + c`); torch-mlir exports each as it is written, and `linalg-canonicalizations`
turns the generics into `arith` ops on tensors. Every such spelling multiplies a
ciphertext by a plaintext constant next to the square (HEIR spends a level on that
rescale), and fusion sees a different DAG each time. For a != 0,

    a·x² + b·x + c  =  (s·x + t)² + k          s = √a,  t = b / (2√a),  k = c − b² / (4a)   (a > 0)
                    =  k − (s·x + t)²          s = √−a, t = −b / (2√−a), k = c − b² / (4a)  (a < 0)

so the one form is an affine map of x (which `linalg-fuse-ops` folds into the linear op
that computes x, as it folds a batch norm), one square, and a constant added (free in
CKKS). Cubics and higher are left as they are. Where x is a residual add, the scale
goes to each addend (`ScaleEachAddend`): no linear op absorbs a scale of the sum, and
HEIR spends a level on it (docs/heir.md, "Residual nets as users export them").
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.traits import ConstantLike

from heirpy.ir.constants import NO_BLOBS, attribute_array, dense_constant
from heirpy.ir.utils import static_shape
from heirpy.transforms.rewrite import OpPattern

POLYNOMIAL_OPS = ("arith.addf", "arith.subf", "arith.mulf", "arith.negf")
MAX_OPS = 12
"""The most ops one activation spans (the longest spelling met has 6): a bound on the walk."""


def splat_value(value: SSAValue) -> float | None:
    """The one number a constant holds everywhere (a scalar or a splat tensor), or None."""
    owner = value.owner
    if not isinstance(owner, Operation) or not owner.has_trait(ConstantLike):
        return None
    attr = owner.properties.get("value") or owner.attributes.get("value")
    array = None if attr is None else attribute_array(attr, value.type, NO_BLOBS)
    if array is None or array.size == 0 or array.dtype.kind != "f" or not np.all(array == array.flat[0]):
        return None
    return float(array.flat[0])


class Walk:
    """The polynomial a DAG of `POLYNOMIAL_OPS` computes of its one non-constant leaf."""

    def __init__(self, root: Operation):
        self.root = root
        self.type = root.results[0].type
        self.leaf: SSAValue | None = None
        self.ops: set[Operation] = set()

    def of(self, value: SSAValue) -> np.ndarray | None:
        """Coefficients (from x⁰ up) of `value`, or None when it is no polynomial of one leaf.
        An op whose operands hold two leaves (a residual add under the activation) is
        itself the leaf."""
        constant = splat_value(value)
        if constant is not None:
            return np.array([constant])
        if value is self.leaf:
            return np.array([0.0, 1.0])
        owner = value.owner
        if isinstance(owner, Operation) and owner.name in POLYNOMIAL_OPS and owner.results[0].type == self.type:
            if len(self.ops) >= MAX_OPS:
                return None
            leaf, ops = self.leaf, set(self.ops)
            self.ops.add(owner)
            parts = [self.of(v) for v in owner.operands]
            if all(p is not None for p in parts):
                return combine(owner.name, parts)  # type: ignore[arg-type]
            if owner is self.root:
                return None
            self.leaf, self.ops = leaf, ops  # back out: this op is the leaf, if none was found before
        if self.leaf is None:
            self.leaf = value
            return np.array([0.0, 1.0])
        return None

    def closed(self) -> bool:
        """Every op of the DAG but the root is read only inside it (so the rewrite drops it)."""
        return all(use.operation in self.ops for op in self.ops - {self.root} for use in op.results[0].uses)


def combine(name: str, parts: list[np.ndarray]) -> np.ndarray:
    if name == "arith.negf":
        return -parts[0]
    if name == "arith.mulf":
        return np.polynomial.polynomial.polymul(parts[0], parts[1])
    sign = -1.0 if name == "arith.subf" else 1.0
    return np.polynomial.polynomial.polyadd(parts[0], sign * parts[1])


def canonical(op: Operation) -> bool:
    """Is `op` already `v² + k`, `k − v²` or `v²` (the square of one value, whatever computes
    it: the affine map before the square is left to fusion)?"""
    square = op
    if op.name in ("arith.addf", "arith.subf"):
        constants = [splat_value(v) is not None for v in op.operands]
        if op.name == "arith.addf" and constants == [False, True]:
            square = op.operands[0].owner  # type: ignore[assignment]
        elif op.name == "arith.subf" and constants == [True, False]:
            square = op.operands[1].owner  # type: ignore[assignment]
        else:
            return False
    return isinstance(square, Operation) and square.name == "arith.mulf" and square.operands[0] is square.operands[1]


def inside_larger(op: Operation) -> bool:
    """Is `op` part of a larger polynomial of one value (the x² of a cubic)? Then that
    polynomial is the one to look at, not this piece of it."""
    for use in op.results[0].uses:
        user = use.operation
        if user.name in POLYNOMIAL_OPS and user.results[0].type == op.results[0].type:
            walk = Walk(user)
            if walk.of(user.results[0]) is not None:
                return True
    return False


class CompleteTheSquare(OpPattern[Operation]):
    """A quadratic of one tensor, written any way, becomes (s·x + t)² + k (module doc).

        %a = arith.mulf %x, %c0_125 : tensor<1x4x8x8xf32>     (splat constants)
        %b = arith.mulf %a, %x
        %c = arith.mulf %x, %c0_5
        %d = arith.addf %b, %c
        %y = arith.addf %d, %c0_25
      ==>
        %u = arith.mulf %x, %s        (s = √0.125)
        %v = arith.addf %u, %t        (t = 0.5 / (2·√0.125))
        %q = arith.mulf %v, %v
        %y = arith.addf %q, %k        (k = 0.25 − 0.5² / (4·0.125) = −0.25)

    Legality: the root and every op under it are `arith` add/sub/mul/neg on one tensor
    type, reading splat constants and one other value; the ops under the root are read
    only by the DAG; the polynomial has degree 2; the DAG is not already in the form,
    nor part of a larger polynomial of one value (`inside_larger`: a cubic's x² stays).
    """

    op_types = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.NegfOp)  # POLYNOMIAL_OPS

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in POLYNOMIAL_OPS or not isinstance(op.results[0].type, TensorType):
            return
        if static_shape(op.results[0].type) is None or canonical(op) or inside_larger(op):
            return
        walk = Walk(op)
        coefficients = walk.of(op.results[0])
        if coefficients is None or walk.leaf is None or not walk.closed():
            return
        coefficients = np.trim_zeros(coefficients, "b")
        if len(coefficients) != 3 or not np.all(np.isfinite(coefficients)):
            return
        c, b, a = (float(v) for v in coefficients)
        s = math.sqrt(abs(a))
        t = b / (2 * s) if a > 0 else -b / (2 * s)
        k = c - b * b / (4 * a)
        ops = square_form(walk.leaf, op.results[0].type, s, t, k, negative=a < 0)
        rewriter.replace(op, ops, [ops[-1].results[0]])


def square_form(x: SSAValue, type_: TensorType, s: float, t: float, k: float, negative: bool) -> list[Operation]:
    """The ops of (s·x + t)² + k (or k − (s·x + t)²), each constant a splat of `type_`,
    leaving out a unit s, a zero t and a zero k."""
    ops: list[Operation] = []

    def splat(number: float) -> SSAValue:
        constant = dense_constant(np.full(tuple(type_.get_shape()), number), type_)
        ops.append(constant)
        return constant.result

    value = x
    if s != 1.0:
        ops.append(arith.MulfOp(value, splat(s)))
        value = ops[-1].results[0]
    if t != 0.0:
        ops.append(arith.AddfOp(value, splat(t)))
        value = ops[-1].results[0]
    ops.append(arith.MulfOp(value, value))
    square = ops[-1].results[0]
    if negative:
        ops.append(arith.SubfOp(splat(k), square))
    elif k != 0.0:
        ops.append(arith.AddfOp(square, splat(k)))
    return ops


class ScaleEachAddend(OpPattern[arith.MulfOp]):
    """A splat scale of a sum of two computed values scales each (after a residual add,
    the scale `CompleteTheSquare` puts before the square).

        %x = arith.addf %conv, %shortcut : tensor<1x16x32x32xf32>
        %u = arith.mulf %x, %s                                       (splat %s)
      ==>
        %a = arith.mulf %conv, %s
        %b = arith.mulf %shortcut, %s
        %u = arith.addf %a, %b

    Why: HEIR spends a level on a scalar multiply that no linear op absorbs. Scaled as a
    sum, the scale costs a level on the deepest addend (a conv's result); scaled apart,
    `linalg-fuse-ops` folds it into that conv's weights and the shortcut pays its level
    where it is shallower (it skipped the block's convs), so the depth stays heirpy's
    bound. Legality: the sum is read only by the scale, both addends are computed (no
    constant: a shift is left to fusion), and the scale is a splat constant.
    """

    op_types = (arith.MulfOp,)

    def rewrite(self, op: arith.MulfOp, rewriter: PatternRewriter) -> None:
        total, scale = op.operands
        add = total.owner
        if not isinstance(add, arith.AddfOp) or splat_value(scale) is None or len(list(total.uses)) != 1:
            return
        if any(splat_value(v) is not None for v in add.operands) or not isinstance(op.result.type, TensorType):
            return
        left, right = arith.MulfOp(add.operands[0], scale), arith.MulfOp(add.operands[1], scale)
        new = arith.AddfOp(left.result, right.result)
        rewriter.replace(op, [left, right, new], [new.result])
