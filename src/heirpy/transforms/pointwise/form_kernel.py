"""`FormKernel`, the kernel phase of `linalg-fuse-pointwise`: a reduction root (conv, matmul,
fused_conv_pool) whose only user is an all-parallel generic becomes one `tensor_ext.kernel`,
with the ops the epilogue needs moved into it."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    ShapedType,
)
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
)
from xdsl.rewriter import InsertPoint

from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.dialects.tensor_ext import (
    KernelOp,
    KernelYieldOp,
    is_kernel_epilogue,
    is_kernel_root,
)
from heirpy.ir.utils import (
    affine_maps,
    loop_sizes,
    shape_of,
)
from heirpy.transforms.pointwise.concat_destination import plan_store
from heirpy.transforms.pointwise.pointwise_maps import (
    no_recompute,
    operand_shapes,
    single_user,
)
from heirpy.transforms.rewrite import OpPattern

# ------------------------------------------------------------------ kernels


_CLONED_INTO_KERNEL = (arith.ConstantOp, tensor.EmptyOp)
_PROLOGUE_OPS = ("linalg.broadcast", "linalg.fill", "tensor.pad")


def kernel_read_is_whole(read: AffineMap, epilogue_sizes: Sequence[int], root_shape: Sequence[int]) -> bool:
    """The epilogue reads each root element exactly once: no recompute of the root.

    Pure: every non-unit epilogue loop takes part in the read, and the loop space has
    exactly as many points as the root's result (a permuted, reshaped read).
    """
    if any(s < 0 for s in epilogue_sizes) or any(s < 0 for s in root_shape):
        return no_recompute(read, epilogue_sizes) and len(epilogue_sizes) >= len(root_shape)
    return no_recompute(read, epilogue_sizes) and prod(epilogue_sizes) == prod(root_shape)


class FormKernel(OpPattern[GenericOp]):
    """A reduction root and its pointwise epilogue become one `tensor_ext.kernel`.

        %acc = linalg.broadcast ins(%bias) outs(%e) dimensions = [0, 2, 3]
        %c = linalg.conv_2d_nchw_fchw ins(%x, %w) outs(%acc)
        %s = linalg.generic {maps = [(d0..d4) -> (d0, d1*85 + d4, d2, d3), id]} ins(%c) ...
      ==>
        %s = tensor_ext.kernel ins(%x, %w, %bias : ...) -> tensor<1x3x80x80x85xf32> {
        ^bb0(%xi, %wi, %bi):
          %acc = linalg.broadcast ins(%bi) ...
          %c = linalg.conv_2d_nchw_fchw ins(%xi, %wi) outs(%acc)
          %s = linalg.generic ... ins(%c) ...
          tensor_ext.yield %s
        }

    Matched on the epilogue. Legality: the epilogue is an all-parallel generic with one
    result, not already inside a kernel; exactly one of its inputs is a root's result
    (conv, matmul, fused_conv_pool, any op with reduction loops); that result has no
    other use (several users would recompute the conv/matmul); the epilogue reads each
    root element once (`kernel_read_is_whole`). The root's accumulator
    (`linalg.broadcast`/`linalg.fill`) and padded inputs (`tensor.pad`) join the kernel
    when the root is their only user; constants and `tensor.empty` are cloned in.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not is_kernel_epilogue(op) or len(op.res) != 1 or isinstance(op.parent_op(), KernelOp):
            return
        roots = [
            (i, v.op) for i, v in enumerate(op.inputs)
            if isinstance(v, OpResult) and is_kernel_root(v.op)
        ]
        if len(roots) != 1:
            return
        index, root = roots[0]
        if len(root.results) != 1 or single_user(root.results[0]) is not op:
            return
        if isinstance(root.parent_op(), KernelOp) or root.parent is not op.parent:
            return
        shapes = operand_shapes(op)
        root_shape = shape_of(root.results[0])
        if shapes is None or root_shape is None:
            return
        maps = affine_maps(op.indexing_maps)
        sizes = loop_sizes(maps, shapes)
        if sizes is None or not kernel_read_is_whole(maps[index], sizes, root_shape):
            return
        prologue = [
            v.op for v in root.operands
            if isinstance(v, OpResult) and v.op.name in _PROLOGUE_OPS
            and single_user(v) is root and v.op.parent is op.parent
        ]
        # A store around the epilogue (its init a slice of D, its result inserted back into
        # D: a lowered kernel with a store) joins the kernel, so lowering and fusing again
        # gives the same kernel.
        store = plan_store(op)
        before_root = store.before_root if store else []
        after_epilogue = store.after_epilogue if store else []
        members = [*_in_block_order(prologue, root), *before_root, root, op, *after_epilogue]
        destination = [store.insert.dest] if store else []
        _move_into_kernel(members, members[-1].results[0], destination, rewriter)


def _in_block_order(ops: Sequence[Operation], anchor: Operation) -> list[Operation]:
    """`ops`, all defined before `anchor` in its block, in block order.

    Found by walking back from `anchor`: the prologue sits just above its root, so this
    costs a few steps, where numbering the block per kernel was quadratic in its size.
    """
    wanted = set(ops)
    found: list[Operation] = []
    current = anchor.prev_op
    while wanted and current is not None:
        if current in wanted:
            found.append(current)
            wanted.discard(current)
        current = current.prev_op
    return found[::-1]


def _move_into_kernel(
    members: Sequence[Operation],
    result: SSAValue,
    operands: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> KernelOp:
    """Move `members` into an isolated kernel yielding `result`, placed where the last
    member was; outside values become its operands (constants and `tensor.empty` are
    cloned in, except `operands`, such as a store's destination, which the kernel must
    take from outside). Users of `result` then read the kernel's result.

    The members are moved, not cloned: cloning a conv, its epilogue and their bodies and
    erasing the originals was a third of this pattern's time on YOLO-style heads.
    """
    inside = {r for m in members for r in m.results}
    inputs: list[SSAValue] = []
    cloned: list[Operation] = []
    originals: list[Operation] = []
    mapper: dict[SSAValue, SSAValue] = {}
    block = Block()

    def capture(value: SSAValue) -> None:
        if value in inside or value in mapper:
            return
        owner = value.op if isinstance(value, OpResult) else None
        if isinstance(owner, _CLONED_INTO_KERNEL) and not owner.operands and value not in operands and not (
            isinstance(owner, arith.ConstantOp) and isinstance(value.type, ShapedType)
        ):
            copy = owner.clone()
            cloned.append(copy)
            originals.append(owner)
            mapper[value] = copy.results[0]
            return
        inputs.append(value)
        mapper[value] = block.insert_arg(value.type, len(block.args))

    # Capture the root's operands first, so the kernel reads (input, weights, ...) in
    # the root's order; the members keep program order.
    root_first = sorted(members, key=lambda m: 0 if is_kernel_root(m) else 1)
    for member in root_first:
        for nested in member.walk():
            for value in nested.operands:
                if not _defined_in(value, member):
                    capture(value)
    block.add_ops(cloned)
    kernel = KernelOp(inputs, [result.type], Region(block))
    rewriter.insert(kernel, InsertPoint.before(members[-1]))
    for member in members:
        member.detach()
        for nested in member.walk():
            if any(v in mapper for v in nested.operands):
                nested.operands = [mapper.get(v, v) for v in nested.operands]
        block.add_op(member)
    terminator = KernelYieldOp(result)
    block.add_op(terminator)
    kernel.results[0].name_hint = result.name_hint
    rewriter.replace_uses_with_if(result, kernel.results[0], lambda use: use.operation is not terminator)
    _erase_unused(originals, rewriter)
    return kernel


def _erase_unused(ops: Sequence[Operation], rewriter: PatternRewriter) -> None:
    """Erase those of `ops` (the originals of constants and empties cloned into a
    kernel) that nothing reads any more: now, rather than by the walker's dead-code
    elimination, which would count as a change and cost the pattern set one more
    sweep of the whole module."""
    for op in ops:
        if op.parent is not None and not any(r.uses for r in op.results):
            rewriter.erase(op)


def _defined_in(value: SSAValue, member: Operation) -> bool:
    """True if `value` is defined in one of `member`'s own regions (a body value)."""
    parent = value.op.parent_op() if isinstance(value, OpResult) else value.owner.parent_op()
    while parent is not None:
        if parent is member:
            return True
        parent = parent.parent_op()
    return False
