"""`linalg-fuse-ops`, the umbrella fusion pass: pattern groups applied in a fixed order.

The groups, in order (each runs to a fixpoint before the next starts, because each
later group matches what the earlier ones produce):

| option         | group                        | module (function)                                      |
|----------------|------------------------------|--------------------------------------------------------|
| `conv-pool`    | conv + sum/avg pool          | `conv_pool_fusion` (`conv_pool_patterns`)              |
| `linear-chains`| whole linear chains          | `linear_chains` (`linear_chain_patterns`)              |
| `pointwise`    | pointwise across layout ops  | `linalg_fuse_pointwise` (`pointwise_fusion_patterns`)  |
| `pointwise`    | reduction root + epilogue    | `linalg_fuse_pointwise` (`kernel_formation_patterns`)  |

conv + pool goes first so that the linear-chain group sees `fused_conv_pool` ops, and
pointwise fusion goes last so that it never hides a linear op inside a kernel (its
two phases are two groups under one option, as `linalg-fuse-pointwise` runs them). A
group whose module is not part of this installation is skipped (the table is the one
place to add a group: one line in `PATTERN_GROUPS`). Every group can be switched off,
e.g. `linalg-fuse-ops{conv-pool=false}`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from importlib.util import find_spec

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    RewritePattern,
)


@dataclass(frozen=True)
class PatternGroup:
    """A named list of patterns, provided by `function` of `heirpy.transforms.<module>`."""

    option: str  # the pass option (field) that switches it on/off
    module: str
    function: str

    def available(self) -> bool:
        return find_spec(f"heirpy.transforms.{self.module}") is not None

    def patterns(self, ctx: Context) -> list[RewritePattern]:
        factory: Callable[..., Sequence[RewritePattern]] = getattr(
            import_module(f"heirpy.transforms.{self.module}"), self.function
        )
        # Groups that fold constants take the context (dense_resource blobs live there).
        takes_ctx = bool(inspect.signature(factory).parameters)
        return list(factory(ctx) if takes_ctx else factory())


PATTERN_GROUPS: tuple[PatternGroup, ...] = (
    PatternGroup("conv_pool", "conv_pool_fusion", "conv_pool_patterns"),
    PatternGroup("linear_chains", "linear_chains", "linear_chain_patterns"),
    PatternGroup("pointwise", "linalg_fuse_pointwise", "pointwise_fusion_patterns"),
    PatternGroup("pointwise", "linalg_fuse_pointwise", "kernel_formation_patterns"),
)


def apply_groups(module: ModuleOp, ctx: Context, groups: Sequence[PatternGroup]) -> None:
    """Run each group to a fixpoint, in order."""
    for group in groups:
        if not group.available():
            continue
        patterns = group.patterns(ctx)
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
