"""`linalg.pack` / `linalg.unpack` on tensors: a pad, a reshape and a transpose (and back);
and `linalg.softmax`, the other linalg op that is not one loop nest.

`pack` splits each dim `inner_dims_pos[i]` of the source into (outer, `tiles[i]`) after
padding it to a whole number of tiles, orders the outer dims by `outer_dims_perm`, and
puts the tiles last in `inner_dims_pos` order. `unpack` undoes that and drops the
padding (the dest's sizes say how much to keep).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation

from heirpy.interp.errors import op_error
from heirpy.interp.registry import EvaluatorProtocol, HandlerTable
from heirpy.ir.constants import element_dtype
from heirpy.ir.dialects.linalg import PackOp, SoftmaxOp, UnPackOp

HANDLERS = HandlerTable()

Arrays = Sequence[np.ndarray]


# ----------------------------------------------------------------------------- pure helpers
def pack_array(
    source: np.ndarray,
    dims_pos: Sequence[int],
    tiles: Sequence[int],
    outer_perm: Sequence[int],
    padding: np.ndarray | None,
) -> np.ndarray:
    """`source` in pack's layout; `padding` fills the partial last tiles (None: there must be none)."""
    rank = source.ndim
    tile_of = dict(zip(dims_pos, tiles))
    outer = [-(-size // tile_of[d]) if d in tile_of else size for d, size in enumerate(source.shape)]
    padded_shape = [outer[d] * tile_of[d] if d in tile_of else size for d, size in enumerate(source.shape)]
    if list(source.shape) != padded_shape:
        if padding is None:
            raise ValueError(f"a partial tile (source {list(source.shape)}, tiles {list(tiles)}) needs a padding_value")
        padded = np.full(padded_shape, padding, dtype=source.dtype)
        padded[tuple(slice(0, size) for size in source.shape)] = source
        source = padded
    split: list[int] = []
    outer_axis: dict[int, int] = {}
    tile_axis: dict[int, int] = {}
    for d in range(rank):
        outer_axis[d] = len(split)
        split.append(outer[d])
        if d in tile_of:
            tile_axis[d] = len(split)
            split.append(tile_of[d])
    perm = list(outer_perm) or list(range(rank))
    order = [outer_axis[perm[j]] for j in range(rank)] + [tile_axis[d] for d in dims_pos]
    return source.reshape(split).transpose(order)


def unpack_array(
    packed: np.ndarray,
    dims_pos: Sequence[int],
    outer_perm: Sequence[int],
    dest_shape: Sequence[int],
) -> np.ndarray:
    """The inverse of `pack_array`, cut to `dest_shape` (the padding dropped)."""
    rank = len(dest_shape)
    perm = list(outer_perm) or list(range(rank))
    order: list[int] = []
    for d in range(rank):
        order.append(perm.index(d))
        if d in dims_pos:
            order.append(rank + list(dims_pos).index(d))
    moved = packed.transpose(order)  # per dim: its outer axis, then its tile axis if tiled
    sizes = iter(moved.shape)
    full = [next(sizes) * (next(sizes) if d in dims_pos else 1) for d in range(rank)]
    if any(have < want for have, want in zip(full, dest_shape)):
        raise ValueError(f"the packed tiles cover {full}, less than the dest's {list(dest_shape)}")
    return moved.reshape(full)[tuple(slice(0, size) for size in dest_shape)]


# ----------------------------------------------------------------------------- handlers
def _tiles(op: PackOp | UnPackOp, args: Arrays) -> list[int]:
    """The tile sizes, the dynamic ones read from their operands."""
    positions = {id(o): i for i, o in enumerate(op.operands)}
    dynamic = iter(int(args[positions[id(v)]]) for v in op.inner_tiles)
    tiles = [int(next(dynamic)) if t == DYNAMIC_INDEX else t for t in op.static_tiles()]
    if any(t <= 0 for t in tiles):
        raise op_error(op, f"has a tile size that is not positive: {tiles}")
    return tiles


def _on_tensors(op: Operation) -> TensorType:
    if not op.results or not isinstance(op.results[0].type, TensorType):
        raise op_error(op, "is only evaluated on tensors")
    type_ = op.results[0].type
    assert isinstance(type_, TensorType)
    return type_


@HANDLERS.register("linalg.pack")
def pack(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    assert isinstance(op, PackOp)
    type_ = _on_tensors(op)
    padding = None if op.padding_value is None else args[2]
    try:
        result = pack_array(args[0], op.dims_pos(), _tiles(op, args), op.outer_perm(), padding)
    except ValueError as error:
        raise op_error(op, str(error)) from None
    dest = args[1]
    if result.shape != dest.shape:
        raise op_error(op, f"packs into {list(result.shape)}, but the dest is {list(dest.shape)}")
    return [np.asarray(result, dtype=element_dtype(type_))]


@HANDLERS.register("linalg.unpack")
def unpack(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    assert isinstance(op, UnPackOp)
    type_ = _on_tensors(op)
    tiles = _tiles(op, args)
    source = args[0]
    rank = args[1].ndim
    if list(source.shape[rank:]) != tiles:
        raise op_error(op, f"has tiles {tiles}, but the source's inner dims are {list(source.shape[rank:])}")
    try:
        result = unpack_array(source, op.dims_pos(), op.outer_perm(), args[1].shape)
    except ValueError as error:
        raise op_error(op, str(error)) from None
    return [np.array(result, dtype=element_dtype(type_))]


@HANDLERS.register("linalg.softmax")
def softmax(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """MLIR's decomposition: subtract the maximum along the dim, exp, divide by the sum."""
    assert isinstance(op, SoftmaxOp)
    type_ = _on_tensors(op)
    dim = op.dimension.value.data
    x = args[0]
    shifted = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return [np.asarray(shifted / np.sum(shifted, axis=dim, keepdims=True), dtype=element_dtype(type_))]
