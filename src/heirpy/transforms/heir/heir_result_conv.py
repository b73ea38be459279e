"""A result with several non-unit dims, laid out by a conv instead of assembled in pieces.

HEIR (heir-opt 2026.11.1) rejects an `expand_shape` that splits a flat vector into
several non-unit dims, and assembling the result from pieces costs a plaintext mask
per insert (a level). Its `conv_2d_nchw_fchw` kernel, however, writes a 1xFxHxW result
in its own row-major layout, which `func.return` takes as it is (a `collapse_shape` to
the result's shape is free, an `expand_shape` that adds unit dims too). And a conv can
compute ANY dense map of a 1xKx1x1 input: with the input padded by P = max(H, W) - 1 on
both spatial dims, output point (h, w) reads the one input pixel through filter tap
(P - h, P - w), a tap no other output point reads, so

    W[f, c, P - h, P - w] = A[(f·H + h)·W + w, c]

is the matrix A of the last linear stage, row for row. Found by reading HEIR's
`LayoutPropagation` (expand_shape, pad, conv) and `ConvertToCiphertextSemantics`, and
measured: such a conv costs one level, as the matvec it replaces, when its input's
length K is a power of two (HEIR pads a vector to a power of two and its pad's remap
masks a partly filled ciphertext otherwise: one level more); so a stage whose input
comes from a matvec (through elementwise ops) gets that matvec's rows padded with
zeros up to the next power of two, and the conv zero taps for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, FloatAttr, IndexType, TensorType
from xdsl.dialects.func import ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp, MatvecOp
from heirpy.ir.dialects.tensor import PadOp
from heirpy.ir.utils import all_parallel, i64_vector, is_identity, iterator_attrs, reassociation_attr, static_shape
from heirpy.transforms.heir.generic_forms import secret_args, value_degree
from heirpy.transforms.heir.heir_forms import LegalizePattern, adds_only_unit_dims, element_of, matvec_ops
from heirpy.transforms.linear.constant_folding import ConstantFolder

MAX_CONV_FILTER_ELEMENTS = 1 << 24
"""Largest filter (F x K x KH x KW entries) `ResultThroughConv` writes: the dense cap of
`heir_forms.MAX_DENSE_ELEMENTS`. A non-square H x W result pads its filter to
(2P + 2 - H) x (2P + 2 - W) taps, e.g. 18 x 10 for a 2x10 batch."""


def next_power_of_two(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


@dataclass(frozen=True)
class ResultGrid:
    """How a result of shape `shape` comes out of a 1xFxHxW conv: the conv's output
    dims, the pad P, the filter taps KH x KW, and the reshapes to `shape`."""

    shape: tuple[int, ...]
    f: int
    h: int
    w: int

    @property
    def pad(self) -> int:
        return max(self.h, self.w) - 1

    @property
    def taps(self) -> tuple[int, int]:
        return 2 * self.pad + 2 - self.h, 2 * self.pad + 2 - self.w

    @property
    def conv_shape(self) -> tuple[int, int, int, int]:
        return 1, self.f, self.h, self.w

    def filter_elements(self, channels: int) -> int:
        kh, kw = self.taps
        return self.f * channels * kh * kw

    def filter_of(self, matrix: np.ndarray, channels: int) -> np.ndarray:
        """The F x channels x KH x KW filter of `matrix` (F·H·W x K, K <= channels):
        row (f, h, w) of the matrix at tap (P - h, P - w); channels past K read zeros."""
        kh, kw = self.taps
        p = self.pad
        rows = matrix.reshape(self.f, self.h, self.w, matrix.shape[1])
        filt = np.zeros((self.f, channels, kh, kw), dtype=matrix.dtype)
        for h in range(self.h):
            for w in range(self.w):
                filt[:, : matrix.shape[1], p - h, p - w] = rows[:, h, w, :]
        return filt


def result_grid(shape: Sequence[int]) -> ResultGrid | None:
    """The conv layout for a result of `shape`: its non-unit dims as (F, H, W), leading
    ones 1, the cheapest filter first; None when it has more than three non-unit dims
    (a conv's output has at most three: N is 1) or fewer than two (an expand_shape that
    only adds unit dims needs no conv)."""
    dims = [d for d in shape if d != 1]
    if not 2 <= len(dims) <= 3:
        return None
    if len(dims) == 3:
        return ResultGrid(tuple(shape), *dims)
    a, b = dims
    candidates = [ResultGrid(tuple(shape), *dims) for dims in ((1, a, b), (a, 1, b), (a, b, 1))]
    return min(candidates, key=lambda grid: grid.filter_elements(1))


def merge_unit_dims(shape: Sequence[int]) -> list[list[int]]:
    """Reassociation groups that collapse `shape` to its non-unit dims (each unit dim
    joins the next non-unit one; trailing ones join the last)."""
    groups: list[list[int]] = []
    current: list[int] = []
    for index, size in enumerate(shape):
        current.append(index)
        if size != 1:
            groups.append(current)
            current = []
    if current:
        if groups:
            groups[-1] += current
        else:
            groups.append(current)
    return groups


def elementwise_input(op: Operation, reader: ConstantFolder) -> SSAValue | None:
    """The one non-constant input of a 1-D elementwise generic (identity maps, all
    parallel, a polynomial of that input, the init unread), or None."""
    if not isinstance(op, GenericOp) or len(op.results) != 1 or not all_parallel(op.iterator_types):
        return None
    shape = static_shape(op.results[0].type)
    if shape is None or len(shape) != 1 or not all(is_identity(m.data) for m in op.indexing_maps):
        return None
    if op.body.block.args[-1].uses:
        return None
    secret = [v for v in op.inputs if reader.fold(v) is None]
    if len(set(secret)) != 1:
        return None
    if value_degree(op.body.block, secret_args(op, secret[0])) is None:
        return None
    return secret[0]


def elementwise_chain(value: SSAValue, reader: ConstantFolder) -> tuple[MatvecOp, list[GenericOp]] | None:
    """The matvec `value` is computed from through single-use 1-D elementwise generics
    (`elementwise_input`), and those generics from the matvec on, or None."""
    chain: list[GenericOp] = []
    current = value
    while not isinstance(current.owner, MatvecOp):
        owner = current.owner
        source = elementwise_input(owner, reader) if isinstance(owner, Operation) else None
        if source is None or not source.has_one_use():
            return None
        assert isinstance(owner, GenericOp)
        chain.append(owner)
        current = source
    if not current.has_one_use():
        return None
    return current.owner, chain[::-1]


def rebuild_elementwise(
    op: GenericOp, value: SSAValue, type_: TensorType, reader: ConstantFolder, pad_with: float | None
) -> list[Operation]:
    """`op` on `value` of `type_` in place of its non-constant input: its constants
    reshaped to `type_` (1-D ones padded with `pad_with` up to its length when given),
    identity maps of `type_`'s rank. The last op's result is the value."""
    shape = list(type_.get_shape())
    ops: list[Operation] = []
    inputs: list[SSAValue] = []
    for operand in op.inputs:
        constant = reader.fold(operand)
        if constant is None:
            inputs.append(value)
            continue
        array = np.asarray(constant).reshape(-1)
        if pad_with is not None:
            array = np.concatenate([array, np.full(prod(shape) - array.size, pad_with, dtype=array.dtype)])
        const = dense_constant(array.reshape(shape), type_)
        ops.append(const)
        inputs.append(const.result)
    empty = tensor.EmptyOp([], type_)
    identity = AffineMapAttr(AffineMap.identity(len(shape)))
    new = GenericOp(inputs, [empty.tensor], op.body.clone(), [identity] * (len(inputs) + 1),
                    iterator_attrs(["parallel"] * len(shape)), [type_])
    return [*ops, empty, new]


@dataclass(frozen=True)
class ResultPlan:
    """A match of `ResultThroughConv`: the layout, the last stage (its matvec, matrix
    and init, and the elementwise generics after it), the conv's input channels, and
    the matvec (with its generics) whose rows are padded to them, if any."""

    grid: ResultGrid
    matvec: MatvecOp
    tail: list[GenericOp]
    matrix: np.ndarray
    init: np.ndarray
    channels: int
    producer: tuple[MatvecOp, list[GenericOp]] | None

    def replaced(self) -> list[Operation]:
        """The ops the rewrite replaces, users first (so each is unused when erased)."""
        old: list[Operation] = [*self.tail[::-1], self.matvec]
        if self.producer is not None:
            old += [*self.producer[1][::-1], self.producer[0]]
        return old


class ResultThroughConv(LegalizePattern[tensor.ExpandShapeOp]):
    """The last linear stage of a result with two or three non-unit dims, as a conv laid
    out as the result (see the module doc for why HEIR compiles it at one level).

        %v = linalg.matvec ins(%A, %x : tensor<96x1024xf32>, tensor<1024xf32>) outs(%b : tensor<96xf32>)
        %s = linalg.generic {x * x} ins(%v) -> tensor<96xf32>
        %t = tensor.expand_shape %s [[0, 1, 2, 3]] output_shape [1, 6, 4, 4]
        return %t
      ->
        %e = tensor.expand_shape %x [[0, 1, 2, 3]] output_shape [1, 1024, 1, 1]
        %p = tensor.pad %e low[0, 0, 3, 3] high[0, 0, 3, 3] (zeros) -> tensor<1x1024x7x7xf32>
        %c = linalg.conv_2d_nchw_fchw ins(%p, %W : tensor<1x1024x7x7xf32>, tensor<6x1024x4x4xf32>)
               outs(%b4 : tensor<1x6x4x4xf32>)
        %s = linalg.generic {x * x} ins(%c) -> tensor<1x6x4x4xf32>
        return %s

    A 2x10 result comes out of a 1x1x2x10 conv and a `collapse_shape`. When %x's length
    is not a power of two and %x is a matvec's result (through single-use elementwise
    generics), that matvec gets zero rows up to the next power of two (the generics'
    constants padded with ones: any finite value, the conv reads those channels with
    zero taps).
    Legality: every user of the expand is `func.return`; two or three non-unit dims
    (`result_grid`); the value is a single-use matvec with a constant matrix and init,
    through single-use 1-D elementwise generics (`elementwise_chain`); its input is a
    power of two long or can be padded to one as above; the filter has at most
    MAX_CONV_FILTER_ELEMENTS entries. Otherwise `ExpandInPieces` assembles the result.
    """

    op_types = (tensor.ExpandShapeOp,)

    def rewrite(self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        plan = self.plan(op)
        if plan is None:
            return
        out_type = op.results[0].type
        assert isinstance(out_type, TensorType)
        ops: list[Operation] = []
        x = plan.matvec.operands[1]
        if plan.producer is not None:
            ops, x = self._padded(plan.producer, plan.channels)
        ops += self._conv(x, plan.matrix, plan.init, plan.grid, plan.channels, out_type)
        value = ops[-1].results[0]
        conv_type = value.type
        assert isinstance(conv_type, TensorType)
        for generic in plan.tail:
            ops += rebuild_elementwise(generic, value, conv_type, self.reader, None)
            value = ops[-1].results[0]
        reshape = self._reshape(value, plan.grid, out_type)
        if reshape:
            value = reshape[-1].results[0]
        rewriter.replace(op, ops + reshape, [value])
        for dead in plan.replaced():
            rewriter.erase(dead)

    def plan(self, op: tensor.ExpandShapeOp) -> ResultPlan | None:
        """What `rewrite` needs, or None when the pattern does not apply (see Legality)."""
        out_type = op.results[0].type
        shape, source_shape = static_shape(out_type), static_shape(op.operands[0].type)
        if shape is None or source_shape is None or len(source_shape) != 1 or not isinstance(out_type, TensorType):
            return None
        if not isinstance(out_type.get_element_type(), AnyFloat) or adds_only_unit_dims(source_shape, shape):
            return None
        if not op.results[0].uses or not all(isinstance(use.operation, ReturnOp) for use in op.results[0].uses):
            return None
        grid = result_grid(shape)
        found = elementwise_chain(op.operands[0], self.reader)
        if grid is None or found is None:
            return None
        matvec, tail = found
        matrix, init = self.reader.fold(matvec.operands[0]), self.reader.init_value(matvec.operands[2])
        if matrix is None or init is None:
            return None
        channels = next_power_of_two(matrix.shape[1])
        if grid.filter_elements(channels) > MAX_CONV_FILTER_ELEMENTS:
            return None
        producer = None
        if channels != matrix.shape[1]:
            producer = elementwise_chain(matvec.operands[1], self.reader)
            if producer is None or self.reader.fold(producer[0].operands[0]) is None:
                return None
            if self.reader.init_value(producer[0].operands[2]) is None:
                return None
        return ResultPlan(grid, matvec, tail, matrix, init, channels, producer)

    def _padded(self, producer: tuple[MatvecOp, list[GenericOp]], channels: int) -> tuple[list[Operation], SSAValue]:
        """The producing matvec with zero rows up to `channels`, and its elementwise
        generics on the longer vector."""
        matvec, chain = producer
        matrix = self.reader.fold(matvec.operands[0])
        init = self.reader.init_value(matvec.operands[2])
        assert matrix is not None and init is not None
        out_type = matvec.results[0].type
        assert isinstance(out_type, TensorType)
        element = element_of(out_type)
        rows = channels - matrix.shape[0]
        dtype = element_dtype(out_type)
        padded_matrix = np.concatenate([matrix, np.zeros((rows, matrix.shape[1]), dtype=matrix.dtype)]).astype(dtype)
        padded_init = np.concatenate([init.reshape(-1), np.zeros(rows, dtype=init.dtype)]).astype(dtype)
        long_type = TensorType(element, [channels])
        init_op = dense_constant(padded_init, long_type)
        ops: list[Operation] = [init_op, *matvec_ops(padded_matrix, matvec.operands[1], init_op.result, element)]
        value = ops[-1].results[0]
        for generic in chain:
            ops += rebuild_elementwise(generic, value, long_type, self.reader, 1.0)
            value = ops[-1].results[0]
        return ops, value

    def _conv(
        self, x: SSAValue, matrix: np.ndarray, init: np.ndarray, grid: ResultGrid, channels: int,
        out_type: TensorType,
    ) -> list[Operation]:
        """expand %x to 1 x channels x 1 x 1, pad by P, conv with `grid.filter_of(matrix)`.

        %x keeps its element type through the expand and the pad (an f16 vector feeding an
        f32 accumulator, as torch-mlir's f16 form has it: the conv casts its input to the
        output type, as the op it replaces did); the filter and init are the output's."""
        element = element_of(out_type)
        x_element = element_of(x.type)
        dtype = element_dtype(out_type)
        in_type = TensorType(x_element, [1, channels, 1, 1])
        expand = tensor.ExpandShapeOp(x, [], reassociation_attr([[0, 1, 2, 3]]), [1, channels, 1, 1], in_type)
        ops: list[Operation] = [expand]
        data = expand.results[0]
        p = grid.pad
        if p > 0:
            assert isinstance(x_element, AnyFloat)
            zero = arith.ConstantOp(FloatAttr(0.0, x_element))
            padded_type = TensorType(x_element, [1, channels, 2 * p + 1, 2 * p + 1])
            pad = zero_pad(data, [0, 0, p, p], padded_type, zero.result)
            ops += [zero, pad]
            data = pad.results[0]
        filt = grid.filter_of(matrix.astype(dtype), channels)
        weight = dense_constant(filt, TensorType(element, list(filt.shape)))
        conv_type = TensorType(element, list(grid.conv_shape))
        bias = dense_constant(init.reshape(grid.conv_shape).astype(dtype), conv_type)
        conv = Conv2DNchwFchwOp(
            [data, weight.result], [bias.result], [conv_type], strides=i64_vector([1, 1]), dilations=i64_vector([1, 1])
        )
        return [*ops, weight, bias, conv]

    @staticmethod
    def _reshape(value: SSAValue, grid: ResultGrid, out_type: TensorType) -> list[Operation]:
        """collapse the 1xFxHxW conv result to the non-unit dims, then expand to `out_type`."""
        ops: list[Operation] = []
        shape = list(out_type.get_shape())
        if list(grid.conv_shape) == shape:
            return ops
        dims = [d for d in shape if d != 1]
        element = element_of(out_type)
        if list(grid.conv_shape) != dims:
            collapse = tensor.CollapseShapeOp(
                operands=[value], result_types=[TensorType(element, dims)],
                properties={"reassociation": reassociation_attr(merge_unit_dims(grid.conv_shape))},
            )
            ops.append(collapse)
            value = collapse.results[0]
        if dims != shape:
            ops.append(tensor.ExpandShapeOp(value, [], reassociation_attr(merge_unit_dims(shape)), shape, out_type))
        return ops


def zero_pad(value: SSAValue, low: Sequence[int], type_: TensorType, zero: SSAValue) -> PadOp:
    """`tensor.pad %value low[low] high[low]` yielding `zero`."""
    block = Block(arg_types=[IndexType()] * len(low))
    block.add_op(tensor.YieldOp(zero))
    return PadOp(value, [], [], Region(block), list(low), list(low), type_)


def is_result_conv(op: Operation) -> bool:
    """True for a conv in `ResultThroughConv`'s form: its data is a 1-D value expanded
    to 1xKx1x1 (and zero padded). `DenseStageToMatvec` leaves it a conv: as a matvec its
    result would need the expand_shape HEIR rejects."""
    if not isinstance(op, Conv2DNchwFchwOp):
        return False
    data = op.operands[0]
    if isinstance(data.owner, PadOp):
        data = data.owner.operands[0]
    shape = static_shape(data.type)
    source = data.owner.operands[0] if isinstance(data.owner, tensor.ExpandShapeOp) else None
    source_shape = static_shape(source.type) if source is not None else None
    if shape is None or source_shape is None:
        return False
    return shape[0] == 1 and shape[2:] == (1, 1) and len(source_shape) == 1
