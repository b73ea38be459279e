"""benchmarks/mutation_score.py's draw: a fresh sample is drawn by seed per module, and a
second sample on the same date (the same seed) never redraws what an earlier one drew."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path[:0] = [str(BENCHMARKS)]

import mutation_score  # noqa: E402

NAMES = [f"heirpy.a.x_f__mutmut_{i}" for i in range(1, 6)] + [f"heirpy.b.x_g__mutmut_{i}" for i in range(1, 4)]


def test_one_per_module_by_seed() -> None:
    picked = mutation_score.sample(NAMES, 1, 20261207)
    assert sorted(mutation_score.module_of(n) for n in picked) == ["heirpy.a", "heirpy.b"]
    assert picked == mutation_score.sample(list(reversed(NAMES)), 1, 20261207)  # order-free


def test_excluded_mutants_are_never_drawn() -> None:
    first = mutation_score.sample(NAMES, 1, 20261207)
    for seed in range(30):
        again = mutation_score.sample(NAMES, 1, seed, frozenset(first))
        assert not set(again) & set(first)
        assert len(again) == 2  # each module still gives one


def test_a_module_drawn_out_gives_none() -> None:
    only_b = frozenset(n for n in NAMES if "heirpy.a." in n)
    assert all(mutation_score.module_of(n) == "heirpy.b" for n in mutation_score.sample(NAMES, 2, 1, only_b))


def test_drawn_before_reads_names_and_skips_comments(tmp_path: Path) -> None:
    listed = tmp_path / "drawn.txt"
    listed.write_text("# a comment\n\nheirpy.a.x_f__mutmut_2\n  heirpy.b.x_g__mutmut_1  \n")
    assert mutation_score.drawn_before([listed]) == {"heirpy.a.x_f__mutmut_2", "heirpy.b.x_g__mutmut_1"}
    assert mutation_score.drawn_before([]) == frozenset()
