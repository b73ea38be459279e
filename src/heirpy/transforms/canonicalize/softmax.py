"""Softmax written out as five linalg ops (torch-mlir's form) raised to `linalg.softmax`.

torch-mlir lowers `softmax(x, dim=d)` to a max reduction over `d` (a two-result
generic: the max and its unused argmax), a broadcast subtract, an exp, a sum
reduction over `d` and a broadcast divide. IREE recognises exactly that chain and
raises it to `linalg.softmax`, which it compiles as one dispatch. Once heirpy's
pointwise fusion has merged the subtract into the exp (or folded the broadcast into
a map) IREE no longer recognises it and forms two reduction dispatches instead
(ViT attention: 6 dispatches raw, 7 after heirpy before this pattern). Raising it
here, first, keeps it one op through every later pass and through IREE; the
evaluator runs `linalg.softmax` with the same formula.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import math
from xdsl.dialects.builtin import AnyFloat, IntegerAttr, TensorType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from heirpy.ir.constants import NO_BLOBS, scalar_constant
from heirpy.ir.dialects import linalg
from heirpy.ir.dialects.linalg_softmax import SoftmaxOp
from heirpy.ir.dialects.tensor import ExpandShapeOp
from heirpy.ir.utils import affine_maps, is_identity, iterator_kinds, static_shape
from heirpy.transforms.rewrite import OpPattern

NEG_INF = float("-inf")


def reads_reduced(m: AffineMap, dim: int) -> bool:
    """Whether `m` reads a tensor reduced over loop `dim`: the loops in order with `dim`
    either dropped or replaced by the constant 0 (a kept unit dimension)."""
    dropped = [AffineDimExpr(i) for i in range(m.num_dims) if i != dim]
    kept = [AffineConstantExpr(0) if i == dim else AffineDimExpr(i) for i in range(m.num_dims)]
    return list(m.results) in (dropped, kept)


def yielded_binary(op: linalg.GenericOp, name: str) -> tuple[int, int] | None:
    """For a generic whose first yielded value is `name(arg_a, arg_b)` of two block
    arguments, their argument numbers (a, b); else None."""
    block = op.body.block
    yielded = block.last_op
    if yielded is None or not yielded.operands:
        return None
    value = yielded.operands[0]
    if not isinstance(value, OpResult) or value.op.name != name or len(value.op.operands) != 2:
        return None
    a, b = value.op.operands
    if not isinstance(a, BlockArgument) or not isinstance(b, BlockArgument):
        return None
    return a.index, b.index


def _generic(value: SSAValue) -> linalg.GenericOp | None:
    return value.op if isinstance(value, OpResult) and isinstance(value.op, linalg.GenericOp) else None


def _skip_unit_expand(value: SSAValue) -> SSAValue:
    """The source of a `tensor.expand_shape` that only adds unit dims, else `value`."""
    if isinstance(value, OpResult) and isinstance(value.op, ExpandShapeOp):
        source, result = static_shape(value.op.src.type), static_shape(value.type)
        if source is not None and result is not None and [d for d in result if d != 1] == [
            d for d in source if d != 1
        ]:
            return value.op.src
    return value


def _only_used_by(value: SSAValue, users: set[Operation]) -> bool:
    return all(use.operation in users for use in value.uses)


def _read_only_by(value: SSAValue, read: SSAValue, consumer: Operation) -> bool:
    """Whether `consumer` is the only reader of `value`, which it reads as `read`:
    `value` itself or a unit-dim `tensor.expand_shape` of it with no other user."""
    if read is value:
        return _only_used_by(value, {consumer})
    assert isinstance(read, OpResult)
    return _only_used_by(value, {read.op}) and _only_used_by(read, {consumer})


@dataclass(frozen=True)
class _Reduction:
    """A one-input generic reducing its input over loop `dim` with `combiner` into result #0."""

    op: linalg.GenericOp
    source: SSAValue
    dim: int


def match_reduction(value: SSAValue, combiner: str, init: float) -> _Reduction | None:
    """`value` as result #0 of `generic ins(%x) outs(%init, ...)` that reduces `%x` (read
    with the identity map) over one loop with `combiner(in, out)` from a splat `init`;
    any further result (torch's argmax) must be unused."""
    op = _generic(value)
    if op is None or value is not op.res[0] or len(op.inputs) != 1:
        return None
    if any(r.uses for r in op.res[1:]):
        return None
    kinds = iterator_kinds(op.iterator_types)
    if kinds.count("reduction") != 1 or any(k not in ("parallel", "reduction") for k in kinds):
        return None
    dim = kinds.index("reduction")
    maps = affine_maps(op.indexing_maps)
    if not is_identity(maps[0]) or not reads_reduced(maps[1], dim):
        return None
    if yielded_binary(op, combiner) not in ((0, 1), (1, 0)):
        return None
    if scalar_constant(op.outputs[0], NO_BLOBS) != init:
        return None
    return _Reduction(op, op.inputs[0], dim)


def match_broadcast_binary(value: SSAValue, name: str, dim: int) -> tuple[SSAValue, SSAValue, linalg.GenericOp] | None:
    """`value` as `generic ins(%a, %b)` computing `name(a, b)` over parallel loops, `%a` read
    with the identity map and `%b` reduced over loop `dim`: returns (a, b, op)."""
    op = _generic(value)
    if op is None or len(op.res) != 1 or len(op.inputs) != 2:
        return None
    if any(k != "parallel" for k in iterator_kinds(op.iterator_types)):
        return None
    maps = affine_maps(op.indexing_maps)
    if not (is_identity(maps[0]) and reads_reduced(maps[1], dim) and is_identity(maps[2])):
        return None
    if yielded_binary(op, name) != (0, 1):
        return None
    return op.inputs[0], op.inputs[1], op


def match_exp(value: SSAValue) -> tuple[SSAValue, Operation] | None:
    """`value` as exp of one tensor: `math.exp` on tensors or an identity-mapped generic."""
    if not isinstance(value, OpResult):
        return None
    if isinstance(value.op, math.ExpOp):
        return value.op.operand, value.op
    op = _generic(value)
    if op is None or len(op.res) != 1 or len(op.inputs) != 1:
        return None
    if any(k != "parallel" for k in iterator_kinds(op.iterator_types)):
        return None
    if not all(is_identity(m) for m in affine_maps(op.indexing_maps)):
        return None
    block = op.body.block
    yielded = block.last_op
    first = block.first_op
    if first is None or not isinstance(first, math.ExpOp) or first.next_op is not yielded:
        return None
    if first.operand is not block.args[0] or yielded is None or yielded.operands[0] is not first.result:
        return None
    return op.inputs[0], op


class RaiseSoftmax(OpPattern[linalg.GenericOp]):
    """A softmax over loop `d`, in the five ops torch-mlir emits, becomes `linalg.softmax`:

        %m:2 = linalg.generic {max over d3, init -inf; #1 = argmax, unused} ins(%x) outs(%ninf, %zeros)
        %mb = tensor.expand_shape %m#0 [[0], [1], [2, 3]] ...            (optional)
        %y = linalg.generic {subf, (d0..d3) - (d0, d1, d2, 0)} ins(%x, %mb) outs(%e)
        %z = linalg.generic {exp} ins(%y) outs(%e)                       (or math.exp %y)
        %s = linalg.generic {sum over d3, init 0} ins(%z) outs(%zero)
        %r = linalg.generic {divf, (d0..d3) / (d0, d1, d2, 0)} ins(%z, %s) outs(%e)
    ==>
        %r = linalg.softmax dimension(3) ins(%x : T) outs(%e : T) -> T

    It fires only when every link is exactly that (same `%x` for the max and the
    subtract, the same loop reduced twice, -inf and 0 inits, float elements) and the
    intermediate values have no other users; otherwise the ops are left as they were.
    With `innermost_only` (a back end that pays for each op's form: `iree-prepare`) it
    also needs `d` to be the tensor's last axis: IREE runs a named softmax over an outer
    axis as one dispatch twice as slow as torch-mlir's two reductions (YOLOv8n's DFL,
    a softmax over the 16 bins of 1x16x4x8400: 345 us against 102 + 78 us with IREE's
    best CPU flags), and over the last axis as fast (DeiT's attention).
    """

    op_types = (linalg.GenericOp,)

    def __init__(self, innermost_only: bool = False) -> None:
        self.innermost_only = innermost_only

    def _divided_axis(self, op: linalg.GenericOp, rank: int) -> int | None:
        """The one loop the divide's second input is reduced over (the softmax's axis),
        or None; with `innermost_only`, None unless it is the last."""
        maps = affine_maps(op.indexing_maps)
        dims = [d for d in range(rank) if len(maps) == 3 and reads_reduced(maps[1], d)]
        if len(dims) != 1 or (self.innermost_only and dims[0] != rank - 1):
            return None
        return dims[0]

    def rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.res) != 1 or not isinstance(op.res[0].type, TensorType):
            return
        kinds = iterator_kinds(op.iterator_types)
        if not kinds or any(k != "parallel" for k in kinds):
            return
        dim = self._divided_axis(op, len(kinds))
        if dim is None:
            return
        divide = match_broadcast_binary(op.res[0], "arith.divf", dim)
        if divide is None:
            return
        exps, sums, _ = divide
        total = match_reduction(_skip_unit_expand(sums), "arith.addf", 0.0)
        if total is None or total.dim != dim or total.source is not exps:
            return
        exp = match_exp(exps)
        if exp is None:
            return
        shifted, exp_op = exp
        subtract = match_broadcast_binary(shifted, "arith.subf", dim)
        if subtract is None:
            return
        x, maxes, sub_op = subtract
        peak = match_reduction(_skip_unit_expand(maxes), "arith.maximumf", NEG_INF)
        if peak is None or peak.dim != dim or peak.source is not x:
            return
        if not (
            _only_used_by(exps, {total.op, op})
            and _only_used_by(shifted, {exp_op})
            and _read_only_by(total.op.res[0], sums, op)
            and _read_only_by(peak.op.res[0], maxes, sub_op)
        ):
            return
        x_type = x.type
        if not isinstance(x_type, TensorType) or x_type != op.res[0].type:
            return
        if not isinstance(x_type.element_type, AnyFloat):
            return
        softmax = SoftmaxOp.build(
            operands=[x, op.outputs[0]],
            properties={"dimension": IntegerAttr(dim, 64)},
            result_types=[x_type],
        )
        rewriter.replace(op, softmax)


SOFTMAX_PATTERNS: tuple[type[RewritePattern], ...] = (RaiseSoftmax,)
