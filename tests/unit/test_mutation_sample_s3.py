"""Behaviours the fresh mutation sample of 2026-12-07 (seed 20261207, one mutant per module
the wave touched) found untested: each test fails on the surviving mutant named beside it
(docs/testing.md, "The fresh sample of 2026-12-07")."""

from __future__ import annotations

from heirpy.analysis.heir_command import DEFAULT_LEVEL_BUDGET, command_remark
from heirpy.tools.heirpy_heir import budget_hint


def test_budget_hint_names_a_budget_above_heirs_default_and_only_then() -> None:
    """heirpy_heir.budget_hint read the flag's value from a group the pattern lacks."""
    above = ["heir-opt", f"--torch-linalg-to-ckks=greedy-level-budget={DEFAULT_LEVEL_BUDGET + 1}"]
    at = ["heir-opt", f"--torch-linalg-to-ckks=greedy-level-budget={DEFAULT_LEVEL_BUDGET}"]
    assert f"--level-budget {DEFAULT_LEVEL_BUDGET} lets it bootstrap instead" in budget_hint(above)
    assert budget_hint(at) == ""
    assert budget_hint(["heir-opt", "--torch-linalg-to-ckks"]) == ""


def test_command_remark_by_default_names_the_level_budget() -> None:
    """heir_command.command_remark's `exact` defaults to true: a module whose depth HEIR
    counts as heirpy does gets the budget named, not the "keeps strided convs" remark."""
    remark = command_remark("heir-prepare", "main", 1024, 20)
    assert "greedy-level-budget=21" in remark and "strided convs" not in remark
    assert "strided convs" in command_remark("heir-prepare", "main", 1024, 20, exact=False)
