"""Recognising the IR shapes that linear-op fusion rewrites.

* `match_elementwise_affine(op)`: an elementwise `x (+|-|*|/) K` with `K` constant, in
  either form front ends use: `arith.addf/subf/mulf/divf` on tensors (HEIR's
  `linalg-canonicalizations` output) or a `linalg.generic` with parallel loops whose
  body is one such op (torch-mlir's output: `K` is a broadcast input through an
  indexing map such as `(d0, d1, d2, d3) -> (d1, 0, 0)`, or a scalar from outside);
  with `widening`, also one whose body first `extf`s its inputs (torch-mlir's f16 form).
* `match_sum_reduction(op)`: a `linalg.generic` that sums its one input over some
  axes into an init, e.g. torch's `AdaptiveAvgPool2d(1)` before its divide: maps
  `(d0, d1, d2, d3) -> (d0, d1, d2, d3)` and `-> (d0, d1, 0, 0)` (or `-> (d0, d1)`),
  iterators `[parallel, parallel, reduction, reduction]`, body `in + out`.
* `linear_op_view(op)`: for matmul / matvec / vecmat / conv_2d_nchw_fchw /
  depthwise_conv_2d_nchw_chw, which operand
  is the (constant) weight, which the activation, and which weight axis produces which
  output axis, so a per-output-channel scale can move into the weights;
  `weight_slots(op)` gives the same readings without requiring a constant weight.
* `init_operand_index(op)`: where an op that computes `init + f(inputs)` keeps its
  init, so a bias after it can move into the init.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.interp.linalg_generic import eval_affine
from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import (
    BatchMatmulOp,
    Conv2DNchwFchwOp,
    DepthwiseConv2DNchwChwOp,
    GenericOp,
    MatmulOp,
    MatvecOp,
    VecmatOp,
    YieldOp,
)
from heirpy.ir.utils import affine_maps, all_parallel, is_identity, iterator_kinds, static_shape
from heirpy.transforms.linear.constant_folding import ConstantFolder, build_init
from heirpy.transforms.rewrite import constant_insertion_point

_ARITH_KINDS: dict[type[Operation], str] = {
    arith.AddfOp: "add",
    arith.SubfOp: "sub",
    arith.MulfOp: "mul",
    arith.DivfOp: "div",
}


@dataclass(frozen=True)
class ElementwiseAffine:
    """`result = operand <kind> constant` (or `constant <kind> operand` when
    `operand_is_lhs` is False), with `constant` materialised at the result's shape."""

    op: Operation
    kind: str  # add | sub | mul | div
    operand: SSAValue
    operand_is_lhs: bool
    constant: np.ndarray
    result: SSAValue

    def apply(self, x: np.ndarray, constant: np.ndarray) -> np.ndarray:
        """The op on numpy arrays (with `constant` broadcast against `x`)."""
        lhs, rhs = (x, constant) if self.operand_is_lhs else (constant, x)
        return {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}[
            self.kind
        ](lhs, rhs)

    def is_affine(self) -> bool:
        """`K / x` is not affine in x; every other form is."""
        return not (self.kind == "div" and not self.operand_is_lhs)


def gather_through_map(
    array: np.ndarray, indexing: AffineMap, loop_shape: tuple[int, ...]
) -> np.ndarray:
    """The operand `array` read at every point of the loop space through `indexing`."""
    grids = list(np.indices(loop_shape, sparse=True))
    index = tuple(
        np.broadcast_to(eval_affine(expr, grids), loop_shape)
        for expr in indexing.results
    )
    if not index:
        return np.broadcast_to(array, loop_shape).copy()
    return array[index]


def arith_kind(op: Operation) -> str | None:
    """"add", "sub", "mul" or "div" for the arith ops `match_elementwise_affine` reads
    directly (None for any other op, generics included)."""
    return _ARITH_KINDS.get(type(op))


def match_elementwise_affine(op: Operation, reader: ConstantFolder,
                             widening: bool = False) -> ElementwiseAffine | None:
    """See the module docstring. None unless exactly one side is non-constant. With
    `widening`, a generic's body may first `extf` its inputs (torch-mlir's f16 form:
    `%e = arith.extf %in : f16 to f32; %r = arith.subf %e, %c`): the operand is then the
    narrow input and the result wider than it."""
    if type(op) in _ARITH_KINDS:
        return _match_arith(op, reader)
    if isinstance(op, GenericOp):
        return _match_generic(op, reader, widening)
    return None


def _match_arith(op: Operation, reader: ConstantFolder) -> ElementwiseAffine | None:
    shape = static_shape(op.results[0].type)
    if shape is None:
        return None
    lhs, rhs = op.operands
    lhs_value, rhs_value = reader.fold(lhs), reader.fold(rhs)
    if (lhs_value is None) == (rhs_value is None):
        return None  # both ciphertext-like, or plaintext work that is not ours
    operand_is_lhs = rhs_value is not None
    constant = rhs_value if operand_is_lhs else lhs_value
    assert constant is not None
    return ElementwiseAffine(
        op,
        _ARITH_KINDS[type(op)],
        lhs if operand_is_lhs else rhs,
        operand_is_lhs,
        np.broadcast_to(constant, shape).copy(),
        op.results[0],
    )


def _match_generic(op: GenericOp, reader: ConstantFolder, widening: bool = False) -> ElementwiseAffine | None:
    if len(op.outputs) != 1 or len(op.res) != 1 or len(op.inputs) not in (1, 2):
        return None
    shape = static_shape(op.res[0].type)
    if shape is None or not all_parallel(op.iterator_types):
        return None
    maps = affine_maps(op.indexing_maps)
    rank = len(shape)
    if not (is_identity(maps[-1]) and maps[-1].num_dims == rank):
        return None
    body = list(op.body.block.ops)
    args = op.body.block.args
    widened: dict[SSAValue, SSAValue] = {}  # an extf's result -> the input it widens
    while widening and body and isinstance(body[0], arith.ExtFOp) and body[0].input in args[: len(op.inputs)]:
        widened[body[0].result] = body[0].input
        body = body[1:]
    if len(body) != 2 or not isinstance(body[1], YieldOp) or type(body[0]) not in _ARITH_KINDS:
        return None
    binop = body[0]
    if list(body[1].operands) != [binop.results[0]]:
        return None
    if args[len(op.inputs)].uses:
        return None  # the body reads the init: not an elementwise op of the inputs
    lhs = _body_operand(op, widened.get(binop.operands[0], binop.operands[0]), maps, shape, reader)
    rhs = _body_operand(op, widened.get(binop.operands[1], binop.operands[1]), maps, shape, reader)
    if lhs is None or rhs is None:
        return None
    (lhs_operand, lhs_const), (rhs_operand, rhs_const) = lhs, rhs
    if (lhs_operand is None) == (rhs_operand is None):
        return None  # two activations, or two constants
    operand_is_lhs = lhs_operand is not None
    activation = lhs_operand if operand_is_lhs else rhs_operand
    constant = rhs_const if operand_is_lhs else lhs_const
    assert activation is not None and constant is not None
    return ElementwiseAffine(
        op, _ARITH_KINDS[type(binop)], activation, operand_is_lhs, constant, op.res[0]
    )


def _body_operand(
    op: GenericOp,
    value: SSAValue,
    maps: Sequence[AffineMap],
    shape: tuple[int, ...],
    reader: ConstantFolder,
) -> tuple[SSAValue | None, np.ndarray | None] | None:
    """What an operand of the generic's body op reads: (the activation, None) when it is
    an input read whole through an identity map, (None, the constant over the loop
    space) when it is constant; None for anything else."""
    if isinstance(value, BlockArgument) and value.block is op.body.block:
        operand, read = op.inputs[value.index], maps[value.index]
        folded = reader.fold(operand)
        if folded is not None:
            return None, gather_through_map(folded, read, shape)
        if is_identity(read) and read.num_dims == len(shape) and static_shape(operand.type) == shape:
            return operand, None
        return None
    folded = reader.fold(value)  # a scalar captured from outside the body
    if folded is None or folded.ndim != 0:
        return None
    return None, np.broadcast_to(folded, shape).copy()


# ------------------------------------------------------------------------- sum reductions
@dataclass(frozen=True)
class SumReduction:
    """`result = init + sum of operand over reduced_axes`, the kept axes in order (an
    output axis of size 1 read through a constant 0 is a kept axis of size 1 too)."""

    op: Operation
    operand: SSAValue
    init: SSAValue
    reduced_axes: tuple[int, ...]  # axes of the operand that are summed

    @property
    def result(self) -> SSAValue:
        return self.op.results[0]

    def summing(self, source: SSAValue, init: SSAValue, element: Attribute, result_type: TensorType) -> GenericOp:
        """A sum of `source` over this reduction's loops (its maps and iterators), into
        `init`, added in `element`: the same sum of another tensor (a skip's, kept beside
        a fused branch)."""
        assert isinstance(self.op, GenericOp)
        block = Block(arg_types=[element, element])
        added = arith.AddfOp(block.args[0], block.args[1])
        block.add_ops([added, YieldOp(added.result)])
        return GenericOp([source], [init], Region(block), self.op.indexing_maps.data,
                         self.op.iterator_types, [result_type])


def sum_reduction_axes(
    in_map: AffineMap, out_map: AffineMap, kinds: Sequence[str],
    in_shape: Sequence[int], out_shape: Sequence[int],
) -> tuple[int, ...] | None:
    """Pure: the summed axes of a one-input generic whose input map is the identity and
    whose output keeps the parallel loops in order, each either as itself or as a
    constant 0 on a size-1 output axis standing for a reduced loop; None otherwise."""
    rank = in_map.num_dims
    if not is_identity(in_map) or len(in_shape) != rank or len(kinds) != rank:
        return None
    reduced = tuple(d for d in range(rank) if kinds[d] == "reduction")
    if not reduced:
        return None
    kept = [d for d in range(rank) if kinds[d] == "parallel"]
    dims: list[int] = []
    for axis, expr in enumerate(out_map.results):
        if isinstance(expr, AffineDimExpr):
            dims.append(expr.position)
        elif not (isinstance(expr, AffineConstantExpr) and expr.value == 0 and out_shape[axis] == 1):
            return None
    if dims != kept:
        return None
    return reduced


def match_sum_reduction(op: Operation) -> SumReduction | None:
    """See the module docstring: a generic summing its input into its init."""
    if not isinstance(op, GenericOp) or len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.res) != 1:
        return None
    in_shape, out_shape = static_shape(op.inputs[0].type), static_shape(op.res[0].type)
    if in_shape is None or out_shape is None:
        return None
    maps = affine_maps(op.indexing_maps)
    axes = sum_reduction_axes(maps[0], maps[1], iterator_kinds(op.iterator_types), in_shape, out_shape)
    if axes is None:
        return None
    body = list(op.body.block.ops)
    if len(body) != 2:
        return None
    add, yield_ = body
    if not isinstance(add, arith.AddfOp) or not isinstance(yield_, YieldOp):
        return None
    if list(yield_.operands) != [add.result] or set(add.operands) != set(op.body.block.args):
        return None
    return SumReduction(op, op.inputs[0], op.outputs[0], axes)


# ------------------------------------------------------------------------- linear ops
@dataclass(frozen=True)
class LinearOpView:
    """A linear op with a constant weight: `out = init + f(activation, weight)`.

    A scale that varies only along output axis `out_axis` equals scaling the weight
    along `weight_axis`."""

    op: Operation
    activation_index: int
    weight_index: int
    out_axis: int
    weight_axis: int
    weight: np.ndarray

    @property
    def activation(self) -> SSAValue:
        return self.op.operands[self.activation_index]

    @property
    def init(self) -> SSAValue:
        return self.op.operands[2]


# (op class, weight operand, activation operand, output axis, weight axis)
_VIEWS: list[tuple[type[Operation], int, int, int, int]] = [
    (MatmulOp, 1, 0, 1, 1),  # x @ W: column n of W makes column n of the output
    (MatmulOp, 0, 1, 0, 0),  # W @ x: row m of W makes row m of the output
    (MatvecOp, 0, 1, 0, 0),
    (VecmatOp, 1, 0, 0, 1),
    (Conv2DNchwFchwOp, 1, 0, 1, 0),
    (DepthwiseConv2DNchwChwOp, 1, 0, 1, 0),  # K[c, kh, kw] makes output channel c
]
LINEAR_OP_TYPES: tuple[type[Operation], ...] = tuple(dict.fromkeys(cls for cls, *_ in _VIEWS))
"""The named linear ops `linear_op_view` reads (`out = init + f(x, weight)`)."""


def may_be_linear_op(op: Operation) -> bool:
    """Could `linear_op_view(op)` be a view? The op's kind and arity only (no folds)."""
    return len(op.operands) == 3 and len(op.results) == 1 and isinstance(op, LINEAR_OP_TYPES)


@dataclass(frozen=True)
class WeightSlot:
    """One way to read a linear op as `out = init + f(activation, weight)`, with no
    claim that the weight is constant: a scale along output axis `out_axis` equals
    scaling operand `weight_index` along its axis `weight_axis`."""

    op: Operation
    weight_index: int
    activation_index: int
    out_axis: int
    weight_axis: int

    @property
    def weight(self) -> SSAValue:
        return self.op.operands[self.weight_index]

    @property
    def activation(self) -> SSAValue:
        return self.op.operands[self.activation_index]

    @property
    def init(self) -> SSAValue:
        return self.op.operands[2]


def weight_slots(op: Operation) -> list[WeightSlot]:
    """Every reading of a matmul/matvec/vecmat/conv_2d_nchw_fchw/depthwise_conv_2d_nchw_chw
    on static tensors as a weighted linear op, in `_VIEWS` order (a matmul has two: the
    weight on the right, then on the left); empty for any other op."""
    if not may_be_linear_op(op):
        return []
    if any(static_shape(v.type) is None for v in (*op.operands, op.results[0])):
        return []
    return [
        WeightSlot(op, weight_index, activation_index, out_axis, weight_axis)
        for cls, weight_index, activation_index, out_axis, weight_axis in _VIEWS
        if isinstance(op, cls)
    ]


def linear_op_view(op: Operation, reader: ConstantFolder) -> LinearOpView | None:
    """The view of a matmul/matvec/vecmat/conv_2d_nchw_fchw/depthwise_conv_2d_nchw_chw
    on static tensors whose weight operand is a constant; None otherwise (weights that
    are function arguments are `weight_slots`' business)."""
    for slot in weight_slots(op):
        weight = reader.fold_unrounded(slot.weight)  # a fold's narrow weight: rounded once
        if weight is None:
            continue
        if reader.fold(op.operands[slot.activation_index]) is not None:
            return None  # plaintext work: nothing to fold into
        return LinearOpView(
            op, slot.activation_index, slot.weight_index, slot.out_axis, slot.weight_axis, weight
        )
    return None


# ------------------------------------------------------------------------- accumulators
_ACCUMULATING: tuple[type[Operation], ...] = (*LINEAR_OP_TYPES, BatchMatmulOp)


def init_operand_index(op: Operation) -> int | None:
    """The operand index of the init of an op that computes `init + f(inputs)` with `f`
    not reading the init, so that adding `b` to its result equals adding `b` to its init:
    a named matmul / matvec / vecmat / batch_matmul / conv_2d_nchw_fchw /
    depthwise_conv_2d_nchw_chw, or a one-result `linalg.generic` whose body yields
    `out + g(ins)` (`out` read nowhere else); None for any other op."""
    if isinstance(op, _ACCUMULATING):
        return 2 if len(op.operands) == 3 and len(op.results) == 1 else None
    if not isinstance(op, GenericOp) or len(op.outputs) != 1 or len(op.res) != 1:
        return None
    block = op.body.block
    out = block.args[len(op.inputs)]
    last = block.last_op
    if not isinstance(last, YieldOp) or len(last.operands) != 1:
        return None
    total = last.operands[0].owner
    if not isinstance(total, arith.AddfOp) or not out.has_one_use():
        return None
    if out not in (total.lhs, total.rhs) or total.lhs is total.rhs:
        return None
    return len(op.inputs)


def insert_refolded(view: LinearOpView, weight: np.ndarray, init: np.ndarray,
                    rewriter: PatternRewriter) -> tuple[Operation, SSAValue, SSAValue]:
    """A copy of `view`'s op reading the folded `weight` and `init` (float64, rounded
    here to the op's element types), inserted before the op, its weight where constants
    go. Returns the copy, its weight and its init; the caller replaces the old op (and
    may remember the unrounded values for the next fold)."""
    weight_type, init_type = view.op.operands[view.weight_index].type, view.init.type
    assert isinstance(weight_type, TensorType) and isinstance(init_type, TensorType)
    weight_op = dense_constant(weight.astype(element_dtype(weight_type)), weight_type)
    init_ops, init_value = build_init(init.astype(element_dtype(init_type)), init_type)
    new_linear = view.op.clone()
    new_linear.operands[view.weight_index] = weight_op.result
    new_linear.operands[2] = init_value
    rewriter.insert(weight_op, constant_insertion_point(view.op))
    rewriter.insert([*init_ops, new_linear], InsertPoint.before(view.op))
    return new_linear, weight_op.result, init_value
