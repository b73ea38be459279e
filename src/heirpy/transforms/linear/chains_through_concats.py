"""Linear chains through a channel concat: a conv reading `concat(parts)` (or
`concat(parts) + skip`) where every part is a linear branch of one common value
(`linalg-fuse-linear-chains`' second pattern set, beside `chains_through_adds`).

A conv is linear in its input channels, so a conv of a channel concat is the sum of the
convs of its parts, each with its slice of the filter:
`conv(concat(a, b), W) = conv(a, W[:, :Ca]) + conv(b, W[:, Ca:])`. When each part is a
chain of linear ops of one value `h`, each term composes with its part's chain into one
conv of `h`, and the terms accumulate into each other's init: one level above `h`
instead of one per op, which is what the depth bound counts. GhostNet's ghost module
without an activation (the second of each bottleneck) is `concat(p, dw(p))`, `p` a 1x1
conv of the block's middle tensor and `dw` the cheap depthwise conv of it; the block's
residual add and the next block's 1x1 conv follow:

    %p = conv(%h, %w1)                      // part 0: a branch of %h
    %d = depthwise_conv(pad(%p), %k)        // part 1: a branch of part 0, so of %h
    %c = tensor.concat dim(1) %p, %d
    %s = arith.addf %c, %x                  // optional: %x no deeper than %h
    %r = conv(%s, %w2) outs(%c2)
  ->
    %l = conv(%x, %w2) outs(%c2 + consts)   // the conv of the skip (if any)
    %q = conv(%h, %w2[:, :C] ∘ %w1) outs(%l)
    %r = conv(pad(%h), %w2[:, C:] ∘ %k ∘ %w1) outs(%q)

(three levels above `h` become one). A part that is `h` itself (`concat(h, dw(h))`)
composes the filter slice alone. A part's branch may start at another part's output
(the depthwise conv reads `p`): its chain is then that part's chain followed by its own.

Legality: the concat joins along axis 1 of NCHW tensors, its parts' channels add up to
the conv's input channels; each part is the common value or the output of a branch of
linear ops (`chains.branch_ending_at`, pads and all, with the depthwise steps of
`chain_steps`); all parts lead to one value `h`; each composed term is one conv
(`Chain.as_conv`) with the conv's output shape; at least one level is saved (the
deepest part's chain); with a skip, it is added unscaled or with a constant scale
(`sum_operands.scaled_add_operands`) and is no deeper than `h`
(`FuseChainThroughAdd.no_deeper`); the cost rule (`fusion_cost.CostRule`) allows it:
weights before = the parts' distinct steps and the conv, after = the composed filters,
the conv kept for the skip, the slice convs of plain parts, and the steps other users
keep (an f16 rounding of a part's chain goes with the chain). A nonlinearity in a part
ends its branch there: the part is then a plain value, taken only when provably no
deeper than the root (a relu on GhostNet's cheap conv is not: nothing fires); a concat
along another axis is not split.

A part may be a sum (`sum_operands.sum_addends`: a tensor add, or the pointwise fusion's
n-ary `linalg.generic` of adds, f32 addends rounded in its f16 body): YOLO11's C2PSA ends
`cv2(cat(a, b + ffn2(g)))`, after the main pipeline `b + proj(u) + ffn2(g)`, `a` and `b`
the halves of one value, ffn2 and proj 1x1 convs with no activation after them:

    %p = b + proj(u) + ffn2(g); %c = tensor.concat dim(1) %a, %p; %r = conv(%c, %w)
  ->
    %r = conv(a, w[:, :C]) -> conv(b, w[:, C:]) -> conv(u, w[:, C:] ∘ proj) -> conv(g, w[:, C:] ∘ ffn2)

(each accumulating into the next one's init; two levels above `g` become one). Each
addend is a term on its part's slice of channels; a plain addend or part that is not the
root (`a`, `b`) is read by a conv of its filter slice. The root is the start of the
chain with the most levels that every other root and plain value is provably no deeper
than (`FuseChainThroughAdd.no_deeper`, which reads through a slice); chains from other
roots are composed too; the levels saved are the root's chains'.

The concat, the add and the parts' ops stay where other ops read them (GhostNet's block
output is also the next block's skip); what only this conv read is erased.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AnyFloat, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.constants import dense_constant, element_dtype
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
from heirpy.ir.utils import element_type, i64_vector, static_shape
from heirpy.transforms.linear.chain_steps import BATCHED, Step, step_of
from heirpy.transforms.linear.chains import Chain, PaddedConv, branch_ending_at, emit_edge_corrections, zero_pad_ops
from heirpy.transforms.linear.chains_through_adds import NESTED_SUMS, FuseChainThroughAdd
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    build_init,
    erase_dead_constant_slices,
    init_elements,
)
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost, admit_fusion
from heirpy.transforms.linear.linear_maps import AffineConv
from heirpy.transforms.linear.sum_operands import rounding_source, scaled_add_operands, sum_addends
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, in_generic_body


@dataclass
class Part:
    """One operand of the concat: its channels in the concat and its chain from the
    common value (empty when the part is that value)."""

    value: SSAValue
    offset: int
    channels: int
    steps: list[Step]
    kept: bool = False
    """A plain value that is not the root: conv'd with its filter slice, not composed."""

    def root(self) -> SSAValue:
        return self.steps[0].activation if self.steps else self.value


def channel_concat_parts(op: Operation) -> list[tuple[SSAValue, int, int]] | None:
    """`(operand, channel offset, channels)` of a `tensor.concat` along axis 1 of static
    4-d tensors, else None."""
    if not isinstance(op, tensor.ConcatOp) or op.dim.value.data != 1:
        return None
    parts: list[tuple[SSAValue, int, int]] = []
    offset = 0
    for value in op.inputs:
        shape = static_shape(value.type)
        if shape is None or len(shape) != 4:
            return None
        parts.append((value, offset, shape[1]))
        offset += shape[1]
    return parts


def _unique_steps(parts: list[Part]) -> list[Step]:
    """The parts' steps, each op once (a part's chain may repeat another's)."""
    seen: dict[Operation, Step] = {}
    for part in parts:
        for step in part.steps:
            seen.setdefault(step.op, step)
    return list(seen.values())


def _storage_element(root: SSAValue, out: SSAValue) -> Attribute:
    """The filters' element type: the input's when it is a narrower float than the
    output (torch-mlir's f16 form: f16 weights, an f32 init), else the output's
    (`chains.storage_element`)."""
    inner = element_type(root.type)
    outer = element_type(out.type)
    if isinstance(inner, AnyFloat) and isinstance(outer, AnyFloat) and inner.bitwidth < outer.bitwidth:
        return inner
    return outer


class FuseConvOfConcat(OpPattern[Conv2DNchwFchwOp], OutsideGenericBodies):
    """Split a conv of a channel concat by its filter's input channels and compose each
    slice with its part's linear branch of one common value (module docstring).

        %c = tensor.concat dim(1) %p, %d; %r = conv(%c, %w2) outs(%c2)   // %p, %d: branches of %h
      ->
        %q = conv(%h, %w2[:, :C] ∘ P) outs(%c2 + consts); %r = conv(pad(%h), %w2[:, C:] ∘ D) outs(%q)
    """

    op_types = (Conv2DNchwFchwOp,)

    def __init__(self, reader: ConstantFolder, rule: CostRule, pass_name: str, through_add: FuseChainThroughAdd):
        self.reader = reader
        self.rule = rule
        self.pass_name = pass_name
        self.through_add = through_add
        """Its `kept` convs of a skip (never composed again) and its `no_deeper`."""

    def _step(self, op: Operation) -> Step | None:
        return step_of(op, self.reader)

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or op in self.through_add.kept:
            return
        assert isinstance(op, Conv2DNchwFchwOp)
        last = self._step(op)
        if last is None or last.conv is None or last.activation is not op.inputs[0]:
            return
        source = op.inputs[0].owner
        if not isinstance(source, Operation):
            return
        add: Operation | None = None
        skip: tuple[SSAValue, float] | None = None
        concat = source
        if not isinstance(source, tensor.ConcatOp):
            operands = scaled_add_operands(source)
            if operands is None:
                return
            for (joined, scale), other in (operands, operands[::-1]):
                if isinstance(joined.owner, tensor.ConcatOp) and scale == 1.0:
                    add, skip, concat = source, other, joined.owner
                    break
            else:
                return
        found = channel_concat_parts(concat)
        if found is None or sum(c for _, _, c in found) != last.conv.weight.shape[1]:
            return
        sums: list[Operation] = []
        split = self._parts(found, sums)
        if split is None:
            return
        self._fuse(op, last, concat, add, skip, split, sums, rewriter)

    def _chain(self, value: SSAValue) -> list[Step] | None:
        """The linear branch ending at `value` (from its pads), else None. f16
        (torch-mlir's form): a part is the f16 rounding of a linear op's f32 result; its
        chain is that op's, the rounding skipped as chain folds do."""
        wider = rounding_source(value) or value
        owner = wider.owner
        step = self._step(owner) if isinstance(owner, Operation) else None
        branch = None if step is None else branch_ending_at(step, self._step)
        if branch is None or branch.mode != BATCHED or branch.output is not wider:
            return None
        return branch.with_prefix().steps

    def _addends(self, value: SSAValue, sums: list[Operation], depth: int = NESTED_SUMS) -> list[SSAValue] | None:
        """A part that is a sum (YOLO11's C2PSA: `b + proj(u) + ffn2(g)`, ffn2 with no
        activation): its addends, sums of sums flattened (`sums` collects the adds), a
        rounded addend read at its wide value. None when `value` is no such sum."""
        owner = value.owner
        found = sum_addends(owner) if isinstance(owner, Operation) and depth > 0 else None
        if found is None:
            return None
        assert isinstance(owner, Operation)
        sums.append(owner)
        addends: list[SSAValue] = []
        for addend, _ in found:
            inner = None if self._chain(addend) is not None else self._addends(addend, sums, depth - 1)
            addends += [addend] if inner is None else inner
        return addends

    def _parts(self, found: list[tuple[SSAValue, int, int]],
               sums: list[Operation]) -> tuple[list[Part], SSAValue] | None:
        """The terms of the concat: each part's chain from a root, or a part that is a sum
        split into its addends (several terms on one slice of channels); None unless one
        root is reached by a chain and every other root or plain value is provably no
        deeper than it (`_root`)."""
        values = [v for v, _, _ in found]
        own = {value: self._chain(value) for value in values}
        parts: list[Part] = []
        for value, offset, channels in found:
            steps = own[value]
            if steps is None:
                addends = self._addends(value, sums)
                if addends is not None:
                    parts += [Part(a, offset, channels, self._chain(a) or []) for a in addends]
                    continue
                steps = []
            start = steps[0].activation if steps else value
            before = own.get(start)
            if steps and before and start is not value:
                steps = before + steps  # the branch reads another part (GhostNet's cheap conv)
            parts.append(Part(value, offset, channels, steps))
        root = self._root(parts)
        if root is None:
            return None
        for part in parts:
            # A plain part that is not the root is read by a conv of its slice (`kept`).
            part.kept = not part.steps and part.value is not root
            if part.kept and element_type(part.value.type) != element_type(values[0].type):
                return None  # a wide addend with no chain: its slice conv would read f32
        return parts, root

    def _root(self, parts: list[Part]) -> SSAValue | None:
        """The value the deepest chain starts from: a chain's root that every other
        part's root (or plain value) is provably no deeper than, the chains with the most
        levels tried first. Then the fused conv sits one level above it."""
        chained = sorted((p for p in parts if p.steps), key=lambda p: -sum(s.costly for s in p.steps))
        if not chained:
            return None
        tried: set[SSAValue] = set()
        for candidate in chained:
            root = candidate.root()
            if root in tried:
                continue
            tried.add(root)
            if all(p.root() is root or self.through_add.no_deeper(p.root(), root) for p in parts):
                return root
        return None

    def _fuse(self, op: Conv2DNchwFchwOp, last: Step, concat: Operation, add: Operation | None,
              skip: tuple[SSAValue, float] | None, split: tuple[list[Part], SSAValue], sums: list[Operation],
              rewriter: PatternRewriter) -> None:
        assert last.conv is not None
        parts, root = split
        if skip is not None and not self.through_add.no_deeper(skip[0], root):
            return
        out_shape = static_shape(op.results[0].type)
        assert out_shape is not None
        composed: list[tuple[SSAValue, PaddedConv]] = []  # (the term's root, its conv)
        for part in parts:
            if part.kept:
                continue
            weight = last.conv.weight[:, part.offset:part.offset + part.channels]
            tail = AffineConv(weight, last.conv.strides, last.conv.dilations, np.zeros_like(last.conv.const))
            tail_step = Step(op, part.value, True, BATCHED, tail.apply, conv=tail)
            padded = Chain([*part.steps, tail_step], BATCHED).as_conv(edges=True)
            if padded is None or padded.conv.const.shape != tuple(out_shape[1:]):
                return
            composed.append((part.root(), padded))
        # Every other term is no deeper than `root`: the levels of its chains are saved.
        levels = max(sum(s.costly for s in part.steps) for part in parts if part.steps and part.root() is root)
        if levels < 1:
            return
        steps = _unique_steps(parts)
        # The f16 roundings of the parts' f32 results go with them (else their chains
        # would count as kept for the rounding's sake).
        roundings = [p.value.owner for p in parts if p.steps and rounding_source(p.value) is not None]
        joins = [o for o in (add, concat, *roundings) if isinstance(o, Operation)] + sums
        erased = self._erased(op, joins, steps)
        kept = [s for s in steps if s.op not in erased]
        weights_before = sum(s.weights for s in steps if s.costly or s.leveled) + last.weights
        kept_weights = sum(s.weights for s in kept if s.costly or s.leveled)
        # The conv kept for the skip after the concat, and a slice conv per plain part.
        in_channels = last.conv.weight.shape[1]
        sliced = [p.channels / in_channels for p in parts if p.kept]
        skip_weights = (last.weights if skip is not None else 0) + round(sum(sliced) * last.weights)
        skip_macs = (last.macs if skip is not None else 0) + round(sum(sliced) * last.macs)
        after = sum(p.conv.weight.size + sum(c.weight.size for c in p.corrections) for _, p in composed)
        corrections = [c for _, p in composed for c in p.corrections]
        const = last.conv.const + sum(p.conv.const for _, p in composed)
        cost = FusionCost(
            levels, weights_before, kept_weights + after + skip_weights,
            sum(s.macs for s in steps) + last.macs,
            sum(s.macs for s in kept) + sum(p.conv.macs() for _, p in composed) + skip_macs
            + sum(c.macs(False) for c in corrections),
            constants_before=sum(s.weights + s.init_size for s in steps) + last.weights + last.init_size,
            constants_after=sum(s.weights + s.init_size for s in kept) + after + skip_weights + init_elements(const)
            + len(corrections),
        )
        if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
            return
        self._emit(op, last, skip, parts, composed, const, rewriter)
        for dead in sorted(erased - {op}, key=_position, reverse=True):
            if not any(r.uses for r in dead.results):
                rewriter.erase(dead)
        erase_dead_constant_slices(rewriter, [v for s in steps for v in s.constants] + list(last.constants))

    def _erased(self, op: Operation, joins: list[Operation], steps: list[Step]) -> set[Operation]:
        """The ops only the fused conv's inputs read: the add, the concat, the parts' sums,
        then the parts' steps from the last, each when all its users go too."""
        gone: set[Operation] = {op}
        ordered = sorted(joins, key=_position, reverse=True)
        ordered += sorted((s.op for s in steps), key=_position, reverse=True)
        for candidate in ordered:
            if all(use.operation in gone for r in candidate.results for use in r.uses):
                gone.add(candidate)
        return gone

    def _emit(self, op: Conv2DNchwFchwOp, last: Step, skip: tuple[SSAValue, float] | None, parts: list[Part],
              composed: list[tuple[SSAValue, PaddedConv]], const: np.ndarray, rewriter: PatternRewriter) -> None:
        assert last.conv is not None
        out_type = op.results[0].type
        assert isinstance(out_type, TensorType)
        dtype = element_dtype(out_type)
        batch = out_type.get_shape()[0]
        new_ops, init = build_init(np.broadcast_to(const, (batch, *const.shape)).astype(dtype), out_type)
        strides, dilations = i64_vector(op.window_strides()), i64_vector(op.window_dilations())
        if skip is not None:  # conv(s * x, w) = conv(x, s * w), the skip's term first
            value, scale = skip
            filter_ = op.inputs[1]
            if scale != 1.0:
                filter_type = op.inputs[1].type
                assert isinstance(filter_type, TensorType)
                scaled = (last.conv.weight * scale).astype(element_dtype(filter_type))
                constant = dense_constant(scaled, filter_type)
                new_ops.append(constant)
                filter_ = constant.result
            kept = Conv2DNchwFchwOp([value, filter_], [init], [out_type], strides=strides, dilations=dilations)
            new_ops.append(kept)
            self.through_add.kept.add(kept)
            init = kept.results[0]
        for part in parts:  # a plain part's term: its slice of the filter
            if not part.kept:
                continue
            filter_type = op.inputs[1].type
            assert isinstance(filter_type, TensorType)
            window = last.conv.weight[:, part.offset:part.offset + part.channels]
            slice_type = TensorType(filter_type.get_element_type(), list(window.shape))
            constant = dense_constant(window.astype(element_dtype(slice_type)), slice_type)
            kept = Conv2DNchwFchwOp([part.value, constant.result], [init], [out_type], strides=strides,
                                    dilations=dilations)
            new_ops += [constant, kept]
            self.through_add.kept.add(kept)
            init = kept.results[0]
        for root, padded in composed:
            storage = _storage_element(root, op.results[0])
            pad_ops = zero_pad_ops(root, padded.pad)
            source = pad_ops[-1].results[0] if pad_ops else root
            conv = padded.conv
            weight_type = TensorType(storage, list(conv.weight.shape))
            weight = dense_constant(conv.weight.astype(element_dtype(weight_type)), weight_type)
            term = Conv2DNchwFchwOp([source, weight.result], [init], [out_type],
                                    strides=i64_vector(conv.strides), dilations=i64_vector(conv.dilations))
            new_ops += [*pad_ops, weight, term]
            init = term.results[0]
            new_ops += emit_edge_corrections(source, init, padded, storage, depthwise=False)
            init = new_ops[-1].results[0]
        rewriter.insert(new_ops, InsertPoint.before(op))
        rewriter.replace(op, [], [init])


def _position(op: Operation) -> int:
    """`op`'s index in its block (ops of one function body: a total order)."""
    block = op.parent_block()
    assert block is not None
    return block.get_operation_index(op)
