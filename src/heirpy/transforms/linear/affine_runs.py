"""A run of elementwise affine ops on one ciphertext, merged into one scale and one shift.

Eval-mode batch-norm, `(x - mean) * 1/sqrt(var + eps) * gamma + beta`, is two plaintext
multiplies in a row: two levels under CKKS when no linear op is there to take them (a
batch-norm on the function's input or after an x², with nothing linear after it either,
or two batch-norms in a row). Any such run is `x * s + t` for constants s and t, one
level. A run followed by a linear op is `linalg-fuse-linear-chains`' (the scale goes into
that op's weights); one after a linear op is `FuseElementwiseIntoLinearOp`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import GenericOp, YieldOp
from heirpy.ir.utils import iterator_attrs
from heirpy.transforms.linear.constant_folding import ConstantFolder, erase_dead_constant_slices
from heirpy.transforms.linear.linear_maps import channel_vector
from heirpy.transforms.linear.linear_match import ElementwiseAffine, match_elementwise_affine
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, constant_insertion_point, in_generic_body


@dataclass(frozen=True)
class AffineMapOfRun:
    """`x -> x * scale + shift`, both at the run's (full) result shape."""

    scale: np.ndarray
    shift: np.ndarray


def compose_run(run: list[ElementwiseAffine]) -> AffineMapOfRun | None:
    """Pure: the elementwise affine map the ops of `run` compute in order (each reads the
    previous one's result), in float64; None when a step is not affine in x (`K / x`) or
    divides by zero."""
    scale = np.ones(run[0].constant.shape)
    shift = np.zeros(run[0].constant.shape)
    for step in run:
        k = step.constant.astype(np.float64)
        if step.kind == "add":
            shift = shift + k
        elif step.kind == "sub":
            scale, shift = (scale, shift - k) if step.operand_is_lhs else (-scale, k - shift)
        elif step.kind == "mul":
            scale, shift = scale * k, shift * k
        elif not step.operand_is_lhs or np.any(k == 0):
            return None
        else:
            scale, shift = scale / k, shift / k
    return AffineMapOfRun(scale, shift)


def scales_in(run: list[ElementwiseAffine]) -> int:
    """The run's multiplies and divides: a level each in HEIR unless merged or folded."""
    return sum(step.kind in ("mul", "div") for step in run)


class MergeAffineRun(OpPattern[Operation], OutsideGenericBodies):
    """Merge a run of elementwise affine ops with two or more scales into ONE multiply
    and ONE add (a batch-norm with no linear op to fold into: one level instead of two).

        %a = linalg.generic ins(%x, %mean : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) { subf }
        %b = linalg.generic ins(%a, %inv : ..., tensor<3x1x1xf32>) { mulf }
        %c = linalg.generic ins(%b, %gamma : ..., tensor<3x1x1xf32>) { mulf }
        %d = linalg.generic ins(%c, %beta : ..., tensor<3x1x1xf32>) { addf }
      ->
        %s = linalg.generic ins(%x, %scale : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) { mulf }
        %d = linalg.generic ins(%s, %shift : ..., tensor<3x1x1xf32>) { addf }

    with `scale = inv * gamma`, `shift = (beta - mean * inv * gamma)` (`compose_run`);
    each constant through `(d0, d1, d2, d3) -> (d1, 0, 0)` when it varies along axis 1
    only (torch-mlir's form), else at the result's shape. A multiply by 1 or an add of 0
    is left out.

    Legality: every op of the run is an elementwise `x op K` with K constant
    (`match_elementwise_affine`: arith on tensors or a one-op generic) and affine in x;
    each result but the last has exactly one user, the next op of the run; the run
    holds at least two multiplies/divides (a run with one already costs one level:
    nothing to save); the pattern fires at the run's last op.
    """

    # The ops `match_elementwise_affine` reads: one-op generics and arith ops on tensors.
    op_types = (GenericOp, arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp)

    def __init__(self, reader: ConstantFolder | None = None):
        self.reader = ConstantFolder() if reader is None else reader

    def _step(self, op: Operation) -> ElementwiseAffine | None:
        step = match_elementwise_affine(op, self.reader)
        if step is None or not step.is_affine() or step.operand.type != step.result.type:
            return None
        return step

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op):
            return
        last = self._step(op)
        if last is None or self._continues(last.result):
            return
        run = [last]
        while run[0].operand.has_one_use() and isinstance(run[0].operand.owner, Operation):
            previous = self._step(run[0].operand.owner)
            if previous is None:
                break
            run.insert(0, previous)
        if scales_in(run) < 2:
            return
        composed = compose_run(run)
        if composed is None:
            return
        new_ops, constants, value = _emit(run[0].operand, composed)
        for constant in constants:
            rewriter.insert(constant, constant_insertion_point(op))
        rewriter.insert(new_ops, InsertPoint.before(op))
        old_operands = [v for step in run for v in step.op.operands]
        rewriter.replace(op, [], [value])
        for step in reversed(run[:-1]):
            rewriter.erase(step.op)
        erase_dead_constant_slices(rewriter, old_operands)

    def _continues(self, value: SSAValue) -> bool:
        """Does the run go on past `value` (its one user is the next affine op)?"""
        if not value.has_one_use():
            return False
        step = self._step(next(iter(value.uses)).operation)
        return step is not None and step.operand is value


def _emit(
    x: SSAValue, composed: AffineMapOfRun
) -> tuple[list[Operation], list[arith.ConstantOp], SSAValue]:
    """`x * scale + shift` as at most two generics, their constants, and the result."""
    new_ops: list[Operation] = []
    constants: list[arith.ConstantOp] = []
    value = x
    for kind, array, neutral in (("mul", composed.scale, 1.0), ("add", composed.shift, 0.0)):
        if np.all(array == neutral):
            continue
        constant, read = _constant_operand(array, x.type)
        constants.append(constant)
        new_ops += _binary_generic(kind, value, constant.result, read)
        value = new_ops[-1].results[0]
    return new_ops, constants, value


def _constant_operand(array: np.ndarray, type_: object) -> tuple[arith.ConstantOp, AffineMap]:
    """The constant for `array` (at the result's shape) and the map the generic reads it
    through: a [C, 1, ..., 1] tensor through `(d0, d1, ...) -> (d1, 0, ...)` when it
    varies along axis 1 only, the whole array through the identity otherwise."""
    assert isinstance(type_, TensorType)
    element = type_.get_element_type()
    dtype = element_dtype(type_)
    rank = array.ndim
    per_channel = channel_vector(array, 1) if rank >= 2 else None
    if per_channel is not None:
        shape = [per_channel.size] + [1] * (rank - 2)
        read = AffineMap(rank, 0, (AffineDimExpr(1),) + (AffineConstantExpr(0),) * (rank - 2))
        return dense_constant(per_channel.reshape(shape).astype(dtype), TensorType(element, shape)), read
    return dense_constant(array.astype(dtype), type_), AffineMap.identity(rank)


def _binary_generic(kind: str, x: SSAValue, k: SSAValue, read: AffineMap) -> list[Operation]:
    """`tensor.empty` and a parallel generic computing `x <kind> k` (k through `read`)."""
    type_ = x.type
    assert isinstance(type_, TensorType)
    element = type_.get_element_type()
    rank = len(type_.get_shape())
    empty = tensor.EmptyOp([], type_)
    op_class = arith.MulfOp if kind == "mul" else arith.AddfOp

    @Builder.implicit_region((element, element, element))
    def body(args: tuple[BlockArgument, ...]) -> None:
        result = op_class(args[0], args[1])
        YieldOp(result.result)

    identity = AffineMapAttr(AffineMap.identity(rank))
    generic = GenericOp(
        [x, k], [empty.tensor], body, [identity, AffineMapAttr(read), identity],
        iterator_attrs(["parallel"] * rank), [type_],
    )
    return [empty, generic]
