"""Reading and building the constants that linear-op fusion folds (IR <-> numpy).

Reading: `ConstantFolder.fold(value)` evaluates the backward slice of `value` with heirpy's
evaluator when every leaf is an `arith.constant` (dense, splat or dense_resource), so a
weight behind `linalg.transpose`, `tensor.expand_shape`, `linalg.broadcast` or a
batch-norm `sqrt(var + eps)` generic is as constant as a literal. A slice that reaches a
block argument (a function argument: not known at compile time) is not constant.

Building: `build_init` picks the smallest form of an init tensor: `linalg.fill` of zero, a 1-D
constant through `linalg.broadcast` (the form torch-mlir uses for a bias), or a full
dense constant.

Kept apart from the passes so both `linalg-fuse-linear-ops` and
`linalg-fuse-linear-chains` share it. `heirpy.ir.constants` builds the dense
constants; its `constant_array` reads only literal/fill/broadcast forms, while the
folder here evaluates whole constant slices (batch-norm's `1/sqrt(var+eps)` included):
it needs the evaluator, so it sits above `interp`, not on the ground floor.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.interp.errors import EvaluationError
from heirpy.interp.evaluator import Evaluator
from heirpy.ir.constants import Resources, dense_constant, element_dtype, module_resources
from heirpy.ir.context import context_of
from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.dialects.linalg import BroadcastOp, FillOp
from heirpy.ir.utils import i64_array
from heirpy.transforms.linear.linear_maps import varying_axes

# Only these dialects may appear in a folded slice: they are pure on tensors.
_FOLDABLE_PREFIXES = ("arith.", "math.", "linalg.", "tensor.", "cf.assert")
MAX_SLICE_OPS = 256


def _module_of(op: Operation) -> ModuleOp | None:
    parent: Operation | None = op
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


def is_compile_time_constant(value: SSAValue) -> bool:
    """Is `value` computed from constants only (plaintext known at compile time)?

    The test `ConstantFolder.fold` makes before evaluating, without evaluating."""
    root = value.owner
    return isinstance(root, Operation) and _slice_ops(root, set()) is not None


def _slice_ops(root: Operation, not_constant: set[Operation]) -> list[Operation] | None:
    block = root.parent_block()
    seen: set[Operation] = set()
    stack = [root]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        if op in not_constant:
            return None
        if not op.name.startswith(_FOLDABLE_PREFIXES) or op.parent_block() is not block:
            return None
        seen.add(op)
        if len(seen) > MAX_SLICE_OPS:
            return None
        # Operands of nested ops too: a generic's body may read a scalar from outside.
        for nested in op.walk():
            for operand in nested.operands:
                owner = operand.owner
                if isinstance(owner, BlockArgument) or isinstance(owner, Block):
                    if isinstance(operand, BlockArgument) and _is_inside(operand, op):
                        continue
                    return None
                assert isinstance(owner, Operation)
                if _is_inside_op(owner, op):
                    continue
                stack.append(owner)
    return _operands_first(root, seen)


def _operands_first(root: Operation, ops: set[Operation]) -> list[Operation]:
    """`ops` (the slice of `root`) ordered so that every op comes after the ops of the
    slice it reads: the order the evaluator needs. It visits only the slice, where
    numbering the whole block made each fold O(block size) and a pass over a module
    of N layers O(N^2) (benchmarks/bench_scaling.py)."""
    order: list[Operation] = []
    visited: set[Operation] = set()
    stack: list[tuple[Operation, bool]] = [(root, False)]
    while stack:
        op, operands_done = stack.pop()
        if operands_done:
            order.append(op)
            continue
        if op in visited:
            continue
        visited.add(op)
        stack.append((op, True))
        for nested in op.walk():
            for operand in nested.operands:
                owner = operand.owner
                if isinstance(owner, Operation) and owner in ops and owner not in visited:
                    stack.append((owner, False))
    return order


def _is_inside(arg: BlockArgument, op: Operation) -> bool:
    parent = arg.block.parent_op()
    return parent is not None and _is_inside_op(parent, op)


def _is_inside_op(inner: Operation, outer: Operation) -> bool:
    current: Operation | None = inner
    while current is not None:
        if current is outer:
            return True
        current = current.parent_op()
    return False


class ConstantFolder:
    """Reads compile-time constants of one module (see the module docstring).

    The `dense_resource` blobs live in the context the module was parsed with: give
    `ctx` (a pass has it); without one the context heirpy remembers for the module is
    used. Blobs are snapshotted once per module, so a reader belongs to one pass run."""

    def __init__(self, ctx: Context | None = None):
        self.ctx = ctx
        self._resources: dict[int, Resources] = {}
        self.known_not_constant: set[Operation] = set()
        """Ops this folder found not to be constant. A fold of the next layer stops
        when it reaches one instead of walking up to MAX_SLICE_OPS ops towards the
        function's arguments, which made linear-chain fusion cost ~5 ms per query on
        deep models. An op once found to depend on an argument does not become constant
        within a pass run; a wrong entry could only stop a fusion, never change a
        value. The set lives as long as the folder: one pass run."""
        self._unrounded: dict[SSAValue, np.ndarray] = {}
        """Constants a fold wrote in a narrow float (f16, bf16), each with the float64
        value it rounds (`remember_unrounded`)."""

    def slice_of(self, value: SSAValue) -> list[Operation] | None:
        """The ops `value` depends on, in an order the evaluator can run them, or None
        if it depends on a block argument of its function, on an op outside the
        foldable dialects, or on another block."""
        root = value.owner
        if not isinstance(root, Operation):
            return None
        ops = _slice_ops(root, self.known_not_constant)
        if ops is None:
            self.known_not_constant.add(root)
        return ops

    def _evaluator(self, module: ModuleOp) -> Evaluator:
        key = id(module)
        if key not in self._resources:
            ctx = self.ctx if self.ctx is not None else context_of(module)
            self._resources[key] = module_resources(module, ctx)
        return Evaluator(module, self._resources[key])

    def fold(self, value: SSAValue) -> np.ndarray | None:
        """The value of `value` if it is computed from constants only, else None.

        A `tensor.empty` (undefined contents) reads as NaN; `init_value` reads an
        init that is only a `tensor.empty` as zeros instead."""
        ops = self.slice_of(value)
        module = _module_of(value.owner) if isinstance(value.owner, Operation) else None
        if ops is None or module is None:
            return None
        evaluator = self._evaluator(module)
        try:
            with evaluator.frame():  # a scratch environment: the slice has no arguments
                for op in ops:
                    evaluator.eval_op(op)
                result = evaluator.value(value, value.owner)  # type: ignore[arg-type]
        except (EvaluationError, HeirpyError):
            return None
        return np.array(result)

    def apply(self, op: Operation, operands: Sequence[np.ndarray]) -> np.ndarray | None:
        """`op`'s (first) result on the given operand values, or None when the evaluator
        cannot compute it. Lets a caller read each operand its own way (an init through
        `init_value`) before evaluating the op."""
        module = _module_of(op)
        if module is None or len(operands) != len(op.operands) or not op.results:
            return None
        evaluator = self._evaluator(module)
        try:
            with evaluator.frame():
                for operand, value in zip(op.operands, operands):
                    evaluator.bind(operand, value)
                evaluator.eval_op(op)
                return np.array(evaluator.value(op.results[0], op))
        except (EvaluationError, HeirpyError):
            return None

    def init_value(self, value: SSAValue) -> np.ndarray | None:
        """The constant an op's init holds, with a `tensor.empty` init read as zeros
        (its contents are undefined, and any value refines undefined); an init a fold
        wrote in a narrow float reads unrounded (`fold_unrounded`)."""
        if isinstance(value.owner, tensor.EmptyOp):
            assert isinstance(value.type, TensorType)
            return np.zeros(value.type.get_shape(), dtype=element_dtype(value.type))
        return self.fold_unrounded(value)

    def remember_unrounded(self, value: SSAValue, exact: np.ndarray) -> None:
        """`value` is a weight or init a fold just wrote: `exact` (float64) rounded to
        its element type. For a float narrower than f32 the next fold into the same op
        starts from `exact`, so a run of folds (batch norm's 1/sqrt(var+eps), gamma)
        rounds the weight to f16/bf16 once, where it ends, not once per fold. f32
        keeps its per-fold rounding (an f32 ulp is below every tolerance, and the f32
        figures stay bit for bit)."""
        element = value.type.get_element_type() if isinstance(value.type, TensorType) else None
        if not isinstance(element, AnyFloat) or element.bitwidth >= 32:
            return
        # Entries of values no op reads any more (folded again, erased) go.
        for dead in [v for v in self._unrounded if not v.uses]:
            del self._unrounded[dead]
        self._unrounded[value] = np.asarray(exact, dtype=np.float64)

    def fold_unrounded(self, value: SSAValue) -> np.ndarray | None:
        """`fold(value)`, except for a constant a fold wrote in a narrow float
        (`remember_unrounded`) and that only one op reads (the linear op it was written
        for): its float64 value before the rounding. A fold into that op computes from
        it and rounds once; the op's value differs from the IR's only by the one
        rounding that the fold rewrites anyway."""
        exact = self._unrounded.get(value)
        if exact is not None and value.has_one_use():
            return exact
        return self.fold(value)


# ------------------------------------------------------------------------- building
def build_init(array: np.ndarray, type_: TensorType) -> tuple[list[Operation], SSAValue]:
    """Ops computing the constant init `array` of `type_`, in its smallest form, and the
    value they produce (the last op's result)."""
    element = type_.get_element_type()
    assert isinstance(element, AnyFloat), "linear-op inits are float tensors"
    axes = varying_axes(np.asarray(array))
    empty = tensor.EmptyOp([], type_)
    if not axes and (array.size == 0 or float(np.asarray(array).reshape(-1)[0]) == 0.0):
        zero = arith.ConstantOp(FloatAttr(0.0, element))
        fill = FillOp([zero.result], [empty.tensor], [type_])
        return [zero, empty, fill], fill.results[0]
    if len(axes) == 1 and array.ndim > 1:
        (axis,) = axes
        index = tuple(slice(None) if a == axis else 0 for a in range(array.ndim))
        vector_type = TensorType(element, [array.shape[axis]])
        vector = dense_constant(np.asarray(array)[index], vector_type)
        dims = i64_array([a for a in range(array.ndim) if a != axis])
        broadcast = BroadcastOp(vector.result, empty.tensor, dims)
        return [vector, empty, broadcast], broadcast.results[0]
    constant = dense_constant(np.asarray(array), type_)
    return [constant], constant.result


def init_elements(array: np.ndarray) -> int:
    """Elements `build_init` stores for the init `array`: none for zeros (a fill), one
    for a splat, the varying axis for a per-channel init, else the whole tensor."""
    array = np.asarray(array)
    axes = varying_axes(array)
    if not axes:
        return 0 if array.size == 0 or float(array.reshape(-1)[0]) == 0.0 else 1
    if len(axes) == 1 and array.ndim > 1:
        return int(array.shape[axes[0]])
    return int(array.size)


def erase_dead_constant_slices(rewriter: PatternRewriter, roots: Sequence[SSAValue]) -> None:
    """Erase the constant-computing ops behind `roots` that a fold left without users.

    Only ops in the foldable dialects are touched; `dce` alone keeps torch-mlir's
    batch-norm generics because their `cf.assert` counts as a side effect, but the fold
    has just evaluated them, so their asserts hold."""
    pending = [v.owner for v in roots if isinstance(v.owner, Operation)]
    while pending:
        op = pending.pop()
        if op.parent is None or not op.name.startswith(_FOLDABLE_PREFIXES):
            continue
        if any(result.uses for result in op.results):
            continue
        owners = [v.owner for nested in op.walk() for v in nested.operands]
        rewriter.erase(op)
        pending.extend(o for o in owners if isinstance(o, Operation) and not _is_inside_op(o, op))
