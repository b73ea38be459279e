"""Differential testing through IREE and the re-parse of heirpy's output by heir-opt and
iree-opt, on generated programs (tests/iree_differential.py says how values are compared
and disagreements classified).

CI runs a seeded sample of 36 programs (15 f32 and 15 f16 from `differential_programs`,
3 of each from tests/edge_strategies.py's `edge_differential_programs`, whose convs, depthwise
convs and pools draw each axis on its own: what benchmarks/fuzz_iree.py draws) in one
iree-compile run; under HEIRPY_HYPOTHESIS_PROFILE=nightly, 1,200 random ones. iree-compile, iree-opt and heir-opt are test extras: a missing tool
fails the test, it never skips.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

import iree_differential as diff  # noqa: E402
from conftest import PROFILE  # noqa: E402
from edge_strategies import edge_differential_programs  # noqa: E402
from strategies import Program, differential_programs  # noqa: E402

BUGS = Path(__file__).resolve().parents[2] / "benchmarks" / "iree_bugs"
PER_ELEMENT = 500 if PROFILE == "nightly" else 15
EDGE_PER_ELEMENT = 100 if PROFILE == "nightly" else 3
SAMPLE_SEED = None if PROFILE == "nightly" else 20261204
BATCH = 36  # programs per iree-compile run: the CI sample in one


def draw(element: str, count: int, at: int | None, *, derandomize: bool = False) -> list[Program]:
    """`count` distinct programs; the same ones on every run when `at` is a seed."""
    found: dict[str, Program] = {}

    @settings(max_examples=2 * count, database=None, phases=[Phase.generate], derandomize=derandomize,
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(program=differential_programs(element))
    def collect(program: Program) -> None:
        if len(found) < count:
            found.setdefault(program.text, program)

    (collect if at is None else seed(at)(collect))()
    return list(found.values())


def draw_edges(element: str, count: int, at: int | None) -> list[Program]:
    """`draw`, from `edge_differential_programs` (a function of its own: a derandomized draw
    is seeded from the source of the function that draws, so `draw`'s stays as it was)."""
    found: dict[str, Program] = {}

    @settings(max_examples=2 * count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(program=edge_differential_programs(element))
    def collect(program: Program) -> None:
        if len(found) < count:
            found.setdefault(program.text, program)

    (collect if at is None else seed(at)(collect))()
    return list(found.values())


def allowed(subject: diff.Subject) -> bool:
    """Agreement, or IREE failing to compile with a known IREE bug's message."""
    verdict = diff.classify(subject)
    if verdict == "agree":
        return True
    compile_errors = [m for kind, m in subject.problems.items() if kind.startswith("iree-compile")]
    other = [kind for kind in subject.problems if not kind.startswith("iree-compile")]
    return verdict.startswith("IREE rejects") and not other and all(map(diff.known_iree_bug, compile_errors))


def test_generated_programs_agree_through_iree_and_reparse_in_mlir_tools() -> None:
    programs = [(element, p) for k, element in enumerate(("f32", "f16"))
                for p in draw(element, PER_ELEMENT, None if SAMPLE_SEED is None else SAMPLE_SEED + k)]
    programs += [(element, p) for k, element in enumerate(("f32", "f16"))
                 for p in draw_edges(element, EDGE_PER_ELEMENT, None if SAMPLE_SEED is None else SAMPLE_SEED + 40 + k)]
    assert any(p.limits for _, p in programs[-2 * EDGE_PER_ELEMENT:])  # the edge draws reach some limit
    subjects: list[diff.Subject] = []
    for start in range(0, len(programs), BATCH):
        batch = programs[start: start + BATCH]
        subjects += diff.run_batch([(start + i, p.text, p.layers, e) for i, (e, p) in enumerate(batch)])
    bad = [s for s in subjects if not allowed(s)]
    assert not bad, "\n".join(
        f"#{s.index} {s.element}: {diff.classify(s)} {s.problems} "
        f"{ {f'{a}/{b}': round(e, 1) for (a, b), e in diff.errors(s).items()} }\n{s.raw}" for s in bad
    )
    # The sample is a real one: programs of both types went through IREE and agree. (IREE
    # rejects about 30% of f16 programs with its known bugs, so a floor, not a share:
    # hypothesis's draws shift with the tests run before this one.)
    for element in ("f32", "f16"):
        mine = [s for s in subjects if s.element == element]
        assert sum(diff.classify(s) == "agree" for s in mine) >= len(mine) // 4, Counter(map(diff.classify, mine))


def test_the_differential_generator_reaches_every_family_and_half_precision_form() -> None:
    families: Counter[str] = Counter()
    layers: Counter[str] = Counter()
    for element in ("f32", "f16"):
        for program in draw(element, 150, None, derandomize=True):
            families.update(f"{element} {f}" for f in diff.family_of(program.layers))
            layers.update(f"{element} {layer.split('/')[0].rstrip('0123456789x,->()[] ')}" for layer in program.layers)
            layers.update(f"{element} {part}" for layer in program.layers for part in layer.split("/")[1:])
    for element in ("f32", "f16"):
        for family in diff.FAMILIES:
            assert families[f"{element} {family}"] >= 5, (element, family, families)
    for form in ("f16 extf", "f16 truncf", "f16 f32acc", "f16 softmax_lastdim", "f16 concat", "f32 concat"):
        assert layers[form] >= 3, (form, layers)


# ------------------------------------------------------------------ the comparison itself
def _subject(values: dict[str, float]) -> diff.Subject:
    subject = diff.Subject(0, (), "f32", "")
    subject.values = {k: [[np.array([1.0, v], dtype=np.float32)]] for k, v in values.items()}
    return subject


@pytest.mark.parametrize(
    ("wrong", "verdict"),
    [
        ({}, "agree"),
        ({"E_heir": 3.0, "I_heir": 3.0}, "heirpy's rewrite wrong"),
        ({"E_heir": 3.0}, "evaluator wrong (on heirpy's output)"),
        ({"E_raw": 3.0}, "evaluator wrong (on the raw program)"),
        ({"I_heir": 3.0}, "IREE wrong (on heirpy's output)"),
        ({"I_raw": 3.0}, "IREE wrong (on the raw program)"),
        ({"E_raw": 3.0, "E_heir": 3.0}, "evaluator or IREE (both forms; needs a reference)"),
        ({"E_raw": 3.0, "I_heir": 4.0}, "unclassified (needs a reference)"),
    ],
)
def test_the_vote_blames_the_value_that_disagrees(wrong: dict[str, float], verdict: str) -> None:
    assert diff.classify(_subject({s: wrong.get(s, 2.0) for s in diff.SOURCES})) == verdict


def test_a_few_ulps_agree_and_more_do_not_in_the_result_type() -> None:
    ref32 = np.array([1.0, -2.0, 1e-8], dtype=np.float32)
    assert diff.ulp_error(ref32, ref32 + np.spacing(ref32) * 3) == pytest.approx(3.0)
    # the RMS floor: an error on a tiny element counts in ulps of the result's scale
    assert diff.ulp_error(ref32, ref32 + np.array([0, 0, 1e-7], dtype=np.float32)) < 1.0
    ref16 = ref32.astype(np.float16)
    off = (ref16.astype(np.float32) * (1 + 2.0**-9)).astype(np.float16)  # 2 ulps of f16
    assert diff.ulp_error(ref16, off) <= 2.0
    assert diff.ulp_error(ref16, (ref16 * 2).astype(np.float16)) > diff.AGREE_ULPS
    nan = np.array([np.nan, np.inf], dtype=np.float32)
    assert diff.ulp_error(nan, nan.copy()) == 0.0
    assert diff.ulp_error(nan, np.array([1.0, np.inf], dtype=np.float32)) == float("inf")
    assert diff.ulp_error(ref32, ref16) == float("inf")  # a dtype change is a mismatch
    assert diff.ulp_error(np.arange(3), np.arange(3)) == 0.0
    assert diff.ulp_error(np.arange(3), np.arange(1, 4)) == float("inf")


def test_heir_opt_and_iree_opt_reject_invalid_output_and_only_that() -> None:
    good = "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n"
    bad = good.replace("return %x : tensor<2xf32>", "return %x : tensor<3xf32>")
    for name in ("heir-opt", "iree-opt"):
        failures = diff.reparse_failures({0: good, 1: bad, 2: good}, [diff.tool(name)])
        assert list(failures) == [1] and "error" in failures[1]


def test_known_iree_bugs_are_recognised_by_their_reproducers() -> None:
    """Each reproducer in benchmarks/iree_bugs still fails in the pinned IREE: a rejection
    or crash with the message KNOWN_IREE_BUGS matches, or a miscompile whose values differ
    from numpy's while the evaluator's equal them (a new IREE that fixes one fails this
    test: drop it)."""
    files = sorted(p.name for p in BUGS.glob("*.mlir"))
    assert files == sorted([*diff.KNOWN_IREE_BUGS, *diff.IREE_MISCOMPILES])
    parts = [(f"b{i}", (BUGS / name).read_text()) for i, name in enumerate(files)]
    compiled, failed = diff._compile_parts(parts)
    assert {files[int(symbol[1:])]: diff.known_iree_bug(m) for symbol, m in failed.items()} == {
        f: f for f in diff.KNOWN_IREE_BUGS
    }
    for name, reference in diff.IREE_MISCOMPILES.items():
        subject = diff.prepare(0, (BUGS / name).read_text(), (), "f32")
        subject.heirpy = ""
        diff.compile_and_run([subject])
        for inputs, evaluated, iree in zip(subject.inputs, subject.values["E_raw"], subject.values["I_raw"]):
            expected = reference(*inputs)
            assert all(diff.ulp_error(e, r) <= 1 for e, r in zip(expected, evaluated))
            assert any(diff.ulp_error(e, r) > diff.AGREE_ULPS for e, r in zip(expected, iree))


def test_heirpy_output_of_a_reshaped_write_compiles_where_the_raw_form_crashes_iree() -> None:
    """lower-tensor-ext writes through plain dims + collapse_shape (ExpandMixedRadixWrites),
    so heirpy's output of output_map.mlir compiles and agrees, though the raw form crashes."""
    subject = diff.prepare(0, (BUGS / "output_map.mlir").read_text(), (), "f32")
    diff.compile_and_run([subject])
    assert diff.known_iree_bug(subject.problems["iree-compile raw"]) == "output_map.mlir"
    assert "iree-compile heirpy" not in subject.problems
    for e, i in zip(subject.values["E_raw"], subject.values["I_heir"]):
        assert diff.ulp_error(e[0], i[0]) <= diff.AGREE_ULPS
