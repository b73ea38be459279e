"""The model zoo: heirpy on real timm / torchvision / ultralytics models, against PyTorch
and against IREE on the raw IR (issue 37).

    python benchmarks/zoo/run_zoo.py [--only NAME ...] [--sample] [--dtype f32 f16]
        [--rounds 3] [--cache build/zoo] [--redo] [--table-only] [--plot FILE.png] [--untimed]

Each model (`models.SPECS`: 29 classifiers and 3 detectors, f32 and f16) is built with
random weights, exported by torch-mlir and measured (`measure.py`) in a child process of its
own; its files and results (`result.json`) stay under the cache directory (build/, git-
ignored), so a second run reuses them and an interrupted run resumes (`--redo` measures
again). IREE is timed on the f32 models and the f16 detectors. The table (markdown) goes to
stdout, a line per model to stderr as it finishes; `--plot` draws heirpy/raw times per model.
`--sample` is the CI sample (`SAMPLE`, tests/unit/test_zoo_sample.py checks it quicker).
`--untimed` measures every figure except the timings (IREE's modules run, PyTorch eager):
numerics, depth, linear ops, weights, dispatches, compile speed; its results are marked
`"untimed"`, and a later run without the flag completes them from the cached files (no
export, no heirpy pass again). A model that fails keeps its traceback in `error.txt`.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import traceback
from pathlib import Path

ZOO = Path(__file__).resolve().parent
sys.path[:0] = [str(ZOO), str(ZOO.parent)]  # the zoo's modules, benchmarks/ (markdown_table)

from models import BY_NAME, SPECS, Spec  # noqa: E402
from table import plot, summary, table, twin_table  # noqa: E402

ROOT = ZOO.parents[1]
SAMPLE = ("squeezenet1_1", "mobilenetv3_small_050", "lcnet_050")  # tests/unit/test_zoo_sample.py's models


def timed_iree(spec: Spec, dtype: str) -> bool:
    return dtype == "f32" or spec.detector


def order(specs: list[Spec], dtypes: list[str]) -> list[tuple[Spec, str]]:
    """f32 small models first (the quickest figures), then the rest of f32, the f16
    detectors (timed), the rest of f16."""
    jobs = [(s, "f32") for s in specs if s.small] + [(s, "f32") for s in specs if not s.small]
    jobs += [(s, "f16") for s in specs if s.detector] + [(s, "f16") for s in specs if not s.detector]
    return [(s, d) for s, d in jobs if d in dtypes]


def current(path: Path) -> bool:
    """A cached result measured with CPU clocks (the first results timed PyTorch and the
    compilers by wall time, which a loaded machine inflates)."""
    return path.exists() and json.loads(path.read_text()).get("clock") == "cpu"


def retime(spec: Spec, dtype: str, directory: Path) -> int:
    """Re-measure a cached result's CPU-clock figures (PyTorch eager, compile speed), keeping
    the rest: IREE's times were CPU times already."""
    from measure import compile_speed
    from models import torch_ms

    path = directory / "result.json"
    result = json.loads(path.read_text())
    if "numerics" in result:
        result.update(compile_speed(directory / "model.mlir", directory / "heirpy_iree.mlir"))
        if dtype == "f32":
            result["torch_ms"] = torch_ms(spec)
    result["clock"] = "cpu"
    path.write_text(json.dumps(result, indent=1))
    return 0


def until(hh_mm: str, now: float) -> float:
    """The first time at or after `now` (seconds since the epoch) whose UTC clock reads
    `hh_mm`: `--until 00:30` given at 22:55 means half past midnight, not a time already past."""
    hours, minutes = (int(part) for part in hh_mm.split(":"))
    day = now - now % 86400
    deadline = day + hours * 3600 + minutes * 60
    return deadline if deadline > now else deadline + 86400


def done(path: Path, untimed: bool) -> bool:
    """A cached result that this run need not touch: a timed run completes untimed ones."""
    return current(path) and (untimed or not json.loads(path.read_text()).get("untimed"))


def complete(spec: Spec, dtype: str, directory: Path, rounds: int) -> int:
    """The timings an `--untimed` result lacks (PyTorch eager for f32, IREE's four modules
    where `timed_iree`), measured from the cached files and added to its result.json."""
    from measure import complete_timing
    from models import torch_ms

    path = directory / "result.json"
    result = json.loads(path.read_text())
    start = time.perf_counter()
    try:
        if dtype == "f32":
            result["torch_ms"] = torch_ms(spec)
        if timed_iree(spec, dtype):
            result.update(complete_timing(directory, rounds))
    except Exception as err:
        result["error"] = f"{type(err).__name__}: {str(err)[:300]}"
        (directory / "error.txt").write_text(traceback.format_exc())
    result.pop("untimed")
    result["seconds"] = round(result.get("seconds", 0) + time.perf_counter() - start, 1)
    path.write_text(json.dumps(result, indent=1))
    return 0


def one(name: str, dtype: str, cache: Path, rounds: int, untimed: bool = False) -> int:
    """The child: export (unless cached) and measure one model, write its result.json;
    `untimed`: every figure but the timings."""
    from measure import measure
    from models import export, torch_ms

    spec = BY_NAME[name]
    directory = cache / name / dtype
    path = directory / "result.json"
    if path.exists() and not current(path):
        return retime(spec, dtype, directory)
    if path.exists() and json.loads(path.read_text()).get("untimed") and not untimed:
        return complete(spec, dtype, directory, rounds)
    start = time.perf_counter()
    result: dict = {"name": name, "dtype": dtype, "package": spec.package, "family": spec.family,
                    "size": spec.size}
    try:
        exported = directory / "export.json"
        if not exported.exists() or not (directory / "model.mlir").exists():
            exported.parent.mkdir(parents=True, exist_ok=True)
            exported.write_text(json.dumps(export(spec, dtype, directory)))
        result.update(json.loads(exported.read_text()))
        if dtype == "f32" and not untimed:
            result["torch_ms"] = torch_ms(spec)
        result.update(measure(directory, timed_iree(spec, dtype) and not untimed, rounds))
        if untimed and timed_iree(spec, dtype) and "error" not in result:
            result["untimed"] = True
    except Exception as err:  # recorded, so the table shows it and the run goes on
        result["error"] = f"{type(err).__name__}: {str(err)[:300]}"
        (directory / "error.txt").write_text(traceback.format_exc())
    result["seconds"] = round(time.perf_counter() - start, 1)
    result["clock"] = "cpu"
    (directory / "result.json").write_text(json.dumps(result, indent=1))
    return 0


def confirm_regression(path: Path, rounds: int) -> None:
    """A cached model slower than raw with the best flags, not yet rerun: time it again."""
    from measure import confirm
    from table import ratio

    result = json.loads(path.read_text())
    if "ms_rerun" in result or (ratio(result, "best") or 0) <= 1.0:
        return
    result["ms_rerun"] = confirm(path.parent, rounds)
    path.write_text(json.dumps(result, indent=1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="model names")
    parser.add_argument("--sample", action="store_true", help=f"only {', '.join(SAMPLE)}")
    parser.add_argument("--dtype", nargs="*", default=["f32", "f16"], choices=("f32", "f16"))
    parser.add_argument("--rounds", type=int, default=3, help="alternating timed runs per variant")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "zoo")
    parser.add_argument("--redo", action="store_true", help="measure again, even if cached")
    parser.add_argument("--table-only", action="store_true", help="print the cached results, run nothing")
    parser.add_argument("--plot", type=Path, default=None, metavar="FILE.png")
    parser.add_argument("--confirm", action="store_true",
                        help="rerun the best-flag timing of cached models slower than raw, not yet rerun")
    parser.add_argument("--untimed", action="store_true",
                        help="every figure but IREE's and PyTorch's timings (a later run completes them)")
    parser.add_argument("--until", default=None, metavar="HH:MM",
                        help="start no model after this UTC time (what is cached is still tabled)")
    parser.add_argument("--one", nargs=2, metavar=("NAME", "DTYPE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        return one(args.one[0], args.one[1], args.cache, args.rounds, args.untimed)
    names = SAMPLE if args.sample else args.only
    unknown = [n for n in names or () if n not in BY_NAME]
    if unknown:
        parser.error(f"unknown model(s): {', '.join(unknown)} (known: {', '.join(BY_NAME)})")
    specs = [s for s in SPECS if names is None or s.name in names]
    results = []
    start = time.perf_counter()
    jobs = order(specs, args.dtype)
    deadline = None if args.until is None else until(args.until, time.time())
    for spec, dtype in jobs:
        path = args.cache / spec.name / dtype / "result.json"
        late = deadline is not None and time.time() >= deadline
        if args.redo and path.exists() and not args.table_only and not late:
            path.unlink()  # only once the model is sure to be measured again: a late job keeps its figures
        if not args.table_only and not late and not done(path, args.untimed):
            previous = json.loads(path.read_text()) if path.exists() else None
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, __file__, "--one", spec.name, dtype, "--cache", str(args.cache),
                            "--rounds", str(args.rounds)] + (["--untimed"] if args.untimed else []), check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if path.exists():
                result = json.loads(path.read_text())
                cpu = round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1)
                if previous is None or previous.get("untimed"):  # CPU time of every process, added per step
                    result["cpu_seconds"] = round((previous or {}).get("cpu_seconds", 0) + cpu, 1)
                    path.write_text(json.dumps(result, indent=1))
                print(f"{spec.name} {dtype}: {result.get('error') or 'done'} in {result['seconds']} s "
                      f"({time.perf_counter() - start:.0f} s so far)", file=sys.stderr, flush=True)
        if args.confirm and path.exists():
            confirm_regression(path, args.rounds)
        if path.exists():
            results.append(json.loads(path.read_text()))
    print(table(results))
    print()
    print("f16 against its f32 twin (main pipeline; issue 34: f16 should reach f32's figures):")
    print()
    print(twin_table(results))
    print()
    print(f"configurations asked for: {len(jobs)}, with a result: {len(results)}")
    print(summary(results))
    if args.plot is not None:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
