"""Compile time per model: heirpy-opt's pipeline against its parse and against heir-opt.

    python benchmarks/bench_compile_time.py [MODEL.mlir ...] [--runs 5]
        [--pipeline linalg-canonicalizations,linalg-fuse-ops] [--heir-opt PATH] [--report]

Models default to examples/*.mlir (the bundled models, whole networks among them). Every
figure is CPU seconds (user + system) of fresh processes, the median of `--runs` runs
after one untimed warm-up run: on a shared machine wall time mostly measures the
neighbours. Run it alone all the same (`flock LOCKFILE python ...`), since caches are
shared too. Python writes its bytecode caches in the warm-up run even where the
environment sets PYTHONDONTWRITEBYTECODE (the children run without it), so no row pays
for compiling heirpy's sources, as no installed copy does.

Columns of the first table:
- `heirpy-opt -p`: `heirpy-opt MODEL -p PIPELINE`, the whole command;
- its phases, timed inside one such process (time.process_time, medians): start-up
  (importing heirpy-opt and building the pipeline, which imports the passes), parse,
  verify (after the parse and after each pass: heirpy-opt verifies as mlir-opt does),
  the passes, print;
- `heirpy-opt (no pass)`: `heirpy-opt MODEL`, i.e. start-up, parse, verify and print;
- `heir-opt`: `heir-opt MODEL --canonicalize` (MLIR's parse, a pass, print) and the
  ratio of heirpy-opt's pipeline to it.

`--report` adds a table of `heirpy-report MODEL` (one run per model: the main job's work
on it), with the CPU of heirpy's own process apart from its children (heir-opt and
iree-compile).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from harness import markdown_table

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

# One pipeline run as heirpy-opt makes it, each phase timed inside the process.
PHASES_CODE = """
import json, sys, time
clock = time.process_time
t0 = clock()
from heirpy.tools.heirpy_opt import HeirpyOptMain
main = HeirpyOptMain(sys.argv[1:])
from heirpy.api import apply_pass
from heirpy.ir.diagnostics import verify_module
[(chunk, offset)] = main.read_chunks()
t1 = clock()
module = main.parse_text(chunk, offset)
t2 = clock()
verify_module(module)
verify = clock() - t2
passes = 0.0
for module_pass in main.pipeline_passes:
    t3 = clock()
    apply_pass(module_pass, module, main.ctx)
    t4 = clock()
    verify_module(module)
    passes += t4 - t3
    verify += clock() - t4
t5 = clock()
main.output_resulting_program(module)
print(json.dumps({"start-up": t1 - t0, "parse": t2 - t1, "verify": verify, "passes": passes,
                  "print": clock() - t5}))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def child_cpu(cmd: list[str]) -> tuple[float, str]:
    """CPU seconds of one run of `cmd` and its stdout; stops the benchmark if it fails."""
    before = _children_cpu()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=_env())
    spent = _children_cpu() - before
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip()[-500:]}")
    return spent, proc.stdout


def median_cpu(cmd: list[str], runs: int) -> float:
    child_cpu(cmd)  # warm the file cache and the bytecode caches, untimed
    return statistics.median(child_cpu(cmd)[0] for _ in range(runs))


def median_phases(cmd: list[str], runs: int) -> dict[str, float]:
    child_cpu(cmd)
    samples = [json.loads(child_cpu(cmd)[1].strip().splitlines()[-1]) for _ in range(runs)]
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def tool(name: str) -> str | None:
    return shutil.which(name, path=str(BIN)) or shutil.which(name)


def op_count(path: Path) -> int:
    """Ops in the model as heirpy parses it (bodies included)."""
    from heirpy.api import parse

    return sum(1 for _ in parse(path.read_text(), str(path)).walk()) - 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pipeline", default="linalg-canonicalizations,linalg-fuse-ops")
    parser.add_argument("--heir-opt", default=tool("heir-opt"))
    parser.add_argument("--report", action="store_true", help="also time heirpy-report per model")
    args = parser.parse_args(argv)
    models: list[Path] = args.models or sorted((REPO / "examples").glob("*.mlir"))
    heirpy_opt = tool("heirpy-opt")
    opt = [heirpy_opt] if heirpy_opt else [sys.executable, "-m", "heirpy.tools.heirpy_opt"]

    header = ["model", "KiB", "ops", "heirpy-opt -p", "start-up", "parse", "verify", "passes",
              "print", "heirpy-opt (no pass)", "heir-opt", "ratio"]
    rows: list[list[str]] = []
    for path in models:
        model = str(path.resolve())
        full = median_cpu([*opt, model, "-p", args.pipeline], args.runs)
        split = median_phases([sys.executable, "-c", PHASES_CODE, model, "-p", args.pipeline], args.runs)
        bare = median_cpu([*opt, model], args.runs)
        heir = median_cpu([args.heir_opt, model, "--canonicalize"], args.runs) if args.heir_opt else None
        rows.append([
            path.stem, f"{path.stat().st_size / 1024:,.0f}", f"{op_count(path):,}", f"{full:.2f}",
            *(f"{split[k]:.2f}" for k in ("start-up", "parse", "verify", "passes", "print")),
            f"{bare:.2f}", "-" if heir is None else f"{heir:.2f}",
            "-" if not heir else f"{full / heir:.0f}x",
        ])
        print(f"  {path.stem}: {full:.2f} s", file=sys.stderr, flush=True)
    print(f"CPU seconds per process, median of {args.runs} (python {sys.version.split()[0]}); "
          f"pipeline {args.pipeline}; heir-opt: --canonicalize\n")
    print(markdown_table(header, rows))

    if args.report:
        report_rows = []
        for path in models:
            before, start = _children_cpu(), time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-c", REPORT_CODE, str(path.resolve())],
                capture_output=True, text=True, cwd=REPO, env=_env(),
            )
            wall = time.perf_counter() - start
            total = _children_cpu() - before
            own = json.loads(proc.stdout.strip().splitlines()[-1])["self"]
            report_rows.append([path.stem, f"{total:.1f}", f"{own:.1f}", f"{total - own:.1f}",
                                f"{wall:.1f}", "ok" if proc.returncode == 0 else "FAILED"])
        print("\n`heirpy-report MODEL`, one run: CPU seconds in all, of heirpy's own process, "
              "of its children (heir-opt, iree-compile); wall seconds\n")
        print(markdown_table(["model", "CPU", "heirpy", "children", "wall", "checks"], report_rows))
    return 0


# heirpy-report in a process that reports its own CPU apart from its children's.
REPORT_CODE = """
import json, resource, sys
from heirpy.tools.heirpy_report import main
code = main([sys.argv[1]])
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"self": usage.ru_utime + usage.ru_stime, "code": code}))
"""


if __name__ == "__main__":
    sys.exit(main())
