"""benchmarks/bench_iree_dispatch_times.py: a call's dispatch time weights each executable
by its executions per call.

IREE deduplicates the executables of repeated blocks (ConvNeXt-atto's six stage-3 blocks run
one depthwise-conv executable six times a call), and more in one variant than in another:
the sum of one execution per executable is then no time of a call (ConvNeXt-atto, best CPU
flags: 0.74x raw per executable, 0.96-1.00x per call). Checked on made-up profile rows.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))  # benchmarks/: scripts, not a package

from bench_iree_dispatch_times import DispatchTime, profiled_calls, summarize  # noqa: E402


def queue_row(event: str, samples: int) -> dict:
    return {"row_type": "host_execution_queue_operation", "event_name": event, "sample_count": samples}


def test_calls_are_the_execute_operations() -> None:
    rows = [queue_row("alloca", 80), queue_row("dispatch", 4360), queue_row("execute", 40),
            {"row_type": "host_execution_function", "sample_count": 240}]
    assert profiled_calls(rows) == 40


def test_a_profile_without_execute_is_an_error() -> None:
    with pytest.raises(SystemExit):
        profiled_calls([queue_row("dispatch", 10)])


def test_an_executable_run_six_times_a_call_counts_six_times() -> None:
    conv = DispatchTime("main_dispatch_38_conv_4x4x160x7x7_f32", 240, 45.0, 50.0, 6.0)
    once = DispatchTime("main_dispatch_0_generic_3x4x4x16x16_f32", 40, 6.0, 8.0, 1.0)
    rows, (per_call_min, per_call_mean, per_executable) = summarize([[once, conv]])
    assert per_call_min == pytest.approx(6 * 45.0 + 6.0)
    assert per_call_mean == pytest.approx(6 * 50.0 + 8.0)
    assert per_executable == pytest.approx(45.0 + 6.0)
    assert [row[0] for row in rows] == ["0", "38"] and rows[1][3] == "6"


def test_runs_merge_to_the_shortest_and_the_mean_of_means() -> None:
    first = DispatchTime("main_dispatch_1_matmul_40x256x48_f32", 40, 9.0, 12.0, 1.0)
    second = DispatchTime("main_dispatch_1_matmul_40x256x48_f32", 40, 8.0, 10.0, 1.0)
    _, (per_call_min, per_call_mean, _) = summarize([[first], [second]])
    assert per_call_min == pytest.approx(8.0)
    assert per_call_mean == pytest.approx(11.0)
