"""The memory watchdog of benchmarks/bench_orion.py's child runs (`spawn`).

An Orion compile of a whole network can grow past the machine's memory; the benchmarks
must stop such a run themselves (the out-of-memory killer would pick any process of the
shared machine) and report it as a failed run with its peak resident memory. Checked
with small stand-in children, not with Orion (no Orion run is cheap enough for a test).
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))  # benchmarks/: scripts, not a package

import bench_orion  # noqa: E402

CHILD = """
import json, sys, time
spec = json.load(open(sys.argv[2]))
block = bytearray(spec["mb"] * 1_000_000)  # zero-filled: resident once written
for i in range(0, len(block), 4096):
    block[i] = 1
time.sleep(spec["sleep"])
print("RESULT " + json.dumps({"held_mb": len(block) // 1_000_000}), flush=True)
"""


def _child(tmp_path: Path) -> Path:
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(CHILD))
    return script


def test_a_run_past_the_memory_limit_is_stopped_and_reported(tmp_path: Path) -> None:
    result = bench_orion.spawn({"mb": 400, "sleep": 30}, tmp_path, timeout=60, lock=None,
                               script=_child(tmp_path), max_rss_gb=0.2)
    assert not result.ok
    assert "resident (limit 0.2 GB)" in result.error
    assert 0.2 < result.data["peak_rss_gb"] < 1.0


def test_a_run_within_the_limit_returns_its_result_and_peak(tmp_path: Path) -> None:
    result = bench_orion.spawn({"mb": 100, "sleep": 0.6}, tmp_path, timeout=60, lock=None,
                               script=_child(tmp_path), max_rss_gb=2.0)
    assert result.ok, result.error
    assert result.data["held_mb"] == 100
    assert 0.1 < result.data["peak_rss_gb"] < 0.5


def test_a_run_past_its_timeout_is_stopped(tmp_path: Path) -> None:
    result = bench_orion.spawn({"mb": 1, "sleep": 30}, tmp_path, timeout=1, lock=None,
                               script=_child(tmp_path), max_rss_gb=2.0)
    assert not result.ok
    assert result.error == "timeout after 1 s"
