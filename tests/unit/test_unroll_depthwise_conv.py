"""unroll-depthwise-conv: its legality rule, and numerics with the evaluator. The sum of
slices equals the named depthwise conv on random inputs for batches, channel counts,
windows up to 7x7 (MAX_TAPS), dilations, constant and run-time filters, zero and non-zero inits, f32
and f16; the ops it leaves behind are the slices and one generic. (Which convs must keep
their named op: tests/filecheck/transforms/unroll-depthwise-conv/cases.mlir.)"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import f16, f32, i32

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.unroll_depthwise_conv import MAX_TAPS, unrollable


def test_unrollable_rule() -> None:
    assert unrollable((1, 96, 34, 34), (96, 3, 3), (1, 1), f32)
    assert unrollable((2, 8, 5, 5), (8, 1, 1), (1, 1), f16)
    assert not unrollable((1, 96, 34, 34), (96, 3, 3), (2, 2), f32)  # strided
    assert not unrollable((1, 96, 34, 34), (96, 3, 3), (1, 2), f32)
    # At the bound (7x7 = 49 taps, ConvNeXt's window) and on each side of it, H and W apart.
    assert MAX_TAPS == 49
    assert unrollable((1, 8, 13, 13), (8, 7, 7), (1, 1), f32)
    assert unrollable((1, 8, 13, 55), (8, 1, 49), (1, 1), f16)
    assert unrollable((1, 8, 13, 13), (8, 6, 8), (1, 1), f32)  # 48 taps
    assert not unrollable((1, 8, 13, 14), (8, 7, 8), (1, 1), f32)  # 56 taps
    assert not unrollable((1, 8, 14, 13), (8, 8, 7), (1, 1), f32)
    assert not unrollable((1, 8, 55, 13), (8, 50, 1), (1, 1), f32)  # 50 taps
    assert not unrollable((1, 8, 13, 13), (8, 7, 7), (1, 1), f32, max_taps=48)  # the option
    assert unrollable((1, 8, 13, 13), (8, 3, 3), (1, 1), f32, max_taps=9)
    assert not unrollable((1, 8, 13, 13), (8, 5, 5), (1, 1), f32, max_taps=9)
    assert not unrollable((1, 8, 9, 9), (8, 3, 3), (1, 1), i32)
    assert not unrollable(None, (8, 3, 3), (1, 1), f32)  # a dynamic dimension
    assert not unrollable((1, 8, 9, 9), None, (1, 1), f32)


def _text(
    n: int, c: int, h: int | tuple[int, int], k: tuple[int, int], dilation: int | tuple[int, int], element: str,
    constant: bool, bias: bool, acc: str | None = None,
) -> str:
    """A depthwise conv of an n x c x h x w input; `h` and `dilation` are (H, W) pairs or one
    value for both; `acc` the init's and result's element type if not `element` (torch-mlir's
    f16 conv reads f16 and accumulates in f32)."""
    kh, kw = k
    ih, iw = h if isinstance(h, tuple) else (h, h)
    dh, dw = dilation if isinstance(dilation, tuple) else (dilation, dilation)
    oh, ow = ih - (kh - 1) * dh, iw - (kw - 1) * dw
    x, w = f"tensor<{n}x{c}x{ih}x{iw}x{element}>", f"tensor<{c}x{kh}x{kw}x{element}>"
    o = f"tensor<{n}x{c}x{oh}x{ow}x{acc or element}>"
    init_element = acc or element
    rng = np.random.default_rng(c * 31 + ih + 7 * iw)
    weights = np.round(rng.standard_normal((c, kh, kw)), 3).tolist()
    args = [f"%x: {x}"] + ([] if constant else [f"%w: {w}"])
    lines = [f"func.func @main({', '.join(args)}) -> {o} {{"]
    if constant:
        lines.append(f"  %w = arith.constant dense<{weights}> : {w}")
    lines.append(f"  %e = tensor.empty() : {o}")
    if bias:
        values = np.round(rng.standard_normal(c), 3).tolist()
        lines.append(f"  %b = arith.constant dense<{values}> : tensor<{c}x{init_element}>")
        lines.append(f"  %init = linalg.broadcast ins(%b : tensor<{c}x{init_element}>) outs(%e : {o}) dimensions = [0, 2, 3]")
    else:
        lines.append(f"  %zero = arith.constant 0.0 : {init_element}")
        lines.append(f"  %init = linalg.fill ins(%zero : {init_element}) outs(%e : {o}) -> {o}")
    lines.append(
        f"  %r = linalg.depthwise_conv_2d_nchw_chw {{dilations = dense<[{dh}, {dw}]> : vector<2xi64>, "
        f"strides = dense<1> : vector<2xi64>}} ins(%x, %w : {x}, {w}) outs(%init : {o}) -> {o}"
    )
    lines += [f"  return %r : {o}", "}"]
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("n", "c", "h", "k", "dilation", "element", "constant", "bias", "acc"),
    [
        (1, 16, 6, (3, 3), 1, "f32", True, True, None),  # MobileNetV2's form: 3x3, folded BN bias
        (2, 3, 7, (3, 3), 2, "f32", True, False, None),
        (1, 5, 4, (2, 3), 1, "f32", False, True, None),
        (3, 2, 3, (1, 1), 1, "f32", False, False, None),
        (1, 4, 6, (3, 3), 1, "f16", True, True, None),
        # H and W on their own: unequal dilations (either way), a non-square input and window
        (1, 3, (7, 9), (3, 3), (1, 2), "f32", True, False, None),
        (1, 2, (9, 6), (3, 2), (2, 1), "f32", False, True, None),
        (1, 2, (6, 9), (2, 3), (1, 3), "f16", True, True, None),
        # ConvNeXt's 7x7 and MobileNetV3's 5x5, at the bound and under it, f32 and f16 (as
        # torch-mlir writes it: f16 read, f32 accumulated; an all-f16 sum of 25-49 taps
        # rounds at each add, as MLIR's semantics and the unrolled sum do, where heirpy's
        # evaluator sums the named conv's products before it rounds); 7x5 and 5x7 windows
        (1, 4, 10, (7, 7), 1, "f32", True, True, None),
        (1, 3, 9, (7, 7), 1, "f16", True, False, "f32"),
        (1, 3, (11, 8), (5, 5), (1, 1), "f16", False, True, "f32"),
        (1, 2, (9, 12), (7, 5), (1, 2), "f32", True, False, None),
        (1, 2, (12, 9), (5, 7), (2, 1), "f16", True, True, "f32"),
    ],
)
def test_sum_of_slices_equals_the_conv(
    n: int, c: int, h: int | tuple[int, int], k: tuple[int, int], dilation: int | tuple[int, int], element: str,
    constant: bool, bias: bool, acc: str | None,
) -> None:
    before = parse(_text(n, c, h, k, dilation, element, constant, bias, acc))
    after = parse(print_module(before))
    run_pipeline(after, "unroll-depthwise-conv")
    ops = [op.name for op in after.walk()]
    assert "linalg.depthwise_conv_2d_nchw_chw" not in ops
    assert ops.count("tensor.extract_slice") == k[0] * k[1] * (1 if constant else 2)
    assert ops.count("linalg.generic") == 1
    report = check_equivalence(before, after, function="main", seeds=(0, 1, 2))
    assert report.ok, report.summary()
