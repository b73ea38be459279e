"""A sum over the positions of a residual add composes with the add's per-position branch
(`linalg-fuse-linear-chains`' second pattern set, beside `chains_through_adds`).

ConvNeXt's last block ends `x + fc2(g)` (its layer scale folded into fc2) with no
activation after the add, and the head's global average pool sums the add over H and W.
A 1x1 stride-1 conv maps every position alike, so the sum of its output over the
positions is one contraction of its input over channels AND positions, whose weight is
the conv's own (read alike at every position, not H*W copies):

    sum_{h,w} (W g[:, h, w] + b + x[:, h, w])  =  sum_{c,h,w} W[:, c] g[c, h, w] + H*W*b + sum_{h,w} x

so the pool is one level above `g` instead of two (the depth bound's count), and the
sum of the skip `x` (no deeper than `g`: its ancestor) is kept beside it and added to
the contraction (whose init stays a constant: legalize-for-heir writes such a
contraction as one plaintext matrix). A sum that also takes the channel (LayerNorm's mean of the pooled
value once `sums_of_sums.FuseSumOfSum` made it one sum of the add) gets the conv's
weight summed over its output channels, one output.

    %a = linalg.conv_2d_nchw_fchw ins(%g, %w : 1x1280x2x2, 320x1280x1x1) outs(%b)
    %s = arith.addf %a, %x : tensor<1x320x2x2xf32>
    %p = linalg.generic {sum over d2, d3} ins(%s) outs(%z : tensor<1x320x1x1xf32>)
  ->
    %k = linalg.generic {sum over d2, d3} ins(%x) outs(%z + H*W*b)      // kept for the skip
    %r = linalg.generic {(b, o, c, p): out[b, o] += g[b, c, p] * w[o, c]}
           ins(collapse(%g) : 1x1280x4, %w : 320x1280) outs(%zero : 1x320)
    %p = arith.addf (tensor.expand_shape %r : 1x320 into 1x320x1x1), %k

Legality: the sum a one-input generic summing into a constant init
(`match_sum_reduction`) over the NCHW operand's H and W (and maybe its channel), never the
batch; its operand an add of two tensors of its type (`tensor_add_operands`), or in
torch-mlir's f16 form the `truncf` of one (the add computed in f32, the sum in f16: the
whole run is then computed in f32 and rounded once, at its end, the mixed-precision
rule); one side a branch of linear steps (`chains.branch_ending_at`), each mapping every
position alike (`chains.per_position`: 1x1 stride-1 convs, per-channel scales); the other
side no deeper than the branch's input (`FuseChainThroughAdd.no_deeper`); the cost rule
allows it (one level saved; weights before: the branch's; after: the contraction's, plus
the branch's again when the add or the branch has other users, which keep it).

Under IREE's bound (`max-mac-growth=1`, iree-prepare) the cost rule's pool rule refuses
it (`FusionCost.sum_adds_before`: absorbing a sum must cut the multiplies): the
contraction runs the conv's MACs (every input element for every output), so it saves that back end no work
and trades the conv it tiles well for a contraction generic, while the level it saves
is CKKS's alone (IREE's output on ConvNeXt stays as it was).

The contraction has two reduction loops (channels, then the positions flattened):
IREE's CUDA back end fails on three in one dispatch (`chains.emit_contraction_generic`).
"""

from __future__ import annotations

from math import prod

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.ir.utils import element_type, iterator_attrs, reassociation_attr, static_shape
from heirpy.transforms.linear.chain_steps import BATCHED, Step, step_of
from heirpy.transforms.linear.chains import Chain, branch_ending_at, channel_map, per_position, storage_element
from heirpy.transforms.linear.chains_through_adds import FuseChainThroughAdd
from heirpy.transforms.linear.constant_folding import ConstantFolder, build_init, init_elements
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost, admit_fusion
from heirpy.transforms.linear.linear_match import SumReduction, match_sum_reduction
from heirpy.transforms.linear.mixed_precision import cast_generic, multiply_accumulate_block, truncf_source
from heirpy.transforms.linear.sum_operands import tensor_add_operands
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, in_generic_body


def sums_positions(axes: tuple[int, ...], rank: int) -> bool:
    """Pure: does a sum over `axes` of an NCHW tensor take every position (H and W) and
    never the batch (the channel it may take too)?"""
    return rank == 4 and {2, 3} <= set(axes) and 0 not in axes


def _read_by_position_sums(total: SSAValue) -> bool:
    """Is `total` read only by sums over its positions (directly or through a `truncf`)?
    Each of them composes with the branch the same way (ConvNeXt's pool and the
    LayerNorm mean `FuseSumOfSum` made a sum of the add), so the branch is not kept for
    them: pricing it as kept would count weights that go once the last one is fused."""
    for use in total.uses:
        reader = use.operation
        rounded = reader.results[0] if len(reader.results) == 1 and truncf_source(reader.results[0]) is total else None
        readers = [u.operation for u in rounded.uses] if rounded is not None else [reader]
        for op in readers:
            reduction = match_sum_reduction(op)
            shape = None if reduction is None else static_shape(reduction.operand.type)
            if reduction is None or shape is None or not sums_positions(reduction.reduced_axes, len(shape)):
                return False
    return True


class FuseSumThroughAdd(OpPattern[GenericOp], OutsideGenericBodies):
    """Compose a sum over the positions of `branch + skip` with the per-position branch
    as one contraction of the branch's input, the sum of the skip kept beside it and
    added (module docstring).

        %p = sum_{h,w}(conv1x1(%g, %w) + %x)
      ->
        %p = expand(contraction(collapse(%g), %w) outs(0)) + sum_{h,w}(%x)
    """

    op_types = (GenericOp,)

    def __init__(self, reader: ConstantFolder, rule: CostRule, pass_name: str, through_add: FuseChainThroughAdd):
        self.reader = reader
        self.rule = rule
        self.pass_name = pass_name
        self.through_add = through_add
        """Its `no_deeper`: the skip's depth against the branch's input."""
        self.kept: set[Operation] = set()
        """The sums of a skip this pattern made: a skip is no branch (never composed again)."""

    def _step(self, op: Operation) -> Step | None:
        return step_of(op, self.reader)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or op in self.kept:
            return
        reduction = match_sum_reduction(op)
        in_shape = None if reduction is None else static_shape(reduction.operand.type)
        if reduction is None or in_shape is None or not sums_positions(reduction.reduced_axes, len(in_shape)):
            return
        init = self.reader.init_value(reduction.init)
        if init is None or len(static_shape(reduction.result.type) or ()) < 2:
            return
        total = truncf_source(reduction.operand) or reduction.operand
        operands = tensor_add_operands(total.owner) if isinstance(total.owner, Operation) else None
        if operands is None:
            return
        for branch_out, skip in (operands, operands[::-1]):
            if self._fuse(reduction, init, total, branch_out, skip, rewriter):
                return

    def _fuse(self, reduction: SumReduction, init: np.ndarray, total: SSAValue, branch_out: SSAValue,
              skip: SSAValue, rewriter: PatternRewriter) -> bool:
        owner = branch_out.owner
        step = self._step(owner) if isinstance(owner, Operation) else None
        branch = None if step is None else branch_ending_at(step, self._step)
        if branch is None or branch.mode != BATCHED or branch.output is not branch_out:
            return False
        in_sample = static_shape(branch.input.type)
        if in_sample is None or len(in_sample) != 4 or not all(per_position(s) for s in branch.steps):
            return False
        if isinstance(skip.owner, Operation) and skip.owner in self.kept:
            return False
        if not self.through_add.no_deeper(skip, branch.input):
            return False
        weight = channel_map(branch, in_sample[1:])  # [C_out, C_in]
        bias = branch.apply(np.zeros((1, *in_sample[1:]), dtype=np.float64))[0]  # [C_out, H, W]
        sums_channels = 1 in reduction.reduced_axes
        if sums_channels:
            weight = weight.sum(axis=0, keepdims=True)
        positions = prod(in_sample[2:])
        shared = not (_read_by_position_sums(total) and branch_out.has_one_use()
                      and (reduction.operand is total or reduction.operand.has_one_use()))
        weights_before, macs_before = branch.cost_before()
        summed_macs = prod(static_shape(total.type)[1:])  # type: ignore[index]
        cost = FusionCost(
            branch.levels(), weights_before, (weights_before if shared else 0) + weight.size,
            macs_before + summed_macs,
            (macs_before if shared else 0) + weight.size * positions + summed_macs,
            constants_before=branch.constants_before() + init_elements(init),
            constants_after=(branch.constants_before() if shared else 0) + weight.size + init_elements(init),
            sum_adds_before=summed_macs,  # under IREE's bound, no multiplies saved: refused
        )
        if not admit_fusion(self.rule, cost, self.pass_name, reduction.op, reduction.result):
            return False
        summed_bias = bias.sum(axis=tuple(a - 1 for a in reduction.reduced_axes), keepdims=True)
        ops: list[Operation] = []
        kept = self._kept_sum(reduction, skip, init + summed_bias.reshape(init.shape[1:]), ops)
        result = _contraction(branch, weight, kept, reduction, ops)
        rewriter.insert(ops, InsertPoint.before(reduction.op))
        rewriter.replace(reduction.op, [], [result])
        return True

    def _kept_sum(self, reduction: SumReduction, skip: SSAValue, init: np.ndarray,
                  ops: list[Operation]) -> SSAValue:
        """The original sum over the skip, in the skip's (accumulating) type, into `init`."""
        assert isinstance(reduction.op, GenericOp)
        element = element_type(skip.type)
        result_shape = static_shape(reduction.result.type)
        assert result_shape is not None
        sum_type = TensorType(element, list(result_shape))
        init_ops, init_value = build_init(init.astype(element_dtype(sum_type)), sum_type)
        summed = reduction.summing(skip, init_value, element, sum_type)
        ops += [*init_ops, summed]
        self.kept.add(summed)
        return summed.results[0]


def _contraction(branch: Chain, weight: np.ndarray, kept: SSAValue, reduction: SumReduction,
                 ops: list[Operation]) -> SSAValue:
    """`out[b, o] = sum_{c, p} g[b, c, p] * weight[o, c] + kept[b, o]`, `g` the branch's
    input with its positions flattened, in the reduction's result shape, rounded to its
    element type when narrower than the accumulator (torch-mlir's f16 form)."""
    source = branch.input
    in_type, kept_type, out_type = source.type, kept.type, reduction.result.type
    assert isinstance(in_type, TensorType) and isinstance(kept_type, TensorType)
    assert isinstance(out_type, TensorType)
    batch, channels, height, width = in_type.get_shape()
    flat = TensorType(in_type.get_element_type(), [batch, channels, height * width])
    collapse = tensor.CollapseShapeOp(operands=[source], result_types=[flat],
                                      properties={"reassociation": reassociation_attr([[0], [1], [2, 3]])})
    acc_element = kept_type.get_element_type()
    rows = TensorType(acc_element, [batch, weight.shape[0]])
    ops.append(collapse)
    shape = list(kept_type.get_shape())
    outer = reassociation_attr([[0], list(range(1, len(shape)))])
    # A constant init, the skip's sum added after: legalize-for-heir writes a contraction
    # into a constant as one plaintext matrix (`generic_forms.contraction_matrix`).
    zero_ops, acc = build_init(np.zeros(rows.get_shape(), dtype=element_dtype(rows)), rows)
    ops += zero_ops
    # The weight in the type the branch reads (f16 in torch-mlir's half form), rounded once.
    weight_element = storage_element(branch)
    weight_type = TensorType(weight_element, list(weight.shape))
    constant = dense_constant(weight.astype(element_dtype(weight_type)), weight_type)
    dims = [AffineExpr.dimension(i) for i in range(4)]  # b, o, c, p
    maps = (AffineMap(4, 0, (dims[0], dims[2], dims[3])), AffineMap(4, 0, (dims[1], dims[2])),
            AffineMap(4, 0, (dims[0], dims[1])))
    block = multiply_accumulate_block(flat.get_element_type(), weight_element, acc_element)
    generic = GenericOp([collapse.results[0], constant.result], [acc], Region(block),
                        [AffineMapAttr(m) for m in maps],
                        iterator_attrs(["parallel", "parallel", "reduction", "reduction"]), [rows])
    ops += [constant, generic]
    result = generic.results[0]
    if shape != list(rows.get_shape()):
        expand = tensor.ExpandShapeOp(result, [], outer, shape, kept_type)
        ops.append(expand)
        result = expand.results[0]
    added = arith.AddfOp(result, kept)
    ops.append(added)
    result = added.result
    if acc_element != out_type.get_element_type():
        rounding = cast_generic(result, out_type.get_element_type(), arith.TruncFOp)
        ops += rounding
        result = rounding[-1].results[0]
    return result
