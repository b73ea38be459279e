"""Lower heirpy's `tensor_ext` ops to standard linalg, for heir-opt and iree-opt.

One rewrite pattern per op kind; `populate_lower_tensor_ext_patterns()` lists them. An op kind
with no pattern here is left untouched (the pass never drops what it does not know): a
new tensor_ext op brings its own pattern class and one line in that list. heir-opt
rejects heirpy's `tensor_ext` ops (HEIR has its own dialect of that name), so any IR for
heir-opt or iree-opt goes through this pass first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
)

from heirpy.ir.constants import NO_BLOBS, ContextBlobs, constant_array, dense_constant
from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.dialects.linalg import (
    BroadcastOp,
    Conv2DNchwFchwOp,
    FillOp,
    GenericOp,
    IteratorTypeAttr,
    PoolingNchwSumOp,
    YieldOp,
)
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp
from heirpy.ir.utils import element_type, i64_array, int_pair, shape_of, static_shape
from heirpy.transforms.linear.filter_compose import ConvPoolGeometry, compose_filter, pooled_constant
from heirpy.transforms.linear.linalg_fuse_conv_pool import NO_SPELLING, ConvPoolSpelling
from heirpy.transforms.lowering.expand_reads import ExpandMixedRadixReads, ExpandMixedRadixWrites
from heirpy.transforms.lowering.lower_kernel import LowerKernel, LowerKernelToLayoutOps
from heirpy.transforms.rewrite import OpPattern, PatternSet, apply_pattern_sets


def _scalar_attr(value: float | int, element: Attribute) -> FloatAttr | IntegerAttr:
    if isinstance(element, AnyFloat):
        return FloatAttr(float(value), element)
    assert isinstance(element, IntegerType | IndexType), f"no scalar of type {element}"
    return IntegerAttr(int(value), element)


# ------------------------------------------------------------------------ IR builders
def splat_tensor(value: float | int, type_: TensorType) -> list[Operation]:
    """`linalg.fill` of a scalar constant: how front ends write a uniform tensor."""
    scalar = arith.ConstantOp(_scalar_attr(value, type_.get_element_type()))
    empty = tensor.EmptyOp([], type_)
    fill = FillOp([scalar.result], [empty.tensor], [type_])
    return [scalar, empty, fill]


def constant_tensor(array: np.ndarray, type_: TensorType) -> list[Operation]:
    """The cheapest standard form of a folded NCHW constant: a fill when uniform, a
    per-channel vector broadcast over N, H, W (torch-mlir's bias form), else a dense
    constant. The last op's result is the value."""
    if array.size and np.all(array == array.flat[0]):
        return splat_tensor(array.flat[0].item(), type_)
    if array.ndim == 4:
        per_channel = array[0, :, 0, 0]
        if np.all(array == per_channel[None, :, None, None]):
            vector_type = TensorType(type_.get_element_type(), [array.shape[1]])
            bias = dense_constant(per_channel, vector_type)
            empty = tensor.EmptyOp([], type_)
            broadcast = BroadcastOp(
                bias.result, empty.tensor, i64_array([0, 2, 3])
            )
            return [bias, empty, broadcast]
    return [dense_constant(array, type_)]


def divide_by_constant(value: SSAValue, divisor: float) -> list[Operation]:
    """`linalg.generic` computing `value / divisor` elementwise (float tensors)."""
    type_ = value.type
    assert isinstance(type_, TensorType)
    element = type_.get_element_type()
    rank = len(type_.get_shape())
    empty = tensor.EmptyOp([], type_)

    @Builder.implicit_region((element, element))
    def body(args: tuple[BlockArgument, ...]) -> None:
        constant = arith.ConstantOp(FloatAttr(divisor, element))
        quotient = arith.DivfOp(args[0], constant.result)
        YieldOp(quotient.result)

    identity = AffineMapAttr(AffineMap.identity(rank))
    generic = GenericOp(
        [value],
        [empty.tensor],
        body,
        [identity, identity],
        [IteratorTypeAttr.parallel()] * rank,
        [type_],
    )
    return [empty, generic]


def sum_pool(
    value: SSAValue,
    init: SSAValue,
    window: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    spelling: ConvPoolSpelling = NO_SPELLING,
) -> list[Operation]:
    """`linalg.pooling_nchw_sum` of `value` into `init` (the window operand is empty),
    its `strides` / `dilations` spelled as `spelling`'s pool."""
    element = element_type(init.type)
    window_tensor = tensor.EmptyOp([], TensorType(element, list(window)))
    strides_attr, dilations_attr = spelling.pool_attrs(tuple(strides), tuple(dilations))
    pool = PoolingNchwSumOp(
        [value, window_tensor.tensor],
        [init],
        [init.type],
        strides=strides_attr,
        dilations=dilations_attr,
    )
    return [window_tensor, pool]


def composed_filter_ops(
    filter: SSAValue, geometry: ConvPoolGeometry, divisor: float | None
) -> list[Operation]:
    """Standard linalg computing `compose_filter` on a filter known only at run time.

    The composed filter is a sum pool of the filter itself: dilate it (a strided
    `tensor.insert_slice` into zeros) with a margin of `(P-1)*e*s` zeros on each side,
    then sum-pool with window P, stride 1 and dilation `e*s`:
    `G[j] = sum_q Kpad[j + q*e*s] = sum_py Kdil[j - py*e*s]`, the formula of
    `heirpy.transforms.linear.filter_compose`. Plaintext work only: no level is spent on it.
    """
    filter_type = filter.type
    assert isinstance(filter_type, TensorType)
    element = filter_type.get_element_type()
    f, c, kh, kw = filter_type.get_shape()
    (dh, dw), (ph, pw) = geometry.conv_dilations, geometry.pool_window
    margin = tuple((p - 1) * step for p, step in zip((ph, pw), geometry.pool_offset_step()))
    dilated = ((kh - 1) * dh + 1, (kw - 1) * dw + 1)
    padded_type = TensorType(element, [f, c, *(d + 2 * m for d, m in zip(dilated, margin))])
    zeros = splat_tensor(0, padded_type)
    placed = tensor.InsertSliceOp.from_static_parameters(
        filter, zeros[-1].results[0], [0, 0, *margin], [f, c, kh, kw], [1, 1, dh, dw]
    )
    composed_type = TensorType(element, [f, c, *geometry.composed_size()])
    accumulator = splat_tensor(0, composed_type)
    pooled = sum_pool(
        placed.result, accumulator[-1].results[0], (ph, pw), (1, 1), geometry.pool_offset_step()
    )
    ops: list[Operation] = [*zeros, placed, *accumulator, *pooled]
    if divisor is not None:
        ops += divide_by_constant(pooled[-1].results[0], divisor)
    return ops


# ------------------------------------------------------------------------ patterns
def fused_geometry(op: FusedConvPoolOp) -> ConvPoolGeometry:
    filter_shape = shape_of(op.filter)
    assert filter_shape is not None  # the verifier requires a 4-D filter
    return ConvPoolGeometry(
        filter_size=(filter_shape[2], filter_shape[3]),
        conv_strides=int_pair(op.int_values("conv_strides")),
        conv_dilations=int_pair(op.int_values("conv_dilations")),
        pool_window=int_pair(op.int_values("pool_window")),
        pool_strides=int_pair(op.int_values("pool_strides")),
        pool_dilations=int_pair(op.int_values("pool_dilations")),
    )


@dataclass
class LowerFusedConvPool(OpPattern[FusedConvPoolOp]):
    """tensor_ext.fused_conv_pool  ==>  ONE linalg.conv_2d_nchw_fchw with the composed filter.

        %r = tensor_ext.fused_conv_pool {conv_strides = S, conv_dilations = D,
               pool_window = P, pool_strides = T, pool_dilations = E, divisor = V}
               ins(%x, %w, %ci) outs(%pi)
      ==>
        %g = <composed filter of %w: size (K-1)*D + (P-1)*E*S + 1, divided by V>
        %k = <constant term: (%pi + sumpool(%ci)) / V>
        %r = linalg.conv_2d_nchw_fchw {strides = S*T, dilations = 1} ins(%x, %g) outs(%k)

    `%g` is an `arith.constant` when `%w` is a constant (dense, splat or
    dense_resource), else `composed_filter_ops` computes it with standard linalg.
    `%k` is folded (fill / per-channel broadcast / dense constant) when both inits are
    constants, else computed by a `pooling_nchw_sum` (and a divide) on the inits.
    With `fold_init_term=False` (`linalg-canonicalizations`, HEIR's form) `%k` is always
    that pool, even of constants: it is plaintext work, which that pass turns into a
    conv of constants and `linalg-fuse-linear-ops` folds (`FoldPlaintextLinearOp`).
    The conv's `strides` / `dilations` are `vector<2xi64>`, or spelled as the replaced
    conv's (and that pool's as the replaced pool's) for an op in `spellings`.
    Legal when: all shapes are static.
    """

    op_types = (FusedConvPoolOp,)

    ctx: Context | None = field(default=None)
    spellings: Mapping[FusedConvPoolOp, ConvPoolSpelling] = field(default_factory=dict)
    fold_init_term: bool = True
    """Fold `%k` with numpy when both inits are constants (else always pool them)."""

    def rewrite(self, op: FusedConvPoolOp, rewriter: PatternRewriter) -> None:
        operands = (op.input, op.filter, op.conv_init, op.pool_init)
        if any(static_shape(v.type) is None for v in operands):
            return
        geometry = fused_geometry(op)
        divisor = op.divisor_value()
        spelling = self.spellings.get(op, NO_SPELLING)
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        new_ops: list[Operation] = []

        blobs = NO_BLOBS if self.ctx is None else ContextBlobs(self.ctx)
        weights = constant_array(op.filter, blobs)
        if weights is not None:
            composed_type = TensorType(  # the filter's own (storage) element type
                element_type(op.filter.type), [*weights.shape[:2], *geometry.composed_size()]
            )
            new_ops.append(dense_constant(compose_filter(weights, geometry, divisor), composed_type))
        else:
            new_ops += composed_filter_ops(op.filter, geometry, divisor)
        composed = new_ops[-1].results[0]

        conv_init = constant_array(op.conv_init, blobs)
        pool_init = constant_array(op.pool_init, blobs)
        term: SSAValue = op.pool_init
        if self.fold_init_term and conv_init is not None and pool_init is not None:
            new_ops += constant_tensor(
                pooled_constant(conv_init, pool_init, geometry, divisor), result_type
            )
            term = new_ops[-1].results[0]
        else:
            # A zero conv init adds nothing; HEIR's form pools it all the same.
            if not self.fold_init_term or conv_init is None or np.any(conv_init != 0):
                new_ops += sum_pool(
                    op.conv_init,
                    op.pool_init,
                    geometry.pool_window,
                    geometry.pool_strides,
                    geometry.pool_dilations,
                    spelling,
                )
                term = new_ops[-1].results[0]
            if divisor is not None:
                new_ops += divide_by_constant(term, divisor)
                term = new_ops[-1].results[0]

        strides, dilations = spelling.conv_attrs(geometry.composed_strides(), (1, 1))
        conv = Conv2DNchwFchwOp([op.input, composed], [term], [result_type], strides=strides, dilations=dilations)
        # Readable names instead of copies of the replaced result's name.
        for new_op in new_ops:
            for result in new_op.results:
                result.name_hint = "fcp"
        composed.name_hint = "composed_filter"
        if term is not op.pool_init:
            term.name_hint = "conv_pool_init"
        rewriter.replace(op, [*new_ops, conv])


TARGETS = ("cpu", "gpu")


def populate_lower_tensor_ext_patterns(
    ctx: Context | None = None, *, layout_ops: bool = True, target: str = "cpu"
) -> list[PatternSet]:
    """One pattern per tensor_ext op kind (ops without one stay as they are), and, with
    `layout_ops`, the kernel lowering and read expansion that real compilers want, in
    the form for `target` (one of `TARGETS`)."""
    if not layout_ops:
        return [PatternSet.of(LowerFusedConvPool(ctx), LowerKernel())]
    blobs = NO_BLOBS if ctx is None else ContextBlobs(ctx)
    return [
        PatternSet.of(
            LowerFusedConvPool(ctx),
            LowerKernelToLayoutOps(blobs, target),
            ExpandMixedRadixReads(),
            ExpandMixedRadixWrites(),
        )
    ]


@dataclass(frozen=True)
class LowerTensorExtPass(ModulePass):
    """Lower heirpy's tensor_ext ops to linalg (fused_conv_pool -> one conv, kernel -> root + reshape + epilogue).

        %r = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>,
               conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>,
               pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>,
               divisor = 4.0 : f64}
               ins(%x, %w, %ci : tensor<1x1x6x6xf32>, tensor<1x1x1x1xf32>, tensor<1x1x6x6xf32>)
               outs(%pi : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
      ==>  (with %w = dense<2.0>, %ci and %pi zero fills)
        %g = arith.constant dense<5.000000e-01> : tensor<1x1x2x2xf32>
        %k = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
        %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
               strides = dense<2> : vector<2xi64>} ins(%x, %g) outs(%k) -> tensor<1x1x3x3xf32>

    (tests/filecheck/transforms/lower-tensor-ext/docstring.mlir runs this example.)

    A `tensor_ext.kernel` (root + pointwise epilogue) becomes the root with a zero init,
    its result's reshape as `tensor.expand_shape` (its transpose as `linalg.transpose`
    where IREE folds that into the root: a 1x1 unit-stride conv), and the epilogue with
    the old init (the bias) added there; any generic reading an operand through a
    mixed-radix map (`d1 * 85 + d4`) reads an `expand_shape` view instead
    (`LowerKernelToLayoutOps`, `ExpandMixedRadixReads`). Measured with IREE 3.13
    (benchmarks/bench_iree.py): the YOLO head with a 1x1 conv compiles to 1 dispatch and
    runs ~2.5x faster than the raw torch-mlir IR, where the inlined kernel gave 2
    dispatches and ran 1.2x slower; the 3x3 head and the other cases compile to what the
    raw IR compiles to. HEIR is not affected: only the YOLO nets have such kernels, and
    heir-opt rejects their expand_shape in the raw IR too.
    Option `layout-ops` (default true); `layout-ops=false` inlines each kernel's body as
    it is (root + one generic whose maps carry the layout change) and keeps mixed-radix
    maps, heirpy's own view of a kernel.
    Option `target` (`cpu`, the default, or `gpu`): `gpu` writes a kernel whose root is a
    1x1 unit-stride conv as a contraction generic with the weights first, in the
    epilogue's loop order (still one IREE dispatch; the tiles IREE's CUDA and ROCm
    heuristics pick for it are 32x32 where the default form gets 128x8: docs/iree.md).
    """

    name = "lower-tensor-ext"

    layout_ops: bool = True
    target: str = "cpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in TARGETS:
            raise HeirpyError(
                f"error: lower-tensor-ext{{target={self.target}}}: expected one of {', '.join(TARGETS)}"
            )
        apply_pattern_sets(
            op, populate_lower_tensor_ext_patterns(ctx, layout_ops=self.layout_ops, target=self.target)
        )
