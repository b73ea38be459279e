"""Unroll a unit-stride depthwise conv's window into a sum of shifted slices: the form of
a depthwise conv that IREE's CPU back end vectorises.

IREE 3.13 (llvm-cpu) folds the unit batch of `linalg.depthwise_conv_2d_nchw_chw` and
compiles the rest as a generic whose input map reads `(c, h + kh, w + kw)`; its
vectoriser does not take that map, so the conv runs as scalar loops (`vfmadd231ss`
over 3 taps, the accumulator on the stack), whose speed also moves with where the
linker puts them: on MobileNetV2 the same executable took 51 us or 69 us per call
(docs/iree.md, "Whole networks"). Written as one elementwise generic over the output,
with one `tensor.extract_slice` of the input per tap, the conv is a multiply-add of
identity-mapped operands: IREE vectorises it along W and fuses the slices, the bias and
the activation after it into the same dispatch. MobileNetV2's unit-stride depthwise
dispatches ran 12-22x faster and the net 0.63x raw (`benchmarks/bench_iree.py`,
`bench_iree_dispatch_times.py`). A strided conv keeps its named op: its slices are strided
reads, no faster in a scratch measurement of MobileNetV2's strided layers (1.5x slower
for 96 channels at 32x32).

This is a form for IREE, not for HEIR: a slice of a ciphertext is a rotation there,
so only `iree-prepare` runs this pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ModuleOp, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.constants import NO_BLOBS, Blobs, ContextBlobs, constant_array, dense_constant
from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import DepthwiseConv2DNchwChwOp, GenericOp, IteratorTypeAttr, YieldOp
from heirpy.ir.utils import element_type, i64_array, static_shape
from heirpy.transforms.rewrite import OpPattern, PatternSet, apply_pattern_sets

MAX_TAPS = 49
"""The largest window unrolled (7x7, ConvNeXt's, the largest measured); a larger one keeps
its named op. `benchmarks/bench_depthwise_unroll.py` times 3x3, 5x5 and 7x7 at the zoo's
layer shapes: unrolled, 0.15-0.92x the named op with IREE's best CPU flags, f32 and f16."""


def unrollable(
    input_shape: tuple[int, ...] | None,
    filter_shape: tuple[int, ...] | None,
    strides: tuple[int, ...],
    element: Attribute,
    max_taps: int = MAX_TAPS,
) -> bool:
    """Whether a depthwise conv may be unrolled: static 4-D input and 3-D filter, float
    elements, unit strides (a strided slice is no faster for IREE), at most `max_taps` taps."""
    if input_shape is None or filter_shape is None or len(input_shape) != 4 or len(filter_shape) != 3:
        return False
    taps = filter_shape[1] * filter_shape[2]
    return isinstance(element, AnyFloat) and all(s == 1 for s in strides) and 0 < taps <= max_taps


def extract_slice(
    source: SSAValue, offsets: list[int], sizes: list[int], result_shape: list[int]
) -> tensor.ExtractSliceOp:
    """A unit-stride `tensor.extract_slice` of `source` (rank-reducing when `result_shape`
    drops unit sizes). Not xDSL's `from_static_parameters`: with `reduce_rank` it writes
    the reduced shape into `static_sizes` too, which the verifier rejects."""
    source_type = source.type
    assert isinstance(source_type, TensorType)
    return tensor.ExtractSliceOp.build(
        operands=[source, [], [], []],
        result_types=[TensorType(source_type.get_element_type(), result_shape)],
        properties={
            "static_offsets": i64_array(offsets),
            "static_sizes": i64_array(sizes),
            "static_strides": i64_array([1] * len(offsets)),
        },
    )


def tap_weights(filter: SSAValue, blobs: Blobs) -> list[Operation]:
    """One per-channel weight vector per tap, in the conv's loop order (kh, then kw): a
    dense constant each when the filter is a constant, else a slice of it."""
    shape = static_shape(filter.type)
    assert shape is not None
    channels, kh, kw = shape
    vector = TensorType(element_type(filter.type), [channels])
    weights = constant_array(filter, blobs)
    if weights is not None:
        return [dense_constant(weights[:, i, j].copy(), vector) for i in range(kh) for j in range(kw)]
    return [extract_slice(filter, [0, i, j], [channels, 1, 1], [channels]) for i in range(kh) for j in range(kw)]




def to_accumulator(value: SSAValue, element: Attribute) -> SSAValue:
    """`value` cast to the float type `element` (`extf` up, `truncf` down), as a named
    linalg op casts each input to its output's type; `value` itself when it has it."""
    if value.type == element:
        return value
    assert isinstance(value.type, AnyFloat) and isinstance(element, AnyFloat)
    cast = arith.ExtFOp if value.type.bitwidth < element.bitwidth else arith.TruncFOp
    return cast(value, element).result


@dataclass
class UnrollDepthwiseConv(OpPattern[DepthwiseConv2DNchwChwOp]):
    """A unit-stride depthwise conv ==> one elementwise generic summing its taps.

        %r = linalg.depthwise_conv_2d_nchw_chw {strides = 1, dilations = [dh, dw]}
               ins(%x, %w : tensor<NxCxHxWxf32>, tensor<CxKhxKwxf32>)
               outs(%init : tensor<NxCxOHxOWxf32>)
      ==>
        %x_ij = tensor.extract_slice %x[0, 0, i*dh, j*dw] [N, C, OH, OW] [1, 1, 1, 1]  (each tap)
        %w_ij = arith.constant <%w[:, i, j]> : tensor<Cxf32>       (a slice if %w is not constant)
        %e = tensor.empty() : tensor<NxCxOHxOWxf32>
        %r = linalg.generic {indexing_maps = [id, ..., (d0, d1, d2, d3) -> (d1), ..., id, id],
               iterator_types = [parallel x 4]} ins(%x_00, ..., %w_00, ..., %init) outs(%e) {
          %acc = init + x_00 * w_00 + x_01 * w_01 + ...    (the conv's order: kh, then kw)
          linalg.yield %acc }

    Legality (`unrollable`): static shapes, float elements, unit strides, at most
    `MAX_TAPS` taps. The sum is the conv's, term by term in its loop order.
    """

    op_types = (DepthwiseConv2DNchwChwOp,)

    blobs: Blobs
    max_taps: int = MAX_TAPS

    def rewrite(self, op: DepthwiseConv2DNchwChwOp, rewriter: PatternRewriter) -> None:
        x, w, init = op.operands
        result_type = op.results[0].type
        input_shape, filter_shape = static_shape(x.type), static_shape(w.type)
        out_shape = static_shape(result_type)
        if out_shape is None or not isinstance(result_type, TensorType):
            return
        element = result_type.get_element_type()
        if not unrollable(input_shape, filter_shape, op.window_strides(), element, self.max_taps):
            return
        if not (isinstance(element_type(x.type), AnyFloat) and isinstance(element_type(w.type), AnyFloat)):
            return  # the casts below are float casts
        assert filter_shape is not None
        dh, dw = op.window_dilations()
        n, c, oh, ow = out_shape
        taps = [(i * dh, j * dw) for i in range(filter_shape[1]) for j in range(filter_shape[2])]
        slices = [extract_slice(x, [0, 0, i, j], [n, c, oh, ow], [n, c, oh, ow]) for i, j in taps]
        weights = tap_weights(w, self.blobs)
        empty = tensor.EmptyOp([], result_type)

        # Each block argument has its operand's element type (torch-mlir's half conv reads
        # f16 and accumulates in f32); the body casts to the accumulator's type, as the
        # named op does, before it multiplies.
        x_element, w_element = element_type(x.type), element_type(w.type)
        arg_types = [x_element] * len(taps) + [w_element] * len(taps) + [element, element]

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            acc: SSAValue = args[2 * len(taps)]
            for k in range(len(taps)):
                tap = to_accumulator(args[k], element)
                weight = to_accumulator(args[len(taps) + k], element)
                product = arith.MulfOp(tap, weight)
                acc = arith.AddfOp(acc, product.result).result
            YieldOp(acc)

        identity = AffineMapAttr(AffineMap.identity(4))
        channel = AffineMapAttr(AffineMap(4, 0, (AffineExpr.dimension(1),)))
        generic = GenericOp(
            [*(s.result for s in slices), *(v.results[0] for v in weights), init],
            [empty.tensor],
            body,
            [identity] * len(taps) + [channel] * len(taps) + [identity, identity],
            [IteratorTypeAttr.parallel()] * 4,
            [result_type],
        )
        # Readable names instead of copies of the replaced result's name.
        for part, hint in ((slices, "tap"), (weights, "tap_weight"), ([empty], "taps_sum")):
            for new_op in part:
                new_op.results[0].name_hint = hint
        generic.results[0].name_hint = op.results[0].name_hint
        rewriter.replace(op, [*slices, *weights, empty, generic])


def populate_unroll_depthwise_conv_patterns(ctx: Context | None = None, max_taps: int = MAX_TAPS) -> list[PatternSet]:
    """The one pattern, reading constant filters through `ctx`'s blobs."""
    return [PatternSet.of(UnrollDepthwiseConv(NO_BLOBS if ctx is None else ContextBlobs(ctx), max_taps))]


@dataclass(frozen=True)
class UnrollDepthwiseConvPass(ModulePass):
    """Unit-stride depthwise convs as one elementwise sum of shifted slices (IREE vectorises it).

        %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>,
               strides = dense<1> : vector<2xi64>}
               ins(%x, %w : tensor<1x2x4x4xf32>, tensor<2x2x2xf32>) outs(%b : tensor<1x2x3x3xf32>)
      ==>  (with %w a constant)
        %s0 = tensor.extract_slice %x[0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1]   (and [0, 0, 0, 1], ...)
        %w0 = arith.constant dense<[w[0, 0, 0], w[1, 0, 0]]> : tensor<2xf32>  (one per tap)
        %r = linalg.generic {...} ins(%s0, %s1, %s2, %s3, %w0, %w1, %w2, %w3, %b)
               outs(%e) { b + s0 * w0 + s1 * w1 + s2 * w2 + s3 * w3 }

    (tests/filecheck/transforms/unroll-depthwise-conv/docstring.mlir runs this example.)
    For IREE only (the last step of `iree-prepare`): IREE compiles the
    named NCHW depthwise conv to scalar loops; this form vectorises, and MobileNetV2's
    unit-stride depthwise dispatches run 12-22x faster (docs/iree.md), ConvNeXt's 7x7 ones
    1.4-5.6x. Strided convs and windows over 7x7 (`max-taps`) keep their named op.
    """

    name = "unroll-depthwise-conv"

    max_taps: int = MAX_TAPS
    """The largest window unrolled, in taps (`MAX_TAPS` by default)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, populate_unroll_depthwise_conv_patterns(ctx, self.max_taps))
