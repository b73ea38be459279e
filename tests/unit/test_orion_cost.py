"""heirpy.transforms.linear.orion_cost: Orion's layouts read from IR, and the diagonals
the fusion passes weigh under `policy=diagonals` (the FileCheck side is
tests/filecheck/transforms/linalg-fuse-linear-chains/orion_diagonals.mlir)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

import heirpy
from heirpy.analysis.orion_packing import Layout, conv_diagonals, conv_output_layout, dense_mask, pool_mask
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost
from heirpy.transforms.linear.linalg_fuse_conv_pool import populate_linalg_fuse_conv_pool_patterns
from heirpy.transforms.linear.linalg_fuse_linear_chains import populate_linalg_fuse_linear_chains_patterns
from heirpy.transforms.linear.orion_cost import op_diagonals, orion_layouts
from heirpy.transforms.rewrite import apply_pattern_sets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_conv_pool_fusion import Case  # noqa: E402

TAIL = Path(__file__).resolve().parents[1] / "filecheck/transforms/linalg-fuse-linear-chains/orion_diagonals.mlir"


class Recording(CostRule):
    """The diagonals rule, remembering every cost it was asked about."""

    seen: list[FusionCost]

    def allows(self, cost: FusionCost) -> bool:
        self.seen.append(cost)
        return super().allows(cost)


def recording() -> Recording:
    rule = Recording("diagonals")
    object.__setattr__(rule, "seen", [])
    return rule


def vgg_tail() -> ModuleOp:
    chunk = TAIL.read_text().split("// -----")[0]
    return heirpy.parse(chunk, str(TAIL))


def function(module: ModuleOp) -> FuncOp:
    return next(op for op in module.ops if isinstance(op, FuncOp))


def test_layouts_follow_orions_shape_propagation() -> None:
    layouts = orion_layouts(function(vgg_tail()))
    pool, gap, linear = layouts.linear_ops
    assert [op.name for op in layouts.linear_ops] == ["linalg.pooling_nchw_sum", "linalg.generic", "linalg.matmul"]
    assert layouts.values[pool.results[0]] == Layout((1, 64, 4, 4), 2, (1, 16, 8, 8))
    assert layouts.values[gap.results[0]] == Layout((1, 64, 1, 1), 8, (1, 1, 8, 8))
    assert layouts.values[linear.results[0]] == Layout((1, 10))
    assert layouts.is_last(linear) and not layouts.is_last(pool)
    assert [op_diagonals(op, layouts, 8192) for op in layouts.linear_ops] == [144, 32, 73]


def test_a_fused_kernel_that_sums_h_and_w_is_a_pool_for_the_layout() -> None:
    """After linalg-fuse-ops the global pool and its divide sit in one tensor_ext.kernel;
    the Linear after it still reads gap 8."""
    module = vgg_tail()
    heirpy.run_pipeline(module, "linalg-fuse-ops{slot-budget=0 policy=diagonals}")
    layouts = orion_layouts(function(module))
    assert [op.name for op in layouts.linear_ops] == ["linalg.pooling_nchw_sum", "tensor_ext.kernel", "linalg.matmul"]
    kernel = layouts.linear_ops[1]
    assert layouts.values[kernel.results[0]].gap == 8


def test_chain_pass_weighs_what_orion_would_pack() -> None:
    """The tail's chain, read from a function argument: 144 + 32 + 73 diagonals before,
    the 10 x 4096 Linear's 4105 after; refused."""
    module = vgg_tail()
    rule = recording()
    apply_pattern_sets(module, populate_linalg_fuse_linear_chains_patterns(None, None, rule))
    assert [(c.levels_saved, c.diagonals_before, c.diagonals_after) for c in rule.seen] == [(2, 249, 4105)]
    assert [op.name for op in function(module).body.block.ops].count("linalg.matmul") == 1
    assert "linalg.pooling_nchw_sum" in [op.name for op in function(module).body.block.ops]


def test_conv_pool_pattern_weighs_the_composed_conv() -> None:
    """A 3x3 conv (2 -> 4 channels, 8x8) and a 2x2 pool of stride 2 against the 4x4
    stride-2 conv they compose to, the function's last linear layer."""
    module = heirpy.parse(Case(c=2, f=4).text(seed=1), "case.mlir")
    rule = recording()
    apply_pattern_sets(module, populate_linalg_fuse_conv_pool_patterns(rule))
    x = Layout((1, 2, 8, 8))
    conv = conv_diagonals(dense_mask(4, 2, (3, 3)), x, (6, 6))
    pool = conv_diagonals(pool_mask(4, (2, 2)), conv_output_layout(x, 4, (6, 6), 1), (3, 3), stride=2, last=True)
    composed = conv_diagonals(dense_mask(4, 2, (4, 4)), x, (3, 3), stride=2, last=True)
    (cost,) = rule.seen
    assert (cost.diagonals_before, cost.diagonals_after) == (conv + pool, composed)
    assert rule.allows(cost) == (composed <= 2 * (conv + pool))


def test_a_zero_pad_before_a_conv_is_its_padding() -> None:
    text = """func.func @f(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x4x4xf32> to tensor<1x1x6x6xf32>
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%z : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %c : tensor<1x1x4x4xf32>
}
"""
    layouts = orion_layouts(function(heirpy.parse(text, "pad.mlir")))
    (conv,) = layouts.linear_ops
    assert layouts.conv_input(conv.operands[0]) == (Layout((1, 1, 4, 4)), 1)
    # Orion's Conv2d(padding=1) on 4x4: the 9 offsets -5..5 (without +-2), square (last).
    assert op_diagonals(conv, layouts, 16) == 9
    assert op_diagonals(conv, layouts, 16, np.eye(3, dtype=bool)[None, None]) == 3
