"""heirpy-opt's driver in process (test_cli.py runs it as a process, which mutmut cannot
trace): split input, --verify-diagnostics, missing input, unwritable output, the output
file, --time-passes, --disable-verify, the internal-error and recursion lines, an
interrupt's exit code and the printing flags; each exit code and each line."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from heirpy.tools.heirpy_opt import HeirpyOptMain, main

GOOD = "func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}\n"
BAD_VERIFY = "func.func @g(%a: f32) -> i32 {\n  return %a : f32\n}\n"


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return str(path)


def test_split_input_reports_each_failing_chunk_and_keeps_going(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, GOOD + "// -----\n" + BAD_VERIFY + "// -----\n" + GOOD.replace("@f", "@h"))
    assert main([path, "--split-input-file"]) == 1
    out, err = capsys.readouterr()
    assert out.count("// -----\n") == 2 and "@f" in out and "@h" in out and "@g" not in out
    # the error's line counts the lines of the chunks before it
    assert err == f"{path}:6:3: error: 'func.return' op Expected arguments to have the same types as the function output types: expected [i32], got [f32]\n"
    # with --verify-diagnostics the diagnostic is the expected output: stdout, exit 0
    assert main([path, "--split-input-file", "--verify-diagnostics"]) == 0
    out, err = capsys.readouterr()
    assert f"{path}:6:3: error: 'func.return' op" in out and err == ""
    # one input without splitting: the marker is a comment, the whole file one module
    assert main([write(tmp_path, GOOD + "// -----\n" + GOOD.replace("@f", "@h")), "--split-input-file"]) == 0
    assert capsys.readouterr().out.count("// -----") == 1
    assert main([str(tmp_path / "in.mlir")]) == 0
    out = capsys.readouterr().out
    assert "// -----" not in out and "@f" in out and "@h" in out


def test_unreadable_input_and_unwritable_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.mlir"
    assert main([str(missing)]) == 1
    assert capsys.readouterr().err == f"error: cannot read '{missing}': No such file or directory\n"
    path = write(tmp_path, GOOD)
    assert main([path, "-o", str(tmp_path / "no" / "dir.mlir")]) == 1
    assert capsys.readouterr().err == f"error: cannot write '{tmp_path / 'no' / 'dir.mlir'}': No such file or directory\n"
    out = tmp_path / "out.mlir"
    assert main([path, "-o", str(out)]) == 0
    assert capsys.readouterr().out == "" and "func.func @f" in out.read_text()


def test_stdin_is_read_when_no_file_is_named(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class Stdin:
        buffer = io.BytesIO(GOOD.encode())

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert main([]) == 0
    assert "func.func @f(%a: f32) -> f32 {" in capsys.readouterr().out


def test_time_passes_and_disable_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD)
    assert main([path, "-p", "dce", "--time-passes"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Pass dce took ") and " seconds\n" in out
    assert main([path, "-p", "dce"]) == 0
    assert "Pass dce took" not in capsys.readouterr().out
    bad = write(tmp_path, BAD_VERIFY)
    assert main([bad]) == 1
    capsys.readouterr()
    assert main([bad, "--disable-verify"]) == 0
    assert "return %a : f32" in capsys.readouterr().out


def test_failures_outside_the_input_exit_with_their_codes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, GOOD)

    def raising(err: BaseException):  # noqa: ANN202
        def run(self: HeirpyOptMain) -> None:
            raise err

        return run

    monkeypatch.setattr(HeirpyOptMain, "run", raising(RecursionError()))
    assert main([path]) == 1
    assert capsys.readouterr().err == "error: input is nested too deeply\n"
    assert main([path, "--debug"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback") and err.endswith("error: input is nested too deeply\n")
    monkeypatch.setattr(HeirpyOptMain, "run", raising(KeyboardInterrupt()))
    assert main([path]) == 130
    monkeypatch.setattr(HeirpyOptMain, "run", raising(RuntimeError("")))
    assert main([path]) == 1
    assert capsys.readouterr().err == "error: internal error (RuntimeError: ); rerun with --debug for a traceback\n"
    assert main([path, "--debug"]) == 1
    assert capsys.readouterr().err.startswith("Traceback")


def test_a_heirpy_error_shows_a_traceback_only_with_debug(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD)
    assert main([path, "-p", "no-such-pass"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1 and "no-such-pass" in err
    assert main([path, "-p", "no-such-pass", "--debug"]) == 1
    assert capsys.readouterr().err.startswith("Traceback")


def test_the_printing_flags_reach_the_printer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD)
    assert main([path, "-t", "mlir"]) == 0
    assert capsys.readouterr().out.startswith("module {\n  func.func @f(")
    assert main([path, "--print-op-generic"]) == 0
    assert capsys.readouterr().out.startswith('"builtin.module"() ({\n  "func.func"() <{function_type = (f32) -> f32')
