"""heirpy-report's pieces on tiny inputs, IREE and heir-opt replaced so that each branch
is reached quickly: what counts as a compute op, the entry function, heir-opt's verdict
(missing, accepting, rejecting with or without an error line), a failing figure kept to
its cells, an unreadable model, an unwritable plot, and the progress on a terminal."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from heirpy.api import parse
from heirpy.ir.diagnostics import HeirpyError
from heirpy.tools import heirpy_report
from heirpy.tools.heirpy_report import count_compute_ops, first_function, guarded, heir_opt_check, main, report_model

SQUARE = """func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %z = linalg.add ins(%y, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %z : tensor<4xf32>
}
"""


def test_compute_ops_and_the_entry() -> None:
    module = parse(SQUARE)
    assert count_compute_ops(module) == 2  # the generic and the add; not its yield or index
    assert first_function(module).sym_name.data == "main"  # the declaration has no body
    with pytest.raises(HeirpyError) as err:
        first_function(parse("func.func private @decl(f32) -> f32\n"))
    assert str(err.value) == "error: the module has no func.func to run"


def fake_tool(tmp_path: Path, name: str, script: str) -> None:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


@pytest.mark.parametrize(
    ("script", "verdict", "detail"),
    [
        ("exit 0", "yes", ""),
        ("echo 'note: a' >&2; echo '  <stdin>:2:3: error: bad op  ' >&2; exit 1", "NO", "<stdin>:2:3: error: bad op"),
        ("echo 'it crashed' >&2; exit 1", "NO", "rejected"),
    ],
)
def test_heir_opt_verdicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, verdict: str,
                           detail: str) -> None:
    fake_tool(tmp_path, "heir-opt", script)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert heir_opt_check("module {}") == {"verdict": verdict, "max_abs_error": None, "detail": detail}


def test_without_heir_opt_the_check_is_not_applicable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert heir_opt_check("module {}") == {"verdict": "n/a", "max_abs_error": None, "detail": ""}


def test_a_failing_figure_fills_only_its_cells() -> None:
    cells: dict[str, object] = {"kept": 1}

    def user_error() -> dict[str, object]:
        raise HeirpyError("error: no")

    def bug() -> dict[str, object]:
        raise KeyError("k")

    guarded(cells, ["a", "b"], user_error)
    guarded(cells, ["c"], bug)
    guarded(cells, ["d"], lambda: {"d": {"before": 1, "after": 1}})
    assert cells == {"kept": 1, "a": {"error": "error: no"}, "b": {"error": "error: no"},
                     "c": {"error": "internal error (a heirpy bug): KeyError: 'k'"}, "d": {"before": 1, "after": 1}}


def test_an_unreadable_model_and_a_heirpy_bug_are_that_models_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "gone.mlir"
    assert report_model(missing, "dce", None, 1)["error"] == f"error: cannot read '{missing}': No such file or directory"
    model = tmp_path / "m.mlir"
    model.write_text(SQUARE)

    def broken(module: object, spec: str) -> None:
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(heirpy_report, "run_pipeline", broken)
    assert report_model(model, "dce", None, 1)["error"] == (
        f"{model}: error: internal error (a heirpy bug): ZeroDivisionError: oops")


def test_an_unwritable_plot_and_the_progress_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "m.mlir"
    model.write_text(SQUARE)
    monkeypatch.setattr("heirpy.analysis.iree_dispatches.find_iree_compile", lambda: None)
    monkeypatch.setenv("PATH", str(tmp_path))  # no heir-opt: n/a
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    plot = tmp_path  # a directory: the file cannot be written
    assert main([str(model), "--seeds", "1", "--pipeline", "dce", "--plot", str(plot)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("[1/1] m ...\r")
    assert err.endswith(f"error: cannot write '{plot}': Is a directory\n")


def test_a_model_is_rewritten_written_out_and_measured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "m.mlir"
    model.write_text(SQUARE.replace("%z = linalg.add ins(%y, %x", "%dead = linalg.add ins(%x, %x : tensor<4xf32>, "
                                    "tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>\n  %z = linalg.add ins(%y, %x"))
    monkeypatch.setattr("heirpy.analysis.iree_dispatches.find_iree_compile", lambda: None)
    monkeypatch.setenv("PATH", str(tmp_path))  # no heir-opt
    out = tmp_path / "out"
    cells = report_model(model, "dce", out, 1)
    assert cells["error"] is None and cells["remarks"] == 0
    assert cells["compute_ops"] == {"before": 3, "after": 2}  # dce removed the dead add
    assert cells["evaluator"]["verdict"] == "ok" and cells["heir_opt"]["verdict"] == "n/a"
    assert cells["pytorch"] is None and "iree_dispatches" not in cells
    assert "%dead" not in (out / "m.mlir").read_text() and "linalg.add" in (out / "m.mlir").read_text()
