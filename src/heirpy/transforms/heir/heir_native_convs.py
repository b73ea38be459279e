"""Which convs HEIR runs itself at one level: `legalize-for-heir` leaves those convs alone.

HEIR's `conv_2d_nchw_fchw` kernel (LayoutPropagation, ConvertToCiphertextSemantics)
multiplies by the conv's Toeplitz matrix, which it builds from the filter, in one
level (some filters and pads make heir-opt fail: `heir_forms.heir_fails_on`). It costs no more
only when its data arrives in the row-major 4-D layout HEIR
gives the function's arguments and a unit-stride conv's result (elementwise ops keep
a layout), batch 1, unit strides; a zero pad on the spatial dims folds into the kernel
(`heirpy.analysis.slots.folded_pad_source`), but HEIR still remaps the padded tensor,
and that remap masks the ciphertext (a level) unless the unpadded data fills its
power-of-two period, i.e. has a power-of-two number of elements (measured: a 1x3x32x32
input padded by 1 costs its conv two levels, a 1x4x16x16 input one).

Such a conv written as a dense matvec costs the same level but carries its whole
Toeplitz matrix as a constant (ResNet-20's 64x8x8 convs: 4096 x 4096 entries, 64 MB
each), so `DenseStageToMatvec` keeps it a conv.
"""

from __future__ import annotations

from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from heirpy.analysis.slots import folded_pad_source
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp
from heirpy.ir.dialects.tensor import PadOp
from heirpy.ir.utils import all_parallel, int_values, is_identity, static_shape
from heirpy.transforms.heir.heir_forms import heir_fails_on, pad_costs_a_level
from heirpy.transforms.linear.constant_folding import ConstantFolder


def _unit_stride_batch_one(op: Conv2DNchwFchwOp) -> bool:
    shape = static_shape(op.operands[0].type)
    strides = op.properties.get("strides")
    dilations = op.properties.get("dilations")
    ones = all(s == 1 for s in int_values(strides)) if strides is not None else True
    undilated = all(d == 1 for d in int_values(dilations)) if dilations is not None else True
    return shape is not None and shape[0] == 1 and ones and undilated


class RowMajorValues:
    """Answers whether a value is laid out row-major in 4-D by HEIR (see the module doc):
    a 4-D batch-1 function argument, a unit-stride batch-1 conv's result, or an
    elementwise generic (identity maps, same shape) of such values and constants."""

    def __init__(self, reader: ConstantFolder):
        self.reader = reader

    def row_major(self, value: SSAValue) -> bool:
        return self._row_major(value, {})

    def _row_major(self, value: SSAValue, seen: dict[SSAValue, bool]) -> bool:
        if value in seen:
            return seen[value]
        seen[value] = False  # no cycles in SSA, but a guard costs nothing
        shape = static_shape(value.type)
        result = False
        if shape is not None and len(shape) == 4 and shape[0] == 1:
            if isinstance(value, BlockArgument):
                result = isinstance(value.block.parent_op(), FuncOp)
            elif isinstance(value, OpResult):
                result = self._row_major_result(value.op, shape, seen)
        seen[value] = result
        return result

    def _row_major_result(self, op: Operation, shape: tuple[int, ...], seen: dict[SSAValue, bool]) -> bool:
        if isinstance(op, Conv2DNchwFchwOp):
            return _unit_stride_batch_one(op)
        if not isinstance(op, GenericOp) or len(op.results) != 1 or not all_parallel(op.iterator_types):
            return False
        if not all(is_identity(m.data) for m in op.indexing_maps):
            return False
        secret = [v for v in op.inputs if self.reader.fold(v) is None]
        return bool(secret) and all(static_shape(v.type) == shape and self._row_major(v, seen) for v in secret)

    def native_conv(self, op: Operation) -> bool:
        """True for a conv HEIR runs at one level as it is (see the module doc)."""
        if not isinstance(op, Conv2DNchwFchwOp) or not _unit_stride_batch_one(op) or heir_fails_on(op):
            return False
        if pad_costs_a_level(op):
            return False
        data = op.operands[0]
        if isinstance(data.owner, PadOp):
            source = folded_pad_source(data.owner)
            assert source is not None  # pad_costs_a_level: the pad folds
            data = source
        return self.row_major(data)
