"""heirpy pipelines against each other and the raw IR on cached zoo models, in one run.

    python benchmarks/zoo/ab_pipelines.py DIR [DIR ...] [--pipeline LABEL=PIPELINE ...]
        [--rounds 5] [--min-time 0.2] [--lock FILE]

`run_zoo.py` compares the raw IR with the current `iree-prepare` only, each model timed in
its own run at whatever load the machine had then; a change to `iree-prepare` needs its
before and after timed beside the same raw modules. Each DIR is a zoo cache directory
(`<cache>/<model>/<dtype>`, holding `model.mlir` and `model.npz`). Every pipeline's output
(by default `iree-prepare` without its last step, `detach-conv-init`, as "before", and
`iree-prepare` as "after") and the raw IR are compiled for llvm-cpu (the zoo's flags) under
IREE's defaults and its best CPU flags (`measure.BEST_FLAGS`), counted (executables, the
zoo's figure, and `flow.dispatch` ops in `@main`, the dispatches a call runs), checked
against PyTorch's output, and timed single-threaded (process CPU time of
`iree-benchmark-module`, as `measure.time_iree` does), the variants alternating, `--rounds`
times (medians). Each variant is compiled under `--layouts` source names of different
lengths, which move its code (`layout_names`), and its ms is the geometric mean of their
medians: one layout is a draw of loop alignments worth several percent on this machine.
Prints one markdown row per model and flag set: dispatches and ms, and each pipeline's
ratio to raw.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ZOO = Path(__file__).resolve().parent
sys.path.insert(0, str(ZOO.parent))  # benchmarks/: bench_iree's helpers
sys.path.insert(0, str(ZOO))

from measure import FLAG_SETS  # noqa: E402

from bench_iree import Variant, benchmark  # noqa: E402
from harness import Tools, held, layout_names, markdown_table, run  # noqa: E402
from heirpy.analysis.iree_dispatches import COMPILE_FLAGS  # noqa: E402
from heirpy.transforms.iree.iree_prepare import iree_prepare_pipeline  # noqa: E402

_EXECUTABLE = re.compile(r"flow\.executable\.export\s")
_DISPATCH = re.compile(r"flow\.dispatch @")


def default_pipelines() -> dict[str, str]:
    after = iree_prepare_pipeline("cpu")
    return {"before": after.replace(",detach-conv-init", ""), "after": after}


def counts(tools: Tools, source: Path, flags: tuple[str, ...]) -> str:
    """`executables / dispatches run per call` for `source` under `flags`."""
    text = run([tools.compile, *COMPILE_FLAGS, *flags, "--compile-to=flow", str(source), "-o", "-"])
    main = text[text.find("util.func public @main"):]
    return f"{len(_EXECUTABLE.findall(text))} / {len(_DISPATCH.findall(main))}"


def measure_model(tools: Tools, directory: Path, pipelines: dict[str, str], rounds: int, min_time: float,
                  lock: str | None, work: Path, layouts: int = 2) -> list[list[str]]:
    sources = {"raw": directory / "model.mlir"}
    heirpy_opt = Path(sys.executable).parent / "heirpy-opt"
    for label, pipeline in pipelines.items():
        sources[label] = work / f"{label}.mlir"
        subprocess.run([str(heirpy_opt), str(sources["raw"]), "-p", pipeline, "-o", str(sources[label])],
                       check=True, capture_output=True, text=True)
    with np.load(directory / "model.npz") as data:
        inputs = [work / "arg0.npy"]
        np.save(inputs[0], data["arg0"])
        expected = data["result0"].astype(np.float64)
    rows = []
    for flag_name, flags in FLAG_SETS.items():
        variants: dict[str, list[Variant]] = {}
        cells = {}
        for label, source in sources.items():
            variants[label] = []
            for index, name in enumerate(layout_names(source, work, label, layouts)):
                variant = Variant(label, name, work / f"{label}_{flag_name}_{index}.vmfb")
                run([tools.compile, *COMPILE_FLAGS, *flags, str(name), "-o", str(variant.vmfb)])
                variants[label].append(variant)
            got = work / "out0.npy"
            run([tools.run, "--device=local-task", f"--module={variants[label][0].vmfb}", "--function=main",
                 f"--input=@{inputs[0]}", f"--output=@{got}"])
            error = float(np.max(np.abs(np.load(got).astype(np.float64) - expected)))
            cells[label] = [counts(tools, source, flags), f"{error:.1e}"]
        with held(lock):
            for _ in range(rounds):
                for group in variants.values():
                    for variant in group:
                        benchmark(tools, variant, inputs, "one", min_time)
        # one figure per label: the geometric mean over its layouts of each layout's median
        ms = {label: statistics.geometric_mean([statistics.median(v.one_cpu) for v in group])
              for label, group in variants.items()}
        row = [directory.parent.name, flag_name]
        for label in sources:
            dispatches, error = cells[label]
            ratio = "" if label == "raw" else f", **{ms[label] / ms['raw']:.2f}x**"
            row.append(f"{dispatches}, {ms[label]:.2f} ms{ratio} (err {error})")
        rows.append(row)
        for group in variants.values():
            for variant in group:
                variant.vmfb.unlink()
    return rows



def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="zoo cache directories <cache>/<model>/<dtype>")
    parser.add_argument("--pipeline", action="append", default=None, metavar="LABEL=PIPELINE",
                        help="a heirpy variant (default: before = iree-prepare without detach-conv-init, "
                             "after = iree-prepare)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating timed runs per variant")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per benchmark run")
    parser.add_argument("--lock", default=None, help="hold this flock file during the timed runs only")
    parser.add_argument("--layouts", type=int, default=2,
                        help="code layouts per variant (source names of different lengths; the ms is their geometric mean)")
    args = parser.parse_args(argv)
    pipelines = default_pipelines()
    if args.pipeline:
        pipelines = dict(spec.split("=", 1) for spec in args.pipeline)
    tools = Tools.find(None)
    header = ["model", "flags", "raw: executables / dispatches, ms (err)",
              *[f"{label}: (ratio to raw)" for label in pipelines]]
    rows = []
    for directory in args.dirs:
        with tempfile.TemporaryDirectory(prefix="ab_pipelines_") as work:
            rows.extend(measure_model(tools, directory, pipelines, args.rounds, args.min_time, args.lock,
                                      Path(work), args.layouts))
        print(f"{directory}: done", file=sys.stderr, flush=True)
    print(markdown_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
