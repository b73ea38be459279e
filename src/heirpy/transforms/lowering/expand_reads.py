"""Mixed-radix reads of a generic's operands -> `tensor.expand_shape` views + plain dims,
and mixed-radix writes of its results -> plain dims + `tensor.collapse_shape`.

Part of `lower-tensor-ext`. heirpy's pointwise fusion folds a reshape into an indexing
map: after `expand_shape 255 -> 3x85` the fused generic reads the unexpanded tensor at
`d1 * 85 + d4`. That is exact, but real compilers want every map a projected
permutation: IREE 3.13 vectorises neither the read nor the loop nest around it (a
tanh -> expand -> transpose -> add chain ran 3.5x slower than the raw IR, the YOLO
head's epilogue 1.2x) and never fuses such a consumer into its producer's dispatch.
Putting the reshape back as a view costs nothing (an `expand_shape` moves no data) and
gives them the form they know.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseArrayBase, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.dialects.linalg import GenericOp, TransposeOp
from heirpy.ir.utils import (
    affine_maps,
    axis_loops,
    i64_array,
    loop_sizes,
    projection_dims,
    reassociation_attr,
    static_shape,
)
from heirpy.transforms.rewrite import OpPattern


@dataclass(frozen=True)
class ReadExpansion:
    """How to read an operand through plain loop dims instead of mixed-radix numbers.

    `groups[j]`: the dims of the expanded operand that operand dim j becomes (a
    reassociation); `shape`: the expanded operand's shape; `amap`: the new read.
    """

    groups: tuple[tuple[int, ...], ...]
    shape: tuple[int, ...]
    amap: AffineMap

    @property
    def reshapes(self) -> bool:
        return any(len(group) != 1 for group in self.groups)


def plan_read_expansion(
    amap: AffineMap, sizes: Sequence[int], shape: Sequence[int]
) -> ReadExpansion | None:
    """The expansion of an operand of `shape` read through `amap` over loops of `sizes`.

    Each result that is a mixed-radix number of loops (`axis_loops`), e.g. `d1 * 85 + d4`
    with d4 of size 85, becomes one operand dim per loop: (d1, d4) of sizes (3, 85). A
    constant 0 result stays. None when every result is already a bare dim or a constant,
    or when a result is not such a number, or the loops' sizes do not multiply to the
    operand's dim (the read would not cover it exactly), or a size is dynamic.
    """
    loops = axis_loops(amap, sizes)
    if loops is None or any(s < 0 for s in sizes) or any(s < 0 for s in shape):
        return None
    groups: list[tuple[int, ...]] = []
    new_shape: list[int] = []
    exprs: list[AffineExpr] = []
    changed = False
    for expr, dims, size in zip(amap.results, loops, shape):
        if not dims:  # a constant 0: that operand dim is read at index 0
            groups.append((len(new_shape),))
            new_shape.append(size)
            exprs.append(expr)
            continue
        if prod(sizes[d] for d in dims) != size:
            return None
        if len(dims) > 1 or not isinstance(expr, AffineDimExpr):
            changed = True
        groups.append(tuple(range(len(new_shape), len(new_shape) + len(dims))))
        new_shape += [sizes[d] for d in dims]
        exprs += [AffineExpr.dimension(d) for d in dims]
    if not changed:
        return None
    return ReadExpansion(
        tuple(groups), tuple(new_shape), AffineMap(amap.num_dims, amap.num_symbols, tuple(exprs))
    )


def expanded_operand(value: SSAValue, plan: ReadExpansion) -> tuple[list[Operation], SSAValue]:
    """`tensor.expand_shape` of `value` as `plan` says (no op when it only renames dims)."""
    if not plan.reshapes:
        return [], value
    assert isinstance(value.type, TensorType)
    new_type = TensorType(value.type.get_element_type(), plan.shape)
    expand = tensor.ExpandShapeOp(
        value, [], reassociation_attr(plan.groups), list(plan.shape), new_type
    )
    return [expand], expand.result


def loop_order_transpose(
    value: SSAValue, amap: AffineMap
) -> tuple[list[Operation], SSAValue, AffineMap]:
    """`value` read through a permuted projection `amap`, as a `linalg.transpose` into
    loop order read through the sorted projection (nothing when already in order)."""
    dims = projection_dims(amap)
    assert dims is not None, "callers pass projected permutations"
    permutation = sorted(range(len(dims)), key=lambda j: dims[j])
    if permutation == list(range(len(dims))):
        return [], value, amap
    assert isinstance(value.type, TensorType)
    shape = value.type.get_shape()
    element = value.type.get_element_type()
    empty = tensor.EmptyOp([], TensorType(element, [shape[p] for p in permutation]))
    transpose = TransposeOp(value, empty.tensor, i64_array(permutation))
    ordered = AffineMap(
        amap.num_dims, amap.num_symbols, tuple(AffineExpr.dimension(dims[p]) for p in permutation)
    )
    return [empty, transpose], transpose.results[0], ordered


def generic_loop_sizes(op: GenericOp) -> list[int] | None:
    shapes = [static_shape(v.type) for v in op.operands]
    if any(s is None for s in shapes):
        return None
    return loop_sizes(affine_maps(op.indexing_maps), shapes)  # type: ignore[arg-type]


def set_generic_inputs(
    op: GenericOp,
    new_ops: Sequence[Operation],
    inputs: Sequence[SSAValue],
    input_maps: Sequence[AffineMap],
    rewriter: PatternRewriter,
) -> None:
    """Insert `new_ops` (the views `inputs` read) before `op` and give `op` these
    inputs and input maps in place; its body, outputs and output maps stay. The new ops
    take the name of `op`'s result, as `rewriter.replace` would name them.

    In place rather than rebuilt: a new generic would replace every use of the old
    one's results, and when a result is one of a `func.return`'s N operands, xDSL
    rebuilds that whole operand list for each replacement -- O(N) per head, O(N^2) per
    module of N heads (benchmarks/bench_scaling.py, `lower-tensor-ext` at 10,000 results).
    """
    hint = op.res[0].name_hint if len(op.res) == 1 else None
    for new_op in new_ops:
        for result in new_op.results:
            result.name_hint = result.name_hint or hint
    rewriter.insert(new_ops, InsertPoint.before(op))
    maps = affine_maps(op.indexing_maps)
    outputs = list(op.outputs)
    op.operands = [*inputs, *outputs]
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(inputs), len(outputs)])
    op.properties["indexing_maps"] = ArrayAttr(
        [AffineMapAttr(m) for m in [*input_maps, *maps[len(maps) - len(outputs) :]]]
    )
    rewriter.notify_op_modified(op)


class ExpandMixedRadixReads(OpPattern[GenericOp]):
    """Read reshaped operands through `tensor.expand_shape` views, not mixed-radix maps.

        %r = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d2 * 80 + d1), id, id]}
               ins(%x, %y : tensor<64x6400xf32>, tensor<64x80x80xf32>) ...
      ==>
        %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [64, 80, 80]
               : tensor<64x6400xf32> into tensor<64x80x80xf32>
        %r = linalg.generic {indexing_maps = [(d0, d1, d2) -> (d0, d2, d1), id, id]}
               ins(%e, %y : tensor<64x80x80xf32>, tensor<64x80x80xf32>) ...

    Legal for an input when every result of its map is a bare loop, a constant 0 or a
    mixed-radix number of loops whose sizes multiply to the operand's dim
    (`plan_read_expansion`), on static shapes. Other inputs and the outputs keep their
    maps; a generic with no such input is left alone.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        sizes = generic_loop_sizes(op)
        if sizes is None:
            return
        maps = affine_maps(op.indexing_maps)
        new_ops: list[Operation] = []
        inputs: list[SSAValue] = []
        input_maps: list[AffineMap] = []
        for value, amap in zip(op.inputs, maps):
            shape = static_shape(value.type)
            plan = None if shape is None else plan_read_expansion(amap, sizes, shape)
            if plan is None:
                inputs.append(value)
                input_maps.append(amap)
                continue
            ops, expanded = expanded_operand(value, plan)
            new_ops += ops
            inputs.append(expanded)
            input_maps.append(plan.amap)
        if not new_ops and input_maps == maps[: len(op.inputs)]:
            return
        set_generic_inputs(op, new_ops, inputs, input_maps, rewriter)


class ExpandMixedRadixWrites(OpPattern[GenericOp]):
    """Write a reshaped result through `tensor.collapse_shape`, not a mixed-radix output map.

        %r = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0 * 3 + d1)]}
               ins(%x : tensor<2x3xf32>) outs(%e : tensor<6xf32>) {...} -> tensor<6xf32>
      ==>
        %e2 = tensor.empty() : tensor<2x3xf32>         (an expand_shape of a non-empty init)
        %g = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0, d1)]}
               ins(%x : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {...} -> tensor<2x3xf32>
        %r = tensor.collapse_shape %g [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>

    heirpy's pointwise fusion folds a `collapse_shape` of a generic's result into its
    output map; the reads' counterpart of `ExpandMixedRadixReads`. IREE 3.13 crashes on
    an output map that is not a projected permutation (benchmarks/iree_bugs/output_map.mlir,
    found by benchmarks/fuzz_iree.py), and the collapse moves no data. Legal per output
    when every result of its map is a bare loop or a mixed-radix number of distinct loops
    whose sizes multiply to the output's dim (`plan_read_expansion`), on static shapes;
    other outputs keep their maps, and a generic with no such output is left alone.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        sizes = generic_loop_sizes(op)
        if sizes is None:
            return
        maps = affine_maps(op.indexing_maps)
        first = len(op.inputs)
        plans: list[ReadExpansion | None] = []
        for value, amap in zip(op.outputs, maps[first:]):
            shape = static_shape(value.type)
            plan = None if shape is None else plan_read_expansion(amap, sizes, shape)
            plans.append(plan if plan is not None and projection_dims(plan.amap) is not None else None)
        if all(plan is None for plan in plans):
            return
        new_ops: list[Operation] = []
        outputs: list[SSAValue] = []
        for value, plan in zip(op.outputs, plans):
            if plan is None:
                outputs.append(value)
                continue
            ops, expanded = _expanded_init(value, plan)
            new_ops += ops
            outputs.append(expanded)
        out_maps = [m if plan is None else plan.amap for m, plan in zip(maps[first:], plans)]
        generic = GenericOp(
            list(op.inputs), outputs, rewriter.move_region_contents_to_new_regions(op.body),
            [AffineMapAttr(m) for m in [*maps[:first], *out_maps]], op.iterator_types,
            [v.type for v in outputs], op.doc, op.library_call,
        )
        new_ops.append(generic)
        results: list[SSAValue] = []
        for result, new, plan in zip(op.res, generic.res, plans):
            if plan is None or not plan.reshapes:
                results.append(new)
                continue
            collapse = tensor.CollapseShapeOp(
                operands=[new], result_types=[result.type],
                properties={"reassociation": reassociation_attr(plan.groups)},
            )
            new_ops.append(collapse)
            results.append(collapse.result)
        rewriter.replace(op, new_ops, results)


def _expanded_init(value: SSAValue, plan: ReadExpansion) -> tuple[list[Operation], SSAValue]:
    """The init of an expanded output: a new `tensor.empty` for an empty one (the values
    are never read), else `tensor.expand_shape` of the init."""
    if plan.reshapes and isinstance(value.owner, tensor.EmptyOp) and isinstance(value.type, TensorType):
        empty = tensor.EmptyOp([], TensorType(value.type.get_element_type(), plan.shape))
        return [empty], empty.tensor
    return expanded_operand(value, plan)
