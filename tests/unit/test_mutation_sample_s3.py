"""Behaviours the fresh mutation sample of 2026-12-07 (seed 20261207, one mutant per module
the wave touched) found untested: each test fails on the surviving mutant named beside it
(docs/testing.md, "The fresh sample of 2026-12-07")."""

from __future__ import annotations

from heirpy.analysis.heir_command import DEFAULT_LEVEL_BUDGET, command_remark
from heirpy.api import parse, print_module, run_pipeline
from heirpy.tools.heirpy_heir import budget_hint


def test_budget_hint_names_a_budget_above_heirs_default_and_only_then() -> None:
    """heirpy_heir.budget_hint read the flag's value from a group the pattern lacks."""
    above = ["heir-opt", f"--torch-linalg-to-ckks=greedy-level-budget={DEFAULT_LEVEL_BUDGET + 1}"]
    at = ["heir-opt", f"--torch-linalg-to-ckks=greedy-level-budget={DEFAULT_LEVEL_BUDGET}"]
    assert f"--level-budget {DEFAULT_LEVEL_BUDGET} lets it bootstrap instead" in budget_hint(above)
    assert budget_hint(at) == ""
    assert budget_hint(["heir-opt", "--torch-linalg-to-ckks"]) == ""


def test_command_remark_by_default_names_the_level_budget() -> None:
    """heir_command.command_remark's `exact` defaults to true: a module whose depth HEIR
    counts as heirpy does gets the budget named, not the "keeps strided convs" remark."""
    remark = command_remark("heir-prepare", "main", 1024, 20)
    assert "greedy-level-budget=21" in remark and "strided convs" not in remark
    assert "strided convs" in command_remark("heir-prepare", "main", 1024, 20, exact=False)


READ_TWICE = """
#in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @f(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3x4x4x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%acc : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e2 = tensor.empty() : tensor<1x3x4x4x2xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x3x4x4xf32>) outs(%e2 : tensor<1x3x4x4x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x3x4x4x2xf32>
  return %s : tensor<1x3x4x4x2xf32>
}
"""


def test_no_kernel_for_an_epilogue_that_reads_its_conv_twice() -> None:
    """form_kernel.FormKernel: an epilogue over 2x the conv's points (a broadcast read) would
    recompute the conv inside a kernel; `kernel_read_is_whole` refuses it (the mutant
    `sizes is None and ...` formed the kernel)."""
    module = parse(READ_TWICE)
    run_pipeline(module, "linalg-fuse-pointwise")
    text = print_module(module)
    assert "tensor_ext.kernel" not in text and "linalg.conv_2d_nchw_fchw" in text
