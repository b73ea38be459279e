"""What `legalize-for-heir` needs to know about a reducing `linalg.generic`: whether its
body accumulates one term into the init, how that term depends on the secret input,
and, for a linear one, its dense matrix (the op evaluated on every unit vector).

A reduction generic in heirpy's output is typically

    ^bb0(%x: f32, %w: f32, %acc: f32):
      %t = <term computed from %x, %w>       e.g. x * w (a contraction) or x * x (a square
      %s = arith.addf %t, %acc               fused into a global average pool)
      linalg.yield %s

The term's degree in the secret input decides what it is for CKKS: degree 1 (with the
accumulator) makes the whole op one linear map; a higher degree is an activation that
has to run before the sum.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.traits import IsTerminator

from heirpy.interp.evaluator import Evaluator
from heirpy.interp.linalg_generic import eval_affine
from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.utils import iterator_kinds, loop_sizes, op_degree, static_shape
from heirpy.transforms.linear.linear_maps import affine_matrix


def value_degree(block: Block, variables: set[SSAValue], of: SSAValue | None = None) -> int | None:
    """The degree in `variables` of `of` (default: the value `block` yields, its only
    operand), or None when it is not a polynomial in them (an op other than + - x /
    reads a variable, a division by one, a value from above the body that is not a
    scalar constant...)."""
    degree: dict[SSAValue, int] = {v: 1 for v in variables}
    unknown: set[SSAValue] = set()
    for op in block.ops:
        if op.has_trait(IsTerminator):
            if of is None:
                if len(op.operands) != 1:
                    return None
                of = op.operands[0]
            break
        operands = list(op.operands)
        degrees = [degree.get(v, 0) for v in operands]
        if any(v in unknown or not (_defined_in(v, block) or _is_scalar_constant(v)) for v in operands):
            result = None  # read from above the body, or from an unknown value
        else:
            result = op_degree(op.name, degrees)
        for value in op.results:
            if result is None:
                unknown.add(value)
            else:
                degree[value] = result
    if of is None or of in unknown:
        return None
    return degree.get(of, 0) if _defined_in(of, block) or of in degree else None


def _defined_in(value: SSAValue, block: Block) -> bool:
    owner = value.owner
    return owner is block or (isinstance(owner, Operation) and owner.parent_block() is block)


def _is_scalar_constant(value: SSAValue) -> bool:
    return isinstance(value.owner, arith.ConstantOp) and not isinstance(value.type, TensorType)


@dataclass(frozen=True)
class Accumulation:
    """The body yields `add = term + acc` (either operand order), and `acc`, the init's
    block argument, has no other use: `out = init + sum of term over the reduced loops`."""

    add: arith.AddfOp
    term_index: int  # which operand of `add` is the term

    @property
    def term(self) -> SSAValue:
        return self.add.operands[self.term_index]


def accumulation(op: GenericOp) -> Accumulation | None:
    """The op's body as an accumulation (see `Accumulation`), or None."""
    if len(op.outputs) != 1 or len(op.results) != 1:
        return None
    block = op.body.block
    acc = block.args[-1]
    terminator = block.last_op
    if terminator is None or len(terminator.operands) != 1:
        return None
    add = terminator.operands[0].owner
    if not isinstance(add, arith.AddfOp) or not add.result.has_one_use():
        return None
    if not acc.has_one_use() or acc not in add.operands or add.lhs is add.rhs:
        return None
    return Accumulation(add, 1 if add.lhs is acc else 0)


def sums_elements(op: GenericOp) -> bool:
    """Some reduction loop of `op` runs over more than one element (reductions over
    size-1 loops only are copies: no linear stage, no level)."""
    shapes = [static_shape(v.type) for v in op.operands]
    if any(shape is None for shape in shapes):
        return False
    maps = [m.data for m in op.indexing_maps]
    sizes = loop_sizes(maps, [s for s in shapes if s is not None])
    kinds = iterator_kinds(op.iterator_types)
    return sizes is not None and any(k == "reduction" and n > 1 for k, n in zip(kinds, sizes))


def secret_args(op: GenericOp, secret: SSAValue) -> set[SSAValue]:
    """The body arguments that read `secret` (an input of `op`)."""
    block = op.body.block
    return {arg for arg, value in zip(block.args, op.inputs) if value is secret}


def generic_sample_map(
    op: GenericOp, secret: SSAValue, values: Mapping[SSAValue, np.ndarray]
) -> Callable[[np.ndarray], np.ndarray]:
    """`op` as a map of `secret` (every other operand bound to its value in `values`),
    on a batch of inputs stacked along a new axis 0 (the form `affine_matrix` takes).
    The body is run by heirpy's evaluator, so the map is exactly what the op computes."""
    evaluator = Evaluator(ModuleOp([]), {})  # the body needs no function or blob

    def apply(batch: np.ndarray) -> np.ndarray:
        outs = []
        for sample in batch:
            with evaluator.frame():
                for operand in op.operands:
                    evaluator.bind(operand, sample if operand is secret else values[operand])
                evaluator.eval_op(op)
                outs.append(np.asarray(evaluator.value(op.results[0], op), dtype=np.float64))
        return np.stack(outs)

    return apply


def generic_affine_matrix(
    op: GenericOp, secret: SSAValue, values: Mapping[SSAValue, np.ndarray]
) -> tuple[np.ndarray, np.ndarray] | None:
    """(A, b) with op(x) == A @ x.ravel() + b, for an op affine in its input `secret`
    (the caller checks that with `value_degree`); None if the evaluator cannot run it."""
    shape = static_shape(secret.type)
    if shape is None:
        return None
    summed = sum_matrix(op, secret, values)
    if summed is not None:
        return summed
    contracted = contraction_matrix(op, secret, values)
    if contracted is not None:
        return contracted
    try:
        return affine_matrix(generic_sample_map(op, secret, values), shape)
    except HeirpyError:
        return None


def _flat_indexer(loops: Sequence[int]) -> Callable[[AffineMap, tuple[int, ...]], np.ndarray]:
    """For a loop nest of sizes `loops`: a function giving, for every iteration in
    row-major order, the flat (row-major) index into a tensor of `shape` that
    `indexing` reads there; a sum or contraction's matrix is scattered at these."""
    grids = list(np.indices(loops, sparse=True))

    def flat_index(indexing: AffineMap, shape: tuple[int, ...]) -> np.ndarray:
        index = [np.broadcast_to(eval_affine(expr, grids), loops).reshape(-1) for expr in indexing.results]
        return np.ravel_multi_index(index, shape)

    return flat_index


def sum_matrix(
    op: GenericOp, secret: SSAValue, values: Mapping[SSAValue, np.ndarray]
) -> tuple[np.ndarray, np.ndarray] | None:
    """(A, b) of a plain sum (the body is `in + acc` of `secret` and the init, as a
    global average pool's sum on the grid), written from the maps: A[o, i] = 1 where a
    loop point reads input element i and accumulates into output element o, b the init.
    None for any other body. The same matrix `affine_matrix` finds by running the body on
    every unit vector (one evaluation each: seconds for ResNet's 64x32x32 grid)."""
    block = op.body.block
    body = list(block.ops)
    if len(op.inputs) != 1 or op.inputs[0] is not secret or len(op.outputs) != 1 or len(body) != 2:
        return None
    add, args = body[0], set(block.args)
    if not isinstance(add, arith.AddfOp) or set(add.operands) != args or len(args) != 2 or add.lhs is add.rhs:
        return None
    if list(body[1].operands) != [add.result]:
        return None
    shapes = [static_shape(v.type) for v in op.operands]
    init = values.get(op.outputs[0])
    maps = [m.data for m in op.indexing_maps]
    if any(s is None for s in shapes) or init is None or any(m.num_symbols for m in maps):
        return None
    in_shape, out_shape = shapes[0], shapes[1]
    assert in_shape is not None and out_shape is not None
    loops = loop_sizes(maps, [in_shape, out_shape])
    if loops is None:
        return None
    flat_index = _flat_indexer(loops)

    matrix = np.zeros((prod(out_shape), prod(in_shape)))
    np.add.at(matrix, (flat_index(maps[1], out_shape), flat_index(maps[0], in_shape)), 1.0)
    return matrix, np.broadcast_to(np.asarray(init, dtype=np.float64), out_shape).reshape(-1)


def _widened_arg(value: SSAValue, block: Block) -> SSAValue | None:
    """The body argument `value` is, or is `arith.extf` of (the mixed f16 form)."""
    owner = value.owner
    if isinstance(owner, arith.ExtFOp):
        value = owner.input
    return value if value in block.args else None


def contraction_matrix(
    op: GenericOp, secret: SSAValue, values: Mapping[SSAValue, np.ndarray]
) -> tuple[np.ndarray, np.ndarray] | None:
    """(A, b) of a contraction `acc + x * w` of `secret` (x) and a constant weight (w, a
    value in `values`), either factor possibly widened by `arith.extf` -- heirpy's
    global pool + Linear (`chains.emit_contraction_generic`) -- written from the maps:
    A[o, i] += w[j] for each loop point reading input element i and weight element j
    into output element o; b the init. None for any other body. The same matrix
    `affine_matrix` finds by running the body on every unit vector, which for a 2x2
    pool into a 1280 -> 1000 Linear is 5120 runs over 5.1M loop points each."""
    block = op.body.block
    body = list(block.ops)
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(body) not in (3, 4, 5):
        return None
    x_index = next((i for i, v in enumerate(op.inputs) if v is secret), None)
    if x_index is None or op.inputs[1 - x_index] is secret:
        return None
    weight = values.get(op.inputs[1 - x_index])
    init = values.get(op.outputs[0])
    found = accumulation(op)
    if weight is None or init is None or found is None or not isinstance(found.term.owner, arith.MulfOp):
        return None
    mul = found.term.owner
    factors = [_widened_arg(v, block) for v in mul.operands]
    x_arg, w_arg = block.args[x_index], block.args[1 - x_index]
    if set(factors) != {x_arg, w_arg} or x_arg is w_arg:
        return None
    # Only the widenings, the product, the add and the yield: nothing else in the body.
    extfs = [o for o in body if isinstance(o, arith.ExtFOp)]
    if len(body) != 3 + len(extfs) or any(o.result not in mul.operands for o in extfs):
        return None
    shapes = [static_shape(v.type) for v in op.operands]
    maps = [m.data for m in op.indexing_maps]
    if any(s is None for s in shapes) or any(m.num_symbols for m in maps):
        return None
    known = [s for s in shapes if s is not None]
    loops = loop_sizes(maps, known)
    if loops is None:
        return None
    flat_index = _flat_indexer(loops)

    in_shape, w_shape, out_shape = known[x_index], known[1 - x_index], known[2]
    entries = np.asarray(weight, dtype=np.float64).reshape(-1)[flat_index(maps[1 - x_index], w_shape)]
    matrix = np.zeros((prod(out_shape), prod(in_shape)))
    np.add.at(matrix, (flat_index(maps[2], out_shape), flat_index(maps[x_index], in_shape)), entries)
    return matrix, np.broadcast_to(np.asarray(init, dtype=np.float64), out_shape).reshape(-1)
