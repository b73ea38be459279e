"""Encrypted inference under Orion (CKKS, Lattigo): raw IR vs heirpy-fused IR, measured.

    python benchmarks/bench_orion.py [--nets NAME ...] [--reps 3] [--timeout 1800]
        [--lock FILE] [--append] [--out benchmarks/out/orion.md] [--plot benchmarks/out/orion.png]

Needs the benchmark requirements (benchmarks/requirements.txt: torch 2.13.0 CPU, then
torchvision 0.28.0, then orion-fhe 1.0.2, in that order, so pip never pulls another torch).

For every FHE example net, both forms go through `heirpy.export.orion.to_orion`:
  raw    the IR as exported by torch-mlir;
  fused  after `heirpy.export.orion.ORION_PIPELINE`: heirpy's main pipeline
         `linalg-canonicalizations,linalg-fuse-ops` without the linear chains' slot
         budget (Orion packs a matrix of any size in slot-sized blocks) and with the
         cost rule counting what Orion packs (`policy=diagonals`: a fusion may grow the
         plaintext diagonals at most 2x per level saved).
A model may also be given as the path of its .mlir (its .npz beside it).
Each exported network is first checked in cleartext against heirpy's evaluator and against
PyTorch's outputs (the `.npz` next to the model). Then Orion runs it encrypted:
`init_scheme` (key generation: secret, public, relinearisation keys), `fit` on the one
input (Orion's fit batch becomes the FHE batch, so always a batch of one), `compile`
(packing, bootstrap placement, rotation keys), encrypt, inference, decrypt.

CKKS parameters (standard ring, scale 2^26, LogQ = [30] + [26] * L, LogP = [31, 31]):
  sized  L = the levels the form needs (Orion's depth of the exported network: 1 per
         conv / linear / average pool, 1 per x^2, 2 per unfused batch norm), and the
         smallest ring degree that both holds the largest packed tensor Orion builds in
         one ciphertext and keeps log(QP) within the 128-bit bound of the
         HomomorphicEncryption.org standard (ternary secret), at most 2^15 (`MAX_LOG_N`:
         a larger tensor is split over several ciphertexts, as Orion does past 2^16);
  same   the raw form's sized parameters, for both forms.
Tight budget (`--tight`, default tiny_cnn and alexnet_tiny): L = the fused form's levels,
for both forms; the raw form then needs bootstrapping. Q0 = 35 bits there: Lattigo's
bootstrap rejects a ciphertext whose Q0 / scale is below 2^8 (a Go panic), and q0 * q1
must stay below P or key switching drowns the result in noise; the bootstrapping keys
get LogP = 4 x 61 (with the 31-bit P of the other runs they decrypt to inf). LogN >= 14;
the bootstrapping moduli put that ring below the 128-bit bound: a measurement of what
a bootstrap costs, not a deployable parameter set.

Every encrypted run is its own process (`--run`): a Lattigo error is a Go panic that
aborts the process, so a run that dies, exceeds `--timeout` or grows past `MAX_RSS_GB`
resident (or leaves the machine under 1 GB available) is stopped and reported, not fatal;
its peak resident memory is kept. A network whose last layer is a conv is read back from
Orion's multiplexed layout (`OrionNetwork.clear_output`). A `plan` run (used by
bench_orion_networks.py) stops `orion.compile` after its bootstrap placement.
Runs are single-threaded (GOMAXPROCS=1 for Lattigo's Go runtime, one torch thread) and
each holds `--lock` (an flock) while it runs, so timings on a shared machine do not
overlap; `--append` keeps the nets of an earlier report that this run does not
measure (a long benchmark can go net by net). Times are CPU seconds of the run's process (`time.process_time`, all its
threads), medians over `--reps` runs, each with fresh keys: on a shared machine the
wall time of a single-threaded run varies with the load, its CPU time much less (wall
times are kept in the JSON next to the table). "levels" = input level - output level of
the ciphertext; "error" = max |decrypted - PyTorch|.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from harness import held, markdown_table  # benchmarks/, the directory of this script

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NETS = ("tiny_cnn", "alexnet_tiny", "cryptonets", "lenet5", "lola_mnist", "resnet_block", "mobilenet_block")
LOG_SCALE, Q0_BITS, LEVEL_BITS, P_BITS = 26, 30, 26, [31, 31]
BOOT_Q0_BITS, BOOT_P_BITS = 35, [61] * 4
# Largest log2(QP) for 128-bit security per log2(N) (HomomorphicEncryption.org standard,
# ternary secret, classical attacks).
SECURE_LOG_QP = {10: 27, 11: 54, 12: 109, 13: 218, 14: 438, 15: 881, 16: 1761}
# Orion's compile densifies each slots x slots block of a layer's matrix and indexes it
# with a slots x slots int64 array: ~16 GB at 2^16 (32768 slots), ~5 GB at 2^15. The
# MobileNet block's 65536-value tensors therefore run at 2^15, in 4 ciphertexts.
MAX_LOG_N = 15


# ----------------------------------------------------------------------------- parameters
@dataclass(frozen=True)
class Params:
    levels: int
    log_n: int
    bootstrappable: bool = False

    def config(self) -> dict:
        q0 = BOOT_Q0_BITS if self.bootstrappable else Q0_BITS
        config = {
            "ckks_params": {
                "LogN": self.log_n,
                "LogQ": [q0] + [LEVEL_BITS] * self.levels,
                "LogP": P_BITS,
                "LogScale": LOG_SCALE,
                "H": 192,
                "RingType": "standard",
            },
            "orion": {"margin": 2, "embedding_method": "hybrid", "backend": "lattigo",
                      "fuse_modules": True, "debug": False, "io_mode": "none"},
        }
        if self.bootstrappable:
            config["boot_params"] = {"LogP": BOOT_P_BITS}
        return config

    def label(self) -> str:
        return f"L={self.levels}, N=2^{self.log_n}" + (", boot" if self.bootstrappable else "")


def log_qp(levels: int) -> int:
    return Q0_BITS + LEVEL_BITS * levels + sum(P_BITS)


def sized_params(levels: int, max_elements: int) -> Params:
    """The fewest levels, and the smallest ring that packs `max_elements` in one
    ciphertext (slots = N / 2) and is 128-bit secure for that modulus."""
    slots_log_n = max(1, math.ceil(math.log2(max_elements))) + 1
    secure_log_n = min(n for n, bound in SECURE_LOG_QP.items() if log_qp(levels) <= bound)
    return Params(levels, min(max(slots_log_n, secure_log_n, 12), MAX_LOG_N))


# ----------------------------------------------------------------------------- one encrypted run
def run_one(spec_path: str) -> None:
    """The child process: one encrypted inference; prints `RESULT {json}`."""
    import torch

    torch.set_num_threads(1)
    import orion  # after torch's thread setting; Lattigo reads GOMAXPROCS at load

    spec = json.loads(Path(spec_path).read_text())
    net = torch.load(spec["net"], weights_only=False)
    x = torch.from_numpy(np.load(spec["input"]))
    reference = np.load(spec["reference"])
    log = io.StringIO()
    times: dict[str, float] = {}

    def timed(name: str, fn):  # type: ignore[no-untyped-def]
        start, start_cpu = time.perf_counter(), time.process_time()
        value = fn()
        times[f"{name}_wall"] = time.perf_counter() - start
        times[name] = time.process_time() - start_cpu
        return value

    with contextlib.redirect_stdout(log):  # Orion narrates every step on stdout
        timed("keygen", lambda: orion.init_scheme(spec["config"]))
        timed("fit", lambda: orion.fit(net, x))
        if spec.get("probe"):
            elements = max(
                int(getattr(m, attr).numel())
                for m in net.modules()
                for attr in ("fhe_input_shape", "fhe_output_shape")
                if getattr(m, attr, None) is not None
            )
            result = {"max_fhe_elements": elements}
        elif spec.get("plan"):
            _skip_key_and_layer_compilation()
            level = timed("plan", lambda: orion.compile(net))
            found = re.search(r"requires (\d+) bootstrap", log.getvalue())
            result = dict(times, input_level=int(level), bootstraps=int(found.group(1)) if found else -1)
        else:
            level = timed("compile", lambda: orion.compile(net))
            ciphertext = orion.encrypt(orion.encode(x, level))
            net.he()
            out = timed("inference", lambda: net(ciphertext))
            out_level = out.level()
            decoded = out.decrypt().decode()
            if getattr(net, "output_layout", None) is not None:
                decrypted = net.clear_output(decoded)  # Orion's multiplexed layout, read back
            else:
                decrypted = decoded.numpy().reshape(reference.shape)
            found = re.search(r"requires (\d+) bootstrap", log.getvalue())
            result = dict(
                times,
                input_level=int(level),
                output_level=int(out_level),
                bootstraps=int(found.group(1)) if found else -1,
                max_error=float(np.abs(decrypted - reference).max()),
            )
    print("RESULT " + json.dumps(result), flush=True)


def _skip_key_and_layer_compilation() -> None:
    """For a plan (`--plan`): let `orion.compile` pack the layers' diagonals and place the
    bootstraps (what it reports first), but neither generate the bootstrapping keys nor
    compile each layer into Lattigo transforms and rotation keys, the steps that take
    the time and most of the memory. Orion's own classes, patched in this child only."""
    import orion.nn.module
    from orion.core.orion import scheme

    def noop(*_args: object, **_kwargs: object) -> None:
        return None

    pending = [orion.nn.module.Module]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if "compile" in vars(cls):
            cls.compile = noop  # type: ignore[method-assign]
    scheme.bootstrapper.generate_bootstrapper = noop


@dataclass
class RunResult:
    ok: bool
    data: dict = field(default_factory=dict)
    error: str = ""


MAX_RSS_GB = 20.0  # a run resident above this is stopped (the machine has 24 GiB, shared)
MIN_AVAILABLE_GB = 1.0  # ... and so is one that leaves less than this available to others


def spawn(spec: dict, workdir: Path, timeout: float, lock: str | None, script: Path | None = None,
          max_rss_gb: float = MAX_RSS_GB) -> RunResult:
    """Run one child (`script --run SPEC`, this script by default) under the lock; a crash
    (Go panic), a timeout or a run past `max_rss_gb` resident (or one that leaves the
    machine under `MIN_AVAILABLE_GB`: the out-of-memory killer must never hit another
    process) is a failed result. The child's peak resident memory is kept (`peak_rss_gb`)."""
    spec_path = workdir / f"spec_{time.monotonic_ns()}.json"
    spec_path.write_text(json.dumps(spec))
    env = dict(os.environ, GOMAXPROCS="1", OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1")
    command = [sys.executable, str((script or Path(__file__)).resolve()), "--run", str(spec_path)]
    with held(lock), tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(command, stdout=out, stderr=err, text=True, env=env)
        peak, stopped = _watch(child, timeout, max_rss_gb)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if stopped:
        return RunResult(False, {"peak_rss_gb": peak}, error=stopped)
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            return RunResult(True, dict(json.loads(line[len("RESULT "):]), peak_rss_gb=peak))
    tail = (stderr.strip().splitlines() or ["no output"])
    panic = next((line for line in tail if line.startswith("panic:")), tail[-1])
    return RunResult(False, {"peak_rss_gb": peak}, error=f"exit {child.returncode}: {panic[:160]}")


def _watch(child: subprocess.Popen, timeout: float, max_rss_gb: float) -> tuple[float, str]:
    """Wait for `child`, sampling its resident memory; stop it on a limit. Returns the
    peak resident GB and why it was stopped ("" if it ended by itself)."""
    start, peak = time.monotonic(), 0.0
    while child.poll() is None:
        rss = _proc_gb(f"/proc/{child.pid}/status", "VmRSS:")
        peak = max(peak, rss)
        why = ""
        if time.monotonic() - start > timeout:
            why = f"timeout after {timeout:.0f} s"
        elif rss > max_rss_gb:
            why = f"stopped at {rss:.1f} GB resident (limit {max_rss_gb:g} GB)"
        elif _proc_gb("/proc/meminfo", "MemAvailable:") < MIN_AVAILABLE_GB:
            why = f"stopped at {rss:.1f} GB resident: the machine had under {MIN_AVAILABLE_GB:g} GB available"
        if why:
            child.kill()
            child.wait()
            return peak, why
        time.sleep(0.25)
    return peak, ""


def _proc_gb(path: str, key: str) -> float:
    """A `kB` figure of a /proc file in GB (0 if the process is gone)."""
    try:
        with open(path) as handle:
            for line in handle:
                if line.startswith(key):
                    return int(line.split()[1]) / 1e6
    except OSError:
        pass
    return 0.0


# ----------------------------------------------------------------------------- preparing a net
@dataclass
class Form:
    name: str
    net: Path
    heirpy_depth: str
    levels: int
    vs_evaluator: float
    vs_torch: float
    max_elements: int = 0
    network: object = None  # heirpy's `Network` of the form (its layers, for reports)


def model_files(name: str) -> tuple[Path, Path]:
    """The .mlir and .npz of an example (`name` under examples/) or of a model given by
    the path of its .mlir (the .npz, PyTorch's inputs and outputs, beside it)."""
    if name.endswith(".mlir"):
        path = Path(name)
        return path, path.with_suffix(".npz")
    return EXAMPLES / f"{name}.mlir", EXAMPLES / f"{name}.npz"


def net_name(name: str) -> str:
    return Path(name).stem


def prepare(name: str, workdir: Path, pipeline: str | None = None) -> tuple[list[Form], Path, Path]:
    """Export the raw and fused forms of `name` (after `pipeline`, default
    `ORION_PIPELINE`); check them in cleartext."""
    import torch

    import heirpy
    from heirpy.analysis.depth import analyze_module
    from heirpy.export.network import extract_network
    from heirpy.export.orion import ORION_PIPELINE, network_to_orion, orion_depth
    from heirpy.interp import load_file, run_function
    from heirpy.interp.npz_recipes import load_arrays  # the examples' inputs are drawn from seeds

    mlir_path, npz_path = model_files(name)
    name = net_name(name)
    data = load_arrays(npz_path)
    x, reference = data["arg0"], data["result0"]
    np.save(workdir / f"{name}_input.npy", x)
    np.save(workdir / f"{name}_reference.npy", reference)
    forms = []
    for form in ("raw", "fused"):
        loaded = load_file(mlir_path)
        module = loaded.module
        function = _entry(module)
        if form == "fused":
            heirpy.run_pipeline(module, pipeline or ORION_PIPELINE)
        depth = next(d for d in analyze_module(module) if d.name == function)
        network = extract_network(module, function)
        net = network_to_orion(network)
        (expected,) = run_function(module, function, [x], resources=loaded.resources)
        with torch.no_grad():
            got = net(torch.from_numpy(x)).numpy()
        path = workdir / f"{name}_{form}.pt"
        torch.save(net, path)
        forms.append(Form(form, path, depth.depth_text(), orion_depth(network),
                          float(np.abs(got - expected).max()), float(np.abs(got - reference).max()),
                          network=network))
    return forms, workdir / f"{name}_input.npy", workdir / f"{name}_reference.npy"


def _entry(module) -> str:  # type: ignore[no-untyped-def]
    from xdsl.dialects.func import FuncOp

    return next(op.sym_name.data for op in module.ops if isinstance(op, FuncOp))


# ----------------------------------------------------------------------------- measuring
@dataclass
class Measured:
    params: Params
    runs: list[RunResult]

    def ok(self) -> list[dict]:
        return [r.data for r in self.runs if r.ok]

    def median(self, key: str) -> float | None:
        values = [d[key] for d in self.ok()]
        return statistics.median(values) if values else None

    def first(self, key: str):  # type: ignore[no-untyped-def]
        good = self.ok()
        return good[0][key] if good else None

    def failure(self) -> str:
        return next((r.error for r in self.runs if not r.ok), "")

    def log(self, form: str) -> dict:
        """Every run, as written to the JSON next to the table."""
        return {"form": form, "params": self.params.label(),
                "runs": [r.data if r.ok else {"error": r.error} for r in self.runs]}


def measure(form: Form, params: Params, inputs: tuple[Path, Path], args, workdir: Path) -> Measured:  # type: ignore[no-untyped-def]
    spec = {"net": str(form.net), "input": str(inputs[0]), "reference": str(inputs[1]), "config": params.config()}
    runs = []
    for rep in range(args.reps):
        result = spawn(spec, workdir, args.timeout, args.lock)
        runs.append(result)
        status = "ok" if result.ok else result.error
        print(f"  {form.name:5} {params.label():24} run {rep + 1}/{args.reps}: {status}"
              + (f" inference {result.data['inference']:.2f} s CPU ({result.data['inference_wall']:.2f} s wall)" if result.ok else ""), file=sys.stderr, flush=True)
        if not result.ok:
            break  # a crash repeats; do not spend the timeout again
    return Measured(params, runs)


def probe(form: Form, inputs: tuple[Path, Path], args, workdir: Path) -> int:  # type: ignore[no-untyped-def]
    """The most elements Orion packs into one tensor of this network (a fit-only run)."""
    spec = {"net": str(form.net), "input": str(inputs[0]), "reference": str(inputs[1]),
            "config": Params(1, 16).config(), "probe": True}
    result = spawn(spec, workdir, args.timeout, None)
    if not result.ok:
        raise SystemExit(f"error: fitting {form.net.name} failed: {result.error}")
    return int(result.data["max_fhe_elements"])


# ----------------------------------------------------------------------------- report
def _s(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _e(value: float | None) -> str:
    return "-" if value is None else f"{value:.1e}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def _levels(m: Measured) -> str:
    if not m.ok():
        return f"failed ({m.failure()})"
    boots = m.first("bootstraps")
    if boots:
        return f"{boots} boot"
    return str(m.first("input_level") - m.first("output_level"))


@dataclass
class NetReport:
    name: str
    raw: Form
    fused: Form
    raw_sized: Measured
    fused_same: Measured
    fused_sized: Measured

    def row(self) -> list[str]:
        r, fs, fz = self.raw_sized, self.fused_same, self.fused_sized
        return [
            self.name,
            f"{self.raw.heirpy_depth} → {self.fused.heirpy_depth}",
            f"{_levels(r)} / {_levels(fz)}",
            f"{r.params.label()} / {fz.params.label()}",
            f"{_s(r.median('keygen'))} / {_s(fz.median('keygen'))}",
            f"{_s(r.median('compile'), 1)} / {_s(fz.median('compile'), 1)}",
            _s(r.median("inference")),
            f"{_s(fs.median('inference'))} ({_ratio(fs.median('inference'), r.median('inference'))})",
            f"{_s(fz.median('inference'))} ({_ratio(fz.median('inference'), r.median('inference'))})",
            f"{_e(r.median('max_error'))} / {_e(fs.median('max_error'))} / {_e(fz.median('max_error'))}",
        ]


HEADER = ["net", "heirpy depth raw → fused", "Orion levels used raw / fused", "params (sized) raw / fused",
          "keygen s raw / fused", "compile s raw / fused", "inference s raw (CPU)",
          "fused, same params (ratio)", "fused, sized params (ratio)",
          "max error vs PyTorch raw / fused same / fused sized"]
TIGHT_HEADER = ["net", "budget", "raw: bootstraps, inference s, max error", "fused: bootstraps, inference s, max error",
                "fused / raw"]


def _tight_cell(m: Measured) -> str:
    if not m.ok():
        return f"failed ({m.failure()})"
    return f"{m.first('bootstraps')}, {_s(m.median('inference'))}, {_e(m.median('max_error'))}"


def plot(nets: dict[str, dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(nets)
    series = [
        ("raw", "raw"), ("fused, same params", "fused_same"), ("fused, sized params", "fused_sized"),
    ]
    fig, ax = plt.subplots(figsize=(8, 3.6), dpi=100)
    width = 0.27
    for i, (label, key) in enumerate(series):
        values = [nets[n]["inference"][key] or 0 for n in names]
        ax.bar([x + (i - 1) * width for x in range(len(names))], values, width, label=label)
    ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("encrypted inference, CPU s (median)")
    ax.set_title("Orion CKKS inference, raw vs heirpy-fused (1 thread)")
    ax.legend(frameon=False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nets", nargs="*", default=[n for n in NETS if (EXAMPLES / f"{n}.mlir").exists()])
    parser.add_argument("--tight", nargs="*", default=["tiny_cnn", "alexnet_tiny"])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--lock", help="flock this file around each encrypted run")
    parser.add_argument("--append", action="store_true",
                        help="keep the nets of the existing report (--out's .json) that this run does not measure")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "orion.md")
    parser.add_argument("--plot", type=Path, default=ROOT / "benchmarks" / "out" / "orion.png")
    parser.add_argument("--run", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run_one(args.run)
        return
    json_path = args.out.with_suffix(".json")
    nets: dict[str, dict] = {}
    if args.append and json_path.exists():
        nets = json.loads(json_path.read_text())["nets"]
    with tempfile.TemporaryDirectory(prefix="bench_orion_") as tmp:
        for name in args.nets:
            nets[name] = measure_net(name, args, Path(tmp))
            write_report(nets, args)  # after every net: a long run keeps what it has
    print(args.out.read_text() if nets else "no nets", end="")
    print(f"\nwrote {args.out}, {json_path} and {args.plot}", file=sys.stderr)


def measure_net(name: str, args, workdir: Path) -> dict:  # type: ignore[no-untyped-def]
    """Both forms of one net, measured; the report's rows and every run."""
    print(f"{name}:", file=sys.stderr, flush=True)
    started, load_before = time.strftime("%Y-%m-%d %H:%M"), os.getloadavg()[0]
    (raw, fused), *paths = prepare(name, workdir)
    inputs = (paths[0], paths[1])
    for form in (raw, fused):
        form.max_elements = probe(form, inputs, args, workdir)
        print(f"  {form.name:5} cleartext: |net - evaluator| {form.vs_evaluator:.1e}, "
              f"|net - PyTorch| {form.vs_torch:.1e}; Orion depth {form.levels}, "
              f"heirpy depth {form.heirpy_depth}, largest packed tensor {form.max_elements}",
              file=sys.stderr, flush=True)
    raw_params = sized_params(raw.levels, raw.max_elements)
    fused_params = sized_params(fused.levels, fused.max_elements)
    raw_sized = measure(raw, raw_params, inputs, args, workdir)
    fused_same = measure(fused, raw_params, inputs, args, workdir)
    fused_sized = (fused_same if fused_params == raw_params
                   else measure(fused, fused_params, inputs, args, workdir))
    report = NetReport(name, raw, fused, raw_sized, fused_same, fused_sized)
    logs = [raw_sized.log("raw"), fused_same.log("fused")]
    logs += [fused_sized.log("fused")] if fused_sized is not fused_same else []
    tight = None
    if name in args.tight and fused.levels < raw.levels:
        budget = Params(fused.levels, max(14, raw_params.log_n), bootstrappable=True)
        raw_tight = measure(raw, budget, inputs, args, workdir)
        fused_tight = measure(fused, budget, inputs, args, workdir)
        tight = [name, budget.label(), _tight_cell(raw_tight), _tight_cell(fused_tight),
                 _ratio(fused_tight.median("inference"), raw_tight.median("inference"))]
        logs += [raw_tight.log("raw"), fused_tight.log("fused")]
    return {
        "row": report.row(),
        "tight": tight,
        "inference": {"raw": raw_sized.median("inference"), "fused_same": fused_same.median("inference"),
                      "fused_sized": fused_sized.median("inference")},
        "measured": f"{started} - {time.strftime('%H:%M')}",
        "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "runs": logs,
    }


def write_report(nets: dict[str, dict], args) -> None:  # type: ignore[no-untyped-def]
    ordered = {n: nets[n] for n in sorted(nets, key=lambda n: NETS.index(n) if n in NETS else len(NETS))}
    text = "## Same / sized parameters\n\n" + markdown_table(HEADER, [v["row"] for v in ordered.values()])
    tight_rows = [v["tight"] for v in ordered.values() if v["tight"]]
    if tight_rows:
        text += ("\n\n## Tight level budget (the fused form's levels, for both)\n\n"
                 + markdown_table(TIGHT_HEADER, tight_rows))
    loads = [load for v in ordered.values() for load in v["load_average"]]
    text += ("\n\nMeasured " + "; ".join(f"{n} {v['measured']}" for n, v in ordered.items())
             + f" on {os.cpu_count()} cores; 1-minute load average at the start and end of each net: "
             + f"{min(loads)}-{max(loads)}.")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    args.out.with_suffix(".json").write_text(json.dumps({"nets": ordered}, indent=1) + "\n")
    plot(ordered, args.plot)


if __name__ == "__main__":
    main()
