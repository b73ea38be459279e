"""Fuse a chain of linear ops with no nonlinearity between them into ONE linear op.

Under CKKS every plaintext-ciphertext linear op costs a multiplicative level; a chain
conv → pool → conv → pool with no activation is one affine map of its input, so it
should cost one. Example (conv∘conv, no padding between):

    %a = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%z1)
    %b = linalg.conv_2d_nchw_fchw ins(%a, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x2x2xf32>) outs(%z2)
  ->
    %b = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<3x1x4x4xf32>) outs(%init)

Chain steps (each acts on every sample of the batch alike; weights and inits must be
compile-time constants, the same for every batch element):
  costly (one level each): `conv_2d_nchw_fchw`, `pooling_nchw_sum`,
    `tensor_ext.fused_conv_pool`, `matmul` (activation on the left, torch's Linear after
    its weight transpose is folded), `matvec`, `vecmat`, and a `linalg.generic` that
    sums over sample axes (torch's global average pool, `(d0, d1, 0, 0)` output);
  free: elementwise `± K`, `* K`, `/ K` (bias, the average pool's divide, batch-norm),
    `tensor.pad`, and `tensor.collapse_shape`/`expand_shape`/`linalg.transpose` that keep
    the batch axis.
A chain runs from its first to its last costly op (plus trailing free elementwise
steps); leading/trailing pads and reshapes stay outside. It fuses when it has at least
two costly ops and every intermediate result has exactly one user. Through a skip
connection (a conv reading `branch + skip`, the skip no deeper than the branch's input)
the pass's second pattern set composes the conv with the branch
(`chains_through_adds.FuseChainThroughAdd`).

Representations and the rule that picks one (cost = multiply-accumulates per sample,
which is also the number of plaintext-ciphertext products the op needs):
  * conv: only when every step is translation-equivariant (conv, pool, fused_conv_pool,
    per-channel scale, any constant add; a run of reshapes and transposes inside only
    when it permutes channels, ShuffleNet's channel shuffle, read as a 1x1 permutation
    conv: `chain_steps.channel_permutation`), or a zero pad of H and W
    that moves to the chain's input (`linear_maps.pad_through_window`: every step before
    it has windows no wider than their stride and reads its input to the end, as
    VGG's `avgpool(2) -> pad 1 -> conv`; the chain is then one conv of the padded
    input). Filters compose exactly (`linear_maps.compose_conv_weights`): stride s1*s2,
    dilation the gcd of the tap steps, size ((k2-1)*d2*s1 + (k1-1)*d1)/g + 1; inits are
    pushed through the later steps with numpy (`L(conv(x) + b) = L(conv(x)) + L(b)`).
    cost = F*OH*OW * C*KH*KW.
  * matrix: always exact (any affine per-sample map), found by applying the chain to 0
    and to each unit vector: the input is flattened, multiplied by a constant
    D_in x D_out matrix with the constant term as init, and reshaped back.
    cost = D_in * D_out; at most 2^22 weights (else the chain is left alone).
  * contraction: when the chain starts with a sum over sample axes (a global average
    pool, then its divide, flatten and Linear), a map whose distinct weights stay the
    Linear's (divided by H*W) instead of a H*W times larger matrix; cost = D_out * D_in
    MACs, like the matrix, and the Linear's weights. It is written as the dense matrix
    (flatten + one `linalg.matmul`, `emit_contraction`), the form IREE's CPU and GPU
    back ends and HEIR all compile.
  The cheapest one wins (MACs, then weight elements); ties go to the conv (a much
  smaller constant). E.g. conv3x3 →
  avgpool2 → conv3x3 → avgpool2 on 3x16x16 (8 output channels) without padding is one
  conv with an 8x3x10x10 filter,
  stride 4 (8*2*2*3*10*10 = 9600 MACs) instead of a 768x32 matrix (24576); with torch's
  padding=1 between the convs the map is not a conv (the pad after the first pool
  cannot move through the 3x3 conv before it: its windows overlap), so it becomes the
  768 x 128 matrix.

Whether a chain is fused at all is the cost rule's call (`fusion_cost.CostRule`, the
pass options `policy`, `max-weight-growth`, `max-mac-growth`): by default a fusion may
grow the weights at most 4x per level it saves (LeNet-5's 2x2 pool into FC1 does; the
padded chain above, 248x for 3 levels, does not; `policy=depth` fuses every chain).

The matrix form is also held to a slot budget (`SlotBudget`, option `slot-budget`,
default 1024 = HEIR's default slot count, 0 = no limit): HEIR's CKKS kernels need a
linear op's secret input and output each in one ciphertext, so a matrix is a candidate
only when its input and output vectors fit max(slot-budget, L) slots, where L is the
longest secret tensor a linear op of the same function OUTSIDE the chain reads or
writes (measured before any chain of the function is fused), or that the function
takes as an argument or returns. The function needs a ring of L slots anyway, so such a
matrix costs no larger one: LeNet-5's pool2+FC1 matrix (1600 x 120) fuses because its
conv1 writes 6x28x28 = 4704 elements, and a chain that is the whole function always
fits (its input and output are the function's own); a 1600-wide matrix in a net whose
other linear ops, input and result all fit 1024 slots does not.

Not fused (guards): any nonlinearity between (x*x, relu, sigmoid, max-pool: none is a
step), an intermediate with another user (duplicating the chain would not be free:
it is ciphertext work), dynamic shapes, function-argument weights, inits that differ
across the batch, matmuls whose activation is the right operand, and chains whose
matrix would exceed 2^22 entries.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from math import prod

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
)
from xdsl.rewriter import InsertPoint

from heirpy.analysis.orion_packing import conv_diagonals
from heirpy.analysis.slots import DEFAULT_SLOT_COUNT, boundary_vectors
from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.diagnostics import location_prefix
from heirpy.ir.dialects.linalg import (
    Conv2DNchwFchwOp,
    MatmulOp,
    MatvecOp,
)
from heirpy.ir.dialects.tensor import PadOp
from heirpy.ir.utils import (
    Reassociation,
    element_bytes,
    element_type,
    i64_vector,
    reassociation_attr,
    static_shape,
)
from heirpy.transforms.linear.chain_steps import BATCHED, UNBATCHED, Step, channel_permutation, step_of
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    build_init,
    erase_dead_constant_slices,
    init_elements,
)
from heirpy.transforms.linear.fusion_cost import (
    DEFAULT_MAX_DIAGONAL_GROWTH,
    DEFAULT_MAX_WEIGHT_GROWTH,
    DEFAULT_ORION_SLOTS,
    DEFAULT_POLICY,
    CostRule,
    FusionCost,
    constant_growth_remark,
    cost_rule,
)
from heirpy.transforms.linear.linear_maps import (
    MAX_MATRIX_ELEMENTS,
    AffineConv,
    Form,
    SpatialPad,
    add_pads,
    affine_matrix,
    choose_form,
    compose_affine_convs,
    composed_conv_fits,
    matrix_form,
    pad_convs_input,
)
from heirpy.transforms.linear.orion_cost import (
    enclosing_function,
    linear_layer_diagonals,
    op_diagonals,
    orion_layouts,
)
from heirpy.transforms.linear.slot_budget import SlotBudget, carried_vectors
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets, in_generic_body

STEP_MEMO_SIZE = 64


# ------------------------------------------------------------------------- chains
def _compatible(mode: str | None, other: str | None) -> bool:
    return mode is None or other is None or mode == other


StepOf = Callable[[Operation], Step | None]
"""`step_of` with its constant reader bound (possibly remembering recent answers)."""


def _single_user_step(value: SSAValue, step_at: StepOf) -> Step | None:
    """The step that is the only user of `value` and takes it as its activation."""
    if not value.has_one_use():
        return None
    user = next(iter(value.uses)).operation
    step = step_at(user)
    if step is None or step.activation is not value:
        return None
    return step


@dataclass
class Chain:
    steps: list[Step]
    mode: str
    prefix: list[Step] = field(default_factory=list)
    """Pads/reshapes right before the first costly step: a matrix absorbs them (a
    smaller D_in), a conv leaves them in place."""

    def with_prefix(self) -> Chain:
        return Chain(self.prefix + self.steps, self.mode)

    @property
    def input(self) -> SSAValue:
        return self.steps[0].activation

    @property
    def output(self) -> SSAValue:
        return self.steps[-1].result

    def costly_count(self) -> int:
        return sum(step.costly for step in self.steps)

    def levels(self) -> int:
        """Levels the chain costs as it stands: one per costly step, and one per
        leveled scale before the first costly step (`chain_ending_at` keeps those;
        a scale after a linear op is `linalg-fuse-linear-ops`' to fold)."""
        return self.costly_count() + _leading_leveled(self.steps)

    def tensor_sizes(self) -> tuple[int, int]:
        """Elements of the chain's input and output tensors, the batch included."""
        in_shape, out_shape = static_shape(self.input.type), static_shape(self.output.type)
        assert in_shape is not None and out_shape is not None
        return prod(in_shape), prod(out_shape)

    def sample_shapes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        in_shape, out_shape = static_shape(self.input.type), static_shape(self.output.type)
        assert in_shape is not None and out_shape is not None
        if self.mode == BATCHED:
            return in_shape[1:], out_shape[1:]
        return in_shape, out_shape

    def apply(self, batch: np.ndarray) -> np.ndarray:
        for step in self.steps:
            batch = step.sample_map(self.mode)(batch)
        return batch

    def head(self) -> Chain | None:
        """The chain's leading scales with its first costly step (a batch-norm on the
        input and the conv after it), for when the whole chain does not fuse: that part
        alone still saves the scales' levels (as a conv, the weights do not grow). None
        without leading scales or when the head is the whole chain."""
        first = next(i for i, s in enumerate(self.steps) if s.costly)
        if _leading_leveled(self.steps) == 0 or first == len(self.steps) - 1:
            return None
        return Chain(self.steps[: first + 1], self.mode, self.prefix)

    def cost_before(self) -> tuple[int, int]:
        """(weight elements, MACs per sample) of the chain's costly ops and leading scales
        (the steps `levels` counts)."""
        first = next((i for i, s in enumerate(self.steps) if s.costly), len(self.steps))
        costly = [s for i, s in enumerate(self.steps) if s.costly or (s.leveled and i < first)]
        return sum(s.weights for s in costly), sum(s.macs for s in costly)

    def constants_before(self) -> int:
        """Constant elements the chain's steps store (weights, inits, added constants):
        what the fused op's constants replace."""
        return sum(s.weights + s.init_size for s in self.steps)

    def as_contraction(self) -> Contraction | None:
        """A chain that starts with a sum over sample axes (global average pool, then
        its divide, flatten, Linear ...) as ONE contraction whose weight is the rest of
        the chain's matrix, read through a broadcast over the summed axes: its distinct
        weights stay those of the Linear instead of growing by H*W (see `Contraction`).
        None also when the dense matrix it is emitted as (`emit_contraction`) would
        exceed `MAX_MATRIX_ELEMENTS`."""
        first = self.steps[0]
        if self.mode != BATCHED or not first.summed_axes:
            return None
        in_sample, out_sample = self.sample_shapes()
        summed_sample = static_shape(first.result.type)
        assert summed_sample is not None
        kept = tuple(a for a in range(len(in_sample)) if a not in first.summed_axes)
        kept_shape = tuple(in_sample[a] for a in kept)
        tail = Chain(self.steps[1:], self.mode)
        if prod(in_sample) * prod(out_sample) > MAX_MATRIX_ELEMENTS:
            return None
        matrix, _ = affine_matrix(tail.apply, summed_sample[1:])
        zero = np.zeros((1, *in_sample), dtype=np.float64)
        bias = self.apply(zero).reshape(-1)  # the sum's init pushed through the tail
        weight = matrix.reshape(*out_sample, *kept_shape)
        return Contraction(weight, bias.reshape(out_sample), kept, tuple(in_sample))

    def as_conv(self) -> PaddedConv | None:
        """The chain as ONE conv of its input, zero-padded first where the chain pads.

        Every step must be a conv (`Step.conv`), or a zero pad of H and W that moves to
        the chain's input through the convs before it (`linear_maps.pad_convs_input`:
        a window no wider than its stride, read to the end). That is VGG's and
        AlexNet's `avgpool(2) -> pad 1 -> conv 3x3`: `pad(pool(x), 1) ==
        pool(pad(x, 2))`, so pool and conv compose into one 6x6 stride-2 conv of
        `pad(x, 2)`. A pad that does not move (overlapping windows, a row the pool
        leaves out, a non-zero value) keeps the chain from being a conv."""
        in_shape = static_shape(self.input.type)
        if self.mode != BATCHED or in_shape is None or len(in_shape) != 4:
            return None
        pad: SpatialPad = ((0, 0), (0, 0))
        convs: list[AffineConv] = []
        index = 0
        while index < len(self.steps):
            step = self.steps[index]
            index += 1
            if step.conv is not None:
                convs.append(step.conv)
                continue
            if step.zero_pad is None:
                shuffle = channel_permutation(self.steps, index - 1)
                if shuffle is None:
                    return None
                permutation, index = shuffle
                convs.append(permutation)
                continue
            moved = pad_convs_input(convs, _padded_hw(in_shape, pad), step.zero_pad)
            if moved is None:
                return None
            convs, outer = moved
            pad = add_pads(pad, outer)
        if not convs:
            return None
        composed = convs[0]
        for conv in convs[1:]:
            composed = compose_affine_convs(composed, conv)
        if not composed_conv_fits(_padded_hw(in_shape, pad), composed):
            return None
        return PaddedConv(pad, composed)


def _padded_hw(shape: tuple[int, ...], pad: SpatialPad) -> tuple[int, int]:
    return shape[2] + sum(pad[0]), shape[3] + sum(pad[1])


@dataclass(frozen=True)
class PaddedConv:
    """`conv(pad(x))`: a zero pad of the input's H and W (none: all zero), then a conv."""

    pad: SpatialPad
    conv: AffineConv

    def form(self) -> Form:
        return Form("conv", self.conv.macs(), self.conv.weight.size)


@dataclass(frozen=True)
class Contraction:
    """`out[b, o...] = bias[o...] + sum over i... of x[b, i...] * weight[o..., i_kept...]`:
    a linear map whose weight does not depend on the summed input axes.

    The cost rule weighs it by its distinct weights (the Linear's, divided by H*W);
    `emit_contraction` writes it as the dense matrix those repeat into."""

    weight: np.ndarray  # [*out_sample, *input sample axes in `kept_axes`]
    bias: np.ndarray  # [*out_sample]
    kept_axes: tuple[int, ...]  # input sample axes the weight is indexed by
    in_sample: tuple[int, ...]

    def form(self) -> Form:
        """MACs: every input element for every output element (a back end may sum
        first); weights: the distinct values of the weight (what the cost rule weighs;
        `emit_contraction` stores `stored_elements`)."""
        return Form("contraction", self.bias.size * prod(self.in_sample), self.weight.size)

    def stored_elements(self) -> int:
        """Elements of the dense matrix `emit_contraction` writes."""
        return self.bias.size * prod(self.in_sample)

    def dense_matrix(self) -> np.ndarray:
        """[D_out, D_in]: `weight` repeated over the summed input axes."""
        out_rank = self.weight.ndim - len(self.kept_axes)
        per_axis = [self.in_sample[a] if a in self.kept_axes else 1 for a in range(len(self.in_sample))]
        weight = self.weight.reshape(*self.weight.shape[:out_rank], *per_axis)
        full = np.broadcast_to(weight, (*self.weight.shape[:out_rank], *self.in_sample))
        return full.reshape(prod(self.weight.shape[:out_rank]), prod(self.in_sample))


def chain_ending_at(step: Step, step_at: StepOf) -> Chain | None:
    """The maximal chain whose last step is `step`, or None if `step` is not the end of
    one (its result feeds a further step) or the chain has fewer than two costly ops.
    `step_at(op)` is `step_of(op, reader)`."""
    following = _single_user_step(step.result, step_at)
    if following is not None and _compatible(step.mode, following.mode):
        return None  # the chain goes on: the pattern fires at its end instead
    chain = branch_ending_at(step, step_at)
    if chain is None or chain.levels() < 2:
        return None
    return chain


def branch_ending_at(step: Step, step_at: StepOf) -> Chain | None:
    """The maximal chain ending at `step`, whatever follows it and however few levels it
    costs (`chains_through_adds` composes it with the conv after an add); None without
    a costly op."""
    steps = [step]
    mode = step.mode
    while True:
        producer = steps[0].activation.owner
        if not isinstance(producer, Operation) or not steps[0].activation.has_one_use():
            break
        previous = step_at(producer)
        if previous is None or not _compatible(mode, previous.mode):
            break
        mode = mode or previous.mode
        steps.insert(0, previous)
    # Pads and reshapes at either end cost nothing: leave them where they are.
    while steps and steps[-1].reshape_only:
        steps.pop()
    prefix: list[Step] = []
    for _ in range(_chain_start(steps)):
        dropped = steps.pop(0)
        prefix = prefix + [dropped] if dropped.reshape_only else []
    chain = Chain(steps, mode or UNBATCHED, prefix)
    return chain if chain.costly_count() >= 1 else None


def _leading_leveled(steps: list[Step]) -> int:
    """Scales (leveled steps) before the first costly step."""
    first = next((i for i, s in enumerate(steps) if s.costly), len(steps))
    return sum(s.leveled for s in steps[:first])


def _chain_start(steps: list[Step]) -> int:
    """How many leading steps a chain leaves outside: every free step before the first
    costly one (an add or a uniform scale there costs no level, and moving it in would
    change nothing), unless a leveled scale is among them (a batch-norm on the chain's
    input): then only the pads and reshapes before the first elementwise step, so the
    scale folds into the chain's weights and its level is saved."""
    first_costly = next((i for i, s in enumerate(steps) if s.costly), len(steps))
    if _leading_leveled(steps) == 0:
        return first_costly
    return next(i for i, s in enumerate(steps) if not s.reshape_only)


# ------------------------------------------------------------------------- rewriting
def _reassociation(rank: int) -> Reassociation:
    """[[0], [1, ..., rank-1]]: flatten each sample, keep the batch axis."""
    return reassociation_attr([[0], range(1, rank)])


def emit_conv(chain: Chain, padded: PaddedConv) -> list[Operation]:
    out_type = chain.output.type
    assert isinstance(out_type, TensorType)
    conv = padded.conv
    dtype = element_dtype(out_type)
    element = out_type.get_element_type()
    batch = out_type.get_shape()[0]
    pad_ops = zero_pad_ops(chain.input, padded.pad)
    source = pad_ops[-1].results[0] if pad_ops else chain.input
    weight_type = TensorType(element, list(conv.weight.shape))
    weight = dense_constant(conv.weight.astype(dtype), weight_type)
    full_init = np.broadcast_to(conv.const, (batch, *conv.const.shape)).astype(dtype)
    init_ops, init = build_init(full_init, out_type)
    op = Conv2DNchwFchwOp(
        [source, weight.result], [init], [out_type],
        strides=i64_vector(conv.strides), dilations=i64_vector(conv.dilations),
    )
    return [*pad_ops, weight, *init_ops, op]


def zero_pad_ops(source: SSAValue, pad: SpatialPad) -> list[Operation]:
    """`tensor.pad` of the NCHW `source`'s H and W with 0.0 (no ops for an all-zero pad),
    in the form torch-mlir prints: the constant, then the pad yielding it."""
    if pad == ((0, 0), (0, 0)):
        return []
    source_type = source.type
    assert isinstance(source_type, TensorType)
    element = source_type.get_element_type()
    n, c, h, w = source_type.get_shape()
    (low_h, high_h), (low_w, high_w) = pad
    zero = arith.ConstantOp(FloatAttr(0.0, element))
    block = Block(arg_types=[IndexType()] * 4)
    block.add_op(tensor.YieldOp(zero.result))
    result_type = TensorType(element, [n, c, h + low_h + high_h, w + low_w + high_w])
    op = PadOp(source, [], [], Region(block), [0, 0, low_h, low_w], [0, 0, high_h, high_w], result_type)
    return [zero, op]


def emit_matrix(chain: Chain, matrix: np.ndarray, bias: np.ndarray) -> list[Operation]:
    """`matrix` is [D_out, D_in] and `bias` [D_out] (see `affine_matrix`)."""
    in_type, out_type = chain.input.type, chain.output.type
    assert isinstance(in_type, TensorType) and isinstance(out_type, TensorType)
    element = out_type.get_element_type()
    dtype = element_dtype(out_type)
    d_out, d_in = matrix.shape
    ops: list[Operation] = []
    if chain.mode == UNBATCHED:
        weight = dense_constant(matrix.astype(dtype), TensorType(element, [d_out, d_in]))
        init_ops, init = build_init(bias.astype(dtype), out_type)
        op = MatvecOp(
            [weight.result, chain.input], [init], [out_type]
        )
        return [weight, *init_ops, op]
    batch = in_type.get_shape()[0]
    source = chain.input
    if len(in_type.get_shape()) != 2:
        # The input keeps its own element type (f16 into a chain that accumulates in
        # f32, as torch-mlir writes .half()): linalg.matmul casts its operands to the
        # output's type, a collapse_shape cannot.
        flat_type = TensorType(in_type.get_element_type(), [batch, d_in])
        collapse = tensor.CollapseShapeOp.build(
            operands=[source], result_types=[flat_type],
            properties={"reassociation": _reassociation(len(in_type.get_shape()))},
        )
        ops.append(collapse)
        source = collapse.results[0]
    weight = dense_constant(matrix.T.astype(dtype), TensorType(element, [d_in, d_out]))
    flat_out = TensorType(element, [batch, d_out])
    init_ops, init = build_init(np.broadcast_to(bias, (batch, d_out)).astype(dtype), flat_out)
    matmul = MatmulOp([source, weight.result], [init], [flat_out])
    ops += [weight, *init_ops, matmul]
    if len(out_type.get_shape()) != 2:
        ops.append(tensor.ExpandShapeOp(
            matmul.results[0], [], _reassociation(len(out_type.get_shape())),
            list(out_type.get_shape()), out_type,
        ))
    return ops


def emit_contraction(chain: Chain, contraction: Contraction) -> list[Operation]:
    """`collapse_shape` of the input to [B, D_in], ONE `linalg.matmul` with the dense
    matrix (the Linear's weight divided by H*W, repeated over the summed axes), and an
    `expand_shape` back when the output is not [B, D_out] (`emit_matrix`).

    Why not one contraction `linalg.generic` reading the small weight through a
    broadcasting map (heirpy's form before): IREE's CUDA back end fails on it ("failed
    to distribute": three reduction loops in one dispatch) and HEIR has no kernel for
    it, while both compile a matmul; the weight grows by H*W (ResNet-20: 640 -> 40,960
    values), which the weight-bytes figures show."""
    return emit_matrix(chain, contraction.dense_matrix(), contraction.bias.reshape(-1))


class FuseLinearChain(OpPattern[Operation], OutsideGenericBodies):
    """Replace a maximal chain of linear ops (>= 2 costly steps) by ONE linear op.

        %a = conv(%x, %w1) outs(%b1); %p = pooling_nchw_sum(%a) ; %q = %p / 4
        %c = conv(%q, %w2) outs(%b2)
      ->
        %c = conv(%x, %w) outs(%b)       (or collapse + matmul + expand, or one
                                          contraction generic, see the module doc)

    Legality: `chain_ending_at` (single-user intermediates, compatible batch modes, no
    nonlinearity, constant weights/inits), a representable composition (`Chain.as_conv`,
    `Chain.as_contraction`, `MAX_MATRIX_ELEMENTS`), the slot budget
    (`SlotBudget`: a matrix whose input or output vector is longer than both
    `slot_budget` and every vector a linear op outside the chain, or the function's
    own arguments and results, already carry would need a larger CKKS ring, so it is
    not a candidate),
    `choose_form` (the cheapest remaining form), and the cost rule
    (`fusion_cost.CostRule.allows`: levels saved against weight growth).
    """

    # Any op: `step_of` decides which ops a chain is made of.
    op_types = (Operation,)

    def __init__(
        self,
        reader: ConstantFolder | None = None,
        slot_budget: int | None = None,
        rule: CostRule | None = None,
        pass_name: str = "linalg-fuse-linear-chains",
    ):
        self.reader = ConstantFolder() if reader is None else reader
        self.pass_name = pass_name  # the remark's
        self.slot_budget = slot_budget
        self.rule = CostRule() if rule is None else rule
        # Per function, the vector length each linear op carried when this pattern first
        # saw the function (before any chain of it was fused): see `SlotBudget`.
        self._carried: dict[Operation, dict[Operation, int]] = {}
        self._boundary: dict[Operation, int] = {}  # per function: `boundary_vectors`
        # Recent `step_of` answers, valid for one sweep of the walker and until this
        # pattern rewrites: see `_step_of`.
        self._steps: dict[Operation, Step | None] = {}
        self._sweep: PatternRewriter | None = None

    def _step_of(self, op: Operation) -> Step | None:
        """`step_of(op, self.reader)`, remembered for the next few queries.

        Each op's step is asked for up to three times (as the op visited, as the user
        that continues the previous op's chain, while walking a chain back), and a
        conv's costs two constant folds (weights and init). An answer depends on the op
        and the ops its operands are computed from, which stay as they are until a
        rewrite: the memo is emptied when this pattern rewrites and at each new sweep
        of the walker (a new `PatternRewriter`), and it runs alone in its pattern set
        (`populate_linalg_fuse_linear_chains_patterns`), so no other pattern changes
        the IR in between -- only the walker's dead-code elimination, which erases ops
        nothing reads. Bounded (`STEP_MEMO_SIZE`, oldest first out), so that a model's
        folded weights are not all held at once."""
        if op in self._steps:
            return self._steps[op]
        step = step_of(op, self.reader)
        if len(self._steps) >= STEP_MEMO_SIZE:
            del self._steps[next(iter(self._steps))]
        self._steps[op] = step
        return step

    def slot_limit(self, chain: Chain) -> SlotBudget | None:
        """The budget `chain`'s matrix is held to (None: no limit)."""
        if self.slot_budget is None:
            return None
        func = enclosing_function(chain.steps[-1].op)
        if func is None:
            return SlotBudget(self.slot_budget, 0)
        if func not in self._carried:
            self._carried[func] = carried_vectors(func)
            self._boundary[func] = boundary_vectors(func)
        own = {step.op for step in chain.steps}
        others = [n for op, n in self._carried[func].items() if op not in own]
        return SlotBudget(self.slot_budget, max([*others, self._boundary[func]]))

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if rewriter is not self._sweep:
            self._sweep, self._steps = rewriter, {}
        if in_generic_body(op):
            return
        step = self._step_of(op)
        if step is None:
            return
        chain = chain_ending_at(step, self._step_of)
        if chain is None:
            return
        if not self._fuse(chain, rewriter):
            head = chain.head()
            if head is not None:
                self._fuse(head, rewriter)

    def _fuse(self, chain: Chain, rewriter: PatternRewriter) -> bool:
        """Replace `chain` by one linear op if a form is allowed (see the class doc)."""
        conv = chain.as_conv()
        contraction = chain.as_contraction()
        wide = chain.with_prefix()  # the matrix form absorbs leading pads/reshapes
        sample_in, sample_out = wide.sample_shapes()
        d_in, d_out = prod(sample_in), prod(sample_out)
        budget = self.slot_limit(wide)
        fits = budget is None or budget.allows(d_in, d_out, *wide.tensor_sizes())
        form = choose_form([
            None if conv is None else conv.form(),
            None if contraction is None else contraction.form(),
            matrix_form(d_in, d_out) if fits else None,
        ])
        if form is None:
            return False
        weights_before, macs_before = chain.cost_before()
        cost = FusionCost(chain.levels() - 1, weights_before, form.weights, macs_before, form.macs,
                          constants_before=chain.constants_before(),
                          constants_after=stored_constants(form, conv, contraction, d_out))
        if self.rule.counts_diagonals:
            before, after = chain_diagonals(chain, wide, form.kind, conv, d_out, self.rule.orion_slots)
            cost = replace(cost, diagonals_before=before, diagonals_after=after)
        if not self.rule.allows(cost):
            return False
        if self.rule.grows_constants(cost):
            print(constant_growth_remark(self.pass_name, location_prefix(chain.steps[-1].op), cost,
                                         element_bytes(element_type(chain.output.type)) or 4),
                  file=sys.stderr)
        if form.kind == "conv":
            assert conv is not None
            new_ops = emit_conv(chain, conv)
        elif form.kind == "contraction":
            assert contraction is not None
            new_ops = emit_contraction(chain, contraction)
        else:
            matrix, bias = affine_matrix(wide.apply, sample_in)
            new_ops = emit_matrix(wide, matrix, bias)
            chain = wide
        self._steps = {}
        constants = [v for s in chain.steps for v in s.constants]
        last = chain.steps[-1].op  # `op` may be a reshape the chain leaves outside
        rewriter.insert(new_ops, InsertPoint.before(last))
        rewriter.replace(last, [], [new_ops[-1].results[0]])
        for old in reversed(chain.steps[:-1]):
            rewriter.erase(old.op)
        erase_dead_constant_slices(rewriter, constants)
        return True


def stored_constants(form: Form, padded: PaddedConv | None, contraction: Contraction | None, d_out: int) -> int:
    """Constant elements the op of `form` is emitted with: its weight as written (a
    contraction's dense matrix) and its init (a conv's as `build_init` stores it; a
    matrix's bias, one per output)."""
    if form.kind == "conv":
        assert padded is not None
        return form.weights + init_elements(padded.conv.const)
    if form.kind == "contraction":
        assert contraction is not None
        return contraction.stored_elements() + d_out
    return form.weights + d_out


def chain_diagonals(
    chain: Chain, wide: Chain, kind: str, padded: PaddedConv | None, d_out: int, slots: int
) -> tuple[int | None, int | None]:
    """Orion's diagonals (`orion_cost`) of `chain`'s costly ops, and of the one op of
    form `kind` that would replace them: the composed conv on the chain's input (its
    padding the chain input's own plus a pad the chain moved there; None, uncounted, when
    that pad is not alike on all four sides, which an Orion conv cannot express), or a
    Linear of `d_out` outputs reading the input of the matrix (`wide`, leading pads and
    reshapes absorbed) or of the contraction (the chain's input, flattened)."""
    func = enclosing_function(chain.steps[-1].op)
    if func is None:
        return None, None
    layouts = orion_layouts(func)
    costly = [step for step in chain.steps if step.costly]
    before = sum(
        op_diagonals(step.op, layouts, slots, None if step.conv is None else step.conv.weight != 0)
        for step in costly
    )
    last = layouts.is_last(costly[-1].op)
    if kind == "conv":
        assert padded is not None
        conv = padded.conv
        (low_h, high_h), (low_w, high_w) = padded.pad
        if not low_h == high_h == low_w == high_w:
            return before, None
        layout, padding = layouts.conv_input(chain.input)
        after = conv_diagonals(conv.weight != 0, layout, conv.out_hw, conv.strides[0], padding + low_h,
                               conv.dilations[0], slots, last)
    else:
        source = chain.input if kind == "contraction" else wide.input
        after = linear_layer_diagonals(source, d_out, layouts, slots, last)
    return before, after


def populate_linalg_fuse_linear_chains_patterns(
    ctx: Context | None = None,
    slot_budget: int | None = DEFAULT_SLOT_COUNT,
    rule: CostRule | None = None,
    pass_name: str = "linalg-fuse-linear-chains",
) -> list[PatternSet]:
    """The chain-fusion patterns, also run by `linalg-fuse-ops` (`ctx` holds the
    module's `dense_resource` blobs; without it the context heirpy remembers is used;
    `rule` is the cost rule, `CostRule()` by default; `pass_name` names the pass in
    remarks)."""
    # Imported here: `chains_through_adds` builds on this module's chains. Its pattern
    # runs after every chain is fused (a branch is then one op), in a set of its own
    # (`FuseLinearChain`'s step memo assumes no other pattern rewrites in its sweep).
    from heirpy.transforms.linear.chains_through_adds import FuseChainThroughAdd

    reader = ConstantFolder(ctx)
    rule = CostRule() if rule is None else rule
    return [PatternSet.of(FuseLinearChain(reader, slot_budget, rule, pass_name)),
            PatternSet.of(FuseChainThroughAdd(reader, rule, pass_name))]


@dataclass(frozen=True)
class LinalgFuseLinearChainsPass(ModulePass):
    """Fuse each chain of linear ops with no nonlinearity between into one linear op.

    Example: conv(3x3) → conv(2x2) on constant weights becomes one conv with a 4x4
    composed filter (tests/filecheck/transforms/linalg-fuse-linear-chains/docstring.mlir).

    `slot-budget` (default 1024, HEIR's default slot count; 0 = no limit): a chain is
    fused into a dense matrix only when its input and output vectors each fit
    max(slot-budget, L) CKKS slots, L being the longest secret tensor that a linear op
    of the same function outside the chain reads or writes (measured before any chain
    of the function is fused) or that the function takes or returns (`SlotBudget`): a
    matrix no longer than a vector the function already carries needs no larger ring.
    E.g. LeNet-5's pool2+FC1 matrix (1600 x 120) fuses at the default budget because
    conv1 writes 6x28x28 = 4704 elements, and a chain that is the whole function fuses
    whatever its input's length
    (tests/filecheck/transforms/linalg-fuse-linear-chains/slot-budget.mlir).

    Cost rule (`heirpy.transforms.linear.fusion_cost`): `policy=depth|balanced|size`
    (default `balanced`: fuse when the fused weights are at most `max-weight-growth`
    times the replaced ones per level saved, default 4), `max-mac-growth=X` (also bound
    MACs per sample; default 0, off), `max-constant-growth=X` (refuse a chain whose
    stored constants, a contraction's dense matrix and the inits included, grow more than
    X per level saved; default 0: such a chain is fused with a remark past 1.5x per level).
    """

    name = "linalg-fuse-linear-chains"
    slot_budget: int = DEFAULT_SLOT_COUNT
    policy: str = DEFAULT_POLICY
    max_weight_growth: int | float = DEFAULT_MAX_WEIGHT_GROWTH
    max_mac_growth: int | float = 0
    max_diagonal_growth: int | float = DEFAULT_MAX_DIAGONAL_GROWTH
    orion_slots: int = DEFAULT_ORION_SLOTS
    max_constant_growth: int | float = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rule = cost_rule(
            self.policy, self.max_weight_growth, self.max_mac_growth, self.name,
            self.max_diagonal_growth, self.orion_slots, self.max_constant_growth,
        )
        budget = self.slot_budget or None
        apply_pattern_sets(op, populate_linalg_fuse_linear_chains_patterns(ctx, budget, rule))
