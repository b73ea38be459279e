"""What Orion will pack for a linear op of heirpy IR: the diagonals of `policy=diagonals`.

The cost rule's `diagonals` policy (`fusion_cost.CostRule`) compares the plaintext
diagonals Orion encodes for a chain of linear ops with those of the one op that would
replace it. A layer's diagonals depend on more than the op: on the multiplexed layout
its input arrives in (every stride-s conv or pool upstream multiplies the gap by s;
a Linear resets it), on its zero padding (a `tensor.pad` Orion folds into the conv),
on whether it is the network's last linear layer (packed "square") and on the slot
count. `OrionLayouts` reads those from the function the way `heirpy.export.network`
exports it (conv / pool / fused conv+pool / sum over H and W: an Orion Conv2d or
AvgPool2d; matmul, matvec, vecmat and contractions: a Linear; collapse_shape: Flatten,
which keeps its input's layout; anything else on a secret value keeps the layout of
its first secret operand, regrouped to its own channel count when it has another:
`regrouped`), and the `*_diagonals` functions count with
`heirpy.analysis.orion_packing`.

Weights are read as masks: a conv of given weights counts their nonzero taps; an op
whose weights the caller does not pass counts as dense (a generic conv, Linear or
fused matrix has no zero weights; a pool or global pool is depthwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

from heirpy.analysis.orion_packing import (
    Layout,
    conv_diagonals,
    conv_output_layout,
    dense_mask,
    linear_diagonals,
    linear_output_layout,
    pool_mask,
)
from heirpy.ir.dialects.linalg import (
    Conv2DNchwFchwOp,
    DepthwiseConv2DNchwChwOp,
    GenericOp,
    MatmulOp,
    MatvecOp,
    PoolingNchwSumOp,
    VecmatOp,
)
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp
from heirpy.ir.utils import all_parallel, int_pair, static_shape

WINDOW_OPS = (Conv2DNchwFchwOp, DepthwiseConv2DNchwChwOp, PoolingNchwSumOp)
MATRIX_OPS = (MatmulOp, MatvecOp, VecmatOp)


def enclosing_function(op: Operation) -> FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    return parent


@dataclass
class OrionLayouts:
    """Orion's layout of every secret value of one function (the arguments and what is
    computed from them) and its linear layers in execution order."""

    values: dict[SSAValue, Layout]
    linear_ops: list[Operation]

    def of(self, value: SSAValue) -> Layout:
        """`value`'s layout; a value Orion never sees is read as unmultiplexed."""
        found = self.values.get(value)
        if found is not None:
            return found
        shape = static_shape(value.type)
        assert shape is not None
        return Layout(shape)

    def conv_input(self, value: SSAValue) -> tuple[Layout, int]:
        """The layout a conv or pool reading `value` sees, and its padding: a symmetric
        zero `tensor.pad` in front of it is the Orion conv's own padding."""
        owner = value.owner
        if isinstance(owner, tensor.PadOp) and not owner.low and not owner.high:
            low = tuple(owner.static_low.get_values())
            if len(low) == 4:
                return self.of(owner.source), int(low[2])
        return self.of(value), 0

    def is_last(self, op: Operation) -> bool:
        """Whether `op` is the function's last linear layer (Orion packs it square)."""
        return bool(self.linear_ops) and self.linear_ops[-1] is op


def orion_layouts(func: FuncOp) -> OrionLayouts:
    """Propagate Orion's layouts through `func`'s body, in order."""
    values: dict[SSAValue, Layout] = {}
    linear_ops: list[Operation] = []
    layouts = OrionLayouts(values, linear_ops)
    if not func.body.blocks:
        return layouts
    for argument in func.body.block.args:
        shape = static_shape(argument.type)
        if shape is not None:
            values[argument] = Layout(shape)
    for op in func.body.block.ops:
        secret = [v for v in op.operands if v in values]
        if not secret or len(op.results) != 1 or static_shape(op.results[0].type) is None:
            continue
        result = op.results[0]
        out_shape = static_shape(result.type)
        assert out_shape is not None
        window = _window(op)
        if window is not None:
            source, stride = window
            if source not in values:
                continue  # plaintext work on a secret-free input (a weight's conv)
            layout, _ = layouts.conv_input(source)
            values[result] = conv_output_layout(layout, out_shape[1], (out_shape[2], out_shape[3]), stride)
            linear_ops.append(op)
        elif isinstance(op, MATRIX_OPS) or (isinstance(op, GenericOp) and not all_parallel(op.iterator_types)):
            values[result] = _linear_layout(out_shape)
            linear_ops.append(op)
        else:
            values[result] = _other_layout(op, values[secret[0]], out_shape, linear_ops)
        if len(out_shape) == 4 and len(values[result].shape) != 4:
            # A 4-D value whatever made it (a Linear's (N, F) output, as a sum over the
            # channels is; a broadcast vector) is what a conv reads as an image, and
            # Orion's Conv2d lays a clear image out afresh at gap 1.
            values[result] = Layout(out_shape)
    return layouts


def _linear_layout(out_shape: tuple[int, ...]) -> Layout:
    return linear_output_layout(out_shape[0], prod(out_shape[1:])) if len(out_shape) > 1 else Layout(out_shape)


def _other_layout(op: Operation, source: Layout, out_shape: tuple[int, ...], linear_ops: list[Operation]) -> Layout:
    """Any other op on a secret value. Elementwise ops, pads and flattens keep their
    input's layout (Orion's Flatten keeps even the 4-D shape); a 4-D value made otherwise
    from a lower-rank one or by a reshape starts a layout of its own. An op that shrinks H and
    W (a `tensor_ext.kernel` holding a global pool) is a pool Orion strides over them;
    one that makes a 2-D value of a 4-D one other than a flatten, a Linear."""
    reshape = isinstance(op, (tensor.CollapseShapeOp, tensor.ExpandShapeOp))
    if len(out_shape) == 4 and reshape and source.shape != out_shape:
        # A plane reshaped from another plane: Orion sees a fresh image, laid out in the
        # clear (one made from a vector is, by `orion_layouts`).
        return Layout(out_shape)
    if isinstance(op, (tensor.CollapseShapeOp, tensor.ExpandShapeOp, tensor.PadOp)):
        return source
    if len(out_shape) == 4 and len(source.shape) == 4 and out_shape[2:] != source.shape[2:]:
        linear_ops.append(op)
        stride = max(1, source.shape[2] // max(1, out_shape[2]))
        return conv_output_layout(source, out_shape[1], (out_shape[2], out_shape[3]), stride)
    if len(out_shape) != len(source.shape) and len(out_shape) <= 2:
        linear_ops.append(op)
        return _linear_layout(out_shape)
    if out_shape != source.shape:
        return regrouped(source, out_shape)
    return source


def regrouped(source: Layout, out_shape: tuple[int, ...]) -> Layout:
    """The layout of a value of `out_shape` made from `source` without moving a pixel: a
    concat or slice over the channels (GhostNet's `cat` then `[:, :oup]`), a broadcast.
    Keeping `source` whole would give the value its operand's channel count, and a conv
    reading it (its weights have the value's) taps slots past the matrix Orion builds
    (GhostNet-050: "index 20350 is out of bounds for axis 0 with size 16384"). Orion has
    no concat layer; the value is counted as a conv with `out_shape`'s channels would lay
    it out at the same gap: channels regrouped gap^2 to a plane, the plane kept."""
    if len(out_shape) != 4 or len(source.shape) != 4 or source.fhe_shape is None:
        return Layout(out_shape)
    g = source.gap
    n, channels = out_shape[0], out_shape[1]
    return Layout(out_shape, g, (n, ceil(channels / (g * g)), *source.packed[2:]))


def _window(op: Operation) -> tuple[SSAValue, int] | None:
    """(input, stride) of an op Orion runs as one Conv2d / AvgPool2d: a conv, a sum
    pool, a fused conv + pool (one composed conv, stride conv's * pool's), or a sum of
    an NCHW tensor over H and W into N x C x 1 x 1 (a global pool: stride H)."""
    if isinstance(op, WINDOW_OPS):
        return op.operands[0], int(op.window_strides()[0])
    if isinstance(op, FusedConvPoolOp):
        return op.input, op.int_values("conv_strides")[0] * op.int_values("pool_strides")[0]
    if isinstance(op, GenericOp) and not all_parallel(op.iterator_types):
        out_shape = static_shape(op.results[0].type)
        in_shapes = [static_shape(v.type) for v in op.inputs]
        planes = [(v, s) for v, s in zip(op.inputs, in_shapes) if s is not None and len(s) == 4]
        if out_shape is not None and len(out_shape) == 4 and out_shape[2:] == (1, 1) and planes:
            source, shape = planes[0]
            return source, shape[2]
    return None


# ----------------------------------------------------------------------------- layers
def window_op_diagonals(
    op: Operation, layouts: OrionLayouts, slots: int, mask: np.ndarray | None = None
) -> int:
    """Diagonals of one conv-like op (see `_window`) as Orion packs it; `mask` is the
    nonzero pattern of its (composed) filter [F, C, KH, KW], dense if not given."""
    window = _window(op)
    assert window is not None
    source, stride = window
    out_shape = static_shape(op.results[0].type)
    in_shape = static_shape(source.type)
    assert out_shape is not None and in_shape is not None
    layout, padding = layouts.conv_input(source)
    dilation = 1
    if mask is None:
        mask = _default_mask(op, layout, out_shape)
    if isinstance(op, WINDOW_OPS):
        dilation = int(op.window_dilations()[0])
    return conv_diagonals(mask, layout, (out_shape[2], out_shape[3]), stride, padding, dilation,
                          slots, layouts.is_last(op))


def _default_mask(op: Operation, layout: Layout, out_shape: tuple[int, ...]) -> np.ndarray:
    channels = layout.shape[1]
    if isinstance(op, Conv2DNchwFchwOp):
        weight = static_shape(op.operands[1].type)
        assert weight is not None
        return dense_mask(weight[0], channels, int_pair(weight[2:]))
    if isinstance(op, DepthwiseConv2DNchwChwOp):
        weight = static_shape(op.operands[1].type)
        assert weight is not None
        return pool_mask(channels, int_pair(weight[1:]))
    if isinstance(op, PoolingNchwSumOp):
        window = static_shape(op.operands[1].type)
        assert window is not None
        return pool_mask(channels, int_pair(window))
    if isinstance(op, FusedConvPoolOp):
        weight = static_shape(op.filter.type)
        assert weight is not None
        size = int_pair(
            (k - 1) * d + (p - 1) * e * s + 1
            for k, d, p, e, s in zip(weight[2:], op.int_values("conv_dilations"), op.int_values("pool_window"),
                                     op.int_values("pool_dilations"), op.int_values("conv_strides"))
        )
        return dense_mask(weight[0], channels, size)
    return pool_mask(channels, (layout.shape[2], layout.shape[3]))  # a global pool


def linear_layer_diagonals(
    source: SSAValue, out_features: int, layouts: OrionLayouts, slots: int, last: bool,
    mask: np.ndarray | None = None,
) -> int:
    """Diagonals of a Linear with `out_features` outputs reading `source` (through a
    flatten, the multiplexed layout it came in), dense unless `mask` [out, in] says."""
    layout = layouts.of(source)
    if len(layout.shape) == 1:  # a matvec's vector: one sample
        layout = Layout((1, layout.shape[0]))
    if mask is None:
        mask = np.ones((out_features, prod(layout.shape[1:])), dtype=bool)
    return linear_diagonals(mask, layout, slots, last)


def op_diagonals(op: Operation, layouts: OrionLayouts, slots: int, mask: np.ndarray | None = None) -> int:
    """Diagonals of a linear op of the function (`layouts.linear_ops`) as Orion packs it."""
    if _window(op) is not None:
        return window_op_diagonals(op, layouts, slots, mask)
    out_shape = static_shape(op.results[0].type)
    assert out_shape is not None
    if isinstance(op, MatvecOp):
        source = op.operands[1]
    elif isinstance(op, GenericOp):
        source = next((v for v in op.inputs if v in layouts.values), op.inputs[0])
    else:
        source = op.operands[0]
    return linear_layer_diagonals(source, prod(out_shape[1:]) if len(out_shape) > 1 else out_shape[0],
                                  layouts, slots, layouts.is_last(op), mask)


def conv_pool_diagonals(
    conv: Operation, pool: Operation, composed_size: tuple[int, int], composed_stride: int, slots: int
) -> tuple[int, int]:
    """(before, after) diagonals of a conv and the sum pool after it, and of the one
    conv with the composed filter (`composed_size`, stride `composed_stride`) that
    `linalg-fuse-conv-pool` and `lower-tensor-ext` make of them."""
    func = enclosing_function(pool)
    if func is None:
        return 0, 0
    layouts = orion_layouts(func)
    before = op_diagonals(conv, layouts, slots) + op_diagonals(pool, layouts, slots)
    layout, padding = layouts.conv_input(conv.operands[0])
    out_shape = static_shape(pool.results[0].type)
    weight = static_shape(conv.operands[1].type)
    assert out_shape is not None and weight is not None
    mask = dense_mask(weight[0], layout.shape[1], composed_size)
    after = conv_diagonals(mask, layout, (out_shape[2], out_shape[3]), composed_stride, padding, 1,
                           slots, layouts.is_last(pool))
    return before, after
