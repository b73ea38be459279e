"""Levels HEIR's CKKS back end allocates for each net, raw vs after heirpy's heir-prepare.

    flock /work/coord/bench.lock python benchmarks/bench_heir_backend.py [--timeout 600]
        [--only NAME ...] [--extra DIR ...] [--level-budget N] [--out benchmarks/out/heir_backend.md]

For every `examples/*.mlir` model, the nets of issue 24
(`tests/filecheck/transforms/heir-prepare/Inputs/`: a 1x6x4x4 feature map, a batch of
2), every net `bench_depth.py` generates with torch-mlir (its generators are imported,
not copied) and every `.mlir` in `--extra` directories, heir-opt runs

    heir-opt --secretize=function=<entry> '--annotate-module=backend=openfhe scheme=ckks'
             --torch-linalg-to-ckks[=min-slot-count=S]

on (a) the raw IR and (b) the IR after heirpy's `heir-prepare` (= `linalg-canonicalizations,
linalg-fuse-ops,legalize-for-heir`, the slot count picked by heirpy; checked against the
raw IR with the evaluator on one seed, or against PyTorch's outputs where the model has an
.npz beside it, and to contain no tensor_ext op). S is the slot count heirpy
names (`heirpy.analysis.slots.module_slots`: HEIR's default 1024 unless a secret vector
is longer), for both runs. `<entry>` is the module's first function.

Levels = len(Q) - 1 of the module's `ckks.schemeParam` (HEIR's parameter generation sizes
the Q chain to the levels its management passes used). HEIR's greedy management keeps a
ciphertext within `greedy-level-budget` levels (10 by default) and bootstraps it when it
runs out, so on a net deeper than that len(Q) - 1 is the budget plus the bootstrap's own
levels, and the cell names the bootstraps placed (`ckks.bootstrap` ops). To compare a deep
net's levels with its bound, give `--level-budget N` with N at least the bound: both runs
get `greedy-level-budget=N`, and a net within it is compiled without bootstrapping. "bound" is heirpy's depth model
(`heirpy.analysis.depth`: one level per plaintext-ciphertext linear op, one per ct x ct
multiply, `+` = lower bound) on the legalized IR; "depth raw" the same on the raw IR. A
rejected run shows HEIR's first `error:` line (file position stripped). heir-opt calls
run one after another with a timeout; run the script under the benchmark lock.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from math import prod
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from xdsl.dialects.func import FuncOp  # noqa: E402

from bench_depth import depth_of, entry, export_generated  # noqa: E402  (the nets' generators)
from heirpy.analysis.slots import DEFAULT_SLOT_COUNT, module_slots  # noqa: E402
from heirpy.api import parse, print_module, run_pipeline  # noqa: E402
from heirpy.interp.equivalence import check_equivalence, padded_inputs  # noqa: E402
from heirpy.interp.evaluator import run_function  # noqa: E402
from heirpy.interp.reference import compare_with_reference, load_npz, reference_inputs  # noqa: E402
from heirpy.ir.utils import static_shape  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HEIR_OPT = shutil.which("heir-opt") or str(ROOT.parent / "venv" / "bin" / "heir-opt")
HEIRPY_PIPELINE = "heir-prepare"
ISSUE_NETS = ROOT / "tests" / "filecheck" / "transforms" / "heir-prepare" / "Inputs"
SCHEME_PARAM = re.compile(r"ckks\.schemeParam\s*=\s*#ckks\.scheme_param<([^>]*)>")
Q_LIST = re.compile(r"\bQ\s*=\s*\[([^\]]*)\]")
LOG_N = re.compile(r"\blogN\s*=\s*(\d+)")


@dataclass
class HeirRun:
    """One heir-opt invocation: compiled (with levels), rejected, crashed or timed out."""

    status: str  # "ok" | "rejected" | "crash" | "timeout" | "no params"
    seconds: float
    levels: int | None = None
    log_n: int | None = None
    bootstraps: int = 0
    error: str = ""

    def cell(self) -> str:
        if self.status != "ok":
            return self.status
        plural = "s" if self.bootstraps != 1 else ""
        return f"**{self.levels}** ({self.bootstraps} bootstrap{plural})" if self.bootstraps else f"**{self.levels}**"

    def time_cell(self) -> str:
        return f"{self.seconds:.1f}"


@dataclass
class Row:
    name: str
    depth_raw: str
    bound: str
    slots: int
    raw: HeirRun
    heirpy: HeirRun | None
    heirpy_error: str = ""  # heirpy's own pipeline failed or changed the values


def heir_pipeline(function: str, slots: int, level_budget: int | None = None) -> list[str]:
    options = [] if slots == DEFAULT_SLOT_COUNT else [f"min-slot-count={slots}"]
    if level_budget is not None:
        options.append(f"greedy-level-budget={level_budget}")
    option = "=" + " ".join(options) if options else ""
    return [
        f"--secretize=function={function}",
        "--annotate-module=backend=openfhe scheme=ckks",
        f"--torch-linalg-to-ckks{option}",
    ]


def first_error(stderr: str) -> str:
    """HEIR's first diagnostic line, without the `file:line:col:` prefix."""
    for line in stderr.splitlines():
        if "error:" in line:
            return line[line.index("error:"):].strip()
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[0].strip() if lines else "(no message)"


def levels_of(output: str) -> tuple[int | None, int | None]:
    """(len(Q) - 1, logN) from the module's ckks.schemeParam, or (None, None)."""
    match = SCHEME_PARAM.search(output)
    if match is None:
        return None, None
    q = Q_LIST.search(match.group(1))
    log_n = LOG_N.search(match.group(1))
    moduli = [m for m in q.group(1).split(",") if m.strip()] if q else []
    return (len(moduli) - 1 if moduli else None), (int(log_n.group(1)) if log_n else None)


def run_heir(text: str, function: str, timeout: float, slots: int, level_budget: int | None = None) -> HeirRun:
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as handle:
        handle.write(text)
        path = handle.name
    start = time.monotonic()
    try:
        result = subprocess.run(
            [HEIR_OPT, *heir_pipeline(function, slots, level_budget), path],
            capture_output=True, text=True, timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return HeirRun("timeout", time.monotonic() - start, error=f"no result after {timeout:.0f} s")
    finally:
        Path(path).unlink(missing_ok=True)
    seconds = time.monotonic() - start
    if result.returncode < 0 or result.returncode >= 128:
        return HeirRun("crash", seconds, error=f"heir-opt died (exit {result.returncode})")
    if result.returncode != 0:
        return HeirRun("rejected", seconds, error=first_error(result.stderr))
    levels, log_n = levels_of(result.stdout)
    if levels is None:
        return HeirRun("no params", seconds, error="compiled, but no ckks.schemeParam in the output")
    bootstraps = len(re.findall(r"\bckks\.bootstrap\b", result.stdout))
    return HeirRun("ok", seconds, levels=levels, log_n=log_n, bootstraps=bootstraps)


def legalized(text: str, name: str, function: str) -> tuple[str, int]:
    """heirpy's output for heir-opt and the slot count it names; the values are checked
    so no level is reported for a different program: against the model's own .npz (its
    inputs and PyTorch's outputs) where it has one, else against the raw IR on one seed.
    The .npz matters on deep x² nets: a random input overflows f32 through ResNet-20's 19
    squares, and NaN is never counted as agreement."""
    module = parse(text, name)
    shapes = [static_shape(t) for t in entry(module).function_type.outputs.data]  # the raw results'
    run_pipeline(module, HEIRPY_PIPELINE)
    slots = module_slots([op for op in module.walk() if isinstance(op, FuncOp)])[0]
    lowered = print_module(module)
    if "tensor_ext." in lowered:
        raise RuntimeError("tensor_ext ops left after heir-prepare")
    npz = Path(name).with_suffix(".npz")
    if npz.is_file():
        arrays = load_npz(npz)
        prepared = parse(lowered, f"{name}-heirpy")
        inputs = reference_inputs(arrays, len(entry(prepared).function_type.inputs), str(npz))
        # heir-prepare gives an image argument power-of-two channels: pass the input padded.
        results = run_function(prepared, function, padded_inputs(inputs, entry(prepared)))
        # heir-prepare returns a result no conv lays out flat: read it in its shape, row-major.
        results = [r.reshape(shape) if shape is not None and r.size == prod(shape) else r
                   for r, shape in zip(results, shapes)]
        bad = [c for c in compare_with_reference(arrays, results, 1e-4, 1e-5, str(npz)) if not c.ok]
        if bad:
            raise RuntimeError(f"heirpy's output differs from {npz.name}: {bad[0].line()}")
        return lowered, slots
    report = check_equivalence(parse(text, name), parse(lowered, f"{name}-heirpy"), function=function, seeds=(0,),
                               row_major_results=True,  # heir-prepare returns a result no conv lays out flat
                               padded_args=True)  # and pads an image argument's channels
    if not report.ok:
        raise RuntimeError("heirpy changed the values: " + report.summary().splitlines()[-1].strip())
    return lowered, slots


def bench(path: Path, timeout: float, level_budget: int | None = None) -> Row:
    text = path.read_text()
    module = parse(text, str(path))
    function = entry(module).sym_name.data
    depth_raw = depth_of(module).depth_text()
    try:
        lowered, slots = legalized(text, str(path), function)
    except Exception as err:  # report heirpy's own failure instead of hiding the net
        print(f"{path.stem}: raw ...", file=sys.stderr, flush=True)
        raw = run_heir(text, function, timeout, DEFAULT_SLOT_COUNT, level_budget)
        return Row(path.stem, depth_raw, "-", DEFAULT_SLOT_COUNT, raw, None, f"heirpy: {str(err).splitlines()[0][:120]}")
    bound = depth_of(parse(lowered, f"{path.name}-heirpy")).depth_text()
    print(f"{path.stem}: raw ({slots} slots) ...", file=sys.stderr, flush=True)
    raw = run_heir(text, function, timeout, slots, level_budget)
    print(f"{path.stem}: heirpy ...", file=sys.stderr, flush=True)
    heirpy = run_heir(lowered, function, timeout, slots, level_budget)
    return Row(path.stem, depth_raw, bound, slots, raw, heirpy)


def _note(row: Row) -> str:
    a, b = row.raw, row.heirpy
    if b is None:
        return ""
    if b.status == "ok" and b.levels is not None and row.bound.isdigit() and b.levels > int(row.bound):
        over = f"{b.levels - int(row.bound)} over the bound"
    else:
        over = ""
    if a.status == "timeout" or b.status == "timeout":
        note = "timeout"
    elif a.status != "ok" and b.status == "ok":
        note = "compiles only after heirpy"
    elif a.status == "ok" and b.status != "ok":
        note = "REGRESSION: rejected after heirpy"
    elif a.status == "ok" and a.levels is not None and b.levels is not None:
        saved = a.levels - b.levels
        plural = "s" if abs(saved) != 1 else ""
        note = f"{abs(saved)} level{plural} {'fewer' if saved > 0 else 'more'}" if saved else "same levels"
    else:
        note = ""
    return "; ".join(n for n in (note, over) if n)


def format_rows(rows: list[Row]) -> str:
    header = ["net", "heirpy depth raw", "bound (heirpy)", "slots", "HEIR (a) raw", "(a) s",
              "HEIR (b) heirpy heir-prepare", "(b) s", "note"]
    body = []
    notes: list[str] = []
    for row in rows:
        b = row.heirpy
        body.append([
            row.name, row.depth_raw, row.bound, str(row.slots), row.raw.cell(), row.raw.time_cell(),
            b.cell() if b else "heirpy error", b.time_cell() if b else "-", _note(row),
        ])
        for label, run in (("(a)", row.raw), ("(b)", b)):
            if run is not None and run.error:
                notes.append(f"- {row.name} {label}: {run.error}")
        if row.heirpy_error:
            notes.append(f"- {row.name} (b): {row.heirpy_error}")
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |" for line in [header, *body]]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    if notes:
        lines += ["", "First HEIR error per run that did not compile:", "", *notes]
    return "\n".join(lines)


def heir_version() -> str:
    try:
        out = subprocess.run([HEIR_OPT, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return " ".join(line.strip() for line in out.splitlines() if "version" in line.lower()) or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per heir-opt run")
    parser.add_argument(
        "--level-budget", type=int, default=None,
        help="HEIR's greedy-level-budget for both runs (default: HEIR's, 10); at least the bound to compile without bootstraps",
    )
    parser.add_argument("--only", nargs="*", default=None, help="net names (file stems) to run")
    parser.add_argument("--extra", nargs="*", type=Path, default=[], help="more directories of .mlir nets")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "heir_backend.md")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        models = sorted((ROOT / "examples").glob("*.mlir")) + sorted(ISSUE_NETS.glob("*.mlir"))
        if args.only is None or any(name.startswith("gen_") for name in args.only):  # torch-mlir takes minutes
            models += export_generated(Path(tmp))
        models += [m for d in args.extra for m in sorted(d.glob("*.mlir"))]
        if args.only:
            models = [m for m in models if m.stem in args.only]
        rows = [bench(path, args.timeout, args.level_budget) for path in models]
    command = shlex.join(["heir-opt", *heir_pipeline("<entry>", DEFAULT_SLOT_COUNT, args.level_budget)])
    text = "\n".join([
        f"heir-opt: {HEIR_OPT} ({heir_version()})",
        f"command: {command} (with min-slot-count=S when slots S > {DEFAULT_SLOT_COUNT}, for both runs)",
        f"(b) = after heirpy {HEIRPY_PIPELINE} (slot count S picked by heirpy), values checked against the model's "
        ".npz (PyTorch) where it has one, else the raw IR; "
        "levels = len(ckks.schemeParam Q) - 1; bound = heirpy's depth model on (b)",
        "",
        format_rows(rows),
    ])
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
