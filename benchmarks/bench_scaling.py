"""Compile-time scaling: parse, each pass and print on modules of N repeated blocks.

    /work/venv/bin/python benchmarks/bench_scaling.py [--sizes 10,30,...,10000]
        [--kinds cnn,yolo] [--plot benchmarks/out/scaling.png] [--heir-opt PATH]

Two module families, written as text directly (torch-mlir's forms, dense_resource weights):
  cnn   one function, N blocks  pad -> conv 2x2 (bias as init) -> avg pool 2x2 stride 1
        (fill 0 + pooling_nchw_sum + divide generic) -> x*x, each 1x2x8x8 -> 1x2x8x8;
        N conv+pool pairs for the fusions to rewrite, and an N-deep def-use chain.
  yolo  one function, N YOLO-style heads on the same input: 1x1 conv + broadcast bias ->
        expand_shape -> transpose -> sigmoid, N results.
Each size runs in a fresh subprocess (clean peak memory, no cross-talk). Times are CPU
seconds (time.process_time; heir-opt's from getrusage of the child), not wall time: on a
shared machine wall time mostly measures the neighbours. Phases, in the
order a user runs them: parse (heirpy.parse, which verifies), linalg-canonicalizations,
linalg-fuse-ops, lower-tensor-ext, report-depth, report-kernels (on the lowered module),
verify (once, after the passes) and print. Every pass is applied alone, timed, without
the per-pass verification run_pipeline adds. It prints seconds per phase, each pass's
ratio to parse time, the fitted scaling exponent (least squares on log time vs log N),
the subprocess's peak RSS (ru_maxrss), and heir-opt --linalg-canonicalizations on the same file
(CPU time of the process: parse + pass + print) next to heirpy's parse +
linalg-canonicalizations + print. Targets: every pass <= 0.3 x parse at every N, every
exponent <= 1.1, no RecursionError at N = 10,000.

matplotlib (benchmarks/requirements.txt) is only needed for --plot; it is never a
dependency of heirpy or its tests.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from harness import children_cpu  # benchmarks/, the directory of this script

ROOT = Path(__file__).resolve().parent.parent
PASSES = ("linalg-canonicalizations", "linalg-fuse-ops", "lower-tensor-ext", "report-depth", "report-kernels")
PHASES = ("parse", *PASSES, "verify", "print")
DEFAULT_SIZES = (10, 30, 100, 300, 1000, 3000, 10000)
TARGET_RATIO = 0.3
TARGET_EXPONENT = 1.1

ID4 = "#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
ID5 = "#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>"
PAR4 = '["parallel", "parallel", "parallel", "parallel"]'
PAR5 = '["parallel", "parallel", "parallel", "parallel", "parallel"]'


def _blob(rng: np.random.Generator, count: int) -> str:
    values = (np.round(rng.standard_normal(count) * 16) / 64).astype("<f4")
    return '"0x04000000' + values.tobytes().hex().upper() + '"'


def _resources(blobs: dict[str, str]) -> str:
    body = ",\n".join(f"      {k}: {v}" for k, v in blobs.items())
    return f"\n{{-#\n  dialect_resources: {{\n    builtin: {{\n{body}\n    }}\n  }}\n#-}}\n"


def cnn_module(n: int) -> str:
    """N blocks pad -> conv -> avg pool -> x*x on tensor<1x2x8x8xf32>."""
    rng = np.random.default_rng(n)
    t8, t9, t10 = "tensor<1x2x8x8xf32>", "tensor<1x2x9x9xf32>", "tensor<1x2x10x10xf32>"
    lines = [
        "%zero = arith.constant 0.000000e+00 : f32",
        "%four = arith.constant 4.000000e+00 : f32",
        "%win = tensor.empty() : tensor<2x2xf32>",
    ]
    blobs: dict[str, str] = {}
    x = "%arg0"
    for i in range(n):
        w, b = f"torch_tensor_{i}_2_2_2_2_torch.float32", f"torch_tensor_{i}_2_torch.float32"
        blobs[w], blobs[b] = _blob(rng, 16), _blob(rng, 2)
        lines += [
            f"%w{i} = arith.constant dense_resource<{w}> : tensor<2x2x2x2xf32>",
            f"%b{i} = arith.constant dense_resource<{b}> : tensor<2xf32>",
            f"%pad{i} = tensor.pad {x} low[0, 0, 1, 1] high[0, 0, 1, 1] {{",
            "^bb0(%i0: index, %i1: index, %i2: index, %i3: index):",
            "  tensor.yield %zero : f32",
            f"}} : {t8} to {t10}",
            f"%e{i} = tensor.empty() : {t9}",
            f"%bb{i} = linalg.broadcast ins(%b{i} : tensor<2xf32>) outs(%e{i} : {t9}) dimensions = [0, 2, 3]",
            f"%conv{i} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} "
            f"ins(%pad{i}, %w{i} : {t10}, tensor<2x2x2x2xf32>) outs(%bb{i} : {t9}) -> {t9}",
            f"%pe{i} = tensor.empty() : {t8}",
            f"%pf{i} = linalg.fill ins(%zero : f32) outs(%pe{i} : {t8}) -> {t8}",
            f"%pool{i} = linalg.pooling_nchw_sum {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} "
            f"ins(%conv{i}, %win : {t9}, tensor<2x2xf32>) outs(%pf{i} : {t8}) -> {t8}",
            f"%avg{i} = linalg.generic {{indexing_maps = [#id4, #id4], iterator_types = {PAR4}}} "
            f"ins(%pool{i} : {t8}) outs(%pe{i} : {t8}) {{",
            "^bb0(%in: f32, %out: f32):",
            "  %q = arith.divf %in, %four : f32",
            "  linalg.yield %q : f32",
            f"}} -> {t8}",
            f"%sq{i} = linalg.generic {{indexing_maps = [#id4, #id4, #id4], iterator_types = {PAR4}}} "
            f"ins(%avg{i}, %avg{i} : {t8}, {t8}) outs(%pe{i} : {t8}) {{",
            "^bb0(%in: f32, %in_1: f32, %out: f32):",
            "  %m = arith.mulf %in, %in_1 : f32",
            "  linalg.yield %m : f32",
            f"}} -> {t8}",
        ]
        x = f"%sq{i}"
    body = "\n    ".join(lines)
    return (
        f"{ID4}\nmodule {{\n  func.func @main(%arg0: {t8}) -> {t8} {{\n    {body}\n"
        f"    return {x} : {t8}\n  }}\n}}\n" + _resources(blobs)
    )


def yolo_module(n: int) -> str:
    """N heads: 1x1 conv 4 -> 12 (+ bias) -> [1,3,4,4,4] -> transpose -> sigmoid."""
    rng = np.random.default_rng(n)
    t_in, t_c, t_x, t_o = (
        "tensor<1x4x4x4xf32>", "tensor<1x12x4x4xf32>", "tensor<1x3x4x4x4xf32>", "tensor<1x3x4x4x4xf32>",
    )
    lines = ["%one = arith.constant 1.000000e+00 : f32"]
    blobs: dict[str, str] = {}
    results = []
    for i in range(n):
        w, b = f"torch_tensor_{i}_12_4_1_1_torch.float32", f"torch_tensor_{i}_12_torch.float32"
        blobs[w], blobs[b] = _blob(rng, 48), _blob(rng, 12)
        lines += [
            f"%w{i} = arith.constant dense_resource<{w}> : tensor<12x4x1x1xf32>",
            f"%b{i} = arith.constant dense_resource<{b}> : tensor<12xf32>",
            f"%e{i} = tensor.empty() : {t_c}",
            f"%bb{i} = linalg.broadcast ins(%b{i} : tensor<12xf32>) outs(%e{i} : {t_c}) dimensions = [0, 2, 3]",
            f"%conv{i} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} "
            f"ins(%arg0, %w{i} : {t_in}, tensor<12x4x1x1xf32>) outs(%bb{i} : {t_c}) -> {t_c}",
            f"%x{i} = tensor.expand_shape %conv{i} [[0], [1, 2], [3], [4]] output_shape [1, 3, 4, 4, 4] : {t_c} into {t_x}",
            f"%te{i} = tensor.empty() : {t_o}",
            f"%t{i} = linalg.transpose ins(%x{i} : {t_x}) outs(%te{i} : {t_o}) permutation = [0, 1, 3, 4, 2]",
            f"%s{i} = linalg.generic {{indexing_maps = [#id5, #id5], iterator_types = {PAR5}}} "
            f"ins(%t{i} : {t_o}) outs(%te{i} : {t_o}) {{",
            "^bb0(%in: f32, %out: f32):",
            "  %ng = arith.negf %in : f32",
            "  %ex = math.exp %ng : f32",
            "  %de = arith.addf %ex, %one : f32",
            "  %sg = arith.divf %one, %de : f32",
            "  linalg.yield %sg : f32",
            f"}} -> {t_o}",
        ]
        results.append(f"%s{i}")
    body = "\n    ".join(lines)
    types = ", ".join([t_o] * n)
    return (
        f"{ID5}\nmodule {{\n  func.func @main(%arg0: {t_in}) -> ({types}) {{\n    {body}\n"
        f"    return {', '.join(results)} : {types}\n  }}\n}}\n" + _resources(blobs)
    )


KINDS = {"cnn": cnn_module, "yolo": yolo_module}


# ------------------------------------------------------------------ one measurement
def measure(kind: str, n: int, heir_opt: str | None) -> dict[str, object]:
    """Run every phase once on a fresh module of `n` blocks; runs in its own process."""
    from heirpy.api import apply_pass, build_pipeline, context_of, parse, print_module
    from heirpy.ir.diagnostics import verify_module

    text = KINDS[kind](n)
    row: dict[str, object] = {"kind": kind, "n": n, "bytes": len(text)}
    times: dict[str, float] = {}
    try:
        t0 = time.process_time()
        module = parse(text, f"{kind}_{n}.mlir")
        times["parse"] = time.process_time() - t0
        row["ops"] = sum(1 for _ in module.walk())
        ctx = context_of(module)
        for name in PASSES:
            module_pass = build_pipeline(name).passes[0]
            t0 = time.process_time()
            with contextlib.redirect_stderr(io.StringIO()):  # the report passes' tables
                apply_pass(module_pass, module, ctx)
            times[name] = time.process_time() - t0
        t0 = time.process_time()
        verify_module(module)
        times["verify"] = time.process_time() - t0
        t0 = time.process_time()
        printed = print_module(module)
        times["print"] = time.process_time() - t0
        row["ops_after"] = sum(1 for _ in module.walk())
        row["printed_bytes"] = len(printed)
    except RecursionError as err:
        row["error"] = f"RecursionError: {err}"
    except Exception as err:  # noqa: BLE001 - a benchmark reports, it does not stop
        row["error"] = f"{type(err).__name__}: {str(err).strip().splitlines()[-1][:200] if str(err).strip() else ''}"
    row["times"] = times
    row["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if heir_opt:
        row.update(_heir_opt_times(heir_opt, text))
    return row


def _heir_opt_times(heir_opt: str, text: str) -> dict[str, object]:
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    out: dict[str, object] = {}
    try:
        for key, flags in (("heir_opt_canon", ["--linalg-canonicalizations"]), ("heir_opt_parse_print", [])):
            before = children_cpu()
            proc = subprocess.run([heir_opt, *flags, path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            out[key] = children_cpu() - before
            if proc.returncode != 0:
                out[f"{key}_error"] = proc.stderr.strip().splitlines()[0][:200] if proc.stderr.strip() else "failed"
    finally:
        Path(path).unlink()
    return out


# ------------------------------------------------------------------ driver
FIT_MIN_N = 100


def fit_exponent(ns: list[int], ts: list[float]) -> float | None:
    """Slope of log t against log N (least squares) over N >= FIT_MIN_N and times over
    5 ms: below that, fixed costs (imports, context set-up) flatten the curve and hide
    the asymptotic growth the target is about."""
    pairs = [
        (math.log(n), math.log(t)) for n, t in zip(ns, ts)
        if t is not None and t > 0.005 and n >= FIT_MIN_N
    ]
    if len(pairs) < 2:
        return None
    x, y = np.array(pairs).T
    return float(np.polyfit(x, y, 1)[0])


def run_sizes(kind: str, sizes: list[int], heir_opt: str | None) -> list[dict[str, object]]:
    rows = []
    for n in sizes:
        cmd = [sys.executable, __file__, "--one", kind, str(n)] + (["--heir-opt", heir_opt] if heir_opt else [])
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            rows.append({"kind": kind, "n": n, "times": {}, "error": (proc.stderr.strip().splitlines() or ["?"])[-1]})
        else:
            rows.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        _print_row(rows[-1])
    return rows


def _print_row(row: dict[str, object]) -> None:
    times: dict[str, float] = row["times"]  # type: ignore[assignment]
    parts = " ".join(f"{p}={times[p]:.3f}" for p in PHASES if p in times)
    extra = f" heir-opt={row['heir_opt_canon']:.3f}" if "heir_opt_canon" in row else ""
    err = f" ERROR {row['error']}" if "error" in row else ""
    print(f"  {row['kind']} N={row['n']}: ops={row.get('ops', '?')} {parts}{extra} "
          f"peak={row.get('peak_rss_mb', 0):.0f}MB{err}", flush=True)


def rows_from_log(path: Path) -> dict[str, list[dict[str, object]]]:
    """Rows back from the per-size lines a previous run printed (`--from-log`), so the
    tables and the plot can be redrawn without measuring again."""
    import re

    results: dict[str, list[dict[str, object]]] = {}
    line_re = re.compile(r"^  (\w+) N=(\d+): (ops=.*)$")
    for line in path.read_text().splitlines():
        match = line_re.match(line)
        if not match:
            continue
        kind, n, rest = match.group(1), int(match.group(2)), match.group(3)
        row: dict[str, object] = {"kind": kind, "n": n, "times": {}}
        rest, _, error = rest.partition(" ERROR ")
        if error:
            row["error"] = error
        for key, value in (item.split("=", 1) for item in rest.split() if "=" in item):
            if key == "ops":
                row["ops"] = int(value) if value.isdigit() else value
            elif key == "peak":
                row["peak_rss_mb"] = float(value.removesuffix("MB"))
            elif key == "heir-opt":
                row["heir_opt_canon"] = float(value)
            else:
                row["times"][key] = float(value)  # type: ignore[index]
        results.setdefault(kind, []).append(row)
    return results


def report(kind: str, rows: list[dict[str, object]]) -> list[str]:
    """The table for one module family; returns the target misses."""
    misses: list[str] = []
    ns = [int(r["n"]) for r in rows]  # type: ignore[arg-type]
    print(f"\n== {kind}: seconds per phase (ratio to parse for passes)")
    header = ["N", "ops", *PHASES, "peak MB", "heir-opt canon", "heirpy/heir-opt"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        times: dict[str, float] = r["times"]  # type: ignore[assignment]
        parse_t = times.get("parse")
        cells = [f"{r['n']:,}", f"{r.get('ops', '?'):,}" if isinstance(r.get("ops"), int) else "?"]
        for p in PHASES:
            if p not in times:
                cells.append("ERR" if "error" in r else "-")
            elif p in PASSES and parse_t:
                ratio = times[p] / parse_t
                cells.append(f"{times[p]:.3f} ({ratio:.2f}x)")
                if ratio > TARGET_RATIO:
                    misses.append(f"{kind} N={r['n']}: {p} is {ratio:.2f}x parse")
            else:
                cells.append(f"{times[p]:.3f}")
        cells.append(f"{r.get('peak_rss_mb', 0):.0f}")
        heir = r.get("heir_opt_canon")
        if heir is not None and "heir_opt_canon_error" not in r:
            ours = sum(times.get(p, 0.0) for p in ("parse", "linalg-canonicalizations", "print"))
            cells += [f"{heir:.3f}", f"{ours / heir:.1f}x"]
        else:
            cells += [str(r.get("heir_opt_canon_error", "n/a"))[:40], "-"]
        print("| " + " | ".join(cells) + " |")
        if "error" in r:
            misses.append(f"{kind} N={r['n']}: {r['error']}")
    print(f"\n{kind}: fitted scaling exponent (log t vs log N, N >= {FIT_MIN_N}, times over 5 ms)")
    for p in (*PHASES, "heir-opt"):
        ts = [
            (r.get("heir_opt_canon") if p == "heir-opt" else r["times"].get(p))  # type: ignore[union-attr]
            for r in rows
        ]
        k = fit_exponent(ns, ts)  # type: ignore[arg-type]
        print(f"  {p:26s} {'n/a' if k is None else f'{k:.2f}'}")
        if k is not None and k > TARGET_EXPONENT and p != "heir-opt":
            misses.append(f"{kind}: {p} scales as N^{k:.2f}")
    return misses


def plot(results: dict[str, list[dict[str, object]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(6.5 * len(results), 5), squeeze=False)
    for ax, (kind, rows) in zip(axes[0], results.items()):
        ns = [r["n"] for r in rows]
        for p in (*PHASES, "heir-opt"):
            ts = [r.get("heir_opt_canon") if p == "heir-opt" else r["times"].get(p) for r in rows]  # type: ignore[union-attr]
            pts = [(n, t) for n, t in zip(ns, ts) if t]
            if pts:
                style = "k--" if p == "heir-opt" else "-"
                label = "heir-opt --linalg-canonicalizations" if p == "heir-opt" else p
                ax.loglog(*zip(*pts), style, marker="o", markersize=3, label=label)
        ax.set_title(f"{kind}: compile time vs N blocks")
        ax.set_xlabel("N (blocks)")
        ax.set_ylabel("seconds")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"\nplot: {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--kinds", default="cnn,yolo")
    parser.add_argument("--plot", type=Path, default=ROOT / "benchmarks" / "out" / "scaling.png")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--heir-opt", default=shutil.which("heir-opt") or str(Path(sys.executable).parent / "heir-opt"))
    parser.add_argument("--from-log", type=Path, help="redraw the tables and plot from a previous run's output")
    parser.add_argument("--one", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    heir_opt = args.heir_opt if args.heir_opt and Path(args.heir_opt).exists() else None

    if args.one:
        sys.setrecursionlimit(1000)  # Python's default: a pass must not need more
        print(json.dumps(measure(args.one[0], int(args.one[1]), heir_opt)))
        return 0

    sizes = [int(s) for s in args.sizes.split(",")]
    results = {}
    if args.from_log:
        results = rows_from_log(args.from_log)
    else:
        for kind in args.kinds.split(","):
            print(f"{kind}:", flush=True)
            results[kind] = run_sizes(kind, sizes, heir_opt)
    misses = [m for kind, rows in results.items() for m in report(kind, rows)]
    if not args.no_plot:
        try:
            plot(results, args.plot)
        except ImportError:
            print("\nplot skipped: pip install -r benchmarks/requirements.txt")
    print("\ntargets: every pass <= 0.3x parse, exponent <= 1.1, no recursion error")
    print("all met" if not misses else "missed:\n  " + "\n  ".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
