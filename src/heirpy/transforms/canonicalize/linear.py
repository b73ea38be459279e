"""Linear-op rewrites for `linalg-canonicalizations` (package-private helper module).

* dilated convs (1-D and 2-D) become undilated convs with a zero-interleaved filter;
* standalone sum/average pools (1-D and 2-D) become convs with a constant filter;
* `vecmat(x, transpose(A))` / `matvec(transpose(A), x)` drop the transpose.

The pool -> conv rewrite never fires on a pool that reads a conv: conv + pool is one
linear map, and fusing it (`conv_pool_patterns()`, applied first by the pass) must not be
blocked by splitting the pool into a second conv.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import EllipsisType

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    ShapedType,
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from heirpy.ir.constants import element_dtype
from heirpy.ir.dialects import linalg
from heirpy.ir.utils import affine_maps, all_parallel, all_static, element_type, is_identity
from heirpy.transforms.canonicalize.fold_constants import (
    ConstantPattern,
    _foldable,
    dense_constant,
)
from heirpy.transforms.linear.linear_maps import pool_filter as sum_pool_filter
from heirpy.transforms.rewrite import OpPattern


# ------------------------------------------------------------------ legality helpers
def undilated_filter(filter_: np.ndarray, dilations: Sequence[int]) -> np.ndarray:
    """Spread the trailing `len(dilations)` (window) dims of `filter_` so that tap k sits
    at k * d, with zeros in between: size k -> d * (k - 1) + 1."""
    window_rank = len(dilations)
    lead = filter_.shape[: filter_.ndim - window_rank]
    window = filter_.shape[filter_.ndim - window_rank :]
    new_window = tuple(d * (k - 1) + 1 for k, d in zip(window, dilations))
    out = np.zeros(lead + new_window, dtype=filter_.dtype)
    index: tuple[EllipsisType | slice, ...] = (Ellipsis, *(slice(None, None, d) for d in dilations))
    out[index] = filter_
    return out


def pool_filter(channels: int, window: Sequence[int], value: float, dtype: np.dtype) -> np.ndarray:
    """The [C, C, *window] filter that sums (times `value`) each channel on its own."""
    return (sum_pool_filter(channels, window) * value).astype(dtype)


def _same_form(attr: DenseIntElementsAttr, value: int) -> DenseIntElementsAttr:
    """`attr` with every element set to `value`, keeping its vector/tensor type."""
    return DenseIntOrFPElementsAttr.from_list(attr.type, [value] * len(attr))


# ------------------------------------------------------------------ dilated convs
class _UndilateConv(ConstantPattern[linalg.Conv2DNchwFchwOp | linalg.Conv1DNcwFcwOp]):
    """Shared body of the two undilate patterns (1-D and 2-D differ only in op type)."""

    def rewrite(self, op: linalg.Conv2DNchwFchwOp | linalg.Conv1DNcwFcwOp, rewriter: PatternRewriter) -> None:
        dilations = op.window_dilations()
        if all(d == 1 for d in dilations):
            return
        filter_ = self.array(op.inputs[1])
        if filter_ is None or len(op.res) != 1:
            return
        new_filter = undilated_filter(filter_, dilations)
        filter_type = op.inputs[1].type
        assert isinstance(filter_type, TensorType)
        new_type = TensorType(filter_type.get_element_type(), new_filter.shape)
        if not _foldable(new_filter, new_type):
            return
        cst = dense_constant(new_filter, new_type)
        # Some dilation is not 1, so the text gave them; strides may be left to default.
        strides, dilations_attr = op.strides, op.dilations
        assert dilations_attr is not None
        new_conv = type(op)(
            inputs=[op.inputs[0], cst.result],
            outputs=list(op.outputs),
            res=[op.res[0].type],
            attributes=dict(op.attributes),
            strides=strides,
            dilations=_same_form(dilations_attr, 1),
        )
        rewriter.insert(cst)
        rewriter.replace(op, new_conv)


class UndilateConv2D(_UndilateConv):
    """A dilated 2-D conv is an undilated conv with a zero-interleaved filter.

        linalg.conv_2d_nchw_fchw {dilations = dense<2>, strides = dense<1>}
            ins(%x, %w : tensor<1x1x8x8xf32>, tensor<1x1x3x3xf32>) ...
    ==>
        %w2 = arith.constant dense<[[[[1,0,2,0,3],[0,0,0,0,0],[4,0,5,0,6],...]]]> : tensor<1x1x5x5xf32>
        linalg.conv_2d_nchw_fchw {dilations = dense<1>, strides = dense<1>} ins(%x, %w2 ...) ...

    Legality: some dilation > 1; the filter is a constant (dense or dense_resource) with
    a static shape; the expanded filter is within the fold size bound.
    """

    op_types = (linalg.Conv2DNchwFchwOp,)


class UndilateConv1D(_UndilateConv):
    """A dilated 1-D conv (`conv_1d_ncw_fcw`) is an undilated conv with a zero-interleaved
    filter: `[1, 2, 3]` with dilation 2 becomes `[1, 0, 2, 0, 3]`.

    Legality: as for `UndilateConv2D`.
    """

    op_types = (linalg.Conv1DNcwFcwOp,)


# ------------------------------------------------------------------ pools
def divisor_of(
    user: Operation, pooled: SSAValue, scalar: Callable[[SSAValue], float | int | None]
) -> float | None:
    """If `user` computes `pooled / c` for a constant scalar c, return c.

    Accepted forms: `arith.divf %pooled, %splat_const` on tensors, and a `linalg.generic`
    with one input (`pooled`), identity maps, parallel loops and body
    `divf(%in, %c)` + yield, %c a scalar constant (defined outside the body or in it).
    """
    if isinstance(user, arith.DivfOp):
        if user.lhs is pooled and user.rhs is not pooled:
            return _as_float(scalar(user.rhs))
        return None
    if isinstance(user, linalg.GenericOp):
        if list(user.inputs) != [pooled] or len(user.outputs) != 1 or len(user.res) != 1:
            return None
        if not all(is_identity(m) for m in affine_maps(user.indexing_maps)):
            return None
        if not all_parallel(user.iterator_types):
            return None
        body = [o for o in user.body.block.ops if not isinstance(o, arith.ConstantOp)]
        if len(body) != 2:
            return None
        div, yield_ = body
        if not isinstance(div, arith.DivfOp) or tuple(yield_.operands) != (div.results[0],):
            return None
        if div.lhs is not user.body.block.args[0]:
            return None
        # A block argument or a computed value is not a constant: scalar_constant says so.
        return _as_float(scalar(div.rhs))
    return None


def _as_float(value: float | int | None) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    value = float(value)
    return value if value != 0.0 else None


class _PoolToConv(ConstantPattern[linalg.PoolingNchwSumOp | linalg.PoolingNcwSumOp]):
    """Shared body of the 1-D and 2-D pool -> conv patterns."""

    conv_type: type[linalg.Conv2DNchwFchwOp] | type[linalg.Conv1DNcwFcwOp]

    def rewrite(self, op: linalg.PoolingNchwSumOp | linalg.PoolingNcwSumOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.res) != 1:
            return
        source, window, init = op.inputs[0], op.inputs[1], op.outputs[0]
        if not all_static([source, window, init]):
            return
        if isinstance(source.owner, linalg.ConvolutionOp):
            return  # conv + pool is fused by conv_pool_patterns(), never split
        assert isinstance(source.type, ShapedType) and isinstance(window.type, ShapedType)
        elements = element_type(source.type)
        channels = source.type.get_shape()[1]
        window_shape = window.type.get_shape()

        # An average pool is a sum pool followed by a divide: fold 1/c into the filter,
        # and divide the init too (it is summed *before* the divide), which is only
        # possible when the init is known.
        divide: Operation | None = None
        scale = 1.0
        new_init: SSAValue = init
        new_init_op: Operation | None = None
        uses = list(op.res[0].uses)
        if isinstance(elements, AnyFloat) and len(uses) == 1:
            divisor = divisor_of(uses[0].operation, op.res[0], self.scalar)
            init_values = self.array(init) if divisor is not None else None
            if divisor is not None and init_values is not None:
                divide, scale = uses[0].operation, 1.0 / divisor
                if np.any(init_values != 0):
                    assert isinstance(init.type, TensorType)
                    new_init_op = dense_constant(init_values / init_values.dtype.type(divisor), init.type)
                    new_init = new_init_op.results[0]

        filter_values = pool_filter(channels, window_shape, scale, element_dtype(elements))
        filter_type = TensorType(elements, filter_values.shape)
        if not _foldable(filter_values, filter_type):
            return
        filt = dense_constant(filter_values, filter_type)
        filt.result.name_hint = "cst"  # as MLIR names a constant, not a copy of the pool's name
        conv = self.conv_type(
            inputs=[source, filt.result],
            outputs=[new_init],
            res=[op.res[0].type],
            strides=op.strides,
            dilations=op.dilations,
        )
        new_ops = [filt, *([new_init_op] if new_init_op else []), conv]
        if divide is None:
            rewriter.replace(op, new_ops)
            return
        rewriter.insert(new_ops)
        rewriter.replace(divide, [], [conv.res[0]])
        rewriter.erase(op)


class PoolToConv2D(_PoolToConv):
    """A standalone 2-D sum pool (optionally followed by a constant divide: an average
    pool) is a conv with a constant per-channel filter.

        %p = linalg.pooling_nchw_sum {strides = dense<2>} ins(%x, %win : tensor<1x6x28x28xf32>, tensor<2x2xf32>)
               outs(%init : tensor<1x6x14x14xf32>)
        %r = arith.divf %p, %four : tensor<1x6x14x14xf32>        (or the same as a linalg.generic)
    ==>
        %w = arith.constant dense<...> : tensor<6x6x2x2xf32>      (0.25 on the channel diagonal)
        %r = linalg.conv_2d_nchw_fchw {strides = dense<2>} ins(%x, %w) outs(%init / 4)

    Legality: static shapes; the pooled input is not produced by a conv (that pair is
    fused instead); the divide is folded only when it is the pool's single use, its
    divisor is a non-zero constant and the init is known (constant or constant fill), in
    which case the init is divided too. HEIR keeps the init undivided, which changes
    the result when the init is non-zero; heirpy does not.
    """

    op_types = (linalg.PoolingNchwSumOp,)
    conv_type = linalg.Conv2DNchwFchwOp


class PoolToConv1D(_PoolToConv):
    """A standalone 1-D sum/average pool (`pooling_ncw_sum`) is a `conv_1d_ncw_fcw` with
    a constant [C, C, KW] filter.

    Legality: as for `PoolToConv2D`.
    """

    op_types = (linalg.PoolingNcwSumOp,)
    conv_type = linalg.Conv1DNcwFcwOp


# ------------------------------------------------------------------ transposed matvecs
def transposed_2d_source(value: SSAValue) -> SSAValue | None:
    """If `value` is `linalg.transpose` of a 2-D tensor with permutation [1, 0], its input."""
    owner = value.owner
    if not isinstance(owner, linalg.xops.TransposeOp) or len(owner.inputs) != 1:
        return None
    if tuple(owner.permutation.get_values()) != (1, 0):
        return None
    return owner.inputs[0]


def _contraction(
    cls: type[linalg.MatvecOp] | type[linalg.VecmatOp], ins: list[SSAValue], old: Operation
) -> linalg.MatvecOp | linalg.VecmatOp:
    outs = list(old.operands[2:])
    return cls(ins, outs, [r.type for r in old.results], dict(old.attributes))


class TransposedVecmatToMatvec(OpPattern[linalg.VecmatOp]):
    """`x^T (A^T)` is `A x`.

        %t = linalg.transpose ins(%A : tensor<512x784xf32>) outs(%e : tensor<784x512xf32>) permutation = [1, 0]
        %r = linalg.vecmat ins(%x, %t : tensor<784xf32>, tensor<784x512xf32>) outs(%init : tensor<512xf32>)
    ==>
        %r = linalg.matvec ins(%A, %x : tensor<512x784xf32>, tensor<784xf32>) outs(%init : tensor<512xf32>)

    Legality: the matrix operand is a [1, 0] transpose (an identity "transpose" is not).
    """

    op_types = (linalg.VecmatOp,)

    def rewrite(self, op: linalg.VecmatOp, rewriter: PatternRewriter) -> None:
        source = transposed_2d_source(op.inputs[1]) if len(op.inputs) == 2 else None
        if source is None:
            return
        rewriter.replace(
            op,
            _contraction(linalg.MatvecOp, [source, op.inputs[0]], op),
        )


class TransposedMatvecToVecmat(OpPattern[linalg.MatvecOp]):
    """`(A^T) x` is `x^T A`.

        %t = linalg.transpose ins(%A : tensor<784x512xf32>) outs(%e : tensor<512x784xf32>) permutation = [1, 0]
        %r = linalg.matvec ins(%t, %x : tensor<512x784xf32>, tensor<784xf32>) outs(%init : tensor<512xf32>)
    ==>
        %r = linalg.vecmat ins(%x, %A : tensor<784xf32>, tensor<784x512xf32>) outs(%init : tensor<512xf32>)

    Legality: the matrix operand is a [1, 0] transpose.
    """

    op_types = (linalg.MatvecOp,)

    def rewrite(self, op: linalg.MatvecOp, rewriter: PatternRewriter) -> None:
        source = transposed_2d_source(op.inputs[0]) if len(op.inputs) == 2 else None
        if source is None:
            return
        rewriter.replace(
            op,
            _contraction(linalg.VecmatOp, [op.inputs[1], source], op),
        )


LINEAR_PATTERNS: tuple[type[RewritePattern], ...] = (
    UndilateConv2D,
    UndilateConv1D,
    PoolToConv2D,
    PoolToConv1D,
    TransposedVecmatToMatvec,
    TransposedMatvecToVecmat,
)
