"""The hypothesis profile tests/conftest.py loads: CI draws the same examples on every
run, with each test's own budget; nightly randomizes and multiplies the budgets."""

from __future__ import annotations

from hypothesis import settings

from conftest import PROFILE, SCALES, budget


def test_the_selected_profile_is_loaded() -> None:
    assert settings.default == settings.get_profile(PROFILE)
    assert settings.default.deadline is None


def test_ci_is_derandomized_without_a_database() -> None:
    ci = settings.get_profile("ci")
    assert ci.derandomize and ci.database is None
    assert not settings.get_profile("nightly").derandomize


def test_budget_scales_with_the_profile() -> None:
    assert budget(20) == 20 * SCALES[PROFILE]
    assert SCALES["ci"] == 1 < SCALES["nightly"]
