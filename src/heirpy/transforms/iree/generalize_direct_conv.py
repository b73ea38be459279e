"""Write a 3x3 unit-stride f32 conv that IREE runs faster without im2col as a generic, which
IREE's im2col leaves alone.

IREE's `--iree-global-opt-use-im2col-for-convs` (the zoo's best CPU flags, with data tiling)
rewrites every named conv into an im2col copy and a data-tiled matmul. The copy is no
small cost: on YOLOv5nu it is about a third of the dispatch time of a call (the
`generic_CxKhxKwxHxW` dispatches of `benchmarks/bench_iree_dispatch_times.py`). The flag
takes named convs only; the same conv written as a `linalg.generic` is compiled by IREE's
direct conv code, which tiles the output row and vectorises along W.

`benchmarks/bench_direct_conv.py` times both forms of one conv layer (with its bias and
SiLU) at the zoo's shapes and around the rule's edges, with the best flags. Generic / named:

- what `direct_pays` takes: 0.29-0.99x (YOLO's layers at 320: 0.29-0.78x; ResNet's 64
  filters at 16x16 0.84x; DenseNet's 32 at 16x16 and 8x8 0.93x and 0.84x), one tie at
  1.02x (32 filters at 32x32);
- an output row of 10, 15, 17 or 20: 0.98-1.24x (17: 8.6x); 8 high and 40 wide 1.11x;
- 24, 40, 48 or 56 filters: 1.03-1.27x; 96 or 128: 0.81-1.05x, not taken;
- stride 2: 3.5-4.1x; torch-mlir's f16 form (f16 operands, f32 accumulator): 2.0-3.0x.

On the zoo's f32 models with such convs (ResNet-18 / -10t, DenseNet-121, MobileViT-XS, the
three YOLO detectors) the whole call ran 1-10% faster than heirpy's output without it (two
code layouts a side; docs/iree.md has the zoo's timed run). A 1x1 conv is no concern: IREE
runs it as a matmul without an im2col. The rule is tied to the flag, so only
`iree-prepare{im2col=true}` runs this pass; without the flag IREE compiles the named op
and the generic alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.dialects.linalg_structured import Conv2DNchwFchwOp
from heirpy.ir.utils import element_type, static_shape
from heirpy.transforms.rewrite import OpPattern, PatternSet, apply_pattern_sets

WIDTH_MULTIPLE = 8
"""The output row must be a whole number of this many f32 lanes (measured: W = 8, 16, 32,
40, 80 pay; 10, 15, 17 and 20 do not). A row whose width is no power of two must also be no
wider than the output is high: 8 high and 40 wide ran 1.11x, 16 high and 24 wide 0.99x,
where 40 x 40 ran 0.67x, 16 high and 32 wide 0.82x, 40 high and 8 wide 0.79x."""

MAX_FILTERS = 80
"""The most output channels the direct form is taken for (80 at 40x40: 0.75x; 96 and 128
pay at 32x32 and 40x40 but not at 16x16 or 10x10)."""

MIN_WIDE_FILTERS = 64
"""From this many filters up IREE's direct conv runs near its best (about 43 multiply-adds a
nanosecond on this machine); under it only a power-of-two count does (16 and 32: 0.52-0.93x;
24, 40, 48 and 56: 1.0-1.3x)."""

KERNEL = (3, 3)
"""The only window measured."""


def filters_pay(filters: int) -> bool:
    """Whether IREE's direct conv is fast for this many filters: `MIN_WIDE_FILTERS` to
    `MAX_FILTERS`, or a power of two under them."""
    if filters <= 0 or filters > MAX_FILTERS:
        return False
    return filters >= MIN_WIDE_FILTERS or filters & (filters - 1) == 0


def direct_pays(
    input_shape: tuple[int, ...] | None,
    filter_shape: tuple[int, ...] | None,
    output_shape: tuple[int, ...] | None,
    strides: tuple[int, ...],
    dilations: tuple[int, ...],
    all_f32: bool,
) -> bool:
    """Whether IREE's direct conv beats its im2col for this `conv_2d_nchw_fchw`: static
    shapes, all operands f32, a 3x3 window, unit strides and dilations, an output row a
    multiple of `WIDTH_MULTIPLE` wide (a power of two, or no wider than the output is high),
    a filter count `filters_pay` takes."""
    if input_shape is None or filter_shape is None or output_shape is None:
        return False
    if len(filter_shape) != 4 or len(output_shape) != 4 or not all_f32:
        return False
    filters, _, kh, kw = filter_shape
    height, width = output_shape[2], output_shape[3]
    return (
        (kh, kw) == KERNEL
        and all(s == 1 for s in strides)
        and all(d == 1 for d in dilations)
        and width > 0
        and width % WIDTH_MULTIPLE == 0
        and (width & (width - 1) == 0 or width <= height)
        and filters_pay(filters)
    )


def as_generic(op: Conv2DNchwFchwOp) -> GenericOp:
    """`op` as a `linalg.generic` with its own maps, iterators and body (MLIR's definition,
    casts included): the same sums in the same order."""
    generic = GenericOp(
        list(op.inputs), list(op.outputs), op.body.clone(), list(op.get_indexing_maps()),
        list(op.get_iterator_types()), [r.type for r in op.results],
    )
    for new, old in zip(generic.results, op.results, strict=True):
        new.name_hint = old.name_hint
    return generic


@dataclass
class GeneralizeDirectConv(OpPattern[Conv2DNchwFchwOp]):
    """A conv IREE runs faster direct ==> the same conv as a `linalg.generic`.

        %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
               strides = dense<1> : vector<2xi64>}
               ins(%x, %w : tensor<1x64x42x42xf32>, tensor<64x64x3x3xf32>)
               outs(%init : tensor<1x64x40x40xf32>) -> tensor<1x64x40x40xf32>
      ==>
        %r = linalg.generic {indexing_maps = [
                 affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>,
                 affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>,
                 affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>],
               iterator_types = ["parallel" x 4, "reduction" x 3]}
               ins(%x, %w : ...) outs(%init : ...) {
          ^bb0(%a: f32, %b: f32, %c: f32):
            %m = arith.mulf %a, %b : f32
            %s = arith.addf %c, %m : f32
            linalg.yield %s : f32
        } -> tensor<1x64x40x40xf32>

    The maps, iterators and body are the named op's own (MLIR's definition), so the
    generic computes the same sums in the same order. Legality: `direct_pays`.
    """

    op_types = (Conv2DNchwFchwOp,)

    everywhere: bool = False
    """Generalise every `conv_2d_nchw_fchw`, whatever `direct_pays` says (what
    `benchmarks/bench_direct_conv.py` times the rule against)."""

    def rewrite(self, op: Conv2DNchwFchwOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.results) != 1:
            return
        result_type = op.results[0].type
        if not isinstance(result_type, TensorType):
            return
        x, w = op.inputs
        init = op.outputs[0]
        all_f32 = all(isinstance(element_type(v.type), Float32Type) for v in (x, w, init))
        strides, dilations = op.window()
        if not self.everywhere and not direct_pays(
            static_shape(x.type), static_shape(w.type), static_shape(result_type),
            tuple(strides), tuple(dilations), all_f32,
        ):
            return
        rewriter.replace(op, [as_generic(op)])


def populate_generalize_direct_conv_patterns(everywhere: bool = False) -> list[PatternSet]:
    """The one pattern (`everywhere`: whatever the rule says)."""
    return [PatternSet.of(GeneralizeDirectConv(everywhere))]


@dataclass(frozen=True)
class GeneralizeDirectConvPass(ModulePass):
    """3x3 unit-stride f32 convs IREE runs faster direct, written as generics its im2col skips.

        %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
               strides = dense<1> : vector<2xi64>}
               ins(%x, %w : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>)
               outs(%z : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
      ==>
        %r = linalg.generic {indexing_maps = [(n, f, h, w, c, kh, kw) -> (n, c, h + kh, w + kw),
               (...) -> (f, c, kh, kw), (...) -> (n, f, h, w)], ...} ins(%x, %w) outs(%z) {
          mulf, addf }

    (tests/filecheck/transforms/generalize-direct-conv/docstring.mlir runs this example.)
    For IREE's best CPU flags only (the last step of `iree-prepare{im2col=true}`): IREE's
    `--iree-global-opt-use-im2col-for-convs` turns every named conv into an im2col copy and
    a matmul, and for a 3x3 unit-stride f32 conv with an output row a multiple of 8 wide
    (a power of two, or no wider than the output is high) and 64-80 filters or a power of
    two under 64 (`direct_pays`) its direct conv is faster (0.29-0.99x, one tie at 1.02x,
    `benchmarks/bench_direct_conv.py`). Other convs keep their named op.
    """

    name = "generalize-direct-conv"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, populate_generalize_direct_conv_patterns())
