"""An elementwise generic that rounds and is read only by reductions yields the wide value;
the reductions round it: the form IREE fuses into them.

IREE's elementwise fusion takes an elementwise producer into a reduction that reads it,
except a "truncation": a generic whose widest input of its result's rank has a wider
element type than its result (`LinalgExt::isBitTruncateOp`). That one fuses only into a
unary elementwise consumer, so it stays as the epilogue of its own producer's dispatch.
heirpy's pointwise fusion merges a conv's rounding into the ops after it: RegNetX-400MF
f16's last residual add reads the projection conv's f32 value, rounds it and adds the f16
shortcut, and the global average pool after it (with the last ReLU in its body) reads the
sum. IREE then kept the add with the conv, without the ReLU, an executable none of the
other blocks' conv dispatches share (their ReLU has no reduction to go to): 30
executables against raw's 29, whose conv is rounded at once and shares the bare conv
executable of an earlier block.

This pass, a step of `iree-prepare`: such a generic, when its one reader is a reduction
generic reading it as an input (once or more), yields `extf` of its value (its widest input's type) and
each reader rounds its block argument with `arith.truncf` first. `truncf(extf(v))` is `v`,
so no value changes; IREE then fuses the generic into the reduction. A generic read by
anything else (an elementwise op, a contraction, a return) or by two reductions (a
LayerNorm's mean and variance: IREE fuses a producer with two users into neither, and
the wide value would be stored) is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, ModuleOp, TensorType
from xdsl.ir import OpResult
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from heirpy.ir.dialects.linalg import GenericOp, YieldOp
from heirpy.ir.utils import all_parallel, iterator_kinds
from heirpy.transforms.iree.generic_casts import cast_in_reader, retyped_generic
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets


def truncation_width(op: GenericOp) -> AnyFloat | None:
    """The widest float among `op`'s inputs of its result's rank when it is wider than the
    result's float (IREE's truncation); None otherwise, or when `op` is no one-result,
    all-parallel generic that does not read its output."""
    if len(op.results) != 1 or len(op.outputs) != 1 or not all_parallel(op.iterator_types):
        return None
    if op.body.block.args[-1].uses:
        return None
    result = op.results[0].type
    if not isinstance(result, TensorType) or not isinstance(result.get_element_type(), AnyFloat):
        return None
    inputs = [v.type for v in op.inputs if isinstance(v.type, TensorType)]
    ranks = [len(t.get_shape()) for t in inputs]
    if not ranks or max(ranks) != len(result.get_shape()):
        return None  # IREE requires the ranks to match for a truncation
    floats = [t.get_element_type() for t in inputs if len(t.get_shape()) == max(ranks)]
    if not all(isinstance(f, AnyFloat) for f in floats):
        return None
    widest = max(floats, key=lambda f: f.bitwidth)
    narrow = result.get_element_type()
    assert isinstance(widest, AnyFloat) and isinstance(narrow, AnyFloat)
    return widest if widest.bitwidth > narrow.bitwidth else None


def reduction_reads(op: GenericOp) -> list[tuple[GenericOp, int]] | None:
    """(reader, operand index) of every read of `op`'s result, when all are inputs of one
    generic with a reduction loop (IREE fuses a producer into one consumer only; the
    same value read twice is one operand once canonicalized); None otherwise."""
    reads: list[tuple[GenericOp, int]] = []
    for use in op.results[0].uses:
        reader = use.operation
        if not isinstance(reader, GenericOp) or use.index >= len(reader.inputs):
            return None
        if "reduction" not in iterator_kinds(reader.iterator_types):
            return None
        if reads and reader is not reads[0][0]:
            return None  # two readers: IREE fuses into neither, and the wide value is stored
        reads.append((reader, use.index))
    return reads or None


@dataclass
class RoundInReductions(OpPattern[GenericOp], OutsideGenericBodies):
    """A rounding generic read only by reductions ==> yielding the wide value, the
    reductions rounding it.

        %a = linalg.generic ins(%r, %y : ..xf16, ..xf32) outs(%e : ..xf16) {
          %t = arith.truncf %q : f32 to f16; %s = arith.addf %p, %t : f16; linalg.yield %s }
        %m = linalg.generic {.. "reduction" ..} ins(%a : ..xf16) .. { ^bb0(%v: f16, ..): .. }
      ==>
        %a = linalg.generic ins(%r, %y : ..xf16, ..xf32) outs(%e32 : ..xf32) {
          ..; %w = arith.extf %s : f16 to f32; linalg.yield %w }
        %m = linalg.generic {.. "reduction" ..} ins(%a : ..xf32) .. {
          ^bb0(%v32: f32, ..): %v = arith.truncf %v32 : f32 to f16; .. }

    Legality: `truncation_width` (one result, all parallel, the output not read, an
    input of the result's rank wider than the result) and `reduction_reads` (one reader,
    a generic with a reduction loop, reading it as inputs only).
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        wide = truncation_width(op)
        reads = reduction_reads(op) if wide is not None else None
        if wide is None or reads is None:
            return
        old_type = op.results[0].type
        assert isinstance(old_type, TensorType)
        new_type = TensorType(wide, old_type.get_shape())

        yield_op = op.body.block.last_op
        assert isinstance(yield_op, YieldOp)
        widen = arith.ExtFOp(yield_op.operands[0], wide)
        rewriter.insert(widen, InsertPoint.before(yield_op))
        yield_op.operands = [widen.result]
        Rewriter.replace_value_with_new_type(op.body.block.args[-1], wide)
        rebuilt = retyped_generic(op, new_type, rewriter)

        for reader, index in reads:
            cast_in_reader(reader, index, rebuilt.results[0], arith.TruncFOp, rewriter)
        assert isinstance(op.results[0], OpResult)
        rewriter.erase(op)


@dataclass(frozen=True)
class RoundInReductionsPass(ModulePass):
    """A rounding generic read only by reductions yields the wide value; they round it.

        %a = linalg.generic ins(%r, %y : ..xf16, ..xf32) { truncf; addf } -> ..xf16
        %m = linalg.generic {reduction} ins(%a : ..xf16)
      ==>
        %a = linalg.generic ins(%r, %y : ..xf16, ..xf32) { truncf; addf; extf } -> ..xf32
        %m = linalg.generic {reduction} ins(%a : ..xf32) { truncf; .. }

    (tests/filecheck/transforms/round-in-reductions/ has the cases.) For IREE only, a step
    of `iree-prepare`: IREE fuses no truncation into a reduction, and the generic became
    its producer's epilogue, an executable the same block's elsewhere do not share
    (RegNetX-400MF f16's last block).
    """

    name = "round-in-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, [PatternSet.of(RoundInReductions())])
