"""Constant folding for `linalg-canonicalizations` (package-private helper module).

Patterns here replace a layout op whose input is a compile-time constant by the constant
it computes: `linalg.fill`, `linalg.broadcast` of a splat, `linalg.transpose` of a
constant, `tensor.extract_slice` of a broadcast constant, and `arith.extf` / `arith.truncf`
of a constant tensor. No fold writes a constant with more elements than its input (a
broadcast of a varying vector stays a broadcast; `extf` only widens each element) unless
the function only returns it. Constants may be `dense<...>` (list,
splat or hex) or `dense_resource<...>`; results are always plain `dense<...>`.

Reading and building constants is `heirpy.ir.constants`; this module only adds
the size bound on what a fold may produce.
"""

from __future__ import annotations

from math import prod

import numpy as np
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import ShapedType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.constants import (
    MAX_FOLDED_BYTES,
    NO_BLOBS,
    Blobs,
    constant_array,
    numpy_dtype,
    scalar_constant,
)
from heirpy.ir.constants import dense_constant as _dense_constant
from heirpy.ir.dialects import linalg
from heirpy.transforms.rewrite import OpPattern, OpT


class ConstantPattern(OpPattern[OpT]):
    """A pattern that reads constants: it needs the `dense_resource` blobs of the module
    being rewritten (`ContextBlobs(ctx)` for the pass's context)."""

    def __init__(self, blobs: Blobs = NO_BLOBS):
        self.blobs = blobs

    def array(self, value: SSAValue) -> np.ndarray | None:
        return constant_array(value, self.blobs)

    def scalar(self, value: SSAValue) -> float | int | None:
        return scalar_constant(value, self.blobs)


def dense_constant(array: np.ndarray, type_: TensorType) -> arith.ConstantOp:
    """`arith.constant` of `type_` from `array`, broadcast to the type's shape (a
    scalar array gives a splat)."""
    return _dense_constant(np.broadcast_to(array, type_.get_shape()), type_)


def _is_splat(array: np.ndarray) -> bool:
    return bool(array.size) and bool(np.all(array.reshape(-1) == array.reshape(-1)[0]))


def _foldable(array: np.ndarray, out_type: Attribute) -> bool:
    """A fold is allowed when its result is a splat or small enough."""
    if not isinstance(out_type, TensorType) or any(d < 0 for d in out_type.get_shape()):
        return False
    if numpy_dtype(out_type) is None:
        return False
    if _is_splat(array):
        return True
    return prod(out_type.get_shape()) * array.dtype.itemsize <= MAX_FOLDED_BYTES


def broadcast_values(array: np.ndarray, out_shape: tuple[int, ...], dims: tuple[int, ...]) -> np.ndarray:
    """`linalg.broadcast` semantics: `dims` are the *added* output dims."""
    kept = [d for d in range(len(out_shape)) if d not in dims]
    view_shape = [1] * len(out_shape)
    for in_dim, out_dim in enumerate(kept):
        view_shape[out_dim] = array.shape[in_dim]
    return np.broadcast_to(array.reshape(view_shape), out_shape)


# ------------------------------------------------------------------ patterns
class FoldConstantFill(ConstantPattern[linalg.xops.FillOp]):
    """A fill of a constant scalar is a splat constant.

        %c = arith.constant 1.0 : f32
        %r = linalg.fill ins(%c : f32) outs(%e : tensor<1x512xf32>) -> tensor<1x512xf32>
    ==>
        %r = arith.constant dense<1.0> : tensor<1x512xf32>

    Legality: tensor semantics (a result exists), static result shape, constant fill value.
    """

    op_types = (linalg.xops.FillOp,)

    def rewrite(self, op: linalg.xops.FillOp, rewriter: PatternRewriter) -> None:
        if len(op.res) != 1 or len(op.inputs) != 1:
            return
        value = self.array(op.inputs[0])
        out_type = op.res[0].type
        if value is None or value.ndim != 0 or not _foldable(value, out_type):
            return
        assert isinstance(out_type, TensorType)
        rewriter.replace(op, dense_constant(value, out_type))


class FoldConstantBroadcast(ConstantPattern[linalg.xops.BroadcastOp]):
    """A broadcast of a splat constant is a splat constant.

        %c = arith.constant dense<1.0> : tensor<f32>
        %r = linalg.broadcast ins(%c : tensor<f32>) outs(%e : tensor<1x512xf32>) dimensions = [0, 1]
    ==>
        %r = arith.constant dense<1.0> : tensor<1x512xf32>

    Legality: tensor semantics, static shapes, constant input (dense or dense_resource),
    and a result that stores no more than the input: a splat (also a blob whose values
    are all equal), or a broadcast that only adds unit dims. A broadcast of a varying
    constant (a `[C]` bias over `1xCxHxW`) stays a broadcast while an op uses it:
    folding it would write the vector out H*W times for every later pass and kernel to
    carry. When the function only returns it, the broadcast tensor is what the function
    produces anyway, so it folds (within `MAX_FOLDED_BYTES`), as HEIR folds it (HEIR
    folds every broadcast of a constant, bounding only a `dense_resource` input).
    """

    op_types = (linalg.xops.BroadcastOp,)

    def rewrite(self, op: linalg.xops.BroadcastOp, rewriter: PatternRewriter) -> None:
        if len(op.result) != 1:
            return
        value = self.array(op.input)
        out_type = op.result[0].type
        if value is None or not isinstance(out_type, TensorType):
            return
        out_shape = out_type.get_shape()
        if any(d < 0 for d in out_shape):
            return  # a dynamic result: its size is only known at run time
        dims = tuple(op.dimensions.get_values())
        if value.ndim + len(dims) != len(out_shape):
            return
        folded = broadcast_values(value, out_shape, dims)
        small = _is_splat(folded) or folded.size <= value.size or _only_returned(op.result[0])
        if not small or not _foldable(folded, out_type):
            return
        rewriter.replace(op, dense_constant(folded, out_type))


def _only_returned(value: SSAValue) -> bool:
    """Is every use of `value` a `func.return` operand (nothing computes with it)?"""
    return bool(value.uses) and all(isinstance(use.operation, func.ReturnOp) for use in value.uses)


class FoldConstantTranspose(ConstantPattern[linalg.xops.TransposeOp]):
    """A transpose of a constant is the transposed constant.

        %c = arith.constant dense<[[1., 2.], [3., 4.], [5., 6.]]> : tensor<3x2xf16>
        %r = linalg.transpose ins(%c : tensor<3x2xf16>) outs(%e : tensor<2x3xf16>) permutation = [1, 0]
    ==>
        %r = arith.constant dense<[[1., 3., 5.], [2., 4., 6.]]> : tensor<2x3xf16>

    Legality: tensor semantics, static shapes, constant input, result size bounded as
    for broadcasts (a constant already in the IR is moved, not grown, so the bound is
    only hit by constants over `MAX_FOLDED_BYTES`, which stay transposes).
    """

    op_types = (linalg.xops.TransposeOp,)

    def rewrite(self, op: linalg.xops.TransposeOp, rewriter: PatternRewriter) -> None:
        if len(op.res) != 1 or len(op.inputs) != 1:
            return
        value = self.array(op.inputs[0])
        out_type = op.res[0].type
        if value is None or not isinstance(out_type, TensorType):
            return
        perm = tuple(op.permutation.get_values())
        if sorted(perm) != list(range(value.ndim)):
            return
        folded = np.transpose(value, perm)
        if folded.shape != out_type.get_shape() or not _foldable(folded, out_type):
            return
        rewriter.replace(op, dense_constant(folded, out_type))


class FoldConstantExtractSlice(ConstantPattern[tensor.ExtractSliceOp]):
    """A static slice of a constant (or of a broadcast / fill of one) is a constant.

        %c = arith.constant dense<[1., 2., 3., 4.]> : tensor<4xf32>
        %b = linalg.broadcast ins(%c : tensor<4xf32>) outs(%e : tensor<4x2xf32>) dimensions = [1]
        %s = tensor.extract_slice %b[1, 1] [1, 1] [1, 1] : tensor<4x2xf32> to tensor<1x1xf32>
    ==>
        %s = arith.constant dense<2.0> : tensor<1x1xf32>

    It folds the slice of a broadcast without folding the broadcast, so it also applies
    when the broadcast is too large to fold. Legality: static offsets, sizes, strides
    and result shape; a constant source. Rank-reducing slices drop unit sizes.
    """

    op_types = (tensor.ExtractSliceOp,)

    def rewrite(self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> None:
        if op.offsets or op.sizes or op.strides:
            return  # dynamic offsets/sizes/strides
        out_type = op.result.type
        if not isinstance(out_type, TensorType) or not isinstance(op.source.type, ShapedType):
            return
        offsets = tuple(op.static_offsets.get_values())
        sizes = tuple(op.static_sizes.get_values())
        strides = tuple(op.static_strides.get_values())
        if any(d < 0 for d in (*offsets, *sizes, *strides, *out_type.get_shape())):
            return
        full = self.array(op.source)
        if full is None or full.ndim != len(offsets):
            return
        index = tuple(slice(o, o + (s - 1) * st + 1, st) for o, s, st in zip(offsets, sizes, strides))
        sliced = full[index]
        if sliced.shape != sizes or prod(sizes) != prod(out_type.get_shape()):
            return
        sliced = sliced.reshape(out_type.get_shape())
        if not _foldable(sliced, out_type):
            return
        rewriter.replace(op, dense_constant(sliced, out_type))


class FoldConstantReshape(ConstantPattern[tensor.CollapseShapeOp | tensor.ExpandShapeOp]):
    """`tensor.collapse_shape` / `tensor.expand_shape` of an `arith.constant` is the
    reshaped constant (MLIR's folders do this inside HEIR's greedy driver).

        %c = arith.constant dense<[[3.3], [4.4]]> : tensor<2x1xf32>
        %r = tensor.collapse_shape %c [[0, 1]] : tensor<2x1xf32> into tensor<2xf32>
    ==>
        %r = arith.constant dense<[3.3, 4.4]> : tensor<2xf32>

    Legality: the source is an `arith.constant` (not a fill or broadcast, which stay
    ops), static result shape, result within the fold bound.
    """

    op_types = (tensor.CollapseShapeOp, tensor.ExpandShapeOp)

    def rewrite(self, op: tensor.CollapseShapeOp | tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.src.owner, arith.ConstantOp) or op.operands[1:]:
            return
        out_type = op.result.type
        value = self.array(op.src)
        if value is None or not isinstance(out_type, TensorType):
            return
        shape = out_type.get_shape()
        if any(d < 0 for d in shape) or prod(shape) != value.size:
            return
        folded = value.reshape(shape)
        if _foldable(folded, out_type):
            rewriter.replace(op, dense_constant(folded, out_type))


class FoldConstantFloatCast(ConstantPattern[arith.ExtFOp | arith.TruncFOp]):
    """`arith.extf` / `arith.truncf` of a constant tensor is the converted constant, as
    MLIR's folders make it (`constFoldCastOp`): torch-mlir widens an f16 bias to the f32
    accumulator of the conv this way.

        %b = arith.constant dense<[1.5, -2.0]> : tensor<2xf16>
        %w = arith.extf %b : tensor<2xf16> to tensor<2xf32>
    ==>
        %w = arith.constant dense<[1.5, -2.0]> : tensor<2xf32>

    Legality: a constant operand (dense or dense_resource), a static tensor result with a
    numpy dtype, within the fold bound; for `truncf`, every element exactly representable
    in the narrower type (MLIR's folder refuses a conversion that loses information, so
    a rounding `truncf` stays an op, as in heir-opt's and iree-opt's output).
    """

    op_types = (arith.ExtFOp, arith.TruncFOp)

    def rewrite(self, op: arith.ExtFOp | arith.TruncFOp, rewriter: PatternRewriter) -> None:
        out_type = op.result.type
        if not isinstance(out_type, TensorType) or any(d < 0 for d in out_type.get_shape()):
            return
        dtype = numpy_dtype(out_type)
        value = self.array(op.input)
        if dtype is None or value is None:
            return
        with np.errstate(over="ignore"):  # an overflow is caught by the exactness test
            folded = value.astype(dtype)
        if isinstance(op, arith.TruncFOp) and not np.array_equal(folded.astype(value.dtype), value):
            return
        if _foldable(folded, out_type):
            rewriter.replace(op, dense_constant(folded, out_type))


CONSTANT_PATTERNS: tuple[type[ConstantPattern], ...] = (
    FoldConstantFill,
    FoldConstantBroadcast,
    FoldConstantTranspose,
    FoldConstantExtractSlice,
    FoldConstantReshape,
    FoldConstantFloatCast,
)
