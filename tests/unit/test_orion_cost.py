"""heirpy.transforms.linear.orion_cost: Orion's layouts read from IR, and the diagonals
the fusion passes weigh under `policy=diagonals` (the FileCheck side is
tests/filecheck/transforms/linalg-fuse-linear-chains/orion_diagonals.mlir)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

import heirpy
from heirpy.analysis.orion_packing import Layout, conv_diagonals, conv_output_layout, dense_mask, pool_mask
from heirpy.transforms.linear.fusion_cost import CostRule, FusionCost
from heirpy.transforms.linear.linalg_fuse_conv_pool import populate_linalg_fuse_conv_pool_patterns
from heirpy.transforms.linear.linalg_fuse_linear_chains import populate_linalg_fuse_linear_chains_patterns
from heirpy.transforms.linear.orion_cost import op_diagonals, orion_layouts, regrouped
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



PLANE_FROM = """
func.func @main(%a: tensor<{src}xf32>) -> tensor<1x2x4x4xf32> {{
  {reshape}
  %w1 = arith.constant dense<0.5> : tensor<2x3x1x1xf32>
  %w2 = arith.constant dense<0.25> : tensor<2x2x1x1xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w1 : tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %d = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%c, %w2 : tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %d : tensor<1x2x4x4xf32>
}}
"""
VECTOR_TO_PLANE = ("48", "%x = tensor.expand_shape %a [[0, 1, 2, 3]] output_shape [1, 3, 4, 4] "
                   ": tensor<48xf32> into tensor<1x3x4x4xf32>")
PLANE_TO_PLANE = ("1x3x2x8", "%v = tensor.collapse_shape %a [[0], [1], [2, 3]] : tensor<1x3x2x8xf32> into "
                  "tensor<1x3x16xf32>\n  %x = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [1, 3, 4, 4] "
                  ": tensor<1x3x16xf32> into tensor<1x3x4x4xf32>")


def test_a_plane_made_by_a_reshape_is_laid_out_afresh() -> None:
    """A conv reading a vector expanded into an image (the dtype fuzz's mixed form made
    Orion's chain pass raise "not enough values to unpack" here), or an image reshaped
    into another: the plane starts a clear layout of its own, and the chain still fuses."""
    from heirpy.api import clone_module, run_pipeline
    from heirpy.export.orion import ORION_PIPELINE
    from heirpy.interp.evaluator import run_function

    for src, reshape in (VECTOR_TO_PLANE, PLANE_TO_PLANE):
        module = heirpy.parse(PLANE_FROM.format(src=src, reshape=reshape), "plane.mlir")
        layouts = orion_layouts(function(module))
        conv = layouts.linear_ops[0]
        assert layouts.values[conv.operands[0]] == Layout((1, 3, 4, 4))
        after = clone_module(module)
        run_pipeline(after, ORION_PIPELINE)
        assert sum(op.name == "linalg.conv_2d_nchw_fchw" for op in function(after).walk()) == 1
        shape = tuple(int(d) for d in src.split("x"))
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        np.testing.assert_allclose(run_function(after, "main", [x])[0], run_function(module, "main", [x])[0],
                                   rtol=1e-6, atol=1e-6)


SUM_OVER_CHANNELS = """
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sum = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
func.func @main(%a: tensor<1x3x4x4x{t}>) -> tensor<1x2x4x4x{t}> {{
  %w1 = arith.constant dense<0.5> : tensor<2x1x1x1x{t}>
  %w2 = arith.constant dense<0.25> : tensor<2x2x1x1x{t}>
  %z = arith.constant 0.0 : {t}
  %e1 = tensor.empty() : tensor<1x1x4x4x{t}>
  %f1 = linalg.fill ins(%z : {t}) outs(%e1 : tensor<1x1x4x4x{t}>) -> tensor<1x1x4x4x{t}>
  %x = linalg.generic {{indexing_maps = [#map, #sum], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}} ins(%a : tensor<1x3x4x4x{t}>) outs(%f1 : tensor<1x1x4x4x{t}>) {{
  ^bb0(%in: {t}, %out: {t}):
    %s = arith.addf %in, %out : {t}
    linalg.yield %s : {t}
  }} -> tensor<1x1x4x4x{t}>
  %e = tensor.empty() : tensor<1x2x4x4x{t}>
  %f = linalg.fill ins(%z : {t}) outs(%e : tensor<1x2x4x4x{t}>) -> tensor<1x2x4x4x{t}>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w1 : tensor<1x1x4x4x{t}>, tensor<2x1x1x1x{t}>) outs(%f : tensor<1x2x4x4x{t}>) -> tensor<1x2x4x4x{t}>
  %d = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%c, %w2 : tensor<1x2x4x4x{t}>, tensor<2x2x1x1x{t}>) outs(%f : tensor<1x2x4x4x{t}>) -> tensor<1x2x4x4x{t}>
  return %d : tensor<1x2x4x4x{t}>
}}
"""


def test_a_plane_made_by_a_contraction_is_laid_out_afresh() -> None:
    """A conv reading a 4-D contraction that is no window (a sum over the channels): Orion
    runs it as a Linear, whose output a conv reads as a clear image. Laying it out as the
    Linear's (N, F) made Orion's chain pass raise "not enough values to unpack (expected
    4, got 2)"; now the plane starts a clear 4-D layout, and the chain fuses, in f32 and
    f16."""
    from heirpy.api import clone_module, run_pipeline
    from heirpy.export.orion import ORION_PIPELINE
    from heirpy.interp.evaluator import run_function

    for element, tolerance in (("f32", 1e-6), ("f16", 4e-3)):
        module = heirpy.parse(SUM_OVER_CHANNELS.format(t=element), "sum.mlir")
        layouts = orion_layouts(function(module))
        assert len(layouts.linear_ops) == 3
        assert layouts.values[layouts.linear_ops[1].operands[0]] == Layout((1, 1, 4, 4))
        after = clone_module(module)
        run_pipeline(after, ORION_PIPELINE)
        # The sum and both convs, all linear, become one matmul (one level for three).
        assert [op.name for op in function(after).body.block.ops if op.name.startswith("linalg.")
                and op.name != "linalg.fill"] == ["linalg.matmul"]
        x = np.random.default_rng(0).standard_normal((1, 3, 4, 4)).astype(np.dtype(element.replace("f", "float")))
        np.testing.assert_allclose(run_function(after, "main", [x])[0].astype(np.float32),
                                   run_function(module, "main", [x])[0].astype(np.float32),
                                   rtol=tolerance, atol=tolerance)


CONCAT = Path(__file__).resolve().parents[1] / "filecheck/transforms/linalg-fuse-linear-chains/orion_concat.mlir"


@pytest.mark.parametrize("chunk", [0, 1], ids=["f32", "f16"])
def test_a_concat_over_the_channels_has_its_own_layout(chunk: int) -> None:
    """GhostNet's ghost module: a depthwise conv reading cat(a, b) over the channels.
    The concat was laid out as `a` (2 channels) while the conv's weights have 4: at 16
    slots "index 155 is out of bounds for axis 0 with size 128", at 8192 a count of the
    wrong matrix. Now it is the 4-channel image the conv reads, and each step counts as
    the same conv on a clear 1 x 4 x 4 x 4 input; the pipeline leaves it as it was."""
    from heirpy.api import clone_module, run_pipeline
    from heirpy.export.orion import ORION_PIPELINE
    from heirpy.interp.evaluator import run_function

    text = CONCAT.read_text().split("// -----")[chunk]
    module = heirpy.parse(text, str(CONCAT))
    layouts = orion_layouts(function(module))
    depthwise, pointwise = layouts.linear_ops
    cat = next(op for op in function(module).walk() if op.name == "tensor.concat")
    assert layouts.values[cat.results[0]] == Layout((1, 4, 4, 4))
    x = Layout((1, 4, 4, 4))
    for slots in (16, 8192):
        weight = np.ones((4, 1, 3, 3), dtype=bool)  # as the chain reads a depthwise filter
        mask = weight * np.eye(4, dtype=bool)[:, :, None, None]
        assert op_diagonals(depthwise, layouts, slots, mask) == conv_diagonals(
            pool_mask(4, (3, 3)), x, (4, 4), padding=1, slots=slots)
        assert op_diagonals(pointwise, layouts, slots) == conv_diagonals(
            dense_mask(4, 4, (1, 1)), x, (4, 4), slots=slots, last=True)
    after = clone_module(module)
    run_pipeline(after, ORION_PIPELINE.replace("diagonals", "diagonals orion-slots=16"))
    dtype = np.float16 if chunk else np.float32
    rng = np.random.default_rng(0)
    args = [rng.standard_normal((1, 2, 4, 4)).astype(dtype) for _ in range(2)]
    np.testing.assert_allclose(run_function(after, "ghost_concat" + ("_f16" if chunk else ""), args)[0],
                               run_function(module, "ghost_concat" + ("_f16" if chunk else ""), args)[0])


def test_regrouped_keeps_the_gap_and_the_plane() -> None:
    """A concat or channel slice of a gap-2 value (4 channels to a plane) keeps the gap
    and the 8 x 8 plane; a value at gap 1 or of another rank is laid out in the clear."""
    x = Layout((1, 2, 4, 4), 2, (1, 1, 8, 8))
    assert regrouped(x, (1, 8, 4, 4)) == Layout((1, 8, 4, 4), 2, (1, 2, 8, 8))
    assert regrouped(x, (1, 5, 4, 4)) == Layout((1, 5, 4, 4), 2, (1, 2, 8, 8))
    assert regrouped(x, (1, 1, 4, 4)) == Layout((1, 1, 4, 4), 2, (1, 1, 8, 8))
    assert regrouped(Layout((1, 2, 4, 4)), (1, 4, 4, 4)) == Layout((1, 4, 4, 4))
    assert regrouped(Layout((1, 196, 192)), (1, 197, 192)) == Layout((1, 197, 192))
