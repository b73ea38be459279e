"""Named linalg ops: convolutions, pooling, contractions, fill, broadcast, transpose.

All follow MLIR's destination-passing style: the result is the `outs` init combined
with the op's computation (`init + conv`, `max(init, window max)`), never the
computation alone. Operands are cast to the output element type first, as MLIR's named
op bodies do (`cast_signed`), so an i8 x i8 -> i32 contraction accumulates in i32.

Convolutions and pooling read a sliding-window *view* of the input (no copy):
`windows()` maps each output position and window tap to `out * stride + tap * dilation`,
and one `einsum` (BLAS for floats) contracts it with the filter. A layout is three
strings of axis letters: `y`, `x` are output positions, `i`, `j` the window taps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation

from heirpy.interp.errors import EvaluationError, op_error
from heirpy.interp.linalg_generic import axis_letters, generic
from heirpy.interp.registry import EvaluatorProtocol, HandlerTable
from heirpy.ir.constants import arithmetic_dtype, element_dtype
from heirpy.ir.dialects.linalg import NamedStructuredOp, window_values
from heirpy.ir.utils import int_values, projection_dims

HANDLERS = HandlerTable()


Arrays = Sequence[np.ndarray]

_POSITIONS = "yx"  # output position letters, outer to inner spatial dim
_TAPS = "ij"  # the matching window tap letters


# ----------------------------------------------------------------------------- windows
def windows(
    x: np.ndarray,
    axes: Sequence[int],
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    out_sizes: Sequence[int],
) -> np.ndarray:
    """A view `v` of `x` where axis `axes[k]` becomes the output position `o` and a new
    trailing axis the tap `t`, with `v[..., o, ..., t] = x[..., o*stride + t*dilation, ...]`."""
    for axis, k, s, d, o in zip(axes, kernel, strides, dilations, out_sizes):
        needed = (o - 1) * s + d * (k - 1) + 1 if o > 0 else 0
        if x.shape[axis] < needed:
            raise EvaluationError(
                f"error: input axis {axis} has size {x.shape[axis]}, but {o} outputs with "
                f"window {k}, stride {s}, dilation {d} read {needed} elements"
            )
    spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilations)]
    view = _window_view(x, spans, axes)
    index: list[slice] = [slice(None)] * view.ndim
    for axis, s, o in zip(axes, strides, out_sizes):
        index[axis] = slice(0, o * s, s)
    for tap, d in enumerate(dilations):
        index[x.ndim + tap] = slice(None, None, d)
    return view[tuple(index)]


def _window_view(x: np.ndarray, spans: Sequence[int], axes: Sequence[int]) -> np.ndarray:
    """`sliding_window_view(x, spans, axis=axes)`: the window axes trail, in `axes` order.

    Spelled with a window over every axis (1 on the others, then dropped) because
    numpy's type stubs allow only one int for `axis`."""
    window = [1] * x.ndim
    for axis, span in zip(axes, spans):
        window[axis] = span
    view = sliding_window_view(x, window)
    trailing: list[slice | int] = [slice(None) if a in axes else 0 for a in range(x.ndim)]
    view = view[(Ellipsis, *trailing)]
    in_axis_order = sorted(axes)
    source = [x.ndim + in_axis_order.index(a) for a in axes]
    return np.moveaxis(view, source, list(range(x.ndim, x.ndim + len(axes))))


def window_attrs(op: Operation, rank: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(strides, dilations) of a conv / pooling op, defaulting to 1 like MLIR."""
    values = []
    for name in ("strides", "dilations"):
        attr = op.properties.get(name)
        if attr is not None and not isinstance(attr, DenseIntOrFPElementsAttr):
            raise op_error(op, f"has a '{name}' attribute that is not a dense array")
        values.append(window_values(attr, rank))
    strides, dilations = values
    if len(strides) != rank or len(dilations) != rank:
        raise op_error(op, f"expects {rank} strides and dilations")
    return strides, dilations


# ----------------------------------------------------------------------------- convolution
@dataclass(frozen=True)
class ConvLayout:
    """Axis letters of input (positions in place of spatial axes), filter and output."""

    input: str
    filter: str
    output: str

    @property
    def rank(self) -> int:
        return sum(letter in _POSITIONS for letter in self.input)


CONV_LAYOUTS: dict[str, ConvLayout] = {
    "linalg.conv_2d_nchw_fchw": ConvLayout("ncyx", "fcij", "nfyx"),
    "linalg.conv_2d_nhwc_hwcf": ConvLayout("nyxc", "ijcf", "nyxf"),
    "linalg.conv_2d_nhwc_fhwc": ConvLayout("nyxc", "fijc", "nyxf"),
    "linalg.conv_2d_ngchw_fgchw": ConvLayout("ngcyx", "fgcij", "ngfyx"),
    "linalg.conv_2d_ngchw_gfchw": ConvLayout("ngcyx", "gfcij", "ngfyx"),
    "linalg.conv_2d_nhwgc_gfhwc": ConvLayout("nyxgc", "gfijc", "nyxgf"),
    "linalg.depthwise_conv_2d_nchw_chw": ConvLayout("ncyx", "cij", "ncyx"),
    "linalg.conv_1d_ncw_fcw": ConvLayout("ncx", "fci", "nfx"),
}


def convolve(
    layout: ConvLayout,
    image: np.ndarray,
    kernel: np.ndarray,
    init: np.ndarray,
    strides: Sequence[int],
    dilations: Sequence[int],
) -> np.ndarray:
    """`init + conv(image, kernel)` in `init`'s dtype, for any layout in CONV_LAYOUTS."""
    dtype = init.dtype
    positions = [p for p in layout.input if p in _POSITIONS]  # outer spatial dim first
    taps = _TAPS[: len(positions)]
    axes = [layout.input.index(p) for p in positions]
    kernel_sizes = [kernel.shape[layout.filter.index(t)] for t in taps]
    out_sizes = [init.shape[layout.output.index(p)] for p in positions]
    wide = arithmetic_dtype(dtype)  # bf16: products summed in f32, rounded once
    view = windows(image.astype(dtype, copy=False).astype(wide, copy=False), axes, kernel_sizes, strides,
                   dilations, out_sizes)
    kernel = kernel.astype(dtype, copy=False).astype(wide, copy=False)
    product = contract(view, layout.input + taps, kernel, layout.filter, layout.output)
    if wide != dtype:
        return init + product.astype(dtype)
    return np.add(product, init, out=product)


def contract(lhs: np.ndarray, lhs_axes: str, rhs: np.ndarray, rhs_axes: str, out_axes: str) -> np.ndarray:
    """`einsum(f"{lhs_axes},{rhs_axes}->{out_axes}")` as one batched matmul, with the
    large operand (the window view) copied once with its kept axes innermost.

    numpy's own einsum copies the view with the window taps innermost, which is several
    times slower for a 3x3 window; this is what keeps a conv near BLAS speed. Returns a
    new array (possibly a transposed view of one) that the caller may write into.
    """
    lhs, lhs_axes = _sum_private_axes(lhs, lhs_axes, rhs_axes + out_axes)
    rhs, rhs_axes = _sum_private_axes(rhs, rhs_axes, lhs_axes + out_axes)
    batch = [a for a in out_axes if a in lhs_axes and a in rhs_axes]
    summed = [a for a in rhs_axes if a in lhs_axes and a not in out_axes]
    lhs_kept = [a for a in lhs_axes if a in out_axes and a not in batch]
    rhs_kept = [a for a in rhs_axes if a in out_axes and a not in batch]
    size = dict(zip(lhs_axes, lhs.shape)) | dict(zip(rhs_axes, rhs.shape))

    def grouped(array: np.ndarray, axes: str, order: list[str], groups: list[list[str]]) -> np.ndarray:
        arranged = np.ascontiguousarray(array.transpose([axes.index(a) for a in order]))
        return arranged.reshape([int(np.prod([size[a] for a in g], dtype=np.int64)) for g in groups])

    weights = grouped(rhs, rhs_axes, batch + rhs_kept + summed, [batch, rhs_kept, summed])
    patches = grouped(lhs, lhs_axes, batch + summed + lhs_kept, [batch, summed, lhs_kept])
    product = np.matmul(weights, patches).reshape([size[a] for a in batch + rhs_kept + lhs_kept])
    order = batch + rhs_kept + lhs_kept
    return product.transpose([order.index(a) for a in out_axes])


def _sum_private_axes(array: np.ndarray, axes: str, elsewhere: str) -> tuple[np.ndarray, str]:
    """Sum away axes that appear in no other operand or the output (einsum does too)."""
    private = tuple(i for i, a in enumerate(axes) if a not in elsewhere)
    if not private:
        return array, axes
    return array.sum(axis=private, dtype=array.dtype), "".join(a for i, a in enumerate(axes) if i not in private)


@HANDLERS.register(*CONV_LAYOUTS)
def conv(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    image, kernel, init = args
    layout = CONV_LAYOUTS[op.name]
    strides, dilations = window_attrs(op, layout.rank)
    return [convolve(layout, image, kernel, init, strides, dilations)]


# ----------------------------------------------------------------------------- pooling
POOL_LAYOUTS: dict[str, tuple[str, str]] = {
    # op name -> (input letters with positions, combining op)
    "linalg.pooling_nchw_sum": ("ncyx", "sum"),
    "linalg.pooling_nchw_max": ("ncyx", "max"),
    "linalg.pooling_nhwc_sum": ("nyxc", "sum"),
    "linalg.pooling_nhwc_max": ("nyxc", "max"),
    "linalg.pooling_ncw_sum": ("ncx", "sum"),
    "linalg.pooling_ncw_max": ("ncx", "max"),
}


def pool(
    letters: str,
    kind: str,
    image: np.ndarray,
    window: Sequence[int],
    init: np.ndarray,
    strides: Sequence[int],
    dilations: Sequence[int],
) -> np.ndarray:
    """`init + sum(window)` or `max(init, max(window))`; output axes are `letters`."""
    axes = [i for i, letter in enumerate(letters) if letter in _POSITIONS]
    out_sizes = [init.shape[a] for a in axes]
    view = windows(image.astype(init.dtype, copy=False), axes, window, strides, dilations, out_sizes)
    taps = tuple(range(image.ndim, view.ndim))
    if kind == "sum":
        return init + view.sum(axis=taps, dtype=init.dtype)
    if 0 in window:  # an empty window leaves the init as it is
        return init.copy()
    return np.maximum(init, view.max(axis=taps))


@HANDLERS.register(*POOL_LAYOUTS)
def pooling(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    image, window, init = args
    letters, kind = POOL_LAYOUTS[op.name]
    rank = window.ndim
    strides, dilations = window_attrs(op, rank)
    return [pool(letters, kind, image, window.shape, init, strides, dilations)]


# ----------------------------------------------------------------------------- contractions
@HANDLERS.register("linalg.matmul", "linalg.matvec", "linalg.vecmat", "linalg.batch_matmul")
def contraction(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`out += lhs * rhs` over the op's indexing maps (projections), as one einsum.

    An output dim no input reads (a broadcast operand of matmul) repeats the sum along
    it. `cast_unsigned` bodies go through the generic evaluator, which reads the body.
    """
    assert isinstance(op, LinalgStructuredOperation)
    if isinstance(op, NamedStructuredOp) and op.is_unsigned(dict(op.properties)):
        return list(generic(ev, op, args))
    lhs, rhs, init = args
    maps = [attr.data for attr in op.get_indexing_maps().data]
    dims = [projection_dims(m) for m in maps]
    if dims[0] is None or dims[1] is None or dims[2] is None:
        raise op_error(op, "has an indexing map that is not a projection")
    read = set(dims[0]) | set(dims[1])
    kept = [d for d in dims[2] if d in read]
    spec = f"{axis_letters(dims[0])},{axis_letters(dims[1])}->{axis_letters(kept)}"
    dtype = init.dtype
    wide = arithmetic_dtype(dtype)  # bf16: einsum computes in f32, rounded once
    lhs = lhs.astype(dtype, copy=False).astype(wide, copy=False)
    rhs = rhs.astype(dtype, copy=False).astype(wide, copy=False)
    product = np.einsum(spec, lhs, rhs, optimize=True)
    product = product.reshape([init.shape[i] if d in read else 1 for i, d in enumerate(dims[2])])
    return [init + product.astype(dtype, copy=False)]


@HANDLERS.register("linalg.quantized_matmul")
def quantized_matmul(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`C[m, n] += (A[m, k] - a_zp) * (B[k, n] - b_zp)`, in C's type."""
    lhs, rhs, lhs_zero, rhs_zero, init = args
    dtype = init.dtype
    a = lhs.astype(dtype) - lhs_zero.astype(dtype)
    b = rhs.astype(dtype) - rhs_zero.astype(dtype)
    return [init + np.einsum("mk,kn->mn", a, b, optimize=True).astype(dtype, copy=False)]


# ----------------------------------------------------------------------------- data movement
@HANDLERS.register("linalg.fill")
def fill(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    value, init = args
    dtype = element_dtype(op.results[0].type)
    return [np.full(init.shape, np.asarray(value).astype(dtype), dtype=dtype)]


@HANDLERS.register("linalg.broadcast")
def broadcast(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`init[..]` = `input[..]` read at the output dims not listed in `dimensions`."""
    source, init = args
    added = set(int_values(op.properties["dimensions"]))
    kept = [d for d in range(init.ndim) if d not in added]
    if len(kept) != source.ndim or any(init.shape[d] != s for d, s in zip(kept, source.shape)):
        raise op_error(op, f"cannot broadcast {source.shape} into {init.shape} adding dims {sorted(added)}")
    shape = [1 if d in added else init.shape[d] for d in range(init.ndim)]
    return [np.broadcast_to(source.reshape(shape), init.shape).astype(init.dtype, copy=False)]


@HANDLERS.register("linalg.transpose")
def transpose(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`init[i0, .., in] = input[i_perm^-1 ..]`: output dim k is input dim perm[k]."""
    source, init = args
    permutation = list(int_values(op.properties["permutation"]))
    result = source.transpose(permutation)
    if result.shape != init.shape:
        raise op_error(op, f"permutation {permutation} of {source.shape} is not {init.shape}")
    return [result.astype(init.dtype, copy=False)]
