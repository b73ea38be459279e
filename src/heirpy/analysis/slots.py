"""Ciphertext slots: how long the secret vectors of a function's linear ops are.

HEIR's CKKS pipeline (`--torch-linalg-to-ckks`) packs each secret tensor into
ciphertexts of `min-slot-count` slots (1024 by default). Its linear kernels need their
secret operand and result in ONE ciphertext: a `linalg.matvec` whose matrix has more
rows or columns than the slot count fails ("unexpected unrealized conversion cast op
found"), and its convs read a flattened data tensor. Elementwise ops are not limited.
A zero pad that HEIR folds into a conv's layout (`conv_input`) is not laid out, so the
conv's input is counted without it.

Secret values are the function's arguments and everything computed from them; a
constant operand (a weight) is plaintext and is not counted. Read-only: nothing here
changes the IR.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue

from heirpy.ir.dialects.linalg import (
    Conv2DNchwFchwOp,
    DepthwiseConv2DNchwChwOp,
    MatmulOp,
    MatvecOp,
    PoolingNchwSumOp,
    VecmatOp,
)
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp
from heirpy.ir.utils import static_shape

DEFAULT_SLOT_COUNT = 1024
"""HEIR's default `--torch-linalg-to-ckks` min-slot-count: one ciphertext's slots."""

LINEAR_OPS = (
    MatvecOp, VecmatOp, MatmulOp, Conv2DNchwFchwOp, DepthwiseConv2DNchwChwOp, PoolingNchwSumOp,
    FusedConvPoolOp,  # `lower-tensor-ext` makes it a conv and a pool again
)


def secret_values(func: FuncOp) -> set[SSAValue]:
    """The values of `func`'s body computed from its arguments (ciphertexts in HEIR)."""
    tainted: set[SSAValue] = set(func.body.block.args) if func.body.blocks else set()
    for op in func.body.block.ops if func.body.blocks else ():
        if any(v in tainted for v in op.operands):
            tainted.update(op.results)
    return tainted


@dataclass(frozen=True)
class StageSlots:
    """One linear op on secret data: its secret input and output element counts."""

    op: Operation
    d_in: int
    d_out: int

    @property
    def matrix(self) -> str:
        """The size of the op as one dense matrix, `d_out x d_in`."""
        return f"{self.d_out}x{self.d_in}"

    @property
    def slots(self) -> int:
        """The slot count one ciphertext needs to hold either vector."""
        return min_slot_count(max(self.d_in, self.d_out), floor=1)


def _is_zero_constant(value: SSAValue) -> bool:
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return False
    attr = owner.value
    return isinstance(attr, (FloatAttr, IntegerAttr)) and attr.value.data == 0


def folded_pad_source(op: tensor.PadOp) -> SSAValue | None:
    """The source of `op` when HEIR's conv layout absorbs the pad, else None.

    HEIR's `LayoutPropagation` folds a pad into the `conv_2d_nchw_fchw` that reads it
    (the conv's own `padding` parameter) when the pad is static, pads with zero, adds
    nothing to the N and C dims, and adds the same p > 0 before and after every
    spatial dim: the padded tensor is then never laid out in slots."""
    if op.low or op.high:
        return None
    low, high = list(op.static_low.get_values()), list(op.static_high.get_values())
    if len(low) != 4 or low != high or low[:2] != [0, 0] or low[2] <= 0 or low[2] != low[3]:
        return None
    yields = list(op.region.block.ops)
    if len(yields) != 1 or len(yields[0].operands) != 1 or not _is_zero_constant(yields[0].operands[0]):
        return None
    return op.source


def conv_input(op: Operation, value: SSAValue) -> SSAValue:
    """The value whose slots `op` needs for its operand `value`: the pad's source when
    `op` is a `conv_2d_nchw_fchw` reading a pad HEIR folds (`folded_pad_source`)."""
    if isinstance(op, Conv2DNchwFchwOp) and value is op.operands[0] and isinstance(value.owner, tensor.PadOp):
        source = folded_pad_source(value.owner)
        if source is not None:
            return source
    return value


def linear_stages(func: FuncOp) -> list[StageSlots]:
    """Each linear op of `func` that reads secret data, with its vector sizes."""
    secret = secret_values(func)
    stages = []
    for op in func.body.block.ops if func.body.blocks else ():
        if not isinstance(op, LINEAR_OPS):
            continue
        inputs = [
            prod(s) for v in op.operands[:-1]
            if v in secret and (s := static_shape(conv_input(op, v).type)) is not None
        ]
        outputs = [prod(s) for v in op.results if (s := static_shape(v.type)) is not None]
        if inputs and outputs:
            stages.append(StageSlots(op, max(inputs), max(outputs)))
    return stages


def boundary_vectors(func: FuncOp) -> int:
    """The longest secret tensor `func` takes or returns, in elements: its arguments
    (`--secretize` makes every argument a ciphertext) and the results computed from
    them. They are ciphertexts whatever heirpy does, so a ring that holds them costs
    the function nothing more."""
    if not func.body.blocks:
        return 0
    secret = secret_values(func)
    values: list[SSAValue] = list(func.body.block.args)
    last = func.body.block.last_op
    if last is not None:
        values += [v for v in last.operands if v in secret]
    return max((prod(s) for v in values if (s := static_shape(v.type)) is not None), default=0)


def slots_needed(func: FuncOp) -> int:
    """The longest secret vector a linear op of `func` reads or writes."""
    return max((max(s.d_in, s.d_out) for s in linear_stages(func)), default=0)


def module_slots(functions: list[FuncOp]) -> tuple[int, FuncOp | None, int]:
    """(the `min-slot-count` that holds every function's vectors, the function with the
    longest vector, its length): heir-opt takes one slot count per module."""
    needed = [(slots_needed(func), func) for func in functions if func.body.blocks]
    longest, func = max(needed, key=lambda pair: pair[0], default=(0, None))
    return min_slot_count(longest), func, longest


def heir_opt_flag(count: int) -> str:
    """The heir-opt flag that gives its CKKS pipeline `count` slots."""
    return f"--torch-linalg-to-ckks=min-slot-count={count}"


def min_slot_count(needed: int, floor: int = DEFAULT_SLOT_COUNT) -> int:
    """The slot count for vectors of `needed` elements: a power of two, at least `floor`
    (HEIR's default, so that the number can be passed to heir-opt as it is)."""
    count = floor
    while count < needed:
        count *= 2
    return count
