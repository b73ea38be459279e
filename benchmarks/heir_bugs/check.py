"""Run each HEIR bug reproducer in this folder and print what heir-opt does with it,
before and after heirpy's `legalize-for-heir`.

    python benchmarks/heir_bugs/check.py [--heir-opt PATH]

Every reproducer is a small, valid module (heirpy's evaluator runs it). A row says
what heir-opt did: a miscompile (its output computes other values than its input,
checked with heirpy's evaluator on 3 random seeds), a rejection of valid IR (its first
`error:` line), a crash (signal), or levels beyond the net's depth (a compile that costs
more levels than its multiplications need: `bound` is heirpy's depth model of the net).
"fixed?" is "no" while heir-opt still does it.
"after legalize-for-heir" runs the same heir-opt flags on heirpy's legalized module
(values checked against the reproducer): how heirpy's HEIR route avoids the bug
(levels = len(ckks.schemeParam Q) - 1 for the CKKS pipeline).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence

HERE = Path(__file__).resolve().parent
CKKS = ["--secretize=function=main", "--annotate-module=backend=openfhe scheme=ckks", "--torch-linalg-to-ckks"]
Q_MODULI = re.compile(r"ckks\.scheme_param<[^>]*\bQ = \[([^\]]*)\]")


def levels_of(output: str) -> int | None:
    """len(Q) - 1 of heir-opt's ckks.schemeParam, or None without one."""
    moduli = Q_MODULI.search(output)
    return None if moduli is None else len(moduli.group(1).split(",")) - 1


@dataclass(frozen=True)
class Repro:
    file: str
    args: tuple[str, ...]
    kind: str  # "miscompile" (output differs) | "rejects" (valid IR rejected) | "crash" | "levels"
    what: str
    bound: int | None = None  # for "levels": the net's depth; more levels than this is the bug


REPROS = [
    Repro("avg_pool_nonzero_init.mlir", ("--linalg-canonicalizations",), "miscompile",
          "an average pool whose sum starts at 2 becomes a conv with weights 1/4 and the init 2 "
          "kept as it is: 2 + sum/4 instead of (2 + sum)/4"),
    Repro("matmul_accumulator_scale.mlir", ("--linalg-fuse-linear-ops",), "miscompile",
          "(C + x·W)·2 becomes C + x·(2W): the scale reaches the weights, not the accumulator"),
    Repro("matvec_accumulator_scale.mlir", ("--linalg-fuse-linear-ops",), "miscompile",
          "the same on linalg.matvec"),
    Repro("vecmat_rank.mlir", tuple(CKKS), "rejects",
          "a secret row vector times a constant matrix (vecmat, or a 1xK matmul)"),
    Repro("matmul_rows.mlir", tuple(CKKS), "rejects", "a 2x4 secret matrix times a 4x3 constant"),
    Repro("matvec_over_slots.mlir", tuple(CKKS), "rejects",
          "a matvec longer than the slot count: a stray cast instead of a size diagnostic"),
    Repro("conv_1x1_filter.mlir", tuple(CKKS), "rejects",
          "a 1x1 conv with one input (or one output) channel: a stray unrealized conversion cast "
          "(2->2 channels or a 3x3 filter compile)"),
    Repro("conv_pad_wider_than_filter.mlir", tuple(CKKS), "crash",
          "a zero pad as wide as the conv's filter (pad 1 around a 1x1 conv; torch's (k-1)/2 compiles)"),
    Repro("gap_linear_segfault.mlir", tuple(CKKS), "crash",
          "torch's global average pool (a sum over H and W, then / H*W) + flatten + Linear, as the raw "
          "ResNet-20 export ends"),
    Repro("mobilenet_gap_segfault.mlir", tuple(CKKS), "crash",
          "a 1x1 conv, then BN and x² fused into a global average pool's sum (heirpy's "
          "MobileNet-block output before legalize-for-heir split the square out)"),
    Repro("strided_conv_then_conv.mlir", (*CKKS[:2], "--torch-linalg-to-ckks=min-slot-count=16384"), "levels",
          "a stride-2 3x3 conv, x², a 3x3 conv, x² on 1x16x32x32 (16384 slots, both convs left to HEIR's "
          "conv kernel): converting the strided conv's output layout for the next conv costs a level per "
          "bit of the slot count (ResNet-20's downsampling blocks)", bound=4),
]


def run(heir_opt: str, repro: Repro) -> tuple[str, str]:
    """(observed, fixed?) for one reproducer."""
    path = HERE / repro.file
    if not path.exists():
        return "reproducer missing", "?"
    result = subprocess.run([heir_opt, *repro.args, str(path)], capture_output=True, text=True, timeout=300)
    if result.returncode < 0 or result.returncode >= 128:
        return f"crash (exit {result.returncode})", "no" if repro.kind == "crash" else "?"
    if result.returncode != 0:
        error = next((line[line.index("error:"):] for line in result.stderr.splitlines() if "error:" in line),
                     "(no error line)")
        return error[:140], "no" if repro.kind == "rejects" else "?"
    if repro.kind == "levels":
        levels = levels_of(result.stdout)
        over = levels is not None and repro.bound is not None and levels > repro.bound
        return f"compiles, {levels} levels (depth {repro.bound})", "no" if over else "yes"
    if repro.kind != "miscompile":
        return "compiles", "yes"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mlir"
        out.write_text(result.stdout)
        report = check_equivalence(parse(path.read_text(), str(path)), parse(result.stdout, str(out)), "main")
    if report.ok:
        return "output equals input", "yes"
    worst = max(abs(r.max_abs_error) for r in report.results)
    return f"MISMATCH (max abs error {worst:.3g})", "no"


def after_heirpy(heir_opt: str, repro: Repro) -> str:
    """What heir-opt does with the reproducer after heirpy's legalize-for-heir."""
    path = HERE / repro.file
    if not path.exists():
        return "reproducer missing"
    legal = parse(path.read_text(), str(path))
    run_pipeline(legal, "legalize-for-heir")
    text = print_module(legal)
    if not check_equivalence(parse(path.read_text(), str(path)), parse(text, "legal.mlir"), "main").ok:
        return "heirpy changed the values (a heirpy bug)"
    result = subprocess.run([heir_opt, *repro.args], input=text, capture_output=True, text=True, timeout=300)
    if result.returncode < 0 or result.returncode >= 128:
        return f"crash (exit {result.returncode})"
    if result.returncode != 0:
        return next((line[line.index("error:"):] for line in result.stderr.splitlines() if "error:" in line),
                    "(no error line)")[:140]
    levels = levels_of(result.stdout)
    if levels is not None:
        return f"compiles, {levels} levels"
    report = check_equivalence(parse(text, "legal.mlir"), parse(result.stdout, "out.mlir"), "main")
    return "output equals input" if report.ok else "MISMATCH"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heir-opt", default=shutil.which("heir-opt") or "heir-opt")
    args = parser.parse_args(argv)
    print("| reproducer | heir-opt flags | bug | heir-opt does | fixed? | after legalize-for-heir |")
    print("|---|---|---|---|---|---|")
    for repro in REPROS:
        observed, fixed = run(args.heir_opt, repro)
        avoided = after_heirpy(args.heir_opt, repro)
        flags = " ".join(a for a in repro.args if not a.startswith("--annotate") and not a.startswith("--secretize"))
        print(f"| {repro.file} | {flags} | {repro.what} | {observed} | {fixed} | {avoided} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
