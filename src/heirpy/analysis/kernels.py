"""Kernel count and intermediate traffic: how many ops touch tensor data, and how many
bytes of tensors are materialised between them.

What is a kernel (an op that reads or writes tensor data, i.e. one loop nest a code
generator emits):
* every `linalg` op except the terminators/helpers of bodies (`linalg.yield`,
  `linalg.index`): generics, named ops, `fill`, `broadcast`, `transpose`, ...;
* every `tensor_ext` op except `tensor_ext.yield`; a `tensor_ext.kernel` is ONE kernel,
  whatever its body holds;
* the `tensor` ops that move data: `pad`, `extract_slice`, `insert_slice`, `concat`,
  `gather`, `scatter`, `generate`, `splat`, `from_elements`, `insert` -- they copy
  elements into a new tensor, so they count;
* `arith`/`math` ops whose result is a tensor (elementwise on whole tensors), except
  `arith.constant`.

Not kernels: `tensor.expand_shape`, `collapse_shape`, `reshape`, `cast`, `bitcast`
(views: same bytes, new shape), `tensor.empty` (no data), `tensor.dim`, `tensor.extract`
(reads one scalar), constants, and everything without tensor data (`func.return`, index
arithmetic). Ops nested in a kernel (a generic's body, a kernel's region) are part of it.

Intermediate bytes: a tensor result of a kernel that another kernel reads -- directly or
through views -- must be materialised in memory: element size x element count, summed
over such results. A result whose only reader is a kernel that stores its slice into it
(the destination of `tensor_ext.kernel`'s store) is updated in place, not copied, so it
does not count. A result read only by `func.return` (or non-kernels) is not
intermediate. Results with a dynamic shape are listed as `dynamic` and not summed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation, SSAValue

from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.dialects.tensor_ext import KernelOp
from heirpy.ir.utils import element_bytes, element_type, tensor_bytes

VIEW_OPS: frozenset[str] = frozenset(
    {"tensor.expand_shape", "tensor.collapse_shape", "tensor.reshape", "tensor.cast", "tensor.bitcast"}
)
DATA_MOVING_TENSOR_OPS: frozenset[str] = frozenset(
    {
        "tensor.pad",
        "tensor.extract_slice",
        "tensor.insert_slice",
        "tensor.concat",
        "tensor.gather",
        "tensor.scatter",
        "tensor.generate",
        "tensor.splat",
        "tensor.from_elements",
        "tensor.insert",
    }
)
_NOT_KERNELS: frozenset[str] = frozenset(
    {"linalg.yield", "linalg.index", "tensor_ext.yield", "arith.constant"}
)


def is_kernel(op: Operation) -> bool:
    """Does `op` read or write tensor data as one kernel? (See the module docstring.)"""
    name = op.name
    if name in _NOT_KERNELS:
        return False
    dialect = name.split(".", 1)[0]
    if dialect in ("linalg", "tensor_ext"):
        return True
    if name in DATA_MOVING_TENSOR_OPS:
        return True
    if dialect in ("arith", "math"):
        return any(isinstance(r.type, TensorType) for r in op.results)
    return False


def kernels_of(ops: Iterator[Operation] | list[Operation]) -> Iterator[Operation]:
    """The kernels among `ops` and inside non-kernel regions (not inside kernels)."""
    for op in ops:
        if is_kernel(op):
            yield op
            continue
        for region in op.regions:
            for block in region.blocks:
                yield from kernels_of(list(block.ops))


def _enclosing_kernel(op: Operation) -> Operation | None:
    current: Operation | None = op
    while current is not None:
        if is_kernel(current):
            return current
        current = current.parent_op()
    return None


def read_by_kernel(value: SSAValue, producer: Operation) -> bool:
    """Is `value` read by another kernel, directly or through view ops?"""
    for use in value.uses:
        user = use.operation
        if user.name in VIEW_OPS:
            if any(read_by_kernel(r, producer) for r in user.results):
                return True
            continue
        if updated_in_place(value, use.index, user):
            continue
        reader = _enclosing_kernel(user)
        if reader is not None and reader is not producer:
            return True
    return False


def updated_in_place(value: SSAValue, operand: int, user: Operation) -> bool:
    """Is `value` only the destination a `tensor_ext.kernel` stores its slice into?

    Then the kernel writes into the same buffer (MLIR's bufferization makes the slice's
    extract/insert pair in place, as IREE does for a dispatch's store): a chain of such
    kernels fills one tensor, nothing is copied between them. Only when it is the value's
    sole use: a second reader would need the old contents kept.
    """
    return isinstance(user, KernelOp) and value.has_one_use() and user.store_destination() == operand


@dataclass(frozen=True)
class Intermediate:
    producer: str
    type: str
    bytes: int | None  # None: dynamic shape


@dataclass(frozen=True)
class KernelReport:
    """Kernels and materialised intermediates of one function."""

    function: str
    kernels: tuple[str, ...]
    intermediates: tuple[Intermediate, ...]

    @property
    def count(self) -> int:
        return len(self.kernels)

    @property
    def intermediate_bytes(self) -> int:
        return sum(i.bytes for i in self.intermediates if i.bytes is not None)

    @property
    def dynamic(self) -> int:
        return sum(1 for i in self.intermediates if i.bytes is None)


def analyze_function(func: FuncOp) -> KernelReport:
    kernels = list(kernels_of(list(func.body.ops)))
    intermediates: list[Intermediate] = []
    for kernel in kernels:
        for result in kernel.results:
            if isinstance(result.type, TensorType) and read_by_kernel(result, kernel):
                intermediates.append(
                    Intermediate(kernel.name, str(result.type), tensor_bytes(result.type))
                )
    return KernelReport(
        func.sym_name.data, tuple(k.name for k in kernels), tuple(intermediates)
    )


def analyze_module(module: ModuleOp) -> list[KernelReport]:
    return [analyze_function(op) for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]


def count_kernels(module: ModuleOp) -> int:
    return sum(r.count for r in analyze_module(module))


def intermediate_bytes(module: ModuleOp) -> int:
    return sum(r.intermediate_bytes for r in analyze_module(module))


def constant_bytes(module: ModuleOp, element_size: int | None = None) -> int:
    """Bytes of constant tensor data the module carries: every `arith.constant` of a
    static tensor type at its full size, except a splat, which stores one element.
    `element_size` counts every element at that many bytes whatever its type (CKKS
    encodes an f16 weight as it does an f32 one).

    This is what a pass that materialises a broadcast makes grow (a `[C]` bias written
    out as `1xCxHxW`), and roughly what the printed file weighs."""
    if element_size is not None:
        return element_size * constant_elements(module)
    total = 0
    for op in module.walk():
        if not isinstance(op, arith.ConstantOp) or not isinstance(op.result.type, ShapedType):
            continue
        full = tensor_bytes(op.result.type)
        if full is None:
            continue
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr) and value.is_splat():
            full = element_bytes(element_type(op.result.type)) or 0
        total += full
    return total


def constant_elements(module: ModuleOp) -> int:
    """Elements of constant tensor data the module carries, counted as `constant_bytes`
    counts bytes (a splat is one element)."""
    total = 0
    for op in module.walk():
        if not isinstance(op, arith.ConstantOp) or not isinstance(op.result.type, ShapedType):
            continue
        shape = op.result.type.get_shape()
        if any(d < 0 for d in shape):
            continue
        value = op.value
        total += 1 if isinstance(value, DenseIntOrFPElementsAttr) and value.is_splat() else math.prod(shape)
    return total


def loop_points(module: ModuleOp) -> int:
    """The iteration points of every `linalg` op's loop nest, summed: a contraction's
    multiply-accumulates (a conv's N*F*OH*OW*C*KH*KW), a pool's window reads, an
    elementwise op's elements (an op without a loop-range interface, e.g.
    `linalg.broadcast`: its result's elements).

    The work a back end that runs the loop nests as written pays (IREE's llvm-cpu).
    Fusing for CKKS levels can grow it (a pool folded into the next conv, a projection
    composed with the next 1x1 conv); `iree-prepare`
    must not. `tensor_ext` kernels are not counted: lower them first (`lower-tensor-ext`).
    Raises HeirpyError on a dynamic loop bound."""
    total = 0
    for op in module.walk():
        if not op.name.startswith("linalg.") or op.name in _NOT_KERNELS:
            continue
        if isinstance(op, LinalgStructuredOperation):
            ranges = tuple(op.get_static_loop_ranges())
        elif op.results and isinstance(op.results[0].type, TensorType):
            ranges = tuple(op.results[0].type.get_shape())
        else:
            continue
        if any(r < 0 for r in ranges):
            raise HeirpyError(f"error: loop_points: '{op.name}' has a dynamic loop bound")
        total += math.prod(ranges)
    return total

def _kinds(names: tuple[str, ...]) -> str:
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} x{c}" if c > 1 else n for n, c in counts.items()) or "-"


def format_kernel_table(reports: list[KernelReport]) -> str:
    """One row per function: kernel count, intermediate bytes, which kernels."""
    header = ["function", "kernels", "intermediate bytes", "dynamic", "kernel ops"]
    rows = [
        [f"@{r.function}", str(r.count), str(r.intermediate_bytes), str(r.dynamic), _kinds(r.kernels)]
        for r in reports
    ]
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in [header, *rows]]
    return "\n".join(lines)
