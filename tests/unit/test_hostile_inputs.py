"""Malformed and adversarial inputs end in one diagnostic line and exit 1, or pass through.

Each file in tests/hostile/corpus starts with `// EXPECT: ok` or `// EXPECT: error`.
A crash dressed up as "internal error" counts as a failure here: it is a bug to fix.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from heirpy.tools.heirpy_opt import main

CORPUS = sorted((Path(__file__).parent.parent / "hostile" / "corpus").glob("*.mlir"))


def expected_outcome(path: Path) -> str:
    first_line = path.read_bytes().split(b"\n", 1)[0].decode("ascii")
    assert first_line.startswith("// EXPECT: "), f"{path.name} lacks an EXPECT line"
    return first_line.removeprefix("// EXPECT: ").strip()


def test_corpus_is_not_empty() -> None:
    assert len(CORPUS) >= 25


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_hostile_input(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = time.perf_counter()
    code = main([str(path), "-p", "canonicalize,dce"])
    elapsed = time.perf_counter() - start
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "internal error" not in err, err
    assert elapsed < 10, f"took {elapsed:.1f}s"
    if expected_outcome(path) == "ok":
        assert code == 0, err
        assert err == ""
    else:
        assert code == 1
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "error: " in lines[0], lines
