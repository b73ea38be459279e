"""A generic reading a wide value that is also rounded reads the rounded value, widened in
its body: where torch-mlir rounds, so that the wide value need not be stored.

torch-mlir stores every tensor of an f16 model in f16: a block's projection conv
accumulates in f32, a `truncf` rounds it, and the residual add reads the rounded value
(`addf` in f16). heirpy's mixed-precision rule (`WidenElementwise`) computes that add in
f32 on the unrounded values, so a residual stream stays f32 from block to block: each
block's projection dispatch stores the f32 sum beside its f16 rounding (two results), and
the next block's add reads the f32 one. The last block of a run stores only f16, so its
dispatch is an executable the others cannot share: EfficientNet-lite0 f16's
`matmul_like_192x4x1152`, MobileNetV2 f16's `matmul_like_160x4x960` (one executable over
raw each, under IREE's defaults).

This pass, a step of `iree-prepare`: where a wide value `y` is read by a `truncf` generic
`t = truncf(y)` and otherwise only by generics (as inputs), those generics read `t` and
widen it with `arith.extf` in their bodies, so `y` is read by its rounding alone (its
producer stores f16). The values then differ from the input's by that one rounding of
`y` per reader, the rounding torch-mlir made there (the reader's arithmetic stays wide,
so the result is at least as close as torch-mlir's). A constant `y` (nothing stored per
call), a `y` also read by anything else (a contraction, a reshape, a return: `y` stays
stored) or a rounding that does not come before every reader is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.dialects.linalg import GenericOp
from heirpy.transforms.iree.generic_casts import cast_in_reader
from heirpy.transforms.linear.constant_folding import is_compile_time_constant
from heirpy.transforms.linear.mixed_precision import truncf_source
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets


def wide_readers(rounding: GenericOp) -> list[tuple[GenericOp, int]] | None:
    """The (generic, operand index) reads of `y` to move onto `rounding = truncf(y)`: every
    read of `y` but `rounding`'s and other roundings of `y` to the same type, each a
    generic reading `y` as an input after `rounding` in its block; None when `rounding`
    is no `truncf` generic, `y` is a compile-time constant, any read is of another kind
    or comes first, or there is none."""
    if len(rounding.results) != 1:
        return None
    wide = truncf_source(rounding.results[0])
    if wide is None or wide is not rounding.inputs[0] or is_compile_time_constant(wide):
        return None
    narrow = rounding.results[0].type
    reads: list[tuple[GenericOp, int]] = []
    for use in wide.uses:
        reader = use.operation
        if reader is rounding:
            continue
        if not isinstance(reader, GenericOp) or use.index >= len(reader.inputs):
            return None
        if truncf_source(reader.results[0]) is wide and reader.results[0].type == narrow:
            continue  # another rounding of `y`: it stores no wide value
        if reader.parent_block() is not rounding.parent_block() or not rounding.is_before_in_block(reader):
            return None
        reads.append((reader, use.index))
    return reads or None


@dataclass
class NarrowRoundedRead(OpPattern[GenericOp], OutsideGenericBodies):
    """Generics reading `y` where `truncf(y)` exists ==> reading `truncf(y)`, widened.

        %y = linalg.generic ... -> tensor<4xf32>                     (a conv's bias, an add)
        %t = linalg.generic ins(%y : tensor<4xf32>) outs(..) { truncf } -> tensor<4xf16>
        %s = linalg.generic ins(%y, %r : tensor<4xf32>, tensor<4xf32>) ... { addf }
      ==>
        %t = linalg.generic ins(%y : tensor<4xf32>) outs(..) { truncf } -> tensor<4xf16>
        %s = linalg.generic ins(%t, %r : tensor<4xf16>, tensor<4xf32>) ... {
          ^bb0(%v16: f16, ..): %v = arith.extf %v16 : f16 to f32; ... addf %v, .. }

    Matched on the rounding `%t`: a one-input identity generic whose body is one
    `arith.truncf` to a narrower float. Legality (`wide_readers`): `y` is computed at
    run time, every other read of it is a `linalg.generic` input (or another such
    rounding) after `%t` in its block.
    """

    op_types = (GenericOp,)

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        reads = wide_readers(op)
        if reads is None:
            return
        for reader, index in reads:  # each reader widens the rounding back to y's type
            cast_in_reader(reader, index, op.results[0], arith.ExtFOp, rewriter)


@dataclass(frozen=True)
class NarrowRoundedReadsPass(ModulePass):
    """Generics reading a wide value that is also rounded read the rounding, widened.

        %t = linalg.generic ins(%y : ..xf32) { truncf } -> ..xf16
        %s = linalg.generic ins(%y, %r : ..xf32, ..xf32) { addf }
      ==>
        %s = linalg.generic ins(%t, %r : ..xf16, ..xf32) { extf; addf }

    (tests/filecheck/transforms/narrow-rounded-reads/ has the cases.) For IREE only, a
    step of `iree-prepare`: a residual stream heirpy computed in f32 is stored in f16, as
    torch-mlir stores it, and every block of a run compiles to the same executables
    (EfficientNet-lite0 and MobileNetV2 f16: one executable fewer each).
    """

    name = "narrow-rounded-reads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, [PatternSet.of(NarrowRoundedRead())])
