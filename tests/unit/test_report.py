"""heirpy-report, the main job: its table on a real model and its error lines."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from heirpy.tools.heirpy_report import main

EXAMPLES = Path(__file__).parent.parent.parent / "examples"


def test_report_on_tiny_cnn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLES / "tiny_cnn.mlir"), "--out-dir", str(tmp_path), "--seeds", "1"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("tiny_cnn "))
    assert "ok (max abs err" in row
    assert "6→3" in row  # depth before -> after, the figure README reports
    assert "17→3" in row  # kernels before -> after
    # weight bytes: conv 2x1x3x3, conv 4x2x3x3, Linear 16x10 floats before; after, the
    # conv+pool filter 2x1x4x4 and the 32x10 matrix of conv, pool and Linear.
    assert f"{4 * (18 + 72 + 160)}→{4 * (32 + 320)}" in row
    # MLIR's text: the affine maps' alias lines, then the module.
    assert re.match(r"(#map\d* = affine_map<[^\n]*>\n)*module \{\n", (tmp_path / "tiny_cnn.mlir").read_text())


def test_report_shows_iree_dispatches_before_and_after(capsys: pytest.CaptureFixture[str]) -> None:
    """iree-compile is a test extra, so the column is there; the 1x1 YOLO head goes from
    IREE's 2 dispatches to 1 (tests/unit/test_iree_dispatches.py has the details)."""
    assert main([str(EXAMPLES / "yolo_head_k1.mlir"), "--seeds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if line.startswith("model "))
    row = next(line for line in lines if line.startswith("yolo_head_k1 "))
    assert "IREE dispatches before→after" in header
    column = header.index("IREE dispatches before→after")
    assert row[column:].split()[0] == "2→1"


def test_missing_file_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["/nonexistent/model.mlir"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: cannot read '/nonexistent/model.mlir': No such file or directory"]


def test_parse_error_is_reported_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text('func.func @main() {\n  "foo.bar"() : () -> ()\n  return\n}\n')
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{bad}:2:") and "error:" in err[0]


@pytest.mark.parametrize("spec", ["no-such-pass", '36:x = "a,b"'])
def test_bad_pipeline_is_one_error_and_no_table(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLES / "tiny_cnn.mlir"), "--pipeline", spec]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        f"error: invalid pass pipeline '{spec}': "
        + ("Unrecognized passes: ['no-such-pass']" if spec == "no-such-pass" else "Expected pass name here (column 1)")
    ]


def _copy_example(tmp_path: Path, name: str) -> Path:
    model = tmp_path / f"{name}.mlir"
    model.write_text((EXAMPLES / f"{name}.mlir").read_text())
    (tmp_path / f"{name}.npz").write_bytes((EXAMPLES / f"{name}.npz").read_bytes())
    return model


def _row(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(f"{name} "))


def test_report_checks_the_output_against_pytorch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = _copy_example(tmp_path, "tiny_cnn")
    assert main([str(model), "--seeds", "1"]) == 0
    out = capsys.readouterr().out
    assert "after vs .npz (PyTorch)" in out.splitlines()[1]
    # The numerics column and the PyTorch column both say ok.
    assert _row(out, "tiny_cnn").count("ok (max abs err") == 2


def test_report_fails_when_pytorch_disagrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = _copy_example(tmp_path, "tiny_cnn")
    with np.load(tmp_path / "tiny_cnn.npz") as data:
        arrays = {key: data[key] for key in data.files}
    arrays["result0"] = arrays["result0"] + 0.5
    np.savez(tmp_path / "tiny_cnn.npz", **arrays)
    assert main([str(model), "--seeds", "1"]) == 1
    captured = capsys.readouterr()
    assert "MISMATCH (max abs err 5.0e-01)" in _row(captured.out, "tiny_cnn")
    assert "error: check failed for tiny_cnn" in captured.err


def test_report_without_npz_says_not_applicable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "tiny_cnn.mlir"
    model.write_text((EXAMPLES / "tiny_cnn.mlir").read_text())
    assert main([str(model), "--seeds", "1"]) == 0
    row = _row(capsys.readouterr().out, "tiny_cnn")
    assert row.count("ok (max abs err") == 1 and " n/a " in row
