"""A Linear reading a sum over the rows of a residual add composes with the matmul branch
of the add (`linalg-fuse-linear-chains`' second pattern set, beside
`chains_through_adds_rows`).

A transformer's head averages the tokens of the residual stream and applies a Linear
(LeViT: `x.mean(1)`, then `head` and `head_dist`). With the stream's last term a matmul,
`W2(mean(x + h W1)) = mean(x) W2 + sum_t h_t (W1 W2) / T`: the second term is ONE
contraction of `h` (its weight `W1 W2 / T` read alike for every token, not T copies), one
level above `h`, and the first stays a sum and a matmul of the skip `x`, which is no
deeper (an ancestor of `h`, `chains_through_adds_rows.no_deeper`). Three levels become
one on the path through the branch:

    %a = linalg.matmul ins(%h, %w1) outs(%c1)                    // [R, K] -> [R, F]
    %s = arith.addf %x, rows(%a)                                  // [B, T, F]
    %m = linalg.generic {sum over T} ins(%s) outs(%r0)            // [B, F]
    %d = arith.divf %m, T                                         // any uniform scale
    %r = linalg.matmul ins(%d, %w2) outs(%c2)                     // [B, N]
  ->
    %k = linalg.matmul ins(sum over T of %x (outs %r0), %w2 / T)
           outs(%c2 + sum_T(%c1) @ %w2 / T)                        // kept for the skip
    %r = linalg.generic {out[b, n] += h[b, t, k] * W[k, n]}
           ins(rows(%h), %w1 @ %w2 / T) outs(%k)                   // the contraction

Legality: both matmuls plain (default maps) with constant weights and inits and
non-constant inputs, not a matmul kept for a skip; between the sum and the second only
row reshapes, float casts and steps `a * v + b` with `a` one number and `b` any constant
(`row_affine`: `b` goes into the kept matmul's init); the sum a one-input generic
summing its identity-mapped input into a constant init (`match_sum_reduction`), every
output axis a loop, the last (feature) axis kept last; the add elementwise on one type;
between the first matmul and the add only row reshapes and a `truncf` (its rows those of
the add); no float wider than the second's accumulator (`widens_into`); the skip no
deeper than `h`; the cost rule allows it (one level saved; weights before: both
matrices; after: the composed one and `W2`, and `W1` again when the sum or the branch
has other users).

torch-mlir's f16 form (LeViT's head: an f16 add, sum and divide; a batch norm's mean
subtraction left as `extf; subf` in one generic, a `truncf` / `extf` round trip before
the f32 Linear) composes as the other f16 chain folds do: in f32 (float64 in numpy), the
roundings on the path dropped (the mixed-precision rule), the composed weight rounded
once to the first matmul's weight type, the accumulator the exporter chose kept; the
skip is summed in the type the Linear read (widened by an `extf` generic).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, TensorType
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import GenericOp, MatmulOp
from heirpy.ir.utils import (
    Reassociation,
    affine_maps,
    element_type,
    iterator_attrs,
    iterator_kinds,
    reassociation_attr,
    static_shape,
)
from heirpy.transforms.linear.chains_through_adds_rows import no_deeper, through_row_reshapes
from heirpy.transforms.linear.constant_folding import ConstantFolder, build_init, init_elements
from heirpy.transforms.linear.fusion_cost import FusionCost, admit_fusion
from heirpy.transforms.linear.linear_match import SumReduction, match_elementwise_affine, match_sum_reduction
from heirpy.transforms.linear.matmul_chain_pattern import MatmulChainPattern
from heirpy.transforms.linear.mixed_precision import cast_generic, extf_source, multiply_accumulate_block, truncf_source
from heirpy.transforms.linear.row_selections import row_selection_path, selects
from heirpy.transforms.linear.sum_operands import tensor_add_operands
from heirpy.transforms.rewrite import in_generic_body


# ------------------------------------------------------------------ legality helpers
def sums_rows(in_map: AffineMap, out_map: AffineMap, kinds: list[str]) -> bool:
    """Pure: does a sum reduction (identity input map, `kinds` per loop) keep the input's
    last (feature) loop as its output's last axis, every output axis a loop?"""
    rank = in_map.num_dims
    if rank < 2 or kinds[rank - 1] != "parallel" or not out_map.results:
        return False
    if not all(isinstance(e, AffineDimExpr) for e in out_map.results):
        return False
    last = out_map.results[-1]
    return isinstance(last, AffineDimExpr) and last.position == rank - 1


@dataclass(frozen=True)
class RowAffine:
    """`read = factor * rows(start) + offset`: what a matmul reads, traced back to `start`
    through row reshapes, float casts and elementwise affine steps; `offset` is a
    constant at the read value's shape."""

    start: SSAValue
    factor: float
    offset: np.ndarray


def step_affine(kind: str, operand_is_lhs: bool, constant: np.ndarray) -> tuple[float, np.ndarray] | None:
    """Pure: an elementwise step `v = u <kind> c` (`c <kind> u` unless `operand_is_lhs`)
    as `v = a * u + b`: `a` one number, `b` a constant at the step's shape; None where
    `a` would vary (a per-element scale), be 0, or the step is not affine (`c / u`)."""
    if kind in ("add", "sub"):
        if kind == "add":
            return 1.0, constant.astype(np.float64)
        return (1.0, -constant.astype(np.float64)) if operand_is_lhs else (-1.0, constant.astype(np.float64))
    scale = float(constant.reshape(-1)[0]) if constant.size else 0.0
    if not np.all(constant == scale) or scale == 0.0 or (kind == "div" and not operand_is_lhs):
        return None
    return (scale if kind == "mul" else 1.0 / scale), np.zeros(constant.shape)


def row_affine(value: SSAValue, reader: ConstantFolder) -> RowAffine | None:
    """`value` traced back through row reshapes, float casts (torch-mlir's f16 form: the
    roundings go, the mixed-precision rule) and steps adding a constant or scaling by one
    number (a `linalg.generic` widening its input in its body too); None when a selection
    of rows or an unreadable step is on the way."""
    shape = static_shape(value.type)
    if shape is None:
        return None
    factor, offset = 1.0, np.zeros(shape)
    while True:
        value, path = row_selection_path(value)
        if selects(path):
            return None
        cast = truncf_source(value)
        cast = extf_source(value) if cast is None else cast
        if cast is not None:
            value = cast
            continue
        owner = value.owner
        match = match_elementwise_affine(owner, reader, widening=True) if isinstance(owner, Operation) else None
        step = step_affine(match.kind, match.operand_is_lhs, match.constant) if match is not None else None
        if match is None or step is None:
            return RowAffine(value, factor, offset)
        offset = offset + factor * step[1].reshape(shape)  # rows kept in order: a reshape
        factor *= step[0]
        value = match.operand


def widens_into(target: SSAValue, values: tuple[SSAValue, ...]) -> bool:
    """Are `values` and `target` floats, none wider than `target`'s (torch-mlir's f16 form:
    f16 operands, an f32 accumulator; `target` the type the composed op computes in)?"""
    width = _float_width(element_type(target.type))
    widths = [_float_width(element_type(v.type)) for v in values]
    return width is not None and all(w is not None and w <= width for w in widths)


def _float_width(element: Attribute) -> int | None:
    return element.bitwidth if isinstance(element, AnyFloat) else None


def _one_use_each(end: SSAValue, start: SSAValue) -> bool:
    """Does every value from `start` to `end` (a run of one-operand ops: reshapes and
    roundings) have one user?"""
    value = end
    while value.has_one_use():
        if value is start:
            return True
        owner = value.owner
        assert isinstance(owner, Operation)
        value = owner.operands[0]
    return False


def _rows(value: SSAValue) -> int | None:
    shape = static_shape(value.type)
    return None if shape is None or len(shape) < 2 else prod(shape[:-1])


# ------------------------------------------------------------------ the pattern
class FuseMatmulThroughRowSum(MatmulChainPattern):
    """Compose a matmul reading a (scaled) sum over the rows of a residual add with the
    add's matmul branch, as one contraction of the branch's input; a sum and a matmul of
    the skip are kept beside it (module docstring).

        %r = matmul(s * sum_T(%x + rows(matmul(%h, %w1) outs(%c1))), %w2) outs(%c2)
      ->
        %r = contraction(rows(%h), s * %w1 @ %w2) outs(matmul(sum_T(%x), s * %w2) outs(...))
    """

    def rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or op in self.kept or op.has_user_defined_maps() or len(op.results) != 1:
            return
        x2, w2, c2 = op.operands
        traced = row_affine(x2, self.reader)
        owner = traced.start.owner if traced is not None else None
        reduction = match_sum_reduction(owner) if isinstance(owner, Operation) else None
        if traced is None or reduction is None or not isinstance(reduction.op, GenericOp):
            return
        maps = affine_maps(reduction.op.indexing_maps)
        if not sums_rows(maps[0], maps[1], iterator_kinds(reduction.op.iterator_types)):
            return
        total = reduction.operand
        operands = tensor_add_operands(total.owner) if isinstance(total.owner, Operation) else None
        weight2, init2, init0 = self.reader.fold(w2), self.reader.init_value(c2), self.reader.init_value(reduction.init)
        if operands is None or weight2 is None or init2 is None or init0 is None:
            return
        if _rows(reduction.result) != _rows(x2) or self.reader.fold(x2) is not None:
            return
        for branch_out, skip in (operands, operands[::-1]):
            first = through_row_reshapes(branch_out, truncf=True).owner
            if isinstance(first, MatmulOp) and self._fuse(op, first, reduction, traced, branch_out, skip,
                                                          (weight2, init2, init0), rewriter):
                return

    def _fuse(self, op: MatmulOp, first: MatmulOp, reduction: SumReduction, traced: RowAffine, branch_out: SSAValue,
              skip: SSAValue, constants: tuple[np.ndarray, np.ndarray, np.ndarray], rewriter: PatternRewriter) -> bool:
        if first.has_user_defined_maps() or len(first.results) != 1:
            return False
        h, w1, c1 = first.operands
        weight1, init1 = self.reader.fold(w1), self.reader.init_value(c1)
        total = reduction.operand
        if weight1 is None or init1 is None or self.reader.fold(h) is not None:
            return False
        if _rows(first.results[0]) != _rows(total) or _rows(skip) != _rows(total) or skip.type != total.type:
            return False
        values = (h, w1, first.results[0], total, *op.operands[:2])
        if not widens_into(op.results[0], values) or not widens_into(op.operands[0], (skip,)):
            return False
        if not no_deeper(skip, h, self.reader):
            return False
        scale = traced.factor
        weight2, init2, init0 = (a.astype(np.float64) for a in constants)
        composed = scale * (weight1.astype(np.float64) @ weight2)
        total_shape = static_shape(total.type)
        assert total_shape is not None
        summed_init = init1.astype(np.float64).reshape(total_shape).sum(axis=reduction.reduced_axes)
        features = weight2.shape[0]
        kept_init = init2 + (scale * (init0 + summed_init).reshape(-1, features)
                             + traced.offset.reshape(-1, features)) @ weight2
        shared = not (total.has_one_use() and reduction.result.has_one_use()
                      and _one_use_each(branch_out, first.results[0]))
        kept_weights = weight1.size if shared else 0
        # MACs: the first matmul on every row and the second on the sums, before; the
        # contraction reads every row for every output, after (plus the kept ones).
        rows, summed_rows = prod(total_shape[:-1]), init2.shape[0]
        branch_macs, head_macs = rows * weight1.size, summed_rows * weight2.size
        cost = FusionCost(
            1, weight1.size + weight2.size, kept_weights + composed.size + weight2.size,
            branch_macs + head_macs,
            (branch_macs if shared else 0) + rows * composed.size + head_macs,
            constants_before=weight1.size + weight2.size + init_elements(init1) + init_elements(init2),
            constants_after=kept_weights + (init_elements(init1) if shared else 0) + composed.size
            + weight2.size + init_elements(kept_init),
        )
        if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
            return False
        ops: list[Operation] = []
        kept = self._kept(op, reduction, skip, scale * weight2, kept_init, ops)
        contraction = _contraction(reduction, h, total, (composed, w1), kept, op, ops)
        rewriter.insert(ops, InsertPoint.before(op))
        self.kept.add(kept.owner)  # type: ignore[arg-type]
        rewriter.replace(op, [], [contraction])
        return True

    def _kept(self, op: MatmulOp, reduction: SumReduction, skip: SSAValue, weight: np.ndarray,
              init: np.ndarray, ops: list[Operation]) -> SSAValue:
        """`matmul(rows(sum(skip) outs(0)), weight) outs(init)`: the skip's term, summed in
        the type the matmul read (f32 in torch-mlir's f16 form: the skip is widened)."""
        out_type, weight_type = op.results[0].type, op.operands[1].type
        read = element_type(op.operands[0].type)
        assert isinstance(out_type, TensorType) and isinstance(weight_type, TensorType)
        assert isinstance(reduction.op, GenericOp)
        sum_type = TensorType(read, list(static_shape(reduction.result.type) or ()))
        if element_type(skip.type) != read:
            widen = cast_generic(skip, read, arith.ExtFOp)
            ops += widen
            skip = widen[-1].results[0]
        zero_ops, zero = build_init(np.zeros(sum_type.get_shape(), dtype=element_dtype(sum_type)), sum_type)
        summed = reduction.summing(skip, zero, read, sum_type)
        ops += [*zero_ops, summed]
        rows = summed.results[0]
        shape = list(sum_type.get_shape())
        if len(shape) != 2:
            collapse = tensor.CollapseShapeOp(
                operands=[rows], result_types=[TensorType(sum_type.get_element_type(), [prod(shape[:-1]), shape[-1]])],
                properties={"reassociation": _rows_reassociation(len(shape))},
            )
            ops.append(collapse)
            rows = collapse.results[0]
        constant = dense_constant(weight.astype(element_dtype(weight_type)), weight_type)
        init_ops, init_value = build_init(init.astype(element_dtype(out_type)), out_type)
        matmul = MatmulOp([rows, constant.result], [init_value], [out_type])
        ops += [constant, *init_ops, matmul]
        return matmul.results[0]


def _rows_reassociation(rank: int) -> Reassociation:
    """`[[0, ..., rank - 2], [rank - 1]]`: the rows merged, the features kept."""
    return reassociation_attr([list(range(rank - 1)), [rank - 1]])


def _contraction(reduction: SumReduction, h: SSAValue, total: SSAValue, weight: tuple[np.ndarray, SSAValue],
                 init: SSAValue, op: MatmulOp, ops: list[Operation]) -> SSAValue:
    """`out[..., n] = init + sum over the reduction's loops and k of h[..., k] * W[k, n]`,
    `h`'s rows laid out as the add's (`total`'s), in the matmul's result shape; `W` (the
    array) stored in the element type of `weight`'s value (the first matmul's weight),
    each operand narrower than the accumulator widened in the body (torch-mlir's f16
    form of a matmul: f16 operands, f32 accumulator). An `h` wider than `W` (the first
    matmul read it widened by `WidenLinearOpInput`) is read narrow again, as
    `NarrowUnusedWidening` would have left the first matmul: the rounding the IR had."""
    array, like = weight
    stored = element_type(like.type)
    if (_float_width(element_type(h.type)) or 0) > (_float_width(stored) or 0):
        narrow = extf_source(h)
        if narrow is None or element_type(narrow.type) != stored:
            rounding = cast_generic(h, stored, arith.TruncFOp)
            ops += rounding
            narrow = rounding[-1].results[0]
        h = narrow
    assert isinstance(reduction.op, GenericOp)
    in_map, out_map = affine_maps(reduction.op.indexing_maps)
    kinds = iterator_kinds(reduction.op.iterator_types)
    rank = in_map.num_dims
    total_shape = static_shape(total.type)
    out_type = op.results[0].type
    assert total_shape is not None and isinstance(out_type, TensorType)
    rows = _as_rows_of(h, total_shape)
    ops += rows[1]
    source = rows[0]
    dims = [AffineExpr.dimension(i) for i in range(rank + 1)]
    x_map = AffineMap(rank + 1, 0, (*dims[: rank - 1], dims[rank]))
    w_map = AffineMap(rank + 1, 0, (dims[rank], dims[rank - 1]))
    o_map = AffineMap(rank + 1, 0, tuple(dims[e.position] for e in out_map.results if isinstance(e, AffineDimExpr)))
    features = array.shape[1]
    sum_shape = static_shape(reduction.result.type)
    assert sum_shape is not None
    element = out_type.get_element_type()
    result_type = TensorType(element, [*sum_shape[:-1], features])
    acc = init
    if list(result_type.get_shape()) != list(out_type.get_shape()):
        expand = tensor.ExpandShapeOp(init, [], _rows_reassociation(len(sum_shape)),
                                      list(result_type.get_shape()), result_type)
        ops.append(expand)
        acc = expand.results[0]
    weight_type = TensorType(stored, list(array.shape))
    constant = dense_constant(array.astype(element_dtype(weight_type)), weight_type)
    block = multiply_accumulate_block(element_type(source.type), weight_type.get_element_type(), element)
    generic = GenericOp([source, constant.result], [acc], Region(block),
                        [AffineMapAttr(m) for m in (x_map, w_map, o_map)],
                        iterator_attrs([*kinds, "reduction"]), [result_type])
    ops += [constant, generic]
    result = generic.results[0]
    if result_type != out_type:
        collapse = tensor.CollapseShapeOp(operands=[result], result_types=[out_type],
                                          properties={"reassociation": _rows_reassociation(len(sum_shape))})
        ops.append(collapse)
        result = collapse.results[0]
    return result


def _as_rows_of(h: SSAValue, total_shape: tuple[int, ...]) -> tuple[SSAValue, list[Operation]]:
    """`h` ([R, K]) reshaped to the add's leading axes: `[*total_shape[:-1], K]`."""
    ops: list[Operation] = []
    h_type = h.type
    assert isinstance(h_type, TensorType)
    if list(h_type.get_shape()[:-1]) == list(total_shape[:-1]):
        return h, ops
    features = h_type.get_shape()[-1]
    out_type = TensorType(h_type.get_element_type(), [*total_shape[:-1], features])
    rank = len(total_shape)
    if len(h_type.get_shape()) != 2:
        return h, ops  # only the 2-D rows of a matmul's input reach here
    expand = tensor.ExpandShapeOp(h, [], _rows_reassociation(rank),
                                  [*total_shape[:-1], features], out_type)
    ops.append(expand)
    return expand.results[0], ops

