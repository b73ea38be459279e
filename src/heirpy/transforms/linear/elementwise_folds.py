"""The arithmetic of folding an elementwise op into the linear op before it, shared by
`linalg-fuse-linear-ops`' patterns for named linear ops (`linalg_fuse_linear_ops`) and
for grouped convs (`grouped_conv`): pure legality and numpy, no IR rewriting."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import Operation, SSAValue

from heirpy.analysis.secretness import is_secret
from heirpy.ir.utils import static_shape
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.linear_maps import channel_vector
from heirpy.transforms.linear.linear_match import (
    ElementwiseAffine,
    LinearOpView,
    arith_kind,
    match_elementwise_affine,
)


@dataclass(frozen=True)
class FoldedLinear:
    """The new weight and init of a linear op after absorbing an elementwise op."""

    weight: np.ndarray
    init: np.ndarray


def fold_elementwise(
    view: LinearOpView, init: np.ndarray, elementwise: ElementwiseAffine
) -> FoldedLinear | None:
    """Pure legality + arithmetic: the linear op's weight and init with `elementwise`
    absorbed, or None when it cannot be (a scale that is not per output channel, a
    division by zero, `K / L(x)`)."""
    weight = view.weight.astype(np.float64)
    base = init.astype(np.float64)
    constant = elementwise.constant.astype(np.float64)
    if elementwise.kind == "add":
        return FoldedLinear(weight, base + constant)
    if elementwise.kind == "sub":
        if elementwise.operand_is_lhs:
            return FoldedLinear(weight, base - constant)
        return FoldedLinear(-weight, constant - base)
    if not elementwise.is_affine():
        return None
    scale = channel_vector(constant, view.out_axis)
    if scale is None:
        return None
    shape = [1] * weight.ndim
    shape[view.weight_axis] = scale.size
    if elementwise.kind == "mul":
        return FoldedLinear(weight * scale.reshape(shape), base * constant)
    if np.any(scale == 0):
        return None
    return FoldedLinear(weight / scale.reshape(shape), base / constant)


def bias_fold_allowed(init_is_zero: bool, scale_follows: bool) -> bool:
    """Pure legality of moving an add/sub of a constant into a linear op's init: when
    the init already holds constants (nothing new to materialise), or when a constant
    scale follows the add (through further adds) and can only fold once the add has."""
    return not init_is_zero or scale_follows


def scale_follows(value: SSAValue, reader: ConstantFolder) -> bool:
    """Is `value` (through single-use adds/subs of constants or run-time plaintext)
    scaled by a constant or by run-time plaintext?"""
    while value.has_one_use():
        user = next(iter(value.uses)).operation
        match = match_elementwise_affine(user, reader)
        if match is not None and match.operand is value:
            if match.kind in ("mul", "div"):
                return match.is_affine()
            value = match.result
            continue
        runtime = match_runtime_elementwise(user, value, reader)
        if runtime is None:
            return False
        if runtime.kind in ("mul", "div"):
            return True
        value = runtime.op.results[0]
    return False


@dataclass(frozen=True)
class RuntimeElementwise:
    """`op` computes `value <kind> other` (or `other <kind> value` when `value_is_lhs`
    is False) on tensors of one type, `other` being plaintext (not secret) that is not
    known at compile time, or known while the linear op's weight is not."""

    op: Operation
    kind: str  # add | sub | mul | div
    value_is_lhs: bool
    other: SSAValue


def match_runtime_elementwise(
    op: Operation, value: SSAValue, reader: ConstantFolder
) -> RuntimeElementwise | None:
    """`op` as `value <kind> other` with `other` not secret (`analysis.secretness`);
    None for anything else (a generic, two uses of `value`, a secret `other`)."""
    kind = arith_kind(op)
    if kind is None or value not in op.operands or op.operands[0] is op.operands[1]:
        return None
    if static_shape(op.results[0].type) is None or op.results[0].type != value.type:
        return None
    value_is_lhs = op.operands[0] is value
    other = op.operands[1] if value_is_lhs else op.operands[0]
    if is_secret(other):
        return None
    return RuntimeElementwise(op, kind, value_is_lhs, other)
