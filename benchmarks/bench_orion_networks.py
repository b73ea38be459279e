"""Orion on whole networks: the levels and bootstraps Orion plans, raw vs heirpy-fused,
at the same bootstrappable CKKS parameters, and encrypted runs where they fit.

    python benchmarks/bench_orion_networks.py NET [NET ...] [--levels 8 12] [--log-n 14]
        [--encrypt NET ... [--skip-plans]] [--reps 1] [--max-rss-gb 14] [--timeout 3600] [--lock FILE]
        [--hold 1200] [--append [--keep-raw]] [--out benchmarks/out/orion_networks.md]

NET is an example under examples/ or the path of a .mlir (PyTorch's inputs and outputs
in the .npz beside it); NET:K is its part up to and including its K-th x^2 (a part that
fits where the whole network's encrypted run does not: heirpy's fusions never cross an
x^2, so the K-th x^2 computes the same value in both forms). A part's reference is the
raw part's cleartext output (the whole forms are checked against PyTorch first).
Both forms go through `bench_orion.prepare`: raw (torch-mlir's IR) and fused
(`heirpy.export.orion.ORION_PIPELINE`), each checked in cleartext against heirpy's
evaluator and PyTorch. Per form the report gives Orion's depth (levels without
bootstrapping), heirpy's depth, and the plaintext diagonals Orion packs at N = 2^LOG_N
(`heirpy.export.orion_layout.network_diagonals`, counted without Orion: what the
compile's memory and the inference's time follow).

Plan (every net, every L in `--levels`): a child process runs `orion.init_scheme` with
L levels and bootstrapping (Q0 = 35 bits, LogP = 4 x 61 for the bootstrapping keys, as
bench_orion.py's tight budget), `orion.fit` and `orion.compile` up to its bootstrap
placement, which Orion reports before any encrypted work; the bootstrapping keys and the
layers' Lattigo transforms are not generated (a `plan` spec of `bench_orion.run_one`). It
gives the bootstraps Orion places and the level it encrypts the input at, in 1-5 minutes
and 2-4 GB on the VGG-style net and the small ones (ResNet-20: more than 4 GB).

Encrypted (the nets in `--encrypt`, at the first L): key generation, the whole compile,
encryption, inference and decryption, `--reps` times, each in its own single-threaded
process, under `--lock` (held across runs, at most `--hold` seconds at a time), stopped
past `--max-rss-gb` resident or when the machine has
under 1 GB available (so that the out-of-memory killer never hits another process):
inference CPU seconds, the error against PyTorch (the output read back from Orion's
multiplexed layout, `OrionNetwork.clear_output`), and the peak resident memory; or
where and why the run stopped. A fused form that is the same network as the raw one is
not run twice. `--skip-plans` leaves out the plan runs of the nets run encrypted (the
encrypted run reports its bootstraps too). A plan at most a few GB needs no lock: with
`--max-rss-gb 4` and no `--lock` it never holds the machine's memory; a larger network
(ResNet-20) plans under the lock.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_orion import (  # benchmarks/
    ROOT,
    Form,
    Params,
    RunResult,
    net_name,
    prepare,
    spawn,
)
from harness import markdown_table


def split_spec(spec: str) -> tuple[str, int | None]:
    """NET or NET:K (the part up to the K-th x^2)."""
    name, _, squares = spec.rpartition(":") if ":" in spec else (spec, "", "")
    return name, (int(squares) if squares else None)


def spec_name(spec: str) -> str:
    name, squares = split_spec(spec)
    return net_name(name) + (f" up to x² #{squares}" if squares else "")


def part_forms(forms: list[Form], inputs: tuple[Path, Path], squares: int, workdir: Path,
               ) -> tuple[list[Form], tuple[Path, Path]]:
    """Both forms cut after their `squares`-th x^2, saved; the reference is the raw
    part's cleartext output, each form's `vs_torch` its distance from it."""
    import numpy as np
    import torch

    from heirpy.export.network import Network, Square
    from heirpy.export.orion import network_to_orion, orion_depth, run_cleartext

    x = np.load(inputs[0])
    parts, outputs = [], []
    for form in forms:
        network = form.network
        ends = [i for i, layer in enumerate(network.layers) if isinstance(layer, Square)]  # type: ignore[attr-defined]
        if squares > len(ends):
            raise SystemExit(f"{form.net}: {len(ends)} x^2 layers, no part up to #{squares}")
        end = ends[squares - 1] + 1  # a prefix: its layers' inputs are earlier values already
        part = Network(network.input_shape, network.layers[:end], end)  # type: ignore[attr-defined]
        net = network_to_orion(part)
        outputs.append(run_cleartext(net, x))
        path = workdir / f"{form.net.stem}_x{squares}.pt"
        torch.save(net, path)
        parts.append(Form(form.name, path, "-", orion_depth(part), 0.0, 0.0, network=part))
    reference = workdir / f"{forms[0].net.stem}_x{squares}_reference.npy"
    np.save(reference, outputs[0])
    for part, output in zip(parts, outputs):
        part.vs_torch = float(np.abs(output - outputs[0]).max())
    return parts, (inputs[0], reference)


def network_figures(form: Form, log_n: int) -> dict:
    """Depths and diagonals of one exported form (Orion's count at 2^(log_n - 1) slots)."""
    from heirpy.export.orion_layout import network_diagonals

    network = form.network
    counts = network_diagonals(network, 2 ** (log_n - 1))  # type: ignore[arg-type]
    return {"orion_depth": form.levels, "heirpy_depth": form.heirpy_depth,
            "diagonals": sum(c or 0 for c in counts),
            "layers": [_layer_text(layer) for layer in network.layers],  # type: ignore[attr-defined]
            "vs_torch": form.vs_torch}


def _layer_text(layer) -> str:  # type: ignore[no-untyped-def]
    from heirpy.export.orion_cli import describe

    return describe(layer)


class LockSession:
    """Holds `--lock` across several Orion runs, up to `--hold` seconds at a time: on a
    machine where several helpers queue for the lock, taking it once per run would wait
    out the queue before every run. Released before a run once the hold has lasted that
    long (so one hold ends at most one run later), and at exit."""

    def __init__(self, path: str | None, hold: float) -> None:
        self.path, self.hold = path, hold
        self.handle = None
        self.since = 0.0

    def before_run(self) -> None:
        if self.path is None:
            return
        if self.handle is not None and time.monotonic() - self.since >= self.hold:
            self.release()
        if self.handle is None:
            self.handle = open(self.path, "a")
            fcntl.flock(self.handle, fcntl.LOCK_EX)
            self.since = time.monotonic()

    def release(self) -> None:
        if self.handle is not None:
            fcntl.flock(self.handle, fcntl.LOCK_UN)
            self.handle.close()
            self.handle = None


SESSION = LockSession(None, 0.0)


def run_child(form: Form, params: Params, inputs: tuple[Path, Path], args, workdir: Path,  # type: ignore[no-untyped-def]
              plan: bool) -> RunResult:
    spec = {"net": str(form.net), "input": str(inputs[0]), "reference": str(inputs[1]),
            "config": params.config(), "plan": plan}
    SESSION.before_run()
    return spawn(spec, workdir, args.timeout, None, max_rss_gb=args.max_rss_gb)


PREPARED: dict[str, tuple[list[Form], tuple[Path, Path]]] = {}


def measure_net(spec: str, args, workdir: Path, previous: dict | None = None) -> dict:  # type: ignore[no-untyped-def]
    """Both forms of one net or part (with `previous`, an earlier report of it at the same
    levels, only the fused form: `--keep-raw`, for a pipeline that changed the fused form
    only)."""
    name, squares = split_spec(spec)
    print(f"{spec_name(spec)}:", file=sys.stderr, flush=True)
    started, load_before = time.strftime("%Y-%m-%d %H:%M"), os.getloadavg()[0]
    if name not in PREPARED:
        forms_, *paths = prepare(name, workdir)
        PREPARED[name] = (forms_, (paths[0], paths[1]))
    whole, inputs = PREPARED[name]
    if squares:
        whole, inputs = part_forms(whole, inputs, squares, workdir)
    raw, fused = whole
    forms: dict[str, dict] = {}
    for form in (raw, fused):
        forms[form.name] = network_figures(form, args.log_n)
    same = forms["raw"]["layers"] == forms["fused"]["layers"]
    kept = previous is not None and previous["forms"]["raw"]["layers"] == forms["raw"]["layers"]
    for form in (raw, fused):
        if form.name == "raw" and kept:
            assert previous is not None
            forms["raw"] = previous["forms"]["raw"]
            print(f"  raw   kept from {previous['measured']}", file=sys.stderr, flush=True)
            continue
        figures = forms[form.name]
        print(f"  {form.name:5} Orion depth {form.levels}, heirpy depth {form.heirpy_depth}, "
              f"{figures['diagonals']} diagonals, |net - {'raw part' if squares else 'PyTorch'}| "
              f"{form.vs_torch:.1e}", file=sys.stderr, flush=True)
        figures["plans"] = {}
        encrypted = spec_name(spec) in [spec_name(n) for n in args.encrypt]
        for levels in [] if args.skip_plans and encrypted else args.levels:
            if form.name == "fused" and same:
                figures["plans"][str(levels)] = forms["raw"]["plans"][str(levels)]
                continue
            result = run_child(form, Params(levels, args.log_n, bootstrappable=True), inputs, args, workdir, True)
            figures["plans"][str(levels)] = result.data if result.ok else {"error": result.error, **result.data}
            print(f"  {form.name:5} plan L={levels}: "
                  + (f"{result.data['bootstraps']} bootstraps, input level {result.data['input_level']}, "
                     f"{result.data['peak_rss_gb']:.1f} GB" if result.ok else result.error), file=sys.stderr, flush=True)
        figures["encrypted"] = None
        if encrypted:
            if form.name == "fused" and same:
                figures["encrypted"] = forms["raw"]["encrypted"]
            else:
                figures["encrypted"] = encrypted_runs(form, Params(args.levels[0], args.log_n, True), inputs,
                                                      args, workdir)
    measured = f"{started} - {time.strftime('%H:%M')}"
    if kept:
        assert previous is not None
        measured = f"raw {previous['measured']}, fused {measured}"
    return {"forms": forms, "same_network": same, "measured": measured,
            "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)], "levels": args.levels,
            "log_n": args.log_n}


def encrypted_runs(form: Form, params: Params, inputs: tuple[Path, Path], args, workdir: Path) -> dict:  # type: ignore[no-untyped-def]
    runs = []
    for rep in range(args.reps):
        result = run_child(form, params, inputs, args, workdir, False)
        runs.append(result.data if result.ok else {"error": result.error, **result.data})
        print(f"  {form.name:5} encrypted {params.label()} run {rep + 1}/{args.reps}: "
              + (f"inference {result.data['inference']:.2f} s CPU, error {result.data['max_error']:.1e}, "
                 f"{result.data['bootstraps']} bootstraps, {result.data['peak_rss_gb']:.1f} GB" if result.ok
                 else result.error), file=sys.stderr, flush=True)
        if not result.ok:
            break
    return {"params": params.label(), "runs": runs}


# ----------------------------------------------------------------------------- report
def _median(runs: list[dict], key: str) -> float | None:
    values = [r[key] for r in runs if key in r and "error" not in r]
    return statistics.median(values) if values else None


def _plan_cell(plan: dict) -> str:
    if plan.get("error") == "not planned":
        return "not planned"
    if "error" in plan:
        return f"failed: {plan['error']}"
    return f"{plan['bootstraps']} (input level {plan['input_level']}, {plan['peak_rss_gb']:.1f} GB)"


def _encrypted_cell(encrypted: dict | None) -> str:
    if encrypted is None:
        return "not run"
    runs = encrypted["runs"]
    failed = next((r for r in runs if "error" in r), None)
    if failed is not None and not any("error" not in r for r in runs):
        return f"{failed['error']} (peak {failed.get('peak_rss_gb', 0):.1f} GB)"
    inference, error = _median(runs, "inference"), _median(runs, "max_error")
    compile_s, peak = _median(runs, "compile"), max(r["peak_rss_gb"] for r in runs if "error" not in r)
    boots = next(r["bootstraps"] for r in runs if "error" not in r)
    return (f"{boots} boot, compile {compile_s:.0f} s, inference {inference:.1f} s, error {error:.1e}, "
            f"peak {peak:.1f} GB ({len(runs)} run{'s' if len(runs) > 1 else ''})")


def report(nets: dict[str, dict]) -> str:
    levels = next(iter(nets.values()))["levels"] if nets else []
    header = (["net", "form", "Orion depth", "heirpy depth", "diagonals"]
              + [f"bootstraps at L={level}" for level in levels] + ["encrypted"])
    rows = []
    for name, net in nets.items():
        for form in ("raw", "fused"):
            f = net["forms"][form]
            label = form + (" (same layers as raw)" if form == "fused" and net["same_network"] else "")
            rows.append([name, label, str(f["orion_depth"]), f["heirpy_depth"], str(f["diagonals"])]
                        + [_plan_cell(f["plans"].get(str(level), {"error": "not planned"})) for level in levels]
                        + [_encrypted_cell(f["encrypted"])])
    loads = [load for v in nets.values() for load in v["load_average"]]
    return (markdown_table(header, rows) + "\n\nMeasured " + "; ".join(f"{n} {v['measured']}" for n, v in nets.items())
            + f" on {os.cpu_count()} cores; 1-minute load average at the start and end of each net: "
            + f"{min(loads)}-{max(loads)}.\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nets", nargs="+")
    parser.add_argument("--levels", type=int, nargs="+", default=[12])
    parser.add_argument("--log-n", type=int, default=14)
    parser.add_argument("--encrypt", nargs="*", default=[])
    parser.add_argument("--skip-plans", action="store_true",
                        help="no plan runs for the nets in --encrypt (an encrypted run reports its bootstraps too)")
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--max-rss-gb", type=float, default=14.0)
    parser.add_argument("--timeout", type=float, default=3600.0)
    parser.add_argument("--lock", help="flock this file around the Orion runs (see --hold)")
    parser.add_argument("--hold", type=float, default=1200.0,
                        help="start no run once the lock has been held this many seconds: release it first")
    parser.add_argument("--append", action="store_true", help="keep the nets of the existing report")
    parser.add_argument("--keep-raw", action="store_true",
                        help="with --append: keep a net's raw figures when its raw network is unchanged")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "orion_networks.md")
    args = parser.parse_args()
    json_path = args.out.with_suffix(".json")
    nets: dict[str, dict] = {}
    if args.append and json_path.exists():
        nets = json.loads(json_path.read_text())["nets"]
    global SESSION
    SESSION = LockSession(args.lock, args.hold)
    with tempfile.TemporaryDirectory(prefix="bench_orion_networks_") as tmp:
        for name in args.nets:
            previous = nets.get(spec_name(name)) if args.keep_raw else None
            if previous is not None and previous["levels"] != args.levels:
                previous = None
            nets[spec_name(name)] = measure_net(name, args, Path(tmp), previous)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(report(nets))
            json_path.write_text(json.dumps({"nets": nets}, indent=1) + "\n")
    SESSION.release()
    print(args.out.read_text(), end="")


if __name__ == "__main__":
    main()
