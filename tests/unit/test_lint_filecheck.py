"""tests/lint_filecheck.py: each rule fires on a small synthetic test file and stays
quiet on the corrected one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from lint_filecheck import Finding, lint_text, lit_features, main  # noqa: E402

FEATURES = frozenset({"heir-opt"})
RUN = "// RUN: heirpy-opt %s -p p | filecheck %s\n"


def rules(text: str, features: frozenset[str] = FEATURES) -> list[tuple[int, str]]:
    return [(f.line, f.rule) for f in lint_text(text, "t.mlir", features)]


# -- open-last-label ------------------------------------------------------------------
TWO_FUNCTIONS = (
    "func.func @f() {\n  return\n}\n"
    "// CHECK-LABEL: func.func @f(\n"
    "// CHECK: linalg.matmul\n"
    "// -----\n"
    "func.func @g() {\n  return\n}\n"
)


def test_plain_check_under_the_last_label_before_another_function_fires() -> None:
    # @f's `CHECK: linalg.matmul` would pass on a matmul in @g.
    assert rules(RUN + TWO_FUNCTIONS) == [(6, "open-last-label")]


def test_a_label_for_the_next_function_bounds_it_and_is_quiet() -> None:
    assert rules(RUN + TWO_FUNCTIONS + "// CHECK-LABEL: func.func @g(\n") == []


def test_next_only_checks_or_a_last_function_or_a_declaration_are_quiet() -> None:
    assert rules(RUN + TWO_FUNCTIONS.replace("// CHECK: linalg", "// CHECK-NEXT: linalg")) == []
    last = RUN + "func.func @g() {\n  return\n}\n" + TWO_FUNCTIONS.split("// -----\n")[0]
    assert rules(last) == []
    declared = RUN + TWO_FUNCTIONS.replace("func.func @g() {\n  return\n}\n", "func.func private @g()\n")
    assert rules(declared) == []


# -- not-after-last-match -----------------------------------------------------------


def test_not_after_return_fires() -> None:
    text = RUN + (
        "// CHECK-LABEL: func.func @f\n"
        "// CHECK: tensor_ext.fused_conv_pool\n"
        "// CHECK: func.return\n"
        "// CHECK-NOT: linalg.\n"
    )
    assert rules(text) == [(5, "not-after-last-match")]


def test_not_after_last_match_of_a_label_block_fires() -> None:
    text = RUN + (
        "// CHECK-LABEL: func.func @f\n"
        "// CHECK: linalg.conv\n"
        "// CHECK-NOT: linalg.generic\n"
        "// CHECK-LABEL: func.func @g\n"
        "// CHECK: linalg.conv\n"
    )
    assert rules(text) == [(4, "not-after-last-match")]


def test_not_between_matches_is_quiet() -> None:
    text = RUN + (
        "// CHECK-LABEL: func.func @f\n"
        "// CHECK-NOT: linalg.\n"
        "// CHECK: %[[R:.*]] = tensor_ext.fused_conv_pool\n"
        "// CHECK-NOT: linalg.\n"
        "// CHECK: func.return %[[R]]\n"
    )
    assert rules(text) == []


def test_not_right_after_a_label_scans_the_whole_function_and_is_quiet() -> None:
    text = RUN + (
        "// CHECK-LABEL: func.func @f\n"
        "// CHECK-NOT: tensor_ext\n"
        "// CHECK-LABEL: func.func @g\n"
        "// CHECK-NOT: tensor_ext\n"
    )
    assert rules(text) == []


def test_not_placement_is_judged_per_prefix() -> None:
    text = (
        "// RUN: heirpy-opt %s | filecheck %s --check-prefix=A\n"
        "// RUN: heirpy-opt %s | filecheck %s --check-prefixes=B,A\n"
        "// A: linalg.conv\n"
        "// B-NOT: linalg.generic\n"
        "// A: func.return\n"
    )
    # For A alone the B-NOT is invisible; for B,A it sits between two matches.
    assert rules(text) == []
    trailing = text + "// B-NOT: linalg.pooling\n"
    assert rules(trailing) == [(6, "not-after-last-match")]


# -- not-before-first-label and unbounded-not ---------------------------------------------


def test_not_before_the_first_label_fires() -> None:
    text = RUN + (
        "// CHECK-NOT: tensor_ext\n"
        "// CHECK-LABEL: func.func @f\n"
        "// CHECK: linalg.conv\n"
    )
    assert rules(text) == [(2, "not-before-first-label")]


def test_not_before_a_first_positive_match_is_quiet() -> None:
    text = RUN + "// CHECK-NOT: tensor_ext\n// CHECK: linalg.conv\n"
    assert rules(text) == []


def test_only_nots_fire_unbounded() -> None:
    text = RUN + "// CHECK-NOT: tensor_ext\n// CHECK-NOT: linalg.pooling\n"
    assert rules(text) == [(2, "unbounded-not")]


# -- run-checks-nothing ---------------------------------------------------------------


def test_run_line_without_filecheck_fires() -> None:
    text = "// RUN: heirpy-opt %s -p linalg-fuse-ops\n// CHECK: linalg.conv\n"
    assert (1, "run-checks-nothing") in rules(text)


@pytest.mark.parametrize("run", [
    "not heirpy-opt %s -p bad",
    "heirpy-opt %s -p p | heir-opt > /dev/null",
    "heirpy-opt %s --verify-diagnostics",
    "diff %t.a %t.b",
])
def test_run_lines_that_check_something_are_quiet(run: str) -> None:
    text = f"// RUN: {run}\n" + RUN + "// CHECK: x\n"
    assert rules(text) == []


def test_output_file_read_by_a_later_run_line_is_quiet() -> None:
    text = (
        "// RUN: heirpy-opt %s -p p -o %t.once\n"
        "// RUN: heirpy-opt %t.once -p p -o %t.twice\n"
        "// RUN: diff %t.once %t.twice\n"
    )
    assert rules(text) == []


def test_output_file_nobody_reads_fires() -> None:
    text = "// RUN: heirpy-opt %s -p p -o %t.once\n// RUN: heirpy-opt %s | filecheck %s\n// CHECK: x\n"
    assert rules(text) == [(1, "run-checks-nothing")]


def test_stderr_to_dev_null_does_not_count_as_discarding_stdout() -> None:
    text = "// RUN: heirpy-opt %s 2>/dev/null\n" + RUN + "// CHECK: x\n"
    assert rules(text) == [(1, "run-checks-nothing")]


def test_continued_run_line_is_one_command() -> None:
    text = "// RUN: heirpy-opt %s -p p \\\n// RUN:   | filecheck %s\n// CHECK: x\n"
    assert rules(text) == []


# -- misspelled-directive -------------------------------------------------------------


@pytest.mark.parametrize("line", [
    "// CHECK : linalg.conv",
    "// check: linalg.conv",
    "// Check-NEXT: linalg.conv",
    "// CHEKC: linalg.conv",
    "// CHECKK: linalg.conv",
    "// CHECK-NXT: linalg.conv",
    "// CHECK-NEXT linalg.conv",
    "// CHECK linalg.conv",
    "// CHECKNOT: linalg.conv",
    "// CHECK_NEXT: linalg.conv",
])
def test_misspelled_directives_fire(line: str) -> None:
    text = RUN + "// CHECK: x\n" + line + "\n"
    assert (3, "misspelled-directive") in rules(text)


@pytest.mark.parametrize("line", [
    "// CHECK-NEXT: linalg.conv",
    "// CHECK-COUNT-2: linalg.conv",
    "// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)",
    "// CHECK{LITERAL}: [[1, 2]]",
    "// Checks the conv: it must stay.",
    "// The check prefix is described below.",
    "// Note: prose with a colon.",
    "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {",
])
def test_correct_directives_and_prose_are_quiet(line: str) -> None:
    text = RUN + "// CHECK: x\n" + line + "\n"
    assert rules(text) == []


def test_misspelling_of_a_custom_prefix_fires() -> None:
    text = "// RUN: heirpy-opt %s | filecheck %s --check-prefix=MLIR\n// MLIR: x\n// MLRI: y\n"
    assert (3, "misspelled-directive") in rules(text)


# -- unchecked-prefix / unused-prefix -------------------------------------------------


def test_prefix_used_but_never_passed_fires() -> None:
    text = RUN + "// CHECK: x\n// HEIR: linalg.conv\n"
    assert rules(text) == [(3, "unchecked-prefix")]


def test_prefix_passed_but_never_used_fires() -> None:
    text = "// RUN: heirpy-opt %s | filecheck %s --check-prefixes=CHECK,K3\n// CHECK: x\n"
    assert rules(text) == [(1, "unused-prefix")]


def test_comment_prefixed_lines_are_not_directives() -> None:
    # FileCheck skips a line where RUN/COM comes before the prefix: no use of MLIR here.
    text = RUN + "// CHECK: x\n// COM: MLIR: y\n"
    assert rules(text) == []


def test_capture_names_inside_checks_are_not_prefixes() -> None:
    text = RUN + "// CHECK: %[[K:.*]] = tensor_ext.kernel\n"
    assert rules(text) == []


# -- unavailable-feature / requires-too-broad -----------------------------------------


def test_if_on_a_feature_lit_never_adds_fires() -> None:
    text = "// RUN: %if iree-opt %{ heirpy-opt %s | iree-opt | filecheck %s %}\n// CHECK: x\n"
    assert rules(text) == [(1, "unavailable-feature")]
    assert rules(text, frozenset({"iree-opt"})) == []


def test_if_unwraps_to_its_command_for_the_other_rules() -> None:
    text = "// RUN: %if heir-opt %{ heirpy-opt %s | heir-opt %}\n// CHECK: x\n"
    assert (1, "run-checks-nothing") in rules(text)


def test_requires_an_unknown_feature_fires() -> None:
    text = "// REQUIRES: iree-opt\n// RUN: heirpy-opt %s | iree-opt | filecheck %s\n// CHECK: x\n"
    assert rules(text) == [(1, "unavailable-feature")]


def test_requires_that_also_switches_off_heirpy_only_lines_fires() -> None:
    text = (
        "// REQUIRES: heir-opt\n"
        + RUN
        + "// RUN: heirpy-opt %s | heir-opt | filecheck %s\n"
        + "// CHECK: x\n"
    )
    assert rules(text) == [(1, "requires-too-broad")]


def test_requires_when_every_line_uses_the_tool_is_quiet() -> None:
    text = "// REQUIRES: heir-opt\n// RUN: heirpy-opt %s | heir-opt | filecheck %s\n// CHECK: x\n"
    assert rules(text) == []


def test_lit_features_reads_add_and_update() -> None:
    config = (
        'config.available_features.add("heir-opt")\n'
        "config.available_features.update(['a', \"b\"])\n"
    )
    assert lit_features(config) == frozenset({"heir-opt", "a", "b"})


# -- the command line -------------------------------------------------------------------


def test_main_reports_findings_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "lit.cfg").write_text('config.available_features.add("heir-opt")\n')
    (tmp_path / "good.mlir").write_text(RUN + "// CHECK: x\n")
    (tmp_path / "bad.mlir").write_text(RUN + "// CHECK: x\n// CHECK-NOT: y\n")
    inputs = tmp_path / "Inputs"
    inputs.mkdir()
    (inputs / "data.mlir").write_text("// CHECK-NOT: not a test, never linted\n")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [str(Finding(str(tmp_path / "bad.mlir"), 3, "not-after-last-match",
                               out[0].split("] ", 1)[1]))]
    (tmp_path / "bad.mlir").unlink()
    assert main([str(tmp_path)]) == 0
