"""heirpy-heir and heir-prepare's command remark: heir-opt gets every flag it needs.

HEIR's greedy management bootstraps a ciphertext once it has spent `greedy-level-budget`
levels (10 by default): README's bare command gave ResNet-20 (depth 39) 28 levels and 6
bootstraps. heirpy knows the depth, so heir-prepare's remark and heirpy-heir pass the
budget (depth + 1, at least HEIR's 10; none above the 57 levels one parameter set holds).
The end-to-end tests run the real heir-opt on small nets (about a second each).
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from heirpy.analysis.heir_command import (
    DEFAULT_LEVEL_BUDGET,
    MAX_LEVELS_WITHOUT_BOOTSTRAP,
    ckks_options,
    command_remark,
    heir_opt_command,
    level_budget,
)
from heirpy.api import parse, run_pipeline
from heirpy.tools.heirpy_heir import find_heir_opt, heir_parser, main, read_result, with_budget
from heirpy.transforms.heir.heir_prepare import prepared_module_flags, prepared_remark

ROOT = Path(__file__).resolve().parents[2]
HEIR_OPT = shutil.which("heir-opt")
requires_heir = pytest.mark.skipif(
    HEIR_OPT is None and not os.environ.get("CI"), reason="heir-opt (heir-py) is not on PATH"
)


def squares(depth: int, shape: str = "1x8") -> str:
    """`@main`: x squared `depth` times, a net of exactly `depth` levels."""
    body = [f"  %s{i} = arith.mulf {'%arg0' if i == 0 else f'%s{i - 1}'}, {'%arg0' if i == 0 else f'%s{i - 1}'}"
            f" : tensor<{shape}xf32>" for i in range(depth)]
    return (f"func.func @main(%arg0: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{\n" + "\n".join(body)
            + f"\n  return %s{depth - 1} : tensor<{shape}xf32>\n}}\n")


# ------------------------------------------------------------------ the flags, at their limits
def test_the_level_budget_is_the_depth_plus_one_from_hEIRs_default_up_to_one_parameter_set() -> None:
    assert level_budget(DEFAULT_LEVEL_BUDGET - 1) == DEFAULT_LEVEL_BUDGET  # HEIR's default serves
    assert level_budget(DEFAULT_LEVEL_BUDGET) == DEFAULT_LEVEL_BUDGET + 1
    assert level_budget(39) == 40  # ResNet-20: 39 levels and no bootstrap at 40 (docs/heir.md)
    assert level_budget(MAX_LEVELS_WITHOUT_BOOTSTRAP) == MAX_LEVELS_WITHOUT_BOOTSTRAP + 1
    assert level_budget(MAX_LEVELS_WITHOUT_BOOTSTRAP + 1) is None  # it must bootstrap


def test_only_the_options_hEIRs_defaults_miss_are_named() -> None:
    assert ckks_options(1024, 9) == []
    assert ckks_options(2048, 9) == ["min-slot-count=2048"]
    assert ckks_options(1024, 10) == ["greedy-level-budget=11"]
    assert ckks_options(65536, 39) == ["min-slot-count=65536", "greedy-level-budget=40"]
    assert ckks_options(65536, 111) == ["min-slot-count=65536"]  # ResNet-56: HEIR's own budget
    assert heir_opt_command("main", 65536, 39) == (
        "heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' "
        "'--torch-linalg-to-ckks=min-slot-count=65536 greedy-level-budget=40'"
    )


def test_the_remark_is_silent_at_hEIRs_defaults_and_says_when_a_bootstrap_is_unavoidable() -> None:
    assert command_remark("heir-prepare", "main", 1024, 9) == ""
    assert "greedy-level-budget=11" in command_remark("heir-prepare", "main", 1024, 10)
    deep = command_remark("heir-prepare", "main", 65536, 111)
    assert "more than the 57 levels" in deep and "must bootstrap" in deep and "greedy" not in deep


def test_heir_prepare_names_the_budget_for_a_deep_net() -> None:
    module = parse(squares(12))
    run_pipeline(module, "heir-prepare")
    assert prepared_remark("heir-prepare", module) == (
        "remark: heir-prepare: @main has depth 12 and needs 1024 slots: run heir-opt "
        "--secretize=function=main '--annotate-module=backend=openfhe scheme=ckks' "
        "--torch-linalg-to-ckks=greedy-level-budget=13 (a level budget of 13 holds the depth: no bootstrap)"
    )
    shallow = parse(squares(9))
    run_pipeline(shallow, "heir-prepare")
    assert prepared_remark("heir-prepare", shallow) == ""


def test_no_budget_is_named_while_strided_convs_are_left_to_hEIRs_kernel() -> None:
    """HEIR converts a strided conv's gapped layout at about a level per bit of the slot
    count, more than heirpy's depth: a budget of depth + 1 then makes heir-opt die with
    SIGFPE past 57 levels (torch-mlir's ResNet-20 with option-A shortcuts, whose strided
    convs stay off the grid: exit -8 after about 35 minutes), where HEIR's own budget
    bootstraps. ResNet-20's downsampling in small (strided-grid.mlir's first chunk)."""
    path = ROOT / "tests" / "filecheck" / "transforms" / "legalize-for-heir" / "strided-grid.mlir"
    chunk = path.read_text().split("// -----")[0]
    exact = {}
    for grid in ("true", "false"):
        module = parse(chunk, path.name)
        run_pipeline(module, f"legalize-for-heir{{slot-count=16 strided-on-grid={grid}}}")
        flags = prepared_module_flags(module)
        assert flags is not None and flags[0] == "downsample"
        exact[grid] = flags[3]
    assert exact == {"true": True, "false": False}
    assert ckks_options(65536, 39, exact=False) == ["min-slot-count=65536"]
    remark = command_remark("heir-prepare", "main", 65536, 39, exact=False)
    assert "keeps strided convs" in remark and "greedy" not in remark
    assert command_remark("heir-prepare", "main", 1024, 3, exact=False) == ""  # HEIR's defaults serve


def test_heir_opt_output_is_read_for_levels_ring_and_bootstraps() -> None:
    text = ("module attributes {ckks.schemeParam = #ckks.scheme_param<logN = 14, Q = [1, 2, 3, 4], P = [5], "
            "logDefaultScale = 45>} {\n %0 = ckks.bootstrap %x\n %1 = ckks.bootstrap %0\n}")
    result = read_result(text)
    assert result is not None and (result.levels, result.log_n, result.bootstraps) == (3, 14, 2)
    assert read_result("module {}") is None
    assert with_budget(["--secretize=function=main", "--torch-linalg-to-ckks=min-slot-count=2048"], 7) == [
        "--secretize=function=main", "--torch-linalg-to-ckks=min-slot-count=2048 greedy-level-budget=7"]


# ------------------------------------------------------------------ through the real heir-opt
@requires_heir
def test_heirpy_heir_compiles_a_deep_net_at_its_depth_with_no_bootstrap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    net = tmp_path / "squares.mlir"
    net.write_text(squares(12))
    out = tmp_path / "ckks.mlir"
    assert main([str(net), "-o", str(out), "--prepared", str(tmp_path / "prepared.mlir")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("heirpy-heir: heir-opt --secretize=function=main '--annotate-module=backend=openfhe "
                        "scheme=ckks' --torch-linalg-to-ckks=greedy-level-budget=13")
    assert lines[1].startswith("heirpy-heir: depth 12, levels 12, bootstraps 0, slots 1024 (logN ")
    result = read_result(out.read_text())
    assert result is not None and result.levels == 12 and result.bootstraps == 0
    assert "arith.mulf" in (tmp_path / "prepared.mlir").read_text()


@requires_heir
def test_heirpy_heir_passes_heir_prepare_options_and_the_slots_they_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(ROOT / "examples" / "tiny_cnn.mlir"), "slot-count=2048"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("--torch-linalg-to-ckks=min-slot-count=2048")
    assert lines[1].startswith("heirpy-heir: depth 3, levels 3, bootstraps 0, slots 2048 (logN ")


# ------------------------------------------------------------------ errors: one line, exit 1
def fake_heir_opt(tmp_path: Path, script: str) -> str:
    path = tmp_path / "fake-heir-opt"
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@pytest.mark.parametrize(
    "args,message",
    [
        (["nothere.mlir"], "error: cannot read 'nothere.mlir'"),
        (["NET", "bogus=1"], "has no option 'bogus'"),
        (["NET", "slot-count"], "error: 'slot-count' is not a heir-prepare option"),
        (["NET", "--level-budget", "0"], "error: --level-budget must be at least 1"),
        (["BAD"], "bad.mlir:3:1: error: "),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / "net.mlir").write_text(squares(2))
    (tmp_path / "bad.mlir").write_text("func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  return %x\n}\n")
    args = [str(tmp_path / "net.mlir") if a == "NET" else str(tmp_path / "bad.mlir") if a == "BAD" else a
            for a in args]
    assert main([*args, "--heir-opt", fake_heir_opt(tmp_path, "exit 0")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and "Traceback" not in "".join(err)


@pytest.mark.parametrize(
    "script,message",
    [
        ('echo "$4:3:9: error: something HEIR refuses" >&2; exit 1', "error: heir-opt rejected heirpy's output: "),
        ("kill -SEGV $$", "error: heir-opt crashed (exit -11) on heirpy's output (kept in "),
        ("echo module {}", "error: heir-opt compiled heirpy's output but printed no ckks.schemeParam"),
    ],
)
def test_heir_opt_failures_are_one_line_with_the_reproducer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], script: str, message: str
) -> None:
    net = tmp_path / "net.mlir"
    net.write_text(squares(2))
    kept = tmp_path / "prepared.mlir"
    assert main([str(net), "--prepared", str(kept), "--heir-opt", fake_heir_opt(tmp_path, script)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(message), err
    assert kept.is_file()
    if "rejected" in message:
        assert err[-1].endswith(f"{kept}:3:9: error: something HEIR refuses")


def test_a_crash_under_a_raised_budget_names_hEIRs_default_as_the_way_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HEIR dies with SIGFPE when a raised budget lets it spend more levels than one
    parameter set holds (ResNet-20 with its strided convs kept: docs/heir.md)."""
    net = tmp_path / "net.mlir"
    net.write_text(squares(2))
    crash = fake_heir_opt(tmp_path, "kill -FPE $$")
    assert main([str(net), "--level-budget", "40", "--heir-opt", crash]) == 1
    assert capsys.readouterr().err.strip().endswith(
        "if HEIR spent more than the 57 levels one parameter set holds, --level-budget 10 lets it bootstrap instead")
    assert main([str(net), "--heir-opt", crash]) == 1  # HEIR's own budget: nothing to suggest
    assert capsys.readouterr().err.strip().endswith(")")


# ------------------------------------------------------------------ found and explained (issue 35's sample)
def test_heir_opt_is_found_in_the_heir_py_package_when_not_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """heir-py installs heir-opt inside its package; with a PATH that lacks the venv's
    bin/ (a script run by its interpreter's full path), that is the one heirpy-heir runs."""
    heir = pytest.importorskip("heir")
    monkeypatch.setenv("PATH", "")
    found = Path(find_heir_opt())
    assert found.name == "heir-opt" and found.is_file()
    assert found.parent in [Path(p) for p in heir.__path__]


def test_every_option_says_what_it_does_in_help() -> None:
    options = [action for action in heir_parser()._actions if action.dest != "help"]
    assert {a.dest for a in options} >= {"file", "options", "level_budget", "timeout", "prepared", "output",
                                         "heir_opt", "debug"}
    assert [a.dest for a in options if not a.help] == []
