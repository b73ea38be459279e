"""The chains `linalg-fuse-linear-chains` fuses: a run of linear steps read as one affine
map of its input (`Chain`), found from its last step (`chain_ending_at`,
`branch_ending_at`), and the padded-conv and contraction forms it may take. Shared with
`chains_through_adds` (a chain ending in a skip add) and `legalize-for-heir`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod
from typing import cast

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, DepthwiseConv2DNchwChwOp, GenericOp, MatmulOp, MatvecOp
from heirpy.ir.dialects.tensor import PadOp
from heirpy.ir.utils import (
    Reassociation,
    i64_vector,
    iterator_attrs,
    reassociation_attr,
    static_shape,
)
from heirpy.transforms.linear.chain_steps import BATCHED, UNBATCHED, Step, channel_permutation
from heirpy.transforms.linear.constant_folding import build_init, init_elements
from heirpy.transforms.linear.edge_corrections import EdgeCorrection, edge_corrected
from heirpy.transforms.linear.linear_maps import (
    MAX_MATRIX_ELEMENTS,
    AffineConv,
    Form,
    SpatialPad,
    add_pads,
    affine_matrix,
    compose_affine_convs,
    composed_conv_fits,
    depthwise_filter,
    pad_convs_input,
)
from heirpy.transforms.linear.mixed_precision import extf_source, multiply_accumulate_block


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

    def sum_adds_before(self) -> int:
        """Of `cost_before`'s MACs, those of its pools and sums: adds, no multiplies (a
        weightless costly step)."""
        return sum(s.macs for s in self.steps if s.costly and s.weights == 0)

    def constants_before(self) -> int:
        """Constant elements the chain's steps store (weights, inits, added constants):
        what the fused op's constants replace."""
        return sum(s.weights + s.init_size for s in self.steps)

    def as_contraction(self) -> Contraction | None:
        """A chain that starts with a sum over sample axes (global average pool, then
        its divide, flatten, Linear ...) as ONE contraction whose weight is the rest of
        the chain's matrix, read through a broadcast over the summed axes: its distinct
        weights stay those of the Linear instead of growing by H*W (see `Contraction`).
        Steps before the sum may map each position alike (`per_position`: a per-channel
        scale, MobileNetV3's hardswish's `/ 6` on the pool's input, a 1x1 conv): the
        weight is then the rest's matrix times their channel map. None also when that
        weight exceeds `MAX_MATRIX_ELEMENTS`; whether the dense matrix fits is
        `Contraction.dense_fits`' question."""
        index = next((i for i, step in enumerate(self.steps) if step.summed_axes), None)
        if self.mode != BATCHED or index is None:
            return None
        lead, first = self.steps[:index], self.steps[index]
        in_sample, out_sample = self.sample_shapes()
        summed_sample = static_shape(first.result.type)
        assert summed_sample is not None
        kept = tuple(a for a in range(len(in_sample)) if a not in first.summed_axes)
        kept_shape = tuple(in_sample[a] for a in kept)
        if lead and not (len(in_sample) == 3 and kept == (0,) and all(per_position(s) for s in lead)):
            return None
        tail = Chain(self.steps[index + 1:], self.mode)
        if prod(kept_shape) * prod(out_sample) > MAX_MATRIX_ELEMENTS:
            return None  # the weight itself (the Linear's) past the cap
        matrix, _ = affine_matrix(tail.apply, summed_sample[1:])
        if lead:
            matrix = matrix @ channel_map(Chain(lead, self.mode), in_sample)
        zero = np.zeros((1, *in_sample), dtype=np.float64)
        bias = self.apply(zero).reshape(-1)  # the sum's init pushed through the tail
        weight = matrix.reshape(*out_sample, *kept_shape)
        return Contraction(weight, bias.reshape(out_sample), kept, tuple(in_sample))

    def as_conv(self, edges: bool = False) -> PaddedConv | None:
        """The chain as ONE conv of its input, zero-padded first where the chain pads.

        Every step must be a conv (`Step.conv`), or a zero pad of H and W that moves to
        the chain's input through the convs before it (`linear_maps.pad_convs_input`:
        a window no wider than its stride, read to the end). That is VGG's and
        AlexNet's `avgpool(2) -> pad 1 -> conv 3x3`: `pad(pool(x), 1) ==
        pool(pad(x, 2))`, so pool and conv compose into one 6x6 stride-2 conv of
        `pad(x, 2)`. A pad that does not move (overlapping windows, a row the pool
        leaves out, a non-zero value) keeps the chain from being a conv, unless `edges`:
        then one zero pad that does not move, followed by convs only, makes the chain
        one conv plus edge corrections at the same level (`edge_corrections`; the
        caller must emit them, `emit_conv` does)."""
        in_shape = static_shape(self.input.type)
        if self.mode != BATCHED or in_shape is None or len(in_shape) != 4:
            return None
        pad: SpatialPad = ((0, 0), (0, 0))
        convs: list[AffineConv] = []
        edge: tuple[list[AffineConv], SpatialPad, SpatialPad] | None = None  # A, its input's pad, the pad
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
            moved = pad_convs_input(convs, _padded_hw(in_shape, pad), step.zero_pad) if edge is None else None
            if moved is None:
                if not edges or edge is not None or not convs:
                    return None
                edge, convs = (convs, pad, step.zero_pad), []
                continue
            convs, outer = moved
            pad = add_pads(pad, outer)
        if not convs:
            return None
        composed = _compose(convs)
        corrections: tuple[EdgeCorrection, ...] = ()
        if edge is not None:
            a_convs, pad, b_pad = edge
            a_in = _padded_hw(in_shape, pad)
            real = ((pad[0][0], pad[0][0] + in_shape[2]), (pad[1][0], pad[1][0] + in_shape[3]))
            fused = edge_corrected(_compose(a_convs), a_in, b_pad, composed, real)
            composed, corrections = fused.conv, fused.corrections
            pad = add_pads(pad, fused.input_pad)
        if not composed_conv_fits(_padded_hw(in_shape, pad), composed):
            return None
        # A chain of a depthwise conv and per-channel steps stays a depthwise conv (the
        # dense form would store C times its weights, all but one channel's zero).
        depthwise = any(isinstance(s.op, DepthwiseConv2DNchwChwOp) for s in self.steps) and all(
            depthwise_filter(w) is not None for w in (composed.weight, *(c.weight for c in corrections))
        )
        return PaddedConv(pad, composed, depthwise, corrections)

    def as_corrected_conv(self) -> tuple[Chain, PaddedConv] | None:
        """The chain as a conv with edge corrections (`as_conv(edges=True)`), read from
        its input before the leading pads (`with_prefix`) where it can be: a correction's
        taps that read only that pad are dropped (GhostNet's stride block: the top and
        left ones all). The chain it reads, and the conv; None without such a form."""
        for chain in (self.with_prefix(), self) if self.prefix else (self,):
            padded = chain.as_conv(edges=True)
            if padded is not None:
                return chain, padded
        return None


def _compose(convs: list[AffineConv]) -> AffineConv:
    composed = convs[0]
    for conv in convs[1:]:
        composed = compose_affine_convs(composed, conv)
    return composed


def per_position(step: Step) -> bool:
    """The step maps every H, W position of an NCHW sample by the same linear map of its
    channels (a 1x1 stride-1 conv, or an elementwise step read as one, whose constant
    may vary: it only moves the bias), so it commutes with a sum over positions."""
    conv = step.conv
    return conv is not None and conv.weight.shape[2:] == (1, 1) and conv.strides == (1, 1)


def channel_map(lead: Chain, in_sample: tuple[int, ...]) -> np.ndarray:
    """[C_out, C_in]: the linear part of the per-position steps `lead` (`per_position`),
    read at position (0, 0) from each channel's unit vector there."""
    channels = in_sample[0]
    probes = np.zeros((channels + 1, *in_sample), dtype=np.float64)
    probes[np.arange(1, channels + 1), np.arange(channels), 0, 0] = 1.0  # probe 0 is zero
    out = lead.apply(probes)[:, :, 0, 0]
    return (out[1:] - out[0]).T


def _padded_hw(shape: tuple[int, ...], pad: SpatialPad) -> tuple[int, int]:
    return shape[2] + sum(pad[0]), shape[3] + sum(pad[1])


@dataclass(frozen=True)
class PaddedConv:
    """`conv(pad(x))`: a zero pad of the input's H and W (none: all zero), then a conv."""

    pad: SpatialPad
    conv: AffineConv
    depthwise: bool = False  # emitted as `depthwise_conv_2d_nchw_chw` (its filter is diagonal)
    corrections: tuple[EdgeCorrection, ...] = ()
    """Convs of windows of the padded input added to the conv's output (`edge_corrections`)."""

    def form(self) -> Form:
        """MACs and weights of the conv and its corrections, as emitted."""
        macs = sum(c.macs(self.depthwise) for c in self.corrections)
        weights = sum(c.weights(self.depthwise) for c in self.corrections)
        if self.depthwise:
            taps = prod(self.conv.weight.shape[2:])
            return Form("conv", macs + prod(self.conv.const.shape) * taps, weights + self.conv.weight.shape[0] * taps)
        return Form("conv", macs + self.conv.macs(), weights + self.conv.weight.size)

    def stored_init_elements(self) -> int:
        """Init elements stored: the conv's (`build_init`) and one zero per correction."""
        return init_elements(self.conv.const) + len(self.corrections)


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

    def dense_fits(self) -> bool:
        """Whether the dense matrix is within `MAX_MATRIX_ELEMENTS` (else the
        contraction can only be written as `emit_contraction_generic`)."""
        return self.stored_elements() <= MAX_MATRIX_ELEMENTS

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


def storage_element(chain: Chain) -> Attribute:
    """The element type of the fused weights: the input's when the chain reads a
    narrower float than it accumulates in (torch-mlir's f16 form: f16 weights, an f32
    init), else the output's. The weights are composed in float64 and rounded once."""
    in_element = cast(TensorType, chain.input.type).get_element_type()
    out_element = cast(TensorType, chain.output.type).get_element_type()
    if (
        isinstance(in_element, AnyFloat) and isinstance(out_element, AnyFloat)
        and in_element.bitwidth < out_element.bitwidth
    ):
        return in_element
    return out_element


def emit_conv(chain: Chain, padded: PaddedConv) -> list[Operation]:
    out_type = chain.output.type
    assert isinstance(out_type, TensorType)
    conv = padded.conv
    dtype = element_dtype(out_type)
    batch = out_type.get_shape()[0]
    pad_ops = zero_pad_ops(chain.input, padded.pad)
    source = pad_ops[-1].results[0] if pad_ops else chain.input
    filter_ = depthwise_filter(conv.weight) if padded.depthwise else None
    values = conv.weight if filter_ is None else filter_
    weight_type = TensorType(storage_element(chain), list(values.shape))
    weight = dense_constant(values.astype(element_dtype(weight_type)), weight_type)
    full_init = np.broadcast_to(conv.const, (batch, *conv.const.shape)).astype(dtype)
    init_ops, init = build_init(full_init, out_type)
    kind = Conv2DNchwFchwOp if filter_ is None else DepthwiseConv2DNchwChwOp
    op = kind(
        [source, weight.result], [init], [out_type],
        strides=i64_vector(conv.strides), dilations=i64_vector(conv.dilations),
    )
    ops: list[Operation] = [*pad_ops, weight, *init_ops, op]
    return ops + emit_edge_corrections(source, op.results[0], padded, weight_type.get_element_type())


def emit_edge_corrections(
    source: SSAValue, total: SSAValue, padded: PaddedConv, weight_element: Attribute, depthwise: bool | None = None,
) -> list[Operation]:
    """`padded`'s edge corrections added in turn to its conv's result `total`, each
    reading a window of the conv's padded input `source` (`emit_edge_correction`);
    `depthwise` (default `padded.depthwise`) says whether they are written depthwise."""
    ops: list[Operation] = []
    for correction in padded.corrections:
        ops += emit_edge_correction(source, total, correction, padded, weight_element, depthwise)
        total = ops[-1].results[0]
    return ops


def emit_edge_correction(
    source: SSAValue, total: SSAValue, correction: EdgeCorrection, padded: PaddedConv, weight_element: Attribute,
    depthwise: bool | None = None,
) -> list[Operation]:
    """`total + pad(conv(slice(source), weight))`: one edge correction (`edge_corrections`)
    added to the conv's output `total`, the conv reading the window of the padded input
    `source` its outputs read, its result zero padded to `total`'s H and W. Slices, pads
    and adds cost no level: the sum is at the conv's level.

        %s = tensor.extract_slice %xp[0, 0, 10, 0] [1, 4, 1, 13] [1, 1, 1, 1]
        %c = linalg.conv_2d_nchw_fchw {strides = 2} ins(%s, %w_row : ..., tensor<4x4x1x7xf32>) outs(%zeros)
        %p = tensor.pad %c low[0, 0, 3, 0] high[0, 0, 0, 0]       // to 1x4x4x4
        %r = arith.addf %k, %p
    """
    total_type = cast(TensorType, total.type)
    batch, channels = cast(TensorType, source.type).get_shape()[:2]
    window = tensor.ExtractSliceOp.from_static_parameters(
        source, [0, 0, *correction.in_start], [batch, channels, *correction.in_size], [1, 1, 1, 1])
    filter_ = depthwise_filter(correction.weight) if (padded.depthwise if depthwise is None else depthwise) else None
    values = correction.weight if filter_ is None else filter_
    weight_type = TensorType(weight_element, list(values.shape))
    weight = dense_constant(values.astype(element_dtype(weight_type)), weight_type)
    out_shape = [batch, total_type.get_shape()[1], *correction.out_size]
    out_type = TensorType(total_type.get_element_type(), out_shape)
    init_ops, init = build_init(np.zeros(out_shape, dtype=element_dtype(out_type)), out_type)
    kind = Conv2DNchwFchwOp if filter_ is None else DepthwiseConv2DNchwChwOp
    conv = kind(
        [window.result, weight.result], [init], [out_type],
        strides=i64_vector(padded.conv.strides), dilations=i64_vector(padded.conv.dilations),
    )
    (row, col), (height, width) = correction.out_start, correction.out_size
    _, _, total_h, total_w = total_type.get_shape()
    placed = zero_pad_ops(conv.results[0], ((row, total_h - row - height), (col, total_w - col - width)))
    add = arith.AddfOp(total, placed[-1].results[0] if placed else conv.results[0])
    return [window, weight, *init_ops, conv, *placed, add]


def _reassociation(rank: int) -> Reassociation:
    """[[0], [1, ..., rank-1]]: flatten each sample, keep the batch axis."""
    return reassociation_attr([[0], range(1, rank)])


def emit_matrix(chain: Chain, matrix: np.ndarray, bias: np.ndarray) -> list[Operation]:
    """`matrix` is [D_out, D_in] and `bias` [D_out] (see `affine_matrix`)."""
    in_type, out_type = chain.input.type, chain.output.type
    assert isinstance(in_type, TensorType) and isinstance(out_type, TensorType)
    element = out_type.get_element_type()
    dtype = element_dtype(out_type)
    d_out, d_in = matrix.shape
    ops: list[Operation] = []
    weight_element = storage_element(chain)
    weight_dtype = element_dtype(TensorType(weight_element, [1]))
    if chain.mode == UNBATCHED:
        weight = dense_constant(matrix.astype(weight_dtype), TensorType(weight_element, [d_out, d_in]))
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
    weight = dense_constant(matrix.T.astype(weight_dtype), TensorType(weight_element, [d_in, d_out]))
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


def widens_or_keeps(chain: Chain) -> bool:
    """The chain's input is a float no wider than its output (f32 -> f32, f16 -> f16,
    torch-mlir's f16 -> f32): the generic's body can widen its factors to the output's
    type with `arith.extf`; a narrowing chain gets no generic."""
    in_element = cast(TensorType, chain.input.type).get_element_type()
    out_element = cast(TensorType, chain.output.type).get_element_type()
    return (
        isinstance(in_element, AnyFloat) and isinstance(out_element, AnyFloat)
        and in_element.bitwidth <= out_element.bitwidth
    )


def emit_contraction_generic(chain: Chain, contraction: Contraction) -> list[Operation]:
    """ONE `linalg.generic` contraction: loops (batch, output sample axes, input sample
    axes), the input sample axes reductions; the input read by (batch, input axes), the
    weight by (output axes, kept input axes) -- a broadcast over the summed axes, so the
    stored weight is the Linear's with the pool's 1/(H*W) folded in, not H*W copies:

        %y = linalg.generic {(b, o, c, h, w) -> (b, c, h, w), -> (o, c), -> (b, o);
                             parallel x2, reduction x3}
               ins(%x, %w : tensor<1x1280x2x2xf32>, tensor<1000x1280xf32>) outs(%bias)
          ^bb0(%a: f32, %k: f32, %acc: f32):
            %p = arith.mulf %a, %k ; %s = arith.addf %acc, %p ; linalg.yield %s

    torch-mlir's mixed f16 form (an f16 input, or an f32 one widened from f16 by an
    `extf`, and an f32 output) reads the f16 input, keeps the weight in f16 and widens
    both factors (`arith.extf`) before the f32 multiply, as `linalg.matmul` does for
    mixed operands; the weight is composed in float64 and rounded once. Why not always
    this form: IREE's CUDA back end fails on three reduction loops in one dispatch
    ("failed to distribute"), so `FuseLinearChain` uses it only where the dense matrix
    (`emit_contraction`) would pass the cap."""
    # torch-mlir's f16 form reaches the chain widened (`WidenRunBeforeExtf` moves the
    # Linear's extf up to the pool's input): read the f16 value and store the weight in
    # f16, as the model does, so that the generic's constants are the Linear's bytes.
    source = extf_source(chain.input) or chain.input
    in_type, out_type = source.type, chain.output.type
    assert isinstance(in_type, TensorType) and isinstance(out_type, TensorType) and widens_or_keeps(chain)
    element = out_type.get_element_type()
    in_element = in_type.get_element_type()
    weight_element = in_element if source is not chain.input else storage_element(chain)
    out_rank = len(out_type.get_shape())  # batch + output sample axes
    in_rank = len(contraction.in_sample)
    dims = [AffineExpr.dimension(i) for i in range(out_rank + in_rank)]
    x_map = AffineMap(len(dims), 0, (dims[0], *dims[out_rank:]))
    w_map = AffineMap(len(dims), 0, (*dims[1:out_rank], *(dims[out_rank + a] for a in contraction.kept_axes)))
    out_map = AffineMap(len(dims), 0, tuple(dims[:out_rank]))
    weight_type = TensorType(weight_element, list(contraction.weight.shape))
    weight = dense_constant(contraction.weight.astype(element_dtype(weight_type)), weight_type)
    batch = out_type.get_shape()[0]
    full_bias = np.broadcast_to(contraction.bias, (batch, *contraction.bias.shape))
    init_ops, init = build_init(full_bias.astype(element_dtype(out_type)), out_type)
    block = multiply_accumulate_block(in_element, weight_element, element)
    generic = GenericOp(
        [source, weight.result], [init], Region(block),
        [AffineMapAttr(m) for m in (x_map, w_map, out_map)],
        iterator_attrs(["parallel"] * out_rank + ["reduction"] * in_rank),
        [out_type],
    )
    return [weight, *init_ops, generic]
