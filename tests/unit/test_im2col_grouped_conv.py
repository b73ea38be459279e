"""im2col-grouped-conv: its legality rule, numerics with the evaluator, what IREE makes of it,
and `iree-prepare{im2col=true}`.

The patches copy and the batched contraction equal the named grouped conv on random inputs
for batches, groups, channels per group at the limit (2) and above, asymmetric H and W,
windows, strides and dilations (each axis on its own), constant and run-time filters,
zero and non-zero inits, f32, f16 and f16 accumulating in f32. The real iree-compile turns
the contraction into a matmul-like dispatch where the named op stayed a conv (the reason
for the rewrite; times are for benchmarks/bench_grouped_conv.py). Which convs keep their
named op: tests/filecheck/transforms/im2col-grouped-conv/cases.mlir.
"""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest
from xdsl.dialects.builtin import f16, f32, i32

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.ir.diagnostics import HeirpyError
from heirpy.transforms.iree.im2col_grouped_conv import MIN_GROUP_CHANNELS, im2col_legal
from heirpy.transforms.iree.iree_prepare import iree_prepare_passes, iree_prepare_pipeline

BEST_FLAGS = ("--iree-opt-data-tiling", "--iree-global-opt-use-im2col-for-convs")


def test_legality_rule_at_its_limit() -> None:
    assert MIN_GROUP_CHANNELS == 2
    assert im2col_legal((1, 3, 2, 8, 8), (3, 4, 2, 3, 3), (f32, f32, f32))  # at the limit
    assert im2col_legal((1, 3, 3, 8, 8), (3, 4, 3, 3, 3), (f32, f32, f32))  # above
    assert not im2col_legal((1, 3, 1, 8, 8), (3, 4, 1, 3, 3), (f32, f32, f32))  # below: depthwise-like
    assert im2col_legal((1, 3, 8, 8, 8), (3, 8, 8, 3, 3), (f16, f16, f32))
    assert not im2col_legal((1, 3, 8, 8, 8), (3, 8, 8, 3, 3), (i32, i32, i32))
    assert not im2col_legal(None, (3, 8, 8, 3, 3), (f32, f32, f32))  # a dynamic dimension
    assert not im2col_legal((1, 3, 8, 8, 8), None, (f32, f32, f32))


def _text(
    n: int, g: int, c: int, f: int, hw: tuple[int, int], k: tuple[int, int], stride: tuple[int, int],
    dilation: tuple[int, int], element: str, acc: str, constant: bool, bias: bool,
) -> str:
    """A grouped conv (g groups of c input and f output channels) of an n x (g*c) x H x W input."""
    (ih, iw), (kh, kw), (sh, sw), (dh, dw) = hw, k, stride, dilation
    oh, ow = (ih - (kh - 1) * dh - 1) // sh + 1, (iw - (kw - 1) * dw - 1) // sw + 1
    x = f"tensor<{n}x{g}x{c}x{ih}x{iw}x{element}>"
    w = f"tensor<{g}x{f}x{c}x{kh}x{kw}x{element}>"
    o = f"tensor<{n}x{g}x{f}x{oh}x{ow}x{acc}>"
    rng = np.random.default_rng(g * 97 + c * 13 + ih + 5 * iw + sh + 3 * sw)
    weights = np.round(rng.uniform(-1, 1, (g, f, c, kh, kw)), 3).tolist()
    args = f"%x: {x}" + ("" if constant else f", %w: {w}")
    filter_def = f"  %w = arith.constant dense<{weights}> : {w}\n" if constant else ""
    init = f"  %i = arith.constant dense<{0.25 if bias else 0.0}> : {o}\n"
    return f"""
func.func @main({args}) -> {o} {{
{filter_def}{init}  %r = linalg.conv_2d_ngchw_gfchw {{dilations = dense<[{dh}, {dw}]> : vector<2xi64>, strides = dense<[{sh}, {sw}]> : vector<2xi64>}} ins(%x, %w : {x}, {w}) outs(%i : {o}) -> {o}
  return %r : {o}
}}
"""


CASES = [  # n, g, c, f, (H, W), (KH, KW), (SH, SW), (DH, DW), element, accumulator, constant, bias
    (1, 3, 2, 2, (6, 6), (3, 3), (1, 1), (1, 1), "f32", "f32", True, False),  # c at the limit
    (1, 3, 8, 8, (9, 9), (3, 3), (2, 2), (1, 1), "f32", "f32", True, True),  # RegNet's stride-2 form
    (2, 2, 3, 5, (7, 5), (3, 3), (1, 1), (1, 1), "f32", "f32", False, True),  # batch 2, H != W, run-time filter
    (1, 2, 4, 3, (8, 6), (3, 2), (1, 1), (1, 1), "f32", "f32", True, False),  # KH != KW
    (1, 2, 4, 4, (9, 7), (3, 3), (2, 1), (1, 1), "f32", "f32", True, True),  # stride in H only
    (1, 2, 4, 4, (7, 9), (3, 3), (1, 2), (1, 1), "f32", "f32", True, True),  # stride in W only
    (1, 2, 2, 2, (9, 8), (3, 3), (1, 1), (2, 1), "f32", "f32", True, False),  # dilation in H only
    (1, 2, 2, 2, (8, 9), (3, 3), (1, 1), (1, 2), "f32", "f32", True, False),  # dilation in W only
    (1, 1, 4, 4, (5, 5), (3, 3), (1, 1), (1, 1), "f32", "f32", True, False),  # one group
    (1, 3, 8, 8, (9, 9), (3, 3), (2, 2), (1, 1), "f16", "f32", True, True),  # torch-mlir's half conv
    (1, 2, 4, 4, (6, 7), (3, 3), (1, 1), (1, 1), "f16", "f16", False, True),  # pure f16
]


@pytest.mark.parametrize("case", CASES)
def test_im2col_keeps_the_values(case: tuple) -> None:
    text = _text(*case)
    before = parse(text)
    after = run_pipeline(parse(text), "im2col-grouped-conv")
    printed = print_module(after)
    assert "linalg.conv_2d_ngchw_gfchw" not in printed
    assert printed.count("linalg.generic") == 2  # the patches copy and the contraction
    # Same products in the same order (c, kh, kw): the evaluator's values are the conv's
    # when it accumulates wide. A pure f16 accumulation rounds at each of its c*kh*kw steps
    # in MLIR's semantics; the evaluator rounds the named conv and the contraction at
    # different points, so it is judged at f16's precision (about 36 products of |x| <= 6).
    tight = case[9] != "f16"
    report = check_equivalence(
        before, after, function="main", seeds=(0, 1), rtol=1e-6 if tight else 1e-2, atol=1e-6 if tight else 0.1
    )
    assert report.ok, report.summary()


def test_one_channel_per_group_keeps_the_named_op() -> None:
    text = _text(1, 4, 1, 1, (6, 6), (3, 3), (1, 1), (1, 1), "f32", "f32", True, False)
    assert "linalg.conv_2d_ngchw_gfchw" in print_module(run_pipeline(parse(text), "im2col-grouped-conv"))


def _kinds(text: str) -> list[str]:
    """The executables iree-compile forms for `text` under the best CPU flags (llvm-cpu)."""
    found = find_iree_compile()
    if found is None:
        pytest.fail("iree-compile not found: install the test extras (pip install -e '.[test]')")
    result = subprocess.run(
        [found, *COMPILE_FLAGS, *BEST_FLAGS, "--compile-to=flow", "-", "-o", "-"],
        input=text, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr[:2000]
    return re.findall(r"flow\.executable\.export\s+public\s+@main_dispatch_\d+_(\w+)", result.stdout)


def test_iree_runs_the_contraction_as_a_matmul() -> None:
    """The named grouped conv stays a `conv` dispatch under IREE's best flags (no im2col for
    it); heirpy's form is a patches copy and a `matmul_like` dispatch."""
    text = _text(1, 3, 8, 8, (34, 34), (3, 3), (2, 2), (1, 1), "f32", "f32", True, False)
    raw = _kinds(text)
    ours = _kinds(print_module(run_pipeline(parse(text), "im2col-grouped-conv")))
    assert any(k.startswith("conv_") for k in raw), raw
    assert not any(k.startswith("conv_") for k in ours), ours
    assert any(k.startswith("matmul_like_") for k in ours), ours


def test_iree_prepare_runs_it_only_when_asked() -> None:
    default = [p.name for p in iree_prepare_passes("cpu")]
    assert "im2col-grouped-conv" not in default
    assert [p.name for p in iree_prepare_passes("cpu", im2col=True)] == [
        *default, "im2col-grouped-conv", "generalize-direct-conv"]
    text = _text(1, 3, 8, 8, (9, 9), (3, 3), (2, 2), (1, 1), "f32", "f32", True, True)
    named = print_module(run_pipeline(parse(text), "iree-prepare{im2col=true}"))
    assert named == print_module(run_pipeline(parse(text), iree_prepare_pipeline("cpu", im2col=True)))
    assert "linalg.conv_2d_ngchw_gfchw" not in named
    assert "linalg.conv_2d_ngchw_gfchw" in print_module(run_pipeline(parse(text), "iree-prepare"))
    report = check_equivalence(parse(text), parse(named), function="main", seeds=(0,))
    assert report.ok, report.summary()


def test_im2col_is_refused_for_the_gpu_target() -> None:
    text = _text(1, 2, 2, 2, (6, 6), (3, 3), (1, 1), (1, 1), "f32", "f32", True, False)
    with pytest.raises(HeirpyError, match="im2col is for the cpu target only"):
        run_pipeline(parse(text), "iree-prepare{target=gpu im2col=true}")
