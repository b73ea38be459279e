"""The flat-vector forms `legalize-for-heir` writes for HEIR, and what its patterns share.

HEIR (heir-opt 2026.11.1, `--torch-linalg-to-ckks`) lays every secret tensor out in
ciphertext slots. A chain of `linalg.matvec` on flat vectors is the form it compiles at
one level per stage; `collapse_shape` to a flat vector is free, an `expand_shape` may
only add unit dims. The helpers here build that form; `LegalizePattern` is the base of
every pattern of the pass (it skips functions HEIR compiles as they are, `heir_native`).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.analysis.slots import folded_pad_source, secret_values
from heirpy.ir.constants import dense_constant
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp, MatvecOp
from heirpy.ir.utils import all_parallel, int_values, map_dims, reassociation_attr, static_shape
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.rewrite import OpPattern, OpT

MAX_DENSE_ELEMENTS = 1 << 23
"""Largest dense matrix (D_out x D_in entries, 32 MB of f32) this pass writes for a stage
whose vectors fit the slots. Twice fusion's cap (`MAX_MATRIX_ELEMENTS`): LeNet-5's
pool-fused conv2 is 1600x4704 (7.5M), and HEIR compiles that net at its depth bound only
with every stage a matvec (9 levels, 48 s); with conv1 and conv2 left to HEIR's conv
kernel it takes 23 (the strided conv's layout conversion costs one level per slot bit).
ResNet-20's 64x8x8 convs (4096 x 4096, 16.8M) stay convs: as matrices they made heirpy's
output 136 MB."""


NATIVE_CONV_ELEMENTS = 1 << 20
"""A conv HEIR runs at one level as it is stays a conv when its dense matrix would have
more entries than this (4 MB of f32; `DenseStageToMatvec`)."""


def flat_type(type_: Attribute) -> TensorType:
    """The 1-D tensor type with `type_`'s elements."""
    assert isinstance(type_, TensorType)
    return TensorType(type_.get_element_type(), [prod(type_.get_shape())])


def element_of(type_: Attribute) -> Attribute:
    assert isinstance(type_, TensorType)
    return type_.get_element_type()


def flatten(value: SSAValue) -> tuple[list[Operation], SSAValue]:
    """Ops collapsing `value` to 1-D (none if it is 1-D already) and the flat value."""
    shape = static_shape(value.type)
    assert shape is not None
    if len(shape) == 1:
        return [], value
    op = tensor.CollapseShapeOp(
        operands=[value], result_types=[flat_type(value.type)],
        properties={"reassociation": reassociation_attr([list(range(len(shape)))])},
    )
    return [op], op.results[0]


def unflatten(value: SSAValue, type_: TensorType) -> tuple[list[Operation], SSAValue]:
    """Ops expanding the 1-D `value` back to `type_` (none if `type_` is 1-D)."""
    shape = list(type_.get_shape())
    if len(shape) == 1:
        return [], value
    op = tensor.ExpandShapeOp(value, [], reassociation_attr([list(range(len(shape)))]), shape, type_)
    return [op], op.results[0]


def flat_source(value: SSAValue) -> SSAValue | None:
    """The 1-D value that `value` is a chain of expand/collapse_shape ops of, or None.

    Reshapes keep the row-major order of elements, so `value` read in row-major order
    IS that flat value."""
    shape = static_shape(value.type)
    if shape is None:
        return None
    current = value
    while isinstance(current.owner, (tensor.ExpandShapeOp, tensor.CollapseShapeOp)):
        current = current.owner.operands[0]
        source_shape = static_shape(current.type)
        if source_shape is not None and len(source_shape) == 1 and source_shape[0] == prod(shape):
            return current
    return None


def reads_in_row_major_order(indexing: AffineMap, shape: Sequence[int], loops: Sequence[int]) -> bool:
    """Does a value of `shape`, read through `indexing` in a parallel loop nest of sizes
    `loops`, give its elements in the loops' row-major order? It does when the map is the
    identity on the same shape, or keeps the loops in order and drops only unit loops (a
    kernel epilogue reading its 1x4x2 root through (d0, d1, d2, d3) -> (d0, d1, d2) in a
    1x4x2x1 nest): then the value's flat vector is the loops' flat vector."""
    dims = map_dims(indexing)
    if dims is None or indexing.num_symbols or dims != sorted(set(dims)):
        return False
    if any(size != 1 for d, size in enumerate(loops) if d not in dims):
        return False
    return list(shape) == [loops[d] for d in dims]


def adds_only_unit_dims(source: Sequence[int], result: Sequence[int]) -> bool:
    """HEIR's rule for expand_shape: the result is the source with unit dims added."""
    return [d for d in result if d != 1] == [d for d in source if d != 1]


def matvec_ops(matrix: np.ndarray, vector: SSAValue, init: SSAValue, element: Attribute) -> list[Operation]:
    """`linalg.matvec ins(matrix, vector) outs(init)` with `matrix` as a constant of
    `element`; the result has the init's type (an f16 matrix and vector accumulate into an
    f32 init in torch-mlir's half-precision form)."""
    weight = dense_constant(matrix, TensorType(element, list(matrix.shape)))
    out_type = TensorType(element_of(init.type), [matrix.shape[0]])
    op = MatvecOp([weight.result, vector], [init], [out_type])
    return [weight, op]


def fits(d_in: int, d_out: int, slot_count: int) -> bool:
    """A dense matvec of this size fits HEIR: each vector in one ciphertext, and the
    matrix within MAX_DENSE_ELEMENTS entries."""
    return d_in <= slot_count and d_out <= slot_count and d_in * d_out <= MAX_DENSE_ELEMENTS


class NativeFunctions:
    """Which functions `heir_native` leaves alone, decided once per function and pass
    run (the patterns never touch such a function, so the answer stays true)."""

    def __init__(self) -> None:
        self._native: dict[int, bool] = {}

    def owns(self, op: Operation) -> bool:
        """True when `op` sits in a function HEIR compiles as it is."""
        func = op.parent_op()
        while func is not None and not isinstance(func, FuncOp):
            func = func.parent_op()
        if func is None:
            return False
        key = id(func)
        if key not in self._native:
            self._native[key] = heir_native(func)
        return self._native[key]


class LegalizePattern(OpPattern[OpT]):
    """A pattern of this pass: skips functions HEIR compiles as they are."""

    def __init__(self, reader: ConstantFolder, native: NativeFunctions):
        self.reader = reader
        self.native = native

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        # `OpPattern`'s dispatch, with the skip of native functions added.
        if isinstance(op, self.op_types) and not self.native.owns(op):
            self.rewrite(op, rewriter)


# ----------------------------------------------------------------------------- legality
def secret_ops(func: FuncOp) -> list[Operation]:
    """The ops of `func`'s body that read its arguments, directly or through others."""
    tainted = secret_values(func)
    return [op for op in func.body.block.ops if any(v in tainted for v in op.operands)]


def _several_non_unit_dims(type_: Attribute) -> bool:
    shape = static_shape(type_)
    return shape is not None and sum(d != 1 for d in shape) >= 2


def _batch_one(op: Operation) -> bool:
    shape = static_shape(op.operands[0].type)
    return shape is not None and shape[0] == 1


def is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def pad_costs_a_level(op: Conv2DNchwFchwOp) -> bool:
    """True when HEIR's conv pays a level for the zero pad that feeds it: a pad its
    kernel does not fold (not symmetric on the spatial dims alone), or a folded one on
    data whose element count is no power of two (HEIR then remaps the padded tensor with
    a mask: `heir_native_convs` module doc)."""
    pad = op.operands[0].owner
    if not isinstance(pad, tensor.PadOp):
        return False
    source = folded_pad_source(pad)
    shape = static_shape(source.type) if source is not None else None
    return shape is None or not is_power_of_two(prod(shape))


def heir_fails_on(op: Conv2DNchwFchwOp) -> bool:
    """A conv heir-opt 2026.11.1 may fail on, so never left to HEIR's conv kernel: a 1x1
    filter ("unexpected unrealized conversion cast op found" with one input or one output
    channel, benchmarks/heir_bugs/conv_1x1_filter.mlir; 2->2 and 16->4 compile, so this
    is conservative), or a zero pad as wide as the filter on a spatial dim (SIGSEGV,
    benchmarks/heir_bugs/conv_pad_wider_than_filter.mlir; torch's (k - 1) / 2 is fine)."""
    shape = static_shape(op.operands[1].type)
    if shape is None or tuple(shape[2:]) == (1, 1):
        return shape is not None
    pad = op.operands[0].owner
    if not isinstance(pad, tensor.PadOp) or pad.low or pad.high:
        return False
    low, high = int_values(pad.static_low), int_values(pad.static_high)
    return len(low) == 4 and any(max(low[d], high[d]) >= shape[d] for d in (2, 3))


def _native_op(op: Operation) -> bool:
    if isinstance(op, Conv2DNchwFchwOp):
        strides = op.properties.get("strides")
        unit = strides is None or all(s == 1 for s in int_values(strides))
        return _batch_one(op) and unit and not heir_fails_on(op) and not pad_costs_a_level(op)
    if isinstance(op, GenericOp):
        return all_parallel(op.iterator_types)
    return isinstance(op, (tensor.PadOp, tensor.CollapseShapeOp, ReturnOp)) or op.name.startswith("arith.")


def heir_native(func: FuncOp) -> bool:
    """True when HEIR compiles `func` as it is at no more levels than the flat form, and
    with its small filters: a result has several non-unit dims, and every op on secret
    data is a pad, an elementwise op, a collapse or a batch-1 `conv_2d_nchw_fchw` with
    a filter heir-opt compiles (`heir_fails_on`) and a pad that costs no level
    (`pad_costs_a_level`) -- of unit stride, or the function's only
    linear op (one conv needs none of the layout conversions that strided stages cost
    later). E.g. conv → x² → conv at stride 1, or one strided conv fused with its pool."""
    ops = secret_ops(func)
    returned = [v for op in ops if isinstance(op, ReturnOp) for v in op.operands]
    if not any(_several_non_unit_dims(v.type) for v in returned):
        return False
    convs = [op for op in ops if isinstance(op, Conv2DNchwFchwOp)]
    if len(convs) == 1 and _batch_one(convs[0]) and not heir_fails_on(convs[0]) and not pad_costs_a_level(convs[0]):
        return all(op is convs[0] or _native_op(op) for op in ops)
    return all(_native_op(op) for op in ops)


