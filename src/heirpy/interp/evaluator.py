"""Run a `func.func` of a module on numpy arrays.

The evaluator walks a function's block in order and keeps an environment from each SSA
value to a numpy array (0-d for a scalar). Each op is evaluated by the function its
family lists in its `HANDLERS` table, joined here as `OP_HANDLERS`; a structured
linalg op with no function of its own (e.g. `linalg.add`, or xDSL's `conv_2d_ngchw_fchw`) falls back to
the `linalg.generic` evaluator, which reads its indexing maps and body.

Ops inside regions (a `linalg.generic` body, a `tensor.pad` body) are evaluated by the
same functions on whole arrays: a body runs once on every element at the same time,
not once per element.

Numerics: every value has the numpy dtype of its MLIR element type (f32 stays f32,
integers wrap at their width). Float contractions (conv, matmul) are computed in the
element type with numpy/BLAS, so only their summation order differs from MLIR's loops.
f16 is computed as f16: each f16 op rounds its result to f16 (numpy computes a half op
in f32 and rounds once, as MLIR's lowerings of half ops do), `truncf` rounds to nearest
even, and an accumulation happens in its init's type: torch-mlir's half conv, f16
operands into an f32 init, sums in f32. A reduction *into* an f16 init is summed by
numpy at least in f32 and rounded once at the end, where MLIR's loops round after every
step (compilers reorder such sums anyway; the difference is a few f16 ulps).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp, ShapedType
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from heirpy.interp import (
    arith_math,
    cf_ops,
    func_ops,
    linalg_generic,
    linalg_named,
    linalg_relayout,
    tensor_ext_kernel,
    tensor_ext_ops,
    tensor_ops,
)
from heirpy.interp.errors import EvaluationError, op_error
from heirpy.interp.registry import OpHandler, join_tables
from heirpy.ir.constants import Resources, element_dtype, module_resources
from heirpy.ir.diagnostics import HeirpyError

OP_HANDLERS: dict[str, OpHandler] = join_tables(
    arith_math.HANDLERS,
    cf_ops.HANDLERS,
    func_ops.HANDLERS,
    linalg_generic.HANDLERS,
    linalg_named.HANDLERS,
    linalg_relayout.HANDLERS,
    tensor_ext_kernel.HANDLERS,
    tensor_ext_ops.HANDLERS,
    tensor_ops.HANDLERS,
)
"""Every op the evaluator runs, by name (a structured linalg op missing here runs
through the `linalg.generic` handler)."""


def _with_frame(err: EvaluationError, frame: str) -> EvaluationError:
    """Add where the failing op sits, for ops parsed without a source location."""
    text = str(err)
    if text.startswith("error: "):
        return EvaluationError(f"{text} ({frame})")
    return err


class Evaluator:
    """Evaluates the functions of one module. Not reentrant across threads."""

    def __init__(self, module: ModuleOp, resources: Resources | None = None):
        self.module = module
        self.resources: Resources = (
            module_resources(module) if resources is None else resources
        )
        self._functions: dict[str, FuncOp] = {
            op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)
        }
        self._frames: list[dict[SSAValue, np.ndarray]] = []
        self._iteration_spaces: list[tuple[np.ndarray, ...]] = []

    # ------------------------------------------------------------------ functions
    def function(self, name: str) -> FuncOp:
        func = self._functions.get(name)
        if func is None:
            known = ", ".join(f"@{n}" for n in self._functions) or "none"
            raise EvaluationError(f"error: no function @{name} in the module (functions: {known})")
        return func

    def call(self, name: str, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Run function `name` on `inputs` (converted to the argument element types)."""
        func = self.function(name)
        if not func.body.blocks:
            raise op_error(func, f"@{name} is a declaration without a body")
        arg_types = func.function_type.inputs.data
        if len(inputs) != len(arg_types):
            raise EvaluationError(
                f"error: @{name} takes {len(arg_types)} argument(s), got {len(inputs)}"
            )
        args = [_coerce_input(name, i, value, t) for i, (value, t) in enumerate(zip(inputs, arg_types))]
        if len(self._frames) > 200:
            raise op_error(func, f"@{name}: call depth over 200 (unbounded recursion?)")
        self._frames.append({})
        try:
            return self.run_block(func.body.blocks[0], args, where=f"@{name}")
        finally:
            self._frames.pop()

    # ------------------------------------------------------------------ blocks
    def run_block(
        self, block: Block, args: Sequence[np.ndarray], *, where: str = "region"
    ) -> list[np.ndarray]:
        """Evaluate `block` with `args` bound to its arguments, in the current frame;
        return the values its terminator passes on (yield / return operands)."""
        env = self._frames[-1]
        if len(args) != len(block.args):
            raise EvaluationError(
                f"error: block of {where} takes {len(block.args)} argument(s), got {len(args)}"
            )
        for arg, value in zip(block.args, args):
            env[arg] = value
        for index, op in enumerate(block.ops):
            if op.has_trait(IsTerminator):
                return [self.value(operand, op) for operand in op.operands]
            try:
                self.eval_op(op)
            except EvaluationError as err:
                raise _with_frame(err, f"op #{index} of {where}") from err
        raise EvaluationError(f"error: block of {where} has no terminator")

    @contextmanager
    def frame(self) -> Iterator[None]:
        """A fresh, empty environment for evaluating ops outside a function call, e.g.
        `with ev.frame(): for op in slice: ev.eval_op(op)` to fold constants."""
        self._frames.append({})
        try:
            yield
        finally:
            self._frames.pop()

    def eval_op(self, op: Operation) -> None:
        """Evaluate one (non-terminator) op in the current frame and record its results."""
        operands = [self.value(operand, op) for operand in op.operands]
        results = self._dispatch(op, operands)
        env = self._frames[-1]
        for result, value in zip(op.results, results):
            env[result] = value

    def bind(self, ssa: SSAValue, value: np.ndarray) -> None:
        """Set an SSA value (a block argument) in the current frame."""
        self._frames[-1][ssa] = value

    def value(self, ssa: SSAValue, user: Operation) -> np.ndarray:
        try:
            return self._frames[-1][ssa]
        except KeyError:
            raise op_error(user, "uses a value that was not computed before it") from None

    def _dispatch(self, op: Operation, operands: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        handler = lookup_handler(op)
        if handler is None:
            raise op_error(op, "has no evaluator (unsupported op)")
        if op.name.startswith("linalg.") and any(isinstance(v.type, MemRefType) for v in op.operands):
            # The handlers compute results from values (tensor semantics); an op on buffers
            # has no results and writes its outs in place, which they do not model.
            raise op_error(op, "on buffers (memref operands) has no evaluator: heirpy evaluates tensor programs")
        try:
            with np.errstate(all="ignore"):  # MLIR wraps / yields inf and NaN silently
                results = handler(self, op, operands)
        except HeirpyError as err:
            if isinstance(err, EvaluationError):
                raise
            raise op_error(op, str(err).removeprefix("error: ")) from err
        except Exception as err:  # a numpy error means shapes or values MLIR rejects
            raise op_error(op, f"failed: {type(err).__name__}: {err}") from err
        _check_results(op, results)
        return results

    # ------------------------------------------------------------------ linalg.index
    @contextmanager
    def iteration_space(self, grids: Sequence[np.ndarray]) -> Iterator[None]:
        """While a structured op's body runs, `linalg.index d` reads `grids[d]`: the
        index of loop d, shaped to broadcast over the part of the loop space the body
        sees at once."""
        self._iteration_spaces.append(tuple(grids))
        try:
            yield
        finally:
            self._iteration_spaces.pop()

    def loop_index(self, op: Operation, dim: int) -> np.ndarray:
        if not self._iteration_spaces:
            raise op_error(op, "is used outside a structured op's body")
        grids = self._iteration_spaces[-1]
        if not 0 <= dim < len(grids):
            raise op_error(op, f"dim {dim} is out of range for {len(grids)} loops")
        return grids[dim]

    # ------------------------------------------------------------------ resources
    def resource(self, op: Operation, handle: str) -> bytes:
        blob = self.resources.get(handle)
        if blob is None:
            raise op_error(op, f"reads dense_resource<{handle}>, which has no blob")
        return blob


def lookup_handler(op: Operation) -> OpHandler | None:
    handler = OP_HANDLERS.get(op.name)
    if handler is None and isinstance(op, LinalgStructuredOperation):
        return OP_HANDLERS["linalg.generic"]
    return handler


def _coerce_input(func: str, index: int, value: object, type_: Attribute) -> np.ndarray:
    array = np.asarray(value)
    dtype = element_dtype(type_)
    if isinstance(type_, ShapedType):
        expected = type_.get_shape()
        if len(expected) != array.ndim or any(
            e >= 0 and e != a for e, a in zip(expected, array.shape)
        ):
            raise EvaluationError(
                f"error: @{func} argument #{index} expects {type_}, got shape {array.shape}"
            )
    elif array.ndim != 0:
        raise EvaluationError(f"error: @{func} argument #{index} expects a scalar {type_}")
    if array.dtype != dtype and not np.can_cast(array.dtype, dtype, casting="same_kind"):
        raise EvaluationError(
            f"error: @{func} argument #{index} expects {type_}, got dtype {array.dtype}"
        )
    return array.astype(dtype, copy=False)


def _check_results(op: Operation, results: Sequence[np.ndarray]) -> None:
    """Catch evaluator bugs early: each result has its declared dtype and static shape."""
    if len(results) != len(op.results):
        raise op_error(op, f"evaluator returned {len(results)} values for {len(op.results)} results")
    for index, (result, value) in enumerate(zip(op.results, results)):
        if value.dtype != element_dtype(result.type):
            raise op_error(
                op, f"evaluator produced dtype {value.dtype} for result #{index} of type {result.type}"
            )
        if isinstance(result.type, ShapedType):
            expected = result.type.get_shape()
            if len(expected) != value.ndim or any(
                e >= 0 and e != a for e, a in zip(expected, value.shape)
            ):
                raise op_error(
                    op, f"result #{index} has shape {value.shape}, but its type is {result.type}"
                )


def run_function(
    module: ModuleOp,
    name: str,
    inputs: Sequence[np.ndarray],
    *,
    resources: Resources | None = None,
) -> list[np.ndarray]:
    """Evaluate `@name` of `module` on `inputs`; one array per result.

    `resources` are the module's `dense_resource` blobs (handle -> data bytes); by
    default they are read from the store of the context the module was parsed with
    (`heirpy.ir.constants.module_resources`).
    """
    return Evaluator(module, resources).call(name, inputs)
