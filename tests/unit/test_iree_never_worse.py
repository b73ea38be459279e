"""`iree-prepare` never gives IREE more dispatches than the raw IR: the zoo's LayerNorm misses.

Two hand-written reproducers in torch-mlir's form (tests/filecheck/Inputs), in the shapes
that cost dispatches on real models (issue 37): ConvNeXt's LayerNorm2d (NCHW -> NHWC,
LayerNorm over C, back), where `iree-prepare` formed one more dispatch per LayerNorm
(ConvNeXt-atto 90 -> 107 dispatches run), and MobileViT's LayerNorm over unfolded 2x2
patches (a reshape / transpose chain), where it formed 6 against raw's 3. Each is compiled
by the real iree-compile (`--compile-to=flow`, about a second; a missing tool fails the
test, it never skips) and counted two ways: executables (`flow.executable`, what the zoo
reports) and dispatches run (`flow.dispatch` ops). The rules that fix them: `demote-f64`
(compute torch-mlir's f64 variance in f32, as IREE does, so its f32 twin merges before
heirpy fuses) and `linalg-fuse-ops{iree-reductions=true}` (a reduction and its pointwise
consumers keep one loop space; a pointwise op on a reduced tensor that a reduction reads
is recomputed in it; a layout chain is absorbed only where every reader absorbs it). The
patches case misses without the reduction rules (checked); on these two, demotion alone
is not needed (on MobileViT-xxs it saves one more dispatch: 188 -> 187).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.evaluator import run_function

INPUTS = Path(__file__).resolve().parents[1] / "filecheck" / "Inputs"
CASES = ("layernorm_nchw.mlir", "layernorm_patches.mlir")
_EXECUTABLE = re.compile(r"flow\.executable\.export\s")
_DISPATCH = re.compile(r"flow\.dispatch @")


def _iree_compile() -> str:
    found = find_iree_compile()
    if found is None:
        pytest.fail("iree-compile not found: install the test extras (pip install -e '.[test]')")
    return found


def _counts(text: str) -> tuple[int, int]:
    """(executables, dispatches run) iree-compile forms for `text` on llvm-cpu."""
    result = subprocess.run(
        [_iree_compile(), *COMPILE_FLAGS, "--compile-to=flow", "-", "-o", "-"],
        input=text, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr[:2000]
    return len(_EXECUTABLE.findall(result.stdout)), len(_DISPATCH.findall(result.stdout))


def _prepared(text: str, pipeline: str = "iree-prepare") -> str:
    module = parse(text)
    run_pipeline(module, pipeline)
    return print_module(module)


@pytest.mark.parametrize("case", CASES)
def test_iree_prepare_forms_no_more_dispatches_than_raw(case: str) -> None:
    raw = (INPUTS / case).read_text()
    raw_counts = _counts(raw)
    ours = _counts(_prepared(raw))
    assert ours[0] <= raw_counts[0] and ours[1] <= raw_counts[1], (case, raw_counts, ours)


WITHOUT_REDUCTION_RULES = (
    "linalg-canonicalizations{max-mac-growth=1},demote-f64,linalg-fuse-ops{max-mac-growth=1},"
    "lower-tensor-ext,unroll-depthwise-conv"
)


def test_without_the_reduction_rules_the_patches_miss() -> None:
    """The reproducer is sharp: without `iree-reductions` IREE forms more dispatches than raw."""
    raw = (INPUTS / "layernorm_patches.mlir").read_text()
    assert _counts(_prepared(raw, WITHOUT_REDUCTION_RULES))[1] > _counts(raw)[1]


@pytest.mark.parametrize("case", CASES)
def test_iree_prepare_keeps_the_layernorm_values(case: str) -> None:
    raw = (INPUTS / case).read_text()
    x = np.random.default_rng(0).standard_normal((1, 8, 4, 4)).astype(np.float32) * 3 + 1
    (expected,) = run_function(parse(raw), "main", [x])
    (got,) = run_function(parse(_prepared(raw)), "main", [x])
    # the raw IR's variance is f64, iree-prepare's f32 (as IREE computes it)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
