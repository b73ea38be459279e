"""Pointwise fusion across reshape / transpose / broadcast, and kernels with a reduction root.

Five patterns, run in two phases by `linalg-fuse-pointwise` (pointwise first, then
kernels, so that other fusions in `linalg-fuse-ops` see plain linalg first):

* `ElementwiseToGeneric` (`elementwise_to_generic.py`): arith/math on whole tensors (HEIR's canonical form) becomes
  a generic, with splat constants as scalars.
* `AbsorbLayoutChain`: a generic reading a chain of expand/collapse/reshape/transpose/
  broadcast reads the chain's source directly, through the axis map's affine map.
* `FuseElementwiseProducer`: an all-parallel generic feeding a generic is inlined in it.
* `TransposeToGeneric`: a transpose of a fusible generic's result becomes a generic,
  so that the two can fuse.
* `FormKernel` (`form_kernel.py`): a reduction root (conv, matmul, fused_conv_pool) whose only user is an
  all-parallel generic becomes one `tensor_ext.kernel`.

and, in a third phase, `WriteKernelsIntoConcat` (`concat_destination.py`): kernels whose
results are only concatenated each store their slice of the concatenation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
)

from heirpy.ir.dialects.linalg import GenericOp, IndexOp, TransposeOp, YieldOp
from heirpy.ir.dialects.tensor_ext import (
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
from heirpy.transforms.pointwise.concat_destination import WriteKernelsIntoConcat
from heirpy.transforms.pointwise.elementwise_to_generic import ElementwiseToGeneric, is_tensor_elementwise
from heirpy.transforms.pointwise.form_kernel import FormKernel
from heirpy.transforms.pointwise.pointwise_maps import (
    bare_dims,
    inverse_of_permutation,
    layout_chain,
    loops_inferable,
    no_recompute,
    operand_shapes,
    read_splits,
    recompute_only_along_reductions,
    refine_loops,
    single_user,
    source_map,
    split_keeps_reductions_whole,
    substitute,
)
from heirpy.transforms.rewrite import OpPattern, PatternSet, apply_pattern_sets

# ------------------------------------------------------------------ generic helpers


def _uses_index(op: Operation) -> bool:
    return any(isinstance(child, IndexOp) for child in op.walk())


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


def keeps_reduction_space(op: GenericOp, maps: Sequence[AffineMap], kinds: Sequence[str]) -> bool:
    """`op` may have its loops refined under IREE's rule: it has no reduction loop and
    reads no computed tensor through a broadcast (a reduced tensor: a mean, a variance).
    Constants read through a broadcast (a bias) do not count."""
    if "reduction" in kinds:
        return False
    for value, amap in zip(op.inputs, maps, strict=False):
        broadcast = len(amap.used_dims()) < amap.num_dims
        if broadcast and not (isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp)):
            return False
    return True


def chain_dies(chain: Sequence[Operation], reader: Operation) -> bool:
    """Absorbing `chain` into `reader` leaves the chain without users: each link's
    result is read only by the next link, the last one's only by `reader`."""
    for k, link in enumerate(chain):
        reader_of_link = chain[k + 1] if k + 1 < len(chain) else reader
        if any(use.operation is not reader_of_link for result in link.results for use in result.uses):
            return False
    return True


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

    With `iree_reductions` (IREE's rule, `iree-prepare`), no loop is refined in a
    generic that has reduction loops or reads a computed (non-constant) tensor through a
    broadcast, i.e. in a reduction or in one of its pointwise consumers
    (`keeps_reduction_space`): IREE fuses a reduction and its consumers into one
    dispatch only over one loop space, so a LayerNorm whose ops read a reshape chain
    (MobileViT's unfolded patches) split into more dispatches once some of its ops ran
    over refined loops and others did not. And a chain is absorbed only when it will die:
    every other reader of it may absorb it too (`_chain_will_die`). A chain a reader
    keeps stays a copy anyway, and a consumer reading its source directly then needs the
    source in its own layout too, so IREE can no longer fold the layout op into the
    producer (MobileViT's residual add read the 1x1 conv's output through the unfold
    chain the LayerNorm's reduction keeps: one more transpose dispatch).
    """

    op_types = (GenericOp,)

    def __init__(self, iree_reductions: bool = False) -> None:
        self.iree_reductions = iree_reductions

    def plan(self, op: Operation, index: int) -> AbsorbPlan | None:
        """How `op` would read its input `index`'s layout chain's source, or None if it may not."""
        if not isinstance(op, GenericOp) or len(op.res) != len(op.outputs) or len(op.outputs) == 0:
            return None  # memref form: leave alone
        shapes = operand_shapes(op)
        if shapes is None or index >= len(op.inputs):
            return None  # no static shapes, or the value is an init (outs), not an input
        value = op.inputs[index]
        maps, kinds = affine_maps(op.indexing_maps), iterator_kinds(op.iterator_types)
        source, steps, _ = layout_chain(value)
        source_shape = shape_of(source)
        if not steps or source_shape is None:
            return None
        try:
            axis_map = trace(source_shape, steps)
        except ValueError:
            return None  # malformed chain: the verifier's business, not ours
        if axis_map is None:
            return None
        plan = plan_absorb(maps, kinds, shapes, index, axis_map)
        if plan is None or (plan.out_groups is not None and len(op.outputs) != 1):
            return None
        keep_loops = self.iree_reductions and not keeps_reduction_space(op, maps, kinds)
        if len(plan.kinds) != len(kinds) and (_uses_index(op) or keep_loops):
            return None
        return plan

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        for index, value in enumerate(op.inputs):
            plan = self.plan(op, index)
            if plan is None:
                continue
            source, _, chain = layout_chain(value)
            if self.iree_reductions and not self._chain_will_die(chain, op):
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

    def _chain_will_die(self, chain: Sequence[Operation], reader: Operation) -> bool:
        """Every other reader of the chain's end may absorb it too, and no other op reads
        a link in between (`chain_dies` once they have)."""
        if not chain:
            return True
        end = chain[-1].results[0]
        others = [(use.operation, use.index) for use in end.uses if use.operation is not reader]
        if any(self.plan(other, index) is None for other, index in others):
            return False
        return chain_dies(chain[:-1], chain[-1]) if len(chain) > 1 else True


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
    consumer_kinds: Sequence[str] | None = None,
) -> list[AffineMap] | None:
    """Maps of the producer's inputs over the consumer's loops, or None if illegal.

    Pure: the producer's output map must be a permutation (so each of its loops is one
    index expression of the consumer), the consumer must read every producer element
    once (`no_recompute`: a broadcast read would recompute a small producer over a large
    shape), and every loop must stay a bare result of some map. Given the consumer's
    loop kinds (`consumer_kinds`), a read that recomputes the producer only along the
    consumer's reduction loops is legal too (`recompute_only_along_reductions`).
    """
    read = consumer_maps[operand]
    if not no_recompute(read, consumer_sizes) and not (
        consumer_kinds is not None
        and "reduction" in consumer_kinds
        and recompute_only_along_reductions(read, consumer_sizes, consumer_kinds)
    ):
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

    With `iree_reductions` (IREE's rule, `iree-prepare`), a producer may also be
    recomputed along a consumer's reduction loops, as long as the consumer reads it
    through every non-unit parallel loop and no reduction loop:

        %s = linalg.generic {reduction over d1} ins(%x) ...           -> tensor<8x1xf32>
        %m = linalg.generic {maps = [id, id]} ins(%s) { divf %s, 40 }   -> tensor<8x1xf32>
        %v = linalg.generic {maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0, 0), (d0, d1) -> (d0, 0)],
               iterator_types = ["parallel", "reduction"]} ins(%x, %m) { (x - m)^2 + acc }
      ==>
        %v = linalg.generic {maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0, 0), ...]} ins(%x, %s)
               { m = divf %s, 40; (x - m)^2 + acc }

    Why: IREE fuses an elementwise producer into an elementwise consumer's dispatch,
    and a reduction's full-space consumer into the reduction's, but an elementwise op
    on a reduced tensor that a reduction reads through a broadcast joins neither: it
    is a dispatch of its own (a LayerNorm's mean, `sum / C`, read by the variance's
    reduction: 3 dispatches where the raw IR formed 2). The recompute is invariant in
    the reduction loops.
    """

    op_types = (GenericOp,)

    def __init__(self, iree_reductions: bool = False) -> None:
        self.iree_reductions = iree_reductions

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.res) != len(op.outputs) or len(op.outputs) == 0:
            return
        shapes = operand_shapes(op)
        if shapes is None:
            return
        maps = affine_maps(op.indexing_maps)
        sizes = loop_sizes(maps, shapes)
        if sizes is None:
            return
        kinds = iterator_kinds(op.iterator_types)
        for index, value in enumerate(op.inputs):
            producer = value.op if isinstance(value, OpResult) else None
            if not isinstance(producer, GenericOp) or single_user(value) is not op:
                continue
            if not _recomputable(producer):
                continue
            new_input_maps = producer_fusion_maps(
                maps, sizes, index, affine_maps(producer.indexing_maps), kinds if self.iree_reductions else None
            )
            if new_input_maps is None:
                continue
            rewriter.replace(op, _fuse(op, index, producer, new_input_maps))
            rewriter.erase(producer)
            return


def _on_reduced_tensor(value: SSAValue, depth: int = 4) -> bool:
    """`value` is a reduction generic's result, or an all-parallel generic's whose input
    is, within `depth` such generics (a LayerNorm's mean, `sum / C`; its centring `x - mean`)."""
    producer = value.op if isinstance(value, OpResult) else None
    if not isinstance(producer, GenericOp) or depth == 0:
        return False
    if "reduction" in iterator_kinds(producer.iterator_types):
        return True
    return any(_on_reduced_tensor(v, depth - 1) for v in producer.inputs)


class RecomputeSharedIntoReduction(OpPattern[GenericOp]):
    """IREE only (`iree_reductions`): a shared pointwise op on a reduced tensor is recomputed
    inside each reduction that reads it; its other readers keep it.

        %m = linalg.generic {maps = [id, id]} ins(%s : tensor<8x1xf32>) { divf %s, 40 }
        %c = linalg.generic {maps = [id, (d0, d1) -> (d0, 0), id]} ins(%x, %m) { subf }  -> tensor<8x40xf32>
        %v = linalg.generic {reduction over d1} ins(%c) { c * c + acc }
        %y = linalg.generic {maps = [id, ...]} ins(%c, %v) { c * rsqrt(v / 40) }
      ==>
        %v = linalg.generic {reduction over d1} ins(%x, %s) { m = divf %s, 40; c = x - m; c * c + acc }
        %y = linalg.generic ins(%c, %v) ...        (then %c fuses into %y: its one reader)

    Legality as `FuseElementwiseProducer`'s (IREE's rule) but the producer has several
    readers, and it reads, through all-parallel generics, a reduction's result
    (`_on_reduced_tensor`): a LayerNorm whose centred input `x - mean` the variance and
    the normalisation share (ConvNeXt's head: torch-mlir's `var_mean` computes the centring
    twice, in f64 and f32, and `demote-f64` made the two one op).
    Why: IREE fuses a reduction with its elementwise consumers, but it places a shared
    `x - mean` beside the variance and the normalisation, and the mean, read by both, in
    neither dispatch: ConvNeXt-atto f16's head LayerNorm ran 5 dispatches where the raw
    IR ran 3 once its input was stored in f16 (`sink-widening-casts`). Recomputed in the
    variance, each LayerNorm is the two-reduction form IREE forms 2 dispatches from.
    Not a producer with a `math` op in its body: a softmax's shared `exp(x - max)`,
    recomputed in the sum, is computed twice (YOLOv5nu f16's DFL softmax over 16 bins:
    88 + 277 us of reductions against the raw IR's 80 + 89, IREE's best CPU flags).
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        kinds = iterator_kinds(op.iterator_types)
        shapes = operand_shapes(op)
        if "reduction" not in kinds or len(op.res) != len(op.outputs) or shapes is None:
            return
        maps = affine_maps(op.indexing_maps)
        sizes = loop_sizes(maps, shapes)
        if sizes is None:
            return
        for index, value in enumerate(op.inputs):
            producer = value.op if isinstance(value, OpResult) else None
            if not isinstance(producer, GenericOp) or value.has_one_use() or not _recomputable(producer):
                continue
            if _transcendental(producer) or not any(_on_reduced_tensor(v) for v in producer.inputs):
                continue
            new_input_maps = producer_fusion_maps(maps, sizes, index, affine_maps(producer.indexing_maps), kinds)
            if new_input_maps is not None:
                rewriter.replace(op, _fuse(op, index, producer, new_input_maps))
                return


def _transcendental(producer: GenericOp) -> bool:
    """Whether `producer`'s body computes a `math` op (exp, tanh, rsqrt ...): work worth
    more than the dispatch that recomputing it would save."""
    return any(o.name.startswith("math.") for o in producer.body.block.ops)


def _recomputable(producer: GenericOp) -> bool:
    """One result, all-parallel loops, no `linalg.index`, a body that does not read its init."""
    return (
        len(producer.res) == 1
        and len(producer.outputs) == 1
        and "reduction" not in iterator_kinds(producer.iterator_types)
        and not _uses_index(producer)
        and not producer.body.block.args[-1].uses
    )


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
            isinstance(use.operation, GenericOp) or is_tensor_elementwise(use.operation)
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
            if single_user(value) is not holder:
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


# ------------------------------------------------------------------ entry points


def populate_linalg_fuse_pointwise_patterns(
    *, kernels: bool = True, iree_reductions: bool = False
) -> list[PatternSet]:
    """The two phases of this pass, also run by `linalg-fuse-ops`: pointwise fusion
    (read through layout chains, inline producers), walked consumers first so that
    producers keep permutation output maps; then, after every other fusion, kernel
    formation (root + epilogue -> `tensor_ext.kernel`) unless `kernels=False`, and then
    kernels that feed a `tensor.concat` write their slices of it themselves.
    `iree_reductions`: producers may be recomputed along a consumer's reduction loops
    (`FuseElementwiseProducer`, IREE's rule), and a shared pointwise op on a reduced
    tensor inside each reduction reading it (`RecomputeSharedIntoReduction`)."""
    pointwise = PatternSet.of(
        ElementwiseToGeneric(),
        AbsorbLayoutChain(iree_reductions),
        FuseElementwiseProducer(iree_reductions),
        *([RecomputeSharedIntoReduction()] if iree_reductions else []),
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

    Options: `kernels=false` stops after the pointwise phase (standard linalg only);
    `iree-reductions=true` lets a pointwise producer be recomputed along a consumer's
    reduction loops (IREE's rule, see `FuseElementwiseProducer`; `iree-prepare` sets it).
    (tests/filecheck/transforms/linalg-fuse-pointwise/docstring.mlir runs this example.)
    """

    name = "linalg-fuse-pointwise"

    kernels: bool = True
    iree_reductions: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(
            op, populate_linalg_fuse_pointwise_patterns(kernels=self.kernels, iree_reductions=self.iree_reductions)
        )
