"""`iree-prepare`'s output of an f16 model compiles with IREE's im2col (issue 34).

`WidenLinearOpInput` lets a conv read the f32 value before torch-mlir's `truncf`, so folds
see f32; where no fold then used it, a 1x1 conv was left reading an f32 input with an f16
filter, and `iree-compile --iree-global-opt-use-im2col-for-convs` failed ("'tensor.
collapse_shape' op expected collapsed type to be 'tensor<64x64xf16>', but got
'tensor<64x64xf32>'") where the raw IR compiles. `NarrowUnusedWidening`, the last set of
each pass that widens, puts the rounding back. Each reproducer (tests/filecheck/Inputs) is
compiled by the real iree-compile to a vmfb (about a second each; a missing tool fails the
test, it never skips), and the mixed form itself is checked to fail (this build crashes
with a stack dump), so the test is sharp.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile
from heirpy.api import parse, print_module, run_pipeline
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp

INPUTS = Path(__file__).resolve().parents[1] / "filecheck" / "Inputs"
CASES = ("mixed_conv_f16.mlir", "mixed_conv_exp_f16.mlir")
IM2COL_FLAGS = ("--iree-opt-data-tiling", "--iree-global-opt-use-im2col-for-convs")

# What iree-prepare produced before the fix on mixed_conv_f16.mlir: f32 input, f16 filter.
MIXED = """
module {
  func.func @main(%arg0: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
    %w = arith.constant dense<5.000000e-01> : tensor<8x8x1x1xf16>
    %init = arith.constant dense<0.000000e+00> : tensor<1x8x4x4xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %w : tensor<1x8x4x4xf32>, tensor<8x8x1x1xf16>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    return %c : tensor<1x8x4x4xf32>
  }
}
"""


def _compile(text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    tool = find_iree_compile()
    if tool is None:
        pytest.fail("iree-compile not found: install the test extras (pip install -e '.[test]')")
    return subprocess.run(
        [tool, *COMPILE_FLAGS, *IM2COL_FLAGS, "-", "-o", str(tmp_path / "out.vmfb")],
        input=text, capture_output=True, text=True, timeout=300, check=False,
    )


@pytest.mark.parametrize("case", CASES)
def test_iree_prepare_output_compiles_with_im2col(case: str, tmp_path: Path) -> None:
    raw = (INPUTS / case).read_text()
    assert _compile(raw, tmp_path).returncode == 0  # the raw IR compiles
    module = parse(raw)
    run_pipeline(module, "iree-prepare")
    convs = [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]
    assert len(convs) == 1
    types = {str(v.type.get_element_type()) for v in convs[0].operands[:2]}  # type: ignore[attr-defined]
    assert types == {"f16"}, types  # narrow operands, as exported
    result = _compile(print_module(module), tmp_path)
    assert result.returncode == 0, result.stderr[:2000]


def test_the_mixed_form_fails_to_compile(tmp_path: Path) -> None:
    """The reproducer is sharp: the form iree-prepare used to print is rejected."""
    # This iree-compile crashes on it (a stack dump; a build with the verifier on reports
    # the collapse_shape type mismatch instead).
    assert _compile(MIXED, tmp_path).returncode != 0
