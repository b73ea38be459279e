"""Layout ops on a flat vector as one selection matvec (`legalize-for-heir`).

An option-A shortcut (He et al.'s CIFAR form, `x[:, :, ::2, ::2]` then `F.pad` on the
channels) is a strided `tensor.extract_slice` of the block input and a channel
`tensor.pad` of zeros. Where heirpy makes the block's convs matvecs, the block input
is a flat vector, and the slice reads it expanded back to 1xCxHxW: an `expand_shape`
HEIR rejects ("Only rank-reduced types are supported for ExpandShapeOp"). The slice and
the pad pick some elements of the vector and put zeros (or the pad's constant)
elsewhere: a linear map, whose matrix has one 1 per row that reads an element. As a
`linalg.matvec` it costs HEIR one level, on the shortcut, which skips the block's two
convs and its activation, so the add after it stays at the depth of the convs' path
(the depth bound; `benchmarks/residual_nets.py` counts the slice and pad as free, and
the shortcut is two levels shallower than the path it joins).
"""

from __future__ import annotations

from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.utils import int_values, static_shape
from heirpy.transforms.heir.heir_forms import (
    LegalizePattern,
    NativeFunctions,
    adds_only_unit_dims,
    element_of,
    fits,
    flat_type,
    matvec_ops,
    unflatten,
)
from heirpy.transforms.linear.constant_folding import ConstantFolder

LAYOUT_OPS = (tensor.ExtractSliceOp, tensor.PadOp, tensor.ExpandShapeOp, tensor.CollapseShapeOp)
MAX_LAYOUT_OPS = 16
"""The longest run of layout ops followed back (torch-mlir writes a strided slice per
dim, a pad, and the reshapes around them: five or six)."""


def static_slice_parts(op: tensor.ExtractSliceOp) -> tuple[list[int], list[int], list[int]] | None:
    """(offsets, sizes, strides) of a static `extract_slice` that keeps its rank, or None."""
    if op.offsets or op.sizes or op.strides:
        return None
    parts = [list(int_values(a)) for a in (op.static_offsets, op.static_sizes, op.static_strides)]
    source, result = static_shape(op.source.type), static_shape(op.result.type)
    if source is None or result is None or len(result) != len(source) or list(result) != parts[1]:
        return None  # a rank-reducing slice: its result drops the unit dims
    return parts[0], parts[1], parts[2]


def pad_widths(op: tensor.PadOp) -> list[tuple[int, int]] | None:
    """The (low, high) widths of a static `tensor.pad` of non-negative widths, or None."""
    if op.low or op.high:
        return None
    low, high = list(int_values(op.static_low)), list(int_values(op.static_high))
    if min([*low, *high], default=0) < 0:
        return None
    return list(zip(low, high))


def apply_layout_op(op: Operation, array: np.ndarray, fill: float) -> np.ndarray | None:
    """`op` on `array` (element indices, NaN where a pad puts its constant), or None for an
    op this pattern does not read."""
    if isinstance(op, (tensor.ExpandShapeOp, tensor.CollapseShapeOp)):
        shape = static_shape(op.results[0].type)
        return None if shape is None else array.reshape(shape)
    if isinstance(op, tensor.ExtractSliceOp):
        parts = static_slice_parts(op)
        if parts is None:
            return None
        return array[tuple(slice(o, o + s * t, t) for o, s, t in zip(*parts))]
    if isinstance(op, tensor.PadOp):
        widths = pad_widths(op)
        return None if widths is None else np.pad(array, widths, constant_values=fill)
    return None


class LayoutToMatvec(LegalizePattern[tensor.ExtractSliceOp | tensor.PadOp]):
    """Strided slices and constant pads of a flat secret vector as one selection matvec.

        %t = tensor.expand_shape %v [[0, 1, 2, 3]] output_shape [1, 2, 8, 8] : tensor<128xf32> into tensor<1x2x8x8xf32>
        %a = tensor.extract_slice %t[0, 0, 0, 0] [1, 2, 4, 8] [1, 1, 2, 1] : ... to tensor<1x2x4x8xf32>
        %b = tensor.extract_slice %a[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 2] : ... to tensor<1x2x4x4xf32>
        %p = tensor.pad %b low[0, 1, 0, 0] high[0, 1, 0, 0] { tensor.yield %zero } : ... to tensor<1x4x4x4xf32>
      ->
        %s = linalg.matvec ins(%S, %v : tensor<64x128xf32>, tensor<128xf32>) outs(%k : tensor<64xf32>)
        %p = tensor.expand_shape %s [[0, 1, 2, 3]] output_shape [1, 4, 4, 4]

    with S[i, j] = 1 where output element i is input element j, and %k the pad's
    constant where an output element is padding (0 elsewhere). The expand_shape left
    folds into the flat readers (`ElementwiseOnFlat`: the residual add). Why: HEIR
    rejects the first expand_shape (it adds more than unit dims) and has no strided
    slice of a packed vector; the matvec is its one-level diagonal kernel, on the
    shallow shortcut path (module docstring).
    Legality: the op is the last of a run of static, rank-keeping `extract_slice`s,
    static pads with one scalar constant, and reshapes (no more than MAX_LAYOUT_OPS)
    that starts with an `expand_shape` HEIR rejects (it adds non-unit dims) of a 1-D
    value which is not a constant; every user of the op is a `linalg.generic` or a
    `collapse_shape` (a conv takes its pad into its own matrix, `DenseStageToMatvec`,
    and a slice or pad after the op would make it no run's last); input and output fit
    the slot count (`fits`).
    """

    op_types = (tensor.ExtractSliceOp, tensor.PadOp)

    def __init__(self, reader: ConstantFolder, native: NativeFunctions, slot_count: int):
        super().__init__(reader, native)
        self.slot_count = slot_count

    def rewrite(self, op: tensor.ExtractSliceOp | tensor.PadOp, rewriter: PatternRewriter) -> None:
        out_type = op.results[0].type
        if not isinstance(out_type, TensorType) or static_shape(out_type) is None:
            return
        users = [use.operation for use in op.results[0].uses]
        if not users or not all(isinstance(user, (GenericOp, tensor.CollapseShapeOp)) for user in users):
            return  # not the run's last op, or read by a stage that takes a pad in (a conv)
        run = self.layout_run(op)
        if run is None:
            return
        source, ops, fill = run
        length = prod(static_shape(source.type) or ())
        if not fits(length, prod(out_type.get_shape()), self.slot_count):
            return
        picked: np.ndarray | None = np.arange(length, dtype=np.float64)
        for layout_op in ops:
            assert picked is not None
            picked = apply_layout_op(layout_op, picked, np.nan)
            if picked is None:
                return
        assert picked is not None
        rows = picked.reshape(-1)
        matrix = np.zeros((rows.size, length))
        reads = ~np.isnan(rows)
        matrix[np.nonzero(reads)[0], rows[reads].astype(np.int64)] = 1.0
        dtype = element_dtype(out_type)
        init = dense_constant(np.where(reads, 0.0, fill).astype(dtype), flat_type(out_type))
        new = [init, *matvec_ops(matrix.astype(dtype), source, init.result, element_of(out_type))]
        back, result = unflatten(new[-1].results[0], out_type)
        rewriter.replace(op, new + back, [result])

    def layout_run(self, op: Operation) -> tuple[SSAValue, list[Operation], float] | None:
        """(the 1-D value the run starts at, its ops from first to `op`, the pads'
        constant) when `op` ends a run of layout ops (class docstring), else None."""
        ops: list[Operation] = []
        fills: set[float] = set()
        value: SSAValue = op.results[0]
        while isinstance(value.owner, LAYOUT_OPS) and len(ops) < MAX_LAYOUT_OPS:
            owner = value.owner
            if isinstance(owner, tensor.PadOp):
                fill = self.pad_constant(owner)
                if fill is None:
                    return None
                fills.add(fill)
            ops.insert(0, owner)
            value = owner.operands[0]
            shape = static_shape(value.type)
            if shape is not None and len(shape) == 1:
                break
        shape = static_shape(value.type)
        if shape is None or len(shape) != 1 or len(fills) > 1 or self.reader.fold(value) is not None:
            return None
        first = ops[0]
        expanded = static_shape(first.results[0].type) or ()
        if not isinstance(first, tensor.ExpandShapeOp) or adds_only_unit_dims(shape, expanded):
            return None  # HEIR reads this run as it is (a 1-D slice: `SliceOfMatvec`'s)
        return value, ops, fills.pop() if fills else 0.0

    def pad_constant(self, op: tensor.PadOp) -> float | None:
        """The scalar a pad puts, when its region yields one constant."""
        body = list(op.region.block.ops)
        if len(body) != 1 or len(body[0].operands) != 1:
            return None
        value = self.reader.fold(body[0].operands[0])
        return None if value is None or value.size != 1 else float(value.reshape(-1)[0])
