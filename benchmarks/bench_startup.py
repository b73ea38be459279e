"""Start-up cost of heirpy's command line: CPU seconds of fresh processes, against heir-opt.

    python benchmarks/bench_startup.py [--runs 15] [--model examples/tiny_cnn.mlir]
        [--pipeline linalg-canonicalizations,linalg-fuse-ops] [--heir-opt PATH]

Each row is one command run `--runs` times, each time in a new process; the table gives
the median and the minimum of the process's CPU time (user + system, from the child's
rusage), not wall time: on a shared machine wall time mostly measures the neighbours.
Run it alone (e.g. under `flock LOCKFILE`) all the same, since caches are shared too.
Rows: the interpreter alone, xDSL's own driver (`import xdsl.xdsl_opt_main`, the floor
heirpy-opt builds on), `import heirpy`, `import heirpy.tools.heirpy_opt`, `heirpy-opt
--help`, heirpy-opt on the model with the pipeline, and the baseline, heir-opt
`--linalg-canonicalizations` on the same file (parse + pass + print; the C++ tool has no
linalg-fuse-ops). Ratio = median / heir-opt's median.

A second table splits the pipeline run into phases, measured inside the process with
time.process_time (median over the same number of fresh processes): importing
heirpy-opt, building the pipeline (which imports the requested passes and the dialects
and numpy they use), parsing, running the passes, printing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from harness import children_cpu, markdown_table

REPO = Path(__file__).resolve().parent.parent

# One pipeline run, its phases timed inside the process (the second table).
PHASES_CODE = """
import json, sys, time
t0 = time.process_time()
from heirpy.tools.heirpy_opt import HeirpyOptMain
t1 = time.process_time()
main = HeirpyOptMain(sys.argv[1:])
t2 = time.process_time()
from heirpy.api import apply_pass
from heirpy.ir.diagnostics import verify_module
[(chunk, offset)] = main.read_chunks()
module = main.parse_text(chunk, offset)
verify_module(module)
t3 = time.process_time()
for module_pass in main.pipeline_passes:
    apply_pass(module_pass, module, main.ctx)
    verify_module(module)
t4 = time.process_time()
text = main.output_resulting_program(module)
t5 = time.process_time()
print(json.dumps({"import heirpy-opt": t1 - t0, "build the pipeline (imports its passes)": t2 - t1,
                  "parse + verify": t3 - t2, "passes (+ verify)": t4 - t3, "print": t5 - t4}))
"""


def child_cpu(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one run of `cmd`; stops the benchmark if it fails."""
    before = children_cpu()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=REPO)
    spent = children_cpu() - before
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip()[-500:]}")
    return spent


def commands(model: str, pipeline: str, heir_opt: str | None) -> dict[str, list[str]]:
    python = sys.executable
    opt = shutil.which("heirpy-opt", path=str(Path(python).parent)) or shutil.which("heirpy-opt")
    heirpy_opt = [opt] if opt else [python, "-m", "heirpy.tools.heirpy_opt"]
    rows = {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import xdsl.xdsl_opt_main'": [python, "-c", "import xdsl.xdsl_opt_main"],
        "python -c 'import heirpy'": [python, "-c", "import heirpy"],
        "python -c 'import heirpy.tools.heirpy_opt'": [python, "-c", "import heirpy.tools.heirpy_opt"],
        "heirpy-opt --help": [*heirpy_opt, "--help"],
        f"heirpy-opt {model} -p {pipeline}": [*heirpy_opt, model, "-p", pipeline],
    }
    if heir_opt:
        rows[f"heir-opt {model} --linalg-canonicalizations"] = [heir_opt, model, "--linalg-canonicalizations"]
    return rows


def median_cpu(cmd: list[str], runs: int) -> tuple[float, float]:
    child_cpu(cmd)  # warm the file cache and the bytecode caches, untimed
    times = [child_cpu(cmd) for _ in range(runs)]
    return statistics.median(times), min(times)


def phases(model: str, pipeline: str, runs: int) -> dict[str, float]:
    """Median CPU seconds per phase of the pipeline run (see the module docstring)."""
    cmd = [sys.executable, "-c", PHASES_CODE, model, "-p", pipeline]
    samples: list[dict[str, float]] = []
    for _ in range(runs + 1):
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, check=True)
        samples.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    samples = samples[1:]  # the first run warms the caches
    return {key: statistics.median(s[key] for s in samples) for key in samples[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--model", default="examples/tiny_cnn.mlir")
    parser.add_argument("--pipeline", default="linalg-canonicalizations,linalg-fuse-ops")
    parser.add_argument("--heir-opt", default=shutil.which("heir-opt", path=str(Path(sys.executable).parent))
                        or shutil.which("heir-opt"))
    args = parser.parse_args(argv)

    measured = {name: median_cpu(cmd, args.runs) for name, cmd in
                commands(args.model, args.pipeline, args.heir_opt).items()}
    baseline = next((m for name, (m, _) in measured.items() if name.startswith("heir-opt")), None)
    rows = [
        [f"`{name}`", f"{med:.3f}", f"{low:.3f}", f"{med / baseline:.1f}x" if baseline else "-"]
        for name, (med, low) in measured.items()
    ]
    print(f"CPU seconds per process, {args.runs} runs each (python {sys.version.split()[0]})\n")
    print(markdown_table(["command", "median", "min", "vs heir-opt"], rows))
    if not args.heir_opt:
        print("\nheir-opt not found (pip install heir-py): no baseline")

    split = phases(args.model, args.pipeline, args.runs)
    print(f"\nheirpy-opt {args.model} -p {args.pipeline}: CPU seconds per phase (median of {args.runs})\n")
    print(markdown_table(["phase", "CPU s"], [[k, f"{v:.3f}"] for k, v in split.items()]
                         + [["sum", f"{sum(split.values()):.3f}"]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
