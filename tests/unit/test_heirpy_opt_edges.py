"""heirpy-opt's options and error lines that its other tests left unchecked: an
internal error names the exception's first line, `--print-between-passes` honours
`--print-local-scope`, and a plugin's dialects are registered under their names
(survivors of issue 35's third mutation sample, in tools/heirpy_opt.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from xdsl.ir import Dialect

from heirpy.tools import heirpy_opt
from heirpy.tools.heirpy_opt import HeirpyOptMain, main

GENERIC = """#map = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.mulf %in, %in : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def test_an_internal_error_names_the_exception_and_its_first_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(self: HeirpyOptMain) -> None:
        raise RuntimeError("the first line\nthe second line")

    monkeypatch.setattr(HeirpyOptMain, "run", broken)
    path = tmp_path / "in.mlir"
    path.write_text(GENERIC)
    assert main([str(path)]) == 1
    assert capsys.readouterr().err == (
        "error: internal error (RuntimeError: the first line); rerun with --debug for a traceback\n"
    )


@pytest.mark.parametrize("local_scope", [False, True])
def test_printing_between_passes_honours_local_scope(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], local_scope: bool
) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(GENERIC)
    flags = ["--print-local-scope"] if local_scope else []
    assert main([str(path), "-p", "unroll-depthwise-conv,unroll-depthwise-conv", "--print-between-passes", *flags]) == 0
    between = capsys.readouterr().out.split("IR after unroll-depthwise-conv:")[1].split("\n\n\n")[0]
    assert ("indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]" in between) == local_scope
    assert ("indexing_maps = [#map, #map]" in between) != local_scope


def test_a_plugin_dialect_is_registered_under_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dialects that another package adds to xDSL's multiverse (and heirpy's context
    does not name) are registered as heirpy-opt starts, by name."""
    plugin = Dialect("heirpy_test_plugin", [], [])

    real = heirpy_opt.Universe.get_multiverse()

    class Multiverse:
        all_dialects = {**real.all_dialects, "heirpy_test_plugin": lambda: plugin}

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

    monkeypatch.setattr(heirpy_opt.Universe, "get_multiverse", staticmethod(lambda: Multiverse()))
    driver = HeirpyOptMain([])
    assert "heirpy_test_plugin" in driver.ctx.registered_dialect_names
    assert driver.ctx.get_optional_dialect("heirpy_test_plugin") is plugin


def test_a_pipe_broken_at_the_last_flush_ends_quietly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`_end_process`, when stdout's last flush finds the reader gone: SIGPIPE's status
    (141, as mlir-opt), and stdout pointed at /dev/null so that nothing at exit fails on
    the pipe again. (Run as a process, heirpy-opt flushes its output before this, so
    the path is reached only by what is still buffered: hence a direct test.)"""
    target = (tmp_path / "stdout").open("wb")

    class BrokenStdout:
        def flush(self) -> None:
            raise BrokenPipeError

        def fileno(self) -> int:
            return target.fileno()

    class Exited(Exception):
        pass

    def exit_with(code: int) -> None:
        raise Exited(code)

    monkeypatch.setattr(sys, "stdout", BrokenStdout())
    monkeypatch.setattr(heirpy_opt.atexit, "_run_exitfuncs", lambda: None)
    monkeypatch.setattr(heirpy_opt.os, "_exit", exit_with)
    with pytest.raises(Exited) as exited:
        heirpy_opt._end_process(0)
    assert exited.value.args == (141,)
    null = os.stat(os.devnull)
    now = os.fstat(target.fileno())
    assert (now.st_dev, now.st_ino) == (null.st_dev, null.st_ino)
    target.close()


def test_an_error_is_located_on_its_own_line_without_split_input_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In process (test_cli.py checks the same through a subprocess, which mutation
    testing cannot trace): a whole file's lines count from 1."""
    path = tmp_path / "in.mlir"
    path.write_text(GENERIC.replace("ins(%a : tensor<4xf32>)", "ins(%a tensor<4xf32>)"))
    assert main([str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:3:")


def test_as_the_command_it_reads_its_arguments_after_the_program_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.mlir"
    path.write_text(GENERIC)
    ended: list[int] = []
    monkeypatch.setattr(sys, "argv", ["heirpy-opt", str(path), "--print-local-scope"])
    monkeypatch.setattr(heirpy_opt, "_end_process", ended.append)
    assert main() == 0
    assert ended == [0]
    assert "indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]" in capsys.readouterr().out
