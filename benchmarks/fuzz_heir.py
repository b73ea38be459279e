"""Generated FHE nets through heirpy's HEIR preparation and heir-opt's CKKS pipeline.

    python benchmarks/fuzz_heir.py [--count 40] [--seed 0] [--timeout 300] [--shaped-results]
        [--plain] [--crashes benchmarks/heir_bugs] [--out benchmarks/out/fuzz_heir.md]

Draws small FHE nets (tests/fhe_nets.py: convs, sum and average pools, batch-norm, global
pools, x², flatten and Linear; batch 1 and 2; feature-map and flat results), the convs
and pools with tests/edge_strategies.py's layers: kernel, stride, dilation and each pad
drawn per axis on its own, at the guards' limits (`--plain`: fhe_nets' own square,
symmetric draws), and prints how many nets reached each limit. It runs `heir-prepare` on each (heirpy picks the slot count; a result no
conv lays out comes back flat, `--shaped-results`: `heir-prepare{flat-results=false}`
keeps every shape), checks the
values against the net under heirpy's evaluator, and runs

    heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks'
             --torch-linalg-to-ckks=min-slot-count=S

with the slot count S heirpy names. Each net is one of: compiled at its depth bound,
compiled above it (by how many levels), rejected by heir-opt (its first error), crashed
heir-opt (the module is kept under --crashes as a reproducer), timed out, or a heirpy
failure (an exception, or other values: a bug). The bound is counted from the net's
layers (tests/fhe_nets.py: one level per maximal run of linear layers and per x²);
levels = len(Q) - 1 of the `ckks.schemeParam` heir-opt writes. The target: every net
heir-opt accepts compiles at its bound. Nothing here is timed (a net that passes
--timeout counts as timed out), so it needs no benchmark lock; heir-opt stays under a
few hundred MB on these nets.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ is not a package
sys.path.insert(0, str(ROOT / "benchmarks"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from xdsl.dialects.func import FuncOp  # noqa: E402

from bench_heir_backend import heir_pipeline, run_heir  # noqa: E402
from edge_strategies import format_limit_counts, limit_counts  # noqa: E402
from fhe_nets import FheNet, fhe_nets  # noqa: E402
from harness import ACCEPTED, at_bound_share, keep_reproducer  # noqa: E402
from heirpy.analysis.depth import analyze_function  # noqa: E402
from heirpy.analysis.slots import module_slots  # noqa: E402
from heirpy.api import parse, print_module, run_pipeline  # noqa: E402
from heirpy.interp.equivalence import check_equivalence  # noqa: E402

PIPELINE = "heir-prepare"  # a result no conv lays out comes back flat, at the bound
SHAPED_PIPELINE = "heir-prepare{flat-results=false}"  # every result in its shape


@dataclass
class Outcome:
    """What became of one net."""

    net: FheNet
    status: str  # "at bound" | "above bound" | "below bound" | "rejected" | "crashed" | "timeout" | "heirpy error"
    depth: str = "-"  # heirpy's depth model on its output
    slots: int = 0
    levels: int | None = None
    seconds: float = 0.0
    detail: str = ""
    prepared: str = ""  # heirpy's output, what heir-opt got

    def row(self) -> list[str]:
        levels = "-" if self.levels is None else str(self.levels)
        n, _, h, w = self.net.arg_shape
        result = "x".join(map(str, self.net.result_shape))
        return [
            " ".join(self.net.layers), f"N={n} {h}x{w}", result, str(self.net.bound), self.depth,
            str(self.slots or "-"), levels, self.status,
        ]


def prepare(net: FheNet, pipeline: str = PIPELINE) -> tuple[str, int, str]:
    """heirpy's output for `net`, the slot count it needs, and its depth; raises when
    heirpy fails or changes the values (one seed; a result returned flat is compared in
    row-major order)."""
    module = parse(net.text, "net.mlir")
    run_pipeline(module, pipeline)
    functions = [op for op in module.walk() if isinstance(op, FuncOp)]
    slots = module_slots(functions)[0]
    text = print_module(module)
    report = check_equivalence(
        parse(net.text, "net.mlir"), parse(text, "prepared.mlir"), function="main", seeds=(0,), row_major_results=True,
        padded_args=True,
    )
    if not report.ok:
        raise RuntimeError("heirpy changed the values: " + report.summary().splitlines()[-1].strip())
    return text, slots, analyze_function(functions[0]).depth_text()


def compile_net(net: FheNet, timeout: float, pipeline: str = PIPELINE) -> Outcome:
    """`net` through heirpy (`pipeline`) and heir-opt, classified."""
    try:
        text, slots, depth = prepare(net, pipeline)
    except Exception as err:  # noqa: BLE001 - a heirpy failure is an outcome to report
        return Outcome(net, "heirpy error", detail=f"{type(err).__name__}: {str(err).splitlines()[0][:160]}")
    run = run_heir(text, "main", timeout, slots)
    outcome = Outcome(net, run.status, depth, slots, run.levels, run.seconds, run.error, text)
    if run.status == "crash":
        outcome.status = "crashed"
    elif run.status == "ok" and run.levels is not None:
        outcome.status = "at bound" if run.levels == net.bound else ("above bound" if run.levels > net.bound else "below bound")
        if run.levels != net.bound:
            outcome.detail = f"{run.levels - net.bound:+d} levels"
    return outcome


def keep_crash(outcome: Outcome, directory: Path) -> Path:
    """Write a crashing module with a header naming the net and the heir-opt command."""
    command = shlex.join(["heir-opt", *heir_pipeline("main", outcome.slots)])
    return keep_reproducer(directory, "fuzz_crash", [
        f"heir-opt crashes on this module ({outcome.detail}): heirpy's heir-prepare output for",
        f"the generated FHE net {' '.join(outcome.net.layers)} (batch {outcome.net.arg_shape[0]}).",
        command + " {path}",
    ], outcome.prepared)


def summary(outcomes: list[Outcome]) -> list[str]:
    counts = Counter(o.status for o in outcomes)
    order = [*ACCEPTED, "rejected", "crashed", "timeout", "heirpy error"]
    lines = [f"nets: {len(outcomes)}; " + ", ".join(f"{k}: {counts[k]}" for k in order if counts[k])]
    lines.append(f"compiled at the depth bound, of the nets heir-opt accepts: {at_bound_share(counts)}")
    return lines


def format_table(outcomes: list[Outcome]) -> str:
    header = ["layers", "input", "result", "bound", "heirpy depth", "slots", "levels", "outcome"]
    rows = [header] + [o.row() for o in outcomes]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    notes = [f"- {' '.join(o.net.layers)}: {o.status}: {o.detail}" for o in outcomes if o.detail]
    return "\n".join(lines + ([""] + notes if notes else []))


def draw_nets(count: int, seed_value: int, edges: bool = True) -> list[FheNet]:
    """Up to `count` distinct nets from `fhe_nets(edges=edges)`, the same ones for the same
    seed (hypothesis draws some twice; each is kept once)."""
    nets: list[FheNet] = []

    @seed(seed_value)
    @settings(max_examples=count, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(net=fhe_nets(edges=edges))
    def collect(net: FheNet) -> None:
        if all(net.text != other.text for other in nets):
            nets.append(net)

    collect()
    return nets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40, help="nets to draw (repeats are run once)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per heir-opt run")
    parser.add_argument("--crashes", type=Path, default=ROOT / "benchmarks" / "heir_bugs",
                        help="where a module that crashes heir-opt is kept")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "fuzz_heir.md")
    parser.add_argument("--shaped-results", action="store_true",
                        help="heir-prepare{flat-results=false}: every result keeps its shape (in pieces)")
    parser.add_argument("--plain", action="store_true",
                        help="fhe_nets' own draws (square, symmetric) instead of each axis on its own")
    args = parser.parse_args(argv)
    pipeline = SHAPED_PIPELINE if args.shaped_results else PIPELINE
    start = time.monotonic()
    outcomes: list[Outcome] = []
    nets = draw_nets(args.count, args.seed, edges=not args.plain)
    for index, net in enumerate(nets):
        outcome = compile_net(net, args.timeout, pipeline)
        outcomes.append(outcome)
        if outcome.status == "crashed":
            kept = keep_crash(outcome, args.crashes)
            outcome.detail += f" (kept as {kept.relative_to(ROOT) if kept.is_relative_to(ROOT) else kept})"
        print(f"{index + 1}/{len(nets)} {outcome.status} {' '.join(net.layers)}", file=sys.stderr, flush=True)
    text = "\n".join([
        f"fuzz_heir.py --count {args.count} --seed {args.seed}{' --plain' * args.plain}: heirpy {pipeline}, then "
        + shlex.join(["heir-opt", *heir_pipeline("main", 8192)]).replace("8192", "S")
        + f" ({time.monotonic() - start:.0f} s)",
        *summary(outcomes), "",
        "guard limits drawn (nets):", format_limit_counts(limit_counts(n.limits for n in nets), len(nets)), "",
        format_table(outcomes),
    ])
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
