"""`linalg-fuse-ops`, the umbrella fusion pass: pattern groups applied in a fixed order.

The groups, in order (each runs to a fixpoint before the next starts, because each
later group matches what the earlier ones produce):

| option          | group                        | patterns from                                   |
|-----------------|------------------------------|-------------------------------------------------|
| `conv-pool`     | conv + sum/avg pool          | `linear.linalg_fuse_conv_pool`                  |
| `linear-chains` | whole linear chains          | `linear.linalg_fuse_linear_chains`              |
| `pointwise`     | pointwise across layout ops  | `pointwise.linalg_fuse_pointwise` (phase 1)     |
| `pointwise`     | reduction root + epilogue    | `pointwise.linalg_fuse_pointwise` (phase 2)     |

conv + pool goes first so that the linear-chain group sees `fused_conv_pool` ops, and
pointwise fusion goes last so that it never hides a linear op inside a kernel (its
two phases are two groups under one option, as `linalg-fuse-pointwise` runs them).
`PATTERN_GROUPS` is the one place to add a group. Every group can be switched off,
e.g. `linalg-fuse-ops{conv-pool=false}`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    RewritePattern,
)

from heirpy.transforms.linear.linalg_fuse_conv_pool import conv_pool_patterns
from heirpy.transforms.linear.linalg_fuse_linear_chains import linear_chain_patterns
from heirpy.transforms.pointwise.linalg_fuse_pointwise import (
    kernel_formation_patterns,
    pointwise_fusion_patterns,
)


@dataclass(frozen=True)
class PatternGroup:
    """A list of patterns switched on and off by one pass option."""

    option: str  # the pass option (field) that switches it on/off
    patterns: Callable[[Context], Sequence[RewritePattern]]


PATTERN_GROUPS: tuple[PatternGroup, ...] = (
    PatternGroup("conv_pool", lambda ctx: conv_pool_patterns()),
    PatternGroup("linear_chains", linear_chain_patterns),
    PatternGroup("pointwise", lambda ctx: pointwise_fusion_patterns()),
    PatternGroup("pointwise", lambda ctx: kernel_formation_patterns()),
)


def apply_groups(module: ModuleOp, ctx: Context, groups: Sequence[PatternGroup]) -> None:
    """Run each group to a fixpoint, in order."""
    for group in groups:
        patterns = list(group.patterns(ctx))
        if patterns:
            PatternRewriteWalker(
                GreedyRewritePatternApplier(patterns), apply_recursively=True
            ).rewrite_module(module)


@dataclass(frozen=True)
class LinalgFuseOpsPass(ModulePass):
    """Fuse linalg ops for encrypted inference: conv+pool, then linear chains, then pointwise.

        %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>)
               outs(%ci : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
        %p = linalg.pooling_nchw_sum {strides = dense<2> : vector<2xi64>}
               ins(%c, %win : tensor<1x2x4x4xf32>, tensor<2x2xf32>)
               outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
      ==>
        %p = tensor_ext.fused_conv_pool {..., pool_window = array<i64: 2, 2>, ...}
               ins(%x, %w, %ci : ...) outs(%pi : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>

    Options switch groups off: `linalg-fuse-ops{conv-pool=false}`,
    `{linear-chains=false}`, `{pointwise=false}`. The order and the modules are in
    `PATTERN_GROUPS` (tests/filecheck/transforms/linalg-fuse-ops/docstring.mlir runs
    the example).
    """

    name = "linalg-fuse-ops"

    conv_pool: bool = True
    linear_chains: bool = True
    pointwise: bool = True

    def enabled_groups(self) -> list[PatternGroup]:
        return [g for g in PATTERN_GROUPS if getattr(self, g.option)]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_groups(op, ctx, self.enabled_groups())
