"""pytest configuration for tests/unit: the hypothesis profiles, and the bundled models after
the main pipeline (`pipelined_example`), computed once per session.

`HEIRPY_HYPOTHESIS_PROFILE` picks one (default `ci`, what ./run-tests.sh and CI use):

  ci       derandomized (the same examples on every run and machine), each test's own
           example budget, no example database: a red CI run is reproducible
  dev      random examples with the same budgets, failures kept in .hypothesis/
  nightly  random examples, NIGHTLY_SCALE times each budget (docs/testing.md)

A property test states its budget as `@settings(max_examples=budget(N))`; everything
else (derandomization, deadline, health checks) comes from the profile.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from heirpy.api import run_pipeline
from heirpy.interp.resources import LoadedModule, load_file

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


MAIN_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"


@functools.cache
def pipelined_example(path: Path) -> LoadedModule:
    """The model at `path` after the main pipeline, once per session: the whole networks
    take seconds to parse and rewrite, and the tests that use them only read the result
    (clone the module before rewriting it further)."""
    loaded = load_file(path)
    run_pipeline(loaded.module, MAIN_PIPELINE)
    return loaded
