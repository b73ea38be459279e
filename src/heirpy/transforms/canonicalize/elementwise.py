"""Elementwise and broadcast rewrites for `linalg-canonicalizations` (package-private).

HEIR turns elementwise `linalg.generic` / `linalg.map` ops into the scalar ops of their
body applied to whole tensors (`arith.addf %a, %b : tensor<...>`), after unfolding the
broadcasts and transposes hidden in the generic's indexing maps into explicit
`linalg.broadcast` / `linalg.transpose` ops. Current MLIR has no named elementwise linalg
ops (`linalg.add` ...), and arith/math ops on tensors are valid MLIR, so heirpy does the
same, comparisons, selects and casts included (heirpy's arith dialect types them on
tensors as MLIR does).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, cf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import ConstantLike
from xdsl.utils.exceptions import VerifyException

from heirpy.ir.constants import NO_BLOBS, attribute_array
from heirpy.ir.dialects import linalg
from heirpy.ir.dialects.arith import ARITH_OPS
from heirpy.ir.utils import (
    affine_maps,
    all_parallel,
    i64_array,
    is_identity,
    is_projected_permutation,
    loop_sizes,
    map_dims,
    reassociation_attr,
    static_shape,
)
from heirpy.transforms.canonicalize.fold_constants import dense_constant
from heirpy.transforms.linear.constant_folding import is_compile_time_constant
from heirpy.transforms.rewrite import OpPattern

# Scalar ops that apply elementwise to tensors (MLIR's ElementwiseMappable) and that
# heirpy types there.
ELEMENTWISE_OPS: frozenset[str] = frozenset(
    f"arith.{name}"
    for name in (
        "addf subf mulf divf remf maximumf minimumf maxnumf minnumf negf "
        "addi subi muli divsi divui remsi remui ceildivsi floordivsi andi ori xori "
        "shli shrsi shrui maxsi minsi maxui minui "
        "addui_extended mului_extended mulsi_extended cmpf cmpi select "
        "sitofp uitofp fptosi fptoui extf truncf extsi extui trunci index_cast index_castui"
    ).split()
) | frozenset(
    f"math.{name}"
    for name in (
        "absf absi exp exp2 expm1 log log2 log10 log1p tanh sqrt rsqrt sin cos tan atan "
        "atan2 erf ceil floor round roundeven trunc powf copysign fma"
    ).split()
)


# ------------------------------------------------------------------ map helpers
def transpose_broadcast(m: AffineMap) -> tuple[list[int] | None, list[int]]:
    """Split a projected permutation into (transpose permutation or None, added dims).

    Transposing first puts the operand's dims in loop order; linalg.transpose's
    `result dim i = input dim permutation[i]`.
    """
    dims = map_dims(m)
    assert dims is not None
    ordered = sorted(dims)
    permutation = None if dims == ordered else [dims.index(d) for d in ordered]
    added = [d for d in range(m.num_dims) if d not in dims]
    return permutation, added


def unit_reassociation(rank: int, unit_dims: Sequence[int]) -> list[list[int]]:
    """Reassociation that merges each dim of `unit_dims` into a neighbouring kept dim
    (the next one for leading units, else the previous one): MLIR's convention."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for d in range(rank):
        if d in unit_dims:
            if groups:
                groups[-1].append(d)
            else:
                pending.append(d)
        else:
            groups.append([*pending, d])
            pending = []
    if pending and groups:
        groups[-1].extend(pending)
    return groups


# ------------------------------------------------------------------ broadcasts
class BroadcastToExpandShape(OpPattern[linalg.xops.BroadcastOp]):
    """A broadcast that only adds unit dims is a reshape.

        %r = linalg.broadcast ins(%x : tensor<2x3xf32>) outs(%e : tensor<1x2x3x1xf32>) dimensions = [0, 3]
    ==>
        %r = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [1, 2, 3, 1]
               : tensor<2x3xf32> into tensor<1x2x3x1xf32>

    Legality: tensor semantics, static shapes, every added dim has size 1, input rank > 0.
    """

    op_types = (linalg.xops.BroadcastOp,)

    def rewrite(self, op: linalg.xops.BroadcastOp, rewriter: PatternRewriter) -> None:
        if len(op.result) != 1:
            return
        in_shape, out_shape = static_shape(op.input.type), static_shape(op.result[0].type)
        if in_shape is None or out_shape is None or not in_shape:
            return
        added = list(op.dimensions.get_values())
        if any(out_shape[d] != 1 for d in added):
            return
        out_type = op.result[0].type
        assert isinstance(out_type, TensorType)
        groups = unit_reassociation(len(out_shape), added)
        rewriter.replace(
            op,
            tensor.ExpandShapeOp(op.input, [], reassociation_attr(groups), out_shape, out_type),
        )


class FoldCollapseOfExpand(OpPattern[tensor.CollapseShapeOp]):
    """`collapse_shape(expand_shape(x))` with the same reassociation is `x` (MLIR's
    canonicalizer does this inside HEIR's pass; BroadcastToExpandShape creates it).

    Legality: same reassociation on both, and the collapse yields x's type.
    """

    op_types = (tensor.CollapseShapeOp,)

    def rewrite(self, op: tensor.CollapseShapeOp, rewriter: PatternRewriter) -> None:
        expand = op.src.owner
        if not isinstance(expand, tensor.ExpandShapeOp):
            return
        if expand.reassociation != op.reassociation or expand.src.type != op.result.type:
            return
        rewriter.replace(op, [], [expand.src])


class MaterializeBroadcasts(OpPattern[linalg.GenericOp]):
    """Unfold broadcasting input maps of a multi-input parallel generic into explicit
    broadcasts, so the generic becomes elementwise (HEIR's batch-norm normalisation):

        %r = linalg.generic {indexing_maps = [(d0,d1,d2)->(d0,d1,d2), (d0,d1,d2)->(d1,0), id]}
               ins(%x, %mean : tensor<1x3x16xf32>, tensor<3x1xf32>) ... { subf }
    ==>
        %m = tensor.collapse_shape %mean [[0, 1]] : tensor<3x1xf32> into tensor<3xf32>
        %b = linalg.broadcast ins(%m : tensor<3xf32>) outs(%e : tensor<1x3x16xf32>) dimensions = [0, 2]
        %r = linalg.generic {indexing_maps = [id, id, id]} ins(%x, %b ...) { subf }

    Legality: at least two inputs (one-input broadcasts are already minimal), all loops
    parallel, identity output maps, static shapes; a rewritten input's map has fewer
    results than loops, its dim results are in loop order (transposes are left to
    `DecomposeProjectedPermutation`) and its constant results are 0 on size-1 dims.
    An input computed from constants only (a batch-norm mean, a bias) keeps its
    broadcasting map: unfolded, it would become a constant H*W times its content once
    folded (HEIR writes it out in full); the generic then stays a generic.
    """

    op_types = (linalg.GenericOp,)

    def rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) < 2 or not all_parallel(op.iterator_types) or not op.res:
            return
        maps = affine_maps(op.indexing_maps)
        n_in = len(op.inputs)
        if not all(is_identity(m) for m in maps[n_in:]):
            return
        out_shape = static_shape(op.outputs[0].type)
        if out_shape is None or any(static_shape(v.type) is None for v in op.operands):
            return
        new_ops: list[Operation] = []
        new_inputs: list[SSAValue] = []
        new_maps: list[AffineMap] = []
        changed = False
        for value, m in zip(op.inputs, maps[:n_in]):
            shape = static_shape(value.type)
            assert shape is not None
            if is_identity(m) or len(m.results) >= m.num_dims or is_compile_time_constant(value):
                new_inputs.append(value)
                new_maps.append(m)
                continue
            read = broadcast_read(m, shape)
            if read is None:
                return
            ops, broadcast = _materialize(value, m.num_dims, read, out_shape)
            new_ops += ops
            new_inputs.append(broadcast)
            new_maps.append(AffineMap.identity(m.num_dims))
            changed = True
        if not changed:
            return
        new_ops.append(_regeneric(op, new_inputs, new_maps + maps[n_in:]))
        rewriter.replace(op, new_ops)


def broadcast_read(m: AffineMap, shape: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """For an input map that reads fewer dims than loops: (the loop dims it reads, in
    loop order; the operand axes that are a constant 0 on a size-1 axis). None if the
    map reads anything else, reads dims out of loop order, or reads only unit axes (a
    rank-0 collapse, left alone). Pure."""
    dims: list[int] = []
    units: list[int] = []
    for i, expr in enumerate(m.results):
        if isinstance(expr, AffineDimExpr):
            dims.append(expr.position)
        elif isinstance(expr, AffineConstantExpr) and expr.value == 0 and shape[i] == 1:
            units.append(i)
        else:
            return None
    if dims != sorted(set(dims)) or (units and not dims):
        return None
    return dims, units


def _materialize(
    value: SSAValue, num_loops: int, read: tuple[list[int], list[int]], out_shape: Sequence[int]
) -> tuple[list[Operation], SSAValue]:
    """Ops that collapse `value`'s unit axes and broadcast it to `out_shape`, and the
    broadcast value."""
    dims, units = read
    assert isinstance(value.type, TensorType)
    element, shape = value.type.get_element_type(), value.type.get_shape()
    ops: list[Operation] = []
    source = value
    if units:
        kept_shape = [s for i, s in enumerate(shape) if i not in units]
        collapse = tensor.CollapseShapeOp(
            operands=[value],
            result_types=[TensorType(element, kept_shape)],
            properties={"reassociation": reassociation_attr(unit_reassociation(len(shape), units))},
        )
        ops.append(collapse)
        source = collapse.results[0]
    added = [d for d in range(num_loops) if d not in dims]
    empty = tensor.EmptyOp([], TensorType(element, out_shape))
    broadcast = linalg.BroadcastOp(source, empty.tensor, i64_array(added))
    return [*ops, empty, broadcast], broadcast.result[0]


class DecomposeProjectedPermutation(OpPattern[linalg.GenericOp]):
    """Unfold transposes (and broadcasts) hidden in input maps into explicit ops, as
    MLIR's `populateDecomposeProjectedPermutationPatterns` does inside HEIR's pass:

        %r = linalg.generic {indexing_maps = [id, (d0,d1,d2)->(d1,d0,d2), id]}
               ins(%a, %b : tensor<2x3x4xf32>, tensor<3x2x4xf32>) ... { addf }
    ==>
        %t = linalg.transpose ins(%b) outs(%e : tensor<2x3x4xf32>) permutation = [1, 0, 2]
        %r = linalg.generic {indexing_maps = [id, id, id]} ins(%a, %t) ... { addf }

    Legality (MLIR's): not a single-input single-output op, body is not a lone yield,
    all loops parallel, every map a projected permutation (no constants), static shapes.
    As in `MaterializeBroadcasts`, an input computed from constants only keeps a map
    that broadcasts (a transpose alone is unfolded: it folds to a same-size constant).
    """

    op_types = (linalg.GenericOp,)

    def rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if (len(op.inputs) == 1 and len(op.outputs) == 1) or not all_parallel(op.iterator_types) or not op.res:
            return
        body_ops = list(op.body.block.ops)
        if len(body_ops) == 1:
            return
        maps = affine_maps(op.indexing_maps)
        if not all(is_projected_permutation(m) for m in maps):
            return
        shapes = [static_shape(v.type) for v in op.operands]
        if any(s is None for s in shapes):
            return
        ranges = loop_sizes(maps, shapes)  # type: ignore[arg-type]
        if ranges is None or any(r < 0 for r in ranges):
            return
        new_ops: list[Operation] = []
        new_inputs: list[SSAValue] = []
        new_maps: list[AffineMap] = []
        changed = False
        for value, m, shape in zip(op.inputs, maps, shapes):
            if is_identity(m):
                new_inputs.append(value)
                new_maps.append(m)
                continue
            assert shape is not None and isinstance(value.type, TensorType)
            element = value.type.get_element_type()
            permutation, added = transpose_broadcast(m)
            if added and is_compile_time_constant(value):
                new_inputs.append(value)
                new_maps.append(m)
                continue
            current = value
            if permutation is not None:
                t_shape = [shape[p] for p in permutation]
                empty = tensor.EmptyOp([], TensorType(element, t_shape))
                transpose = linalg.TransposeOp(current, empty.tensor, i64_array(permutation))
                new_ops += [empty, transpose]
                current = transpose.res[0]
            if added:
                empty = tensor.EmptyOp([], TensorType(element, ranges))
                broadcast = linalg.BroadcastOp(current, empty.tensor, i64_array(added))
                new_ops += [empty, broadcast]
                current = broadcast.result[0]
            new_inputs.append(current)
            new_maps.append(AffineMap.identity(m.num_dims))
            changed = True
        if not changed:
            return
        new_ops.append(_regeneric(op, new_inputs, new_maps + maps[len(op.inputs):]))
        rewriter.replace(op, new_ops)


def _regeneric(op: linalg.GenericOp, inputs: Sequence[SSAValue], maps: Sequence[AffineMap]) -> linalg.GenericOp:
    """`op` with new inputs and maps, same body, outputs, iterators and attributes."""
    new = linalg.GenericOp(
        inputs,
        list(op.outputs),
        op.body.clone(),
        [AffineMapAttr(m) for m in maps],
        op.iterator_types,
        [r.type for r in op.res],
        doc=op.doc,
        library_call=op.library_call,
    )
    new.attributes.update(op.attributes)
    return new


# ------------------------------------------------------------------ elementwise ops
class _Abort(Exception):
    """The body cannot be turned into tensor ops: leave the op alone."""


class _TensorEmitter:
    """Re-emits the scalar ops of an elementwise body on whole tensors of one shape."""

    def __init__(
        self,
        block: Block,
        arg_values: Sequence[SSAValue | None],
        shape: tuple[int, ...],
        extra_attributes: dict[str, Attribute],
    ):
        self.block, self.shape, self.extra_attributes = block, shape, extra_attributes
        self.env: dict[SSAValue, SSAValue] = {
            arg: value for arg, value in zip(block.args, arg_values) if value is not None
        }
        self.new_ops: list[Operation] = []

    def value(self, value: SSAValue) -> SSAValue:
        """The tensor standing for a body value: re-emitted, or a splat of an outer one."""
        return self.env[value] if value in self.env else self._splat(value)

    def _splat(self, value: SSAValue) -> SSAValue:
        if isinstance(value, BlockArgument) and value.block is self.block:
            raise _Abort  # an output's element: the result would depend on the init
        if any(d < 0 for d in self.shape):
            raise _Abort  # a splat of a dynamic shape needs its sizes
        t = TensorType(value.type, self.shape)
        owner = value.owner
        array = None
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr | IntegerAttr):
            array = attribute_array(owner.value, value.type, NO_BLOBS)
        new: Operation
        if array is not None:
            new = dense_constant(array, t)
        elif isinstance(owner, Operation) and owner.parent_block() is self.block:
            raise _Abort  # defined in the body by an op that is not re-emitted
        else:
            new = tensor.SplatOp(value, [], t)
        self.new_ops.append(new)
        self.env[value] = new.results[0]
        return new.results[0]

    def emit(self, inner: Operation) -> None:
        """Re-emit one body op on tensors; `_Abort` if it is not elementwise or the new
        op does not verify."""
        if inner.name not in ELEMENTWISE_OPS or inner.regions or inner.successors:
            raise _Abort
        operands = [self.value(o) for o in inner.operands]
        # heirpy's class for the name: a body op a pass built with xDSL's scalar-only
        # class (arith.select, arith.cmpf, ...) is re-emitted with the one that takes tensors.
        new = ARITH_OPS.get(inner.name, type(inner)).create(
            operands=operands,
            result_types=[TensorType(r.type, self.shape) for r in inner.results],
            properties=dict(inner.properties),
            attributes={**inner.attributes, **self.extra_attributes},
        )
        self.new_ops.append(new)  # before verifying, so that a failure discards it too
        try:
            new.verify()
        except VerifyException as err:
            raise _Abort from err
        self.env.update(zip(inner.results, new.results))


def tensor_ops_from_body(
    block: Block,
    arg_values: Sequence[SSAValue | None],
    shape: tuple[int, ...],
    extra_attributes: dict[str, Attribute],
) -> tuple[list[Operation], list[SSAValue]]:
    """Re-emit an elementwise body on whole tensors of `shape`.

    `arg_values[i]` is the tensor block argument i stands for, or None for an output
    argument (reading it aborts: the result would depend on the init). Values defined
    outside the body become splats (dense constants when they are constants). Raises
    `_Abort` when some op is not elementwise or the new ops do not verify.
    """
    emitter = _TensorEmitter(block, arg_values, shape, extra_attributes)
    # The new ops already use the generic's inputs: an abort must erase them, or the
    # dangling uses reach the rewriter's worklist (and corrupt has_one_use).
    try:
        ops = list(block.ops)
        for inner in ops[:-1]:
            if not isinstance(inner, arith.ConstantOp):  # constants are read via splats
                emitter.emit(inner)
        return emitter.new_ops, [emitter.value(v) for v in ops[-1].operands]
    except _Abort:
        discard_ops(emitter.new_ops)
        raise


def discard_ops(ops: Sequence[Operation]) -> None:
    """Erase ops that were built but never inserted, users first, dropping their uses."""
    for op in reversed(ops):
        op.erase()


class GenericToElementwise(OpPattern[linalg.GenericOp]):
    """An elementwise generic is its body applied to whole tensors (HEIR's
    LinalgGenericToElementwise; MLIR has no named elementwise linalg ops any more):

        %r = linalg.generic {indexing_maps = [id, id], iterator_types = ["parallel", ...]}
               ins(%x : tensor<1x6x14x14xf32>) outs(%e : tensor<1x6x14x14xf32>) {
          ^bb0(%in: f32, %out: f32):
            %d = arith.divf %in, %c4 : f32
            linalg.yield %d : f32 }
    ==>
        %c = arith.constant dense<4.0> : tensor<1x6x14x14xf32>
        %r = arith.divf %x, %c : tensor<1x6x14x14xf32>

    HEIR's rules: the generic's extra attributes go onto every new op; a yielded value
    from outside the body becomes a splat (a dense constant for a constant); several
    results are fine. It stays generic when a map is not the identity, a loop is not
    parallel, the body reads an output's element, or the body has an op that is not
    elementwise.
    """

    op_types = (linalg.GenericOp,)

    def rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        if not op.res or not all_parallel(op.iterator_types):
            return
        if not all(is_identity(m) for m in affine_maps(op.indexing_maps)):
            return
        if any(not isinstance(v.type, TensorType) for v in op.operands):
            return
        shape = op.res[0].type.get_shape()
        arg_values: list[SSAValue | None] = [*op.inputs, *([None] * len(op.outputs))]
        try:
            new_ops, results = tensor_ops_from_body(op.body.block, arg_values, shape, dict(op.attributes))
        except _Abort:
            return
        if [r.type for r in results] != [r.type for r in op.res]:
            discard_ops(new_ops)
            return
        rewriter.replace(op, new_ops, results)


class MapToElementwise(OpPattern[linalg.MapOp]):
    """A `linalg.map` whose body is one elementwise op is that op on tensors:

        %r = linalg.map { arith.mulf } ins(%c, %x : tensor<1x512xf32>, tensor<1x512xf32>)
               outs(%e : tensor<1x512xf32>)
    ==>
        %r = arith.mulf %c, %x : tensor<1x512xf32>

    The init's contents are never read by the op, so any init (an argument too) is fine.
    Legality: tensor semantics, body = one elementwise op + yield; the map's attributes
    go onto the new op. Operands are mapped through the block arguments, so a body that
    swaps its arguments stays correct (HEIR passes the inputs in order regardless).
    """

    op_types = (linalg.MapOp,)

    def rewrite(self, op: linalg.MapOp, rewriter: PatternRewriter) -> None:
        if not op.res or len(list(op.body.block.ops)) != 2:
            return
        result_type = op.res[0].type
        if not isinstance(result_type, TensorType):
            return
        n_args = len(op.body.block.args)
        arg_values: list[SSAValue | None] = [*op.inputs[:n_args]]
        arg_values += [None] * (n_args - len(arg_values))
        try:
            new_ops, results = tensor_ops_from_body(
                op.body.block, arg_values, result_type.get_shape(), dict(op.attributes)
            )
        except _Abort:
            return
        if [r.type for r in results] != [result_type]:
            discard_ops(new_ops)
            return
        rewriter.replace(op, new_ops, results)


class DropCfAssertInLinalg(OpPattern[cf.AssertOp]):
    """`cf.assert` inside a generic body is dropped (HEIR's DropCfAssertInLinalg): FHE
    code cannot branch on data, and front ends emit these for index checks.

    Legality: the assert sits directly in a `linalg.generic` body.
    """

    op_types = (cf.AssertOp,)

    def rewrite(self, op: cf.AssertOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.parent_op(), linalg.GenericOp):
            rewriter.erase(op)


COMMUTATIVE_OPS: frozenset[str] = frozenset(
    f"arith.{name}"
    for name in "addf mulf maximumf minimumf maxnumf minnumf addi muli andi ori xori maxsi maxui minsi minui".split()
)
"""arith ops with MLIR's `Commutative` trait (xDSL 0.74 marks only the integer ones)."""


class ConstantsToTheRight(OpPattern[Operation]):
    """A commutative op takes its constant operands last, as MLIR's folder orders them
    (`OpTrait::impl::foldCommutative`, run by every greedy rewrite, HEIR's pass included):

        %r = arith.mulf %cst, %x : tensor<1x512xf32>
    ==>
        %r = arith.mulf %x, %cst : tensor<1x512xf32>

    Constants are operands an `arith.constant` (any ConstantLike op) defines; the
    relative order of the constants, and of the others, is kept.
    """

    # Any op: the commutative ones are listed by name (`COMMUTATIVE_OPS`).
    op_types = (Operation,)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in COMMUTATIVE_OPS or len(op.operands) < 2:
            return
        operands = list(op.operands)
        constant = [_is_constant(v) for v in operands]
        reordered = [v for v, c in zip(operands, constant) if not c] + [
            v for v, c in zip(operands, constant) if c
        ]
        if reordered != operands:
            op.operands = reordered
            rewriter.notify_op_modified(op)


def _is_constant(value: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, Operation) and owner.has_trait(ConstantLike)


ELEMENTWISE_PATTERNS: tuple[type[RewritePattern], ...] = (
    ConstantsToTheRight,
    BroadcastToExpandShape,
    FoldCollapseOfExpand,
    DropCfAssertInLinalg,
    MaterializeBroadcasts,
    DecomposeProjectedPermutation,
    GenericToElementwise,
    MapToElementwise,
)
