"""The chain steps of `linalg-fuse-linear-chains`: each op a linear chain may hold, seen
as a per-sample map of its activation operand (`Step`), and `step_of`, which reads an op
as one. The chains themselves, their forms and the pattern are in
`linalg_fuse_linear_chains`; `legalize-for-heir` reads dense stages with the same views.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from heirpy.ir.dialects.linalg import (
    Conv2DNchwFchwOp,
    DepthwiseConv2DNchwChwOp,
    GenericOp,
    MatmulOp,
    MatvecOp,
    PoolingNchwSumOp,
    TransposeOp,
    VecmatOp,
)
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp
from heirpy.ir.utils import int_pair, reassociation_groups, static_shape
from heirpy.transforms.linear.constant_folding import ConstantFolder, init_elements
from heirpy.transforms.linear.linear_maps import (
    AffineConv,
    SampleMap,
    SpatialPad,
    channel_vector,
    compose_affine_convs,
    is_batch_invariant,
    keeps_batch_axis,
    pad_keeps_batch,
    pool_filter,
    sum_pool_nchw,
)
from heirpy.transforms.linear.linear_match import (
    SumReduction,
    match_elementwise_affine,
    match_sum_reduction,
)

BATCHED, UNBATCHED = "batched", "unbatched"


@dataclass
class Step:
    """One op of a chain, as a per-sample map of its activation operand.

    `mode` is BATCHED (axis 0 is the batch), UNBATCHED (the whole tensor is one sample)
    or None (elementwise: takes the mode of its neighbours). `conv` is the step as an
    AffineConv when it is translation-equivariant on NCHW samples."""

    op: Operation
    activation: SSAValue
    costly: bool
    mode: str | None
    apply_batched: SampleMap  # on [B, *sample] in BATCHED mode
    apply_unbatched: SampleMap | None = None  # on [B, *shape] in UNBATCHED mode
    conv: AffineConv | None = None
    reshape_only: bool = False  # pads and reshapes: left outside at a chain's ends
    zero_pad: SpatialPad | None = None  # a zero pad of H and W only (NCHW): see `Chain.as_conv`
    constants: list[SSAValue] = field(default_factory=list)
    summed_axes: tuple[int, ...] = ()  # a sum reduction: the sample axes it sums
    weights: int = 0  # weight elements of a costly or leveled step (a pool or sum has none)
    macs: int = 0  # its multiply-accumulates per sample (a sum counts its adds)
    leveled: bool = False  # a free step that costs HEIR a level unless folded: a scale
    init_size: int = 0  # elements its init (an add's constant) is stored in (`init_elements`)

    @property
    def result(self) -> SSAValue:
        return self.op.results[0]

    def sample_map(self, mode: str) -> SampleMap:
        if mode == UNBATCHED:
            assert self.apply_unbatched is not None
            return self.apply_unbatched
        return self.apply_batched


# ------------------------------------------------------------------------- step views
def _sample_const(full: np.ndarray | None) -> np.ndarray | None:
    """The per-sample constant of a batched init, if every batch element agrees."""
    if full is None or not is_batch_invariant(full):
        return None
    return full[0].astype(np.float64)


def step_of(op: Operation, reader: ConstantFolder) -> Step | None:
    """The chain step `op` is, or None (a nonlinearity, an unknown op, non-constant
    weights, dynamic shapes ...)."""
    if len(op.results) != 1 or static_shape(op.results[0].type) is None:
        return None
    if any(static_shape(v.type) is None for v in op.operands if isinstance(v.type, TensorType)):
        return None
    for kind, view in _READ_STEPS:
        if isinstance(op, kind):
            return view(op, reader)
    if isinstance(op, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        return _reshape_step(op)
    if isinstance(op, TransposeOp):
        return _transpose_step(op)
    reduction = match_sum_reduction(op)
    if reduction is not None:
        return _sum_step(reduction, reader)
    return _elementwise_step(op, reader)


def _conv_step(op: Conv2DNchwFchwOp, reader: ConstantFolder) -> Step | None:
    x, w, init = op.operands
    weight = reader.fold(w)
    const = _sample_const(reader.init_value(init))
    if weight is None or const is None or reader.fold(x) is not None:
        return None
    conv = AffineConv(
        weight.astype(np.float64), int_pair(op.window_strides()), int_pair(op.window_dilations()), const
    )
    return Step(op, x, True, BATCHED, conv.apply, conv=conv, constants=[w, init],
                weights=weight.size, macs=conv.macs(), init_size=init_elements(const))


def _depthwise_step(op: DepthwiseConv2DNchwChwOp, reader: ConstantFolder) -> Step | None:
    """A depthwise conv (`K[c, kh, kw]`: channel c reads channel c only) as the conv
    whose `[C, C, KH, KW]` filter is zero off the channel diagonal, so it composes with
    the convs around it like any conv (ShuffleNet's and GhostNet's depthwise -> batch
    norm -> 1x1 conv). Its weights and MACs are the depthwise conv's own (C*KH*KW per
    output position), not the diagonal filter's: the cost rule weighs what it stores."""
    x, w, init = op.operands
    weight = reader.fold(w)
    const = _sample_const(reader.init_value(init))
    if weight is None or weight.ndim != 3 or const is None or reader.fold(x) is not None:
        return None
    channels = weight.shape[0]
    dense = np.zeros((channels, channels, *weight.shape[1:]), dtype=np.float64)
    dense[np.arange(channels), np.arange(channels)] = weight.astype(np.float64)
    conv = AffineConv(dense, int_pair(op.window_strides()), int_pair(op.window_dilations()), const)
    return Step(op, x, True, BATCHED, conv.apply, conv=conv, constants=[w, init],
                weights=weight.size, macs=const.size * prod(weight.shape[1:]),
                init_size=init_elements(const))


def _pool_step(op: PoolingNchwSumOp, reader: ConstantFolder) -> Step | None:
    x, window, init = op.operands
    const = _sample_const(reader.init_value(init))
    if const is None or reader.fold(x) is not None:
        return None
    shape = static_shape(window.type)
    assert shape is not None
    strides, dilations = op.window_strides(), op.window_dilations()
    out_hw = const.shape[1:]

    def apply(batch: np.ndarray) -> np.ndarray:
        return sum_pool_nchw(batch, shape, strides, dilations, out_hw) + const

    conv = AffineConv(pool_filter(const.shape[0], shape), int_pair(strides), int_pair(dilations), const)
    return Step(op, x, True, BATCHED, apply, conv=conv, constants=[init],
                macs=const.size * prod(shape), init_size=init_elements(const))


def _fused_conv_pool_step(op: FusedConvPoolOp, reader: ConstantFolder) -> Step | None:
    weight = reader.fold(op.filter)
    conv_const = _sample_const(reader.init_value(op.conv_init))
    pool_const = _sample_const(reader.init_value(op.pool_init))
    if weight is None or conv_const is None or pool_const is None:
        return None
    if reader.fold(op.input) is not None:
        return None
    conv = AffineConv(
        weight.astype(np.float64), int_pair(op.int_values("conv_strides")),
        int_pair(op.int_values("conv_dilations")), conv_const,
    )
    window = op.int_values("pool_window")
    pool = AffineConv(
        pool_filter(pool_const.shape[0], window), int_pair(op.int_values("pool_strides")),
        int_pair(op.int_values("pool_dilations")), pool_const,
    )
    composed = compose_affine_convs(conv, pool)
    divisor = op.divisor_value()
    if divisor is not None:
        composed = AffineConv(
            composed.weight / divisor, composed.strides, composed.dilations, composed.const / divisor
        )
    return Step(op, op.input, True, BATCHED, composed.apply, conv=composed,
                weights=weight.size, macs=composed.macs(),
                constants=[op.filter, op.conv_init, op.pool_init],
                init_size=init_elements(conv_const) + init_elements(pool_const))


def _sum_step(reduction: SumReduction, reader: ConstantFolder) -> Step | None:
    """A sum over sample axes (torch's global average pool before its divide)."""
    if 0 in reduction.reduced_axes or reader.fold(reduction.operand) is not None:
        return None  # summing over the batch mixes samples
    const = _sample_const(reader.init_value(reduction.init))
    if const is None:
        return None
    axes = reduction.reduced_axes
    out_sample = const.shape

    def apply(batch: np.ndarray) -> np.ndarray:
        summed = batch.astype(np.float64).sum(axis=axes)
        return summed.reshape(batch.shape[0], *out_sample) + const

    in_shape = static_shape(reduction.operand.type)
    assert in_shape is not None
    # No conv form: a global pool as a conv is a [C, C, H, W] filter, never the cheap
    # representation; a chain that starts with a sum becomes a contraction instead.
    return Step(reduction.op, reduction.operand, True, BATCHED, apply,
                constants=[reduction.init], summed_axes=tuple(a - 1 for a in axes),
                macs=prod(in_shape[1:]), init_size=init_elements(const))


def _matmul_step(op: MatmulOp, reader: ConstantFolder) -> Step | None:
    x, w, init = op.operands
    weight = reader.fold(w)
    const = _sample_const(reader.init_value(init))
    if weight is None or const is None or reader.fold(x) is not None:
        return None
    matrix = weight.astype(np.float64)

    def apply(batch: np.ndarray) -> np.ndarray:
        return batch @ matrix + const

    return Step(op, x, True, BATCHED, apply, constants=[w, init],
                weights=matrix.size, macs=matrix.size, init_size=init_elements(const))


def _vector_step(op: Operation, reader: ConstantFolder) -> Step | None:
    is_matvec = isinstance(op, MatvecOp)
    a, b, init = op.operands
    w, x = (a, b) if is_matvec else (b, a)
    weight = reader.fold(w)
    const = reader.init_value(init)
    if weight is None or const is None or reader.fold(x) is not None:
        return None
    matrix = weight.astype(np.float64).T if is_matvec else weight.astype(np.float64)
    const64 = const.astype(np.float64)

    def apply(batch: np.ndarray) -> np.ndarray:
        return batch @ matrix + const64

    return Step(op, x, True, UNBATCHED, apply, apply_unbatched=apply, constants=[w, init],
                weights=matrix.size, macs=matrix.size, init_size=init_elements(const))


def _pad_step(op: tensor.PadOp, reader: ConstantFolder) -> Step | None:
    if op.low or op.high:
        return None  # dynamic padding
    low = list(op.static_low.get_values())
    high = list(op.static_high.get_values())
    block_ops = list(op.region.block.ops)
    if not pad_keeps_batch(low, high) or len(block_ops) != 1:
        return None
    (padding_value,) = block_ops[0].operands
    value = reader.fold(padding_value)
    if value is None or value.ndim != 0 or reader.fold(op.source) is not None:
        return None
    widths = [(0, 0)] + list(zip(low[1:], high[1:]))

    def apply(batch: np.ndarray) -> np.ndarray:
        return np.pad(batch, widths, constant_values=float(value))

    spatial: SpatialPad | None = None
    if len(low) == 4 and low[1] == high[1] == 0 and float(value) == 0.0:
        spatial = ((low[2], high[2]), (low[3], high[3]))
    return Step(op, op.source, False, BATCHED, apply, reshape_only=True, constants=[padding_value],
                zero_pad=spatial)


_READ_STEPS: tuple[tuple[type[Operation] | tuple[type[Operation], ...], Callable[..., Step | None]], ...] = (
    (Conv2DNchwFchwOp, _conv_step),
    (DepthwiseConv2DNchwChwOp, _depthwise_step),
    (PoolingNchwSumOp, _pool_step),
    (FusedConvPoolOp, _fused_conv_pool_step),
    (MatmulOp, _matmul_step),
    ((MatvecOp, VecmatOp), _vector_step),
    (tensor.PadOp, _pad_step),
)
"""The ops `step_of` reads with the constant reader, each with its view."""


def _reshape_step(op: Operation) -> Step | None:
    reassociation = reassociation_groups(op.properties["reassociation"])
    if not keeps_batch_axis(reassociation):
        return None
    out_shape = static_shape(op.results[0].type)
    assert out_shape is not None

    def apply(batch: np.ndarray) -> np.ndarray:
        return batch.reshape(batch.shape[0], *out_shape[1:])

    return Step(op, op.operands[0], False, BATCHED, apply, reshape_only=True)


def _transpose_step(op: TransposeOp) -> Step | None:
    """A transpose that keeps the batch axis (a channel shuffle's middle op): free, like
    a reshape; `Chain.as_conv` reads a run of them as a channel permutation."""
    permutation = list(op.permutation.get_values())
    if not permutation or permutation[0] != 0:
        return None

    def apply(batch: np.ndarray) -> np.ndarray:
        return batch.transpose(permutation)

    return Step(op, op.inputs[0], False, BATCHED, apply, reshape_only=True)


def _elementwise_step(op: Operation, reader: ConstantFolder) -> Step | None:
    match = match_elementwise_affine(op, reader)
    if match is None or not match.is_affine():
        return None
    full = match.constant.astype(np.float64)

    def apply_unbatched(batch: np.ndarray) -> np.ndarray:
        return match.apply(batch, full[None])

    conv: AffineConv | None = None
    apply_batched: SampleMap
    if full.ndim >= 2 and is_batch_invariant(full):
        sample = full[0]

        def apply_batched(batch: np.ndarray) -> np.ndarray:
            return match.apply(batch, sample[None])

        if full.ndim == 4:
            conv = _elementwise_as_conv(match.kind, match.operand_is_lhs, sample)
    else:

        def apply_batched(batch: np.ndarray) -> np.ndarray:
            raise ValueError("not a per-sample map")

    mode = None if full.ndim >= 2 and is_batch_invariant(full) else UNBATCHED
    # A scale is a plaintext-ciphertext product: HEIR spends a level on it unless it is
    # folded into a linear op's weights (the depth model charges a uniform one nothing
    # because heirpy's fusions fold it), unlike an add.
    leveled = match.kind in ("mul", "div")
    stored = _constant_elements(op, match.operand)
    return Step(op, match.operand, False, mode, apply_batched, apply_unbatched, conv,
                constants=list(op.operands), leveled=leveled, weights=stored if leveled else 0,
                macs=prod(full.shape[1:]) if leveled else 0, init_size=0 if leveled else stored)


def _constant_elements(op: Operation, activation: SSAValue) -> int:
    """Elements of the constant operand of an elementwise step, as stored (a
    per-channel scale's [C, 1, 1]), the weight a back end encodes."""
    inputs = op.inputs if isinstance(op, GenericOp) else op.operands
    sizes = [prod(shape) for v in inputs if v is not activation and (shape := static_shape(v.type)) is not None]
    return max(sizes, default=1)


def _elementwise_as_conv(kind: str, operand_is_lhs: bool, sample: np.ndarray) -> AffineConv | None:
    """An elementwise step on NCHW samples as a 1x1 conv with a diagonal filter."""
    channels = sample.shape[0]
    eye = np.eye(channels)[:, :, None, None]
    zero = np.zeros_like(sample)
    if kind == "add":
        return AffineConv(eye, (1, 1), (1, 1), sample)
    if kind == "sub":
        if operand_is_lhs:
            return AffineConv(eye, (1, 1), (1, 1), -sample)
        return AffineConv(-eye, (1, 1), (1, 1), sample)
    scale = channel_vector(sample, 0)
    if scale is None or (kind == "div" and np.any(scale == 0)):
        return None
    factor = scale if kind == "mul" else 1.0 / scale
    return AffineConv(np.diag(factor)[:, :, None, None], (1, 1), (1, 1), zero)


def channel_permutation(steps: list[Step], start: int) -> tuple[AffineConv, int] | None:
    """The run of reshapes and transposes from `steps[start]` as a 1x1 conv with a
    permutation filter, and the index after the run, when the run maps an NCHW sample to
    one of the same shape by permuting its channels (ShuffleNet's channel shuffle:
    expand to [N, g, C/g, H, W], swap the group axes, collapse back); else None. Found
    by sending each element's index through the run."""
    end = start
    while end < len(steps) and steps[end].reshape_only and steps[end].zero_pad is None:
        end += 1
    shape = static_shape(steps[start].activation.type)
    if end == start or shape is None or len(shape) != 4 or static_shape(steps[end - 1].result.type) != shape:
        return None
    channels, height, width = shape[1:]
    probe = np.arange(channels * height * width, dtype=np.float64).reshape(1, channels, height, width)
    moved = probe
    for step in steps[start:end]:
        moved = step.apply_batched(moved)
    if moved.shape != probe.shape:
        return None
    sources = (moved[0, :, 0, 0] // (height * width)).astype(int)
    if sorted(sources) != list(range(channels)) or not np.array_equal(moved[0], probe[0, sources]):
        return None
    weight = np.eye(channels)[sources][:, :, None, None]
    return AffineConv(weight, (1, 1), (1, 1), np.zeros((channels, height, width))), end
