"""Dispatches of the raw IR against heirpy's `iree-prepare` output, with the executables that differ.

    python benchmarks/zoo/dispatch_diff.py DIR [DIR ...] [--pipeline PIPELINE] [--flag=FLAG ...]
        [--keep WORKDIR]

Each DIR is a zoo cache directory (`<cache>/<model>/<dtype>`, holding `model.mlir`). The raw
IR and heirpy's output (`iree-prepare` unless `--pipeline` says otherwise) are compiled for
llvm-cpu (the zoo's flags, `--compile-to=flow`) under IREE's defaults (or `--flag`s) and
counted: executables (the zoo's dispatch figure) and `flow.dispatch` ops in `@main` (the
dispatches a call runs). Prints one markdown row per model, then, per model, the executable
names (IREE's kind and loop shape, e.g. `elementwise_64x56x56_f16`) that one side has more of:
what a change to `iree-prepare` added or removed. No timing: this is the tool for tracing a
dispatch count (issue 37: "under IREE's defaults, never more dispatches than raw").
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ZOO = Path(__file__).resolve().parent
sys.path.insert(0, str(ZOO.parent))  # benchmarks/: the shared harness

from harness import Tools, markdown_table, run  # noqa: E402
from heirpy.analysis.iree_dispatches import COMPILE_FLAGS  # noqa: E402

_EXPORT = re.compile(r"flow\.executable\.export\s+public\s+@(\w+)")
_DISPATCH = re.compile(r"flow\.dispatch @")
_SUFFIX = re.compile(r"_dispatch_\d+_(\w+)$")


def flow_counts(tools: Tools, source: Path, flags: list[str]) -> tuple[int, int, Counter[str]]:
    """(executables, dispatches run by `@main`, the executables' names without their prefix)."""
    text = run([tools.compile, *COMPILE_FLAGS, *flags, "--compile-to=flow", str(source), "-o", "-"])
    main = text[text.find("util.func public @main"):]
    names: Counter[str] = Counter()
    for name in _EXPORT.findall(text):
        match = _SUFFIX.search(name)
        names[match.group(1) if match else name] += 1
    return sum(names.values()), len(_DISPATCH.findall(main)), names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="zoo cache directories <cache>/<model>/<dtype>")
    parser.add_argument("--pipeline", default="iree-prepare", help="heirpy's pipeline (default iree-prepare)")
    parser.add_argument("--flag", action="append", default=[], help="an iree-compile flag (default: none)")
    parser.add_argument("--keep", type=Path, default=None, help="keep heirpy's outputs in this folder")
    args = parser.parse_args(argv)
    tools = Tools.find(None)
    heirpy_opt = Path(sys.executable).parent / "heirpy-opt"
    rows, diffs = [], []
    for directory in args.dirs:
        with tempfile.TemporaryDirectory(prefix="dispatch_diff_") as work:
            out = (args.keep or Path(work)) / f"{directory.parent.name}_{directory.name}_heirpy.mlir"
            out.parent.mkdir(parents=True, exist_ok=True)
            done = subprocess.run([str(heirpy_opt), str(directory / "model.mlir"), "-p", args.pipeline, "-o",
                                   str(out)], capture_output=True, text=True)
            if done.returncode != 0:
                print(f"{directory}: heirpy-opt exited {done.returncode}: {done.stderr[-500:]}", file=sys.stderr)
                rows.append([f"{directory.parent.name} {directory.name}", "", "heirpy-opt failed", ""])
                continue
            raw_exe, raw_run, raw_names = flow_counts(tools, directory / "model.mlir", args.flag)
            new_exe, new_run, new_names = flow_counts(tools, out, args.flag)
        model = f"{directory.parent.name} {directory.name}"
        rows.append([model, f"{raw_exe} / {raw_run}", f"{new_exe} / {new_run}", f"{new_exe - raw_exe:+d}"])
        more = ", ".join(f"{n} x{c}" for n, c in sorted((new_names - raw_names).items()))
        fewer = ", ".join(f"{n} x{c}" for n, c in sorted((raw_names - new_names).items()))
        diffs.append(f"- {model}: heirpy more: {more or '-'}; heirpy fewer: {fewer or '-'}")
        print(f"{directory}: {rows[-1]}\n{diffs[-1]}", file=sys.stderr, flush=True)
    print(markdown_table(["model", "raw: executables / run", "heirpy", "executables"], rows))
    print()
    print("\n".join(diffs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
