"""Linear chains through a fork: a conv reading the output of a linear branch that other
ops read too (`linalg-fuse-linear-chains`' second pattern set, beside
`chains_through_adds`).

`FuseLinearChain` fuses a chain only where every intermediate result has one user, so a
chain stops at a value that is also read elsewhere. MobileNetV2/V3's block without a
skip ends in a 1x1 `project` conv whose output feeds the next block's 1x1 `expand` conv
AND that block's skip add; with no activation between them, `expand ∘ project` is one
linear map, one level, which is what the depth bound counts. The value must still be
computed for its other users, so the branch stays and the composed conv is added beside
it, reading the branch's input:

    %p = conv(%h, %w1) outs(%c1)          // the branch (a chain of linear ops)
    %s = arith.addf %p, %y                 // another user of %p
    %r = conv(%p, %w2) outs(%c2)
  ->
    %p = conv(%h, %w1) outs(%c1)           // kept for %s
    %s = arith.addf %p, %y
    %r = conv(pad(%h), %w2 ∘ %w1) outs(%c2 + w2 ∘ c1)

The conv may be depthwise: GhostNet's ghost module without an activation is
`concat(p, dw(pad(p)))`, p a 1x1 conv the concat reads too; `dw ∘ p` is one dense 3x3
conv of the module's input (10·C_in / (C_in + 9) times the weights of p and dw, p
kept: 8-10x on GhostNet), so the module's output, the next block's skip, is one level above its
input as the depth bound counts it, not two (`FuseConvOfConcat` composes the concat into
the next conv only, not into the skip).

The fork may also sit before pads and reshapes that only the conv reads (MobileViT's
block reads the previous block's projection through its 3x3 conv's zero pad while its
shortcut concat reads the projection too): they join the composed chain, a bias then
reaching the conv's init through the pad (zero at the border). In the f16 form the fork
is the f16 rounding of the branch's f32 result: the chain composes across it (as the
f16 chain folds do) and the rounding stays for the other readers.

GhostNet's stride block without a squeeze-excite has p = a 3x3 stride-2 conv, whose
windows overlap, so the cheap conv's zero pad does not move to p's input: the instance
with `edges` (a pattern set after `FuseConvOfConcat`'s) composes it as one 7x7 stride-2
conv plus edge corrections, convs of slices at the same level (`edge_corrections`,
`Chain.as_corrected_conv`), their weights counted with the composed filter's.

Legality: the conv's input, or the input of the single-user pads and reshapes before
it (`_free_steps_before`), has more than one user (with one, `FuseLinearChain` decides)
and is the output of a branch of linear ops, or the f16 rounding of one whose f32
result has no other reader (`chains.branch_ending_at`, at least one
costly op, single-user links inside it); branch and conv compose into one conv
(`Chain.as_conv`); the cost rule allows it with levels saved = the branch's levels and
the branch's weights on both sides (before: branch + conv; after: branch + composed
filter), since the branch stays; the conv is not one `FuseChainThroughAdd` kept for a
skip (its result is never deeper than the fused conv it feeds: composing it would add
weights and save no level of the result).
"""

from __future__ import annotations

from math import prod

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, DepthwiseConv2DNchwChwOp, MatmulOp
from heirpy.ir.utils import static_shape
from heirpy.transforms.linear.chain_steps import BATCHED, Step, step_of
from heirpy.transforms.linear.chains import Chain, branch_ending_at, emit_conv, emit_matrix
from heirpy.transforms.linear.constant_folding import ConstantFolder, erase_dead_constant_slices
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost, admit_fusion
from heirpy.transforms.linear.linear_maps import affine_matrix, matrix_form
from heirpy.transforms.linear.sum_operands import rounding_source
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, in_generic_body


class FuseChainThroughFork(OpPattern[Conv2DNchwFchwOp | DepthwiseConv2DNchwChwOp | MatmulOp],
                           OutsideGenericBodies):
    """Compose a conv (a depthwise conv, or a matmul of the flattened output) with the
    linear branch whose output it shares with other users, keeping the branch for them
    (module docstring).

        %p = conv(%h, %w1); %s = arith.addf %p, %y; %r = conv(%p, %w2)
      ->
        %p = conv(%h, %w1); %s = arith.addf %p, %y; %r = conv(pad(%h), %w2 ∘ %w1)
    """

    op_types = (Conv2DNchwFchwOp, DepthwiseConv2DNchwChwOp, MatmulOp)

    def __init__(self, reader: ConstantFolder, rule: CostRule, pass_name: str,
                 kept: set[Operation] | None = None, edges: bool = False):
        self.reader = reader
        self.rule = rule
        self.pass_name = pass_name
        self.kept = set() if kept is None else kept
        """`FuseChainThroughAdd.kept`: the convs of a skip, never composed again."""
        self.edges = edges
        """Compose through a pad that does not move, with edge corrections (`Chain.as_conv`).
        A separate instance does, in a set after `FuseConvOfConcat`'s: that pattern
        composes the next conv through the concat first, reading the cheap conv's chain
        (its sum with the corrections would be no chain)."""

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if in_generic_body(op) or op in self.kept:
            return
        assert isinstance(op, Conv2DNchwFchwOp | DepthwiseConv2DNchwChwOp | MatmulOp)
        last = step_of(op, self.reader)
        if last is None:
            return
        tail = _free_steps_before(last, self.reader)
        shared = (tail[0] if tail else last).activation
        # f16: the fork is the rounding of the branch's f32 result (torch-mlir's form),
        # or the f32 result that each reader rounds on its own (GhostNet's stride block
        # after fusion: the gate's truncf and the squeeze's); the chain composes across
        # the rounding, as the f16 chain folds do, and it stays for the other readers.
        wide = rounding_source(shared)
        if shared.has_one_use() and (wide is None or wide.has_one_use()):
            return
        branch_end = wide if wide is not None and (wide.has_one_use() or shared.has_one_use()) else shared
        producer = branch_end.owner
        end = step_of(producer, self.reader) if isinstance(producer, Operation) else None
        if end is None or end.mode not in (None, BATCHED):
            return
        branch = branch_ending_at(end, lambda o: step_of(o, self.reader))
        if branch is None or branch.mode != BATCHED or branch.output is not branch_end:
            return
        if isinstance(op, MatmulOp):
            self._fuse_matrix(op, branch, tail, last, rewriter)
            return
        chain = Chain([*branch.steps, *tail, last], BATCHED, branch.prefix)
        padded = chain.as_conv()
        if padded is None:
            corrected = chain.as_corrected_conv() if self.edges else None
            if corrected is None:
                return
            chain, padded = corrected
        # Counted dense, the depthwise form too (as before edge corrections existed).
        filter_weights = padded.conv.weight.size + sum(c.weight.size for c in padded.corrections)
        filter_macs = padded.conv.macs() + sum(c.macs(False) for c in padded.corrections)
        weights_before, macs_before = branch.cost_before()
        constants_before = branch.constants_before()
        cost = FusionCost(
            branch.levels(), weights_before + last.weights, weights_before + filter_weights,
            macs_before + last.macs, macs_before + filter_macs,
            constants_before=constants_before + last.weights + last.init_size,
            constants_after=constants_before + filter_weights + padded.stored_init_elements(),
        )
        if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
            return
        new_ops = emit_conv(chain, padded)
        rewriter.insert(new_ops, InsertPoint.before(op))
        rewriter.replace(op, [], [new_ops[-1].results[0]])
        erase_dead_constant_slices(rewriter, list(last.constants))

    def _fuse_matrix(self, op: MatmulOp, branch: Chain, tail: list[Step], last: Step,
                     rewriter: PatternRewriter) -> None:
        """The matmul of one flattened sample (`[1, D]`) of a branch of convs, as ONE
        explicit matrix of the branch's input (its leading pads absorbed, `emit_matrix`):
        GhostNet's squeeze-excite pools and reduces (a matmul after fusion) the output of
        its stride block's depthwise conv, which the gate multiplies too. Levels saved:
        the branch's; weights: the branch (kept) and the matmul before, the branch and the
        matrix after (3.8-3.9x on GhostNet). The matrix reads what the kept branch reads,
        so it needs no longer vector than the IR carries already. Only a branch of convs
        (pools, depthwise convs): a branch of matmuls is `FuseMatmulThroughFork`'s (row by
        row, a smaller weight), a sum over rows `chains_through_row_sums`'."""
        shape = static_shape(op.inputs[0].type)
        if shape is None or shape[0] != 1 or any(s.costly and s.conv is None for s in branch.steps):
            return
        wide = Chain([*branch.with_prefix().steps, *tail, last], BATCHED)
        sample_in, sample_out = wide.sample_shapes()
        form = matrix_form(prod(sample_in), prod(sample_out))
        if form is None:
            return
        weights_before, macs_before = branch.cost_before()
        constants_before = branch.constants_before()
        cost = FusionCost(
            branch.levels(), weights_before + last.weights, weights_before + form.weights,
            macs_before + last.macs, macs_before + form.macs,
            constants_before=constants_before + last.weights + last.init_size,
            constants_after=constants_before + form.weights + prod(sample_out),
        )
        if not admit_fusion(self.rule, cost, self.pass_name, op, op.results[0]):
            return
        matrix, bias = affine_matrix(wide.apply, sample_in)
        new_ops = emit_matrix(wide, matrix, bias)
        rewriter.insert(new_ops, InsertPoint.before(op))
        rewriter.replace(op, [], [new_ops[-1].results[0]])
        erase_dead_constant_slices(rewriter, list(last.constants))


def _free_steps_before(last: Step, reader: ConstantFolder) -> list[Step]:
    """The pads and reshapes (`Step.reshape_only`) between the fork and the conv `last`,
    each result read by the next step only (MobileViT's block reads the previous block's
    projection through its 3x3 conv's zero pad: the fork is the pad's input). The first
    step's activation is the fork (or, with none, `last`'s)."""
    tail: list[Step] = []
    value = last.activation
    while isinstance(value.owner, Operation) and value.has_one_use():
        step = step_of(value.owner, reader)
        if step is None or not step.reshape_only:
            break
        tail.insert(0, step)
        value = step.activation
    return tail
