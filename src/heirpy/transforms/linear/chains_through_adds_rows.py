"""Linear chains through a skip add on rows: a Linear reading a residual stream
(`linalg-fuse-linear-chains`' second pattern set, beside `FuseChainThroughAdd`).

A transformer with no normalisation between its blocks (LeViT: batch norms folded into
the Linears) adds each branch's last Linear to the residual stream and the next block's
first Linear reads the sum: `W2(W1(h) + x) = (W2 ∘ W1)(h) + W2(x)`, token by token. The
composed matmul is one level above `h`, and `W2(x)` is in parallel (`x` is an ancestor of
`h`, so no deeper): one level instead of two, as the depth bound counts it.

    %a = linalg.matmul ins(%h, %w1) outs(%c1)             // [R, N1]
    %e = tensor.expand_shape %a [[0, 1], [2]]               // [1, R, N1]
    %s = arith.addf %x, %e                                  // the residual stream
    %f = tensor.collapse_shape %s [[0, 1], [2]]             // [R, N1]
    %r = linalg.matmul ins(%f, %w2) outs(%c2)               // [R, N2]
  ->
    %xf = tensor.collapse_shape %x [[0, 1], [2]]
    %l = linalg.matmul ins(%xf, %w2) outs(%c2 + %c1 @ %w2)  // the skip's matmul
    %r = linalg.matmul ins(%h, %w1 @ %w2) outs(%l)

Legality: both are `linalg.matmul`s with default maps, constant weights and constant
inits, whose inputs are not constants; between the first's result and the add only
reshapes that keep the last (feature) axis and regroup the rows in order (and, in
torch-mlir's f16 form, a `truncf` on the branch: the fused chain drops that rounding, as
the mixed-precision rule does); between the add and the second's input such reshapes and
selections of whole rows (`row_selections`: LeViT's AttentionSubsample q Linear reads
`x.view(B, H, W, C)[:, ::2, ::2]`; `h`, the skip and the first's init are then read
through the same selection); the add is elementwise on one type
(`sum_operands.tensor_add_operands`); the skip is no deeper than `h`
(`no_deeper`: an ancestor of it, the previous branch's matmul, or a sum of such); the
cost rule allows it (one level saved; weights before: the two matrices; after: the
composed one and the kept `W2`, and `W1` again when the sum or the branch has other
users, which then stay). The matmul kept for the skip is never composed again (`kept`,
shared with `FuseChainThroughAdd`).

`FuseMatmulThroughFork` is the same composition without the add: a matmul reading the
rows of a matmul result that other ops read too (LeViT's AttentionSubsample projection,
read by the MLP and by the residual add around it); the first matmul stays for them.
"""

from __future__ import annotations

from math import prod

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import MatmulOp
from heirpy.ir.utils import reassociation_attr, reassociation_groups, static_shape
from heirpy.transforms.linear.chains_through_adds import (
    NESTED_SUMS,
    linear_ops_on_path,
)
from heirpy.transforms.linear.chains_through_tokens import conv_tokens
from heirpy.transforms.linear.constant_folding import ConstantFolder, build_init, init_elements
from heirpy.transforms.linear.fusion_cost import FusionCost, admit_fusion
from heirpy.transforms.linear.matmul_chain_pattern import MatmulChainPattern
from heirpy.transforms.linear.mixed_precision import truncf_source
from heirpy.transforms.linear.row_selections import (
    keeps_rows,
    replay_rows,
    row_selection_path,
    selected_rows,
    selects,
)
from heirpy.transforms.linear.sum_operands import tensor_add_operands
from heirpy.transforms.rewrite import in_generic_body


# ------------------------------------------------------------------ legality helpers
def through_row_reshapes(value: SSAValue, truncf: bool = False) -> SSAValue:
    """`value` traced back through collapse/expand_shapes that keep the last axis (and,
    with `truncf`, f32 -> f16 roundings): the tensor whose rows, in order, `value`'s
    rows are."""
    while True:
        owner = value.owner
        if isinstance(owner, (tensor.CollapseShapeOp, tensor.ExpandShapeOp)):
            source = owner.operands[0]
            ranks = [len(s) for s in (static_shape(source.type), static_shape(value.type)) if s is not None]
            groups = reassociation_groups(owner.properties["reassociation"])
            if len(ranks) != 2 or not keeps_rows(groups, max(ranks)):
                return value
            value = source
            continue
        narrowed = truncf_source(value) if truncf else None
        if narrowed is None:
            return value
        value = narrowed


def _plain_matmul(op: Operation | None) -> MatmulOp | None:
    if not isinstance(op, MatmulOp) or op.has_user_defined_maps() or len(op.results) != 1:
        return None
    return op


def no_deeper(skip: SSAValue, target: SSAValue, reader: ConstantFolder, sums: int = NESTED_SUMS) -> bool:
    """Is `skip` provably no deeper than `target`: an ancestor of it; a plaintext-weight
    matmul (through row reshapes) whose input has a linear op on some path to `target`
    and whose init is constant or no deeper (the previous block's branch, once this
    pattern composed the matmul after it: no longer an ancestor, still shallower); the
    tokens of such a conv with a constant init (LeViT's stem, once its conv composed
    with the first qkv Linear, `FuseMatmulOfConvTokens`); or a
    sum of such values (the residual stream), nested at most `sums` deep."""
    if linear_ops_on_path(skip, target) >= 0:
        return True
    if sums <= 0:
        return False
    owner = skip.owner
    operands = tensor_add_operands(owner) if isinstance(owner, Operation) else None
    if operands is not None:
        return all(no_deeper(v, target, reader, sums - 1) for v in operands)
    tokens = conv_tokens(skip)
    if tokens is not None:  # the tokens of a conv (`chains_through_tokens`): as a matmul
        x, weight, init = tokens[0].operands
        return reader.fold(weight) is not None and reader.init_value(init) is not None \
            and linear_ops_on_path(x, target) >= 1
    matmul = _plain_matmul(through_row_reshapes(skip, truncf=True).owner)  # type: ignore[arg-type]
    if matmul is None or reader.fold(matmul.operands[1]) is None:
        return False
    x, _, init = matmul.operands
    if reader.init_value(init) is None and not no_deeper(init, target, reader, sums - 1):
        return False
    return linear_ops_on_path(x, target) >= 1


def _rows(value: SSAValue) -> tuple[int, int] | None:
    """`value`'s shape as (rows, features): the leading axes multiplied."""
    shape = static_shape(value.type)
    if shape is None or len(shape) < 2:
        return None
    return prod(shape[:-1]), shape[-1]


# ------------------------------------------------------------------ the pattern
class FuseMatmulThroughAdd(MatmulChainPattern):
    """Compose a matmul with the matmul branch of the residual add it reads, keeping a
    matmul of the skip operand beside it (module docstring).

        %s = arith.addf %x, rows(matmul(%h, %w1) outs(%c1)); %r = matmul(rows(%s), %w2) outs(%c2)
      ->
        %l = matmul(rows(%x), %w2) outs(%c2 + %c1 @ %w2); %r = matmul(%h, %w1 @ %w2) outs(%l)
    """

    def rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or op in self.kept or _plain_matmul(op) is None:
            return
        x2, w2, c2 = op.operands
        total, path = row_selection_path(x2)
        add = total.owner
        operands = tensor_add_operands(add) if isinstance(add, Operation) else None
        if operands is None or _rows(total) is None or _rows(x2) is None:
            return
        weight2 = self.reader.fold(w2)
        init2 = self.reader.init_value(c2)
        if weight2 is None or init2 is None or self.reader.fold(x2) is not None:
            return
        for branch_out, skip in (operands, operands[::-1]):
            first = _plain_matmul(through_row_reshapes(branch_out, truncf=True).owner)  # type: ignore[arg-type]
            if first is not None and self._fuse(op, first, (total, path), branch_out, skip, weight2, init2,
                                                rewriter):
                return

    def _fuse(self, op: MatmulOp, first: MatmulOp, read: tuple[SSAValue, list[Operation]], branch_out: SSAValue,
              skip: SSAValue, weight2: np.ndarray, init2: np.ndarray, rewriter: PatternRewriter) -> bool:
        total, path = read
        h, w1, c1 = first.operands
        weight1 = self.reader.fold(w1)
        init1 = self.reader.init_value(c1)
        if weight1 is None or init1 is None or self.reader.fold(h) is not None:
            return False
        if _rows(first.results[0]) != _rows(total) or _rows(skip) != _rows(total):
            return False
        if not no_deeper(skip, h, self.reader):
            return False
        composed = weight1.astype(np.float64) @ weight2.astype(np.float64)
        branch_init = init1.astype(np.float64)
        if selects(path):
            branch_init = selected_rows(path, branch_init)  # the first's init: [rows, N1]
        const = init2.astype(np.float64) + branch_init @ weight2.astype(np.float64)
        shared = not (total.has_one_use() and branch_out.has_one_use() and first.results[0].has_one_use())
        kept_weights = weight1.size if shared else 0
        cost = FusionCost(
            1, weight1.size + weight2.size, kept_weights + composed.size + weight2.size,
            weight1.size + weight2.size, kept_weights + composed.size + weight2.size,
            constants_before=weight1.size + weight2.size + init_elements(init1) + init_elements(init2),
            constants_after=kept_weights + (init_elements(init1) if shared else 0) + composed.size
            + weight2.size + init_elements(const),
        )
        if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
            return False
        self._emit(op, first, skip, path, composed, const, rewriter)
        return True

    def _emit(self, op: MatmulOp, first: MatmulOp, skip: SSAValue, path: list[Operation], composed: np.ndarray,
              const: np.ndarray, rewriter: PatternRewriter) -> None:
        out_type = op.results[0].type
        weight_type = first.operands[1].type
        assert isinstance(out_type, TensorType) and isinstance(weight_type, TensorType)
        ops: list[Operation] = []
        h = first.operands[0]
        if selects(path):
            # The matmul reads a selection of the sum's rows: both terms read the same
            # selection of their own rows (`row_selections`).
            h = replay_rows(path, h, ops)
            skip = replay_rows(path, skip, ops)
        flat = skip
        skip_type = skip.type
        assert isinstance(skip_type, TensorType)
        shape = skip_type.get_shape()
        if len(shape) != 2:
            rank = len(shape)
            collapse = tensor.CollapseShapeOp(
                operands=[skip],
                result_types=[TensorType(skip_type.get_element_type(), [prod(shape[:-1]), shape[-1]])],
                properties={"reassociation": reassociation_attr([list(range(rank - 1)), [rank - 1]])},
            )
            ops.append(collapse)
            flat = collapse.results[0]
        init_ops, init = build_init(const.astype(element_dtype(out_type)), out_type)
        kept = MatmulOp([flat, op.operands[1]], [init], [out_type])
        weight = dense_constant(
            composed.astype(element_dtype(weight_type)),
            TensorType(weight_type.get_element_type(), list(composed.shape)),
        )
        fused = MatmulOp([h, weight.result], [kept.results[0]], [out_type])
        rewriter.insert([*ops, *init_ops, kept, weight, fused], InsertPoint.before(op))
        self.kept.add(kept)
        rewriter.replace(op, [], [fused.results[0]])


class FuseMatmulThroughFork(MatmulChainPattern):
    """Compose a matmul with the matmul whose rows it reads when that result has other
    users too (LeViT's AttentionSubsample: its projection feeds the MLP's first Linear
    AND the residual add around the MLP), keeping the first for them:

        %p = linalg.matmul ins(%h, %w1) outs(%c1)            // [R, N1]
        %e = tensor.expand_shape %p [[0, 1], [2]]              // also read by the add
        %f = tensor.collapse_shape %e [[0, 1], [2]]
        %r = linalg.matmul ins(%f, %w2) outs(%c2)
      ->
        %r = linalg.matmul ins(%h, %w1 @ %w2) outs(%c2 + %c1 @ %w2)

    Legality: both plain matmuls with constant weights and inits and non-constant
    inputs; only row-keeping reshapes (and, in torch-mlir's f16 form, a `truncf`)
    between; some value between them has another user (with one, `FuseLinearChain`
    decides); not a matmul `FuseMatmulThroughAdd` kept for a skip; the cost rule allows
    it (one level saved; weights before: both; after: the composed one, and the first,
    which stays).
    """

    def rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or op in self.kept or _plain_matmul(op) is None:
            return
        x2, w2, c2 = op.operands
        source = through_row_reshapes(x2, truncf=True)
        first = _plain_matmul(source.owner)  # type: ignore[arg-type]
        if first is None or _rows(source) != _rows(x2) or not _forks(x2, source):
            return
        h, w1, c1 = first.operands
        weights = [self.reader.fold(w) for w in (w1, w2)]
        inits = [self.reader.init_value(c) for c in (c1, c2)]
        if any(v is None for v in (*weights, *inits)) or self.reader.fold(h) is not None:
            return
        weight1, weight2 = (w.astype(np.float64) for w in weights if w is not None)
        init1, init2 = (c.astype(np.float64) for c in inits if c is not None)
        composed = weight1 @ weight2
        const = init2 + init1 @ weight2
        cost = FusionCost(
            1, weight1.size + weight2.size, weight1.size + composed.size,
            weight1.size + weight2.size, weight1.size + composed.size,
            constants_before=weight1.size + weight2.size + init_elements(init1) + init_elements(init2),
            constants_after=weight1.size + init_elements(init1) + composed.size + init_elements(const),
        )
        if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
            return
        out_type = op.results[0].type
        weight_type = w1.type
        assert isinstance(out_type, TensorType) and isinstance(weight_type, TensorType)
        init_ops, init = build_init(const.astype(element_dtype(out_type)), out_type)
        weight = dense_constant(
            composed.astype(element_dtype(weight_type)),
            TensorType(weight_type.get_element_type(), list(composed.shape)),
        )
        fused = MatmulOp([h, weight.result], [init], [out_type])
        rewriter.insert([*init_ops, weight, fused], InsertPoint.before(op))
        rewriter.replace(op, [], [fused.results[0]])


def _forks(end: SSAValue, start: SSAValue) -> bool:
    """Does some value from `start` to `end` (a run of one-operand ops; `end` is read by
    the matmul) have more than one user?"""
    value = end
    while True:
        if not value.has_one_use():
            return True
        if value is start:
            return False
        owner = value.owner
        assert isinstance(owner, Operation)
        value = owner.operands[0]
