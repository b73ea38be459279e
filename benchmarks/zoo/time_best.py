"""Re-time cached zoo exports with IREE's best CPU flags: heirpy's input against the raw IR.

    python benchmarks/zoo/time_best.py [--cache /work/zoo-cache] [--rounds 5] [--rerun-rounds 7]
        [--eager] MODEL[:DTYPE] ...

`run_zoo.py` measures a model once, from its export on; after a change to `iree-prepare`
the timings of every cached model are wanted again, on the same code, in one sitting. For
each model (`<cache>/<model>/<dtype>/model.mlir` and `model.npz`, written by `run_zoo.py`;
dtype f32 unless given) this script writes heirpy's IREE inputs again (`measure.HEIRPY_FILES`:
`iree-prepare` for IREE's defaults, `iree-prepare{im2col=true}` for the best flags),
counts executables raw -> heirpy under IREE's defaults (`--compile-to=flow`), compiles
both modules with the best flags (`measure.BEST_FLAGS`), checks IREE's output of each
against PyTorch's stored output (max abs error), and times them single-threaded, alternating,
`--rounds` times (medians of process CPU time, as `measure.time_iree` does). A model slower
than raw (or than `--rerun-above`) is timed again at once with `--rerun-rounds`
(`measure.confirm`, each side under `--layouts` code placements, 4 by default: two read
DenseNet-121 at 1.009x where four read 1.10x, same code, another day; a regression counts once a rerun confirms
it; the first pass compiles each side once, so a ratio within a few % of 1.0 is read on
the rerun, docs/iree.md). Each model's figures go to `<dir>/time_best.json`, so an
interrupted run resumes (`--redo` measures again). `--eager` also times PyTorch eager on
each f32 model (`models.torch_ms`: one thread, median of 10 calls; kept in the same json,
so a later run without `--redo` adds it to cached figures). Prints a markdown table, the
geometric mean of heirpy / raw, first runs and with the reruns, and with `--eager` that of
heirpy + IREE's time over PyTorch eager's (issue 37's stretch target).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np

ZOO = Path(__file__).resolve().parent
sys.path[:0] = [str(ZOO), str(ZOO.parent)]  # the zoo's modules, benchmarks/ (the harness)

from measure import BEST_FLAGS, HEIRPY_FILES, RUN_FLAGS, confirm, dispatches, iree_pipeline, load_arrays  # noqa: E402

from bench_iree import Variant, benchmark  # noqa: E402
from harness import Tools, run  # noqa: E402
from heirpy.analysis.iree_dispatches import COMPILE_FLAGS  # noqa: E402

RESULT = "time_best.json"


def measure_one(directory: Path, rounds: int, rerun_rounds: int, layouts: int = 4,
                rerun_above: float = 1.0) -> dict[str, Any]:
    """The figures of one cached model (see the module docstring)."""
    tools = Tools.find(None)
    heirpy_opt = str(Path(sys.executable).parent / "heirpy-opt")
    raw = directory / "model.mlir"
    for flags, name in HEIRPY_FILES.items():
        run([heirpy_opt, str(raw), "-p", iree_pipeline(flags), "-o", str(directory / name)])
    out: dict[str, Any] = {
        "executables_default": [len(dispatches(tools, source, ())) for source in
                                (raw, directory / HEIRPY_FILES["default"])],
    }
    arrays = load_arrays(directory)
    inputs = [directory / "arg0.npy"]
    np.save(inputs[0], arrays["arg0"])
    variants = []
    for side, source in (("raw", raw), ("heirpy", directory / HEIRPY_FILES["best"])):
        variant = Variant(f"{side} best", source, directory / f"{side}_time_best.vmfb")
        run([tools.compile, *COMPILE_FLAGS, *RUN_FLAGS, *BEST_FLAGS, str(source), "-o", str(variant.vmfb)])
        got = directory / "out0.npy"
        run([tools.run, "--device=local-task", f"--module={variant.vmfb}", "--function=main",
             f"--input=@{inputs[0]}", f"--output=@{got}"])
        out[f"max_abs_error_{side}"] = float(np.max(np.abs(np.load(got).astype(np.float64) - arrays["result0"])))
        variants.append(variant)
    try:
        for _ in range(rounds):
            for variant in variants:
                benchmark(tools, variant, inputs, "one", 0.1)
    finally:
        for variant in variants:
            variant.vmfb.unlink()
    out["ms"] = {v.name: statistics.median(v.one_cpu) for v in variants}
    out["ratio"] = out["ms"]["heirpy best"] / out["ms"]["raw best"]
    out["load"] = os.getloadavg()[0]
    if out["ratio"] > rerun_above:
        rerun = confirm(directory, rerun_rounds, layouts)
        out["rerun_layouts"] = layouts
        out["rerun_ratio"] = rerun["heirpy best"] / rerun["raw best"]
    return out


def eager_ms(name: str) -> float:
    """PyTorch eager's single-threaded ms for zoo model `name` (`models.torch_ms`)."""
    from models import SPECS, torch_ms

    return torch_ms(next(spec for spec in SPECS if spec.name == name))


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", metavar="MODEL[:DTYPE]")
    parser.add_argument("--cache", type=Path, default=ZOO.parents[1] / "build" / "zoo")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rerun-rounds", type=int, default=7)
    parser.add_argument("--layouts", type=int, default=4,
                        help="code layouts a side in a rerun (DenseNet-121, same code: 1.009x over two, 1.10x over four)")
    parser.add_argument("--rerun-above", type=float, default=1.0,
                        help="rerun every model whose first ratio is above this")
    parser.add_argument("--redo", action="store_true", help="measure again, even if cached")
    parser.add_argument("--eager", action="store_true",
                        help="also time PyTorch eager on each f32 model (models.torch_ms), kept in its json")
    args = parser.parse_args()
    print("| model | dtype | IREE vs PyTorch, max abs err: raw / heirpy | executables, defaults: raw -> heirpy "
          "| raw ms, best flags | heirpy / raw | rerun | PyTorch eager ms |")
    print("|---|---|---|---|---|---|---|---|")
    first, settled = [], []
    eager: dict[str, tuple[float, float]] = {}
    for item in args.models:
        name, _, dtype = item.partition(":")
        directory = args.cache / name / (dtype or "f32")
        path = directory / RESULT
        if args.redo or not path.exists():
            try:
                path.write_text(json.dumps(measure_one(directory, args.rounds, args.rerun_rounds,
                                                             args.layouts, args.rerun_above)))
            except Exception as err:  # recorded, so the table shows it and the run goes on
                print(f"| {name} | {dtype or 'f32'} | error: {type(err).__name__}: {str(err)[:200]} |", flush=True)
                continue
        r = json.loads(path.read_text())
        if args.eager and (dtype or "f32") == "f32" and "torch_ms" not in r:
            r["torch_ms"] = eager_ms(name)
            path.write_text(json.dumps(r))
        if "torch_ms" in r:
            eager[name] = (r["ms"]["heirpy best"], r["torch_ms"])
        first.append(r["ratio"])
        settled.append(r.get("rerun_ratio", r["ratio"]))
        rerun = f"{r['rerun_ratio']:.3f}" if "rerun_ratio" in r else ""
        torch_column = f"{r['torch_ms']:.2f}" if "torch_ms" in r else "-"
        execs = r["executables_default"]
        print(f"| {name} | {dtype or 'f32'} | {r['max_abs_error_raw']:.1e} / {r['max_abs_error_heirpy']:.1e} "
              f"| {execs[0]} -> {execs[1]} | {r['ms']['raw best']:.2f} | {r['ratio']:.3f} | {rerun} "
              f"| {torch_column} |", flush=True)
    if first:
        print(f"\ngeometric mean, heirpy / raw with the best flags: {geomean(first):.3f} (first runs), "
              f"{geomean(settled):.3f} (a rerun in place of a first run above 1.0), {len(first)} models")
    if eager:
        print(f"heirpy + IREE (best flags) / PyTorch eager: {geomean([h / t for h, t in eager.values()]):.3f} "
              f"(geometric mean, {len(eager)} f32 models, one thread each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
