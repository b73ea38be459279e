"""Fuse a chain of linear ops with no nonlinearity between them into ONE linear op.

Under CKKS every plaintext-ciphertext linear op costs a multiplicative level; a chain
conv → pool → conv → pool with no activation is one affine map of its input, so it
should cost one. Example (conv∘conv, no padding between):

    %a = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) outs(%z1)
    %b = linalg.conv_2d_nchw_fchw ins(%a, %w2 : tensor<1x2x4x4xf32>, tensor<3x2x2x2xf32>) outs(%z2)
  ->
    %b = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<3x1x4x4xf32>) outs(%init)

Chain steps (each acts on every sample of the batch alike; weights and inits must be
compile-time constants, the same for every batch element):
  costly (one level each): `conv_2d_nchw_fchw`, `depthwise_conv_2d_nchw_chw` (a conv
    with a channel-diagonal filter, weighed by its own C*KH*KW weights; a chain that
    stays channel-diagonal is emitted as one depthwise conv), `pooling_nchw_sum`,
    `tensor_ext.fused_conv_pool`, `matmul` (activation on the left, torch's Linear after
    its weight transpose is folded), `matvec`, `vecmat`, and a `linalg.generic` that
    sums over sample axes (torch's global average pool, `(d0, d1, 0, 0)` output);
  free: elementwise `± K`, `* K`, `/ K` (bias, the average pool's divide, batch-norm),
    `tensor.pad`, and `tensor.collapse_shape`/`expand_shape`/`linalg.transpose` that keep
    the batch axis.
A chain runs from its first to its last costly op (plus trailing free elementwise
steps); leading/trailing pads and reshapes stay outside. It fuses when it has at least
two costly ops and every intermediate result has exactly one user. Through a skip
connection (a conv reading `branch + skip`, the skip no deeper than the branch's input)
the pass's second pattern set composes the conv with the branch
(`chains_through_adds.FuseChainThroughAdd`).

Representations and the rule that picks one (cost = multiply-accumulates per sample,
which is also the number of plaintext-ciphertext products the op needs):
  * conv: only when every step is translation-equivariant (conv, pool, fused_conv_pool,
    per-channel scale, any constant add; a run of reshapes and transposes inside only
    when it permutes channels, ShuffleNet's channel shuffle, read as a 1x1 permutation
    conv: `chain_steps.channel_permutation`), or a zero pad of H and W
    that moves to the chain's input (`linear_maps.pad_through_window`: every step before
    it has windows no wider than their stride and reads its input to the end, as
    VGG's `avgpool(2) -> pad 1 -> conv`; the chain is then one conv of the padded
    input). Filters compose exactly (`linear_maps.compose_conv_weights`): stride s1*s2,
    dilation the gcd of the tap steps, size ((k2-1)*d2*s1 + (k1-1)*d1)/g + 1; inits are
    pushed through the later steps with numpy (`L(conv(x) + b) = L(conv(x)) + L(b)`).
    cost = F*OH*OW * C*KH*KW.
  * matrix: always exact (any affine per-sample map), found by applying the chain to 0
    and to each unit vector: the input is flattened, multiplied by a constant
    D_in x D_out matrix with the constant term as init, and reshaped back.
    cost = D_in * D_out; at most 2^22 weights (else the chain is left alone).
  * contraction: when the chain starts with a sum over sample axes (a global average
    pool, then its divide, flatten and Linear), a map whose distinct weights stay the
    Linear's (divided by H*W) instead of a H*W times larger matrix; cost = D_out * D_in
    MACs, like the matrix, and the Linear's weights. It is written as the dense matrix
    (flatten + one `linalg.matmul`, `emit_contraction`), the form IREE's CPU and GPU
    back ends and HEIR all compile, while that matrix fits 2^22 entries; past it (a
    2x2 pool into a 1280 -> 1000 Linear: 5120 x 1000) as ONE contraction
    `linalg.generic` reading the Linear's weight (with the 1/(H*W) folded in) through
    a map that ignores the summed axes (`chains.emit_contraction_generic`), so the
    constants do not grow. Option `contraction-form=auto|matmul|generic` (default
    auto: that rule; matmul: never the generic, such a chain stays unfused; generic:
    always the generic).
  The cheapest one wins (MACs, then weight elements); ties go to the conv (a much
  smaller constant). E.g. conv3x3 →
  avgpool2 → conv3x3 → avgpool2 on 3x16x16 (8 output channels) without padding is one
  conv with an 8x3x10x10 filter,
  stride 4 (8*2*2*3*10*10 = 9600 MACs) instead of a 768x32 matrix (24576); with torch's
  padding=1 between the convs the map is not a conv (the pad after the first pool
  cannot move through the 3x3 conv before it: its windows overlap), so it becomes the
  768 x 128 matrix.

Whether a chain is fused at all is the cost rule's call (`fusion_cost.CostRule`, the
pass options `policy`, `max-weight-growth`, `max-mac-growth`): by default a fusion may
grow the weights at most 4x per level it saves (LeNet-5's 2x2 pool into FC1 does; the
padded chain above, 248x for 3 levels, does not; `policy=depth` fuses every chain).

The matrix form is also held to a slot budget (`SlotBudget`, option `slot-budget`,
default 1024 = HEIR's default slot count, 0 = no limit): HEIR's CKKS kernels need a
linear op's secret input and output each in one ciphertext, so a matrix is a candidate
only when its input and output vectors fit max(slot-budget, L) slots, where L is the
longest secret tensor a linear op of the same function OUTSIDE the chain reads or
writes (measured before any chain of the function is fused), or that the function
takes as an argument or returns. The function needs a ring of L slots anyway, so such a
matrix costs no larger one: LeNet-5's pool2+FC1 matrix (1600 x 120) fuses because its
conv1 writes 6x28x28 = 4704 elements, and a chain that is the whole function always
fits (its input and output are the function's own); a 1600-wide matrix in a net whose
other linear ops, input and result all fit 1024 slots does not.

Not fused (guards): any nonlinearity between (x*x, relu, sigmoid, max-pool: none is a
step), an intermediate with another user (duplicating the chain would not be free:
it is ciphertext work), dynamic shapes, function-argument weights, inits that differ
across the batch, matmuls whose activation is the right operand, and chains whose
matrix would exceed 2^22 entries (unless they are a contraction: then the generic).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ModuleOp,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
)
from xdsl.rewriter import InsertPoint

from heirpy.analysis.orion_packing import conv_diagonals
from heirpy.analysis.slots import DEFAULT_SLOT_COUNT, boundary_vectors
from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms.linear.chain_steps import Step, step_of
from heirpy.transforms.linear.chains import (
    Chain,
    Contraction,
    PaddedConv,
    chain_ending_at,
    emit_contraction_generic,
    emit_conv,
    emit_matrix,
    widens_or_keeps,
)
from heirpy.transforms.linear.chains_through_adds import FuseChainThroughAdd
from heirpy.transforms.linear.chains_through_adds_rows import FuseMatmulThroughAdd, FuseMatmulThroughFork
from heirpy.transforms.linear.chains_through_concats import FuseConvOfConcat
from heirpy.transforms.linear.chains_through_forks import FuseChainThroughFork
from heirpy.transforms.linear.chains_through_row_sums import FuseMatmulThroughRowSum
from heirpy.transforms.linear.chains_through_spatial_sums import FuseSumThroughAdd
from heirpy.transforms.linear.chains_through_tokens import FuseMatmulOfConvTokens
from heirpy.transforms.linear.constant_budget import DEFAULT_FREE_CONSTANT_BYTES, fuse_within_budget
from heirpy.transforms.linear.constant_folding import (
    ConstantFolder,
    erase_dead_constant_slices,
)
from heirpy.transforms.linear.fusion_cost import (
    DEFAULT_MAX_BOUGHT_WEIGHT_GROWTH,
    DEFAULT_MAX_DIAGONAL_GROWTH,
    DEFAULT_MAX_WEIGHT_GROWTH,
    DEFAULT_ORION_SLOTS,
    DEFAULT_POLICY,
    CostRule,
    FusionCost,
    admit_fusion,
    check_constant_budget,
    check_free_constant_bytes,
    check_max_bought_weight_growth,
    cost_rule,
)
from heirpy.transforms.linear.linear_maps import (
    Form,
    affine_matrix,
    choose_form,
    matrix_form,
)
from heirpy.transforms.linear.mixed_precision import (
    populate_mixed_precision_patterns,
    populate_narrow_unused_widening_patterns,
)
from heirpy.transforms.linear.orion_cost import (
    enclosing_function,
    linear_layer_diagonals,
    op_diagonals,
    orion_layouts,
)
from heirpy.transforms.linear.position_scales import FoldPositionScaleIntoConv
from heirpy.transforms.linear.slot_budget import SlotBudget, carried_vectors
from heirpy.transforms.linear.sums_of_sums import FuseSumOfSum
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets, in_generic_body

STEP_MEMO_SIZE = 64

CONTRACTION_FORMS = ("auto", "matmul", "generic")
"""How a contraction is written (`contraction-form`): `matmul`, the dense matrix
(`emit_contraction`; a chain whose matrix passes `MAX_MATRIX_ELEMENTS` is not fused);
`generic`, one contraction generic reading the Linear's weight through a broadcast
(`emit_contraction_generic`); `auto` (default), the matmul where the matrix fits the
cap and the generic past it."""


# ------------------------------------------------------------------------- rewriting
def emit_contraction(chain: Chain, contraction: Contraction) -> list[Operation]:
    """`collapse_shape` of the input to [B, D_in], ONE `linalg.matmul` with the dense
    matrix (the Linear's weight divided by H*W, repeated over the summed axes), and an
    `expand_shape` back when the output is not [B, D_out] (`emit_matrix`).

    Why not one contraction `linalg.generic` reading the small weight through a
    broadcasting map (heirpy's form before): IREE's CUDA back end fails on it ("failed
    to distribute": three reduction loops in one dispatch) and HEIR has no kernel for
    it, while both compile a matmul; the weight grows by H*W (ResNet-20: 640 -> 40,960
    values), which the weight-bytes figures show."""
    return emit_matrix(chain, contraction.dense_matrix(), contraction.bias.reshape(-1))


class FuseLinearChain(OpPattern[Operation], OutsideGenericBodies):
    """Replace a maximal chain of linear ops (>= 2 costly steps) by ONE linear op.

        %a = conv(%x, %w1) outs(%b1); %p = pooling_nchw_sum(%a) ; %q = %p / 4
        %c = conv(%q, %w2) outs(%b2)
      ->
        %c = conv(%x, %w) outs(%b)       (or collapse + matmul + expand, or one
                                          contraction generic, see the module doc)

    Legality: `chain_ending_at` (single-user intermediates, compatible batch modes, no
    nonlinearity, constant weights/inits), a representable composition (`Chain.as_conv`,
    `Chain.as_contraction`, `MAX_MATRIX_ELEMENTS`), the slot budget
    (`SlotBudget`: a matrix whose input or output vector is longer than both
    `slot_budget` and every vector a linear op outside the chain, or the function's
    own arguments and results, already carry would need a larger CKKS ring, so it is
    not a candidate),
    `choose_form` (the cheapest remaining form), and the cost rule
    (`fusion_cost.CostRule.allows`: levels saved against weight growth).
    """

    # Any op: `step_of` decides which ops a chain is made of.
    op_types = (Operation,)

    def __init__(
        self,
        reader: ConstantFolder | None = None,
        slot_budget: int | None = None,
        rule: CostRule | None = None,
        pass_name: str = "linalg-fuse-linear-chains",
        contraction_form: str = "auto",
    ):
        assert contraction_form in CONTRACTION_FORMS
        self.contraction_form = contraction_form
        self.reader = ConstantFolder() if reader is None else reader
        self.pass_name = pass_name  # the remark's
        self.slot_budget = slot_budget
        self.rule = CostRule() if rule is None else rule
        # Per function, the vector length each linear op carried when this pattern first
        # saw the function (before any chain of it was fused): see `SlotBudget`.
        self._carried: dict[Operation, dict[Operation, int]] = {}
        self._boundary: dict[Operation, int] = {}  # per function: `boundary_vectors`
        # Recent `step_of` answers, valid for one sweep of the walker and until this
        # pattern rewrites: see `_step_of`.
        self._steps: dict[Operation, Step | None] = {}
        self._sweep: PatternRewriter | None = None

    def _step_of(self, op: Operation) -> Step | None:
        """`step_of(op, self.reader)`, remembered for the next few queries.

        Each op's step is asked for up to three times (as the op visited, as the user
        that continues the previous op's chain, while walking a chain back), and a
        conv's costs two constant folds (weights and init). An answer depends on the op
        and the ops its operands are computed from, which stay as they are until a
        rewrite: the memo is emptied when this pattern rewrites and at each new sweep
        of the walker (a new `PatternRewriter`), and it runs alone in its pattern set
        (`populate_linalg_fuse_linear_chains_patterns`), so no other pattern changes
        the IR in between -- only the walker's dead-code elimination, which erases ops
        nothing reads. Bounded (`STEP_MEMO_SIZE`, oldest first out), so that a model's
        folded weights are not all held at once."""
        if op in self._steps:
            return self._steps[op]
        step = step_of(op, self.reader)
        if len(self._steps) >= STEP_MEMO_SIZE:
            del self._steps[next(iter(self._steps))]
        self._steps[op] = step
        return step

    def slot_limit(self, chain: Chain) -> SlotBudget | None:
        """The budget `chain`'s matrix is held to (None: no limit)."""
        if self.slot_budget is None:
            return None
        func = enclosing_function(chain.steps[-1].op)
        if func is None:
            return SlotBudget(self.slot_budget, 0)
        if func not in self._carried:
            self._carried[func] = carried_vectors(func)
            self._boundary[func] = boundary_vectors(func)
        own = {step.op for step in chain.steps}
        others = [n for op, n in self._carried[func].items() if op not in own]
        return SlotBudget(self.slot_budget, max([*others, self._boundary[func]]))

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if rewriter is not self._sweep:
            self._sweep, self._steps = rewriter, {}
        if in_generic_body(op):
            return
        step = self._step_of(op)
        if step is None:
            return
        chain = chain_ending_at(step, self._step_of)
        if chain is None:
            return
        if not self._fuse(chain, rewriter):
            head = chain.head()
            if head is not None:
                self._fuse(head, rewriter)

    def _as_generic(self, chain: Chain, contraction: Contraction | None) -> bool | None:
        """How `contraction` would be written: True as `emit_contraction_generic`, False
        as the dense matmul, None when neither is allowed (`contraction_form`, the cap,
        a narrowing chain that the generic's body cannot write)."""
        if contraction is None:
            return None
        generic_ok = widens_or_keeps(chain) and self.contraction_form != "matmul"
        if generic_ok and (self.contraction_form == "generic" or not contraction.dense_fits()):
            return True
        return False if contraction.dense_fits() else None

    def _fuse(self, chain: Chain, rewriter: PatternRewriter) -> bool:
        """Replace `chain` by one linear op if a form is allowed (see the class doc)."""
        conv = chain.as_conv()
        conv_chain = chain
        contraction = chain.as_contraction()
        as_generic = self._as_generic(chain, contraction)
        if as_generic is None:
            contraction = None
        wide = chain.with_prefix()  # the matrix form absorbs leading pads/reshapes
        sample_in, sample_out = wide.sample_shapes()
        d_in, d_out = prod(sample_in), prod(sample_out)
        budget = self.slot_limit(wide)
        fits = budget is None or budget.allows(d_in, d_out, *wide.tensor_sizes())
        form = choose_form([
            None if conv is None else conv.form(),
            None if contraction is None else contraction.form(),
            matrix_form(d_in, d_out) if fits else None,
        ])
        if form is None and conv is None:
            # Only where no other form is: a conv with edge corrections through a pad that
            # does not move (`edge_corrections`; a 3x3 conv, a zero pad, a 3x3 conv).
            corrected = chain.as_corrected_conv()
            if corrected is not None:
                conv_chain, conv = corrected
                form = conv.form()
        if form is None:
            return False
        weights_before, macs_before = chain.cost_before()
        cost = FusionCost(chain.levels() - 1, weights_before, form.weights, macs_before, form.macs,
                          constants_before=chain.constants_before(), sum_adds_before=chain.sum_adds_before(),
                          constants_after=stored_constants(form, conv, contraction, d_out, bool(as_generic)))
        if self.rule.counts_diagonals:
            before, after = chain_diagonals(chain, wide, form.kind, conv, d_out, self.rule.orion_slots)
            cost = replace(cost, diagonals_before=before, diagonals_after=after)
        if not admit_fusion(self.rule, cost, self.pass_name, chain.steps[-1].op, chain.output):
            return False
        if form.kind == "conv":
            assert conv is not None
            chain = conv_chain
            new_ops = emit_conv(chain, conv)
        elif form.kind == "contraction":
            assert contraction is not None
            if as_generic:
                new_ops = emit_contraction_generic(chain, contraction)
                # f16: a later fold into this weight starts from float64 and rounds once
                self.reader.remember_unrounded(new_ops[0].results[0], contraction.weight)
            else:
                new_ops = emit_contraction(chain, contraction)
        else:
            matrix, bias = affine_matrix(wide.apply, sample_in)
            new_ops = emit_matrix(wide, matrix, bias)
            chain = wide
        self._steps = {}
        constants = [v for s in chain.steps for v in s.constants]
        last = chain.steps[-1].op  # `op` may be a reshape the chain leaves outside
        rewriter.insert(new_ops, InsertPoint.before(last))
        rewriter.replace(last, [], [new_ops[-1].results[0]])
        for old in reversed(chain.steps[:-1]):
            rewriter.erase(old.op)
        erase_dead_constant_slices(rewriter, constants)
        return True


def check_contraction_form(form: str, pass_name: str) -> None:
    """The `contraction-form` option: one of `CONTRACTION_FORMS`."""
    if form not in CONTRACTION_FORMS:
        raise HeirpyError(
            f"error: {pass_name}{{contraction-form={form}}}: expected one of {', '.join(CONTRACTION_FORMS)}"
        )


def stored_constants(
    form: Form, padded: PaddedConv | None, contraction: Contraction | None, d_out: int, generic: bool = False
) -> int:
    """Constant elements the op of `form` is emitted with: its weight as written (a
    contraction's dense matrix, or its own weight when written as a generic) and its
    init (a conv's as `build_init` stores it; a matrix's bias, one per output)."""
    if form.kind == "conv":
        assert padded is not None
        return form.weights + padded.stored_init_elements()
    if form.kind == "contraction":
        assert contraction is not None
        return (contraction.weight.size if generic else contraction.stored_elements()) + d_out
    return form.weights + d_out


def chain_diagonals(
    chain: Chain, wide: Chain, kind: str, padded: PaddedConv | None, d_out: int, slots: int
) -> tuple[int | None, int | None]:
    """Orion's diagonals (`orion_cost`) of `chain`'s costly ops, and of the one op of
    form `kind` that would replace them: the composed conv on the chain's input (its
    padding the chain input's own plus a pad the chain moved there; None, uncounted, when
    that pad is not alike on all four sides, which an Orion conv cannot express), or a
    Linear of `d_out` outputs reading the input of the matrix (`wide`, leading pads and
    reshapes absorbed) or of the contraction (the chain's input, flattened)."""
    func = enclosing_function(chain.steps[-1].op)
    if func is None:
        return None, None
    layouts = orion_layouts(func)
    costly = [step for step in chain.steps if step.costly]
    before = sum(
        op_diagonals(step.op, layouts, slots, None if step.conv is None else step.conv.weight != 0)
        for step in costly
    )
    last = layouts.is_last(costly[-1].op)
    if kind == "conv":
        assert padded is not None
        conv = padded.conv
        (low_h, high_h), (low_w, high_w) = padded.pad
        if padded.corrections or not low_h == high_h == low_w == high_w:
            return before, None
        layout, padding = layouts.conv_input(chain.input)
        after = conv_diagonals(conv.weight != 0, layout, conv.out_hw, conv.strides[0], padding + low_h,
                               conv.dilations[0], slots, last)
    else:
        source = chain.input if kind == "contraction" else wide.input
        after = linear_layer_diagonals(source, d_out, layouts, slots, last)
    return before, after


def populate_linalg_fuse_linear_chains_patterns(
    ctx: Context | None = None,
    slot_budget: int | None = DEFAULT_SLOT_COUNT,
    rule: CostRule | None = None,
    pass_name: str = "linalg-fuse-linear-chains",
    contraction_form: str = "auto",
) -> list[PatternSet]:
    """The chain-fusion patterns, also run by `linalg-fuse-ops` (`ctx` holds the
    module's `dense_resource` blobs; without it the context heirpy remembers is used;
    `rule` is the cost rule, `CostRule()` by default; `pass_name` names the pass in
    remarks; `contraction_form` one of `CONTRACTION_FORMS`)."""
    # `FuseChainThroughAdd` runs after every chain is fused (a branch is then one op), in a
    # set of its own (`FuseLinearChain`'s step memo assumes no other pattern rewrites in
    # its sweep).
    reader = ConstantFolder(ctx)
    rule = CostRule() if rule is None else rule
    through_add = FuseChainThroughAdd(reader, rule, pass_name)
    return [
        *populate_mixed_precision_patterns(),  # f16: the truncf between two linear ops goes
        # A sum of a sum becomes one sum (LayerNorm's mean of a global pool, `sums_of_sums`)
        # before a chain takes the second as a matmul of the first's result, and before
        # `FuseSumThroughAdd` turns the first into a contraction.
        PatternSet.of(FuseSumOfSum(reader, rule, pass_name)),
        PatternSet.of(FuseLinearChain(reader, slot_budget, rule, pass_name, contraction_form)),
        PatternSet.of(through_add, FuseMatmulThroughAdd(reader, rule, pass_name, through_add.kept),
                      FuseChainThroughFork(reader, rule, pass_name, through_add.kept),
                      FuseMatmulThroughFork(reader, rule, pass_name, through_add.kept),
                      FuseMatmulOfConvTokens(reader, rule, pass_name, through_add.kept),
                      FuseMatmulThroughRowSum(reader, rule, pass_name, through_add.kept),
                      FuseConvOfConcat(reader, rule, pass_name, through_add),
                      FuseSumThroughAdd(reader, rule, pass_name, through_add)),
        # Through a pad that does not move, with edge corrections (`edge_corrections`):
        # after `FuseConvOfConcat` has composed the conv after a concat through it.
        PatternSet.of(FuseChainThroughFork(reader, rule, pass_name, through_add.kept, edges=True)),
        # A per-position constant scale after a 1x1 conv and an affine decode (YOLO's
        # stride multiply): the conv becomes a contraction taking it (`position_scales`).
        PatternSet.of(FoldPositionScaleIntoConv(reader, rule, pass_name)),
        *populate_narrow_unused_widening_patterns(),  # a widening no fold used is undone
    ]


@dataclass(frozen=True)
class LinalgFuseLinearChainsPass(ModulePass):
    """Fuse each chain of linear ops with no nonlinearity between into one linear op.

    Example: conv(3x3) → conv(2x2) on constant weights becomes one conv with a 4x4
    composed filter (tests/filecheck/transforms/linalg-fuse-linear-chains/docstring.mlir).

    `slot-budget` (default 1024, HEIR's default slot count; 0 = no limit): a chain is
    fused into a dense matrix only when its input and output vectors each fit
    max(slot-budget, L) CKKS slots, L being the longest secret tensor that a linear op
    of the same function outside the chain reads or writes (measured before any chain
    of the function is fused) or that the function takes or returns (`SlotBudget`): a
    matrix no longer than a vector the function already carries needs no larger ring.
    E.g. LeNet-5's pool2+FC1 matrix (1600 x 120) fuses at the default budget because
    conv1 writes 6x28x28 = 4704 elements, and a chain that is the whole function fuses
    whatever its input's length
    (tests/filecheck/transforms/linalg-fuse-linear-chains/slot-budget.mlir).

    Cost rule (`heirpy.transforms.linear.fusion_cost`): `policy=depth|balanced|size`
    (default `balanced`: fuse when the fused weights are at most `max-weight-growth`
    times the replaced ones per level saved, default 4), `max-mac-growth=X` (also bound
    MACs per sample; default 0, off), `max-constant-growth=X` (refuse a chain whose
    stored constants, a contraction's dense matrix and the inits included, grow more than
    X per level saved; default 0: such a chain is fused with a remark past 1.5x per level),
    `constant-budget=X` (0, off, here: each chain is judged alone; `linalg-fuse-ops`, the
    main pipeline, sets 1.5: the module's constants may grow at most X per level the
    growing chains buy, compounded, else those chains are all refused, with a remark
    either way: `constant_budget.py`), `contraction-form=auto|matmul|generic` (how a
    global pool + Linear is written, see the module doc; default auto).
    """

    name = "linalg-fuse-linear-chains"
    slot_budget: int = DEFAULT_SLOT_COUNT
    policy: str = DEFAULT_POLICY
    max_weight_growth: int | float = DEFAULT_MAX_WEIGHT_GROWTH
    max_mac_growth: int | float = 0
    max_diagonal_growth: int | float = DEFAULT_MAX_DIAGONAL_GROWTH
    orion_slots: int = DEFAULT_ORION_SLOTS
    max_constant_growth: int | float = 0
    constant_budget: int | float = 0
    free_constant_bytes: int = DEFAULT_FREE_CONSTANT_BYTES
    max_bought_weight_growth: int | float = DEFAULT_MAX_BOUGHT_WEIGHT_GROWTH
    contraction_form: str = "auto"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rule = cost_rule(
            self.policy, self.max_weight_growth, self.max_mac_growth, self.name,
            self.max_diagonal_growth, self.orion_slots, self.max_constant_growth,
        )
        check_contraction_form(self.contraction_form, self.name)
        check_constant_budget(self.constant_budget, self.name)
        check_free_constant_bytes(self.free_constant_bytes, self.name)
        check_max_bought_weight_growth(self.max_bought_weight_growth, self.name)
        budget = self.slot_budget or None

        def run(module: ModuleOp, chosen: CostRule) -> None:
            apply_pattern_sets(module, populate_linalg_fuse_linear_chains_patterns(
                ctx, budget, chosen, contraction_form=self.contraction_form))

        fuse_within_budget(op, run, rule, float(self.constant_budget), self.name, self.free_constant_bytes,
                           float(self.max_bought_weight_growth))
