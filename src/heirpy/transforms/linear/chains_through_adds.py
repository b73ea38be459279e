"""Linear chains through a skip connection: a conv after the add that joins a branch of
linear ops to a shallower value (`linalg-fuse-linear-chains`' second pattern set).

MobileNetV2's inverted residual ends `project(h) + x` with no activation after the add,
and the next block's 1x1 `expand` conv reads the sum. The sum is a linear map of `h` plus
`x`, so `expand(project(h) + x) = (expand ∘ project)(h) + expand(x)`: the composed conv is
one level above `h`, and `expand(x)` (`x` no deeper than `h`, since `h` is computed from
it) is in parallel, so the chain costs one level instead of two, which is what the depth
bound (`heirpy.analysis.depth.depth_bound`) counts for it. The simplest case is
`conv2(conv1(x) + x) = (conv2 ∘ conv1)(x) + conv2(x)`, i.e. conv2 ∘ (conv1 + I).

    %a = conv(%h, %w1) outs(%c1)          // the branch (a chain of linear ops)
    %s = arith.addf %a, %x                // %x: the branch's input or an ancestor of it
    %r = conv(%s, %w2) outs(%c2)
  ->
    %l = conv(%x, %w2) outs(%c2 + w2 ∘ c1)   // the conv of the skip, the branch's
    %r = conv(%h, %w2 ∘ %w1) outs(%l)        // constants pushed into its init

The skip may carry a constant scalar scale, `conv2(conv1(h) + x / 6)` (f32 MobileNetV3,
where a forward fold moved hardswish's `/ 6` into the residual add): the kept conv
then reads `x` with `w2 / 6` (`scaled_add_operands`); the branch is read unscaled.

Legality: the add's two operands have the conv input's type (no broadcast); the branch
is a chain of linear ops (`chain_steps.step_of`) with at least one costly op; the skip
operand is the branch's input or one of its ancestors (found within `ANCESTOR_SEARCH`
producers), so it is no deeper and the level is saved; branch and conv compose into one
conv (`Chain.as_conv`); the cost rule (`fusion_cost.CostRule`) allows it, with levels
saved = the branch's levels, weights before = the branch's and the conv's, after = the
composed filter plus the conv kept for the skip. A nonlinearity anywhere between ends
the branch (it is no step).

A sum or branch output with other users (MobileNetV2's block output feeds the next
block's expand conv AND its skip add) stays for them: the composed conv and the kept
conv are added beside it, and the cost rule counts the branch's weights on both sides
(before: branch + conv; after: branch + composed + kept). That costs ciphertext work
(the branch is still computed) but saves the level on the path through the conv, which
is what the bound counts. The conv kept for the skip is never composed again: its
result is the fused conv's init, never deeper than the composed product, so composing
it would add weights and save no level of the result.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.analysis.depth import LINEAR_OP_PREFIXES, LINEAR_OPS
from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
from heirpy.ir.utils import i64_vector
from heirpy.transforms.linear.chain_steps import BATCHED, Step, step_of
from heirpy.transforms.linear.chains import Chain, PaddedConv, branch_ending_at, zero_pad_ops
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    build_init,
    erase_dead_constant_slices,
    init_elements,
)
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost, admit_fusion
from heirpy.transforms.linear.linear_maps import AffineConv
from heirpy.transforms.linear.mixed_precision import truncf_source
from heirpy.transforms.linear.sum_operands import rounding_source, scaled_add_operands
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, in_generic_body

ANCESTOR_SEARCH = 4096
"""Producers visited looking for the skip operand among the branch input's ancestors."""
NESTED_SUMS = 4
"""How deep `no_deeper` looks into a skip that is a sum of sums."""


def linear_ops_on_path(source: SSAValue, target: SSAValue, limit: int = ANCESTOR_SEARCH) -> int:
    """The most linear ops (`chain_steps.step_of` costly ops: conv, pool, matmul ...) on
    any path of producers from `source` to `target`; -1 when `target` is not computed
    from `source` within `limit` values. Each such op costs a level in the IR as it is,
    so `target` is at least that many levels deeper than `source`."""
    best: dict[SSAValue, int] = {source: 0}
    pending: list[tuple[SSAValue, bool]] = [(target, False)]
    while pending:
        value, expanded = pending.pop()
        if value in best and not expanded:
            continue
        owner = value.owner
        if not isinstance(owner, Operation) or not owner.operands:
            best[value] = -1
            continue
        if not expanded:
            if len(best) > limit:
                return -1
            pending.append((value, True))
            pending.extend((v, False) for v in owner.operands if v not in best)
            continue
        reach = max(best.get(v, -1) for v in owner.operands)
        best[value] = reach + (1 if reach >= 0 and _is_linear(owner.name) else 0)
    return best.get(target, -1)


def _is_linear(name: str) -> bool:
    return name in LINEAR_OPS or name.startswith(LINEAR_OP_PREFIXES)


def _without_const(step: Step) -> Step | None:
    """The conv `step` with a zero init: what it adds to the branch (its init goes to
    the conv kept for the skip)."""
    conv = step.conv
    if conv is None:
        return None
    zero = AffineConv(conv.weight, conv.strides, conv.dilations, np.zeros_like(conv.const))
    return Step(step.op, step.activation, True, BATCHED, zero.apply, conv=zero,
                weights=step.weights, macs=step.macs)


class FuseChainThroughAdd(OpPattern[Conv2DNchwFchwOp], OutsideGenericBodies):
    """Compose a conv with the linear branch of the add it reads, keeping a conv of the
    skip operand beside it (module docstring).

        %a = conv(%x, %w1) outs(%c1); %s = arith.addf %a, %x; %r = conv(%s, %w2) outs(%c2)
      ->
        %l = conv(%x, %w2) outs(%c2 + w2∘c1); %r = conv(pad(%x), %w2∘%w1) outs(%l)
    """

    op_types = (Conv2DNchwFchwOp,)

    def __init__(self, reader: ConstantFolder, rule: CostRule, pass_name: str):
        self.reader = reader
        self.rule = rule
        self.pass_name = pass_name
        self.kept: set[Operation] = set()
        """The convs of a skip this pattern made: never composed again (module docstring)."""

    def _step(self, op: Operation) -> Step | None:
        return step_of(op, self.reader)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or op in self.kept:
            return
        assert isinstance(op, Conv2DNchwFchwOp)
        add = op.inputs[0].owner
        if not isinstance(add, Operation):
            return
        operands = scaled_add_operands(add)
        if operands is None:
            return
        last = self._step(op)
        if last is None or last.activation is not op.inputs[0]:
            return
        for (branch_out, branch_scale), (skip, skip_scale) in (operands, operands[::-1]):
            # The branch is read as it is; a scale on the skip goes into its kept conv.
            if branch_scale != 1.0:
                continue
            source, peeled = self._peel_scale(skip)
            if self._fuse(op, last, add, branch_out, source, skip_scale * peeled, rewriter):
                if source is not skip and isinstance(skip.owner, Operation) and not skip.uses:
                    rewriter.erase(skip.owner)  # the scale the kept conv took in
                return

    def _peel_scale(self, skip: SSAValue) -> tuple[SSAValue, float]:
        """`(x, s)` when `skip` is `x * s` or `x / (1/s)` on tensors, `s` a splat constant
        (the forward fold's form of hardswish's `/ 6` before the add), else `(skip, 1)`."""
        owner = skip.owner
        if not isinstance(owner, arith.MulfOp | arith.DivfOp) or not isinstance(skip.type, TensorType):
            return skip, 1.0
        pairs = [(owner.lhs, owner.rhs)] + ([(owner.rhs, owner.lhs)] if isinstance(owner, arith.MulfOp) else [])
        for value, other in pairs:
            if value.type != skip.type:
                continue
            array = self.reader.fold(other)
            if array is None or array.size == 0 or not np.all(array == array.flat[0]):
                continue
            number = float(array.flat[0])
            if isinstance(owner, arith.DivfOp):
                number = 1.0 / number if number != 0.0 else float("nan")
            if np.isfinite(number) and number != 0.0:
                return value, number
        return skip, 1.0

    def no_deeper(self, skip: SSAValue, target: SSAValue, sums: int = NESTED_SUMS, below: int = 0) -> bool:
        """Is `skip` provably no deeper than `target` (at least `below` levels shallower):
        an ancestor of it (with `below` linear ops between); the output of a linear branch
        of k levels whose input (before the branch's leading pads) has at least k linear
        ops on some path to `target` (the skip of MobileNetV3's block after one whose
        `project` conv `FuseChainThroughFork` composed with the next `expand`: no longer an
        ancestor of the branch, still shallower), that input itself the output of such a
        branch, its levels added, at most `NESTED_SUMS` deep (GhostNet's cheap conv reads
        its primary conv), or a sum or concat of values each k levels below `target` (the
        shortcut of GhostNet's stride block reads the previous block's output, `concat(p,
        dw(p)) + skip`, whose parts the fusions made read that block's middle tensor:
        the block's output is no longer an ancestor of `target`); a slice or a reshape of such a value;
        or a sum or a channel concat of such values (a skip that is itself the previous
        block's `project + skip`, a ghost module's output), nested at most `sums` deep."""
        if linear_ops_on_path(skip, target) >= below:
            return True
        owner = skip.owner
        if not isinstance(owner, Operation) or sums <= 0:
            return False
        joined = self._joined(skip)
        if joined is not None:
            return all(self.no_deeper(v, target, sums - 1, below) for v in joined)
        wider = rounding_source(skip)
        if wider is not None:
            return self.no_deeper(wider, target, sums, below)  # a cast, no nesting
        if isinstance(owner, tensor.ExtractSliceOp):  # costs no level (YOLO11's C2PSA halves)
            return self.no_deeper(owner.source, target, sums, below)
        if isinstance(owner, (tensor.ExpandShapeOp, tensor.CollapseShapeOp)):
            # A reshape costs no level either: GhostNet's shortcut once the fusions wrote
            # the previous block's output as the `expand_shape` of a matrix (policy=depth).
            return self.no_deeper(owner.src, target, sums, below)
        levels, value = below, skip
        for _ in range(NESTED_SUMS):
            value = rounding_source(value) or value
            producer = value.owner
            step = self._step(producer) if isinstance(producer, Operation) else None
            branch = None if step is None else branch_ending_at(step, self._step)
            if branch is None or branch.output is not value:
                inputs = self._joined(value) if levels > below else None
                return inputs is not None and all(self.no_deeper(v, target, sums - 1, levels) for v in inputs)
            levels += branch.levels()
            value = branch.with_prefix().input
            if linear_ops_on_path(value, target) >= levels:
                return True
        return False

    @staticmethod
    def _joined(value: SSAValue) -> list[SSAValue] | None:
        """The operands of the sum or channel concat that computes `value` (each is at
        most as deep as it), else None."""
        owner = value.owner
        if not isinstance(owner, Operation):
            return None
        operands = scaled_add_operands(owner)
        if operands is not None:
            return [v for v, _ in operands]
        if isinstance(owner, tensor.ConcatOp):
            return list(owner.inputs)
        return None

    def _candidates(self, branch_out: SSAValue) -> Iterator[Chain]:
        owner = branch_out.owner
        if not isinstance(owner, Operation):
            return
        step = self._step(owner)
        if step is None:
            return
        branch = branch_ending_at(step, self._step)
        if branch is not None:
            yield branch

    def _fuse(self, op: Conv2DNchwFchwOp, last: Step, add: Operation, branch_out: SSAValue,
              skip: SSAValue, skip_scale: float, rewriter: PatternRewriter) -> bool:
        tail = _without_const(last)
        if tail is None:
            return False
        # torch-mlir's half form rounds the branch's f32 accumulator to f16 before the add
        # (`truncf`): the branch ends at the wide value, the rounding goes with the add
        # (the mixed-precision rule: a linear run is rounded once, where it ends).
        wide = truncf_source(branch_out)
        rounding = branch_out.owner if wide is not None and isinstance(branch_out.owner, Operation) else None
        for branch in self._candidates(branch_out if wide is None else wide):
            if branch.mode != BATCHED or branch.output is not (branch_out if wide is None else wide):
                continue
            if not self.no_deeper(skip, branch.input):
                continue
            chain = Chain([*branch.steps, tail], BATCHED)
            padded = chain.as_conv()
            if padded is None:
                continue
            shared = not (op.inputs[0].has_one_use() and branch_out.has_one_use()
                          and (wide is None or wide.has_one_use()))
            weights_before, macs_before = branch.cost_before()
            # A shared sum or branch stays for its other users: its weights are there
            # before and after, beside the composed conv.
            kept_weights, kept_macs, kept_constants = (
                (weights_before, macs_before, branch.constants_before()) if shared else (0, 0, 0))
            cost = FusionCost(
                branch.levels(), weights_before + last.weights,
                kept_weights + padded.conv.weight.size + last.weights, macs_before + last.macs,
                kept_macs + padded.conv.macs() + last.macs,
                constants_before=branch.constants_before() + last.weights + last.init_size,
                constants_after=kept_constants + padded.conv.weight.size + last.weights
                + init_elements(padded.conv.const + last.conv.const if last.conv is not None else padded.conv.const),
            )
            if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
                continue
            self._emit(op, last, add, branch, skip, skip_scale, padded, shared, rewriter, rounding)
            return True
        return False

    def _emit(self, op: Conv2DNchwFchwOp, last: Step, add: Operation, branch: Chain, skip: SSAValue,
              skip_scale: float, padded: PaddedConv, shared: bool, rewriter: PatternRewriter,
              rounding: Operation | None = None) -> None:
        out_type = op.results[0].type
        assert isinstance(out_type, TensorType) and last.conv is not None
        dtype = element_dtype(out_type)
        batch = out_type.get_shape()[0]
        const = last.conv.const + padded.conv.const  # the conv's init and the branch's, pushed through
        init_ops, init = build_init(np.broadcast_to(const, (batch, *const.shape)).astype(dtype), out_type)
        kept_weight: list[Operation] = []
        if skip_scale != 1.0:  # conv(s * x, w) = conv(x, s * w)
            filter_type = op.inputs[1].type  # f16 models: f16 filters, an f32 init
            assert isinstance(filter_type, TensorType)
            scaled = (last.conv.weight * skip_scale).astype(element_dtype(filter_type))
            kept_weight.append(dense_constant(scaled, filter_type))
        skip_filter = kept_weight[0].results[0] if kept_weight else op.inputs[1]
        kept = Conv2DNchwFchwOp([skip, skip_filter], [init], [out_type],
                                strides=i64_vector(op.window_strides()), dilations=i64_vector(op.window_dilations()))
        pad_ops = zero_pad_ops(branch.input, padded.pad)
        source = pad_ops[-1].results[0] if pad_ops else branch.input
        conv = padded.conv
        # The composed filter in the conv's filter type: f16 where the conv reads f16 and
        # accumulates in f32 (torch-mlir's half form), rounded once.
        filter_type = op.inputs[1].type
        assert isinstance(filter_type, TensorType)
        weight = dense_constant(conv.weight.astype(element_dtype(filter_type)),
                                TensorType(filter_type.get_element_type(), list(conv.weight.shape)))
        fused = Conv2DNchwFchwOp([source, weight.result], [kept.results[0]], [out_type],
                                 strides=i64_vector(conv.strides), dilations=i64_vector(conv.dilations))
        constants = [v for s in branch.steps for v in s.constants] + [op.outputs[0]]
        rewriter.insert([*init_ops, *kept_weight, kept, *pad_ops, weight, fused], InsertPoint.before(op))
        self.kept.add(kept)
        rewriter.replace(op, [], [fused.results[0]])
        if shared:  # the sum and the branch stay for their other users
            erase_dead_constant_slices(rewriter, [op.outputs[0]])
            return
        rewriter.erase(add)
        if rounding is not None:
            rewriter.erase(rounding)
        for old in reversed(branch.steps):
            rewriter.erase(old.op)
        erase_dead_constant_slices(rewriter, constants)
