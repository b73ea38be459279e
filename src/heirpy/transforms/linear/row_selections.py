"""Row selections: the layout ops between a row-wise linear op (a `linalg.matmul`, token by
token) and the op reading its rows, and how to apply the same selection to another tensor.

A matmul acts on each row (the last axis is the feature axis), so any op that only
regroups the rows (a `collapse_shape`/`expand_shape` keeping the last axis) or picks some
of them whole (an `extract_slice` taking every feature of the rows it takes: LeViT's
AttentionSubsample, `x.view(B, H, W, C)[:, ::2, ::2]`) commutes with it:
`select(matmul(h, W)) = matmul(select'(h), W)`, where `select'` is the same selection of
`h`'s rows (the same ops with the feature size changed). So a matmul reading a selection
of another matmul's rows composes with it (`chains_through_adds_rows`).

    %e = tensor.expand_shape %s [[0], [1, 2], [3]] : [1, 49, C] into [1, 7, 7, C]
    %t = tensor.extract_slice %e[0, 0, 0, 0] [1, 4, 4, C] [1, 2, 2, 1]   // rows only
    %r = tensor.collapse_shape %t [[0, 1, 2], [3]] : [1, 4, 4, C] into [16, C]

`row_selection_path` finds such a run; `replay_rows` writes it again on a tensor with
another feature size.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DenseArrayBase, TensorType, i64
from xdsl.ir import Operation, SSAValue

from heirpy.ir.utils import int_values, reassociation_attr, reassociation_groups, static_shape


# ------------------------------------------------------------------ legality helpers
def keeps_rows(groups: list[list[int]], rank: int) -> bool:
    """Pure: does a reshape with reassociation `groups` (over the larger rank `rank`)
    keep the last axis on its own, so that it only regroups the leading (row) axes?"""
    return bool(groups) and groups[-1] == [rank - 1]


def selects_rows(source: Sequence[int], offsets: Sequence[int], sizes: Sequence[int],
                 strides: Sequence[int], result: Sequence[int]) -> bool:
    """Pure: is an `extract_slice` of a `source`-shaped tensor (static `offsets`, `sizes`,
    `strides`, `result` shape) a selection of whole rows: every feature (the last axis
    whole, in order) of the rows it takes, the rank kept?"""
    rank = len(source)
    if rank < 2 or not len(offsets) == len(sizes) == len(strides) == len(result) == rank:
        return False
    return offsets[-1] == 0 and strides[-1] == 1 and sizes[-1] == source[-1] == result[-1] \
        and list(sizes) == list(result)


def _row_step(value: SSAValue) -> Operation | None:
    """The op making `value` when it is a row regrouping or a row selection of its one
    tensor operand, else None."""
    owner = value.owner
    out = static_shape(value.type)
    if not isinstance(owner, Operation) or out is None:
        return None
    if isinstance(owner, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
        source = static_shape(owner.operands[0].type)
        groups = reassociation_groups(owner.properties["reassociation"])
        if source is None or not keeps_rows(groups, max(len(source), len(out))):
            return None
        return owner
    if isinstance(owner, tensor.ExtractSliceOp):
        source = static_shape(owner.source.type)
        if source is None or owner.offsets or owner.sizes or owner.strides:
            return None  # dynamic parameters
        offsets, sizes, strides = (int_values(a) for a in (owner.static_offsets, owner.static_sizes,
                                                             owner.static_strides))
        return owner if selects_rows(source, offsets, sizes, strides, out) else None
    return None


def row_selection_path(value: SSAValue) -> tuple[SSAValue, list[Operation]]:
    """`value` traced back through row regroupings and row selections: the tensor `start`
    whose rows `value`'s rows are a selection of, and the ops from `start` to `value`
    in order (empty when `value` is not made by one)."""
    path: list[Operation] = []
    while (step := _row_step(value)) is not None:
        path.append(step)
        value = step.operands[0]
    return value, path[::-1]


def selects(path: Sequence[Operation]) -> bool:
    """Does `path` (from `row_selection_path`) drop rows, not only regroup them?"""
    return any(isinstance(op, tensor.ExtractSliceOp) for op in path)


def selected_rows(path: Sequence[Operation], rows: np.ndarray) -> np.ndarray:
    """The rows of `rows` (`[R, F]`, R the rows of the path's start) that `path` takes, in
    the order it leaves them, as `[R', F]`: what `replay_rows` computes, on a constant."""
    start = static_shape(path[0].operands[0].type)
    assert start is not None
    value = rows.reshape(*start[:-1], rows.shape[-1])
    for op in path:
        out = static_shape(op.results[0].type)
        assert out is not None
        if isinstance(op, tensor.ExtractSliceOp):
            offsets, sizes, strides = (int_values(a) for a in (op.static_offsets, op.static_sizes, op.static_strides))
            value = value[tuple(slice(o, o + (n - 1) * s + 1, s) for o, n, s in zip(offsets, sizes, strides))]
        else:
            value = value.reshape(*out[:-1], rows.shape[-1])
    return value.reshape(-1, rows.shape[-1])


# ------------------------------------------------------------------ rewriting
def _with_features(type_: TensorType, features: int) -> TensorType:
    shape = list(type_.get_shape())
    return TensorType(type_.get_element_type(), [*shape[:-1], features])


def _replayed(op: Operation, source: SSAValue, features: int) -> Operation:
    """`op` (a step of a row selection path) on `source`, whose last axis is `features`."""
    out_type, source_type = op.results[0].type, source.type
    assert isinstance(out_type, TensorType) and isinstance(source_type, TensorType)
    new_type = _with_features(TensorType(source_type.get_element_type(), out_type.get_shape()), features)
    if isinstance(op, tensor.ExpandShapeOp):
        return tensor.ExpandShapeOp(source, [], op.properties["reassociation"],  # type: ignore[arg-type]
                                    list(new_type.get_shape()), new_type)
    if isinstance(op, tensor.CollapseShapeOp):
        return type(op).build(operands=[source], result_types=[new_type],
                              properties={"reassociation": op.properties["reassociation"]})
    assert isinstance(op, tensor.ExtractSliceOp)
    sizes = list(int_values(op.static_sizes))
    return type(op).build(
        operands=[source, [], [], []], result_types=[new_type],
        properties={"static_offsets": op.static_offsets, "static_strides": op.static_strides,
                    "static_sizes": DenseArrayBase.from_list(i64, [*sizes[:-1], features])},
    )


def replay_rows(path: Sequence[Operation], rows: SSAValue, ops: list[Operation]) -> SSAValue:
    """`rows` (a tensor with as many rows as the path's start, in its order, any feature
    size) selected as `path` selects the start's rows; the ops written are appended to
    `ops`. `rows` is first reshaped to the start's leading axes when its own differ."""
    rows_type = rows.type
    assert isinstance(rows_type, TensorType) and path
    features = rows_type.get_shape()[-1]
    start = path[0].operands[0].type
    assert isinstance(start, TensorType)
    lead, own = list(start.get_shape()[:-1]), list(rows_type.get_shape()[:-1])
    assert prod(lead) == prod(own)
    value = rows
    if lead != own:
        value = _regroup(value, lead, features, ops)
    for op in path:
        step = _replayed(op, value, features)
        ops.append(step)
        value = step.results[0]
    return value


def _regroup(value: SSAValue, lead: list[int], features: int, ops: list[Operation]) -> SSAValue:
    """`value` reshaped to `[*lead, features]`, through its 2-D rows form."""
    value_type = value.type
    assert isinstance(value_type, TensorType)
    shape = list(value_type.get_shape())
    element = value_type.get_element_type()
    if len(shape) != 2:
        flat_type = TensorType(element, [prod(shape[:-1]), features])
        collapse = tensor.CollapseShapeOp(
            operands=[value], result_types=[flat_type],
            properties={"reassociation": reassociation_attr([list(range(len(shape) - 1)), [len(shape) - 1]])},
        )
        ops.append(collapse)
        value = collapse.results[0]
    if len(lead) == 1:
        return value
    out_type = TensorType(element, [*lead, features])
    expand = tensor.ExpandShapeOp(value, [], reassociation_attr([list(range(len(lead))), [len(lead)]]),
                                  [*lead, features], out_type)
    ops.append(expand)
    return expand.results[0]
