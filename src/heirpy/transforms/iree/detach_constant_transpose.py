"""Write a widening cast of a constant read through a transpose as a `linalg.transpose`
of the constant, then the cast: the two steps IREE takes apart.

torch-mlir exports an f16 `nn.Linear` as `linalg.transpose` of its f16 weight, an `extf`
generic widening the transposed weight to f32, and an f32 `linalg.matmul`. heirpy's
pointwise fusion merges the transpose into the cast (one generic reading the weight
through a permuted map), one op fewer for its own kernel count. IREE does worse with
it: its constant-expression hoisting evaluates the transpose of a constant at compile
time (same size), but not a cast that doubles the bytes (a size increase it leaves to
run time), and it fuses an identity-mapped bit-extend into the contraction that reads
it, but not one that also permutes. So the fused generic ran as a dispatch of its own on
every call (`elementwise_transpose_1000x1280_f16xf32`: MobileNetV2 f16, 56 dispatches
per call against raw's 55), where the raw form costs nothing at run time (the transpose
folded into the constant, the `extf` inside the matmul's dispatch).

This pass, a step of `iree-prepare`, undoes that one fusion: a generic that widens a
constant (its body one `arith.extf`) read through a permutation becomes a
`linalg.transpose` of the constant (same element type) and the cast through identity
maps. Any other generic, a narrowing cast, a constant read through the identity or a
broadcast, a computed input, is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ModuleOp, TensorType
from xdsl.ir import OpResult
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import GenericOp, YieldOp
from heirpy.ir.dialects.linalg_core import TransposeOp
from heirpy.ir.utils import affine_maps, all_parallel, i64_array, is_identity, map_dims
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets


def constant_widening_permutation(op: GenericOp) -> list[int] | None:
    """The loop dim of each input dim when `op` is a widening `extf` of one constant read
    through a non-identity permutation into an identity-mapped output, else None."""
    if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.results) != 1:
        return None
    source = op.inputs[0]
    if not isinstance(source, OpResult) or not isinstance(source.op, arith.ConstantOp):
        return None
    if not all_parallel(op.iterator_types):
        return None
    in_map, out_map = affine_maps(op.indexing_maps)
    dims = map_dims(in_map)
    if not is_identity(out_map) or dims is None or is_identity(in_map):
        return None
    if in_map.num_symbols or sorted(dims) != list(range(in_map.num_dims)):
        return None  # a broadcast or a projection: not a transpose
    body = list(op.body.block.ops)
    if len(body) != 2 or not isinstance(body[0], arith.ExtFOp) or not isinstance(body[1], YieldOp):
        return None
    arg = op.body.block.args[0]
    if body[0].input is not arg or body[1].operands[0] is not body[0].result:
        return None
    source_type, result_type = source.type, op.results[0].type
    if not isinstance(source_type, TensorType) or not isinstance(result_type, TensorType):
        return None
    narrow, wide = source_type.get_element_type(), result_type.get_element_type()
    if not isinstance(narrow, AnyFloat) or not isinstance(wide, AnyFloat) or narrow.bitwidth >= wide.bitwidth:
        return None
    return dims


@dataclass
class DetachConstantTranspose(OpPattern[GenericOp], OutsideGenericBodies):
    """A widening cast of a constant through a permuted map ==> transpose, then the cast.

        %w = arith.constant dense<...> : tensor<1000x1280xf16>
        %r = linalg.generic {indexing_maps = [(d0, d1) -> (d1, d0), (d0, d1) -> (d0, d1)],
               iterator_types = [parallel, parallel]} ins(%w) outs(%e : tensor<1280x1000xf32>) {
          ^bb0(%a: f16, %o: f32):
            %x = arith.extf %a : f16 to f32
            linalg.yield %x : f32 }
      ==>
        %t = linalg.transpose ins(%w) outs(%e0 : tensor<1280x1000xf16>) permutation = [1, 0]
        %r = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0, d1)], ...}
               ins(%t) outs(%e : tensor<1280x1000xf32>) { the same extf }

    Legality (`constant_widening_permutation`): one `arith.constant` input, read through a
    permutation that is not the identity, the output through the identity, all loops
    parallel, the body only `extf` to a wider float. The values are the same (a cast and
    a transpose commute); only the op boundaries move.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        dims = constant_widening_permutation(op)
        if dims is None:
            return
        source = op.inputs[0]
        source_type, result_type = source.type, op.results[0].type
        assert isinstance(source_type, TensorType) and isinstance(result_type, TensorType)
        # Input dim j is read at loop dims[j]; the transpose's result dim i (loop i) is
        # the input dim j with dims[j] == i.
        permutation = [dims.index(i) for i in range(len(dims))]
        transposed_type = TensorType(source_type.get_element_type(), result_type.get_shape())
        empty = tensor.EmptyOp([], transposed_type)
        transpose = TransposeOp(source, empty.tensor, i64_array(permutation), transposed_type)
        identity = AffineMapAttr(AffineMap.identity(len(dims)))
        cast = GenericOp(
            [transpose.results[0]],
            list(op.outputs),
            rewriter.move_region_contents_to_new_regions(op.body),
            [identity, identity],
            list(op.iterator_types),
            [result_type],
        )
        transpose.results[0].name_hint = "transposed"
        cast.results[0].name_hint = op.results[0].name_hint
        rewriter.replace(op, [empty, transpose, cast], [cast.results[0]])


@dataclass(frozen=True)
class DetachConstantTransposePass(ModulePass):
    """A widening cast of a constant through a transpose: `linalg.transpose`, then the cast.

        %r = linalg.generic {(d0, d1) -> (d1, d0), id} ins(%const : ..xf16) { extf }
      ==>
        %t = linalg.transpose ins(%const : ..xf16) permutation = [1, 0]
        %r = linalg.generic {id, id} ins(%t) { extf }

    (tests/filecheck/transforms/detach-constant-transpose/ has the cases.) For IREE only,
    a step of `iree-prepare`: IREE folds the transpose of a constant at compile time and
    fuses the identity-mapped cast into the matmul reading it; the fused form ran as a
    dispatch of its own per call (MobileNetV2 f16's classifier weight).
    """

    name = "detach-constant-transpose"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, [PatternSet.of(DetachConstantTranspose())])
