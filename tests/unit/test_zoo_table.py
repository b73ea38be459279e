"""The zoo's table (benchmarks/zoo/table.py) on hand-made results: untimed rows are marked,
and each f16 model is held against its f32 twin's depth and linear-op count (issue 34)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ZOO = Path(__file__).resolve().parents[2] / "benchmarks" / "zoo"
sys.path[:0] = [str(ZOO), str(ZOO.parent)]

import table  # noqa: E402


def result(name: str, dtype: str, depth: int, linear: int, **extra: Any) -> dict[str, Any]:
    return {
        "name": name, "dtype": dtype, "numerics": {"verdict": "ok", "max_abs_error": 1e-6},
        "depth": {"before": 2 * depth, "after": depth, "bound": 10},
        "linear_ops": {"before": 2 * linear, "after": linear},
        "constant_bytes": {"before": 1e6, "main": 1e6}, "iree_constant_bytes": 1e6,
        "dispatches": {"raw default": 5, "heirpy default": 5, "raw best": 6, "heirpy best": 6}, **extra,
    }


def test_f16_reaching_its_twin_is_no_gap_and_one_above_is() -> None:
    f32 = result("net", "f32", 10, 8)
    assert table.twin_gap(f32, result("net", "f16", 10, 8)) is None
    assert table.twin_gap(f32, result("net", "f16", 9, 7)) is None  # below f32 is not a miss
    assert table.twin_gap(f32, result("net", "f16", 11, 8)) == "depth 11 vs 10"
    assert table.twin_gap(f32, result("net", "f16", 10, 9)) == "linear ops 9 vs 8"


def test_twin_summary_lists_the_short_ones_with_their_figures() -> None:
    results = [result("a", "f32", 10, 8), result("a", "f16", 12, 9),
               result("b", "f32", 5, 4), result("b", "f16", 5, 4),
               result("c", "f32", 5, 4),  # no f16 twin measured: not counted
               result("d", "f32", 5, 4), {"name": "d", "dtype": "f16", "error": "boom"}]
    text = table.twin_summary(results)
    assert text.splitlines()[0].startswith("f16 at its f32 twin's depth and linear-op count: 1 of 2 ")
    assert "- short: a: depth 12 vs 10, linear ops 9 vs 8" in text
    assert "b:" not in text
    assert "a f16: below its f32 twin: depth 12 vs 10, linear ops 9 vs 8" in table.misses(results)
    assert "| a     | 10 / 12 (10)" in table.twin_table(results)


def test_untimed_rows_say_so_and_timed_rows_show_the_times() -> None:
    untimed = table.row(result("a", "f32", 10, 8, untimed=True))
    assert untimed.count("untimed") == 5
    timed = table.row(result("a", "f32", 10, 8, torch_ms=3.0, ms={
        "raw default": 2.0, "heirpy default": 1.0, "raw best": 1.0, "heirpy best": 0.5}))
    assert "untimed" not in timed and "0.50" in timed and "3.0" in timed
    assert "16 -> 8" in timed  # linear ops raw -> main
    assert "(1 untimed, 0 with an error)" in table.summary([result("a", "f32", 10, 8, untimed=True), result("b", "f32", 10, 8)])


def test_a_timed_run_completes_an_untimed_result_without_measuring_it_again(
        tmp_path: Path, monkeypatch: Any) -> None:
    import json

    import measure
    import models
    import run_zoo

    directory = tmp_path / "lcnet_050" / "f32"
    directory.mkdir(parents=True)
    path = directory / "result.json"
    path.write_text(json.dumps(result("lcnet_050", "f32", 10, 8, untimed=True, clock="cpu", seconds=5.0)))
    assert run_zoo.done(path, untimed=True) and not run_zoo.done(path, untimed=False)

    def never(*args: Any) -> None:
        raise AssertionError("a cached model was exported or measured again")

    monkeypatch.setattr(models, "export", never)
    monkeypatch.setattr(measure, "measure", never)
    monkeypatch.setattr(models, "torch_ms", lambda spec: 3.0)
    monkeypatch.setattr(measure, "complete_timing", lambda d, rounds: {"ms": {"raw best": 1.0, "heirpy best": 0.5}})
    assert run_zoo.one("lcnet_050", "f32", tmp_path, 1) == 0
    done = json.loads(path.read_text())
    assert "untimed" not in done and done["torch_ms"] == 3.0 and done["ms"]["heirpy best"] == 0.5
    assert done["depth"]["after"] == 10 and run_zoo.done(path, untimed=False)


def test_an_iree_failure_keeps_heirpys_figures_and_is_a_miss() -> None:
    failed = result("a", "f16", 10, 8, error="IREE side: RuntimeError: iree-compile failed")
    failed.pop("dispatches")
    cells = table.row(failed)
    assert "IREE failed" in cells and "10 / 10" in cells
    assert "a f16: failed: IREE side: RuntimeError: iree-compile failed" in table.misses([failed])
    assert table.summary([failed]).startswith("models run: 1 of 1 (0 untimed, 1 with an error); numerics ok: 1 of 1")


def test_a_flag_set_iree_fails_on_shows_failed_beside_the_counts_measured() -> None:
    r = result("a", "f16", 10, 8, error="IREE side: RuntimeError: heirpy best: ...",
               iree_failures={"heirpy best": "iree-compile failed: ..."})
    r["dispatches"] = {"raw default": 5, "heirpy default": 4, "raw best": 6}
    cells = table.row(r)
    assert "5 -> 4" in cells and "6 -> failed" in cells


def test_an_f16_output_pytorch_overflows_is_not_comparable_not_a_crash() -> None:
    """RepVGG-A0's random weights overflow f16 in PyTorch itself (outputs ~3e4 in f32)."""
    import measure
    import numpy as np

    from heirpy.api import parse

    module = parse("func.func @main(%a: tensor<2xf16>) -> tensor<2xf16> {\n  return %a : tensor<2xf16>\n}\n", "id")
    arrays = {"arg0": np.array([np.inf, 1.0], np.float16), "result0": np.array([np.inf, 1.0], np.float16),
              "f32_result0": np.array([7e4, 1.0], np.float32)}
    assert measure.numerics(module, arrays)["verdict"].startswith("not comparable")
    arrays["arg0"] = arrays["result0"] = np.array([2.0, 1.0], np.float16)
    arrays["f32_result0"] = np.array([2.0, 1.0], np.float32)
    assert measure.numerics(module, arrays) == {"verdict": "ok", "max_abs_error": 0.0, "torch_f16_error": 0.0,
                                                "allowed": 4 * float(np.finfo(np.float16).eps) * 2.0}


def test_redo_keeps_a_cached_result_that_until_says_is_too_late_to_measure(
        tmp_path: Path, monkeypatch: Any) -> None:
    import json
    import subprocess

    import run_zoo

    path = tmp_path / "lcnet_050" / "f32" / "result.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(result("lcnet_050", "f32", 10, 8, clock="cpu", seconds=5.0)))

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a model was measured after --until")

    monkeypatch.setattr(subprocess, "run", never)
    clock = iter([DAY + 23 * 3600 + 58 * 60] + [DAY + 23 * 3600 + 59 * 60 + 30] * 10)
    monkeypatch.setattr(run_zoo.time, "time", lambda: next(clock))  # 23:58 at the start, then 23:59:30
    argv = ["--only", "lcnet_050", "--dtype", "f32", "--cache", str(tmp_path), "--redo"]
    assert run_zoo.main(argv + ["--until", "23:59"]) == 0
    assert path.exists() and json.loads(path.read_text())["depth"]["after"] == 10
    assert run_zoo.main(argv + ["--table-only"]) == 0
    assert path.exists()


DAY = 20_000 * 86400  # a midnight, UTC, in seconds since the epoch


def test_until_is_the_next_time_the_clock_reads_it_across_midnight() -> None:
    import run_zoo

    assert run_zoo.until("00:35", DAY + 22 * 3600 + 55 * 60) == DAY + 86400 + 35 * 60
    assert run_zoo.until("23:50", DAY + 22 * 3600 + 55 * 60) == DAY + 23 * 3600 + 50 * 60
    assert run_zoo.until("22:55", DAY + 22 * 3600 + 55 * 60) == DAY + 86400 + 22 * 3600 + 55 * 60
    assert run_zoo.until("22:56", DAY + 22 * 3600 + 55 * 60) == DAY + 22 * 3600 + 56 * 60


def test_an_f32_model_off_pytorch_is_judged_by_heirpy_reports_rule() -> None:
    """The raw IR off PyTorch and heirpy no further from it: a pass (`MODEL_DIFFERS`); heirpy
    further off than the raw IR: MISMATCH; both at PyTorch's values: ok."""
    import measure
    import numpy as np

    from heirpy.api import parse
    from heirpy.interp.reference import MODEL_DIFFERS

    def returning(value: str) -> object:
        return parse("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %c = arith.constant dense<["
                     + value + "]> : tensor<2xf32>\n  %s = arith.addf %a, %c : tensor<2xf32>\n"
                     "  return %s : tensor<2xf32>\n}\n", "m")

    arrays = {"arg0": np.array([0.0, 0.0], np.float32), "result0": np.array([1.0, 2.0], np.float32)}
    raw, same, worse = returning("1.0, 2.5"), returning("1.0, 2.5"), returning("1.0, 3.0")
    assert measure.numerics(same, arrays, raw)["verdict"] == MODEL_DIFFERS
    assert measure.numerics(worse, arrays, raw)["verdict"] == "MISMATCH"
    exact = returning("1.0, 2.0")
    assert measure.numerics(exact, arrays, exact)["verdict"] == "ok"
    assert measure.numerics(worse, arrays)["verdict"] == "MISMATCH"  # no raw IR: the plain comparison
