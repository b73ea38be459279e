"""Kernels that write their slice of a concatenation themselves (destination-passing style).

YOLOv5's Detect layer in its export form views each head's kernel result as (bs, -1, 85) and
concatenates the three: `tensor.concat` copies every head once more into a new tensor
(8.6 MB for a 640x640 image). Here each head's kernel gets the concatenation as a destination
and stores its own slice (`tensor.insert_slice`, MLIR's in-place idiom, as bufferization and
IREE's dispatch regions use it), the kernels chained through that one buffer.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.tensor import (
    CollapseShapeOp,
    ConcatOp,
    EmptyOp,
    ExpandShapeOp,
    ExtractSliceOp,
    InsertSliceOp,
)
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.dialects.tensor_ext import KernelOp, KernelYieldOp, slice_position
from heirpy.ir.utils import shape_of
from heirpy.transforms.rewrite import OpPattern

_VIEWS = (ExpandShapeOp, CollapseShapeOp)


@dataclass(frozen=True)
class Piece:
    """One operand of the concat: the kernel producing it and the views in between
    (from the kernel's result towards the concat), and the slice it fills."""

    kernel: KernelOp
    views: tuple[Operation, ...]
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]


def trace_piece(value: SSAValue) -> tuple[KernelOp, tuple[Operation, ...]] | None:
    """The kernel whose result reaches `value` only through single-use expand/collapse
    views, with those views in program order; None if `value` comes from anything else."""
    views: list[Operation] = []
    while isinstance(value, OpResult) and isinstance(value.op, _VIEWS):
        if not value.has_one_use():
            return None
        views.append(value.op)
        value = value.op.operands[0]
    if not isinstance(value, OpResult) or not isinstance(value.op, KernelOp) or not value.has_one_use():
        return None
    return value.op, tuple(reversed(views))


def storable(kernel: KernelOp) -> bool:
    """Can `kernel` take a destination? One result, no store yet, and an epilogue with one
    result that never reads its init (so the init may be any slice of the destination)."""
    epilogue = kernel.epilogue()
    if len(kernel.res) != 1 or kernel.store() is not None or epilogue is None or len(epilogue.results) != 1:
        return False
    init_arg = epilogue.regions[0].block.args[-1]
    return not init_arg.uses


def plan_pieces(concat: ConcatOp) -> list[Piece] | None:
    """The slices of a concat's operands, if every operand comes from its own storable kernel."""
    result_shape = shape_of(concat.result)
    if result_shape is None:
        return None
    dim = concat.dim.value.data
    pieces: list[Piece] = []
    start = 0
    for operand in concat.inputs:
        traced = trace_piece(operand)
        shape = shape_of(operand)
        if traced is None or shape is None or not storable(traced[0]):
            return None
        offsets = tuple(start if axis == dim else 0 for axis in range(len(shape)))
        pieces.append(Piece(traced[0], traced[1], offsets, tuple(shape)))
        start += shape[dim]
    if len({id(p.kernel) for p in pieces}) != len(pieces):
        return None
    return pieces


@dataclass(frozen=True)
class StorePlan:
    """A store after an epilogue in standard linalg (what `lower-tensor-ext` makes of a
    kernel with a store): its result goes, through views, into a static slice of D, and
    its init is a view of that slice of D or a `tensor.empty`. Kernel formation takes all
    of it in."""

    extract: ExtractSliceOp | None
    init_views: tuple[Operation, ...]  # from the slice to the epilogue's init
    store_views: tuple[Operation, ...]  # from the epilogue's result to the insert
    insert: InsertSliceOp

    @property
    def before_root(self) -> list[Operation]:
        return [self.extract, *self.init_views] if self.extract is not None else []

    @property
    def after_epilogue(self) -> list[Operation]:
        return [*self.store_views, self.insert]


def plan_store(epilogue: Operation) -> StorePlan | None:
    """The store around `epilogue`, if its init and its result form one (see `StorePlan`):
    single-use views, static and equal slice positions, and D used by nothing else."""
    if len(epilogue.results) != 1:
        return None
    store_views: list[Operation] = []
    value = epilogue.results[0]
    while value.has_one_use() and isinstance(user := next(iter(value.uses)).operation, _VIEWS):
        store_views.append(user)
        value = user.results[0]
    if not value.has_one_use():
        return None
    insert = next(iter(value.uses)).operation
    if not isinstance(insert, InsertSliceOp) or insert.source is not value:
        return None
    position = slice_position(insert)
    if position is None:
        return None
    init_views: list[Operation] = []
    init = epilogue.operands[-1]  # a one-result generic's init is its last operand
    while isinstance(init, OpResult) and isinstance(init.op, _VIEWS) and init.has_one_use():
        init_views.append(init.op)
        init = init.op.operands[0]
    extract = init.op if isinstance(init, OpResult) and init.has_one_use() else None
    if isinstance(extract, ExtractSliceOp) and extract.source is insert.dest:
        if position != slice_position(extract):
            return None
    elif isinstance(init, OpResult) and isinstance(init.op, EmptyOp):
        extract, init_views = None, []  # the empty init is cloned into the kernel
    else:
        return None
    if {use.operation for use in insert.dest.uses} != {extract, insert} - {None}:
        return None
    return StorePlan(extract, tuple(reversed(init_views)), tuple(store_views), insert)


def _inverse_view(view: Operation, source: SSAValue) -> Operation:
    """The view that undoes `view`, applied to `source` (which has `view`'s result type)."""
    original = view.operands[0]
    reassociation = view.properties["reassociation"]
    if isinstance(view, CollapseShapeOp):
        shape = shape_of(original)
        assert shape is not None
        return ExpandShapeOp(source, [], reassociation, shape, original.type)  # type: ignore[arg-type]
    return CollapseShapeOp.build(
        operands=[source], result_types=[original.type], properties={"reassociation": reassociation}
    )


def with_store(piece: Piece, destination: SSAValue) -> KernelOp:
    """`piece.kernel` rebuilt to write its result, through the piece's views, into its slice
    of `destination` and return the whole destination."""
    copy = piece.kernel.clone()
    root, epilogue = copy.root(), copy.epilogue()
    assert root is not None and epilogue is not None  # a verified kernel has both
    block = copy.body.block
    dest = block.insert_arg(destination.type, len(block.args))
    strides = (1,) * len(piece.sizes)
    # The epilogue's init: the destination's slice, viewed back to the epilogue's shape.
    init_ops: list[Operation] = [ExtractSliceOp.from_static_parameters(dest, piece.offsets, piece.sizes, strides)]
    for view in reversed(piece.views):
        init_ops.append(_inverse_view(view, init_ops[-1].results[0]))
    block.insert_ops_before(init_ops, root)
    old_init = epilogue.operands[-1]  # a one-result generic's init is its last operand
    epilogue.operands = [*epilogue.operands[:-1], init_ops[-1].results[0]]
    if isinstance(old_init, OpResult) and isinstance(old_init.op, EmptyOp) and not old_init.uses:
        old_init.op.detach()
        old_init.op.erase()
    # The store: the epilogue's result through the same views, into the same slice.
    terminator = block.last_op
    assert isinstance(terminator, KernelYieldOp)
    value: SSAValue = epilogue.results[0]
    store_ops: list[Operation] = []
    for view in piece.views:
        moved = view.clone()
        moved.operands = [value, *moved.operands[1:]]
        store_ops.append(moved)
        value = moved.results[0]
    insert = InsertSliceOp.from_static_parameters(value, dest, piece.offsets, piece.sizes, strides)
    block.insert_ops_before([*store_ops, insert, KernelYieldOp(insert.result)], terminator)
    terminator.detach()
    terminator.erase()
    stored = KernelOp([*copy.inputs, destination], [destination.type], copy.detach_region(copy.body))
    copy.erase()  # never inserted; dropping it releases its uses of the inputs
    return stored


class WriteKernelsIntoConcat(OpPattern[ConcatOp]):
    """Each kernel feeding a `tensor.concat` writes its own slice of one destination.

        %k0 = tensor_ext.kernel ins(%x0, %w0 : ...) -> tensor<1x3x8x8x5xf32> { ... }
        %k1 = tensor_ext.kernel ins(%x1, %w1 : ...) -> tensor<1x3x4x4x5xf32> { ... }
        %f0 = tensor.collapse_shape %k0 [[0], [1, 2, 3], [4]] : ... into tensor<1x192x5xf32>
        %f1 = tensor.collapse_shape %k1 [[0], [1, 2, 3], [4]] : ... into tensor<1x48x5xf32>
        %c = tensor.concat dim(1) %f0, %f1 : (...) -> tensor<1x240x5xf32>
      ==>
        %d = tensor.empty() : tensor<1x240x5xf32>
        %k0 = tensor_ext.kernel ins(%x0, %w0, %d : ...) -> tensor<1x240x5xf32> {
          ... %s = tensor.extract_slice %di[0, 0, 0] [1, 192, 5] [1, 1, 1], expanded back as the
          epilogue's init; the epilogue's result collapsed and inserted at the same place ...
        }
        %k1 = tensor_ext.kernel ins(%x1, %w1, %k0 : ...) -> tensor<1x240x5xf32> { ... [0, 192, 0] ... }
        (%c's uses now read %k1)

    Legality: every operand of the concat is the result of its own kernel, reached only
    through single-use expand/collapse views; each kernel has one result, used only there,
    no store yet, and an epilogue with one result that does not read its init; shapes are
    static. Otherwise the concat is left as it is. The kernels are chained in program
    order, so each takes the buffer the previous one filled.
    """

    op_types = (ConcatOp,)

    def rewrite(self, op: ConcatOp, rewriter: PatternRewriter) -> None:
        pieces = plan_pieces(op)
        if pieces is None:
            return
        block = op.parent_block()
        if block is None or any(p.kernel.parent_block() is not block for p in pieces):
            return
        in_order = sorted(pieces, key=lambda p: block.get_operation_index(p.kernel))
        empty = EmptyOp([], op.result.type)
        rewriter.insert(empty, InsertPoint.before(in_order[0].kernel))
        destination: SSAValue = empty.tensor
        for piece in in_order:
            stored = with_store(piece, destination)
            rewriter.insert(stored, InsertPoint.before(piece.kernel))
            destination = stored.res[0]
        rewriter.replace_all_uses_with(op.result, destination)
        rewriter.erase(op)
        for piece in pieces:
            for view in reversed(piece.views):
                rewriter.erase(view)
            rewriter.erase(piece.kernel)
