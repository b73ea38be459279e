"""report_format on hand-made data (test_report.py runs whole models): each cell kind's
text, human_bytes at its unit boundaries, what fails a model, the notes, the summary,
markdown escaping and the progress line's width, index and verdicts."""

from __future__ import annotations

from typing import Any

import pytest

from heirpy.interp.reference import MODEL_DIFFERS
from heirpy.tools.report_format import (
    COLUMNS,
    cell_text,
    failed_checks,
    human_bytes,
    notes,
    progress_line,
    render_markdown,
    render_text,
    summary,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [(0, "0"), (9_999, "9999"), (10_000, "10.0k"), (123_456, "123k"), (999_499, "999k"), (999_500, "1.00M"),
     (1_234_567, "1.23M"), (45_600_000, "45.6M"), (7_000_000_000, "7.00G"), (2_500_000_000_000, "2.50T"), ("?", "?")],
)
def test_human_bytes(value: int | str, text: str) -> None:
    assert human_bytes(value) == text


def test_check_cells() -> None:
    check = COLUMNS["evaluator"]
    assert cell_text(check, None) == "n/a"
    assert cell_text(check, {"error": "x"}) == "error (below)"
    assert cell_text(check, {"verdict": "ok", "max_abs_error": 1.5e-6}) == "ok 1.5e-06"
    assert cell_text(check, {"verdict": "ok", "max_abs_error": 2e-7, "seeds": [2, 3]}) == "ok 2.0e-07 (2/3 seeds)"
    assert cell_text(check, {"verdict": "ok", "max_abs_error": 2e-7, "seeds": [3, 3]}) == "ok 2.0e-07"
    assert cell_text(check, {"verdict": "MISMATCH", "max_abs_error": 0.25}) == "MISMATCH 2.5e-01"
    assert cell_text(check, {"verdict": MODEL_DIFFERS, "max_abs_error": 0.5}) == f"{MODEL_DIFFERS} 5.0e-01"
    assert cell_text(check, {"verdict": "MISMATCH", "max_abs_error": None}) == "MISMATCH"
    assert cell_text(check, {"verdict": "yes"}) == "yes"


def test_depth_and_pair_cells() -> None:
    depth = COLUMNS["depth"]
    exact = {"before": 5, "after": 3, "before_exact": True, "after_exact": True}
    assert cell_text(depth, exact) == "5→3"
    assert cell_text(depth, {**exact, "before_exact": False}) == "5+→3"
    assert cell_text(depth, {**exact, "after_exact": False, "bound": 2}) == "5→3+ (2)"
    assert cell_text(depth, {**exact, "bound": 2, "bound_exact": False}) == "5→3 (2+)"
    assert cell_text(COLUMNS["weight_bytes"], {"before": 20_000, "after": 9_000}) == "20.0k→9000"
    assert cell_text(COLUMNS["kernels"], {"before": 20_000, "after": 9}) == "20000→9"


def model(name: str = "m", **cells: Any) -> dict[str, Any]:
    return {"name": name, "file": f"{name}.mlir", "error": None, **cells}


def test_what_fails_a_model_and_the_notes() -> None:
    ok = model("a", heir_opt={"verdict": "yes"}, evaluator={"verdict": "ok", "max_abs_error": 0.0},
               pytorch={"verdict": MODEL_DIFFERS, "max_abs_error": 0.1, "detail": "off"}, remarks=1)
    bad = model("b", heir_opt={"verdict": "NO", "detail": "x:1:1: error: no"}, evaluator={"verdict": "n/a"},
                kernels={"error": "boom"}, remarks=2)
    broken = {"name": "c", "file": "c.mlir", "error": "c.mlir:1:1: error: bad"}
    assert failed_checks(ok) == []
    assert failed_checks(bad) == ["heir-opt parses: NO", "kernels: error"]
    assert failed_checks(broken) == ["error"]
    data = {"pipeline": "p", "models": [ok, bad, broken]}
    assert notes(data) == [
        "a, vs PyTorch: off",
        "a: the pipeline made 1 remark (heirpy-opt a.mlir -p PIPELINE prints them)",
        "b, heir-opt parses: x:1:1: error: no",
        "b, kernels: boom",
        "b: the pipeline made 2 remarks (heirpy-opt b.mlir -p PIPELINE prints them)",
        "c: c.mlir:1:1: error: bad",
    ]
    assert summary(data) == "not passed: 2 of 3 models: b (heir-opt parses: NO, kernels: error); c (error)"
    assert summary({"models": [ok]}) == "all checks passed (1 models)"


def test_markdown_escapes_pipes_and_text_names_the_outputs() -> None:
    data = {"pipeline": "a|b", "out_dir": "out", "plot": "p.png",
            "models": [model("x|y", kernels={"before": 2, "after": 1})]}
    md = render_markdown(data)
    assert md.startswith("Pipeline: `a|b`\n") and "| x\\|y | " in md and md.endswith("all checks passed (1 models)")
    assert "|---|---|---|---|---|---|" in md  # the kernel group: model + 5 columns
    text = render_text(data)
    assert "rewritten models: out/" in text.splitlines() and "plot: p.png" in text.splitlines()
    assert "rewritten models" not in render_text({**data, "out_dir": None})


def test_the_progress_line() -> None:
    m = model("net", seconds=1.25, depth={"before": 4, "after": 2, "before_exact": True, "after_exact": True},
              kernels={"before": 9, "after": 3}, evaluator={"verdict": "ok", "max_abs_error": 0.0})
    assert progress_line(3, 12, 5, m) == "[ 3/12] net      1.2 s  ok  depth 4→2  kernels 9→3"
    differs = {**m, "pytorch": {"verdict": MODEL_DIFFERS, "max_abs_error": 0.1}}
    assert f"  {MODEL_DIFFERS}  " in progress_line(1, 1, 3, differs)
    failing = {**m, "evaluator": {"verdict": "MISMATCH", "max_abs_error": 1.0}, "kernels": {"error": "x"}}
    assert progress_line(1, 1, 3, failing) == (
        "[1/1] net    1.2 s  NOT PASSED: vs evaluator: MISMATCH, kernels: error  depth 4→2")
    long = progress_line(1, 1, 3, failing, width=30)
    assert len(long) == 30 and long.endswith("…")
    assert progress_line(1, 1, 3, {"name": "x", "error": "x.mlir:1:1: error: e"}) == "x.mlir:1:1: error: e"
