"""Write a pointwise generic that reads its input through a permutation, and whose result
a matmul reads, as a `linalg.transpose` and then the generic through identity maps.

torch-mlir writes attention's `q @ k^T` with `k` transposed by a `linalg.transpose`, then
scaled by a pointwise generic, then read by `linalg.batch_matmul`. heirpy's pointwise
fusion reads the transpose's source through a permuted map in the scaling generic (one
op fewer for its own kernel count). IREE does worse with it: it sinks a
`linalg.transpose` through pointwise ops and folds it into the matmul's indexing maps
(a transposed operand, which data tiling packs anyway), but it does not take a
permutation out of a generic: the fused generic ran as an `elementwise_transpose`
dispatch that stores the whole of `k` transposed (DeiT-tiny, best CPU flags: 36.4 us per
block against raw's 3.6 us for the plain scale; the same 186 dispatches per call).

This pass, a step of `iree-prepare`, undoes that one fusion where a contraction reads the
result: an all-parallel generic with an identity-mapped output, reading one computed input
(a constant's is `detach-constant-transpose`'s) through a permutation of the loops (unit
dimensions of the input read at 0 allowed, as pointwise fusion writes a `collapse_shape`
it absorbed), whose result reaches a `linalg.matmul` / `linalg.batch_matmul` input through
`collapse_shape` / `expand_shape` only, becomes `collapse_shape` of the unit dimensions
(if any), `linalg.transpose`, and the generic through identity maps. The values are the
same; only op boundaries move. A permuted generic a contraction does not read (IREE fuses
it into its producer or consumer dispatch as it is) is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.dialects.linalg_core import TransposeOp
from heirpy.ir.utils import affine_maps, all_parallel, i64_array, is_identity, reassociation_attr, static_shape
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets

CONTRACTIONS = frozenset(("linalg.matmul", "linalg.batch_matmul"))


def reaches_contraction(value: SSAValue) -> bool:
    """`value` has one use, through single-use `collapse_shape` / `expand_shape` ops, and
    it is an input (not the init) of a matmul or batch matmul."""
    while True:
        uses = list(value.uses)
        if len(uses) != 1:
            return False
        user = uses[0].operation
        if isinstance(user, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
            value = user.results[0]
            continue
        return user.name in CONTRACTIONS and uses[0].index < 2


@dataclass(frozen=True)
class PermutedRead:
    """How a generic reads its permuted input: the loop of each non-unit input dimension,
    in order, and the reassociation that drops the input's unit dimensions (None: none)."""

    loops: list[int]
    groups: list[list[int]] | None


def permuted_read(m: AffineMap, shape: tuple[int, ...]) -> PermutedRead | None:
    """`m` reads every loop once, bare and in a non-identity order, and any other input
    dimension at constant 0 where its size is 1; else None."""
    loops: list[int] = []
    groups: list[list[int]] = []
    pending: list[int] = []
    for d, expr in enumerate(m.results):
        pending.append(d)
        if isinstance(expr, AffineDimExpr):
            loops.append(expr.position)
            groups.append(pending)
            pending = []
        elif not (isinstance(expr, AffineConstantExpr) and expr.value == 0 and shape[d] == 1):
            return None
    if m.num_symbols or not groups or sorted(loops) != list(range(m.num_dims)) or loops == sorted(loops):
        return None
    groups[-1].extend(pending)
    return PermutedRead(loops, groups if len(groups) != len(shape) else None)


def detachable_input(op: GenericOp) -> tuple[int, PermutedRead] | None:
    """The input `op` reads through a permutation, when `op` is all-parallel with one
    identity-mapped output, every other input read through the identity, no input read
    through a permutation is a constant (IREE transposes a constant at compile time;
    a cast of one is `detach-constant-transpose`'s), and its result reaches a contraction
    (`reaches_contraction`); else None."""
    if len(op.outputs) != 1 or len(op.results) != 1 or not all_parallel(op.iterator_types):
        return None
    maps = affine_maps(op.indexing_maps)
    if not is_identity(maps[-1]) or not reaches_contraction(op.results[0]):
        return None
    found: tuple[int, PermutedRead] | None = None
    for index, (value, m) in enumerate(zip(op.inputs, maps)):
        if is_identity(m):
            continue
        if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
            return None  # a constant's transpose: `detach-constant-transpose`'s (a cast of it)
        shape = static_shape(value.type)
        read = permuted_read(m, tuple(shape)) if shape is not None else None
        if read is None or found is not None:
            return None
        found = (index, read)
    return found


@dataclass
class DetachContractionTranspose(OpPattern[GenericOp], OutsideGenericBodies):
    """A pointwise generic reading a permuted input, read by a matmul ==> transpose, then
    the generic through identity maps.

        %k = tensor.extract_slice %qkv[1, 0, 0, 0, 0] [1, 1, 3, 198, 64] ... to tensor<1x1x3x198x64xf32>
        %s = linalg.generic {indexing_maps = [(d0, d1, d2, d3) -> (d0, 0, d1, d3, d2), id],
               iterator_types = [parallel x4]} ins(%k) outs(%e : tensor<1x3x64x198xf32>) { mulf 0.35 }
        %c = tensor.collapse_shape %s [[0, 1], [2], [3]] : ... into tensor<3x64x198xf32>
        %a = linalg.batch_matmul ins(%q, %c : tensor<3x198x64xf32>, tensor<3x64x198xf32>) ...
      ==>
        %k4 = tensor.collapse_shape %k [[0], [1, 2], [3], [4]] : ... into tensor<1x3x198x64xf32>
        %t = linalg.transpose ins(%k4) outs(%e0 : tensor<1x3x64x198xf32>) permutation = [0, 1, 3, 2]
        %s = linalg.generic {indexing_maps = [id, id], ...} ins(%t) outs(%e) { mulf 0.35 }
        (the collapse_shape and the batch_matmul as before)

    Legality (`detachable_input`, `permuted_read`): all loops parallel, the output and
    every other input through the identity, one computed (not constant) input through a
    permutation of the loops that is not the identity, with unit dimensions read at 0;
    the result's one use reaches a matmul / batch matmul input through reshapes only.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        found = detachable_input(op)
        if found is None:
            return
        index, read = found
        source = op.inputs[index]
        source_type, result_type = source.type, op.results[0].type
        assert isinstance(source_type, TensorType) and isinstance(result_type, TensorType)
        element = source_type.get_element_type()
        new_ops: list[Operation] = []
        if read.groups is not None:
            shape = source_type.get_shape()
            collapsed = TensorType(element, [max(shape[d] for d in group) for group in read.groups])
            collapse = tensor.CollapseShapeOp(operands=[source], result_types=[collapsed],
                                              properties={"reassociation": reassociation_attr(read.groups)})
            collapse.results[0].name_hint = "collapsed"
            new_ops.append(collapse)
            source = collapse.results[0]
        # Input dim j is read at loop loops[j]; the transpose's result dim i (loop i) is
        # the input dim j with loops[j] == i.
        permutation = [read.loops.index(i) for i in range(len(read.loops))]
        transposed_type = TensorType(element, result_type.get_shape())
        empty = tensor.EmptyOp([], transposed_type)
        transpose = TransposeOp(source, empty.tensor, i64_array(permutation), transposed_type)
        transpose.results[0].name_hint = "transposed"
        inputs = list(op.inputs)
        inputs[index] = transpose.results[0]
        identity = AffineMapAttr(AffineMap.identity(len(read.loops)))
        generic = GenericOp(
            inputs,
            list(op.outputs),
            rewriter.move_region_contents_to_new_regions(op.body),
            [identity] * (len(inputs) + 1),
            list(op.iterator_types),
            [result_type],
        )
        generic.results[0].name_hint = op.results[0].name_hint
        rewriter.replace(op, [*new_ops, empty, transpose, generic], [generic.results[0]])


@dataclass(frozen=True)
class DetachContractionTransposePass(ModulePass):
    """A pointwise generic reading a permuted input, read by a matmul: transpose, then the generic.

        %s = linalg.generic {(d0, d1, d2) -> (d0, d2, d1), id} ins(%k) { mulf }  // read by a batch_matmul
      ==>
        %t = linalg.transpose ins(%k) permutation = [0, 2, 1]
        %s = linalg.generic {id, id} ins(%t) { mulf }

    (tests/filecheck/transforms/detach-contraction-transpose/ has the cases.) For IREE
    only, a step of `iree-prepare`: IREE folds a `linalg.transpose` read by a matmul
    into the matmul's operand, but runs a permuting generic as a transpose dispatch of
    its own (DeiT-tiny's and ViT-tiny's attention keys).
    """

    name = "detach-contraction-transpose"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, [PatternSet.of(DetachContractionTranspose())])
