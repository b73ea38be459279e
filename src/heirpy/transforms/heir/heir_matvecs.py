"""The matvec forms of `legalize-for-heir`: affine arithmetic folded into a matvec, a
reduction's prologue split out, linear generics as matvecs, back-to-back matvecs composed.
Each turns a linear stage HEIR would otherwise run at a level of its own into part of one
`linalg.matvec`."""

from __future__ import annotations

from math import prod

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.dialects.linalg import (
    GenericOp,
    MatvecOp,
)
from heirpy.ir.utils import (
    all_parallel,
    is_identity,
    iterator_attrs,
    loop_sizes,
    static_shape,
)
from heirpy.transforms.heir.generic_forms import (
    accumulation,
    generic_affine_matrix,
    generic_sample_map,
    secret_args,
    sums_elements,
    value_degree,
)
from heirpy.transforms.heir.heir_forms import (
    LegalizePattern,
    NativeFunctions,
    element_of,
    fits,
    flat_type,
    flatten,
    matvec_ops,
    unflatten,
)
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.linear_match import match_elementwise_affine


class FoldAffineIntoMatvec(LegalizePattern[Operation]):
    """A constant scale or shift of a matvec's result moves into its matrix and init.

        %v = linalg.matvec ins(%A, %x) outs(%b)
        %y = %v * %k          (or %v + %k, %v - %k, %v / %k, %k - %v; K constant)
      ->
        %y = linalg.matvec ins(%A', %x) outs(%b')     A' = diag(α)·A, b' = α·b + β

    with y = α·v + β elementwise (α = f(1) - f(0), β = f(0)). Why: HEIR's own
    linalg-fuse-linear-ops scales the matrix but not the accumulator
    (`benchmarks/heir_bugs/matvec_accumulator_scale.mlir`); folding here never hands it
    that form, and saves an op.
    Legality: the op is elementwise affine in the matvec result: one arith op with a
    constant (`match_elementwise_affine`, not K / v), or a 1-D parallel generic with
    identity maps whose body is a degree-1 polynomial of the one non-constant input
    (`value_degree`; torch's `x / 16` keeps its constant inside the body), α and β then
    evaluated at 0 and 1; the matvec has no other user; matrix and init fold to constants.
    """

    # Any op: the scale or shift may be an arith op or a linalg.generic.
    op_types = (Operation,)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        found = self._scale_and_shift(op)
        if found is None:
            return
        operand, scale, shift = found
        matvec = operand.owner
        if not isinstance(matvec, MatvecOp):
            return
        if not operand.has_one_use() or op.results[0].type != operand.type:
            return
        matrix, init = self.reader.fold(matvec.operands[0]), self.reader.init_value(matvec.operands[2])
        if matrix is None or init is None:
            return
        out_type = op.results[0].type
        assert isinstance(out_type, TensorType)
        dtype = element_dtype(out_type)
        init_op = dense_constant((scale * init + shift).astype(dtype), out_type)
        ops = [init_op, *matvec_ops((scale[:, None] * matrix).astype(dtype), matvec.operands[1],
                                    init_op.result, element_of(out_type))]
        rewriter.replace(op, ops, [ops[-1].results[0]])
        rewriter.erase(matvec)

    def _scale_and_shift(self, op: Operation) -> tuple[SSAValue, np.ndarray, np.ndarray] | None:
        """(v, α, β) when `op` computes α·v + β elementwise from one non-constant v."""
        affine = match_elementwise_affine(op, self.reader)
        if affine is not None:
            if not affine.is_affine():
                return None
            constant_shape = affine.constant.shape
            shift = np.asarray(affine.apply(np.zeros(constant_shape), affine.constant), dtype=np.float64)
            scale = np.asarray(affine.apply(np.ones(constant_shape), affine.constant), dtype=np.float64) - shift
            return affine.operand, scale, shift
        if not isinstance(op, GenericOp) or len(op.results) != 1 or not all_parallel(op.iterator_types):
            return None
        shape = static_shape(op.results[0].type)
        maps = [m.data for m in op.indexing_maps]
        if shape is None or len(shape) != 1 or not all(is_identity(m) for m in maps):
            return None
        if op.body.block.args[-1].uses:  # reads the init
            return None
        values: dict[SSAValue, np.ndarray] = {}
        for value in [*op.inputs, *op.outputs]:
            constant = self.reader.init_value(value) if value in op.outputs else self.reader.fold(value)
            if constant is not None:
                values[value] = constant
        secret = {v for v in op.inputs if v not in values}
        if len(secret) != 1:
            return None
        operand = secret.pop()
        if value_degree(op.body.block, secret_args(op, operand)) != 1:
            return None
        apply = generic_sample_map(op, operand, values)
        try:
            shift, at_one = apply(np.stack([np.zeros(shape), np.ones(shape)]))
        except HeirpyError:
            return None
        return operand, at_one - shift, shift


class SplitReductionPrologue(LegalizePattern[GenericOp]):
    """A reduction whose summed term is an activation runs the activation first, over
    the whole loop space, then a plain sum.

        %g = linalg.generic {maps (d0, d1, d2, d3) -> (d0, d1, d2, d3), -> (d0, d1, 0, 0);
                             parallel, parallel, reduction, reduction}
               ins(%x : tensor<1x4x4x4xf32>) outs(%zero : tensor<1x4x1x1xf32>) {
          %t = arith.mulf %a, %a             (x², fused into the global average pool)
          %s = arith.addf %t, %acc
        }
      ->
        %sq = linalg.generic {identity maps, all parallel} ins(%x) outs(%e : tensor<1x4x4x4xf32>) {
          %t = arith.mulf %a, %a
        }
        %g = linalg.generic {the same maps and iterators} ins(%sq) outs(%zero) { %s = arith.addf %in, %acc }

    The sum is then a linear stage (`LinearGenericToMatvec`). Why: heir-opt crashes on
    the fused form (`benchmarks/heir_bugs/mobilenet_gap_segfault.mlir`), and a sum is one
    matvec that composes with the scale and the Linear after it.
    Legality: one output; a reduction loop over more than one element
    (`sums_elements`; size-1 reductions are copies); the body yields `term + acc`
    with `acc` read nowhere else (`accumulation`); the term is not affine in the
    non-constant inputs (an affine term is one linear map as it is); static loop
    ranges; loop space and result fit `slot_count`.
    """

    op_types = (GenericOp,)

    def __init__(self, reader: ConstantFolder, native: NativeFunctions, slot_count: int):
        super().__init__(reader, native)
        self.slot_count = slot_count

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if not sums_elements(op):
            return
        acc = accumulation(op)
        out_shape = static_shape(op.results[0].type)
        if acc is None or out_shape is None:
            return
        secret = [v for v in op.inputs if self.reader.fold(v) is None]
        if not secret:
            return
        variables = {arg for value in set(secret) for arg in secret_args(op, value)}
        if value_degree(op.body.block, variables, of=acc.term) in (0, 1):
            return
        maps = [m.data for m in op.indexing_maps]
        shapes = [static_shape(v.type) for v in op.operands]
        if any(shape is None for shape in shapes):
            return
        ranges = loop_sizes(maps, [s for s in shapes if s is not None])
        if ranges is None or not fits(prod(ranges), prod(out_shape), self.slot_count):
            return
        element = element_of(op.results[0].type)
        full_type = TensorType(element, ranges)
        empty = tensor.EmptyOp([], full_type)
        region = op.body.clone()
        block = region.block
        add = list(block.ops)[list(op.body.block.ops).index(acc.add)]
        assert isinstance(add, arith.AddfOp) and block.last_op is not None
        block.last_op.operands = [add.operands[acc.term_index]]
        block.erase_op(add)
        identity = AffineMapAttr(AffineMap.identity(len(ranges)))
        prologue = GenericOp(
            list(op.inputs), [empty.tensor], region, [*op.indexing_maps.data[:-1], identity],
            iterator_attrs(["parallel"] * len(ranges)), [full_type],
        )
        sum_block = Block(arg_types=[element, element])
        total = arith.AddfOp(sum_block.args[0], sum_block.args[1])
        sum_block.add_ops([total, YieldOp(total.result)])
        summed = GenericOp(
            [prologue.results[0]], list(op.outputs), Region(sum_block), [identity, op.indexing_maps.data[-1]],
            op.iterator_types, [op.results[0].type],
        )
        rewriter.replace(op, [empty, prologue, summed], [summed.results[0]])


class LinearGenericToMatvec(LegalizePattern[GenericOp]):
    """A reducing generic that is affine in its one non-constant input (a contraction
    such as heirpy's fused global average pool + Linear, or a plain sum) is ONE matvec
    with its dense matrix.

        %y = linalg.generic {(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4), -> (d1, d2), -> (d0, d1);
                             parallel, parallel, reduction x3}
               ins(%x, %w : tensor<1x16x8x8xf32>, tensor<10x16xf32>) outs(%b : tensor<1x10xf32>) {
          %p = arith.mulf %a, %k
          %s = arith.addf %acc, %p
        }
      ->
        %xf = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<1x16x8x8xf32> into tensor<1024xf32>
        %v = linalg.matvec ins(%A, %xf : tensor<10x1024xf32>, tensor<1024xf32>) outs(%bias : tensor<10xf32>)
        %y = tensor.expand_shape %v [[0, 1]] output_shape [1, 10]

    The matrix is the op evaluated (heirpy's evaluator) on 0 and on every unit vector.
    Why: HEIR has no kernel for a contraction generic; a matvec is one level.
    Legality: a reduction loop over more than one element (`sums_elements`); exactly
    one input value is not a constant,
    the others and the init fold; the yielded value has degree 1 in that input and
    the accumulator together (`value_degree`: +, -, x constant, / constant); static
    shapes; input and result fit `slot_count` (`fits`).
    """

    op_types = (GenericOp,)

    def __init__(self, reader: ConstantFolder, native: NativeFunctions, slot_count: int):
        super().__init__(reader, native)
        self.slot_count = slot_count

    def rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or len(op.outputs) != 1:
            return
        if not sums_elements(op):
            return
        values: dict[SSAValue, np.ndarray] = {}
        secret = [v for v in op.inputs if v not in values and not self._bind(v, values)]
        if len(set(secret)) != 1:
            return
        x = secret[0]
        init = self.reader.init_value(op.outputs[0])
        in_shape, out_type = static_shape(x.type), op.results[0].type
        out_shape = static_shape(out_type)
        if init is None or in_shape is None or out_shape is None or not isinstance(out_type, TensorType):
            return
        variables = secret_args(op, x) | {op.body.block.args[-1]}
        if value_degree(op.body.block, variables) != 1 or not fits(prod(in_shape), prod(out_shape), self.slot_count):
            return
        values[op.outputs[0]] = init
        found = generic_affine_matrix(op, x, values)
        if found is None:
            return
        matrix, bias = found
        dtype = element_dtype(out_type)
        ops, flat_in = flatten(x)
        bias_op = dense_constant(bias.astype(dtype), flat_type(out_type))
        ops += [bias_op, *matvec_ops(matrix.astype(dtype), flat_in, bias_op.result, element_of(out_type))]
        back, result = unflatten(ops[-1].results[0], out_type)
        rewriter.replace(op, ops + back, [result])

    def _bind(self, value: SSAValue, values: dict[SSAValue, np.ndarray]) -> bool:
        constant = self.reader.fold(value)
        if constant is not None:
            values[value] = constant
        return constant is not None


class ComposeMatvecs(LegalizePattern[MatvecOp]):
    """A matvec of a matvec is one matvec with the product matrix.

        %h = linalg.matvec ins(%A, %x : tensor<4x64xf32>, tensor<64xf32>) outs(%a)
        %y = linalg.matvec ins(%B, %h : tensor<3x4xf32>, tensor<4xf32>) outs(%b)
      ->
        %y = linalg.matvec ins(%BA, %x : tensor<3x64xf32>, tensor<64xf32>) outs(%Ba_plus_b)

    Why: two linear stages with nothing between cost HEIR two levels, one matvec costs
    one (a global average pool split out of its square meets the Linear after it here).
    Legality: the inner matvec has no other user; both matrices and inits fold to
    constants; the product fits `slot_count` (`fits`).
    """

    op_types = (MatvecOp,)

    def __init__(self, reader: ConstantFolder, native: NativeFunctions, slot_count: int):
        super().__init__(reader, native)
        self.slot_count = slot_count

    def rewrite(self, op: MatvecOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.operands[1].owner, MatvecOp):
            return
        inner = op.operands[1].owner
        if not op.operands[1].has_one_use():
            return
        outer_matrix, outer_init = self.reader.fold(op.operands[0]), self.reader.init_value(op.operands[2])
        inner_matrix, inner_init = self.reader.fold(inner.operands[0]), self.reader.init_value(inner.operands[2])
        if outer_matrix is None or outer_init is None or inner_matrix is None or inner_init is None:
            return
        if not fits(inner_matrix.shape[1], outer_matrix.shape[0], self.slot_count):
            return
        outer64, inner64 = outer_matrix.astype(np.float64), inner_matrix.astype(np.float64)
        out_type = op.results[0].type
        assert isinstance(out_type, TensorType)
        dtype = element_dtype(out_type)
        init_op = dense_constant((outer64 @ inner_init.astype(np.float64) + outer_init).astype(dtype), out_type)
        ops = [init_op, *matvec_ops((outer64 @ inner64).astype(dtype), inner.operands[1], init_op.result,
                                    element_of(out_type))]
        rewriter.replace(op, ops, [ops[-1].results[0]])
        rewriter.erase(inner)
