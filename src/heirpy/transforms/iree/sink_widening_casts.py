"""A generic that stores `extf(v)` stores `v`; its readers widen it in their bodies: the
form torch-mlir exports and IREE deduplicates.

torch-mlir widens an f16 tensor where it is read: a LayerNorm's first generic reads the
f16 residual stream and `extf`s it in its body. heirpy's pointwise fusion moves a
single-use `extf` generic into the op that produced its input, so that op stores the
tensor in f32 (twice the bytes) and its readers read f32. Where that happens to one
instance of a repeated block, IREE compiles that instance to executables of their own:
ViT-tiny f16's last encoder block (its residual add feeds only the final LayerNorm)
stored f32 and its fc2 matmul and the final LayerNorm's two reductions became three
executables the other blocks' could not share (21 against raw's 18).

This pass, a step of `iree-prepare`, moves such a widening back to the readers: a
generic whose one result yields `arith.extf` of a narrower float, read only as an input
of other generics, yields the narrow value, and each reader widens its block argument
with `arith.extf` first. The values are the same (the widening is exact); the stored
tensor is narrow again. A result read by anything else (a contraction:
`narrow-contraction-inputs`; a reshape, a return) keeps its widening.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, ModuleOp, TensorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import Rewriter

from heirpy.ir.dialects.linalg import GenericOp, YieldOp
from heirpy.transforms.iree.generic_casts import cast_in_reader, retyped_generic
from heirpy.transforms.iree.narrow_contraction_inputs import body_widening
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets


def stored_widening(op: GenericOp) -> SSAValue | None:
    """The narrow value in `op`'s body when `op` has one result, does not read its output,
    yields `extf(v)` of a narrower float, and only generics read the result, as inputs."""
    produced = body_widening(op)
    if produced is None:
        return None
    narrow = produced.input
    if not isinstance(narrow.type, AnyFloat) or not isinstance(produced.result.type, AnyFloat):
        return None
    if narrow.type.bitwidth >= produced.result.type.bitwidth:
        return None
    uses = list(op.results[0].uses)
    if not uses:
        return None
    for use in uses:
        reader = use.operation
        if not isinstance(reader, GenericOp) or use.index >= len(reader.inputs):
            return None
    return narrow


@dataclass
class SinkWideningCast(OpPattern[GenericOp], OutsideGenericBodies):
    """A generic storing `extf(v)` ==> the generic storing `v`, its readers widening it.

        %r = linalg.generic ins(%a, %b : ..xf16) outs(%e : ..xf32) {
          %s = arith.addf %x, %y : f16
          %w = arith.extf %s : f16 to f32
          linalg.yield %w : f32 }
        %m = linalg.generic ins(%r : ..xf32) ... { ^bb0(%v: f32, ...): ... uses %v }
      ==>
        %r = linalg.generic ins(%a, %b : ..xf16) outs(%e16 : ..xf16) {
          %s = arith.addf %x, %y : f16
          linalg.yield %s : f16 }
        %m = linalg.generic ins(%r : ..xf16) ... { ^bb0(%v16: f16, ...):
          %v = arith.extf %v16 : f16 to f32
          ... uses %v }

    Legality (`stored_widening`): one result, the output not read, the yield `extf` to a
    wider float, every reader a `linalg.generic` reading it as an input.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        narrow_value = stored_widening(op)
        if narrow_value is None:
            return
        narrow, wide = narrow_value.type, op.results[0].type
        assert isinstance(narrow, AnyFloat) and isinstance(wide, TensorType)
        new_type = TensorType(narrow, wide.get_shape())
        uses = [(use.operation, use.index) for use in op.results[0].uses]

        yield_op = op.body.block.last_op
        assert isinstance(yield_op, YieldOp)
        extf = yield_op.operands[0].owner
        yield_op.operands = [narrow_value]
        if isinstance(extf, arith.ExtFOp) and not extf.results[0].uses:
            Rewriter.erase_op(extf)
        Rewriter.replace_value_with_new_type(op.body.block.args[-1], narrow)
        rebuilt = retyped_generic(op, new_type, rewriter)

        for reader, index in uses:
            assert isinstance(reader, GenericOp)
            cast_in_reader(reader, index, rebuilt.results[0], arith.ExtFOp, rewriter)
        rewriter.erase(op)


@dataclass(frozen=True)
class SinkWideningCastsPass(ModulePass):
    """A generic storing `extf(v)` stores `v`; each reading generic widens it in its body.

        %r = linalg.generic ... { ...; %w = arith.extf %s : f16 to f32; linalg.yield %w }
        %m = linalg.generic ins(%r : ..xf32) { ^bb0(%v: f32): ... }
      ==>
        %r = linalg.generic ... { ...; linalg.yield %s : f16 }
        %m = linalg.generic ins(%r : ..xf16) { ^bb0(%v16: f16): %v = arith.extf %v16 ... }

    (tests/filecheck/transforms/sink-widening-casts/ has the cases.) For IREE only, a step
    of `iree-prepare`: the stored tensor is narrow again, as torch-mlir wrote it, and a
    repeated block's last instance compiles to the same executables as the others
    (ViT-tiny f16).
    """

    name = "sink-widening-casts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, [PatternSet.of(SinkWideningCast())])
