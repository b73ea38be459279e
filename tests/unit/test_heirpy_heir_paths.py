"""heirpy-heir's paths that test_heirpy_heir.py leaves out, with a fake heir-opt (a
shell script) so they need no HEIR: the output it writes, the summary line with and
without logN, the temporary reproducer removed on success and kept on failure, a
timeout, a --heir-opt that is not executable, heir-opt nowhere, an unwritable output,
the deep net's bootstrap notice, and heir-opt's first error line."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from heirpy.tools import heirpy_heir
from heirpy.tools.heirpy_heir import first_error, main, read_result, with_budget


def squares(depth: int) -> str:
    """`@main`: x squared `depth` times, a net of exactly `depth` levels."""
    body = [f"  %s{i} = arith.mulf {'%arg0' if i == 0 else f'%s{i - 1}'}, {'%arg0' if i == 0 else f'%s{i - 1}'}"
            " : tensor<1x8xf32>" for i in range(depth)]
    return ("func.func @main(%arg0: tensor<1x8xf32>) -> tensor<1x8xf32> {\n" + "\n".join(body)
            + f"\n  return %s{depth - 1} : tensor<1x8xf32>\n}}\n")

PARAMS = "module attributes {ckks.schemeParam = #ckks.scheme_param<logN = 13, Q = [1, 2, 3], P = [4]>} {}"


def fake(tmp_path: Path, script: str) -> str:
    path = tmp_path / "fake-heir-opt"
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def net(tmp_path: Path, depth: int = 2) -> str:
    path = tmp_path / "net.mlir"
    path.write_text(squares(depth))
    return str(path)


def test_the_output_and_the_summary_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ckks.mlir"
    assert main([net(tmp_path), "-o", str(out), "--heir-opt", fake(tmp_path, f"echo '{PARAMS}'")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("heirpy-heir: heir-opt --secretize=function=main '--annotate-module=backend=openfhe "
                        "scheme=ckks' --torch-linalg-to-ckks")
    assert lines[1].startswith("heirpy-heir: depth 2, levels 2, bootstraps 0, slots 1024 (logN 13), heir-prepare ")
    assert lines[1].endswith(" s") and ", heir-opt " in lines[1] and len(lines) == 2
    assert out.read_text() == PARAMS + "\n"
    no_ring = PARAMS.replace("logN = 13, ", "")
    assert main([net(tmp_path), "--heir-opt", fake(tmp_path, f"echo '{no_ring}'")]) == 0
    assert "slots 1024, heir-prepare " in capsys.readouterr().out


def test_the_reproducer_is_removed_on_success_and_kept_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    assert main([net(tmp_path), "--heir-opt", fake(tmp_path, f"echo '{PARAMS}'")]) == 0
    assert list(tmp_path.glob("*.heir-prepare.mlir")) == []
    assert main([net(tmp_path), "--heir-opt", fake(tmp_path, "echo 'x: error: no' >&2; exit 1")]) == 1
    (kept,) = tmp_path.glob("net-*.heir-prepare.mlir")
    assert "arith.mulf" in kept.read_text()
    assert capsys.readouterr().err.strip().endswith("error: heir-opt rejected heirpy's output: x: error: no")


def test_a_timeout_names_the_limit_and_the_kept_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = tmp_path / "prepared.mlir"
    argv = [net(tmp_path), "--prepared", str(kept), "--timeout", "0.6", "--heir-opt", fake(tmp_path, "sleep 5")]
    assert main(argv) == 1
    assert capsys.readouterr().err == f"error: heir-opt gave no result within 1 s (its input: {kept})\n"
    assert kept.is_file()


def test_heir_opt_that_cannot_run_or_cannot_be_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "not-executable"
    plain.write_text("")
    assert main([net(tmp_path), "--heir-opt", str(plain)]) == 1
    assert capsys.readouterr().err == f"error: --heir-opt '{plain}' is not an executable\n"
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(heirpy_heir.importlib.util, "find_spec", lambda name: None)
    assert main([net(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        "error: heir-opt not found: install heir-py (pip install heir-py) or give --heir-opt PATH\n"
    )


def test_unwritable_files_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = fake(tmp_path, f"echo '{PARAMS}'")
    for flag in ("--prepared", "-o"):
        target = tmp_path / "missing" / "x.mlir"
        assert main([net(tmp_path), flag, str(target), "--heir-opt", tool]) == 1
        assert capsys.readouterr().err.endswith(f"error: cannot write '{target}': No such file or directory\n")


def test_a_net_deeper_than_one_parameter_set_is_told_it_will_bootstrap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = fake(tmp_path, f"echo '{PARAMS}'")
    assert main([net(tmp_path, 58), "--heir-opt", tool]) == 0
    notice = ("heirpy-heir: depth 58 is more than the 57 levels one HEIR parameter set holds: "
              "heir-opt will bootstrap")
    assert notice in capsys.readouterr().out.splitlines()
    assert main([net(tmp_path, 57), "--heir-opt", tool]) == 0
    assert "will bootstrap" not in capsys.readouterr().out
    assert main([net(tmp_path, 58), "--level-budget", "10", "--heir-opt", tool]) == 0  # the user chose
    assert "will bootstrap" not in capsys.readouterr().out


def test_heir_opt_text_read_at_its_edges() -> None:
    assert first_error("note: a\n  x.mlir:1:2: error: b  \n") == "x.mlir:1:2: error: b"
    assert first_error("\n  warning: only this\n") == "warning: only this"
    assert first_error("") == "(no message)"
    assert read_result(PARAMS.replace("Q = [1, 2, 3]", "Q = []")) is None
    assert read_result(PARAMS.replace("Q = [1, 2, 3], ", "")) is None
    assert read_result(PARAMS.replace("Q = [1, 2, 3]", "Q = [7]")).levels == 0
    assert with_budget(["a", "--torch-linalg-to-ckks=greedy-level-budget=40 x=1"], 12) == [
        "a", "--torch-linalg-to-ckks=x=1 greedy-level-budget=12"]
    assert with_budget(["a", "--torch-linalg-to-ckks"], 12) == ["a", "--torch-linalg-to-ckks=greedy-level-budget=12"]
    assert with_budget(["a", "b"], None) == ["a", "b"]
