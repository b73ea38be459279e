"""`tensor` ops as front ends emit them: empty, reshapes, pad, slices, concat, elements.

Reshapes are row-major, as in MLIR. Static sizes held in `static_*` properties use
`DYNAMIC_INDEX` where the value comes from the op's index operands, in order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import SupportsInt

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ShapedType
from xdsl.ir import Operation, SSAValue

from heirpy.interp.errors import op_error
from heirpy.interp.linalg_generic import index_grids
from heirpy.interp.registry import EvaluatorProtocol, HandlerTable
from heirpy.ir.constants import element_dtype, is_float_dtype
from heirpy.ir.utils import reassociation_groups

HANDLERS = HandlerTable()


Arrays = Sequence[np.ndarray]


def _result_type(op: Operation) -> ShapedType:
    type_ = op.results[0].type
    assert isinstance(type_, ShapedType)
    return type_


def _resolve(static: Sequence[int], dynamic: Iterator[SupportsInt]) -> list[int]:
    """Static sizes with each `DYNAMIC_INDEX` (or `?`) replaced by the next dynamic value."""
    return [int(next(dynamic)) if s < 0 else int(s) for s in static]


def _static(op: Operation, name: str) -> tuple[int, ...]:
    attr = op.properties[name]
    assert isinstance(attr, DenseArrayBase)
    return tuple(int(v) for v in attr.get_values())


def _operand_values(ev_args: Arrays, op: Operation, operands: Sequence[SSAValue]) -> Iterator[int]:
    """The runtime values of a variadic group of index operands."""
    positions = {id(o): i for i, o in enumerate(op.operands)}
    return (int(ev_args[positions[id(o)]]) for o in operands)


# ----------------------------------------------------------------------------- creation
# `tensor.empty` is undefined; NaN makes a read of it visible instead of silently zero.
EMPTY_FLOAT_VALUE = np.nan


@HANDLERS.register("tensor.empty")
def empty(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    type_ = _result_type(op)
    shape = _resolve(type_.get_shape(), iter(args))
    dtype = element_dtype(type_)
    fill = EMPTY_FLOAT_VALUE if is_float_dtype(dtype) else 0
    return [np.full(shape, fill, dtype=dtype)]


@HANDLERS.register("tensor.splat")
def splat(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    value, *sizes = args
    type_ = _result_type(op)
    shape = _resolve(type_.get_shape(), iter(sizes))
    return [np.full(shape, value, dtype=element_dtype(type_))]


@HANDLERS.register("tensor.from_elements")
def from_elements(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    type_ = _result_type(op)
    values = np.array([np.asarray(a) for a in args], dtype=element_dtype(type_))
    return [values.reshape(type_.get_shape())]


# ----------------------------------------------------------------------------- reshapes
@HANDLERS.register("tensor.collapse_shape")
def collapse_shape(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    (source,) = args
    groups = reassociation_groups(op.properties["reassociation"])
    shape = [math.prod(source.shape[d] for d in group) for group in groups]
    return [source.reshape(shape)]


@HANDLERS.register("tensor.expand_shape")
def expand_shape(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    source, *sizes = args
    shape = _resolve(_static(op, "static_output_shape"), iter(sizes))
    for group, size in zip(reassociation_groups(op.properties["reassociation"]), source.shape):
        if math.prod(shape[d] for d in group) != size:
            raise op_error(op, f"cannot expand size {size} into {[shape[d] for d in group]}")
    return [source.reshape(shape)]


@HANDLERS.register("tensor.reshape")
def reshape(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    source, shape = args
    new_shape = [int(s) for s in shape]
    if math.prod(new_shape) != source.size:
        raise op_error(op, f"cannot reshape {list(source.shape)} to {new_shape}")
    return [source.reshape(new_shape)]


@HANDLERS.register("tensor.cast")
def cast(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    # The shape check is the evaluator's result check: a static result dim that does not
    # match at run time is reported there.
    return [args[0]]


@HANDLERS.register("tensor.dim")
def dim(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    source, index = args
    axis = int(index)
    if not 0 <= axis < source.ndim:
        raise op_error(op, f"index {axis} is out of range for rank {source.ndim}")
    return [np.asarray(source.shape[axis], dtype=np.int64)]


# ----------------------------------------------------------------------------- elements
def _check_indices(op: Operation, indices: Sequence[int], shape: tuple[int, ...]) -> tuple[int, ...]:
    if len(indices) != len(shape) or any(not 0 <= i < s for i, s in zip(indices, shape)):
        raise op_error(op, f"index {list(indices)} is out of bounds for shape {list(shape)}")
    return tuple(indices)


@HANDLERS.register("tensor.extract")
def extract(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """Scalar indices read one element. Inside a vectorised generic body the indices
    are arrays over the loop space (a gather): every one must be in bounds."""
    source, *indices = args
    if all(np.ndim(i) == 0 for i in indices):
        at = _check_indices(op, [int(i) for i in indices], source.shape)
        return [np.asarray(source[at])]
    grids = [np.asarray(i).astype(np.int64) for i in indices]
    if len(grids) != source.ndim or any(
        bool((g < 0).any() or (g >= s).any()) for g, s in zip(grids, source.shape)
    ):
        raise op_error(op, f"gathered index out of bounds for shape {list(source.shape)}")
    return [source[tuple(grids)]]


@HANDLERS.register("tensor.insert")
def insert(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    value, dest, *indices = args
    at = _check_indices(op, [int(i) for i in indices], dest.shape)
    result = dest.copy()
    result[at] = value
    return [result]


# ----------------------------------------------------------------------------- slices
def _slice_params(op: Operation, args: Arrays) -> tuple[list[int], list[int], list[int]]:
    assert isinstance(op, tensor.ExtractSliceOp | tensor.InsertSliceOp)
    offsets = _resolve(_static(op, "static_offsets"), _operand_values(args, op, op.offsets))
    sizes = _resolve(_static(op, "static_sizes"), _operand_values(args, op, op.sizes))
    strides = _resolve(_static(op, "static_strides"), _operand_values(args, op, op.strides))
    return offsets, sizes, strides


def _slices(
    op: Operation, shape: tuple[int, ...], offsets: list[int], sizes: list[int], strides: list[int]
) -> tuple[slice, ...]:
    if not len(offsets) == len(sizes) == len(strides) == len(shape):
        raise op_error(op, f"has {len(offsets)} offsets for a rank-{len(shape)} tensor")
    result = []
    for axis, (o, n, s, dim_size) in enumerate(zip(offsets, sizes, strides, shape)):
        last = o + (n - 1) * s
        if n > 0 and (o < 0 or s < 1 or last >= dim_size):
            raise op_error(
                op, f"slice of axis {axis} (offset {o}, size {n}, stride {s}) is out of bounds for size {dim_size}"
            )
        result.append(slice(o, o + n * s, s) if n > 0 else slice(0, 0))
    return tuple(result)


def _rank_reduced(sizes: Sequence[int], target: Sequence[int]) -> list[int] | None:
    """`sizes` with unit dims dropped so that they match the target type's dims
    (`?` matches any size), or None if no choice of unit dims does."""

    def match(i: int, t: int) -> list[int] | None:
        if t == len(target):
            return [] if all(s == 1 for s in sizes[i:]) else None
        if i == len(sizes):
            return None
        if target[t] < 0 or target[t] == sizes[i]:
            rest = match(i + 1, t + 1)
            if rest is not None:
                return [sizes[i], *rest]
        return match(i + 1, t) if sizes[i] == 1 else None

    return match(0, 0)


@HANDLERS.register("tensor.extract_slice")
def extract_slice(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    source = args[0]
    offsets, sizes, strides = _slice_params(op, args)
    part = source[_slices(op, source.shape, offsets, sizes, strides)]
    shape = _rank_reduced(sizes, _result_type(op).get_shape())
    if shape is None:
        raise op_error(op, f"slice sizes {sizes} do not fit {_result_type(op)}")
    return [part.reshape(shape)]


@HANDLERS.register("tensor.insert_slice")
def insert_slice(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    source, dest = args[0], args[1]
    offsets, sizes, strides = _slice_params(op, args)
    result = dest.copy()
    result[_slices(op, dest.shape, offsets, sizes, strides)] = source.reshape(sizes)
    return [result]


@HANDLERS.register("tensor.concat")
def concat(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    axis = op.properties["dim"]
    assert isinstance(axis, IntegerAttr)
    return [np.concatenate(list(args), axis=axis.value.data)]


# ----------------------------------------------------------------------------- pad
@HANDLERS.register("tensor.pad")
def pad(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """The source placed at `low` inside the body's value. The body runs once on index
    grids over the result, so a padding value that depends on the position works too."""
    assert isinstance(op, tensor.PadOp)
    source = args[0]
    low = _resolve(_static(op, "static_low"), _operand_values(args, op, op.low))
    high = _resolve(_static(op, "static_high"), _operand_values(args, op, op.high))
    if any(p < 0 for p in (*low, *high)):
        raise op_error(op, f"has negative padding low={low} high={high}")
    shape = tuple(s + lo + hi for s, lo, hi in zip(source.shape, low, high))
    grids = index_grids(shape)
    with ev.iteration_space(grids):
        (value,) = ev.run_block(op.region.block, grids, where="tensor.pad body")
    result = np.array(np.broadcast_to(value, shape), dtype=element_dtype(_result_type(op)))
    result[tuple(slice(lo, lo + s) for lo, s in zip(low, source.shape))] = source
    return [result]



# ----------------------------------------------------------------------------- generate, gather, scatter
@HANDLERS.register("tensor.generate")
def generate(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """The body once, on index grids over the result: element [i, ...] is its value there."""
    type_ = _result_type(op)
    shape = _resolve(type_.get_shape(), iter(args))
    grids = index_grids(shape)
    with ev.iteration_space(grids):
        (value,) = ev.run_block(op.regions[0].block, grids, where="tensor.generate body")
    return [np.array(np.broadcast_to(value, shape), dtype=element_dtype(type_))]


def _slice_at(op: Operation, point: np.ndarray, dims: Sequence[int], shape: Sequence[int]) -> tuple[slice, ...]:
    """The slice of a tensor of `shape` a gather/scatter point addresses (size 1 in `dims`)."""
    index = []
    for d, size in enumerate(shape):
        if d in dims:
            c = int(point[dims.index(d)])
            if not 0 <= c < size:
                raise op_error(op, f"reads index {c} of dim {d}, of size {size}")
            index.append(slice(c, c + 1))
        else:
            index.append(slice(None))
    return tuple(index)


@HANDLERS.register("tensor.gather")
def gather(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`result[b..., ...] = source[...]` with the gathered dims at the coordinates `indices[b..., :]`."""
    source, indices = args
    dims = list(_static(op, "gather_dims"))
    points = indices.reshape(-1, indices.shape[-1])
    pieces = [source[_slice_at(op, p, dims, source.shape)] for p in points]
    slice_shape = [1 if d in dims else n for d, n in enumerate(source.shape)]
    stacked = np.stack(pieces) if pieces else np.empty((0, *slice_shape), dtype=source.dtype)
    type_ = _result_type(op)
    return [stacked.reshape(type_.get_shape()).astype(element_dtype(type_), copy=False)]


@HANDLERS.register("tensor.scatter")
def scatter(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`dest` with each slice of `source` written where `gather` would read it."""
    source, dest, indices = args
    dims = list(_static(op, "scatter_dims"))
    points = indices.reshape(-1, indices.shape[-1])
    slice_shape = [1 if d in dims else n for d, n in enumerate(dest.shape)]
    pieces = source.reshape(len(points), *slice_shape)
    result = dest.copy()
    for point, piece in zip(points, pieces):
        result[_slice_at(op, point, dims, dest.shape)] = piece
    return [result]


@HANDLERS.register("tensor.rank")
def rank(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    return [np.asarray(args[0].ndim, dtype=np.int64)]


@HANDLERS.register("tensor.bitcast")
def bitcast(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """The same bytes read as the result's element type."""
    return [np.ascontiguousarray(args[0]).view(element_dtype(_result_type(op)))]
