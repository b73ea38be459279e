"""`iree-prepare` never gives IREE more dispatches than the raw IR for half-precision
classifiers under IREE's defaults (issue 37; issue 34's f16 form).

Two heads in torch-mlir's `.half()` form, each compiled by the real iree-compile
(`--compile-to=flow`, llvm-cpu; a missing tool fails the test, it never skips):

* a global average pool and a Linear whose f16 weight is over `MAX_FOLDED_BYTES` once
  widened (generated here from a seed): heirpy's pointwise fusion merged torch-mlir's
  weight transpose into its `extf`, a generic IREE neither folds at compile time (it
  widens) nor fuses into the matmul (it permutes): one dispatch per call more than raw
  (MobileNetV2 f16: 56 against 55). `detach-constant-transpose` takes the two apart.
* ViT's class-token classifier (tests/filecheck/Inputs/f16_class_token_head.mlir): the
  input's `extf` before a flatten and a weight folded to f32 made the widening a dispatch
  of its own (raw 2, heirpy 3). `narrow-contraction-inputs` gives the matmul its f16
  inputs back.
* a stack of four ViT-like blocks (tests/filecheck/Inputs/f16_block_stack.mlir): the last
  block's residual add, read only by a final LayerNorm, stored `extf` of itself and
  compiled to an executable the other blocks could not share (raw 7 executables, heirpy
  8; 14 dispatches per call in both). `sink-widening-casts` stores the f16 value.
* a stack of three inverted-residual blocks (`residual_stack`, generated here from a
  seed): heirpy's f16 rule computed the residual adds in f32 on the unrounded
  projections, so the middle block's projection dispatch stored an f32 copy of the
  stream beside its rounding and no longer shared the last block's executable (raw 3
  executables, heirpy 4; 6 dispatches per call in both; MobileNetV2 and
  EfficientNet-lite0 f16). `narrow-rounded-reads` makes the adds read the roundings.

Each reproducer is sharp (without its step, one dispatch, or executable, more than raw)
and keeps its values (heirpy's evaluator, raw against prepared); the two heads' f32 twins
are left as they were.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.iree_prepare import iree_prepare_pipeline

INPUTS = Path(__file__).resolve().parents[1] / "filecheck" / "Inputs"
_EXECUTABLE = re.compile(r"flow\.executable\.export\s+public\s+@(\w+)")
_DISPATCH = re.compile(r"flow\.dispatch @")


@cache
def _counts(text: str) -> tuple[int, int, tuple[str, ...]]:
    """(executables, dispatches run by @main, executable names) under IREE's defaults."""
    found = find_iree_compile()
    if found is None:
        pytest.fail("iree-compile not found: install the test extras (pip install -e '.[test]')")
    result = subprocess.run([found, *COMPILE_FLAGS, "--compile-to=flow", "-", "-o", "-"],
                            input=text, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[:2000]
    main = result.stdout[result.stdout.find("util.func public @main"):]
    names = tuple(_EXECUTABLE.findall(result.stdout))
    return len(names), len(_DISPATCH.findall(main)), names


def pool_classifier(half: bool, channels: int = 544, classes: int = 1000, seed: int = 34) -> str:
    """A global average pool over 2x2 and a Linear, torch-mlir's form; `half`: f16 storage
    with the Linear in f32 (its input and its transposed weight widened by `extf`
    generics), else all f32. 1000 x 544 widened to f32 is 2.2 MB, over the 1 MiB heirpy
    folds, so the transpose of the weight stays an op for pointwise fusion to meet."""
    rng = np.random.default_rng(seed)
    dtype, ty = (np.float16, "f16") if half else (np.float32, "f32")
    w = rng.uniform(-0.1, 0.1, (classes, channels)).astype(dtype)
    b = rng.uniform(-0.1, 0.1, (classes,)).astype(dtype)
    c, k = channels, classes

    def widen(name: str, value: str, shape: str) -> str:
        if not half:
            return ""  # f32: the matmul reads the value itself
        return (
            f"    %{name}_e = tensor.empty() : tensor<{shape}xf32>\n"
            f"    %{name} = linalg.generic {{indexing_maps = [#m2, #m2], iterator_types = [\"parallel\", \"parallel\"]}}"
            f" ins({value} : tensor<{shape}xf16>) outs(%{name}_e : tensor<{shape}xf32>) {{\n"
            f"    ^bb0(%a: f16, %o: f32):\n      %y = arith.extf %a : f16 to f32\n      linalg.yield %y : f32\n"
            f"    }} -> tensor<{shape}xf32>\n"
        )

    x, wt = ("%xw", "%ww") if half else ("%flat", "%wt")
    bias = "%be = arith.extf %bb : f16 to f32\n      %s2 = arith.addf %a, %be : f32\n      %r = arith.truncf %s2 : f32 to f16" \
        if half else "%r = arith.addf %a, %bb : f32"
    return f"""#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#red = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#m2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {{
  func.func @main(%t: tensor<1x{c}x2x2x{ty}>) -> tensor<1x{k}x{ty}> {{
    %w = arith.constant dense<"0x{w.tobytes().hex().upper()}"> : tensor<{k}x{c}x{ty}>
    %b = arith.constant dense<"0x{b.tobytes().hex().upper()}"> : tensor<{k}x{ty}>
    %zero = arith.constant 0.0 : f32
    %zero_s = arith.constant 0.0 : {ty}
    %four = arith.constant 4.0 : {ty}
    %pe = tensor.empty() : tensor<1x{c}x1x1x{ty}>
    %pf = linalg.fill ins(%zero_s : {ty}) outs(%pe : tensor<1x{c}x1x1x{ty}>) -> tensor<1x{c}x1x1x{ty}>
    %sum = linalg.generic {{indexing_maps = [#id4, #red], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}} ins(%t : tensor<1x{c}x2x2x{ty}>) outs(%pf : tensor<1x{c}x1x1x{ty}>) {{
    ^bb0(%a: {ty}, %o: {ty}):
      %s = arith.addf %a, %o : {ty}
      linalg.yield %s : {ty}
    }} -> tensor<1x{c}x1x1x{ty}>
    %mean = linalg.generic {{indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%sum : tensor<1x{c}x1x1x{ty}>) outs(%pe : tensor<1x{c}x1x1x{ty}>) {{
    ^bb0(%a: {ty}, %o: {ty}):
      %d = arith.divf %a, %four : {ty}
      linalg.yield %d : {ty}
    }} -> tensor<1x{c}x1x1x{ty}>
    %flat = tensor.collapse_shape %mean [[0], [1, 2, 3]] : tensor<1x{c}x1x1x{ty}> into tensor<1x{c}x{ty}>
    %e1 = tensor.empty() : tensor<{c}x{k}x{ty}>
    %wt = linalg.transpose ins(%w : tensor<{k}x{c}x{ty}>) outs(%e1 : tensor<{c}x{k}x{ty}>) permutation = [1, 0]
{widen("xw", "%flat", f"1x{c}")}{widen("ww", "%wt", f"{c}x{k}")}    %e4 = tensor.empty() : tensor<1x{k}xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x{k}xf32>) -> tensor<1x{k}xf32>
    %mm = linalg.matmul ins({x}, {wt} : tensor<1x{c}xf32>, tensor<{c}x{k}xf32>) outs(%f : tensor<1x{k}xf32>) -> tensor<1x{k}xf32>
    %e5 = tensor.empty() : tensor<1x{k}x{ty}>
    %out = linalg.generic {{indexing_maps = [#m2, #row, #m2], iterator_types = ["parallel", "parallel"]}} ins(%mm, %b : tensor<1x{k}xf32>, tensor<{k}x{ty}>) outs(%e5 : tensor<1x{k}x{ty}>) {{
    ^bb0(%a: f32, %bb: {ty}, %o: {ty}):
      {bias}
      linalg.yield %r : {ty}
    }} -> tensor<1x{k}x{ty}>
    return %out : tensor<1x{k}x{ty}>
  }}
}}
"""


def residual_stack(blocks: int = 3, channels: int = 72, expand: int = 2, size: int = 2, seed: int = 37) -> str:
    """`blocks` MobileNetV2-like blocks in torch-mlir's `.half()` form: a 1x1 expand conv,
    batch norm (f32 in its body, rounded after), ReLU, a 1x1 projection conv and batch
    norm; every block but the first adds its input (an f16 add). 72 channels: the folded
    f32 biases (288 bytes) are over the 256 IREE inlines into a dispatch, so the blocks'
    dispatches can share executables as a real network's do."""
    rng = np.random.default_rng(seed)
    c, e, s = channels, channels * expand, size
    lines: list[str] = []
    consts: list[str] = []
    def const(name: str, shape: tuple[int, ...], dtype: type, lo: float = -0.3, hi: float = 0.3) -> None:
        a: np.ndarray = rng.uniform(lo, hi, shape).astype(dtype)
        ty = "f16" if dtype == np.float16 else "f32"
        dims = "x".join(map(str, shape))
        consts.append(f'    %{name} = arith.constant dense<"0x{a.tobytes().hex().upper()}"> : tensor<{dims}x{ty}>')
    def conv(out: str, x: str, cin: int, cout: int, w: str) -> None:
        lines.append(f"    %{out}_f = linalg.fill ins(%zero : f32) outs(%e32_{cout} : tensor<1x{cout}x{s}x{s}xf32>) -> tensor<1x{cout}x{s}x{s}xf32>")
        lines.append(f"    %{out}_c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%{x}, %{w} : tensor<1x{cin}x{s}x{s}xf16>, tensor<{cout}x{cin}x1x1xf16>) outs(%{out}_f : tensor<1x{cout}x{s}x{s}xf32>) -> tensor<1x{cout}x{s}x{s}xf32>")
        lines.append(f"""    %{out}_t = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%{out}_c : tensor<1x{cout}x{s}x{s}xf32>) outs(%e16_{cout} : tensor<1x{cout}x{s}x{s}xf16>) {{
    ^bb0(%a: f32, %o: f16):
      %r = arith.truncf %a : f32 to f16
      linalg.yield %r : f16
    }} -> tensor<1x{cout}x{s}x{s}xf16>""")
    def bn(out: str, x: str, ch: int, sc: str, sh: str) -> None:
        lines.append(f"""    %{out}_w = linalg.generic {{indexing_maps = [#id, #ch, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%{x}, %{sc}, %{sh} : tensor<1x{ch}x{s}x{s}xf16>, tensor<{ch}x1x1xf32>, tensor<{ch}x1x1xf32>) outs(%e32_{ch} : tensor<1x{ch}x{s}x{s}xf32>) {{
    ^bb0(%a: f16, %k: f32, %b: f32, %o: f32):
      %w = arith.extf %a : f16 to f32
      %m = arith.mulf %w, %k : f32
      %y = arith.addf %m, %b : f32
      linalg.yield %y : f32
    }} -> tensor<1x{ch}x{s}x{s}xf32>
    %{out} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%{out}_w : tensor<1x{ch}x{s}x{s}xf32>) outs(%e16_{ch} : tensor<1x{ch}x{s}x{s}xf16>) {{
    ^bb0(%a: f32, %o: f16):
      %r = arith.truncf %a : f32 to f16
      linalg.yield %r : f16
    }} -> tensor<1x{ch}x{s}x{s}xf16>""")
    x = "x"
    for i in range(blocks):
        for name, shape in ((f"we{i}", (e, c, 1, 1)), (f"wp{i}", (c, e, 1, 1))):
            bound = 1.0 / np.sqrt(shape[1])  # outputs of about the inputs' size, block after block
            const(name, shape, np.float16, -bound, bound)
        for name, ch in ((f"se{i}", e), (f"he{i}", e), (f"sp{i}", c), (f"hp{i}", c)):
            const(name, (ch, 1, 1), np.float32, 0.5 if name[0] == "s" else -0.3, 1.5 if name[0] == "s" else 0.3)
        conv(f"ce{i}", x, c, e, f"we{i}")
        bn(f"be{i}", f"ce{i}_t", e, f"se{i}", f"he{i}")
        lines.append(f"""    %re{i} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%be{i} : tensor<1x{e}x{s}x{s}xf16>) outs(%e16_{e} : tensor<1x{e}x{s}x{s}xf16>) {{
    ^bb0(%a: f16, %o: f16):
      %p = arith.cmpf ugt, %a, %zero16 : f16
      %r = arith.select %p, %a, %zero16 : f16
      linalg.yield %r : f16
    }} -> tensor<1x{e}x{s}x{s}xf16>""")
        conv(f"cp{i}", f"re{i}", e, c, f"wp{i}")
        bn(f"bp{i}", f"cp{i}_t", c, f"sp{i}", f"hp{i}")
        if i == 0:
            x = f"bp{i}"
            continue
        lines.append(f"""    %x{i} = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%bp{i}, %{x} : tensor<1x{c}x{s}x{s}xf16>, tensor<1x{c}x{s}x{s}xf16>) outs(%e16_{c} : tensor<1x{c}x{s}x{s}xf16>) {{
    ^bb0(%a: f16, %b: f16, %o: f16):
      %y = arith.addf %a, %b : f16
      linalg.yield %y : f16
    }} -> tensor<1x{c}x{s}x{s}xf16>""")
        x = f"x{i}"
    empties = "\n".join(f"    %e{b}_{ch} = tensor.empty() : tensor<1x{ch}x{s}x{s}xf{b}>" for b in (16, 32) for ch in (c, e))
    body = "\n".join(consts) + "\n" + empties + "\n" + "\n".join(lines)
    return f"""#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {{
  func.func @main(%x: tensor<1x{c}x{s}x{s}xf16>) -> tensor<1x{c}x{s}x{s}xf16> {{
    %zero = arith.constant 0.0 : f32
    %zero16 = arith.constant 0.0 : f16
{body}
    return %{x} : tensor<1x{c}x{s}x{s}xf16>
  }}
}}
"""


# reproducer: (the iree-prepare step that fixes it, which count it fixes: 0 executables,
# 1 dispatches per call, the executable kind it removes or None)
CASES: dict[str, tuple[str, int, str | None]] = {
    "pool_classifier": ("detach-constant-transpose", 1, "elementwise_transpose"),
    "class_token_head": ("narrow-contraction-inputs", 1, "elementwise_8_f16xf32"),
    "block_stack": ("sink-widening-casts", 0, None),
    "residual_stack": ("narrow-rounded-reads", 0, None),
}
TWINS = ["pool_classifier", "class_token_head"]


@cache
def _raw(case: str, half: bool = True) -> str:
    if case == "pool_classifier":
        return pool_classifier(half)
    if case == "residual_stack":
        return residual_stack()
    return (INPUTS / f"{'f16' if half else 'f32'}_{case}.mlir").read_text()


@cache
def _prepared(case: str, pipeline: str, half: bool = True) -> str:
    return print_module(run_pipeline(parse(_raw(case, half)), pipeline))


def _without(step: str) -> str:
    full = iree_prepare_pipeline("cpu")
    without = full.replace(f",{step}", "")
    assert without != full
    return without


@pytest.mark.parametrize("case", CASES)
def test_iree_prepare_forms_no_more_dispatches_than_raw(case: str) -> None:
    raw, ours = _counts(_raw(case)), _counts(_prepared(case, "iree-prepare"))
    assert ours[0] <= raw[0] and ours[1] <= raw[1], (case, raw, ours)


@pytest.mark.parametrize("case", CASES)
def test_without_its_step_the_reproducer_has_one_dispatch_more(case: str) -> None:
    step, count, kind = CASES[case]
    raw, without = _counts(_raw(case)), _counts(_prepared(case, _without(step)))
    assert without[count] == raw[count] + 1, (case, raw, without)
    if kind is not None:
        assert sum(kind in name for name in without[2]) == 1, without[2]
        assert not any(kind in name for name in _counts(_prepared(case, "iree-prepare"))[2])


@pytest.mark.parametrize("case", CASES)
def test_iree_prepare_keeps_the_values(case: str) -> None:
    report = check_equivalence(parse(_raw(case)), parse(_prepared(case, "iree-prepare")), function="main",
                               seeds=(0, 1))
    assert report.ok, report.summary()


@pytest.mark.parametrize("case", TWINS)
def test_the_f32_twin_is_left_as_it_was(case: str) -> None:
    step = CASES[case][0]
    ours = _prepared(case, "iree-prepare", half=False)
    assert ours == _prepared(case, _without(step), half=False)
    raw, counted = _counts(_raw(case, half=False)), _counts(ours)
    assert counted[0] <= raw[0] and counted[1] <= raw[1], (case, raw, counted)


def test_a_rounding_read_by_a_pool_goes_into_the_pool() -> None:
    """RegNetX-400MF f16's last block as `iree-prepare` left it before `round-in-reductions`
    (tests/filecheck/Inputs/f16_rounding_into_pool.mlir): IREE fuses no truncation into a
    reduction, so the rounded residual add stayed with its conv, an executable the bare
    conv of the stage's first block does not share (3 executables); yielding the wide
    value, it goes into the pool and the two convs share one (2). Values equal."""
    text = (INPUTS / "f16_rounding_into_pool.mlir").read_text()
    rounded = print_module(run_pipeline(parse(text), "round-in-reductions"))
    before, after = _counts(text), _counts(rounded)
    assert (before[0], before[1]) == (3, 3), before
    assert (after[0], after[1]) == (2, 3), after
    report = check_equivalence(parse(text), parse(rounded), function="main", seeds=(0, 1))
    assert report.ok, report.summary()


def test_a_shared_centring_is_recomputed_in_the_variance() -> None:
    """ConvNeXt-atto f16's head LayerNorm (tests/filecheck/Inputs/f16_convnext_head.mlir):
    `demote-f64` made torch-mlir's two centrings `x - mean` (the f64 variance's and the
    f32 normalisation's) one op; once `sink-widening-casts` stored its input in f16, IREE
    placed it, and the mean, in dispatches of their own (3 against raw's 2; the model 92
    dispatches per call against 90). `RecomputeSharedIntoReduction` recomputes both in
    the variance: raw's 2 executables and 2 dispatches. Values equal."""
    text = (INPUTS / "f16_convnext_head.mlir").read_text()
    raw, ours = _counts(text), _counts(print_module(run_pipeline(parse(text), "iree-prepare")))
    assert (raw[0], raw[1]) == (2, 2), raw
    assert (ours[0], ours[1]) == (2, 2), ours
    report = check_equivalence(parse(text), parse(print_module(run_pipeline(parse(text), "iree-prepare"))),
                               function="main", seeds=(0, 1))
    assert report.ok, report.summary()
