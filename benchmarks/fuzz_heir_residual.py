"""Generated residual nets, exported with torch-mlir, through heirpy's heir-prepare and heir-opt.

    python benchmarks/fuzz_heir_residual.py [--count 20] [--seed 0] [--size 8] [--timeout 600]
        [--save DIR] [--crashes benchmarks/heir_bugs] [--out benchmarks/out/fuzz_heir_residual.md]

Draws residual nets (benchmarks/residual_nets.py: 1-3 basic blocks with identity,
option-A (strided slice + channel pad) and option-B (1x1 strided conv) shortcuts,
strides 1 and 2 anywhere, polynomial activations of degree 2-3 written as users write
them, BN after convs, after activations or none, BN exported as four constants or
folded into its conv; f32; 8x8 or 16x16 inputs of 1-4 channels), exports each with
torch-mlir's defaults, runs `heir-prepare` (heirpy picks the slots; the prepared IR's
values are checked against PyTorch's outputs with heirpy's evaluator), then

    heir-opt --secretize=function=main '--annotate-module=backend=openfhe scheme=ckks'
             '--torch-linalg-to-ckks=min-slot-count=S greedy-level-budget=B'

with every flag heirpy names (`heirpy.analysis.heir_command`: S its slots, B its depth
+ 1, as `heirpy-heir` runs it). Each net is: at its bound (HEIR's levels = the bound
counted from the layers, no bootstrap), above it (more levels, or a bootstrap), below
it, rejected by heir-opt, crashed (the module is kept under --crashes), timed out, or a
heirpy failure (an exception, or other values). `--save DIR` writes each export (its
.mlir and an .npz of its input and PyTorch's output) for a CI sample. Run it niced:
heir-opt on a 16x16 net with HEIR's conv kernels takes up to minutes.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import random
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from harness import at_bound_share, keep_reproducer, markdown_table  # noqa: E402
from heirpy.analysis.heir_command import heir_opt_args  # noqa: E402
from heirpy.api import parse, print_module, run_pipeline  # noqa: E402
from heirpy.interp.equivalence import padded_inputs  # noqa: E402
from heirpy.interp.evaluator import run_function  # noqa: E402
from heirpy.tools.heirpy_heir import find_heir_opt, first_error, read_result  # noqa: E402
from heirpy.transforms.heir.heir_prepare import prepared_module_flags  # noqa: E402
from residual_nets import CI_SPECS, ResidualSpec, depth_bound, draw_spec, export_mlir  # noqa: E402

STATUSES = ("at bound", "above bound", "below bound", "rejected", "crashed", "timeout", "heirpy error")


@dataclass
class Outcome:
    """What became of one net."""

    label: str
    bound: int
    status: str
    depth: int | None = None  # heirpy's depth model on its output
    slots: int = 0
    levels: int | None = None
    bootstraps: int = 0
    seconds: float = 0.0
    strided_kept: bool = False  # heir-prepare's remark: strided convs stay off the grid
    detail: str = ""
    prepared: str = field(default="", repr=False)
    command: list[str] = field(default_factory=list, repr=False)

    def row(self) -> list[str]:
        return [
            self.label, str(self.bound), "-" if self.depth is None else str(self.depth), str(self.slots or "-"),
            "-" if self.levels is None else str(self.levels), str(self.bootstraps), "yes" if self.strided_kept else "",
            self.status, f"{self.seconds:.0f}",
        ]


def prepare(
    text: str, inputs: list[np.ndarray], outputs: list[np.ndarray]
) -> tuple[str, tuple[str, int, int, bool], bool]:
    """heirpy's output, (entry, slots, depth), and whether strided convs were kept off the
    grid; raises when heirpy fails or its output's values differ from PyTorch's."""
    module = parse(text, "net.mlir")
    remarks = io.StringIO()
    with contextlib.redirect_stderr(remarks):
        run_pipeline(module, "heir-prepare")
    flags = prepared_module_flags(module)
    if flags is None:
        raise RuntimeError("no function after heir-prepare")
    prepared = print_module(module)
    reparsed = parse(prepared, "prepared.mlir")
    entry = next(op for op in reparsed.walk() if op.name == "func.func")
    results = run_function(reparsed, flags[0], padded_inputs(inputs, entry))  # type: ignore[arg-type]
    for got, want in zip(results, outputs):
        got = np.asarray(got).reshape(want.shape)
        scale = float(np.max(np.abs(want))) or 1.0
        if not np.all(np.isfinite(got)) or np.max(np.abs(got - want)) > 1e-3 * scale:
            raise RuntimeError(f"heirpy changed the values: max error {np.max(np.abs(got - want)):.3g} "
                               f"on outputs up to {scale:.3g}")
    return prepared, flags, "keeps its strided convs" in remarks.getvalue()


def run_heir(heir_opt: str, outcome: Outcome, timeout: float) -> None:
    """heir-opt on `outcome.prepared` with heirpy's flags; fills in the outcome."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as handle:
        handle.write(outcome.prepared)
    start = time.perf_counter()
    try:
        result = subprocess.run([heir_opt, *outcome.command, handle.name], capture_output=True, text=True,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        outcome.status, outcome.detail = "timeout", f"no result after {timeout:.0f} s"
        return
    finally:
        outcome.seconds = time.perf_counter() - start
        Path(handle.name).unlink(missing_ok=True)
    if result.returncode < 0 or result.returncode >= 128:
        outcome.status, outcome.detail = "crashed", f"heir-opt died (exit {result.returncode})"
        return
    if result.returncode != 0:
        error = first_error(result.stderr)
        outcome.status, outcome.detail = "rejected", error[error.find("error:"):][:200]
        return
    heir = read_result(result.stdout)
    if heir is None:
        outcome.status, outcome.detail = "rejected", "compiled, but no ckks.schemeParam"
        return
    outcome.levels, outcome.bootstraps = heir.levels, heir.bootstraps
    if heir.levels == outcome.bound and not heir.bootstraps:
        outcome.status = "at bound"
    elif heir.levels > outcome.bound or heir.bootstraps:
        outcome.status = "above bound"
        outcome.detail = f"{heir.levels - outcome.bound:+d} levels, {heir.bootstraps} bootstraps"
    else:
        outcome.status, outcome.detail = "below bound", f"{heir.levels - outcome.bound:+d} levels"


def compile_spec(spec: ResidualSpec, heir_opt: str | None, timeout: float, save: Path | None = None) -> Outcome:
    """`spec` exported, through heirpy and (unless `heir_opt` is None) heir-opt, classified."""
    bound = depth_bound(spec)
    text, inputs, outputs = export_mlir(spec)
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        stem = f"residual_{hashlib.sha1(spec.label().encode()).hexdigest()[:8]}_seed{spec.seed}"
        (save / f"{stem}.mlir").write_text(f"// {spec.label()}; bound {bound}\n{text}")
        np.savez(save / f"{stem}.npz", arg0=inputs[0], result0=outputs[0])
        (save / f"{stem}.json").write_text(json.dumps({"label": spec.label(), "bound": bound}) + "\n")
    return compile_text(spec.label(), bound, text, inputs, outputs, heir_opt, timeout)


def compile_text(label: str, bound: int, text: str, inputs: list[np.ndarray], outputs: list[np.ndarray],
                 heir_opt: str | None, timeout: float) -> Outcome:
    """An exported net (its MLIR, one input, PyTorch's outputs) through heirpy and heir-opt."""
    try:
        prepared, (function, slots, depth, exact), strided_kept = prepare(text, inputs, outputs)
    except Exception as err:  # noqa: BLE001 - a heirpy failure is an outcome to report
        return Outcome(label, bound, "heirpy error", detail=f"{type(err).__name__}: {str(err).splitlines()[0][:160]}")
    outcome = Outcome(label, bound, "prepared", depth, slots, strided_kept=strided_kept, prepared=prepared,
                      command=heir_opt_args(function, slots, depth, exact))
    if heir_opt is not None:
        run_heir(heir_opt, outcome, timeout)
    return outcome


def keep_crash(outcome: Outcome, directory: Path) -> Path:
    """Write a crashing module with a header naming the net and the heir-opt command."""
    return keep_reproducer(directory, "fuzz_residual_crash", [
        f"heir-opt crashes on this module ({outcome.detail}): heirpy's heir-prepare output for",
        f"the generated residual net {outcome.label}.",
        shlex.join(["heir-opt", *outcome.command]) + " {path}",
    ], outcome.prepared)


def summary(outcomes: list[Outcome]) -> list[str]:
    counts = Counter(o.status for o in outcomes)
    share = at_bound_share(counts)
    depth_ok = sum(o.depth == o.bound for o in outcomes)
    return [f"nets: {len(outcomes)}; " + ", ".join(f"{k}: {counts[k]}" for k in STATUSES if counts[k]),
            f"compiled at the bound with no bootstrap, of the nets heir-opt accepts: {share}",
            f"heirpy's depth model at the bound: {depth_ok}/{len(outcomes)}"]


def format_table(outcomes: list[Outcome]) -> str:
    header = ["net", "bound", "heirpy depth", "slots", "levels", "bootstraps", "strided kept", "outcome",
              "heir-opt s"]
    notes = [f"- {o.label}: {o.status}: {o.detail}" for o in outcomes if o.detail]
    return "\n".join([markdown_table(header, [o.row() for o in outcomes]), *([""] + notes if notes else [])])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per heir-opt run")
    parser.add_argument("--size", type=int, choices=(8, 16), help="every input HxW (default: 8x8 or 16x16)")
    parser.add_argument("--save", type=Path, help="write each export (.mlir, .npz, .json) here")
    parser.add_argument("--ci-sample", action="store_true",
                        help="the CI sample's nets (residual_nets.CI_SPECS) instead of drawn ones")
    parser.add_argument("--crashes", type=Path, default=ROOT / "benchmarks" / "heir_bugs")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "fuzz_heir_residual.md")
    args = parser.parse_args(argv)
    heir_opt = find_heir_opt()
    rng = random.Random(args.seed)
    specs: list[ResidualSpec] = list(CI_SPECS) if args.ci_sample else []
    while len(specs) < args.count and not args.ci_sample:
        spec = draw_spec(rng, size=args.size)
        if spec not in specs:
            specs.append(spec)
    start = time.monotonic()
    outcomes = []
    for index, spec in enumerate(specs):
        outcome = compile_spec(spec, heir_opt, args.timeout, args.save)
        if outcome.status == "crashed":
            outcome.detail += f" (kept as {keep_crash(outcome, args.crashes)})"
        outcomes.append(outcome)
        print(f"{index + 1}/{len(specs)} {outcome.status} {spec.label()} ({outcome.detail})", file=sys.stderr,
              flush=True)
    text = "\n".join([
        f"fuzz_heir_residual.py --count {args.count} --seed {args.seed}"
        f"{f' --size {args.size}' if args.size else ''}: heirpy heir-prepare, then heir-opt with "
        f"heirpy's flags ({time.monotonic() - start:.0f} s)", *summary(outcomes), "", format_table(outcomes)])
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
