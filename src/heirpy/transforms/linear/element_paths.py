"""Which elements of a tensor reach a value through layout ops (index tracing).

A layout op (`tensor.collapse_shape`, `tensor.expand_shape`, `linalg.transpose`, a
static `tensor.extract_slice`) moves or selects elements without computing. Applying
the same op to an array of flat indices tells which elements of its source land where:
`trace_back(value)` walks up from a value through layout ops to the op that computed
the data, and `indices_through(path, shape)` gives, for each element of the value, the
flat index of the source element it is. `read_elsewhere(source, path)` is the set of
source elements read by anything other than that path (a non-layout user reads them
all), so a rewrite may change the elements the path reads only when the two are
disjoint: attention's q, k and v are three slices of one projection's output, and a
scale that belongs to q may move into q's columns of the projection only.

Used by `linalg-fuse-linear-ops` to move attention's `1/sqrt(d)` into the projection.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import TransposeOp
from xdsl.ir import Operation, SSAValue

from heirpy.ir.utils import static_shape

MAX_TRACED_ELEMENTS = 1 << 22


def layout_apply(op: Operation, array: np.ndarray) -> np.ndarray | None:
    """`op` applied to `array` (its source operand's values), or None if `op` is not a
    static layout op."""
    result_shape = static_shape(op.results[0].type) if op.results else None
    if result_shape is None:
        return None
    if isinstance(op, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        return array.reshape(result_shape) if array.size == prod(result_shape) else None
    if isinstance(op, TransposeOp):
        permutation = tuple(op.permutation.get_values())
        return np.transpose(array, permutation) if sorted(permutation) == list(range(array.ndim)) else None
    if isinstance(op, tensor.ExtractSliceOp):
        if op.offsets or op.sizes or op.strides:
            return None
        offsets = op.static_offsets.get_values()
        sizes = op.static_sizes.get_values()
        strides = op.static_strides.get_values()
        if len(offsets) != array.ndim:
            return None
        index = tuple(slice(o, o + (s - 1) * t + 1, t) for o, s, t in zip(offsets, sizes, strides))
        sliced = array[index]
        if sliced.shape != tuple(sizes) or sliced.size != prod(result_shape):
            return None
        return sliced.reshape(result_shape)
    return None


def layout_source(op: Operation) -> SSAValue | None:
    """The operand a layout op moves elements of (None if `op` is not one)."""
    if isinstance(op, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        return op.src
    if isinstance(op, TransposeOp):
        return op.inputs[0]
    if isinstance(op, tensor.ExtractSliceOp):
        return op.source
    return None


def trace_back(value: SSAValue) -> tuple[SSAValue, list[Operation]]:
    """(source, path): the value `value` is a layout view of, and the layout ops from it
    to `value`, first to last (empty when `value` is not produced by a layout op)."""
    path: list[Operation] = []
    while isinstance(value.owner, Operation):
        source = layout_source(value.owner)
        if source is None:
            break
        path.insert(0, value.owner)
        value = source
    return value, path


def indices_through(path: Sequence[Operation], shape: Sequence[int]) -> np.ndarray | None:
    """For each element at the end of `path`, the flat index of the source element it
    is (source of `shape`); None if a step is not a static layout op."""
    if prod(shape) > MAX_TRACED_ELEMENTS:
        return None
    array: np.ndarray | None = np.arange(prod(shape)).reshape(tuple(shape))
    for op in path:
        assert array is not None
        array = layout_apply(op, array)
        if array is None:
            return None
    return array


def read_elsewhere(source: SSAValue, end: SSAValue, target: Operation) -> np.ndarray | None:
    """Boolean mask over `source`'s elements: those read by anything but `target`'s use
    of `end` (a layout view of `source`), following every other user through layout ops
    (a computing user reads all it is given). None for dynamic or huge shapes."""
    shape = static_shape(source.type)
    if shape is None or prod(shape) > MAX_TRACED_ELEMENTS:
        return None
    read = np.zeros(prod(shape), dtype=bool)

    def visit(value: SSAValue, indices: np.ndarray) -> None:
        for use in value.uses:
            user = use.operation
            if value is end and user is target:
                continue
            moved = layout_apply(user, indices) if layout_source(user) is value else None
            if moved is None:
                read[indices.reshape(-1)] = True
            else:
                visit(user.results[0], moved)

    visit(source, np.arange(prod(shape)).reshape(tuple(shape)))
    return read


def reads_of_path_end(source: SSAValue, path: Sequence[Operation]) -> np.ndarray | None:
    """Boolean mask over `source`: the elements the end of `path` reads."""
    shape = static_shape(source.type)
    if shape is None:
        return None
    indices = indices_through(path, shape)
    if indices is None:
        return None
    mask = np.zeros(prod(shape), dtype=bool)
    mask[indices.reshape(-1)] = True
    return mask
