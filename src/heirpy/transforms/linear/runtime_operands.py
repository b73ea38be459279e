"""Helpers for folding run-time plaintext (function arguments not marked secret) into a
linear op: the fold cannot be done with numpy, so it is written as plaintext ops that
run before the linear op.

    %m = linalg.matmul ins(%x, %w) outs(%e)            // %w: an argument
    %s2 = linalg.broadcast ins(%s : tensor<4xf32>) ... dimensions = [0]
    %r = arith.mulf %m, %s2
  ->
    %sw = linalg.broadcast ins(%s : tensor<4xf32>) outs(...) dimensions = [0]
    %w2 = arith.mulf %w, %sw                           // plaintext x plaintext
    %r = linalg.matmul ins(%x, %w2) outs(%e)

* `channel_source(value, out_axis)`: the 1-D tensor a result-shaped scale repeats
  along every axis but `out_axis` (a `linalg.broadcast` of it, or the value itself
  when the result is 1-D), the one shape of run-time scale that moves into weights.
* `hoist_plan(value, anchor)`: the ops to move before `anchor` so that `value` is
  defined there (HEIR's front ends write a bias's broadcast after the matmul it
  follows). Only side-effect-free ops of the anchor's block move, never the anchor
  or anything computed from it.
* `broadcast_along(source, type_, axis)`: the ops that repeat a 1-D `source` along
  every axis of `type_` but `axis`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from heirpy.ir.dialects.linalg import BroadcastOp
from heirpy.ir.utils import i64_array, static_shape


def channel_source(value: SSAValue, out_axis: int) -> SSAValue | None:
    """The 1-D tensor that `value` (a result-shaped scale) holds along `out_axis` and
    repeats along every other axis; None when `value` is not visibly of that form."""
    shape = static_shape(value.type)
    if shape is None or not 0 <= out_axis < len(shape):
        return None
    if len(shape) == 1:
        return value
    owner = value.owner
    if not isinstance(owner, BroadcastOp):
        return None
    source = owner.operands[0]
    source_shape = static_shape(source.type)
    kept = [a for a in range(len(shape)) if a not in owner.dimensions.get_values()]
    if source_shape != (shape[out_axis],) or kept != [out_axis]:
        return None
    return source


def _defined_before(value: SSAValue, anchor: Operation) -> bool:
    """Is `value` visible at `anchor` without moving anything?"""
    if isinstance(value, BlockArgument):
        block = anchor.parent_block()
        while block is not None:
            if block is value.block:
                return True
            parent = block.parent_op()
            block = None if parent is None else parent.parent_block()
        return False
    owner = value.owner
    assert isinstance(owner, Operation)
    if owner.parent_block() is not anchor.parent_block():
        # Defined in an enclosing block: visible if that block encloses the anchor.
        holder = anchor.parent_op()
        while holder is not None:
            if holder.parent_block() is owner.parent_block():
                return owner.is_before_in_block(holder)
            holder = holder.parent_op()
        return False
    return owner.is_before_in_block(anchor)


def hoist_plan(value: SSAValue, anchor: Operation) -> list[Operation] | None:
    """The ops (in block order) to move just before `anchor` so that `value` is defined
    there; [] if it already is; None if that cannot be done safely (an op with side
    effects, one in another block, the anchor itself or a user of its results)."""
    pending = [value]
    moved: set[Operation] = set()
    while pending:
        current = pending.pop()
        if _defined_before(current, anchor):
            continue
        owner = current.owner
        if not isinstance(owner, Operation) or owner is anchor or owner in moved:
            if owner is anchor:
                return None
            continue
        if owner.parent_block() is not anchor.parent_block() or not is_side_effect_free(owner):
            return None
        moved.add(owner)
        pending.extend(owner.operands)
        for nested in owner.walk():
            if nested is not owner:
                pending.extend(v for v in nested.operands if not _inside(v, owner))
    block = anchor.parent_block()
    assert block is not None or not moved
    return [op for op in block.ops if op in moved] if block is not None else []


def _inside(value: SSAValue, op: Operation) -> bool:
    holder = value.block.parent_op() if isinstance(value, BlockArgument) else value.owner
    while isinstance(holder, Operation):
        if holder is op:
            return True
        holder = holder.parent_op()
    return False


def hoist(rewriter: PatternRewriter, ops: Sequence[Operation], anchor: Operation) -> None:
    """Move `ops` (a `hoist_plan`) just before `anchor`, keeping their order."""
    for op in ops:
        op.detach()
        rewriter.insert(op, InsertPoint.before(anchor))


def broadcast_along(source: SSAValue, type_: TensorType, axis: int) -> list[Operation]:
    """`tensor.empty` and a `linalg.broadcast` of the 1-D `source` to `type_`, kept along
    `axis`; the broadcast is the last op."""
    empty = tensor.EmptyOp([], type_)
    dims = i64_array([a for a in range(len(type_.get_shape())) if a != axis])
    return [empty, BroadcastOp(source, empty.tensor, dims)]
