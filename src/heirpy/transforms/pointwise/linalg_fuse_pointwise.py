"""Pointwise fusion across reshape / transpose / broadcast, and kernels with a reduction root.

Five patterns, run in two phases by `linalg-fuse-pointwise` (pointwise first, then
kernels, so that other fusions in `linalg-fuse-ops` see plain linalg first):

* `ElementwiseToGeneric`: arith/math on whole tensors (HEIR's canonical form) becomes
  a generic, with splat constants as scalars.
* `AbsorbLayoutChain`: a generic reading a chain of expand/collapse/reshape/transpose/
  broadcast reads the chain's source directly, through the axis map's affine map.
* `FuseElementwiseProducer`: an all-parallel generic feeding a generic is inlined in it.
* `TransposeToGeneric`: a transpose of a fusible generic's result becomes a generic,
  so that the two can fuse.
* `FormKernel`: a reduction root (conv, matmul, fused_conv_pool) whose only user is an
  all-parallel generic becomes one `tensor_ext.kernel`.

and, in a third phase, `WriteKernelsIntoConcat` (`concat_destination.py`): kernels whose
results are only concatenated each store their slice of the concatenation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
)
from xdsl.rewriter import InsertPoint

from heirpy.ir.dialects.linalg import GenericOp, IndexOp, TransposeOp, YieldOp
from heirpy.ir.dialects.tensor_ext import (
    KernelOp,
    KernelYieldOp,
    is_kernel_epilogue,
    is_kernel_root,
)
from heirpy.ir.utils import (
    affine_maps,
    iterator_attrs,
    iterator_kinds,
    loop_sizes,
    reassociation_attr,
    shape_of,
)
from heirpy.transforms.pointwise.axis_map import AxisMap, trace
from heirpy.transforms.pointwise.concat_destination import WriteKernelsIntoConcat, plan_store
from heirpy.transforms.pointwise.pointwise_maps import (
    LAYOUT_OPS,
    bare_dims,
    inverse_of_permutation,
    layout_chain,
    loops_inferable,
    no_recompute,
    read_splits,
    refine_loops,
    source_map,
    split_keeps_reductions_whole,
    substitute,
)
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets, in_generic_body

# ------------------------------------------------------------------ generic helpers


def _shapes(op: GenericOp) -> list[tuple[int, ...]] | None:
    shapes = [shape_of(v) for v in op.operands]
    if any(s is None for s in shapes):
        return None
    return shapes  # type: ignore[return-value]


def _uses_index(op: Operation) -> bool:
    return any(isinstance(child, IndexOp) for child in op.walk())


def _single_user(value: SSAValue) -> Operation | None:
    """The op holding the only use of `value` (None for zero or several uses)."""
    return next(iter(value.uses)).operation if value.has_one_use() else None


def _erase_dead(ops: Sequence[Operation], rewriter: PatternRewriter) -> None:
    """Erase the layout ops (and their inits) a rewrite left without users, last first."""
    for op in reversed(ops):
        if op.parent is None or any(r.uses for r in op.results):
            continue
        inits = [v.op for v in op.operands[1:] if isinstance(v, OpResult)]
        rewriter.erase(op)
        for init in inits:
            if isinstance(init, tensor.EmptyOp) and not init.tensor.uses and init.parent:
                rewriter.erase(init)


def _rebuild(
    op: GenericOp,
    inputs: Sequence[SSAValue],
    maps: Sequence[AffineMap],
    kinds: Sequence[str],
    body: Region,
) -> GenericOp:
    return GenericOp(
        inputs,
        list(op.outputs),
        body,
        [AffineMapAttr(m) for m in maps],
        iterator_attrs(kinds),
        [r.type for r in op.res],
        op.doc,
        op.library_call,
    )


# ------------------------------------------------------------------ the patterns


@dataclass(frozen=True)
class AbsorbPlan:
    """New maps and loop kinds; `out_groups`/`out_shape` when the output is written in
    the refined shape (through an expand_shape of its init, collapsed back after)."""

    maps: tuple[AffineMap, ...]
    kinds: tuple[str, ...]
    out_groups: tuple[tuple[int, ...], ...] | None = None
    out_shape: tuple[int, ...] | None = None


def expanded_output(
    out_map: AffineMap, runs: Sequence[Sequence[int]], new_sizes: Sequence[int]
) -> tuple[AffineMap, tuple[tuple[int, ...], ...], tuple[int, ...]] | None:
    """Write an output read by bare loops in the refined shape: every new loop bare.

    Pure. `out_map` is over the old loops; each out axis becomes the run of its loop.
    None if the map is not bare dims, an axis would be dynamic and split, or nothing
    splits (then expanding would not help).
    """
    dims = bare_dims(out_map)
    if dims is None or None in dims or all(len(runs[d]) == 1 for d in dims):  # type: ignore[index]
        return None
    groups: list[tuple[int, ...]] = []
    shape: list[int] = []
    results: list[AffineExpr] = []
    for dim in dims:
        group = []
        for new in runs[dim]:  # type: ignore[index]
            if new_sizes[new] < 0:
                return None
            group.append(len(shape))
            shape.append(new_sizes[new])
            results.append(AffineExpr.dimension(new))
        groups.append(tuple(group))
    return AffineMap(len(new_sizes), 0, tuple(results)), tuple(groups), tuple(shape)


def plan_absorb(
    maps: Sequence[AffineMap],
    kinds: Sequence[str],
    shapes: Sequence[Sequence[int]],
    operand: int,
    axis_map: AxisMap,
) -> AbsorbPlan | None:
    """New maps and iterator kinds reading `operand`'s chain source, or None if illegal.

    Pure: legality is (1) the consumer reads each axis of the chain result as a
    mixed-radix number of loops (bare dims, or `d0 * 12 + d1` after an earlier fusion)
    whose cuts nest with the chain's, (2) no reduction loop is split, (3) no dynamic
    loop is split, (4) every refined loop is a bare result of some map, so MLIR can infer
    the loop bounds -- if not, the (single, static) output is written in the refined
    shape, where every loop is bare.
    """
    sizes = loop_sizes(maps, shapes)
    if sizes is None:
        return None
    read = read_splits(maps[operand], axis_map, sizes)
    if read is None or not split_keeps_reductions_whole(read.splits, kinds):
        return None
    refined = refine_loops(sizes, read.splits)
    if refined is None:
        return None
    new_sizes, exprs, runs = refined
    num = len(new_sizes)
    new_maps = [substitute(m, exprs, num) for m in maps]
    new_maps[operand] = source_map(read, axis_map, runs, num)
    new_kinds = tuple(kinds[old] for old, run in enumerate(runs) for _ in run)
    if loops_inferable(new_maps, num):
        return AbsorbPlan(tuple(new_maps), new_kinds)
    expanded = expanded_output(maps[-1], runs, new_sizes)
    if expanded is None:
        return None
    new_maps[-1], groups, shape = expanded
    if not loops_inferable(new_maps, num):
        return None
    return AbsorbPlan(tuple(new_maps), new_kinds, groups, shape)


class AbsorbLayoutChain(OpPattern[GenericOp]):
    """Read through reshape/transpose/broadcast chains with an affine map.

        %e = tensor.expand_shape %c [[0], [1, 2], [3], [4]] output_shape [1, 3, 85, 80, 80]
        %t = linalg.transpose ins(%e) outs(%i) permutation = [0, 1, 3, 4, 2]
        %s = linalg.generic {maps = [id, id]} ins(%t) outs(%o) { sigmoid }
      ==>
        %s = linalg.generic {maps = [(d0..d4) -> (d0, d1*85 + d4, d2, d3), id]}
               ins(%c) outs(%o) { sigmoid }

    When the source's axes are merged by the chain (collapse [6,4] -> [24]), the loop
    reading the merged axis is split into refined loops (6, 4) for every operand.
    Legality (`plan_absorb`): the chain has a common refinement (`axis_map.trace`); the
    consumer reads the chain's result through bare dims; no reduction loop and no dynamic
    loop is split; the refined loops stay inferable; the body uses no `linalg.index`
    when a loop is split. When no map would read a refined loop bare (MLIR needs one to
    infer its bound), the output is written as an `expand_shape` view of its init and
    `collapse_shape`d back -- views, not kernels. Broadcast operands stay small: the map
    just skips the broadcast loops. The chain ops are erased once nothing reads them.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.res) != len(op.outputs) or len(op.outputs) == 0:
            return  # memref form: leave alone
        shapes = _shapes(op)
        if shapes is None:
            return
        maps, kinds = affine_maps(op.indexing_maps), iterator_kinds(op.iterator_types)
        for index, value in enumerate(op.inputs):
            source, steps, chain = layout_chain(value)
            source_shape = shape_of(source)
            if not steps or source_shape is None:
                continue
            try:
                axis_map = trace(source_shape, steps)
            except ValueError:
                continue  # malformed chain: the verifier's business, not ours
            if axis_map is None:
                continue
            plan = plan_absorb(maps, kinds, shapes, index, axis_map)
            if plan is None or (plan.out_groups is not None and len(op.outputs) != 1):
                continue
            if len(plan.kinds) != len(kinds) and _uses_index(op):
                continue
            inputs = list(op.inputs)
            inputs[index] = source
            if plan.out_groups is None and _plain_generic(op):
                _absorb_in_place(op, inputs, plan, rewriter)
                _erase_dead(chain, rewriter)
                return
            body = rewriter.move_region_contents_to_new_regions(op.body)
            if plan.out_groups is None:
                rewriter.replace(op, _rebuild(op, inputs, plan.maps, plan.kinds, body))
            else:
                rewriter.replace(op, _rebuild_expanded(op, inputs, plan, body))
            _erase_dead(chain, rewriter)
            return


_GENERIC_PROPERTIES = frozenset(("indexing_maps", "iterator_types", "doc", "library_call", "operandSegmentSizes"))


def _plain_generic(op: GenericOp) -> bool:
    """`op` carries nothing a rebuilt generic (`_rebuild`) would drop."""
    return not op.attributes and _GENERIC_PROPERTIES.issuperset(op.properties)


def _absorb_in_place(op: GenericOp, inputs: Sequence[SSAValue], plan: AbsorbPlan, rewriter: PatternRewriter) -> None:
    """Give `op` the chain's source as input, and the plan's maps and loops, in place.

    Same IR as `rewriter.replace(op, _rebuild(...))` (same inputs count, outputs, body,
    result types), and the same worklist effects (`op`, then its users, are revisited),
    but `op`'s results stay: a rebuilt generic would replace every use of them, and when
    a result is one of a `func.return`'s N operands, xDSL rebuilds that whole operand
    list per replacement -- O(N) per head (see lowering/expand_reads.set_generic_inputs).
    """
    op.operands = [*inputs, *op.outputs]
    op.properties["indexing_maps"] = ArrayAttr([AffineMapAttr(m) for m in plan.maps])
    op.properties["iterator_types"] = ArrayAttr(iterator_attrs(plan.kinds))
    rewriter.notify_op_modified(op)
    for result in op.results:
        for use in result.uses:
            rewriter.notify_op_modified(use.operation)


def _rebuild_expanded(
    op: GenericOp, inputs: Sequence[SSAValue], plan: AbsorbPlan, body: Region
) -> list[Operation]:
    """The generic writing a refined-shape view of its init, and the collapse back."""
    assert plan.out_groups is not None and plan.out_shape is not None
    old_type = op.res[0].type
    assert isinstance(old_type, TensorType)
    new_type = TensorType(old_type.get_element_type(), plan.out_shape)
    reassociation = reassociation_attr(plan.out_groups)
    expand = tensor.ExpandShapeOp(op.outputs[0], [], reassociation, plan.out_shape, new_type)
    generic = GenericOp(
        inputs,
        [expand.result],
        body,
        [AffineMapAttr(m) for m in plan.maps],
        iterator_attrs(plan.kinds),
        [new_type],
        op.doc,
        op.library_call,
    )
    collapse = tensor.CollapseShapeOp.build(
        operands=[generic.res[0]], result_types=[old_type], properties={"reassociation": reassociation}
    )
    return [expand, generic, collapse]


def producer_fusion_maps(
    consumer_maps: Sequence[AffineMap],
    consumer_sizes: Sequence[int],
    operand: int,
    producer_maps: Sequence[AffineMap],
) -> list[AffineMap] | None:
    """Maps of the producer's inputs over the consumer's loops, or None if illegal.

    Pure: the producer's output map must be a permutation (so each of its loops is one
    index expression of the consumer), the consumer must read every producer element
    once (`no_recompute`: a broadcast read would recompute a small producer over a large
    shape), and every loop must stay a bare result of some map.
    """
    read = consumer_maps[operand]
    if not no_recompute(read, consumer_sizes):
        return None
    inverse = inverse_of_permutation(producer_maps[-1])
    if inverse is None:
        return None
    producer_loops = [read.results[inverse[p]] for p in range(len(inverse))]
    num = consumer_maps[0].num_dims
    fused = [substitute(m, producer_loops, num) for m in producer_maps[:-1]]
    others = [m for k, m in enumerate(consumer_maps) if k != operand]
    if not loops_inferable([*others, *fused], num):
        return None  # the read was the only bare use of a loop (MLIR needs one)
    return fused


class FuseElementwiseProducer(OpPattern[GenericOp]):
    """Inline an all-parallel generic into the generic that reads its result.

        %a = linalg.generic {maps = [id, id]} ins(%x) outs(%i) { add }
        %s = linalg.generic {maps = [(d0, d1, d2) -> (d0, d2, d1), id]} ins(%a) outs(%o) { relu }
      ==>
        %s = linalg.generic {maps = [(d0, d1, d2) -> (d0, d2, d1), id]} ins(%x) outs(%o) { add; relu }

    Legality: the producer has one result with one use, only parallel loops, a
    permutation output map, no `linalg.index`, and its body does not read its init; the
    consumer reads every producer element exactly once (`producer_fusion_maps`).
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.res) != len(op.outputs) or len(op.outputs) == 0:
            return
        shapes = _shapes(op)
        if shapes is None:
            return
        maps = affine_maps(op.indexing_maps)
        sizes = loop_sizes(maps, shapes)
        if sizes is None:
            return
        for index, value in enumerate(op.inputs):
            producer = value.op if isinstance(value, OpResult) else None
            if not isinstance(producer, GenericOp) or _single_user(value) is not op:
                continue
            if (
                len(producer.res) != 1
                or len(producer.outputs) != 1
                or "reduction" in iterator_kinds(producer.iterator_types)
                or _uses_index(producer)
                or producer.body.block.args[-1].uses
            ):
                continue
            new_input_maps = producer_fusion_maps(maps, sizes, index, affine_maps(producer.indexing_maps))
            if new_input_maps is None:
                continue
            rewriter.replace(op, _fuse(op, index, producer, new_input_maps))
            rewriter.erase(producer)
            return


def _fuse(
    consumer: GenericOp, index: int, producer: GenericOp, producer_input_maps: Sequence[AffineMap]
) -> GenericOp:
    """The consumer with input `index` replaced by the producer's inputs and body."""
    c_inputs, p_inputs = list(consumer.inputs), list(producer.inputs)
    inputs = c_inputs[:index] + p_inputs + c_inputs[index + 1 :]
    c_maps = affine_maps(consumer.indexing_maps)
    maps = c_maps[:index] + list(producer_input_maps) + c_maps[index + 1 :]
    c_block, p_block = consumer.body.block, producer.body.block
    c_args = list(c_block.args)
    arg_types = (
        [a.type for a in c_args[:index]]
        + [a.type for a in p_block.args[: len(p_inputs)]]
        + [a.type for a in c_args[index + 1 :]]
    )
    block = Block(arg_types=arg_types)
    new_args = list(block.args)
    mapper: dict[SSAValue, SSAValue] = {}
    for k, arg in enumerate(p_block.args[: len(p_inputs)]):
        mapper[arg] = new_args[index + k]
    yielded: SSAValue | None = None
    for child in p_block.ops:
        if isinstance(child, YieldOp):
            yielded = mapper.get(child.operands[0], child.operands[0])
            continue
        block.add_op(child.clone(mapper))
    assert yielded is not None
    for k, arg in enumerate(c_args):
        if k < index:
            mapper[arg] = new_args[k]
        elif k == index:
            mapper[arg] = yielded
        else:
            mapper[arg] = new_args[k - 1 + len(p_inputs)]
    for child in c_block.ops:
        block.add_op(child.clone(mapper))
    return _rebuild(consumer, inputs, maps, iterator_kinds(consumer.iterator_types), Region(block))


class TransposeToGeneric(OpPattern[TransposeOp]):
    """A transpose of a single-use pointwise or root result becomes a generic (then fuses).

        %a = linalg.generic ... -> tensor<2x3xf32>
        %t = linalg.transpose ins(%a) outs(%i : tensor<3x2xf32>) permutation = [1, 0]
      ==>
        %t = linalg.generic {maps = [(d0, d1) -> (d1, d0), id]} ins(%a) outs(%i) { yield }

    Legality: the transpose's input, through layout ops, is the only use of an
    all-parallel generic's result or of a reduction root's (conv, matmul: the copy becomes
    the root's epilogue); otherwise the transpose is a kernel either way. Not when a
    pointwise op reads the transpose: that one absorbs it without a copy.
    """

    op_types = (TransposeOp,)

    def rewrite(self, op: TransposeOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 1 or len(op.res) != 1:
            return
        if any(
            isinstance(use.operation, GenericOp) or _is_tensor_elementwise(use.operation)
            for use in op.res[0].uses
        ):
            return  # a pointwise user reads through the transpose itself (AbsorbLayoutChain)
        source, _, chain = layout_chain(op.inputs[0])
        holders = [*chain, op]
        producer = source.op if isinstance(source, OpResult) else None
        if producer is None or not (
            (isinstance(producer, GenericOp) and "reduction" not in iterator_kinds(producer.iterator_types))
            or is_kernel_root(producer)
        ):
            return
        value: SSAValue = source
        for holder in holders:
            if _single_user(value) is not holder:
                return
            value = holder.results[0]
        perm = [int(p) for p in op.permutation.get_values()]
        rank = len(perm)
        inverse = [0] * rank
        for result_axis, input_axis in enumerate(perm):
            inverse[input_axis] = result_axis
        in_map = AffineMap(rank, 0, tuple(AffineExpr.dimension(inverse[k]) for k in range(rank)))
        element = op.res[0].type.get_element_type()
        block = Block(arg_types=[element, element])
        block.add_op(YieldOp(block.args[0]))
        generic = GenericOp(
            [op.inputs[0]],
            [op.outputs[0]],
            Region(block),
            [AffineMapAttr(in_map), AffineMapAttr(AffineMap.identity(rank))],
            iterator_attrs(["parallel"] * rank),
            [op.res[0].type],
        )
        rewriter.replace(op, generic)


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


def _is_tensor_elementwise(op: Operation) -> bool:
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
        or _is_tensor_elementwise(owner)
    )


def _tree_producer(value: SSAValue, consumer: Operation) -> Operation | None:
    """The elementwise op making `value` if it can join `consumer`'s generic.

    It joins when `consumer` holds every use of `value` (a value read twice by the same
    op, `x * x`, is one input): then nothing outside the tree needs it as a tensor.
    These are the cases `FuseElementwiseProducer` would fuse after converting each op
    on its own, so the tree is the generic those steps would end with.
    """
    owner = value.op if isinstance(value, OpResult) else None
    if owner is None or not _is_tensor_elementwise(owner) or isinstance(owner.parent_op(), GenericOp):
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

    # Any op: the arith and math ops are known by dialect name (`_is_tensor_elementwise`).
    op_types = (Operation,)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _is_tensor_elementwise(op) or in_generic_body(op):
            return
        users = [use.operation for use in op.results[0].uses]
        if not any(_fusible_neighbour(v) for v in op.operands) and not any(
            isinstance(u, (GenericOp, *LAYOUT_OPS)) or _is_tensor_elementwise(u) for u in users
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
        if len(root.results) != 1 or _single_user(root.results[0]) is not op:
            return
        if isinstance(root.parent_op(), KernelOp) or root.parent is not op.parent:
            return
        shapes = _shapes(op)
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
            and _single_user(v) is root and v.op.parent is op.parent
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


# ------------------------------------------------------------------ entry points


def populate_linalg_fuse_pointwise_patterns(*, kernels: bool = True) -> list[PatternSet]:
    """The two phases of this pass, also run by `linalg-fuse-ops`: pointwise fusion
    (read through layout chains, inline producers), walked consumers first so that
    producers keep permutation output maps; then, after every other fusion, kernel
    formation (root + epilogue -> `tensor_ext.kernel`) unless `kernels=False`, and then
    kernels that feed a `tensor.concat` write their slices of it themselves."""
    pointwise = PatternSet.of(
        ElementwiseToGeneric(),
        AbsorbLayoutChain(),
        FuseElementwiseProducer(),
        TransposeToGeneric(),
        walk_reverse=True,
    )
    if not kernels:
        return [pointwise]
    return [pointwise, PatternSet.of(FormKernel()), PatternSet.of(WriteKernelsIntoConcat())]


@dataclass(frozen=True)
class LinalgFusePointwisePass(ModulePass):
    """Fuse pointwise ops across reshape/transpose/broadcast; conv/matmul + epilogue -> one kernel.

        %c = linalg.matmul ins(%a, %b : tensor<6x4xf32>, tensor<4x8xf32>) outs(%z : tensor<6x8xf32>) -> tensor<6x8xf32>
        %e = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 8] : tensor<6x8xf32> into tensor<2x3x8xf32>
        %t = linalg.transpose ins(%e : tensor<2x3x8xf32>) outs(%i : tensor<2x8x3xf32>) permutation = [0, 2, 1]
        %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = [3 x "parallel"]}
               ins(%t, %bias3 : tensor<2x8x3xf32>, tensor<2x8x3xf32>) outs(%i : tensor<2x8x3xf32>) { addf }
      ==>
        %s = tensor_ext.kernel ins(%a, %b, %z, %bias3 : ...) -> tensor<2x8x3xf32> {
          %c = linalg.matmul ...
          %s = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0 * 3 + d2, d1), #id, #id] ...}
          tensor_ext.yield %s
        }

    Options: `kernels=false` stops after the pointwise phase (standard linalg only).
    (tests/filecheck/transforms/linalg-fuse-pointwise/docstring.mlir runs this example.)
    """

    name = "linalg-fuse-pointwise"

    kernels: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, populate_linalg_fuse_pointwise_patterns(kernels=self.kernels))
