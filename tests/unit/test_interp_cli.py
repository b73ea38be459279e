"""heirpy-run and heirpy-equiv: results, exit codes, and one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from heirpy.interp.reference import load_npz, reference_inputs
from heirpy.ir.diagnostics import HeirpyError
from heirpy.tools.heirpy_run import equiv_main, main

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"
SRC = Path(__file__).resolve().parents[2] / "src"

UNSUPPORTED = """func.func @main(%a: i32, %b: i32) -> i32 {
  %lo, %hi = arith.mulsi_extended %a, %b : i32
  return %lo : i32
}
"""


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-m", "heirpy.tools.heirpy_run", *args], capture_output=True, text=True, env=env
    )


def one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_run_prints_results_and_checks_them(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "out.npz"
    code = main([str(EXAMPLES_DIR / "tiny_cnn.mlir"), "--inputs", str(EXAMPLES_DIR / "tiny_cnn.npz"),
                 "--check", "--output", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert printed.startswith("result0: 1x10 float32 [")
    assert "check result #0" in printed and "ok" in printed
    reference = load_npz(EXAMPLES_DIR / "tiny_cnn.npz")  # its input is a recipe, written out as an array
    with np.load(out) as data:
        np.testing.assert_array_equal(data["arg0"], reference["arg0"])
        np.testing.assert_allclose(data["result0"], reference["result0"], rtol=1e-4, atol=1e-5)


def test_run_random_inputs_are_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES_DIR / "tiny_cnn_onnx.mlir")  # its only function is @main_graph
    assert main([path, "--random", "7"]) == 0
    first = capsys.readouterr().out
    assert main([path, "--random", "7"]) == 0
    assert capsys.readouterr().out == first


def test_check_fails_on_wrong_reference(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = load_npz(EXAMPLES_DIR / "tiny_cnn.npz")
    np.savez(tmp_path / "wrong.npz", arg0=data["arg0"], result0=data["result0"] + 1e-2)
    code = main([str(EXAMPLES_DIR / "tiny_cnn.mlir"), "--inputs", str(tmp_path / "wrong.npz"), "--check"])
    assert code == 1
    assert "MISMATCH" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("make_args", "expected"),
    [
        (lambda tmp: [str(tmp / "missing.mlir")], "error: cannot read"),
        (lambda tmp: [str(EXAMPLES_DIR / "tiny_cnn.mlir"), "--function", "nope"], "error: no function @nope"),
        (lambda tmp: [str(EXAMPLES_DIR / "tiny_cnn.mlir"), "--inputs", str(tmp / "none.npz")], "error: cannot read inputs"),
        (lambda tmp: [str(EXAMPLES_DIR / "tiny_cnn.mlir"), "--bogus"], "error: unrecognized arguments"),
    ],
)
def test_run_errors_are_one_line(make_args, expected: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(make_args(tmp_path)) == 1
    assert one_error_line(capsys.readouterr().err).startswith(expected)


def test_parse_error_has_a_location(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @main() {\n  %x = arith.bogus : f32\n  return\n}\n")
    assert main([str(path)]) == 1
    assert one_error_line(capsys.readouterr().err).startswith(f"{path}:2:")


def test_linalg_op_on_buffers_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "buffers.mlir"
    path.write_text(
        "func.func @main(%m: memref<4xf32>) {\n  %c = arith.constant 1.0 : f32\n"
        "  linalg.fill ins(%c : f32) outs(%m : memref<4xf32>)\n  return\n}\n"
    )
    assert main([str(path)]) == 1
    assert one_error_line(capsys.readouterr().err) == (
        f"{path}:3:3: error: 'linalg.fill' on buffers (memref operands) has no evaluator: "
        "heirpy evaluates tensor programs"
    )


def test_unsupported_op_names_op_and_location_in_a_subprocess(tmp_path: Path) -> None:
    path = tmp_path / "unsupported.mlir"
    path.write_text(UNSUPPORTED)
    proc = run_cli(str(path))
    assert proc.returncode == 1
    line = one_error_line(proc.stderr)
    assert line == f"{path}:2:14: error: 'arith.mulsi_extended' has no evaluator (unsupported op)"
    debug = run_cli(str(path), "--debug")
    assert debug.returncode == 1 and "Traceback" in debug.stderr


def test_equiv_exit_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    onnx = EXAMPLES_DIR / "tiny_cnn_onnx.mlir"
    wrong = tmp_path / "wrong.mlir"
    wrong.write_text(onnx.read_text().replace("-0.0024956069", "0.5"))
    assert equiv_main([str(onnx), str(onnx), "--function", "main_graph", "--seeds", "2"]) == 0
    assert "equivalent" in capsys.readouterr().out
    assert equiv_main([str(onnx), str(wrong), "--function", "main_graph"]) == 1
    assert "NOT equivalent" in capsys.readouterr().out
    # The torch-mlir export (dense_resource) and its inlined twin are the same model.
    assert equiv_main([str(EXAMPLES_DIR / "tiny_cnn.mlir"), str(EXAMPLES_DIR / "tiny_cnn_dense.mlir")]) == 0
    assert equiv_main([str(onnx), str(wrong), "--seeds", "0"]) == 1
    assert one_error_line(capsys.readouterr().err) == "error: --seeds must be at least 1"


def test_reference_inputs_names_the_missing_arguments() -> None:
    arrays = {"arg0": np.zeros(2), "arg2": np.ones(3)}
    assert [a.shape for a in reference_inputs(arrays, 1, "ref.npz")] == [(2,)]
    with pytest.raises(HeirpyError) as raised:
        reference_inputs(arrays, 4, "ref.npz")
    assert str(raised.value) == "error: 'ref.npz' has no arg1, arg3 (the function takes 4 argument(s))"


OVERFLOW = """func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = arith.constant dense<1.0e+30> : tensor<3xf32>
  %m = arith.mulf %x, %c : tensor<3xf32>
  %s = arith.mulf %m, %m : tensor<3xf32>
  %d = arith.subf %s, %s : tensor<3xf32>
  return %d : tensor<3xf32>
}
"""


def test_nan_is_not_comparable_in_equiv_and_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """x² overflows to inf, inf - inf is NaN on both sides: not a pass (exit 1), and the
    verdict says why, in heirpy-equiv and in heirpy-run --check."""
    model = tmp_path / "overflow.mlir"
    model.write_text(OVERFLOW)
    assert equiv_main([str(model), str(model)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith(": not comparable: reference has NaN") and " ok" not in out
    stored = tmp_path / "stored.npz"
    np.savez(stored, arg0=np.ones(3, np.float32), result0=np.full(3, np.nan, np.float32))
    assert main([str(model), "--inputs", str(stored), "--check"]) == 1
    check = capsys.readouterr().out.splitlines()[-1]
    assert check.startswith("check result #0") and check.endswith("not comparable: reference has NaN")


def test_a_reference_without_a_result_is_an_error_naming_it() -> None:
    from heirpy.interp.reference import compare_with_reference

    arrays = {"result0": np.zeros(2, np.float32)}
    results = [np.zeros(2, np.float32), np.ones(3, np.float32)]
    with pytest.raises(HeirpyError) as info:
        compare_with_reference(arrays, results, 1e-4, 1e-5, "ref.npz")
    assert str(info.value) == "error: 'ref.npz' has no result1 to check against"
