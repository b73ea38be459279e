"""generalize-direct-conv: its rule at each limit and on each side of it (output width a
multiple of 8, H and W apart; 64 to 80 filters or a power of two under 64; a 3x3 window;
unit strides and dilations; f32 only), and numerics with the evaluator: the generic equals the named conv for batches,
channel counts, non-square inputs, zero and bias inits, constant and run-time filters, and
`as_generic` keeps torch-mlir's f16 form's casts. (Which convs keep their named op in IR:
tests/filecheck/transforms/generalize-direct-conv/cases.mlir.)"""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.generalize_direct_conv import (
    MAX_FILTERS,
    MIN_WIDE_FILTERS,
    WIDTH_MULTIPLE,
    direct_pays,
    filters_pay,
    populate_generalize_direct_conv_patterns,
)
from heirpy.transforms.rewrite import apply_pattern_sets


def _pays(filters: int = 64, oh: int = 16, ow: int = 16, k: tuple[int, int] = (3, 3),
          strides: tuple[int, int] = (1, 1), dilations: tuple[int, int] = (1, 1), all_f32: bool = True) -> bool:
    kh, kw = k
    x = (1, 32, oh + kh - 1, ow + kw - 1)
    return direct_pays(x, (filters, 32, kh, kw), (1, filters, oh, ow), strides, dilations, all_f32)


def test_rule_width_multiple_of_8_with_h_and_w_apart() -> None:
    assert WIDTH_MULTIPLE == 8
    for ow in (8, 16, 24, 40, 80):
        assert _pays(oh=80, ow=ow)
    for ow in (7, 9, 15, 17, 20, 10, 4):
        assert not _pays(oh=80, ow=ow)
    # A power-of-two width, whatever the height.
    assert _pays(oh=20, ow=16) and _pays(oh=1, ow=8) and _pays(oh=16, ow=32) and _pays(oh=2, ow=64)
    # Any other multiple of 8: only up to the height (at it, one under, one over).
    assert _pays(oh=40, ow=40) and _pays(oh=41, ow=40) and not _pays(oh=39, ow=40)
    assert _pays(oh=24, ow=24) and not _pays(oh=16, ow=24) and not _pays(oh=8, ow=40)
    assert not _pays(oh=16, ow=20) and not _pays(oh=8, ow=7)


def test_rule_filters_at_and_around_the_bounds() -> None:
    assert (MIN_WIDE_FILTERS, MAX_FILTERS) == (64, 80)
    # 64 to 80: every count, at both ends and inside.
    assert all(filters_pay(f) for f in (64, 65, 72, 79, 80))
    assert not filters_pay(81) and not filters_pay(96) and not filters_pay(128)
    # Under 64: powers of two only (63 and 48 just under, 33 and 31 beside 32).
    assert all(filters_pay(f) for f in (1, 2, 8, 16, 32))
    assert not any(filters_pay(f) for f in (63, 56, 48, 40, 33, 31, 24, 3, 0, -16))
    assert _pays(filters=80) and _pays(filters=64) and _pays(filters=32)
    assert not _pays(filters=81) and not _pays(filters=63) and not _pays(filters=48)


def test_rule_window_strides_dilations_element() -> None:
    assert not _pays(k=(1, 1)) and not _pays(k=(5, 5)) and not _pays(k=(3, 1)) and not _pays(k=(1, 3))
    assert not _pays(strides=(2, 2)) and not _pays(strides=(1, 2)) and not _pays(strides=(2, 1))
    assert not _pays(dilations=(2, 1)) and not _pays(dilations=(1, 2))
    assert not _pays(all_f32=False)
    assert not direct_pays(None, (8, 8, 3, 3), (1, 8, 8, 8), (1, 1), (1, 1), True)  # a dynamic dimension
    assert not direct_pays((1, 8, 10, 10), (8, 8, 3, 3), None, (1, 1), (1, 1), True)


def _text(n: int, c: int, f: int, oh: int, ow: int, element: str, acc: str, constant: bool, bias: bool,
          stride: int = 1) -> str:
    """A 3x3 conv of an n x c input with output oh x ow: f filters, `element` operands, an
    `acc` init (torch-mlir's f16 conv: f16 operands, f32 init)."""
    ih, iw = (oh - 1) * stride + 3, (ow - 1) * stride + 3
    x, w = f"tensor<{n}x{c}x{ih}x{iw}x{element}>", f"tensor<{f}x{c}x3x3x{element}>"
    o = f"tensor<{n}x{f}x{oh}x{ow}x{acc}>"
    rng = np.random.default_rng(c * 31 + f + oh + 7 * ow)
    args = [f"%x: {x}"] + ([] if constant else [f"%w: {w}"])
    lines = [f"func.func @main({', '.join(args)}) -> {o} {{"]
    if constant:
        lines.append(f"  %w = arith.constant dense<{np.round(rng.standard_normal((f, c, 3, 3)), 3).tolist()}> : {w}")
    lines.append(f"  %e = tensor.empty() : {o}")
    if bias:
        lines.append(f"  %b = arith.constant dense<{np.round(rng.standard_normal(f), 3).tolist()}> : tensor<{f}x{acc}>")
        lines.append(f"  %init = linalg.broadcast ins(%b : tensor<{f}x{acc}>) outs(%e : {o}) dimensions = [0, 2, 3]")
    else:
        lines.append(f"  %zero = arith.constant 0.0 : {acc}")
        lines.append(f"  %init = linalg.fill ins(%zero : {acc}) outs(%e : {o}) -> {o}")
    lines.append(
        f"  %r = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : "
        f"vector<2xi64>}} ins(%x, %w : {x}, {w}) outs(%init : {o}) -> {o}"
    )
    lines += [f"  return %r : {o}", "}"]
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("n", "c", "f", "oh", "ow", "constant", "bias"),
    [
        (1, 16, 16, 8, 8, True, False),  # the smallest width, a zero init
        (1, 3, 80, 5, 16, True, True),  # at MAX_FILTERS, H and W apart, a bias init
        (2, 4, 8, 24, 24, False, True),  # a batch, run-time filters, a width no power of two
        (1, 5, 2, 9, 8, False, False),  # H over W
    ],
)
def test_generic_equals_the_conv_f32(n: int, c: int, f: int, oh: int, ow: int, constant: bool, bias: bool) -> None:
    before = parse(_text(n, c, f, oh, ow, "f32", "f32", constant, bias))
    after = parse(print_module(before))
    run_pipeline(after, "generalize-direct-conv")
    ops = [op.name for op in after.walk()]
    assert "linalg.conv_2d_nchw_fchw" not in ops
    assert ops.count("linalg.generic") == 1
    report = check_equivalence(before, after, function="main", seeds=(0, 1, 2))
    assert report.ok, report.summary()


@pytest.mark.parametrize(
    ("f", "oh", "ow", "element", "acc", "stride"),
    [
        (81, 4, 8, "f32", "f32", 1),  # one filter over the bound
        (63, 4, 8, "f32", "f32", 1),  # one under MIN_WIDE_FILTERS, no power of two
        (48, 4, 16, "f32", "f32", 1),  # RepVGG-A0's stage 1
        (8, 8, 20, "f32", "f32", 1),  # a width no multiple of 8
        (8, 8, 16, "f32", "f32", 2),  # strided
        (8, 8, 16, "f16", "f32", 1),  # torch-mlir's f16 form
        (8, 8, 16, "f16", "f16", 1),
    ],
)
def test_convs_the_rule_declines_are_left(f: int, oh: int, ow: int, element: str, acc: str, stride: int) -> None:
    text = _text(1, 2, f, oh, ow, element, acc, True, False, stride)
    module = parse(text)
    run_pipeline(module, "generalize-direct-conv")
    assert print_module(module) == print_module(parse(text))


@pytest.mark.parametrize(("element", "acc"), [("f16", "f32"), ("f16", "f16"), ("f32", "f32")])
def test_generic_keeps_the_casts(element: str, acc: str) -> None:
    """Every conv generalised, whatever the rule (what the benchmark times): the generic's
    body is the named op's, casts included, so the sums are the same."""
    before = parse(_text(1, 3, 4, 4, 6, element, acc, True, True))
    after = parse(print_module(before))
    apply_pattern_sets(after, populate_generalize_direct_conv_patterns(everywhere=True))
    text = print_module(after)
    assert "linalg.conv_2d_nchw_fchw" not in text
    assert ("arith.extf" in text) == (element != acc)
    report = check_equivalence(before, parse(text), function="main", seeds=(0, 1))
    assert report.ok, report.summary()


def test_iree_prepare_runs_it_with_im2col_only() -> None:
    """Under IREE's defaults the generic buys nothing, so plain `iree-prepare` keeps the named
    conv; `iree-prepare{im2col=true}` generalises it, and the result still computes the conv."""
    text = _text(1, 4, 16, 6, 16, "f32", "f32", True, True)
    assert "linalg.conv_2d_nchw_fchw" in print_module(run_pipeline(parse(text), "iree-prepare"))
    prepared = print_module(run_pipeline(parse(text), "iree-prepare{im2col=true}"))
    assert "linalg.conv_2d_nchw_fchw" not in prepared
    report = check_equivalence(parse(text), parse(prepared), function="main", seeds=(0, 1))
    assert report.ok, report.summary()
