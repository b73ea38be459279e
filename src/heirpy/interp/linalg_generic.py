"""`linalg.generic`, `linalg.map`, `linalg.reduce`, `linalg.index`, and every structured
op without an evaluator of its own (read through its indexing maps and body).

How a structured op runs on whole arrays:

1. The loop ranges come from the operand shapes: loop `d` has the size of any operand
   axis whose map result is exactly `d`.
2. Each operand is *gathered* into the loop space: an array of rank = number of loops
   that broadcasts over it. A projected permutation (e.g. `(d0, d1, d2) -> (d2, d0)`) is
   a transposed, reshaped view; any other map (constants, `d0 * 2 + d3`, `d1 mod 4`) is
   evaluated on index grids and read with fancy indexing.
3. With only parallel loops the body runs once on the gathered arrays, and its yields
   are scattered back through the output maps.
4. With reduction loops, a body of the form `yield combine(%out, v)` (combine = add,
   mul, max, min, and, or, xor) evaluates `v` once over the whole loop space and reduces
   it with the matching numpy reduction (`v = a * b` with projection maps goes to
   `einsum`), then combines with the init. Any other body runs in MLIR's loop order,
   once per point of the reduction loops, vectorised over the parallel loops.
"""

from __future__ import annotations

import itertools
import math
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IntegerAttr
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.traits import IsTerminator

from heirpy.interp.dtypes import as_signed, as_unsigned, wrap_to
from heirpy.interp.errors import EvaluationError, op_error
from heirpy.interp.registry import EvaluatorProtocol, HandlerTable
from heirpy.ir.constants import arithmetic_dtype, element_dtype, is_float_dtype
from heirpy.ir.dialects.linalg import ReduceOp
from heirpy.ir.utils import projection_dims

HANDLERS = HandlerTable()


Arrays = Sequence[np.ndarray]

# A body running once per reduction point is a fallback; past this many points it is
# too slow to be useful, so the evaluator says so rather than appearing to hang.
MAX_SEQUENTIAL_REDUCTION_POINTS = 1 << 20


@dataclass(frozen=True)
class Structured:
    """A structured op reduced to what evaluation needs."""

    op: Operation
    block: Block
    maps: tuple[AffineMap, ...]  # one per operand: inputs, then outputs
    reduction_dims: frozenset[int]
    num_inputs: int


# ----------------------------------------------------------------------------- entry points
@HANDLERS.register("linalg.generic")
def generic(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`linalg.generic` and, through the evaluator's fallback, any structured op."""
    assert isinstance(op, LinalgStructuredOperation)
    maps = tuple(attr.data for attr in op.get_indexing_maps().data)
    iterators = [attr.data for attr in op.get_iterator_types().data]
    structured = Structured(
        op,
        op.body.block,
        maps,
        frozenset(i for i, kind in enumerate(iterators) if kind != IteratorType.PARALLEL),
        len(op.inputs),
    )
    return evaluate_structured(ev, structured, args)


@HANDLERS.register("linalg.map")
def map_op(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`linalg.map`: the body on the inputs elementwise (plus the init if it takes one)."""
    block = op.regions[0].block
    out_shape = args[-1].shape
    body_args = list(args[: len(block.args)])
    with ev.iteration_space(index_grids(out_shape)):
        (value,) = ev.run_block(block, body_args, where="linalg.map body")
    dtype = element_dtype(op.results[0].type)
    return [np.broadcast_to(value, out_shape).astype(dtype, copy=False)]


@HANDLERS.register("linalg.reduce")
def reduce_op(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """`linalg.reduce`: a structured op with identity input maps and the reduced dims
    dropped from the inits' maps (several inputs and inits reduce together)."""
    assert isinstance(op, ReduceOp)
    maps = tuple(attr.data for attr in op.get_indexing_maps().data)
    structured = Structured(op, op.combiner.block, maps, frozenset(op.dimensions.get_values()), len(op.inputs))
    return evaluate_structured(ev, structured, args)


@HANDLERS.register("linalg.index")
def index_op(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    dim = op.properties["dim"]
    assert isinstance(dim, IntegerAttr)
    return [ev.loop_index(op, dim.value.data)]


# ----------------------------------------------------------------------------- the algorithm
def evaluate_structured(ev: EvaluatorProtocol, s: Structured, args: Arrays) -> list[np.ndarray]:
    ranges = loop_ranges(s.op, s.maps, [a.shape for a in args])
    inputs, inits = args[: s.num_inputs], args[s.num_inputs :]
    out_maps = s.maps[s.num_inputs :]
    values: list[np.ndarray] | None
    if not s.reduction_dims:
        gathered = [gather(s.op, a, m, ranges) for a, m in zip(args, s.maps)]
        with ev.iteration_space(index_grids(ranges)):
            yields = ev.run_block(s.block, gathered, where=f"{s.op.name} body")
        values = [np.broadcast_to(y, ranges) for y in yields]
    else:
        values = _reduce_by_pattern(ev, s, inputs, inits, ranges)
        if values is None:
            values = _reduce_in_loop_order(ev, s, args, ranges)
    return [
        scatter(s.op, init, m, value, ranges).astype(element_dtype(result.type), copy=False)
        for init, m, value, result in zip(inits, out_maps, values, s.op.results)
    ]


def loop_ranges(op: Operation, maps: Sequence[AffineMap], shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Each loop's trip count, read from an operand axis the loop indexes directly."""
    num_loops = maps[0].num_dims if maps else 0
    ranges: list[int | None] = [None] * num_loops
    for operand, (amap, shape) in enumerate(zip(maps, shapes)):
        if len(amap.results) != len(shape):
            raise op_error(
                op, f"operand #{operand} has rank {len(shape)} but its map has {len(amap.results)} results"
            )
        for expr, size in zip(amap.results, shape):
            if isinstance(expr, AffineDimExpr):
                known = ranges[expr.position]
                if known is not None and known != size:
                    raise op_error(
                        op, f"loop d{expr.position} has size {known} and {size} (operand #{operand})"
                    )
                ranges[expr.position] = size
    missing = [f"d{i}" for i, r in enumerate(ranges) if r is None]
    if missing:
        raise op_error(op, f"cannot infer the range of loop(s) {', '.join(missing)} from operand shapes")
    return tuple(r for r in ranges if r is not None)


def index_grids(ranges: Sequence[int]) -> list[np.ndarray]:
    """`grids[d]` holds loop d's index along axis d and broadcasts along the others."""
    grids = []
    for d, size in enumerate(ranges):
        shape = [1] * len(ranges)
        shape[d] = size
        grids.append(np.arange(size, dtype=np.int64).reshape(shape))
    return grids


def eval_affine(expr: AffineExpr, grids: Sequence[np.ndarray | int]) -> np.ndarray | int:
    """An affine expression on index grids (or plain ints), with MLIR's floordiv/mod."""
    if isinstance(expr, AffineDimExpr):
        return grids[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineBinaryOpExpr):
        lhs, rhs = eval_affine(expr.lhs, grids), eval_affine(expr.rhs, grids)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
            case AffineBinaryOpKind.FloorDiv:
                return lhs // rhs
            case AffineBinaryOpKind.CeilDiv:
                return -((-lhs) // rhs)
            case AffineBinaryOpKind.Mod:
                return lhs % rhs  # non-negative for a positive rhs, as in MLIR
    raise EvaluationError(f"error: affine expression {expr} (symbols are not supported)")


def _map_indices(
    op: Operation, amap: AffineMap, shape: tuple[int, ...], ranges: Sequence[int]
) -> tuple[np.ndarray, ...]:
    grids = index_grids(ranges)
    indices = []
    for axis, expr in enumerate(amap.results):
        index = np.asarray(eval_affine(expr, grids))
        if index.size and (index.min() < 0 or index.max() >= shape[axis]):
            raise op_error(
                op, f"indexing map {amap} reads axis {axis} at {index.min()}..{index.max()}, "
                f"outside 0..{shape[axis] - 1}"
            )
        indices.append(index)
    return tuple(indices)


def gather(op: Operation, array: np.ndarray, amap: AffineMap, ranges: Sequence[int]) -> np.ndarray:
    """`array` read through `amap`: an array of rank len(ranges) broadcasting over them."""
    rank = len(ranges)
    dims = projection_dims(amap)
    if dims is not None:
        order = sorted(range(len(dims)), key=lambda axis: dims[axis])
        shape = [1] * rank
        for axis, d in enumerate(dims):
            shape[d] = array.shape[axis]
        return array.transpose(order).reshape(shape)
    value = array[_map_indices(op, amap, array.shape, ranges)]
    return value.reshape(value.shape if value.ndim == rank else (1,) * rank)


def scatter(op: Operation, init: np.ndarray, amap: AffineMap, value: np.ndarray, ranges: Sequence[int]) -> np.ndarray:
    """The output operand after writing `value` (over the loop space) through `amap`.

    `value` broadcasts over the loop space: a reduction's value has size 1 along the
    reduced loops. A loop the map does not use writes the same element repeatedly and,
    as in MLIR, the last one wins. A projected permutation covers every output element,
    so the init is not read; any other map (`(d0, d1, 0, 0)` of a reduction into unit
    dims, `(d0, d1 * 85 + d4)`) writes only the elements it reaches, into a copy of the init.
    """
    used = amap.used_dims()
    for d in range(len(ranges)):
        if d not in used and value.shape[d] > 1:
            value = value[(slice(None),) * d + (slice(-1, None),)]
    dims = projection_dims(amap)
    if dims is not None:
        value = value.reshape([value.shape[d] for d in sorted(dims)])
        order = sorted(dims)
        value = value.transpose([order.index(d) for d in dims])
        return np.broadcast_to(value, init.shape)
    # Index and value arrays broadcast together, so each reached element is written from
    # the value's own shape, never from a value stretched to the full loop space.
    indices = _map_indices(op, amap, init.shape, ranges)
    shape = np.broadcast_shapes(value.shape, *(np.shape(index) for index in indices))
    result = init.copy()
    result[tuple(np.broadcast_to(index, shape) for index in indices)] = np.broadcast_to(value, shape)
    return result


# ----------------------------------------------------------------------------- reductions
def _reduce_ufunc(name: str, dtype: np.dtype) -> tuple[np.ufunc, Callable[[np.ndarray], np.ndarray]]:
    """The numpy reduction for a combining op, and how to read its operands' bits."""
    identity: Callable[[np.ndarray], np.ndarray] = lambda a: a  # noqa: E731
    if dtype == np.bool_ and name in ("arith.addi", "arith.subi"):
        return np.logical_xor, identity  # i1 addition is xor
    table: dict[str, tuple[np.ufunc, Callable[[np.ndarray], np.ndarray]]] = {
        "arith.addf": (np.add, identity),
        "arith.addi": (np.add, identity),
        "arith.mulf": (np.multiply, identity),
        "arith.muli": (np.multiply, identity) if dtype != np.bool_ else (np.logical_and, identity),
        "arith.maximumf": (np.maximum, identity),
        "arith.minimumf": (np.minimum, identity),
        "arith.maxnumf": (np.fmax, identity),
        "arith.minnumf": (np.fmin, identity),
        "arith.maxsi": (np.maximum, as_signed),
        "arith.minsi": (np.minimum, as_signed),
        "arith.maxui": (np.maximum, as_unsigned),
        "arith.minui": (np.minimum, as_unsigned),
        "arith.andi": (np.bitwise_and, identity),
        "arith.ori": (np.bitwise_or, identity),
        "arith.xori": (np.bitwise_xor, identity),
    }
    return table[name]


COMBINERS = frozenset(
    {"arith.addf", "arith.addi", "arith.mulf", "arith.muli", "arith.maximumf",
     "arith.minimumf", "arith.maxnumf", "arith.minnumf", "arith.maxsi", "arith.minsi",
     "arith.maxui", "arith.minui", "arith.andi", "arith.ori", "arith.xori"}
)


def _combiner(block: Block, out_arg: BlockArgument, yielded: SSAValue) -> tuple[Operation, SSAValue] | None:
    """If `yielded = combine(out_arg, v)` and the running value is read nowhere else,
    return (combine op, v)."""
    if not isinstance(yielded, OpResult):
        return None
    op = yielded.op
    if op.name not in COMBINERS or op.parent_block() is not block:
        return None
    if len(list(out_arg.uses)) != 1 or len(list(yielded.uses)) != 1:
        return None
    lhs, rhs = op.operands
    if lhs is out_arg and rhs is not out_arg:
        return op, rhs
    if rhs is out_arg and lhs is not out_arg:
        return op, lhs
    return None


def _einsum_operands(s: Structured, value: SSAValue, combine: Operation) -> tuple[int, int] | None:
    """Input numbers (i, j) when `value = mul(in_i, in_j)` and `combine` adds: a contraction."""
    if combine.name not in ("arith.addf", "arith.addi") or not isinstance(value, OpResult):
        return None
    mul = value.op
    if mul.name not in ("arith.mulf", "arith.muli") or len(list(value.uses)) != 1:
        return None
    numbers = []
    for operand in mul.operands:
        if not (isinstance(operand, BlockArgument) and operand.block is s.block and operand.index < s.num_inputs):
            return None
        if projection_dims(s.maps[operand.index]) is None:
            return None
        numbers.append(operand.index)
    if element_dtype(mul.results[0].type) == np.bool_:
        return None
    # einsum sums only over loops some operand indexes; a loop neither input reads (a
    # repeated term) or a parallel loop only the output has is left to the general path.
    read = set(projection_dims(s.maps[numbers[0]]) or []) | set(projection_dims(s.maps[numbers[1]]) or [])
    if read != set(range(s.maps[0].num_dims)):
        return None
    return numbers[0], numbers[1]


def axis_letters(dims: Sequence[int]) -> str:
    return "".join(string.ascii_letters[d] for d in dims)


@dataclass(frozen=True)
class _Accumulation:
    """One output of a reduction body `yield combine(%out, value)`; `contraction` names
    the two inputs when `value = in_i * in_j` and einsum can compute the sum."""

    combine: Operation
    value: SSAValue
    contraction: tuple[int, int] | None


def _accumulations(s: Structured) -> list[_Accumulation] | None:
    terminator = s.block.last_op
    assert terminator is not None and terminator.has_trait(IsTerminator)
    out_args = s.block.args[s.num_inputs :]
    if len(out_args) != len(terminator.operands):
        return None
    found = []
    for out_arg, yielded in zip(out_args, terminator.operands):
        pattern = _combiner(s.block, out_arg, yielded)
        if pattern is None:
            return None
        combine, value = pattern
        found.append(_Accumulation(combine, value, _einsum_operands(s, value, combine)))
    return found


def _reduce_by_pattern(
    ev: EvaluatorProtocol, s: Structured, inputs: Arrays, inits: Arrays, ranges: tuple[int, ...]
) -> list[np.ndarray] | None:
    accumulations = _accumulations(s)
    if accumulations is None or len(ranges) > len(string.ascii_letters):
        return None
    # Evaluate the body once over the whole loop space, except the combining ops (done
    # by reductions below) and the products einsum computes from the inputs directly.
    skipped = {a.combine for a in accumulations}
    skipped |= {a.value.op for a in accumulations if a.contraction is not None and isinstance(a.value, OpResult)}
    values: dict[SSAValue, np.ndarray] = {}
    if any(a.contraction is None for a in accumulations):
        for arg, value in zip(s.block.args, (gather(s.op, a, m, ranges) for a, m in zip(inputs, s.maps))):
            ev.bind(arg, value)
        terminator = s.block.last_op
        with ev.iteration_space(index_grids(ranges)):
            for op in s.block.ops:
                if op is not terminator and op not in skipped:
                    ev.eval_op(op)
        values = {a.value: ev.value(a.value, s.op) for a in accumulations if a.contraction is None}
    reduction_axes = tuple(sorted(s.reduction_dims))
    reduced_shape = [1 if d in s.reduction_dims else r for d, r in enumerate(ranges)]
    kept = [d for d in range(len(ranges)) if d not in s.reduction_dims]
    results = []
    for a, init, out_map in zip(accumulations, inits, s.maps[s.num_inputs :]):
        dtype = element_dtype(a.combine.results[0].type)
        ufunc, read = _reduce_ufunc(a.combine.name, dtype)
        if a.contraction is not None:
            i, j = a.contraction
            spec = (
                f"{axis_letters(projection_dims(s.maps[i]) or [])},"
                f"{axis_letters(projection_dims(s.maps[j]) or [])}->{axis_letters(kept)}"
            )
            wide = arithmetic_dtype(dtype)  # bf16: einsum computes in f32, rounded once
            lhs, rhs = inputs[i].astype(wide, copy=False), inputs[j].astype(wide, copy=False)
            reduced = np.einsum(spec, lhs, rhs, optimize=True).astype(dtype, copy=False)
            reduced = reduced.reshape(reduced_shape)
        else:
            full = np.broadcast_to(read(np.asarray(values[a.value])), ranges)
            reduced = ufunc.reduce(full, axis=reduction_axes, keepdims=True, dtype=full.dtype)
        accumulated = np.asarray(ufunc(read(gather(s.op, init, out_map, ranges)), read(np.asarray(reduced))))
        results.append(accumulated.astype(dtype, copy=False) if is_float_dtype(dtype) else wrap_to(accumulated, dtype))
    return results


def _reduce_in_loop_order(
    ev: EvaluatorProtocol, s: Structured, args: Arrays, ranges: tuple[int, ...]
) -> list[np.ndarray]:
    """MLIR's semantics literally: for each reduction point in lexicographic order, run
    the body on all parallel points at once and carry the outputs."""
    reduction = sorted(s.reduction_dims)
    points = math.prod(ranges[d] for d in reduction)
    if points > MAX_SEQUENTIAL_REDUCTION_POINTS:
        raise op_error(
            s.op, f"has a reduction body the evaluator cannot vectorise and {points} "
            f"reduction points (limit {MAX_SEQUENTIAL_REDUCTION_POINTS})"
        )
    gathered = [gather(s.op, a, m, ranges) for a, m in zip(args[: s.num_inputs], s.maps)]
    carry_shape = [1 if d in s.reduction_dims else r for d, r in enumerate(ranges)]
    carries = [
        np.broadcast_to(gather(s.op, init, m, ranges), carry_shape)
        for init, m in zip(args[s.num_inputs :], s.maps[s.num_inputs :])
    ]
    grids = index_grids(ranges)
    for point in itertools.product(*(range(ranges[d]) for d in reduction)):
        at = dict(zip(reduction, point))

        def pick(array: np.ndarray, at: dict[int, int] = at) -> np.ndarray:
            return array[tuple(
                slice(at[d], at[d] + 1) if d in at and array.shape[d] > 1 else slice(None)
                for d in range(len(ranges))
            )]

        point_grids = [np.full([1] * len(ranges), at[d], dtype=np.int64) if d in at else g
                       for d, g in enumerate(grids)]
        with ev.iteration_space(point_grids):
            yields = ev.run_block(s.block, [pick(g) for g in gathered] + carries, where=f"{s.op.name} body")
        carries = [np.broadcast_to(y, carry_shape) for y in yields]
    return carries

