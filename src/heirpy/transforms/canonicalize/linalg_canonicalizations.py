"""`linalg-canonicalizations`: normalise front-end linalg IR the way HEIR's pass does.

    // RUN (tests/filecheck/transforms/linalg-canonicalizations/docstring.mlir):
    %c = arith.constant 1.0 : f32
    %f = linalg.fill ins(%c : f32) outs(%e : tensor<1x4xf32>) -> tensor<1x4xf32>
    %r = linalg.generic {indexing_maps = [id, id, id], iterator_types = ["parallel", "parallel"]}
           ins(%x, %f : ...) outs(%e : tensor<1x4xf32>) { addf }
  ==>
    %c = arith.constant dense<1.0> : tensor<1x4xf32>
    %r = arith.addf %x, %c : tensor<1x4xf32>

The pattern families (one class per pattern) live in five package-private modules:
`fold_constants` (constant folding), `linear` (dilated convs,
standalone pools, transposed matvecs), `batch_matmul` (a batch_matmul whose right operand
is one constant matrix for every batch, as a matmul on the collapsed batch), `elementwise` (broadcasts,
transposes in maps, elementwise generic/map -> arith/math ops on tensors, constant
operands of commutative arith ops last, as MLIR's folder orders them) and
`softmax` (torch's written-out softmax -> `linalg.softmax`); then `polynomial`
rewrites a quadratic activation, however written, as (s*x + t)^2 + k (`CompleteTheSquare`),
and last `affine_readers` gives each linear op that reads a batch norm after an
activation its own copy of it, which fusion folds in (`AffineRunPerLinearReader`; not
under a cost rule that bounds MACs, as `iree-prepare`'s does).

Rule for conv + pool (a conv followed by a sum/avg pool is never split into two
linear ops): the pass first applies `conv_pool_patterns()` from
`heirpy.transforms.linear.linalg_fuse_conv_pool` on its own, so every conv + pool (+ constant
divide) becomes `tensor_ext.fused_conv_pool` before any pool -> conv rewrite can see the
pool; only then do the other patterns run (with the conv-pool group again, for pairs
another rewrite exposes). As a second guard the pool -> conv patterns never fire on a
pool whose input a conv produces. Finally, with the default option `conv-pool=conv`,
the fused ops this pass made are lowered to HEIR's form (`LowerFusedConvPool` with
`fold_init_term=False`): ONE `linalg.conv_2d_nchw_fchw` of the input with the
composed, strided filter, whose init is the conv's init pooled -- written, as HEIR
writes it, as a second conv whose operands are all plaintext (constants, or run-time
plaintext), so it costs no level; `linalg-fuse-linear-ops` folds it when it is made of
constants (`FoldPlaintextLinearOp`). The output is standard linalg that heir-opt
accepts; `conv-pool=fused` keeps `tensor_ext.fused_conv_pool`.

Differences from HEIR (heir-opt 2026.11.1), each deliberate:
* which conv + pool pairs become one conv is decided by heirpy's cost rule (options
  `policy`, `max-weight-growth`, `max-mac-growth`); a pair it refuses stays a conv
  and a pool, and `conv-pool=fused` keeps `fused_conv_pool` (see above).
* with `max-mac-growth` set (a back end that pays multiply-accumulates), a standalone
  pool stays a pool instead of a conv with a diagonal filter (C times its work).
* HEIR folds an average pool's divide into the filter but leaves a non-zero init
  undivided, which changes the result; heirpy divides the init too, or keeps the divide.
* folds are bounded: a non-splat folded constant is at most 1 MiB (HEIR bounds only
  the resource it reads), so broadcast biases of real models stay broadcasts.
* a softmax written out as torch-mlir's five ops (max, subtract, exp, sum, divide)
  becomes `linalg.softmax` (`canonicalize/softmax.py`): IREE raises that chain itself,
  but not once later fusions have merged its pieces.
* dead ops left behind (empty tensors, transposes, constants) are removed, as MLIR's
  greedy driver does; nothing else is touched.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
)
from xdsl.transforms.dead_code_elimination import region_dce

from heirpy.ir.constants import NO_BLOBS, ContextBlobs
from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.dialects.tensor_ext import FusedConvPoolOp
from heirpy.transforms.canonicalize.affine_readers import AffineRunPerLinearReader
from heirpy.transforms.canonicalize.batch_matmul import BATCH_MATMUL_PATTERNS
from heirpy.transforms.canonicalize.elementwise import (
    ELEMENTWISE_PATTERNS,
    GenericToElementwise,
    MapToElementwise,
)
from heirpy.transforms.canonicalize.fold_constants import CONSTANT_PATTERNS, ConstantPattern
from heirpy.transforms.canonicalize.linear import LINEAR_PATTERNS, PoolToConv1D, PoolToConv2D
from heirpy.transforms.canonicalize.polynomial import CompleteTheSquare, ScaleEachAddend
from heirpy.transforms.canonicalize.softmax import RaiseSoftmax
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.fusion_cost import (
    DEFAULT_MAX_DIAGONAL_GROWTH,
    DEFAULT_MAX_WEIGHT_GROWTH,
    DEFAULT_ORION_SLOTS,
    DEFAULT_POLICY,
    CostRule,
    cost_rule,
)
from heirpy.transforms.linear.linalg_fuse_conv_pool import SpellingTable, conv_pool_patterns
from heirpy.transforms.linear.mixed_precision import (
    populate_mixed_precision_patterns,
    populate_narrow_unused_widening_patterns,
)
from heirpy.transforms.lowering.lower_tensor_ext import LowerFusedConvPool
from heirpy.transforms.rewrite import PatternSet, apply_pattern_sets


def canonicalization_patterns(
    ctx: Context | None = None, *, elementwise: bool = True, pools_to_convs: bool = True
) -> list[RewritePattern]:
    """Every pattern of the pass except the conv-pool group, in a fixed order
    (`pools_to_convs=False`: without the standalone pool -> conv patterns).

    Without `ctx`, `dense_resource` constants read as unknown (nothing of them folds)."""
    blobs = NO_BLOBS if ctx is None else ContextBlobs(ctx)
    patterns: list[RewritePattern] = []
    for cls in (*CONSTANT_PATTERNS, *LINEAR_PATTERNS, *BATCH_MATMUL_PATTERNS, *ELEMENTWISE_PATTERNS):
        if not elementwise and cls in (GenericToElementwise, MapToElementwise):
            continue
        if not pools_to_convs and cls in (PoolToConv2D, PoolToConv1D):
            continue
        # Patterns that read constants need the dense_resource blobs of the context.
        patterns.append(cls(blobs) if issubclass(cls, ConstantPattern) else cls())
    return patterns


def populate_linalg_canonicalizations_patterns(
    ctx: Context | None = None,
    *,
    elementwise: bool = True,
    rule: CostRule | None = None,
    spellings: SpellingTable | None = None,
) -> list[PatternSet]:
    """The pass's sets: torch's five-op softmax raised to `linalg.softmax` while it is
    still in torch's form (before any elementwise rewrite); conv + pool fusion alone, so
    no pool -> conv rewrite can see a pool that a conv feeds; then every pattern, the
    conv-pool group included (for pairs another rewrite exposes). `rule` decides which
    conv + pool pairs are worth one conv (default: the balanced rule), and a rule that
    bounds MACs (`max_mac_growth` > 0) keeps standalone pools as pools: HEIR's pool ->
    conv form has a diagonal [C, C, KH, KW] filter, C times the pool's work for no level
    saved, which a back end that pays MACs (IREE) would run; such a rule also raises only
    a softmax over the last axis (`RaiseSoftmax.innermost_only`). `spellings` collects the
    attribute spelling of each conv + pool fused."""
    pools_to_convs = rule is None or rule.max_mac_growth == 0
    sets = [
        PatternSet.of(RaiseSoftmax(innermost_only=not pools_to_convs)),
        *populate_mixed_precision_patterns(),  # f16's truncf moved past linear runs
        PatternSet.of(*conv_pool_patterns(rule, spellings)),
        PatternSet.of(
            *conv_pool_patterns(rule, spellings),
            *canonicalization_patterns(ctx, elementwise=elementwise, pools_to_convs=pools_to_convs),
        ),
    ]
    if elementwise:
        # Last, once every elementwise generic is an arith op on tensors: a quadratic
        # activation must be seen whole (a cubic's x² is not one), not while its
        # pieces are still generics.
        sets += [PatternSet.of(CompleteTheSquare()), PatternSet.of(ScaleEachAddend())]
    if pools_to_convs:
        # A back end that pays MACs (IREE) keeps one batch norm; under CKKS each linear
        # reader takes its own copy in, and the level is saved.
        sets.append(PatternSet.of(AffineRunPerLinearReader(ConstantFolder(ctx))))
    # Last: a widening no fold used goes back to torch-mlir's narrow operands.
    return [*sets, *populate_narrow_unused_widening_patterns()]


@dataclass(frozen=True)
class LinalgCanonicalizationsPass(ModulePass):
    """Normalise front-end linalg IR like HEIR: fold constants, undilate convs, pools to convs, generics to tensor ops.

    Option `elementwise` (default true): turn elementwise generic/map ops into arith/math
    ops on tensors, as HEIR does; `elementwise=false` keeps them as linalg ops.
    Option `conv-pool` (default `conv`): a conv + sum/avg pool becomes one conv with the
    composed, strided filter; `fused` keeps it as `tensor_ext.fused_conv_pool`.
    Options `policy`, `max-weight-growth`, `max-mac-growth`: whether a conv + pool pair
    is worth the composed filter's growth (the cost rule of `linalg-fuse-conv-pool`;
    a pair the rule refuses stays a conv and a pool). With `max-mac-growth` set, a
    standalone pool also stays a pool (as a conv its diagonal filter is C times the
    work: `iree-prepare` sets it).
    """

    name = "linalg-canonicalizations"

    elementwise: bool = True
    conv_pool: str = "conv"
    policy: str = DEFAULT_POLICY
    max_weight_growth: int | float = DEFAULT_MAX_WEIGHT_GROWTH
    max_mac_growth: int | float = 0
    max_diagonal_growth: int | float = DEFAULT_MAX_DIAGONAL_GROWTH
    orion_slots: int = DEFAULT_ORION_SLOTS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.conv_pool not in ("conv", "fused"):
            raise HeirpyError(
                f"error: linalg-canonicalizations{{conv-pool={self.conv_pool}}}: "
                "expected 'conv' or 'fused'"
            )
        rule = cost_rule(
            self.policy, self.max_weight_growth, self.max_mac_growth, self.name,
            self.max_diagonal_growth, self.orion_slots,
        )
        already_fused = {o for o in op.walk() if isinstance(o, FusedConvPoolOp)}
        spellings: SpellingTable = {}
        sets = populate_linalg_canonicalizations_patterns(
            ctx, elementwise=self.elementwise, rule=rule, spellings=spellings
        )
        apply_pattern_sets(op, sets)
        if self.conv_pool == "conv" and lower_new_fused_ops(ctx, op, already_fused, spellings):
            # The lowering makes fills and broadcasts of constants; fold them now so a
            # second run of the pass finds nothing to do.
            apply_pattern_sets(op, sets[2:])
        region_dce(op.body)


def lower_new_fused_ops(
    ctx: Context, module: ModuleOp, keep: Container[Operation], spellings: SpellingTable | None = None
) -> bool:
    """Lower the fused_conv_pool ops this pass made (not those it was given) to one conv,
    whose `strides` / `dilations` are spelled as the fused conv's (`spellings`) and the
    pool of its init's as the fused pool's.

    Returns whether there were any."""
    lowering = LowerFusedConvPool(ctx, spellings or {}, fold_init_term=False)
    made_here = [o for o in module.walk() if isinstance(o, FusedConvPoolOp) and o not in keep]
    for fused in made_here:
        lowering.match_and_rewrite(fused, PatternRewriter(fused))
    return bool(made_here)
