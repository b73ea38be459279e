"""`ElementwiseToGeneric`, a pattern of `linalg-fuse-pointwise`: arith/math on whole tensors
(HEIR's canonical form) becomes one generic per tree of such ops, splat constants as scalars,
so that the pass's other patterns see generics only."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
)

from heirpy.ir.dialects.linalg import GenericOp, YieldOp
from heirpy.ir.dialects.tensor_ext import (
    is_kernel_root,
)
from heirpy.ir.utils import (
    iterator_attrs,
)
from heirpy.transforms.pointwise.pointwise_maps import (
    LAYOUT_OPS,
)
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, in_generic_body


def _splat_element(value: SSAValue) -> IntegerAttr | FloatAttr | None:
    """The element of a splat tensor constant (`dense<1.0> : tensor<...>`), else None."""
    owner = value.op if isinstance(value, OpResult) else None
    if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, DenseIntOrFPElementsAttr):
        return None
    attr = owner.value
    if not attr.is_splat():
        return None
    # The first element only: `get_attrs()` would build one attribute per element.
    first = next(iter(attr.iter_attrs()))
    assert isinstance(first, IntegerAttr | FloatAttr)
    return first


def is_tensor_elementwise(op: Operation) -> bool:
    """An arith/math op on whole tensors of one static shape (MLIR's elementwise form)."""
    if op.name.split(".")[0] not in ("arith", "math") or isinstance(op, arith.ConstantOp):
        return False
    if len(op.results) != 1 or not op.operands or op.regions:
        return False
    result = op.results[0].type
    if not isinstance(result, TensorType) or any(d < 0 for d in result.get_shape()):
        return False
    shape = result.get_shape()
    return all(isinstance(v.type, TensorType) and v.type.get_shape() == shape for v in op.operands)


def _fusible_neighbour(value: SSAValue) -> bool:
    """Is `value` made by something a generic could fuse with?"""
    owner = value.op if isinstance(value, OpResult) else None
    if owner is None:
        return False
    return (
        isinstance(owner, (GenericOp, *LAYOUT_OPS))
        or is_kernel_root(owner)
        or is_tensor_elementwise(owner)
    )


def _tree_producer(value: SSAValue, consumer: Operation) -> Operation | None:
    """The elementwise op making `value` if it can join `consumer`'s generic.

    It joins when `consumer` holds every use of `value` (a value read twice by the same
    op, `x * x`, is one input): then nothing outside the tree needs it as a tensor.
    These are the cases `FuseElementwiseProducer` would fuse after converting each op
    on its own, so the tree is the generic those steps would end with.
    """
    owner = value.op if isinstance(value, OpResult) else None
    if owner is None or not is_tensor_elementwise(owner) or isinstance(owner.parent_op(), GenericOp):
        return None
    if any(use.operation is not consumer for use in value.uses):
        return None
    return owner


@dataclass
class _TreeFrame:
    """One op of an elementwise tree being emitted (see `_emit_tree`)."""

    op: Operation
    operands: list[SSAValue]
    """Its distinct non-splat operands, in order: one block argument or subtree each."""
    splats: dict[SSAValue, IntegerAttr | FloatAttr]
    """Its splat operands -> their element, a scalar constant in the body per use."""
    scalars: dict[SSAValue, SSAValue]
    """Operand -> the scalar the body computes it as."""
    next: int = 0


def _tree_frame(op: Operation) -> _TreeFrame:
    operands: list[SSAValue] = []
    splats: dict[SSAValue, IntegerAttr | FloatAttr] = {}
    for value in op.operands:
        if value in operands or value in splats:
            continue
        element = _splat_element(value)
        if element is None:
            operands.append(value)
        else:
            splats[value] = element
    return _TreeFrame(op, operands, splats, {})


def _emit_tree(root: Operation, block: Block) -> tuple[list[SSAValue], list[Operation], SSAValue]:
    """Emit the scalar form of the elementwise tree rooted at `root` into `block`.

    Post-order, operands left to right (each subtree's body before its consumer's),
    with a block argument per distinct non-splat operand of each op and a scalar
    constant before each op for each of its splat operands -- the inputs and the body
    that converting each op and fusing producers one at a time gives. Returns the
    generic's inputs, the tree's ops other than `root` (producers first) and the scalar
    the root computes. Iterative,
    so that a long chain of elementwise ops cannot exhaust Python's stack.
    """
    inputs: list[SSAValue] = []
    members: list[Operation] = []
    stack = [_tree_frame(root)]
    scalar_result: SSAValue | None = None
    while stack:
        frame = stack[-1]
        if frame.next < len(frame.operands):
            value = frame.operands[frame.next]
            frame.next += 1
            producer = _tree_producer(value, frame.op)
            if producer is not None:
                stack.append(_tree_frame(producer))
            else:
                inputs.append(value)
                element = value.type.get_element_type()  # type: ignore[attr-defined]
                frame.scalars[value] = block.insert_arg(element, len(block.args))
            continue
        scalars: list[SSAValue] = []
        for value in frame.op.operands:
            if value in frame.splats:
                splat = arith.ConstantOp(frame.splats[value])
                block.add_op(splat)
                scalars.append(splat.result)
            else:
                scalars.append(frame.scalars[value])
        result = frame.op.results[0]
        scalar_op = type(frame.op).create(
            operands=scalars,
            result_types=[result.type.get_element_type()],  # type: ignore[attr-defined]
            properties=dict(frame.op.properties),
            attributes=dict(frame.op.attributes),
        )
        block.add_op(scalar_op)
        scalar_result = scalar_op.results[0]
        stack.pop()
        if stack:
            stack[-1].scalars[result] = scalar_result
            members.append(frame.op)
    assert scalar_result is not None
    return inputs, members, scalar_result


class ElementwiseToGeneric(OpPattern[Operation], OutsideGenericBodies):
    """A tree of arith/math ops on whole tensors becomes one linalg.generic, so that it can fuse.

        %n = arith.negf %t : tensor<1x3x80x80x85xf32>
        %one = arith.constant dense<1.0> : tensor<1x3x80x80x85xf32>
        %a = arith.addf %n, %one : tensor<1x3x80x80x85xf32>
      ==>
        %a = linalg.generic {maps = [id, id]} ins(%t) outs(%empty) {
          ^bb0(%x: f32, %o: f32):
            %n_s = arith.negf %x : f32
            %one_s = arith.constant 1.0 : f32
            %y = arith.addf %n_s, %one_s : f32
            linalg.yield %y : f32
        }

    (`linalg-canonicalizations` turns elementwise generics into this form, as HEIR
    does.) Matched on the tree's root; an operand made by another such op joins the
    tree when the root-side op holds all its uses (`_tree_producer`), so a sigmoid's
    four ops are one rewrite, not four conversions and three fusions. Splat tensor
    constants become scalars in the body, so they are never materialised at full size;
    a value used twice by one op (`x * x`) is one input. Legality: all operands and the
    result have one static shape, and some operand of the root comes from, or some user
    of it is, an op this pass can fuse with (a generic, a layout op, a reduction root as
    producer, another such op).
    """

    # Any op: the arith and math ops are known by dialect name (`is_tensor_elementwise`).
    op_types = (Operation,)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_tensor_elementwise(op) or in_generic_body(op):
            return
        users = [use.operation for use in op.results[0].uses]
        if not any(_fusible_neighbour(v) for v in op.operands) and not any(
            isinstance(u, (GenericOp, *LAYOUT_OPS)) or is_tensor_elementwise(u) for u in users
        ):
            return
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        rank = len(result_type.get_shape())
        block = Block()
        inputs, members, scalar = _emit_tree(op, block)
        block.insert_arg(result_type.get_element_type(), len(block.args))
        block.add_op(YieldOp(scalar))
        empty = tensor.EmptyOp([], result_type)
        identity = AffineMapAttr(AffineMap.identity(rank))
        generic = GenericOp(
            inputs, [empty.tensor], Region(block), [identity] * (len(inputs) + 1),
            iterator_attrs(["parallel"] * rank), [result_type],
        )
        rewriter.replace(op, [empty, generic])
        for member in reversed(members):
            rewriter.erase(member)
