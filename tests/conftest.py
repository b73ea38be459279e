"""pytest configuration for tests/unit: the hypothesis profiles.

`HEIRPY_HYPOTHESIS_PROFILE` picks one (default `ci`, what ./run-tests.sh and CI use):

  ci       derandomized (the same examples on every run and machine), each test's own
           example budget, no example database: a red CI run is reproducible
  dev      random examples with the same budgets, failures kept in .hypothesis/
  nightly  random examples, NIGHTLY_SCALE times each budget (docs/testing.md)

A property test states its budget as `@settings(max_examples=budget(N))`; everything
else (derandomization, deadline, health checks) comes from the profile.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

NIGHTLY_SCALE = 25
SCALES = {"ci": 1, "dev": 1, "nightly": NIGHTLY_SCALE}
PROFILE = os.environ.get("HEIRPY_HYPOTHESIS_PROFILE", "ci")

_common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **_common)
# derandomize=False is spelt out: with CI set in the environment, Hypothesis's own default
# profile is derandomized, and a profile registered without it would inherit that.
settings.register_profile("dev", derandomize=False, **_common)
settings.register_profile("nightly", derandomize=False, **_common)
if PROFILE not in SCALES:
    raise pytest.UsageError(
        f"HEIRPY_HYPOTHESIS_PROFILE={PROFILE!r}: expected one of {', '.join(SCALES)}"
    )
settings.load_profile(PROFILE)


def budget(examples: int) -> int:
    """A property test's example budget under the selected profile."""
    return examples * SCALES[PROFILE]
