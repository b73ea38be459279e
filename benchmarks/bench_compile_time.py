"""Compile time per model: heirpy-opt's pipeline against its parse and against heir-opt.

    python benchmarks/bench_compile_time.py [MODEL.mlir ...] [--runs 5] [--yolov5s]
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

A second table sets heirpy-opt's parse + print (and its pipeline) against the C++ tools'
on the same file: `iree-opt MODEL` (MLIR's parse and print), `heir-opt MODEL` and
`heir-opt MODEL --canonicalize`, CPU seconds and peak RSS (MB) of each process (os.wait4),
with heirpy-opt's ratios to iree-opt measured in the same run.

`--yolov5s` adds ultralytics' YOLOv5s (yolov5s.yaml, 9.1 M parameters, random weights from
seed 0, Detect in export mode) exported at 320x320 by torch-mlir to linalg-on-tensors
(74 MB of MLIR, mostly dense_resource blobs), written to build/bench/ (git-ignored, never
committed) when absent there.

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
import tempfile
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


def child_usage(cmd: list[str]) -> tuple[float, float, str]:
    """CPU seconds, peak RSS (MB) and stdout of one run of `cmd` (its own rusage, os.wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=REPO, env=_env())
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {err.read().decode()[-500:]}")
        return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.read().decode()


def median_usage(cmd: list[str], runs: int) -> tuple[float, float]:
    """Median CPU seconds and median peak RSS (MB) of `runs` runs after an untimed one."""
    child_usage(cmd)
    samples = [child_usage(cmd)[:2] for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


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
    parser.add_argument("--iree-opt", default=tool("iree-opt"))
    parser.add_argument("--yolov5s", action="store_true",
                        help="add ultralytics' YOLOv5s at 320, exported now to build/bench/")
    parser.add_argument("--report", action="store_true", help="also time heirpy-report per model")
    args = parser.parse_args(argv)
    models: list[Path] = list(args.models)
    if args.yolov5s:
        models.append(export_yolov5s())
    if not models:
        models = sorted((REPO / "examples").glob("*.mlir"))
    heirpy_opt = tool("heirpy-opt")
    opt = [heirpy_opt] if heirpy_opt else [sys.executable, "-m", "heirpy.tools.heirpy_opt"]

    header = ["model", "KiB", "ops", "heirpy-opt -p", "start-up", "parse", "verify", "passes",
              "print", "heirpy-opt (no pass)", "heir-opt", "ratio"]
    rows: list[list[str]] = []
    tool_rows: list[list[str]] = []
    for path in models:
        model = str(path.resolve())
        full, full_rss = median_usage([*opt, model, "-p", args.pipeline], args.runs)
        split = median_phases([sys.executable, "-c", PHASES_CODE, model, "-p", args.pipeline], args.runs)
        bare, bare_rss = median_usage([*opt, model], args.runs)
        iree = median_usage([args.iree_opt, model], args.runs) if args.iree_opt else None
        heir_bare = median_usage([args.heir_opt, model], args.runs) if args.heir_opt else None
        heir_canon = (median_usage([args.heir_opt, model, "--canonicalize"], args.runs)
                      if args.heir_opt else None)
        heir = heir_canon[0] if heir_canon else None
        tool_rows.append([
            path.stem, f"{path.stat().st_size / 2**20:,.1f}",
            f"{bare:.2f} / {bare_rss:,.0f}", f"{full:.2f} / {full_rss:,.0f}",
            *(("-" if u is None else f"{u[0]:.2f} / {u[1]:,.0f}") for u in (iree, heir_bare, heir_canon)),
            "-" if not iree else f"{bare / iree[0]:.1f}x / {bare_rss / iree[1]:.1f}x",
            "-" if not iree else f"{full / iree[0]:.1f}x / {full_rss / iree[1]:.1f}x",
        ])
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
    print(f"\nCPU seconds / peak RSS MB per process, median of {args.runs}: heirpy-opt against the "
          "C++ tools on the same file; ratios to iree-opt's parse + print\n")
    print(markdown_table(
        ["model", "MB", "heirpy-opt (no pass)", "heirpy-opt -p", "iree-opt", "heir-opt",
         "heir-opt --canonicalize", "no pass / iree-opt", "-p / iree-opt"], tool_rows))

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


YOLOV5S = REPO / "build" / "bench" / "yolov5s_320.mlir"

# ultralytics' YOLOv5s through torch-mlir, in a process of its own (torch stays out of this one).
# Two shims, for this venv only: torchvision 0.28's C++ ops do not load against the CPU torch
# wheel, so its fake-kernel registrations for torchvision:: ops (which ultralytics never calls
# here) are skipped; OpenCV is not installed and only ultralytics' image utilities use it.
EXPORT_CODE = """
import sys, types, unittest.mock
import torch, torch.library
register_fake = torch.library.register_fake
def skip_torchvision(op, *args, **kwargs):
    if isinstance(op, str) and op.startswith("torchvision::"):
        return args[0] if args and callable(args[0]) else (lambda fn: fn)
    return register_fake(op, *args, **kwargs)
torch.library.register_fake = skip_torchvision
import torchvision  # noqa: F401
torch.library.register_fake = register_fake
sys.modules.setdefault("cv2", unittest.mock.MagicMock(name="cv2", __version__="4.10.0"))
from ultralytics.nn.tasks import DetectionModel
import torch_mlir.fx
torch.manual_seed(0)
model = DetectionModel("yolov5s.yaml", verbose=False).eval()
model.model[-1].export = True
model.model[-1].format = "onnx"
module = torch_mlir.fx.export_and_import(model, torch.randn(1, 3, 320, 320),
                                         output_type="linalg-on-tensors")
with open(sys.argv[1], "w") as out:
    out.write(str(module))
"""


def export_yolov5s() -> Path:
    """build/bench/yolov5s_320.mlir, exported now unless an earlier run left it there."""
    if not YOLOV5S.exists():
        YOLOV5S.parent.mkdir(parents=True, exist_ok=True)
        part = YOLOV5S.with_suffix(".part")
        env = {**_env(), "YOLO_CONFIG_DIR": str(YOLOV5S.parent / "ultralytics")}
        print("  exporting YOLOv5s (torch-mlir, ~1 min)", file=sys.stderr, flush=True)
        proc = subprocess.run([sys.executable, "-c", EXPORT_CODE, str(part)], cwd=REPO, env=env,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"YOLOv5s export failed: {proc.stderr.strip()[-800:]}")
        part.rename(YOLOV5S)
    return YOLOV5S


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
