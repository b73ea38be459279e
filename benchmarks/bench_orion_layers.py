"""Where an encrypted Orion inference spends its time, layer by layer, raw vs heirpy-fused.

    python benchmarks/bench_orion_layers.py NET [--reps 3] [--timeout 1800] [--lock FILE]

`bench_orion.py` gives one net's totals; this script explains them. Both forms of NET are
exported and checked exactly as `bench_orion.py` does (`prepare`), each runs encrypted with
its sized parameters (`sized_params`: the fewest levels, the smallest secure ring), and a
forward hook on every Orion leaf layer records the CPU seconds it took, the level it ran at
and, for linear layers, how many plaintext diagonals Orion packed (each diagonal is one
plaintext-ciphertext product; most also cost a rotation). Medians over `--reps` runs, each
its own single-threaded process under `--lock`, like the main benchmark.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench_orion import Params, prepare, probe, sized_params, spawn  # benchmarks/
from harness import markdown_table


def run_layers(spec_path: str) -> None:
    """The child process: one encrypted inference with a timing hook on every layer."""
    import torch

    torch.set_num_threads(1)
    import orion  # after torch's thread setting; Lattigo reads GOMAXPROCS at load

    spec = json.loads(Path(spec_path).read_text())
    net = torch.load(spec["net"], weights_only=False)
    x = torch.from_numpy(np.load(spec["input"]))
    with contextlib.redirect_stdout(io.StringIO()):  # Orion narrates every step on stdout
        orion.init_scheme(spec["config"])
        orion.fit(net, x)
        level = orion.compile(net)
    layers: list[dict] = []
    started: dict[int, float] = {}

    def before(module, _inputs) -> None:
        started[id(module)] = time.process_time()

    def after(module, _inputs, _output) -> None:
        diagonals = getattr(module, "diagonals", None)
        layers.append({
            "layer": getattr(module, "name", type(module).__name__),
            "kind": type(module).__name__,
            "level": module.level,
            "diagonals": sum(len(d) for d in diagonals.values()) if isinstance(diagonals, dict) and diagonals else None,
            "cpu": time.process_time() - started[id(module)],
        })

    for module in net.modules():
        if module is not net and not any(True for _ in module.children()):
            module.register_forward_pre_hook(before)
            module.register_forward_hook(after)
    ciphertext = orion.encrypt(orion.encode(x, level))
    net.he()
    start = time.process_time()
    net(ciphertext)
    total = time.process_time() - start
    print("RESULT " + json.dumps({"total": total, "layers": layers}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("net", nargs="?", help="an example under examples/ (tiny_cnn, lenet5, ...)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--lock", help="flock this file around each encrypted run")
    parser.add_argument("--run", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run_layers(args.run)
        return
    if args.net is None:
        parser.error("the following argument is required: net")
    with tempfile.TemporaryDirectory(prefix="bench_orion_layers_") as tmp:
        workdir = Path(tmp)
        forms, input_path, reference_path = prepare(args.net, workdir)
        for form in forms:
            form.max_elements = probe(form, (input_path, reference_path), args, workdir)
            params = sized_params(form.levels, form.max_elements)
            print(f"## {args.net}, {form.name} ({params.label()})\n")
            print(_table(_measure(form.net, params, input_path, reference_path, args, workdir)) + "\n")


def _measure(net: Path, params: Params, input_path: Path, reference_path: Path, args, workdir: Path) -> list[dict]:
    spec = {"net": str(net), "input": str(input_path), "reference": str(reference_path), "config": params.config()}
    runs = []
    for rep in range(args.reps):
        result = spawn(spec, workdir, args.timeout, args.lock, script=Path(__file__))
        if not result.ok:
            raise SystemExit(f"error: {net.name} run {rep + 1} failed: {result.error}")
        runs.append(result.data)
        print(f"  {net.name} run {rep + 1}/{args.reps}: {result.data['total']:.2f} s CPU", file=sys.stderr, flush=True)
    return runs


def _table(runs: list[dict]) -> str:
    """One row per layer (the first run's order), CPU seconds as medians over the runs."""
    rows = []
    for i, layer in enumerate(runs[0]["layers"]):
        cpu = statistics.median(run["layers"][i]["cpu"] for run in runs)
        rows.append([layer["layer"], layer["kind"], str(layer["level"]),
                     "-" if layer["diagonals"] is None else str(layer["diagonals"]), f"{cpu:.2f}"])
    total = statistics.median(run["total"] for run in runs)
    rows.append(["total", "", "", "", f"{total:.2f}"])
    return markdown_table(["layer", "Orion op", "level", "diagonals", "CPU s (median)"], rows)


if __name__ == "__main__":
    main()
