"""Programs whose axes are drawn apart, at each guard's limit (tests/edge_strategies.py):
every heirpy pass keeps the properties of tests/generated_properties.py on them (values
under the evaluator, valid output, idempotence, depth never above the input's nor below
its bound), and what the HEIR and IREE forms print verifies in heir-opt and iree-opt
(one batched run each). benchmarks/fuzz_generated.py --edges runs thousands."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from conftest import budget  # noqa: E402
from edge_strategies import LIMITS, MAX_PIECES, axis_limits, edge_programs, limit_counts  # noqa: E402
from fhe_nets import fhe_bound  # noqa: E402
from generated_properties import FULL_PIPELINE, check_program, single_pass_specs  # noqa: E402
from heirpy.api import parse, print_module, run_pipeline  # noqa: E402
from heirpy.transforms.heir import heir_results  # noqa: E402
from strategies import Program  # noqa: E402

INPUTS = Path(__file__).resolve().parents[1] / "filecheck" / "transforms" / "legalize-for-heir" / "Inputs"
GUARDED = ["legalize-for-heir", "heir-prepare", "unroll-depthwise-conv", FULL_PIPELINE]
"""The specs whose guards the edge layers aim at: more examples than the other passes."""
PIPELINE_ALLOWED = {"non_idempotent"}  # test_generated_programs.py's module doc
PIPELINES = {FULL_PIPELINE}
"""The default pipeline: a second run may change the output once (canonicalization folds
what lower-tensor-ext wrote), a third must not (`not_converging`). heir-prepare runs its
passes to a fixpoint, so a second run must change nothing (before issue 35's fix it did
on 2 of the 3 seeded programs)."""


def _drawn(count: int, at: int) -> list[Program]:
    """`count` edge programs, the same ones on every run (seed `at`)."""
    found: list[Program] = []

    @seed(at)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(program=edge_programs())
    def collect(program: Program) -> None:
        found.append(program)

    collect()
    return found


@pytest.mark.parametrize(("h", "w", "limits"), [
    # (kernel, stride, dilation, pad before, pad after) per axis; a 3x3 window reaches 3
    ((3, 1, 1, 0, 0), (3, 1, 1, 0, 0), set()),
    ((3, 3, 1, 0, 0), (3, 3, 1, 0, 0), set()),  # a stride equal to the window: no input skipped
    ((3, 4, 1, 0, 0), (3, 4, 1, 0, 0), {"stride > window"}),
    ((3, 1, 1, 3, 3), (3, 1, 1, 0, 0), {"pad as wide as the window"}),
    ((3, 1, 1, 2, 2), (3, 1, 1, 0, 0), {"pad = window - 1"}),
    ((3, 1, 1, 1, 1), (3, 1, 1, 0, 0), set()),  # narrower than the window - 1
    ((2, 1, 2, 0, 3), (3, 1, 1, 0, 0), {"pad as wide as the window", "pad on the high side only",
                                        "pads before != after", "dilation H != W", "kernel H != W"}),
    ((3, 1, 1, 1, 0), (2, 2, 1, 0, 0), {"pad on the low side only", "pads before != after",
                                        "kernel H != W", "stride H != W"}),
    ((1, 1, 1, 1, 0), (1, 1, 1, 0, 0), {"pad as wide as the window", "pad on the low side only",
                                        "pads before != after"}),  # a 1x1 window: a pad of 1 holds one
])
def test_axis_limits_name_each_limit_at_it_and_not_beside_it(
    h: tuple[int, int, int, int, int], w: tuple[int, int, int, int, int], limits: set[str]
) -> None:
    assert set(axis_limits(h, w)) == limits
    assert limits <= set(LIMITS)


def test_limit_counts_count_programs_not_draws() -> None:
    counts = limit_counts([["stride > window", "stride > window"], [], ["1x1 pool"]])
    assert (counts["stride > window"], counts["1x1 pool"], counts["64 pieces"]) == (1, 1, 0)
    assert set(counts) == set(LIMITS)


def test_the_fhe_bound_takes_a_one_element_pool_as_a_copy() -> None:
    """heirpy.analysis.depth's bound: a 1x1 pool neither costs a level nor starts a run."""
    assert fhe_bound(["linear", "square", "copy", "square"]) == 3
    assert fhe_bound(["linear", "copy", "linear"]) == 1
    assert fhe_bound(["square", "copy"]) == 1
    assert fhe_bound(["square", "linear"]) == 2


def test_max_pieces_is_the_rewrites() -> None:
    assert MAX_PIECES == heir_results.MAX_PIECES


def test_the_generator_reaches_each_guards_limit() -> None:
    """Over 150 programs: every axis drawn apart and each limit drawn at least once."""
    layers = [layer for program in _drawn(150, 35) for layer in program.layers]
    convs = [layer for layer in layers if layer.startswith("conv") and "/d" in layer]
    assert any(s.split(",")[0] != s.split(",")[1] for s in (c.split("/")[1] for c in convs))  # strides apart
    assert any(d.split(",")[0] != d.split(",")[1] for d in (c.split("/")[2] for c in convs))  # dilations apart
    assert any(c.split("/")[0].split("x")[2] != c.split("/")[0].split("x")[3] for c in convs)  # kernels apart
    pads = [layer for layer in layers if layer.startswith("pad(")]
    assert any(p.startswith("pad(0, 0, 0)") and p != "pad(0, 0, 0)(0, 0, 0)" for p in pads)  # high side only
    assert any(p.startswith("pad(1,") or ")(1," in p for p in pads)  # a channel pad
    assert {"pieces4x4x4x8", "pieces7x9x10", "pieces5x13x14"} <= set(layers)  # MAX_PIECES and each side
    grid_pads = [p for p in pads if p.startswith("pad(1, 1)(")]  # grid_edge's: 0, 1 or 2 after, per axis
    assert "pad(1, 1)(0, 0)" in grid_pads and any("2" in p[len("pad(1, 1)"):] for p in grid_pads)


@pytest.mark.parametrize("spec", [*single_pass_specs(), FULL_PIPELINE])
@settings(max_examples=budget(1), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(program=edge_programs())
def test_every_pass_keeps_its_properties_on_edge_programs(spec: str, program: Program) -> None:
    outcome = check_program(program.text, spec)
    unexpected = set(outcome.problems) - (PIPELINE_ALLOWED if spec in PIPELINES else set())
    assert not unexpected, outcome.summary()


@pytest.mark.parametrize("spec", GUARDED)
def test_guarded_passes_keep_their_properties_on_drawn_edge_programs(spec: str) -> None:
    """Programs drawn from a fixed seed (more than the hypothesis test's one): the guards'
    limits come up in a handful."""
    for program in _drawn(budget(3), 350):
        outcome = check_program(program.text, spec)
        unexpected = set(outcome.problems) - (PIPELINE_ALLOWED if spec in PIPELINES else set())
        assert not unexpected, f"{program!r}\n{outcome.summary()}"


def _verified(tool: str, texts: list[str]) -> subprocess.CompletedProcess[str]:
    """`tool` (heir-opt or iree-opt) parsing and verifying `texts`, one chunk each."""
    return subprocess.run([tool, "--split-input-file", "-o", "/dev/null"], input="\n// -----\n".join(texts),
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("tool", "pipelines"), [
    ("heir-opt", ["legalize-for-heir", "heir-prepare"]),
    ("iree-opt", ["iree-prepare"]),
])
def test_heir_and_iree_forms_verify(tool: str, pipelines: list[str]) -> None:
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is not on PATH (a test dependency)")
    texts = []
    for program in _drawn(budget(6), 351):
        for pipeline in pipelines:
            module = parse(program.text)
            run_pipeline(module, pipeline)
            texts.append(print_module(module))
    result = _verified(tool, texts)
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize(("name", "spec"), [
    ("edge_grid_init.mlir", "heir-prepare"), ("edge_grid_past_result.mlir", "heir-prepare"),
    ("edge_grid_orphan_pad.mlir", "legalize-for-heir"),
])
def test_the_programs_that_crashed_strided_on_grid(name: str, spec: str) -> None:
    """benchmarks/fuzz_generated.py --edges found these (each file's header): a strided conv
    padded narrower than its window on one axis and wider on the other had its grid cut to
    the input's size on both (a crash putting the init on the grid), one widened its grid
    past its strided result (ConvOnGrid's assertion), and a widened pad built but not used
    stayed a user of its source (the pass's second run on the module found it on its
    worklist without a block). They keep their values and run twice now."""
    outcome = check_program((INPUTS / name).read_text(), spec)
    assert not set(outcome.problems) - (PIPELINE_ALLOWED if spec in PIPELINES else set()), outcome.summary()
