"""IREE's time per dispatch: where a model's run time goes, raw IR against heirpy's output.

    python benchmarks/bench_iree_dispatch_times.py examples/mobilenetv2.mlir [--pipeline P ...]
        [--rounds 2] [--min-time 1.0] [--iree-bin DIR] [--keep DIR] [--flag=--iree-... ...]

`bench_iree.py` times a whole call; when heirpy's output is slower than the raw IR it does
not say which dispatch costs the difference. This script compiles both variants for llvm-cpu
(the flags of `heirpy.analysis.iree_dispatches`), runs each under `iree-benchmark-module`
single-threaded (`--task_topology_max_group_count=1`) with IREE's HAL profiling on
(`--device_profiling_mode=host-execution`, the family local-task supports), and reads the
per-dispatch statistics back with `iree-profile statistics` (`--pipeline` more than once: one
heirpy variant per pipeline, `heirpy`, `heirpy 2`, ...): per dispatch, its executions per
call, the shortest and the mean host time of one execution. The shortest is the figure to
compare on a shared machine (the mean also counts the time other processes held the core).
A call runs one executable several times where blocks repeat (ConvNeXt-atto's six stage-3
blocks share one depthwise-conv executable), and IREE deduplicates such executables more or
less in one variant than in another, so the totals weight each executable by its executions
per call (its executions over the profile's calls, IREE's `execute` queue operations): the
dispatch time of one call, which leaves out what a call adds around them (allocation,
barriers). The sum of one execution of each executable is printed too ("per executable"):
it is no time of a call (ConvNeXt-atto best flags, 2026-12-07: 0.74x raw per executable,
0.97-1.00x per call). The variants alternate.

`--flag` (more than once) adds an iree-compile flag for every variant, e.g. the zoo's best CPU
flags: `--flag=--iree-opt-data-tiling --flag=--iree-global-opt-use-im2col-for-convs`.

On a shared machine pass `--lock /work/coord/bench.lock`: it is held for the timed runs only.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import heirpy  # noqa: E402
from bench_iree import DEFAULT_PIPELINE  # noqa: E402
from harness import Tools, held, markdown_table, run  # noqa: E402
from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, dispatch_kind  # noqa: E402
from heirpy.interp.npz_recipes import load_arrays  # noqa: E402


@dataclass
class DispatchTime:
    name: str  # e.g. main_dispatch_3_matmul_like_8x1024x16_f32
    count: int
    min_us: float
    mean_us: float
    per_call: float  # executions in one call of the function

    @property
    def ordinal(self) -> int:
        """The dispatch's number; -1 for a function IREE adds that is no dispatch of the
        model's (e.g. a `__builtin_` fill or splat)."""
        if "_dispatch_" not in self.name:
            return -1
        return int(self.name.split("_dispatch_", 1)[1].split("_", 1)[0])

    @property
    def shape(self) -> str:
        if self.ordinal < 0:
            return self.name
        return self.name.split(f"_dispatch_{self.ordinal}_", 1)[1]


def profile(tools: Tools, vmfb: Path, inputs: list[Path], min_time: float, work: Path) -> list[DispatchTime]:
    """Per-dispatch host-execution statistics of one single-threaded benchmark run."""
    bundle = work / f"{vmfb.stem}.ireeprof"
    run([
        tools.benchmark, "--device=local-task", "--task_topology_max_group_count=1",
        f"--module={vmfb}", "--function=main", *[f"--input=@{path}" for path in inputs],
        f"--benchmark_min_time={min_time}s", "--device_profiling_mode=host-execution",
        f"--device_profiling_output={bundle}",
    ])
    profile_tool = str(Path(tools.benchmark).with_name("iree-profile"))
    rows = [json.loads(line) for line in run([profile_tool, "statistics", "--format=jsonl", str(bundle)]).splitlines()]
    calls = profiled_calls(rows)
    found = [
        DispatchTime(row["function_name"], row["sample_count"], row["minimum_duration_ns"] / 1e3,
                     row["total_duration_ns"] / row["sample_count"] / 1e3, row["sample_count"] / calls)
        for row in rows
        if row.get("row_type") == "host_execution_function" and row.get("sample_count")
    ]
    return sorted(found, key=lambda d: d.ordinal)


def profiled_calls(rows: list[dict]) -> int:
    """How many calls of the function a profile holds: IREE's `execute` queue operations
    (one per call: the function's command buffer; the benchmark's warm-up calls included,
    as they are in every dispatch's count)."""
    for row in rows:
        if row.get("row_type") == "host_execution_queue_operation" and row.get("event_name") == "execute":
            return int(row["sample_count"])
    raise SystemExit("error: the profile has no `execute` queue operation to count calls by")


def summarize(runs: list[list[DispatchTime]]) -> tuple[list[list[str]], tuple[float, float, float]]:
    """One variant's profiles (one list per run) merged per dispatch: the shortest execution
    over all runs and the mean of the runs' means, as table rows (#, dispatch, kind, runs per
    call, shortest, mean), and the totals (shortest us per call, mean us per call, shortest us
    of one execution of each executable). The per-call totals weight each executable by its
    executions per call."""
    merged: dict[str, list[DispatchTime]] = {}
    for times in runs:
        for time in times:
            merged.setdefault(time.name, []).append(time)
    rows = []
    total_min = total_mean = once_min = 0.0
    for dispatch_name, times in sorted(merged.items(), key=lambda item: item[1][0].ordinal):
        best = min(t.min_us for t in times)
        mean = sum(t.mean_us for t in times) / len(times)
        per_call = times[0].per_call
        total_min, total_mean, once_min = total_min + per_call * best, total_mean + per_call * mean, once_min + best
        rows.append([str(times[0].ordinal), times[0].shape, dispatch_kind(dispatch_name), f"{per_call:g}",
                     f"{best:.1f}", f"{mean:.1f}"])
    return rows, (total_min, total_mean, once_min)


def inputs_for(model: Path, work: Path) -> list[Path]:
    """The model's `.npz` inputs as .npy files (examples/ have them), else random ones."""
    npz = model.with_suffix(".npz")
    if npz.exists():
        data = load_arrays(npz)  # the example's inputs are drawn from seeds
        arrays = [data[k] for k in sorted((k for k in data if k.startswith("arg")), key=lambda k: int(k[3:]))]
    else:
        module = heirpy.parse(model.read_text(), str(model))
        func = next(op for op in module.ops if op.name == "func.func")
        rng = np.random.default_rng(0)
        arrays = [rng.standard_normal(t.get_shape()).astype(np.float32) for t in func.function_type.inputs.data]
    paths = []
    for index, array in enumerate(arrays):
        path = work / f"arg{index}.npy"
        np.save(path, array)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--pipeline", action="append", default=None, help=f"default {DEFAULT_PIPELINE}")
    parser.add_argument("--min-time", type=float, default=1.0, help="seconds per variant")
    parser.add_argument("--rounds", type=int, default=2, help="alternating runs per variant")
    parser.add_argument("--iree-bin", default=None)
    parser.add_argument("--keep", default=None, help="keep the compiled files in this directory")
    parser.add_argument("--lock", default=None, help="hold this flock file during the timed runs only")
    parser.add_argument("--flag", action="append", default=[], help="an extra iree-compile flag (repeatable)")
    args = parser.parse_args(argv)
    tools = Tools.find(args.iree_bin)
    with tempfile.TemporaryDirectory(prefix="bench_dispatch_") as tmp:
        work = Path(args.keep) if args.keep else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        pipelines = args.pipeline or [DEFAULT_PIPELINE]
        sources = [("raw", args.model)]
        for index, pipeline in enumerate(pipelines):
            name = "heirpy" if index == 0 else f"heirpy {index + 1}"
            module = heirpy.parse(args.model.read_text(), str(args.model))
            heirpy.run_pipeline(module, pipeline)
            sources.append((name, work / f"{name.replace(' ', '_')}.mlir"))
            sources[-1][1].write_text(heirpy.print_module(module))
        inputs = inputs_for(args.model, work)
        variants: dict[str, list[list[DispatchTime]]] = {}
        vmfbs = {}
        for name, source in sources:
            vmfbs[name] = work / f"{name.replace(' ', '_')}.vmfb"
            run([tools.compile, *COMPILE_FLAGS, *args.flag, str(source), "-o", str(vmfbs[name])])
            variants[name] = []
        with held(args.lock):  # compiling (above) needs no lock, timing does
            for _ in range(args.rounds):
                for name, vmfb in vmfbs.items():
                    variants[name].append(profile(tools, vmfb, inputs, args.min_time, work))
    rows: list[list[str]] = []
    totals: dict[str, tuple[float, float, float]] = {}
    for name, runs in variants.items():
        variant_rows, totals[name] = summarize(runs)
        rows += [[name, *row] for row in variant_rows]
    names = ["heirpy" if i == 0 else f"heirpy {i + 1}" for i in range(len(pipelines))]
    print(f"{args.model.name}: " + "; ".join(f"{n} = {p}" for n, p in zip(names, pipelines))
          + f"; iree-compile {' '.join((*COMPILE_FLAGS, *args.flag))}; "
          f"single-threaded, {args.rounds} alternating runs of {args.min_time:g} s per variant")
    print(markdown_table(["variant", "#", "dispatch", "kind", "runs per call", "shortest us", "mean us"], rows))
    print()
    raw_min, raw_mean, raw_once = totals["raw"]
    print(markdown_table(
        ["variant", "executables", "runs per call", "shortest us per call", "/raw", "means us per call", "/raw",
         "shortest us per executable", "/raw"],
        [[n, str(sum(1 for r in rows if r[0] == n)), f"{sum(float(r[4]) for r in rows if r[0] == n):g}",
          f"{t[0]:.1f}", f"{t[0] / raw_min:.2f}", f"{t[1]:.1f}", f"{t[1] / raw_mean:.2f}",
          f"{t[2]:.1f}", f"{t[2] / raw_once:.2f}"] for n, t in totals.items()],
    ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
