"""A small sample of benchmarks/fuzz_heir.py in CI: generated FHE nets (tests/fhe_nets.py)
through heir-prepare and heir-opt's CKKS pipeline (five nets, a few seconds each).

With `heir-prepare` (a result no conv lays out comes back flat) every net of the sample
compiles at its depth bound; with `flat-results=false` such a result may cost one level
(its pieces), never more,
and heirpy never fails, changes the values or crashes heir-opt. The full run's figures
are in docs/heir.md. The sample is fhe_nets' own draws (square, symmetric: what compiles
at the bound); the fuzzer's default, each axis drawn on its own at the guards' limits,
gets a smaller sample of its own (`EDGE_SAMPLE`): heirpy neither fails nor changes the
values, heir-opt does not crash, and no net needs fewer levels than its bound.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fuzz_heir import PIPELINE, SHAPED_PIPELINE, compile_net, draw_nets  # noqa: E402

requires_heir = pytest.mark.skipif(
    shutil.which("heir-opt") is None and not os.environ.get("CI"), reason="heir-opt (heir-py) is not on PATH"
)
SAMPLE = draw_nets(5, seed_value=1, edges=False)
EDGE_SAMPLE = draw_nets(3, seed_value=35)


def test_the_sample_has_both_batches_and_both_result_kinds() -> None:
    assert {net.arg_shape[0] for net in SAMPLE} == {1, 2}
    assert {len(net.result_shape) for net in SAMPLE} == {2, 4}  # a feature map and Linear outputs


@requires_heir
@pytest.mark.parametrize("index", range(len(SAMPLE)))
def test_generated_net_compiles_at_its_bound(index: int) -> None:
    net = SAMPLE[index]
    outcome = compile_net(net, 300, PIPELINE)
    assert (outcome.status, outcome.levels) == ("at bound", net.bound), f"{net!r}\n{outcome.detail}"


@requires_heir
@pytest.mark.parametrize("index", range(len(SAMPLE)))
def test_generated_net_costs_at_most_one_level_more_in_its_own_shape(index: int) -> None:
    net = SAMPLE[index]
    outcome = compile_net(net, 300, SHAPED_PIPELINE)
    assert outcome.status in ("at bound", "above bound"), f"{net!r}\n{outcome.status}: {outcome.detail}"
    assert outcome.levels is not None and outcome.levels <= net.bound + 1


def test_the_edge_sample_draws_axes_apart() -> None:
    assert any(net.limits for net in EDGE_SAMPLE), [net.layers for net in EDGE_SAMPLE]


@requires_heir
@pytest.mark.parametrize("index", range(len(EDGE_SAMPLE)))
def test_an_edge_net_compiles_never_below_its_bound(index: int) -> None:
    net = EDGE_SAMPLE[index]
    outcome = compile_net(net, 300, PIPELINE)
    assert outcome.status in ("at bound", "above bound", "rejected"), f"{net!r}\n{outcome.status}: {outcome.detail}"
