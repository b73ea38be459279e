"""`linalg-fuse-ops`, the umbrella fusion pass: pattern groups applied in a fixed order.

The groups, in order (each runs to a fixpoint before the next starts, because each
later group matches what the earlier ones produce):

| option          | group                        | pattern sets from                            |
|-----------------|------------------------------|----------------------------------------------|
| `linear-ops`    | bias / scale / batch-norm    | `populate_linalg_fuse_linear_ops_patterns`   |
|                 | into the preceding linear op |                                              |
| `conv-pool`     | conv + sum/avg pool          | `populate_linalg_fuse_conv_pool_patterns`    |
| `linear-chains` | whole linear chains          | `populate_linalg_fuse_linear_chains_patterns`|
| `pointwise`     | pointwise across layout ops, | `populate_linalg_fuse_pointwise_patterns`    |
|                 | then root + epilogue kernels |                                              |

Folding constant arithmetic into linear ops goes first: a batch-norm after a conv (or a
depthwise conv, or a matmul) is four elementwise ops, each a level under CKKS when it
multiplies, and once folded the conv meets its pool or the next linear op directly.
conv + pool goes next so that the linear-chain group sees `fused_conv_pool` ops, and
pointwise fusion goes last so that it never hides a linear op inside a kernel. Each
group is its component pass's own pattern sets, run by the same helper
(`heirpy.transforms.rewrite.apply_pattern_sets`), so with the other groups switched off
(e.g. `linalg-fuse-ops{conv-pool=false linear-chains=false}`) the umbrella prints
exactly what the component pass prints (tests/unit/test_linalg_fuse_ops.py checks this
on every FileCheck input of the component passes).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heirpy.analysis.slots import DEFAULT_SLOT_COUNT
from heirpy.transforms.linear.constant_budget import (
    DEFAULT_CONSTANT_BUDGET,
    DEFAULT_FREE_CONSTANT_BYTES,
    fuse_within_budget,
)
from heirpy.transforms.linear.fusion_cost import (
    DEFAULT_MAX_BOUGHT_WEIGHT_GROWTH,
    DEFAULT_MAX_DIAGONAL_GROWTH,
    DEFAULT_MAX_WEIGHT_GROWTH,
    DEFAULT_ORION_SLOTS,
    DEFAULT_POLICY,
    CostRule,
    check_constant_budget,
    check_free_constant_bytes,
    check_max_bought_weight_growth,
    cost_rule,
)
from heirpy.transforms.linear.linalg_fuse_conv_pool import (
    populate_linalg_fuse_conv_pool_patterns,
)
from heirpy.transforms.linear.linalg_fuse_linear_chains import (
    check_contraction_form,
    populate_linalg_fuse_linear_chains_patterns,
)
from heirpy.transforms.linear.linalg_fuse_linear_ops import (
    populate_linalg_fuse_linear_ops_patterns,
)
from heirpy.transforms.pointwise.linalg_fuse_pointwise import (
    populate_linalg_fuse_pointwise_patterns,
)
from heirpy.transforms.rewrite import PatternSet, apply_pattern_sets


def populate_linalg_fuse_ops_patterns(
    ctx: Context | None = None,
    *,
    linear_ops: bool = True,
    conv_pool: bool = True,
    linear_chains: bool = True,
    pointwise: bool = True,
    slot_budget: int | None = DEFAULT_SLOT_COUNT,
    rule: CostRule | None = None,
    bias_into_init: bool = False,
    pass_name: str = "linalg-fuse-linear-chains",
    iree_reductions: bool = False,
    contraction_form: str = "auto",
) -> list[PatternSet]:
    """The component passes' own pattern sets, in the umbrella's order: the same
    patterns with the same walker settings as `linalg-fuse-linear-ops`,
    `linalg-fuse-conv-pool`, `linalg-fuse-linear-chains` and `linalg-fuse-pointwise`
    run; `slot_budget` is the linear-chain group's, `rule` the cost rule of the
    conv-pool and linear-chain groups, `bias_into_init` the linear-op group's bias
    rule (false here: a bias left as an add is the epilogue of its kernel, and IREE
    moves a non-zero init of a named op back out into an add), `iree_reductions` the
    pointwise group's (`linalg-fuse-pointwise{iree-reductions=true}`, IREE's rule),
    `contraction_form` the linear-chain group's (`linalg-fuse-linear-chains`)."""
    sets: list[PatternSet] = []
    if linear_ops:
        sets += populate_linalg_fuse_linear_ops_patterns(ctx, bias_into_init, rule)
    if conv_pool:
        sets += populate_linalg_fuse_conv_pool_patterns(rule)
    if linear_chains:
        sets += populate_linalg_fuse_linear_chains_patterns(
            ctx, slot_budget, rule, pass_name, contraction_form=contraction_form)
    if pointwise:
        sets += populate_linalg_fuse_pointwise_patterns(iree_reductions=iree_reductions)
    return sets


@dataclass(frozen=True)
class LinalgFuseOpsPass(ModulePass):
    """Fuse linalg ops for encrypted inference: bias/BN folding, conv+pool, linear chains, pointwise.

        %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>)
               outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
        %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>}
               ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>)
               outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
      ==>
        %p = tensor_ext.fused_conv_pool {..., pool_window = array<i64: 2, 2>, ...}
               ins(%x, %w, %ci : ...) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>

    Options switch groups off: `linalg-fuse-ops{linear-ops=false}`,
    `{conv-pool=false}`, `{linear-chains=false}`, `{pointwise=false}`; `policy`,
    `max-weight-growth` and `max-mac-growth` are the cost rule of the conv-pool and
    linear-chain groups, as for `linalg-fuse-conv-pool` and `linalg-fuse-linear-chains`;
    `bias-into-init` is the linear-op group's bias rule (default false, unlike
    `linalg-fuse-linear-ops`); `iree-reductions` the pointwise group's (default
    false, as `linalg-fuse-pointwise`); `contraction-form` (auto|matmul|generic,
    default auto) how the linear-chain group writes a global pool + Linear
    (`linalg-fuse-linear-chains`); `constant-budget` (default 1.5; 0: off) holds
    the module's stored constants to 1.5x per level the growing linear chains buy, else
    refuses them (`heirpy.transforms.linear.constant_budget`); the order is in
    `populate_linalg_fuse_ops_patterns` (tests/filecheck/transforms/linalg-fuse-ops/
    docstring.mlir runs the example).
    """

    name = "linalg-fuse-ops"

    linear_ops: bool = True
    conv_pool: bool = True
    linear_chains: bool = True
    pointwise: bool = True
    slot_budget: int = DEFAULT_SLOT_COUNT
    """Passed to `linalg-fuse-linear-chains` (0 = no limit)."""
    policy: str = DEFAULT_POLICY
    max_weight_growth: int | float = DEFAULT_MAX_WEIGHT_GROWTH
    max_mac_growth: int | float = 0
    max_diagonal_growth: int | float = DEFAULT_MAX_DIAGONAL_GROWTH
    orion_slots: int = DEFAULT_ORION_SLOTS
    max_constant_growth: int | float = 0
    """The linear-chain group's bound on stored constants (`linalg-fuse-linear-chains`)."""
    constant_budget: int | float = DEFAULT_CONSTANT_BUDGET
    """The linear-chain group's model-level weight budget, per level bought
    (`heirpy.transforms.linear.constant_budget`; 0: off)."""
    free_constant_bytes: int = DEFAULT_FREE_CONSTANT_BYTES
    """Growth of at most this many bytes is kept whatever its ratio (`constant_budget.py`)."""
    max_bought_weight_growth: int | float = DEFAULT_MAX_BOUGHT_WEIGHT_GROWTH
    """The most, per level saved, that the weight budget buys a chain's weight growth at,
    past `max-weight-growth` (`constant_budget.py`; at most `max-weight-growth`: none)."""
    bias_into_init: bool = False
    """The linear-op group's bias rule (see `linalg-fuse-linear-ops`, whose default,
    HEIR's, is true)."""
    iree_reductions: bool = False
    """The pointwise group's rule for producers read by reductions (see
    `linalg-fuse-pointwise`; `iree-prepare` sets it)."""
    contraction_form: str = "auto"
    """The linear-chain group's form for a global pool + Linear (`linalg-fuse-linear-chains`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rule = cost_rule(
            self.policy, self.max_weight_growth, self.max_mac_growth, self.name,
            self.max_diagonal_growth, self.orion_slots, self.max_constant_growth,
        )
        check_constant_budget(self.constant_budget, self.name)
        check_free_constant_bytes(self.free_constant_bytes, self.name)
        check_max_bought_weight_growth(self.max_bought_weight_growth, self.name)
        check_contraction_form(self.contraction_form, self.name)

        def groups(chosen: CostRule, early: bool = False, chains: bool = False,
                   late: bool = False) -> list[PatternSet]:
            return populate_linalg_fuse_ops_patterns(
                ctx,
                linear_ops=early and self.linear_ops,
                conv_pool=early and self.conv_pool,
                linear_chains=chains and self.linear_chains,
                pointwise=late and self.pointwise,
                slot_budget=self.slot_budget or None,
                rule=chosen,
                bias_into_init=self.bias_into_init,
                pass_name=self.name,
                iree_reductions=self.iree_reductions,
                contraction_form=self.contraction_form,
            )

        # The groups in order, the linear-chain group within the weight budget (it is
        # the one that can grow the constants: `constant_budget.py`).
        apply_pattern_sets(op, groups(rule, early=True))
        if self.linear_chains:
            fuse_within_budget(
                op, lambda module, chosen: apply_pattern_sets(module, groups(chosen, chains=True)),
                rule, float(self.constant_budget), self.name, self.free_constant_bytes,
                float(self.max_bought_weight_growth),
            )
        apply_pattern_sets(op, groups(rule, late=True))
