"""Give each conv left to HEIR's conv kernel a zero pad that the kernel folds.

HEIR folds a `tensor.pad` into the `conv_2d_nchw_fchw` that reads it only when the pad
adds zeros, the same p > 0 before and after H and W (`heirpy.analysis.slots.
folded_pad_source`). Any other pad HEIR lays out in slots, and it converts the padded
tensor to the conv's layout at about a level per bit of the slot count: on a 1x4x16x16
input (2048 slots), conv, x², matvec compiles at 3 levels, its depth, with a 4x4 filter
padded 1 on both sides, and at 14 with the same filter padded 1 before and 2 after
(heir-opt 2026.11.1, measured 2026-12-05). Even filters need uneven pads to keep a
map's size: torch's "same" padding, and the 6x6 convs that a 2x2 average pool fused
into the next 3x3 conv becomes on `strided-on-grid`'s grid (VGG: pad 2 before, 3 after).

The rewrite adds zero taps to the filter instead. A spatial dim padded `lo` before and
`hi` after, read with dilation d, gets `p` (the largest of the four pads) on both sides
and (p - lo) / d zero taps at the start of the filter, floor((p - hi) / d) at its end.
Each output reads the same data through the same non-zero taps: the rows added at
either end are read only by the added zero taps, or (the rest of (p - hi) / d at the
end) by no tap at all: a conv's input may be longer than its window needs (MLIR's
linalg verifier asks only that it be long enough), and HEIR folds such a pad as any
even one (a 3x3 filter at dilation 2 padded 2 before and 1 after: 3 levels, its
bound, once even; 13 as it was; heir-opt 2026.11.1, measured 2026-12-06). The start
must move by whole taps (the data would shift otherwise). The output shape does not
change, and neither does the function's interface; the cost is the MACs of the added
taps.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.analysis.slots import folded_pad_source
from heirpy.ir.constants import dense_constant
from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
from heirpy.ir.utils import int_values, static_shape
from heirpy.transforms.heir.heir_forms import element_of
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.rewrite import OpPattern, PatternSet, apply_pattern_sets, constant_insertion_point


def added_taps(low: Sequence[int], high: Sequence[int], dilations: Sequence[int]) -> list[tuple[int, int]] | None:
    """The zero taps (before, after) for H and W that make an NCHW pad of `low` / `high`
    the same on all four sides, or None: a pad on N or C, one that is even already (or
    absent), or a side whose difference to the widest is no multiple of the dilation."""
    if len(low) != 4 or low[:2] != [0, 0] or high[:2] != [0, 0]:
        return None
    sides = [*low[2:], *high[2:]]
    widest = max(sides)
    if all(side == widest for side in sides):
        return None
    taps: list[tuple[int, int]] = []
    for i in range(2):
        before, after = widest - low[2 + i], widest - high[2 + i]
        if before % dilations[i]:  # the taps would read the data shifted
            return None
        taps.append((before // dilations[i], after // dilations[i]))
    return taps


class FoldablePad(OpPattern[Conv2DNchwFchwOp]):
    """A conv reading an uneven zero pad reads an even one, with zero taps added to its
    filter where the pad grew.

        %p = tensor.pad %x low[0, 0, 2, 2] high[0, 0, 3, 3] : tensor<1x16x32x32xf32> to tensor<1x16x37x37xf32>
        %y = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x16x37x37xf32>, tensor<32x16x6x6xf32>)
               outs(%b : tensor<1x32x32x32xf32>)
      ->
        %p = tensor.pad %x low[0, 0, 3, 3] high[0, 0, 3, 3] : tensor<1x16x32x32xf32> to tensor<1x16x38x38xf32>
        %y = linalg.conv_2d_nchw_fchw ins(%p, %w7 : tensor<1x16x38x38xf32>, tensor<32x16x7x7xf32>)
               outs(%b : tensor<1x32x32x32xf32>)

    where %w7 is %w with a zero first row and first column. Legality: static shapes, a
    constant filter, a static pad of H and W only whose even form HEIR folds (zero, the
    same on all four sides), each low side's growth a multiple of its dim's dilation, and
    the even pad narrower than the new filter's window, d * (k - 1) + 1 (heir-opt dies
    on a 3x3 filter padded 3, `heir_forms.heir_fails_on`; padded 3 at dilation 2 it
    compiles). Another reader of the pad keeps the old one.
    """

    op_types = (Conv2DNchwFchwOp,)

    def __init__(self, reader: ConstantFolder):
        self.reader = reader

    def rewrite(self, op: Conv2DNchwFchwOp, rewriter: PatternRewriter) -> None:
        pad = op.operands[0].owner
        shapes = [static_shape(v.type) for v in (*op.operands, op.results[0])]
        if not isinstance(pad, tensor.PadOp) or pad.low or pad.high or any(s is None for s in shapes):
            return
        dilations = op.properties.get("dilations")
        dilation_values = list(int_values(dilations)) if dilations is not None else [1, 1]
        low, high = list(int_values(pad.static_low)), list(int_values(pad.static_high))
        taps = added_taps(low, high, dilation_values)
        weights = self.reader.fold(op.operands[1]) if taps is not None else None
        if taps is None or weights is None:
            return
        widest = max(*low[2:], *high[2:])
        (top, bottom), (left, right) = taps
        wide = np.zeros((*weights.shape[:2], weights.shape[2] + top + bottom, weights.shape[3] + left + right),
                        dtype=weights.dtype)
        wide[:, :, top: top + weights.shape[2], left: left + weights.shape[3]] = weights
        if any(widest >= d * (k - 1) + 1 for d, k in zip(dilation_values, wide.shape[2:])):
            return  # a pad as wide as the window crashes heir-opt (see the class doc)
        source = pad.operands[0]
        source_shape = static_shape(source.type)
        assert source_shape is not None  # the pad's result is static, and it pads H and W only
        even = [0, 0, widest, widest]
        padded_shape = [*source_shape[:2], *(d + 2 * widest for d in source_shape[2:])]
        new_pad = tensor.PadOp(
            source, [], [], pad.region.clone(), even, even, TensorType(element_of(pad.results[0].type), padded_shape)
        )
        if folded_pad_source(new_pad) is None:  # not zero: HEIR would lay this one out too
            return
        constant = dense_constant(wide, TensorType(element_of(op.operands[1].type), list(wide.shape)))
        rewriter.insert(constant, constant_insertion_point(op))
        new_pad.results[0].name_hint = pad.results[0].name_hint
        rewriter.insert(new_pad, InsertPoint.before(op))
        conv = op.clone()
        conv.operands = [new_pad.results[0], constant.result, *op.operands[2:]]
        rewriter.replace(op, conv)
        if not pad.results[0].uses:
            rewriter.erase(pad)


def foldable_pads(module: ModuleOp, ctx: Context | None) -> None:
    """Give every conv with an uneven zero pad an even one (the module doc)."""
    apply_pattern_sets(module, [PatternSet.of(FoldablePad(ConstantFolder(ctx)))])
