"""Sums and casts a linear chain may cross (`chains_through_adds`, `chains_through_concats`):
a tensor add of two values, possibly with a constant scale on each (`scaled_add_operands`),
and the f16 rounding of a wider value (`rounding_source`). Pure matchers on the IR.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from heirpy.ir.dialects.linalg import GenericOp


def tensor_add_operands(op: Operation) -> tuple[SSAValue, SSAValue] | None:
    """The two operands of an elementwise add of two tensors of the result's type
    (`arith.addf` on tensors, or a `linalg.generic` with identity maps whose body is one
    `addf` of its two inputs), else None."""
    if isinstance(op, arith.AddfOp):
        lhs, rhs = op.operands
        if isinstance(op.result.type, TensorType) and lhs.type == rhs.type == op.result.type:
            return lhs, rhs
        return None
    if not isinstance(op, GenericOp) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    if any(m.data != AffineMap.identity(m.data.num_dims) for m in op.indexing_maps.data):
        return None
    if any(v.type != op.results[0].type for v in op.inputs):
        return None
    body = list(op.body.block.ops)
    if len(body) != 2 or not isinstance(body[0], arith.AddfOp):
        return None
    args = op.body.block.args
    if {body[0].lhs, body[0].rhs} != {args[0], args[1]} or body[1].operands[0] is not body[0].result:
        return None
    return op.inputs[0], op.inputs[1]


def scaled_add_operands(op: Operation) -> tuple[tuple[SSAValue, float], tuple[SSAValue, float]] | None:
    """`tensor_add_operands`, also for a sum whose addends carry a constant scalar scale:
    a `linalg.generic` with identity maps whose body is `addf` of its two inputs, each
    either as read or `mulf`'d by (or `divf`'d by) one scalar `arith.constant`. Each
    operand comes with its scale (1.0 when unscaled). f32 MobileNetV3 has this form: a
    forward fold moves hardswish's `/ 6` into the residual add that reads it, `a + x / 6`
    (in f16 the cast after hardswish keeps it there)."""
    plain = tensor_add_operands(op)
    if plain is not None:
        return (plain[0], 1.0), (plain[1], 1.0)
    if not isinstance(op, GenericOp) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    if any(m.data != AffineMap.identity(m.data.num_dims) for m in op.indexing_maps.data):
        return None
    if any(v.type != op.results[0].type for v in op.inputs):
        return None
    # Besides constants, the body is the yield, the add and one op per scaled addend:
    # anything else (a relu, a second use of an input) is no sum of scaled inputs.
    body = [o for o in op.body.block.ops if not isinstance(o, arith.ConstantOp)]
    if not body or body[-1].name != "linalg.yield" or len(body[-1].operands) != 1:
        return None
    total = body[-1].operands[0].owner
    if not isinstance(total, arith.AddfOp):
        return None
    args = op.body.block.args
    scaled = [_scaled_arg(v, args[:2]) for v in (total.lhs, total.rhs)]
    if any(s is None for s in scaled):
        return None
    found = [s for s in scaled if s is not None]
    if len(body) != 2 + sum(by_op for _, _, by_op in found) or {a for a, _, _ in found} != {args[0], args[1]}:
        return None
    by_arg = {arg: scale for arg, scale, _ in found}
    return (op.inputs[0], by_arg[args[0]]), (op.inputs[1], by_arg[args[1]])


def rounding_source(value: SSAValue) -> SSAValue | None:
    """The wider value `value` rounds (`arith.truncf` on tensors, or a `linalg.generic`
    with identity maps whose body is one `truncf` of its input: torch-mlir's f16 form
    of a linear op's f32 result), else None. Composing linear ops across it skips the
    rounding, as the f16 chain folds do (`mixed_precision`)."""
    owner = value.owner
    if isinstance(owner, arith.TruncFOp):
        return owner.input
    if not isinstance(owner, GenericOp) or len(owner.inputs) != 1 or len(owner.outputs) != 1:
        return None
    if any(m.data != AffineMap.identity(m.data.num_dims) for m in owner.indexing_maps.data):
        return None
    body = list(owner.body.block.ops)
    if len(body) != 2 or not isinstance(body[0], arith.TruncFOp) or body[0].input is not owner.body.block.args[0]:
        return None
    return owner.inputs[0] if body[1].operands[0] is body[0].result else None


def _scaled_arg(value: SSAValue, args: Sequence[SSAValue]) -> tuple[SSAValue, float, bool] | None:
    """(block argument, its scale, whether an op scales it) when `value` is one of
    `args`, or one of them times or divided by a scalar constant; else None."""
    if value in args:
        return value, 1.0, False
    owner = value.owner
    if isinstance(owner, arith.MulfOp):
        for arg, other in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            number = _float_constant(other)
            if arg in args and number is not None:
                return arg, number, True
    if isinstance(owner, arith.DivfOp) and owner.lhs in args:
        number = _float_constant(owner.rhs)
        if number is not None and number != 0.0:
            return owner.lhs, 1.0 / number, True
    return None


def _float_constant(value: SSAValue) -> float | None:
    """The number of a scalar float `arith.constant`, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr):
        number = float(owner.value.value.data)
        return number if np.isfinite(number) else None
    return None


def sum_addends(op: Operation) -> list[tuple[SSAValue, bool]] | None:
    """The addends of an unscaled elementwise sum of tensors of the result's shape, each
    with whether the sum rounds it first: `scaled_add_operands` with unit scales, or a
    `linalg.generic` with identity maps whose body adds all its inputs once each, an
    input possibly `truncf`'d first (the pointwise fusion's form of YOLO11's
    `b + proj(u) + ffn2(g)`; in torch-mlir's f16 form the two f32 conv accumulators are
    rounded in the body). Else None."""
    pair = scaled_add_operands(op)
    if pair is not None:
        if any(scale != 1.0 for _, scale in pair):
            return None
        return [(value, False) for value, _ in pair]
    if not isinstance(op, GenericOp) or len(op.inputs) < 2 or len(op.outputs) != 1:
        return None
    if any(m.data != AffineMap.identity(m.data.num_dims) for m in op.indexing_maps.data):
        return None
    out_type = op.results[0].type
    if not isinstance(out_type, TensorType) or any(
            not isinstance(v.type, TensorType) or v.type.get_shape() != out_type.get_shape() for v in op.inputs):
        return None
    args = list(op.body.block.args)
    inputs = args[:len(op.inputs)]
    rounded = _body_sum_leaves(list(op.body.block.ops), inputs)
    if rounded is None or args[len(op.inputs)].uses:
        return None
    return [(value, arg in rounded) for value, arg in zip(op.inputs, inputs)]


def _body_sum_leaves(body: list[Operation], inputs: Sequence[SSAValue]) -> set[SSAValue] | None:
    """The inputs a generic body rounds (`truncf`) before adding, when the body is a tree
    of `addf`s over all `inputs`, each read once, possibly rounded, and yields its root;
    else None."""
    if not body or body[-1].name != "linalg.yield" or len(body[-1].operands) != 1:
        return None
    if not isinstance(body[-1].operands[0].owner, arith.AddfOp):
        return None
    rounded: dict[SSAValue, SSAValue] = {}  # a truncf's result -> the input it rounds
    adds = [o for o in body[:-1] if isinstance(o, arith.AddfOp)]
    for inner in body[:-1]:
        if isinstance(inner, arith.TruncFOp) and inner.input in inputs:
            rounded[inner.result] = inner.input
        elif not isinstance(inner, arith.AddfOp):
            return None
    if len(adds) != len(inputs) - 1:
        return None
    operands = [v for add in adds for v in (add.lhs, add.rhs)]
    if any(not v.has_one_use() for v in operands):
        return None
    leaves = [rounded.get(v, v) for v in operands if not isinstance(v.owner, arith.AddfOp)]
    if sorted(map(id, leaves)) != sorted(map(id, inputs)):
        return None
    return set(rounded.values())
