"""Fuse a conv followed by a sum / average pool into one `tensor_ext.fused_conv_pool`.

    %c = linalg.conv_2d_nchw_fchw {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>}
           ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%bias : tensor<1x2x4x4xf32>)
           -> tensor<1x2x4x4xf32>
    %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>}
           ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>) outs(%zero : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %a = linalg.generic {... parallel ...} ins(%p : tensor<1x2x2x2xf32>) outs(%e : tensor<1x2x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %q = arith.divf %in, %cst_4 : f32          // %cst_4 = arith.constant 4.0 : f32
      linalg.yield %q : f32
    } -> tensor<1x2x2x2xf32>

becomes

    %a = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>,
           pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>,
           divisor = 4.0 : f64} ins(%x, %w, %bias : ...) outs(%zero : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>

Two patterns, applied to a fixpoint: `FuseConvIntoSumPool` makes the op (no divisor),
`FoldScaleIntoFusedConvPool` then absorbs a following divide / multiply by a uniform
constant into `divisor`. The filter stays an operand, so function-argument weights fuse
as well as constants; composing the filter is `lower-tensor-ext`'s job.

Whether the fusion is worth it is the linear-chain cost rule's call (`fusion_cost.py`):
the composed filter saves one level and has `GH*GW / (KH*KW)` times the conv's weights
(16/9 for a 3x3 conv and a 2x2 pool), so `policy=size` keeps every such pair apart and
the default (`balanced`, 4x per level) keeps apart a 1x1 conv and a 3x3 pool (9x) or a
conv and a global pool. `conv_pool_cost` gives the figures.

`conv_pool_patterns(rule)` is the pattern group; `linalg-fuse-ops` and
`linalg-canonicalizations` import it, `linalg-fuse-conv-pool` runs it alone; all three
take the rule's options (`policy`, `max-weight-growth`, `max-mac-growth`). Given a
`SpellingTable`, the patterns note for each fused op how the conv and the pool wrote
their `strides` / `dilations` (`ConvPoolSpelling`), so that `linalg-canonicalizations`,
lowering the ops it made, writes them back the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, ModuleOp
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
)

from heirpy.ir.constants import NO_BLOBS, scalar_constant
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp, PoolingNchwSumOp, YieldOp
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp
from heirpy.ir.utils import (
    affine_maps,
    all_parallel,
    element_type,
    i64_elements_like,
    int_pair,
    is_identity,
    static_shape,
)
from heirpy.transforms.linear.filter_compose import ConvPoolGeometry
from heirpy.transforms.linear.fusion_cost import (
    DEFAULT_MAX_DIAGONAL_GROWTH,
    DEFAULT_MAX_WEIGHT_GROWTH,
    DEFAULT_ORION_SLOTS,
    DEFAULT_POLICY,
    CostRule,
    FusionCost,
    cost_rule,
)
from heirpy.transforms.linear.mixed_precision import (
    populate_mixed_precision_patterns,
    populate_narrow_unused_widening_patterns,
)
from heirpy.transforms.linear.orion_cost import conv_pool_diagonals
from heirpy.transforms.rewrite import OpPattern, PatternSet, apply_pattern_sets

Shape = tuple[int, ...]


# ------------------------------------------------------------------------ spelling
@dataclass(frozen=True)
class ConvPoolSpelling:
    """The `strides` and `dilations` attributes of the conv and of the pool that a
    `fused_conv_pool` replaced, as written (None where the op left one to its default).

    MLIR takes them as `dense<...> : vector<2xi64>` or `: tensor<2xi64>` and prints
    them as given; `fused_conv_pool` keeps only the numbers (`array<i64>`). When
    `linalg-canonicalizations` lowers a fused op it made back to a conv, the conv gets
    the conv's spelling and the pool of the conv's init the pool's, as in HEIR's tests
    (HEIR's pass builds that pool from the pool's own attributes; it writes the fused
    conv's as `tensor<2xi64>` always, which is the conv's spelling in its tests).
    """

    conv_strides: DenseIntOrFPElementsAttr | None = None
    conv_dilations: DenseIntOrFPElementsAttr | None = None
    pool_strides: DenseIntOrFPElementsAttr | None = None
    pool_dilations: DenseIntOrFPElementsAttr | None = None

    @staticmethod
    def of(conv: Conv2DNchwFchwOp, pool: PoolingNchwSumOp) -> ConvPoolSpelling:
        return ConvPoolSpelling(conv.strides, conv.dilations, pool.strides, pool.dilations)

    def conv_attrs(
        self, strides: Shape, dilations: Shape
    ) -> tuple[DenseIntOrFPElementsAttr, DenseIntOrFPElementsAttr]:
        """New conv `strides` / `dilations` spelled as the conv's (either one's type
        when the other was left out; `vector<2xi64>` when both were)."""
        return (
            i64_elements_like(strides, self.conv_strides, self.conv_dilations),
            i64_elements_like(dilations, self.conv_dilations, self.conv_strides),
        )

    def pool_attrs(
        self, strides: Shape, dilations: Shape
    ) -> tuple[DenseIntOrFPElementsAttr, DenseIntOrFPElementsAttr]:
        """New pool `strides` / `dilations` spelled as the pool's."""
        return (
            i64_elements_like(strides, self.pool_strides, self.pool_dilations),
            i64_elements_like(dilations, self.pool_dilations, self.pool_strides),
        )


NO_SPELLING = ConvPoolSpelling()
"""Nothing known of the replaced ops: new attributes are `vector<2xi64>`."""

SpellingTable = dict[FusedConvPoolOp, ConvPoolSpelling]
"""Per fused op of one pass run, the spelling of the ops it replaced."""


# ------------------------------------------------------------------------ legality
def conv_pool_fusable(
    input_shape: Shape,
    filter_shape: Shape,
    conv_shape: Shape,
    pool_shape: Shape,
    geometry: ConvPoolGeometry,
) -> str | None:
    """Why a conv of these shapes followed by a sum pool can NOT become a
    `fused_conv_pool`, or None when it can.

    The op's shape rules demand VALID windows: the conv's output is exactly
    `window_out_size` of its input, and the pool's of the conv's. MLIR also allows an
    output smaller than that (trailing input rows unread); those are left alone.
    """
    if len(input_shape) != 4 or len(filter_shape) != 4:
        return "not a 4-D NCHW conv"
    n, c, h, w = input_shape
    f, fc, kh, kw = filter_shape
    if fc != c or (kh, kw) != geometry.filter_size:
        return "filter does not match the input channels / window"
    expected_conv = (n, f, *geometry.conv_out_shape((h, w)))
    if conv_shape != expected_conv:
        return f"conv output {conv_shape} is not the VALID size {expected_conv}"
    expected_pool = (n, f, *geometry.pool_out_shape((h, w)))
    if pool_shape != expected_pool:
        return f"pool output {pool_shape} is not the VALID size {expected_pool}"
    if 0 in expected_pool:
        return "empty output"
    return None


# ------------------------------------------------------------------------ divide / scale
def conv_pool_cost(
    filter_shape: Shape, conv_shape: Shape, pool_shape: Shape, geometry: ConvPoolGeometry
) -> FusionCost:
    """What composing a conv and the sum pool after it into one conv saves and costs:
    one level; the filter grows from KH*KW to GH*GW taps per (F, C) pair; MACs per
    sample go from the conv's plus the pool's to the composed conv's."""
    f, c, kh, kw = filter_shape
    gh, gw = geometry.composed_size()
    n = conv_shape[0]
    conv_outputs = n * f * conv_shape[2] * conv_shape[3]
    pool_outputs = n * f * pool_shape[2] * pool_shape[3]
    return FusionCost(
        levels_saved=1,
        weights_before=f * c * kh * kw,
        weights_after=f * c * gh * gw,
        macs_before=conv_outputs * c * kh * kw + pool_outputs * geometry.window_count(),
        macs_after=pool_outputs * c * gh * gw,
        sum_adds_before=pool_outputs * geometry.window_count(),
    )


def _uniform_constant(value: SSAValue) -> float | None:
    """A float scalar constant or splat float tensor constant, else None."""
    got = scalar_constant(value, NO_BLOBS)  # torch-mlir's divisors are literals
    return float(got) if isinstance(got, float) else None


def _scale_of_body(generic: GenericOp, data_index: int) -> tuple[str, float] | None:
    """For a generic whose body is `yield data (/ or *) c` with a uniform constant c,
    return ('div' | 'mul', c). `c` may be an outer constant, a constant in the body, or
    a splat-constant input of the generic."""
    block = generic.body.block
    ops = list(block.ops)
    if not ops or not isinstance(ops[-1], YieldOp) or len(ops[-1].operands) != 1:
        return None
    if block.args[len(generic.inputs)].uses:  # the init's value must be unused
        return None
    computed = ops[-1].operands[0]
    if not isinstance(computed, OpResult):
        return None
    arith_op = computed.op
    body_rest = [op for op in ops[:-1] if op is not arith_op]
    if any(not isinstance(op, arith.ConstantOp) for op in body_rest):
        return None
    if not isinstance(arith_op, arith.DivfOp | arith.MulfOp) or arith_op.parent is not block:
        return None
    other = _scale_operand(arith_op, block.args[data_index])
    if other is None:
        return None
    if isinstance(other, BlockArgument) and other.block is block:
        index = other.index
        if index >= len(generic.inputs) or index == data_index:
            return None
        other = generic.inputs[index]
    constant = _uniform_constant(other)
    if constant is None:
        return None
    return ("div" if isinstance(arith_op, arith.DivfOp) else "mul", constant)


def _scale_operand(arith_op: arith.DivfOp | arith.MulfOp, data: SSAValue) -> SSAValue | None:
    """The other operand of `data / c` or `data * c` / `c * data`; None otherwise."""
    lhs, rhs = arith_op.lhs, arith_op.rhs
    if lhs is data:
        return rhs
    if rhs is data and isinstance(arith_op, arith.MulfOp):
        return lhs
    return None


def elementwise_scale(user: Operation, data: SSAValue) -> float | None:
    """If `user` computes `data / c` or `data * c` elementwise for ONE constant c, the
    divisor it amounts to (c, or 1/c for a multiply); else None.

    Understood forms: a `linalg.generic` with identity maps on `data` and its result,
    all loops parallel, body `divf %in, c` / `mulf %in, c` (what torch-mlir emits for
    an average pool), and `arith.divf` / `arith.mulf` on tensors with a splat constant.
    A non-uniform divisor (count_include_pad=False) is not a scale: it returns None.
    """
    result_type = data.type
    if isinstance(user, GenericOp):
        if len(user.outputs) != 1 or len(user.res) != 1 or user.res[0].type != result_type:
            return None
        if not all_parallel(user.iterator_types):
            return None
        positions = [i for i, operand in enumerate(user.inputs) if operand is data]
        if len(positions) != 1 or len(user.inputs) > 2:
            return None
        maps = affine_maps(user.indexing_maps)
        if not is_identity(maps[positions[0]]) or not is_identity(maps[-1]):
            return None
        scale = _scale_of_body(user, positions[0])
    elif isinstance(user, arith.DivfOp | arith.MulfOp):
        if user.result.type != result_type:
            return None
        if user.lhs is data and user.rhs is not data:
            constant = _uniform_constant(user.rhs)
        elif isinstance(user, arith.MulfOp) and user.rhs is data and user.lhs is not data:
            constant = _uniform_constant(user.lhs)
        else:
            return None
        if constant is None:
            return None
        scale = ("div" if isinstance(user, arith.DivfOp) else "mul", constant)
    else:
        return None
    if scale is None or scale[1] == 0.0:
        return None
    kind, constant = scale
    return constant if kind == "div" else 1.0 / constant


# ------------------------------------------------------------------------ patterns
def element_types_fusable(x: Attribute, w: Attribute, conv_init: Attribute, pool_init: Attribute) -> bool:
    """Pure legality of a fused op's element types (its verifier asks the same): one
    storage type for the input and the filter, one accumulator type for both inits, the
    accumulator the storage type or a wider float. torch-mlir's f16 conv reads f16 and
    accumulates in f32 (its pool sums in f32 once `mixed_precision` has moved the truncf
    past it)."""
    if x != w or conv_init != pool_init:
        return False
    if x == conv_init:
        return True
    return isinstance(x, AnyFloat) and isinstance(conv_init, AnyFloat) and x.bitwidth < conv_init.bitwidth


class FuseConvIntoSumPool(OpPattern[PoolingNchwSumOp]):
    """conv_2d_nchw_fchw -> pooling_nchw_sum  ==>  tensor_ext.fused_conv_pool.

        %c = linalg.conv_2d_nchw_fchw {strides = S, dilations = D} ins(%x, %w) outs(%ci)
        %p = linalg.pooling_nchw_sum {strides = T, dilations = E} ins(%c, %win) outs(%pi)
      ==>
        %p = tensor_ext.fused_conv_pool {conv_strides = S, conv_dilations = D,
               pool_window = shape(%win), pool_strides = T, pool_dilations = E}
               ins(%x, %w, %ci) outs(%pi)

    Legal when: the pool reads the conv's result and nothing else uses it; all shapes
    are static; conv and pool outputs have their VALID sizes (`conv_pool_fusable`);
    one element type throughout; the cost rule allows the composed filter's growth
    (`conv_pool_cost`). Any strides, dilations, window, batch, channels, conv init
    (bias) and pool init; the filter may be any value. With a `spellings` table, the
    conv's and pool's attribute spelling is noted there for the fused op.
    """

    op_types = (PoolingNchwSumOp,)

    def __init__(self, rule: CostRule | None = None, spellings: SpellingTable | None = None) -> None:
        self.rule = rule or CostRule()
        self.spellings = spellings

    def rewrite(self, pool: PoolingNchwSumOp, rewriter: PatternRewriter) -> None:
        if len(pool.inputs) != 2 or len(pool.outputs) != 1 or len(pool.res) != 1:
            return
        conv_value = pool.inputs[0]
        conv = getattr(conv_value, "op", None)
        if not isinstance(conv, Conv2DNchwFchwOp) or len(conv.res) != 1:
            return
        if not conv_value.has_one_use() or pool.inputs[1] is conv_value:
            return
        x, w = conv.inputs
        conv_init, pool_init = conv.outputs[0], pool.outputs[0]
        shapes = [static_shape(v.type) for v in (x, w, conv_value, pool.res[0], pool.inputs[1])]
        if any(s is None for s in shapes) or pool_init.type != pool.res[0].type:
            return
        x_shape, w_shape, conv_shape, pool_shape, window = shapes
        assert x_shape and w_shape and conv_shape and pool_shape and window is not None
        if len(window) != 2 or conv_init.type != conv_value.type:
            return
        if not element_types_fusable(*(element_type(v.type) for v in (x, w, conv_init, pool_init))):
            return
        geometry = ConvPoolGeometry(
            filter_size=int_pair(w_shape[2:]),
            conv_strides=int_pair(conv.window_strides()),
            conv_dilations=int_pair(conv.window_dilations()),
            pool_window=int_pair(window),
            pool_strides=int_pair(pool.window_strides()),
            pool_dilations=int_pair(pool.window_dilations()),
        )
        if conv_pool_fusable(x_shape, w_shape, conv_shape, pool_shape, geometry) is not None:
            return
        cost = conv_pool_cost(w_shape, conv_shape, pool_shape, geometry)
        if self.rule.counts_diagonals:
            before, after = conv_pool_diagonals(
                conv, pool, geometry.composed_size(), geometry.composed_strides()[0], self.rule.orion_slots
            )
            cost = replace(cost, diagonals_before=before, diagonals_after=after)
        if not self.rule.allows(cost):
            return
        fused = FusedConvPoolOp(
            x,
            w,
            conv_init,
            pool_init,
            conv_strides=geometry.conv_strides,
            conv_dilations=geometry.conv_dilations,
            pool_window=geometry.pool_window,
            pool_strides=geometry.pool_strides,
            pool_dilations=geometry.pool_dilations,
        )
        if self.spellings is not None:
            self.spellings[fused] = ConvPoolSpelling.of(conv, pool)
        rewriter.replace(pool, fused)
        rewriter.erase(conv)


class FoldScaleIntoFusedConvPool(OpPattern[FusedConvPoolOp]):
    """fused_conv_pool -> divide/multiply by a uniform constant  ==>  its `divisor`.

        %f = tensor_ext.fused_conv_pool {...} ins(...) outs(%pi)
        %a = linalg.generic ins(%f) outs(%e) { %q = arith.divf %in, %c4 ; yield %q }
      ==>
        %a = tensor_ext.fused_conv_pool {..., divisor = 4.0} ins(...) outs(%pi)

    A multiply by c becomes divisor 1/c; an existing divisor D becomes D*c (or D/c).
    Legal when: the fused op's only user is the scale (`elementwise_scale`): one float
    constant for every element, float element type. A per-element divisor (average
    pool with count_include_pad=False) stays a separate op. A `spellings` entry of the
    old op moves to the new one.
    """

    op_types = (FusedConvPoolOp,)

    def __init__(self, spellings: SpellingTable | None = None) -> None:
        self.spellings = spellings

    def rewrite(self, fused: FusedConvPoolOp, rewriter: PatternRewriter) -> None:
        if not fused.result.has_one_use():
            return
        user = next(iter(fused.result.uses)).operation
        if not isinstance(fused.result.type.get_element_type(), AnyFloat):
            return
        divisor = elementwise_scale(user, fused.result)
        if divisor is None:
            return
        previous = fused.divisor_value()
        combined = divisor if previous is None else previous * divisor
        if combined == 0.0 or combined != combined:  # no inf/NaN divisors
            return
        replacement = FusedConvPoolOp(
            fused.input,
            fused.filter,
            fused.conv_init,
            fused.pool_init,
            conv_strides=fused.int_values("conv_strides"),
            conv_dilations=fused.int_values("conv_dilations"),
            pool_window=fused.int_values("pool_window"),
            pool_strides=fused.int_values("pool_strides"),
            pool_dilations=fused.int_values("pool_dilations"),
            divisor=combined,
        )
        if self.spellings is not None and fused in self.spellings:
            self.spellings[replacement] = self.spellings.pop(fused)
        rewriter.replace(user, replacement)
        rewriter.erase(fused)


def conv_pool_patterns(
    rule: CostRule | None = None, spellings: SpellingTable | None = None
) -> list[RewritePattern]:
    """The conv + pool patterns, in the order they apply (`linalg-canonicalizations`
    mixes them into its own set); `rule` decides which pairs are worth fusing; with
    `spellings`, each fused op's source spelling is noted there (`ConvPoolSpelling`)."""
    return [FuseConvIntoSumPool(rule, spellings), FoldScaleIntoFusedConvPool(spellings)]


def populate_linalg_fuse_conv_pool_patterns(rule: CostRule | None = None) -> list[PatternSet]:
    """The pattern sets of this pass, also run by `linalg-fuse-ops`: torch-mlir's f16
    form normalised (`mixed_precision`), then conv + pool."""
    return [
        *populate_mixed_precision_patterns(),
        PatternSet.of(*conv_pool_patterns(rule)),
        *populate_narrow_unused_widening_patterns(),  # a widening no fold used is undone
    ]


@dataclass(frozen=True)
class LinalgFuseConvPoolPass(ModulePass):
    """Fuse conv_2d_nchw_fchw + sum/avg pool (+ a uniform divide) into tensor_ext.fused_conv_pool.

        %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>)
               outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
        %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>}
               ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>)
               outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
      ==>
        %p = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, ...,
               pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, ...}
               ins(%x, %w, %ci : ...) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>

    Options `policy`, `max-weight-growth`, `max-mac-growth`: the cost rule of
    `linalg-fuse-linear-chains`, applied to the composed filter (`conv_pool_cost`).
    (tests/filecheck/transforms/linalg-fuse-conv-pool/docstring.mlir runs this example.)
    """

    name = "linalg-fuse-conv-pool"

    policy: str = DEFAULT_POLICY
    max_weight_growth: int | float = DEFAULT_MAX_WEIGHT_GROWTH
    max_mac_growth: int | float = 0
    max_diagonal_growth: int | float = DEFAULT_MAX_DIAGONAL_GROWTH
    orion_slots: int = DEFAULT_ORION_SLOTS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rule = cost_rule(
            self.policy, self.max_weight_growth, self.max_mac_growth, self.name,
            self.max_diagonal_growth, self.orion_slots,
        )
        apply_pattern_sets(op, populate_linalg_fuse_conv_pool_patterns(rule))
