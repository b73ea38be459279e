"""IREE's view of heirpy's output: the dispatches it forms, and the values it computes.

heirpy lowers its kernels (`lower-tensor-ext`) into the form IREE 3.13 fuses (see
`LowerKernelToLayoutOps`). These tests compile the YOLOv5s heads with the real compiler
(`iree-compile --compile-to=flow`, about a second each) so a change that loses the form
fails here, not only in a benchmark. iree-compile and iree-run-module are test extras
(iree-base-compiler, iree-base-runtime): a missing tool fails the test, it never skips.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile, iree_dispatches
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import compare_arrays
from heirpy.interp.reference import load_npz

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
PIPELINE = "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext"


def _tool(name: str) -> str:
    beside = Path(sys.executable).parent / name
    found = shutil.which(name) or (str(beside) if beside.exists() else None)
    if found is None:
        pytest.fail(f"{name} not found: install the test extras (pip install -e '.[test]')")
    return found


def _iree_compile() -> str:
    found = find_iree_compile()
    if found is None:
        pytest.fail("iree-compile not found: install the test extras (pip install -e '.[test]')")
    return found


def _batched(text: str, batch: int) -> str:
    return text.replace("tensor<1x", f"tensor<{batch}x").replace(
        "output_shape [1,", f"output_shape [{batch},"
    )


def _heirpy(text: str, pipeline: str = PIPELINE) -> str:
    module = parse(text)
    run_pipeline(module, pipeline)
    return print_module(module)


@pytest.mark.parametrize("batch", [1, 2])
def test_the_1x1_head_is_one_dispatch(batch: int) -> None:
    raw = _batched((EXAMPLES / "yolo_head_k1.mlir").read_text(), batch)
    tool = _iree_compile()
    assert iree_dispatches(raw, tool) == ["matmul_like", "elementwise_transpose"]
    assert iree_dispatches(_heirpy(raw), tool) == ["matmul_like"]


def test_the_inlined_kernel_is_what_iree_could_not_fuse() -> None:
    """The negative case: the kernel's body inlined as is (mixed-radix epilogue map)."""
    raw = (EXAMPLES / "yolo_head_k1.mlir").read_text()
    inlined = _heirpy(raw, "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext{layout-ops=false}")
    assert len(iree_dispatches(inlined, _iree_compile())) == 2


def test_the_3x3_head_keeps_its_conv_and_adds_no_dispatch() -> None:
    """IREE's conv code generation needs the named 2-D conv, and its pad is a dispatch of
    its own whatever the IR says (a function argument padded), so 3 is the floor."""
    raw = (EXAMPLES / "yolo_head_k3.mlir").read_text()
    tool = _iree_compile()
    before = iree_dispatches(raw, tool)
    after = iree_dispatches(_heirpy(raw), tool)
    assert before == ["slow_memcpy", "conv", "elementwise_transpose"]
    assert after == ["slow_memcpy", "conv", "elementwise_transpose"]


def test_iree_rejects_bad_input_with_one_line() -> None:
    from heirpy.ir.diagnostics import HeirpyError

    with pytest.raises(HeirpyError, match=r"^error: iree-compile failed: .*error"):
        iree_dispatches("func.func @f( {", _iree_compile())


@pytest.mark.parametrize("head", ["yolo_head_k1", "yolo_head_k3", "yolo_head_k1_f16", "yolo_head_k3_f16"])
def test_iree_computes_torch_values_from_heirpy_output(head: str, tmp_path: Path) -> None:
    """llvm-cpu computes PyTorch's values from heirpy's output, f16 ones to within a few
    f16 ulps (`compare_arrays`: PyTorch rounds its half sigmoid once, the IR four times)."""
    source = tmp_path / f"{head}.mlir"
    source.write_text(_heirpy((EXAMPLES / f"{head}.mlir").read_text()))
    vmfb = tmp_path / f"{head}.vmfb"
    subprocess.run(
        [_iree_compile(), *COMPILE_FLAGS, str(source), "-o", str(vmfb)], check=True
    )
    data = load_npz(EXAMPLES / f"{head}.npz")
    np.save(tmp_path / "arg0.npy", data["arg0"])
    out = tmp_path / "result0.npy"
    subprocess.run(
        [_tool("iree-run-module"), "--device=local-task", f"--module={vmfb}", "--function=main",
         f"--input=@{tmp_path / 'arg0.npy'}", f"--output=@{out}"],
        check=True, capture_output=True,
    )
    comparison = compare_arrays(0, data["result0"], np.load(out), rtol=1e-4, atol=1e-5)
    assert comparison.ok, comparison.line()


def test_iree_compile_is_found_on_path_first_and_none_without_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "iree-compile"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-venv" / "python"))
    assert find_iree_compile() == str(fake)
    fake.unlink()
    assert find_iree_compile() is None


def test_a_tool_that_fails_without_a_word_is_still_a_one_line_error() -> None:
    from heirpy.ir.diagnostics import HeirpyError

    with pytest.raises(HeirpyError, match=r"^error: iree-compile failed: $"):
        iree_dispatches("module {}", "/bin/false")


def test_a_failing_tool_is_reported_by_its_first_error_line(tmp_path: Path) -> None:
    """Not by the first line it prints (a warning or a note comes before the error)."""
    from heirpy.ir.diagnostics import HeirpyError

    tool = tmp_path / "iree-compile"
    tool.write_text("#!/bin/sh\necho 'warning: first' >&2\necho '<stdin>:1:1: error: second' >&2\nexit 1\n")
    tool.chmod(0o755)
    with pytest.raises(HeirpyError, match=r"^error: iree-compile failed: <stdin>:1:1: error: second$"):
        iree_dispatches("module {}", str(tool))
