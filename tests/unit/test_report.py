"""heirpy-report, the main job: its figures on real models, its three formats (the same
data), a width that fits a terminal, a line per model as it goes, and its errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from heirpy.interp.reference import load_npz
from heirpy.tools import heirpy_report
from heirpy.tools.heirpy_report import main
from heirpy.tools.report_format import GROUPS, WIDTH, fit_table, render_markdown, render_text

EXAMPLES = Path(__file__).parent.parent.parent / "examples"

# x² of a large number overflows f32: PyTorch computes (x*1e30)**2 - (x*1e30)**2 = inf - inf = NaN,
# and so does heirpy's evaluator, before and after the pipeline. Equal NaNs prove nothing.
X2_OVERFLOW = """#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %cst = arith.constant dense<1.000000e+30> : tensor<1x4xf32>
    %0 = tensor.empty() : tensor<1x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %cst : tensor<1x4xf32>, tensor<1x4xf32>) outs(%0 : tensor<1x4xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %2 = arith.mulf %in, %in_0 : f32
      %3 = arith.mulf %2, %2 : f32
      %4 = arith.subf %3, %3 : f32
      linalg.yield %4 : f32
    } -> tensor<1x4xf32>
    return %1 : tensor<1x4xf32>
  }
}
"""


def x2_overflow(tmp_path: Path) -> Path:
    model = tmp_path / "x2_overflow.mlir"
    model.write_text(X2_OVERFLOW)
    x = np.ones((1, 4), np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = x * np.float32(1e30)
        torch_output = scaled * scaled - scaled * scaled  # what PyTorch computes, in f32
    assert np.isnan(torch_output).all()
    np.savez(tmp_path / "x2_overflow.npz", arg0=x, result0=torch_output)
    return model


def _copy_example(tmp_path: Path, name: str) -> Path:
    model = tmp_path / f"{name}.mlir"
    model.write_text((EXAMPLES / f"{name}.mlir").read_text())
    # The arrays themselves: yolo_head_k1.npz takes its results from yolov5s_detect.npz (npz_recipes).
    np.savez(tmp_path / f"{name}.npz", **load_npz(EXAMPLES / f"{name}.npz"))
    return model


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    status = main([*argv, "--format", "json"])
    return status, json.loads(capsys.readouterr().out)


def _row(out: str, title: str, name: str) -> str:
    """The line of model `name` in the table under `title`."""
    section = out[out.index(f"\n{title}\n"):]
    return next(line for line in section.splitlines() if line.startswith(f"{name} "))


def test_report_on_tiny_cnn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, data = _json(capsys, str(EXAMPLES / "tiny_cnn.mlir"), "--out-dir", str(tmp_path), "--seeds", "1")
    assert status == 0
    (model,) = data["models"]
    assert model["evaluator"]["verdict"] == model["pytorch"]["verdict"] == "ok"
    assert model["heir_opt"]["verdict"] == "yes"
    assert (model["depth"]["before"], model["depth"]["after"]) == (6, 3)  # the figure docs/passes.md reports
    assert (model["depth"]["bound"], model["depth"]["bound_exact"]) == (3, True)
    assert (model["kernels"]["before"], model["kernels"]["after"]) == (17, 3)
    # weight bytes: conv 2x1x3x3, conv 4x2x3x3, Linear 16x10 floats before; after, the
    # conv+pool filter 2x1x4x4 and the 32x10 matrix of conv, pool and Linear.
    assert model["weight_bytes"] == {"before": 4 * (18 + 72 + 160), "after": 4 * (32 + 320)}
    # MLIR's text: the affine maps' alias lines, then the module.
    assert re.match(r"(#map\d* = affine_map<[^\n]*>\n)*module \{\n", (tmp_path / "tiny_cnn.mlir").read_text())


def test_text_tables_group_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLES / "tiny_cnn.mlir"), "--seeds", "1"]) == 0
    out = capsys.readouterr().out
    assert [g.title in out for g in GROUPS] == [True] * len(GROUPS)
    assert _row(out, "Checks", "tiny_cnn").split()[1:] == ["yes", "ok", "1.5e-08", "ok", "3.0e-08"]
    row = _row(out, "Encrypted inference (CKKS cost model)", "tiny_cnn")
    assert row.split()[1:5] == ["6→3", "(3)", "5→2", "1000→1408"]
    assert _row(out, "Kernels", "tiny_cnn").split()[1:3] == ["15→7", "17→3"]
    assert out.rstrip().endswith("all checks passed (1 models)")


def test_report_shows_iree_dispatches_before_and_after(capsys: pytest.CaptureFixture[str]) -> None:
    """iree-compile is a test extra, so the column is there; the 1x1 YOLO head goes from
    IREE's 2 dispatches to 1 (tests/unit/test_iree_dispatches.py has the details)."""
    status, data = _json(capsys, str(EXAMPLES / "yolo_head_k1.mlir"), "--seeds", "1")
    assert status == 0
    assert data["models"][0]["iree_dispatches"] == {"before": 2, "after": 1}


def test_report_iree_column_is_the_iree_pipeline(capsys: pytest.CaptureFixture[str]) -> None:
    """The IREE column counts heirpy's output under `iree-prepare`, what docs/iree.md tells
    IREE users to run, not the report's CKKS pipeline: on the MobileNet block the main
    pipeline composes a projection with the next 1x1 conv (4 dispatches, more MACs), the
    IREE pipeline keeps raw's 5."""
    from heirpy.analysis.iree_dispatches import find_iree_compile, iree_dispatches
    from heirpy.api import parse, print_module, run_pipeline

    model = EXAMPLES / "mobilenet_block.mlir"
    status, data = _json(capsys, str(model), "--seeds", "1")
    assert status == 0
    assert data["models"][0]["iree_dispatches"] == {"before": 5, "after": 5}
    main_output = parse(model.read_text())
    run_pipeline(main_output, f"{data['pipeline']},lower-tensor-ext")
    tool = find_iree_compile()
    assert tool is not None
    assert len(iree_dispatches(print_module(main_output), tool)) == 4  # what the column showed before
    from heirpy.transforms.iree.iree_prepare import iree_prepare_pipeline

    docs = (EXAMPLES.parent / "docs" / "iree.md").read_text()
    assert "-p iree-prepare" in docs and iree_prepare_pipeline("cpu") in docs


def test_nan_is_not_comparable_never_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25: a network whose PyTorch output is NaN (x² overflow) showed
    `ok (max abs err 0.0e+00)` in both numeric columns. Equal NaNs are no agreement: both
    columns say why they cannot compare, and the run does not pass."""
    model = x2_overflow(tmp_path)
    assert main([str(model), "--seeds", "2"]) == 1
    captured = capsys.readouterr()
    row = _row(captured.out, "Checks", "x2_overflow")
    assert " ok" not in row and "0.0e+00" not in row
    assert row.count("not comparable: reference has NaN") == 2
    assert "error: checks not passed for x2_overflow" in captured.err
    status, data = _json(capsys, str(model), "--seeds", "2")
    cells = data["models"][0]
    assert status == 1
    assert cells["evaluator"]["verdict"] == cells["pytorch"]["verdict"] == "not comparable: reference has NaN"


def test_formats_hold_the_same_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The text report is what render_text makes of the JSON report, and the markdown
    tables hold the same cells: a script reading JSON sees what a person reads."""
    files = [str(EXAMPLES / "tiny_cnn.mlir"), str(x2_overflow(tmp_path)), str(tmp_path / "missing.mlir")]
    status_json, data = _json(capsys, *files, "--seeds", "1")
    status_text = main([*files, "--seeds", "1"])
    text = capsys.readouterr().out
    assert status_json == status_text == 1
    assert render_text(data) + "\n" == text
    assert main([*files, "--seeds", "1", "--format", "markdown"]) == 1
    markdown = capsys.readouterr().out
    assert markdown == render_markdown(data) + "\n"
    tables = _markdown_tables(markdown)
    assert len(tables) == len(GROUPS)
    for table, group in zip(tables, GROUPS):
        assert table[0] == ["model", *[c.header for c in group.columns]]
        assert [row[0] for row in table[1:]] == ["tiny_cnn", "x2_overflow", "missing"]
    assert tables[0][1][1:] == ["yes", "ok 1.5e-08", "ok 3.0e-08"]
    assert tables[0][2][2] == "not comparable: reference has NaN"


def _markdown_tables(text: str) -> list[list[list[str]]]:
    """Each GitHub-flavoured markdown table of `text` as rows of cells; asserts it is one:
    a header row, a separator row of as many columns, body rows of as many cells."""
    tables: list[list[list[str]]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not (line.startswith("|") and i + 1 < len(lines) and re.fullmatch(r"(\|-{3,})+\|", lines[i + 1])):
            continue
        width = lines[i + 1].count("|") - 1
        rows = []
        for body in [line, *[row for row in _rows_from(lines, i + 2)]]:
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)[1:-1]]
            assert len(cells) == width, body
            rows.append(cells)
        tables.append(rows)
    return tables


def _rows_from(lines: list[str], start: int) -> list[str]:
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def _worst_case_report() -> dict[str, Any]:
    """Every kind of long cell at once: a long name, errors, verdicts that do not pass."""
    long_error = "model.mlir:1:1: error: " + "a long diagnostic " * 10
    checks = {"verdict": "not comparable: reference has NaN and Inf", "max_abs_error": 0.0, "detail": ""}
    model = {
        "name": "a_whole_network_with_a_long_name_v2", "file": "x.mlir", "error": None,
        "heir_opt": {"verdict": "NO", "max_abs_error": None, "detail": long_error},
        "evaluator": checks, "pytorch": checks,
        "depth": {"before": 120, "after": 110, "before_exact": False, "after_exact": False, "bound": 100},
        "linear_ops": {"before": 1234, "after": 999},
        "weight_bytes": {"before": 123_456_789_012, "after": 98_765_432_109},
        "compute_ops": {"before": 4321, "after": 1234}, "kernels": {"before": 4000, "after": 3000},
        "intermediate_bytes": {"before": 999_999_999_999, "after": 888_888_888_888},
        "constant_bytes": {"before": 123_456_789_012, "after": 98_765_432_109},
        "iree_dispatches": {"before": "rejected", "after": "rejected"},
    }
    broken = {"name": "broken", "file": "b.mlir", "error": long_error}
    internal = dict(model, name="internal", kernels={"error": "internal error (a heirpy bug): " + "x" * 150})
    return {"pipeline": "linalg-canonicalizations,linalg-fuse-ops{slot-budget=0 max-mac-growth=4}",
            "out_dir": "build/examples", "plot": "build/report.png", "models": [model, broken, internal]}


def test_text_fits_100_columns_whatever_the_cells() -> None:
    text = render_text(_worst_case_report())
    too_wide = [line for line in text.splitlines() if len(line) > WIDTH]
    assert not too_wide
    assert "not comparable:" in text and "broken" in text


def test_fit_table_wraps_the_widest_column_not_the_model_name() -> None:
    lines = fit_table(["model", "wide"], [["tiny_cnn", "word " * 40]], width=40)
    assert all(len(line) <= 40 for line in lines)
    assert lines[2].startswith("tiny_cnn  word") and lines[3].startswith("          word")


def test_output_of_a_run_fits_100_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The main job's output, progress lines included, on a model of each kind: fine, with
    IREE figures, not comparable, unreadable. Paths are relative, as run-examples.sh gives
    them (a diagnostic `file:line:col: error: ...` is one line, however long its path)."""
    for name in ("tiny_cnn", "yolo_head_k1"):
        _copy_example(tmp_path, name)
    x2_overflow(tmp_path)
    monkeypatch.chdir(tmp_path)
    files = ["tiny_cnn.mlir", "yolo_head_k1.mlir", "x2_overflow.mlir", "missing.mlir"]
    main([*files, "--seeds", "1", "--out-dir", "build/examples", "--plot", "build/report.png"])
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).splitlines()
    assert len(lines) > 30
    assert [line for line in lines if len(line) > WIDTH] == []


def test_a_line_per_model_as_soon_as_it_is_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole networks take tens of seconds each: the user sees each one finish."""
    seen_before: list[str] = []
    real = heirpy_report.report_model

    def spy(path: Path, *args: Any) -> dict[str, Any]:
        seen_before.append(capsys.readouterr().err)  # what the user saw when this model started
        return real(path, *args)

    monkeypatch.setattr(heirpy_report, "report_model", spy)
    model = _copy_example(tmp_path, "tiny_cnn")
    assert main([str(model), str(model), "--seeds", "1"]) == 0
    assert seen_before[0] == ""
    assert re.match(r"\[1/2\] tiny_cnn +[\d.]+ s  ok  depth 6→3 \(3\)  kernels 17→3\n$", seen_before[1])


def test_a_failing_figure_shows_and_the_others_go_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A heirpy bug in one figure is that model's error, in its cells and notes; the other
    figures and models are still reported, and the run does not pass."""
    def broken(*_: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(heirpy_report, "kernel_figures", broken)
    status, data = _json(capsys, str(EXAMPLES / "tiny_cnn.mlir"), "--seeds", "1")
    model = data["models"][0]
    assert model["kernels"] == {"error": "internal error (a heirpy bug): ZeroDivisionError: division by zero"}
    assert model["depth"]["after"] == 3 and model["evaluator"]["verdict"] == "ok"
    assert status == 1  # a check that could not run is not a pass: the figures come with the checks
    text = render_text(data)
    assert "tiny_cnn, kernels: internal error (a heirpy bug): ZeroDivisionError" in text


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


def test_a_model_off_the_reference_passes_as_the_models_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The reference is 0.5 off every output: the input model disagrees with it as much as
    heirpy's output does, so that is the model's arithmetic (or its reference), not
    heirpy's fault: a pass that says so (tests/unit/test_numerics_verdict.py, the rule)."""
    model = _copy_example(tmp_path, "tiny_cnn")
    with np.load(tmp_path / "tiny_cnn.npz") as data:
        arrays = {key: data[key] for key in data.files}
    arrays["result0"] = arrays["result0"] + 0.5
    np.savez(tmp_path / "tiny_cnn.npz", **arrays)
    assert main([str(model), "--seeds", "1"]) == 0
    captured = capsys.readouterr()
    assert _row(captured.out, "Checks", "tiny_cnn").split()[-4:] == ["model≠ref,", "heirpy", "ok", "5.0e-01"]
    assert "tiny_cnn, vs PyTorch: result #0: heirpy's output vs the reference max abs err 0.5, the model's own 0.5" \
        in " ".join(captured.out.split())
    assert "the model's own arithmetic differs" in " ".join(captured.out.split())
    assert "model≠ref, heirpy ok" in captured.err and "checks not passed" not in captured.err


def test_report_fails_when_heirpy_moves_values_off_the_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """heirpy's output (the module the pipeline rewrote) comes out 0.5 off while the input
    model matches PyTorch: heirpy's fault, exit 1. A stand-in for a wrong rewrite: every
    result of the rewritten module is shifted, the input model's are not."""
    model = _copy_example(tmp_path, "tiny_cnn")
    rewritten: list[object] = []
    real_clone, real_run = heirpy_report.clone_module, heirpy_report.run_function

    def clone(module: Any) -> Any:
        rewritten.append(real_clone(module))
        return rewritten[-1]

    def run(module: Any, *args: Any, **kwargs: Any) -> list[np.ndarray]:
        results = real_run(module, *args, **kwargs)
        return [r + np.float32(0.5) for r in results] if any(module is m for m in rewritten) else results

    monkeypatch.setattr(heirpy_report, "clone_module", clone)
    monkeypatch.setattr(heirpy_report, "run_function", run)
    assert main([str(model), "--seeds", "1"]) == 1
    captured = capsys.readouterr()
    assert _row(captured.out, "Checks", "tiny_cnn").split()[-2:] == ["MISMATCH", "5.0e-01"]
    assert "heirpy moved 10 value(s) further from the reference" in " ".join(captured.out.split())
    assert "error: checks not passed for tiny_cnn" in captured.err


def test_an_f16_model_off_its_reference_passes_and_one_within_is_ok(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An f16 head (sigmoid outputs up to 1: atol and rtol 4 f16 ulps, 3.9e-3 each): PyTorch's
    own values are ok; shifted by 0.01 (past 7.8e-3, the most any value may be off) the
    model differs from them and heirpy does not: a pass."""
    model = _copy_example(tmp_path, "yolo_head_k1_f16")
    status, data = _json(capsys, str(model), "--seeds", "1")
    assert status == 0 and data["models"][0]["pytorch"]["verdict"] == "ok"
    assert data["models"][0]["pytorch"]["atol"] == pytest.approx(4 * 2**-10, rel=0.01)
    with np.load(tmp_path / "yolo_head_k1_f16.npz") as npz:
        arrays = {key: npz[key] for key in npz.files}
    arrays["result0"] = (arrays["result0"].astype(np.float32) + 0.01).astype(np.float16)
    np.savez(tmp_path / "yolo_head_k1_f16.npz", **arrays)
    status, data = _json(capsys, str(model), "--seeds", "1")
    cell = data["models"][0]["pytorch"]
    assert status == 0 and cell["verdict"] == "model≠ref, heirpy ok"
    assert cell["model_abs_error"] == pytest.approx(0.01, abs=2e-3) and cell["changed_abs_error"] < 4e-3


def test_report_without_npz_says_not_applicable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "tiny_cnn.mlir"
    model.write_text((EXAMPLES / "tiny_cnn.mlir").read_text())
    assert main([str(model), "--seeds", "1"]) == 0
    assert _row(capsys.readouterr().out, "Checks", "tiny_cnn").split()[-1] == "n/a"


def test_a_seed_that_overflows_is_not_compared_and_says_so(tmp_path: Path) -> None:
    """(x·1e19)² overflows f32 when |x| > 1.84: on seeds 2 and 3 of 5 (4 standard-normal
    values each), not on 0, 1, 4. Those seeds are not compared (NaN proves nothing); the
    others are, so the check is ok on 3 of 5 seeds and names the two it skipped. On a
    whole network (ResNet-20's 19 squarings) one random seed in three overflows."""
    from heirpy.api import parse, run_pipeline
    from heirpy.tools.heirpy_report import evaluator_check
    from heirpy.tools.report_format import COLUMNS, cell_text

    text = X2_OVERFLOW.replace("1.000000e+30", "1.000000e+19")
    before, after = parse(text), parse(text)
    run_pipeline(after, "linalg-canonicalizations,linalg-fuse-ops")
    cell = evaluator_check(before, after, 5)
    assert (cell["verdict"], cell["seeds"], cell["max_abs_error"]) == ("ok", [3, 5], 0.0)
    assert cell["detail"] == "not compared on seed 2 (reference has NaN); seed 3 (reference has NaN)"
    assert cell_text(COLUMNS["evaluator"], cell) == "ok 0.0e+00 (3/5 seeds)"
    assert evaluator_check(before, after, 2)["seeds"] == [2, 2]


def test_a_result_not_comparable_fails_even_beside_one_where_only_the_model_differs(tmp_path: Path) -> None:
    """Two results: the first off its reference for the model and heirpy alike (a pass on its
    own), the second's reference NaN (not comparable): the cell is not comparable, a fail."""
    from heirpy.api import parse

    text = """module {
  func.func @main(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    return %arg0, %arg0 : tensor<2xf32>, tensor<2xf32>
  }
}
"""
    x = np.ones(2, np.float32)
    np.savez(tmp_path / "two.npz", arg0=x, result0=x + 1, result1=np.float32([1.0, np.nan]))
    module = parse(text, "two.mlir")
    cell = heirpy_report.pytorch_check(tmp_path / "two.npz", module, module)
    assert cell is not None and cell["verdict"] == "not comparable: reference has NaN"
    np.savez(tmp_path / "two.npz", arg0=x, result0=x + 1, result1=x)
    cell = heirpy_report.pytorch_check(tmp_path / "two.npz", module, module)
    assert cell is not None and cell["verdict"] == "model≠ref, heirpy ok"


def test_a_model_that_failed_reads_as_an_error_in_every_table_and_its_checks_in_progress() -> None:
    """The row of a model heirpy could not read says so in each group's table (text and
    markdown), and the progress line of a model whose checks failed names them."""
    from heirpy.tools.report_format import progress_line

    data = _worst_case_report()
    text, markdown = render_text(data), render_markdown(data)
    broken_rows = [line for line in text.splitlines() if line.startswith("broken ")]
    assert len(broken_rows) == len(GROUPS) and all(line.split()[1] == "error" for line in broken_rows)
    assert any(line.split()[1:] == ["error", "(below)"] for line in broken_rows)  # a narrow table may wrap "(below)"
    broken_md = [line for line in markdown.splitlines() if line.startswith("| broken |")]
    assert len(broken_md) == len(GROUPS) and all(line.split("|")[2].strip() == "error" for line in broken_md)
    line = progress_line(1, 3, 10, data["models"][0], width=1000)
    assert "NOT PASSED: " in line and "ok" not in line.split()


def test_pass_remarks_are_counted_in_the_notes_not_printed_between_the_progress_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """LeNet-5's two fused chains grow their constants past 1.5x per level saved, and the
    pass remarks on each, and once more that the module's growth is kept as it adds less
    than `free-constant-bytes` (heirpy-opt prints them); the report keeps its progress lines
    whole and says in the notes how many there were and which command prints them. A model
    with no remark gets no note."""
    status = main([str(EXAMPLES / "lenet5.mlir"), str(EXAMPLES / "tiny_cnn.mlir"), "--seeds", "1"])
    captured = capsys.readouterr()
    assert status == 0
    assert "remark:" not in captured.err and "remark:" not in captured.out
    notes = captured.out[captured.out.index("\nNotes\n"):]
    assert "lenet5: the pipeline made 3 remarks (heirpy-opt " in notes
    assert "tiny_cnn:" not in notes
