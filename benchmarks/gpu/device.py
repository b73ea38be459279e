"""Time and check the modules `bench_iree.py --target cuda --prepare DIR` wrote, on a GPU machine.

    python3 benchmarks/gpu/device.py DIR [--tools BIN] [--out OUT] [--budget SECONDS]
        [--device cuda] [--rounds 2]

Needs only numpy, IREE's runtime tools (DIR/iree-tools.tar.xz unpacked into BIN, or on PATH) and,
for the PyTorch columns, torch with CUDA: it runs where heirpy and iree-compile are not installed
(benchmarks/gpu/README.md; run_device.sh is the one command for the lent machine). In order, each
step only while the time budget lasts (what is left out is listed, never silently dropped):

1. weights: every parameter key of the manifest gets seeded uniform data (PyTorch's conv init
   range, 1/sqrt(fan in)) in one `.irpa` (iree-create-parameters, then the bytes written in
   place); inputs: seeded standard normal, per case. Every variant of a case reads the same ones.
2. outputs: each variant on the GPU (`iree-run-module --device=cuda`) against IREE's CPU output
   of the raw IR (`--device=local-task`, a module compiled for x86-64-v3): max abs error and the
   share of values off by more than 4 ulps of the result type (1e-3 for f16 near 1); then the
   CUDA f16 bug's reproducer (benchmarks/iree_bugs/cuda_f16_head.py), module by module.
3. per call: `iree-benchmark-module --device=cuda`, the variants of a case alternating,
   `--rounds` rounds of 3 repetitions; the median real time of each.
4. kernels: the dispatches' time per call from `--dispatch_statistics` (IREE's lightweight HAL
   profiling), else from the modules compiled with `--iree-hal-benchmark-dispatch-repeat-count=N`:
   (t_N - t_1) / (N - 1). Per call minus kernels is what a call spends outside them.
5. where the time goes, for the f16 1x1 head at batch 1: per call under other allocators and
   queue modes, with 10 calls in flight, with the weights inline, the runtime's statistics,
   IREE's HAL profile (`--device_profiling_mode`, summarised by `iree-profile`) and, when `ncu`
   is there, every kernel a call launches with its duration and launch shape.
6. PyTorch on the same shapes (conv, bias, view, permute, sigmoid; random weights): eager, then
   `torch.compile` last (its compiles are slow), CUDA events, median of 200 calls after warm-up.

Prints markdown tables last and writes results.json and diagnosis.txt to OUT.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
ULPS = 4  # the comparison's slack in units in the last place of the result type
INPUT_SEED = 26


# ----------------------------------------------------------------------------- plumbing
class Budget:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds
        self.skipped: list[str] = []

    def left(self) -> float:
        return self.end - time.monotonic()

    def allows(self, what: str, needs: float = 0.0) -> bool:
        if self.left() > needs:
            return True
        self.skipped.append(what)
        return False


def tool(bin_dir: Path | None, name: str) -> str:
    if bin_dir is not None and (bin_dir / name).exists():
        return str(bin_dir / name)
    found = shutil.which(name)
    if found is None:
        sys.exit(f"error: {name} not found (unpack DIR/iree-tools.tar.xz and pass --tools)")
    return found


def run(cmd: list[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def first_error(result: subprocess.CompletedProcess[str]) -> str:
    text = (result.stderr or result.stdout).strip().splitlines()
    return next((line for line in text if "error" in line.lower() or "FAILED" in line), text[-1] if text else "failed")[:200]


# ----------------------------------------------------------------------------- 1. data
def weights(manifest: dict, pkg: Path, tools: Path | None, work: Path) -> Path:
    """One .irpa with every parameter key of the manifest, filled with seeded data."""
    params: dict[str, dict] = {}
    for case in manifest["cases"]:
        params |= case["params"]
    irpa = work / "weights.irpa"
    if not params:
        return irpa
    decl = [f"--data={key}={'x'.join(map(str, p['shape']))}x{p['dtype']}" for key, p in params.items()]
    made = run([tool(tools, "iree-create-parameters"), *decl, f"--output={irpa}"])
    if made.returncode != 0:
        sys.exit(f"error: iree-create-parameters: {first_error(made)}")
    dump = run([tool(tools, "iree-dump-parameters"), f"--parameters={irpa}"]).stdout
    offsets = {key: int(start) for start, key in re.findall(r"^\s*(\d+) \|\s*\d+ \|\s*\d+ \| `(\w+)`", dump, re.M)}
    with open(irpa, "r+b") as f:
        for key, p in params.items():
            shape = tuple(p["shape"])
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
            rng = np.random.default_rng(int(hashlib.sha1(key.encode()).hexdigest()[:8], 16))
            bound = 1.0 / np.sqrt(fan_in)
            data = rng.uniform(-bound, bound, shape).astype(DTYPES[p["dtype"]])
            f.seek(offsets[key])
            f.write(data.tobytes())
    return irpa


def inputs_of(case: dict, work: Path) -> list[Path]:
    rng = np.random.default_rng(INPUT_SEED)
    paths = []
    for i, spec in enumerate(case["inputs"]):
        path = work / f"{slug(case['name'])}_arg{i}.npy"
        np.save(path, rng.standard_normal(spec["shape"]).astype(DTYPES[spec["dtype"]]))
        paths.append(path)
    return paths


def slug(name: str) -> str:
    return re.sub(r"\W+", "_", name)


# ----------------------------------------------------------------------------- 2. outputs
def run_module(runner: str, device: str, vmfb: Path, irpa: Path, inputs: list[Path], count: int,
               out: Path) -> list[np.ndarray] | str:
    outputs = [out.with_name(f"{out.name}_{i}.npy") for i in range(count)]
    cmd = [runner, f"--device={device}", f"--module={vmfb}", "--function=main",
           *[f"--input=@{p}" for p in inputs], *[f"--output=@{p}" for p in outputs]]
    if irpa.exists():
        cmd.insert(2, f"--parameters=model={irpa}")
    result = run(cmd, timeout=600)
    if result.returncode != 0:
        return first_error(result)
    return [np.load(p) for p in outputs]


def compare(got: list[np.ndarray], want: list[np.ndarray]) -> dict:
    worst, off, total = 0.0, 0, 0
    for g, w in zip(got, want):
        if g.shape != w.shape:
            return {"ok": False, "text": f"shape {g.shape} vs {w.shape}"}
        eps = float(np.finfo(w.dtype).eps) if w.dtype.kind == "f" else 0.0
        tol = max(1e-5, ULPS * eps) + max(1e-4, ULPS * eps) * np.abs(w.astype(np.float64))
        diff = np.abs(g.astype(np.float64) - w.astype(np.float64))
        diff = np.where(np.isnan(diff), np.inf, diff)
        worst = max(worst, float(diff.max(initial=0.0)))
        off += int(np.count_nonzero(diff > tol))
        total += diff.size
    share = off / max(total, 1)
    ok = off == 0
    text = f"{'ok' if ok else 'WRONG'} (max {worst:.1e}" + ("" if ok else f", {100 * share:.1f}% off") + ")"
    return {"ok": ok, "max_abs": worst, "share_off": share, "text": text}


# ----------------------------------------------------------------------------- 3-4. timing
def bench(bencher: str, device: str, vmfb: Path, irpa: Path, inputs: list[Path], extra: list[str] | None = None,
          min_time: float = 0.1, dispatches: bool = True) -> tuple[float, float | None] | str:
    """Median real time per call of one iree-benchmark-module run and, when the backend's
    lightweight profiling attributes them (`--dispatch_statistics`), the time of the call's
    dispatches; in ms. A run the statistics make fail is retried without them."""
    cmd = [bencher, f"--device={device}", f"--module={vmfb}", "--function=main",
           *[f"--input=@{p}" for p in inputs], "--benchmark_format=json",
           f"--benchmark_min_time={min_time}s", "--benchmark_repetitions=3", *(extra or [])]
    if irpa.exists():
        cmd.insert(2, f"--parameters=model={irpa}")
    result = run([*cmd, "--dispatch_statistics=true"] if dispatches else cmd, timeout=300)
    if result.returncode != 0 and dispatches:
        result = run(cmd, timeout=300)
    if result.returncode != 0:
        return first_error(result)
    try:
        entries = json.loads(result.stdout)["benchmarks"]
    except (json.JSONDecodeError, KeyError):
        return "no JSON from iree-benchmark-module"
    rows = [e for e in entries if e.get("run_type", "iteration") == "iteration"]
    calls = [e["real_time"] * _unit(e.get("time_unit", "ns")) for e in rows if "_dispatch_" not in e["name"]]
    kernels = [e["real_time"] * _unit(e.get("time_unit", "ns")) for e in rows if "_dispatch_" in e["name"]]
    if not calls:
        return "no iterations"
    return statistics.median(calls), (sum(kernels) if kernels else None)


def _unit(name: str) -> float:
    return {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[name]


# ----------------------------------------------------------------------------- 5. PyTorch
def torch_times(case: dict, budget: Budget, compile_too: bool) -> dict[str, float | str]:
    try:
        import torch  # noqa: PLC0415 (optional: the machine's own PyTorch)
    except ImportError:
        return {"eager": "no torch", "compile": "no torch"}
    if not torch.cuda.is_available():
        return {"eager": "no CUDA in torch", "compile": "no CUDA in torch"}
    dtype = {"f16": torch.float16, "f32": torch.float32}[case["dtype"]]
    k = 3 if "k3" in case["model"] else 1
    convs = torch.nn.ModuleList(
        torch.nn.Conv2d(spec["shape"][1], 255, k, padding=k // 2) for spec in case["inputs"]
    ).to("cuda", dtype).eval()

    def forward(*xs: torch.Tensor) -> tuple[torch.Tensor, ...]:
        heads = []
        for conv, x in zip(convs, xs):
            bs, _, ny, nx = x.shape
            heads.append(torch.sigmoid(conv(x).view(bs, 3, 85, ny, nx).permute(0, 1, 3, 4, 2)))
        return tuple(heads)

    gen = torch.Generator(device="cuda").manual_seed(INPUT_SEED)
    xs = [torch.randn(spec["shape"], device="cuda", dtype=dtype, generator=gen) for spec in case["inputs"]]
    found: dict[str, float | str] = {}
    with torch.no_grad():
        if not compile_too:
            found["eager"] = _time_torch(torch, forward, xs)
            return found
        try:
            compiled = torch.compile(forward)
            found["compile"] = _time_torch(torch, compiled, xs)
        except Exception as err:  # noqa: BLE001 (report any compile failure as the cell)
            found["compile"] = f"{type(err).__name__}: {str(err)[:80]}"
    return found


def _time_torch(torch: object, fn: object, xs: list) -> float:
    t = torch  # type: ignore[assignment]
    for _ in range(20):
        fn(*xs)  # type: ignore[operator]
    t.cuda.synchronize()  # type: ignore[attr-defined]
    times = []
    for _ in range(200):
        start, end = t.cuda.Event(enable_timing=True), t.cuda.Event(enable_timing=True)  # type: ignore[attr-defined]
        start.record()
        fn(*xs)  # type: ignore[operator]
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


# ----------------------------------------------------------------------------- 6. diagnosis
def diagnose(case: dict, pkg: Path, irpa: Path, inputs: list[Path], tools: Path | None, device: str,
             out: Path, budget: Budget) -> dict[str, object]:
    """Where a call's time goes, for one case: per call under other runtime settings and with
    the weights inline instead of parameters, the runtime's allocation statistics, IREE's HAL
    profile and, when ncu is there, every kernel a call launches. Long texts go to
    OUT/diagnosis.txt."""
    bencher = tool(tools, "iree-benchmark-module")
    found: dict[str, object] = {}
    text: list[str] = []
    runtime_flags = {
        "default": [],
        "caching allocator": ["--device_allocator=caching"],
        "CUDA streams": ["--cuda_use_streams=true"],
        "inline execution": ["--cuda_allow_inline_execution=true"],
        "no async allocations": ["--cuda_async_allocations=false"],
        # 10 calls in flight at once (iree-benchmark-module reports the time per call): if a
        # call's extra time is the host waiting for the device (latency), this drops well below.
        "10 in flight (per call)": ["--batch_size=10", "--batch_concurrency=10"],
    }
    ncu = shutil.which("ncu") or next(iter(Path("/opt/nvidia").glob("nsight-compute/*/ncu")), None)
    for variant in case["variants"]:
        name, vmfb = variant["name"], pkg / variant["vmfb"]
        per_flag: dict[str, object] = {}
        for label, flags in runtime_flags.items():
            if not budget.allows(f"diagnosis {name} {label}", 15):
                break
            value = bench(bencher, device, vmfb, irpa, inputs, flags, dispatches=False)
            per_flag[label] = value if isinstance(value, str) else value[0]  # already per call
        if "inline_vmfb" in variant and budget.allows(f"diagnosis {name} inline weights", 15):
            value = bench(bencher, device, pkg / variant["inline_vmfb"], irpa, inputs, dispatches=False)
            per_flag["weights inline"] = value if isinstance(value, str) else value[0]
        found[name] = per_flag
        base = [bencher, f"--device={device}", f"--module={vmfb}", f"--parameters=model={irpa}",
                "--function=main", *[f"--input=@{p}" for p in inputs]]
        if budget.allows(f"statistics {name}", 15):
            result = run([*base, "--benchmark_min_time=0.05s", "--print_statistics=true"])
            text.append(f"== {name}: --print_statistics\n{result.stderr[-3000:]}")
        if budget.allows(f"HAL profile {name}", 30):
            bundle = Path("/tmp") / f"heirpy_{slug(name)}.ireeprof"
            modes = "queue-events,host-execution,device-queue-events,dispatch-events,memory-events"
            result = run([*base, "--benchmark_min_time=0.05s", f"--device_profiling_mode={modes}",
                          f"--device_profiling_output={bundle}"])
            if result.returncode == 0 and bundle.exists():
                for command in ("summary", "statistics"):
                    shown = run([tool(tools, "iree-profile"), command, str(bundle)])
                    text.append(f"== {name}: iree-profile {command}\n{shown.stdout[-6000:]}{shown.stderr[-500:]}")
                bundle.unlink()
            else:
                text.append(f"== {name}: HAL profile failed: {first_error(result)}")
        if ncu and budget.allows(f"ncu {name}", 60):
            result = run([str(ncu), "--clock-control", "none", "--launch-skip", "40", "--launch-count", "8",
                          "--metrics", "gpu__time_duration.sum,launch__grid_size,launch__block_size,"
                          "launch__shared_mem_per_block_dynamic,launch__registers_per_thread", "--csv",
                          *base, "--benchmark_min_time=0.02s"], timeout=max(30.0, min(180.0, budget.left())))
            text.append(f"== {name}: ncu (every kernel launched)\n{result.stdout[-8000:]}{result.stderr[-1000:]}")
    (out / "diagnosis.txt").write_text("\n\n".join(text))
    return found


# ----------------------------------------------------------------------------- main
def cell(value: float | str | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return f"{value:.4f}" if value < 0.1 else f"{value:.3f}"


def ratio(value: object, base: object) -> str:
    if isinstance(value, float) and isinstance(base, float) and base > 0:
        return f"{value / base:.2f}"
    return "-"


def markdown(header: list[str], rows: list[list[str]]) -> str:
    table = [header, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in table]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


@dataclass
class Session:
    """One measurement: the package, where things go, the budget, and what was found so far."""

    args: argparse.Namespace
    budget: Budget
    manifest: dict
    work: Path
    irpa: Path = Path()
    data: dict[str, list[Path]] = field(default_factory=dict)
    results: dict = field(default_factory=dict)

    def module(self, relative: str) -> Path:
        return self.args.package / relative

    def tool(self, name: str) -> str:
        return tool(self.args.tools, name)

    def save(self) -> None:
        save(self.results, self.args.out)

    def outputs(self, case: dict) -> None:
        """Step 2: each variant on the device against the CPU output of the raw IR."""
        entry = self.results["cases"][case["name"]]
        if not self.budget.allows(f"outputs {case['name']}", 30):
            return
        runner, inputs, count = self.tool("iree-run-module"), self.data[case["name"]], len(case["outputs"])
        want = run_module(runner, "local-task", self.module(case["reference"]), self.irpa, inputs, count,
                          self.work / f"{slug(case['name'])}_cpu")
        for variant in case["variants"]:
            got = run_module(runner, self.args.device, self.module(variant["vmfb"]), self.irpa, inputs, count,
                             self.work / f"{slug(case['name'])}_{slug(variant['name'])}")
            check = got if isinstance(got, str) else (want if isinstance(want, str) else compare(got, want))
            entry["variants"][variant["name"]] = {"output": check}
        shown = [f"{k} {v['output']['text'] if isinstance(v['output'], dict) else v['output']}"
                 for k, v in entry["variants"].items()]
        print(f"outputs: {case['name']}: {', '.join(shown)}", flush=True)

    def timing(self, case: dict) -> None:
        """Steps 3-4: per call, the variants alternating, and the kernels' time (from
        `--dispatch_statistics`, else from the repeat-count modules)."""
        bencher, inputs = self.tool("iree-benchmark-module"), self.data[case["name"]]
        calls: dict[str, list[float]] = {v["name"]: [] for v in case["variants"]}
        kernels: dict[str, list[float]] = {v["name"]: [] for v in case["variants"]}
        errors: dict[str, str] = {}
        for _ in range(self.args.rounds):
            if not self.budget.allows(f"timing round {case['name']}", 20):
                break
            for variant in case["variants"]:
                value = bench(bencher, self.args.device, self.module(variant["vmfb"]), self.irpa, inputs)
                if isinstance(value, str):
                    errors[variant["name"]] = value
                    continue
                calls[variant["name"]].append(value[0])
                if value[1] is not None:
                    kernels[variant["name"]].append(value[1])
        for variant in case["variants"]:
            name = variant["name"]
            slot = self.results["cases"][case["name"]]["variants"].setdefault(name, {})
            per_call = statistics.median(calls[name]) if calls[name] else errors.get(name)
            slot["per_call_ms"] = per_call
            if kernels[name]:
                slot["kernel_ms"], slot["kernel_from"] = statistics.median(kernels[name]), "dispatch statistics"
            elif isinstance(per_call, float) and self.budget.allows(f"repeat module {case['name']} {name}", 15):
                repeated = bench(bencher, self.args.device, self.module(variant["repeat_vmfb"]), self.irpa,
                                 inputs, dispatches=False)
                if not isinstance(repeated, str):
                    slot["kernel_ms"] = (repeated[0] - per_call) / (self.manifest["repeat"] - 1)
                    slot["kernel_from"] = f"repeat x{self.manifest['repeat']}"
        print(f"timed: {case['name']}", flush=True)

    def reproducer(self) -> None:
        """Step 7: the CUDA f16 bug, module by module (benchmarks/iree_bugs/cuda_f16_head.py)."""
        bugs = self.args.package / "bugs"
        if not (bugs / "manifest.json").exists() or not self.budget.allows("IREE bug reproducer", 20):
            return
        script = Path(__file__).resolve().parents[1] / "iree_bugs" / "cuda_f16_head.py"
        cmd = [sys.executable, str(script), "--run", str(bugs), "--work", str(self.work / "bugs")]
        result = run([*cmd, "--tools", str(self.args.tools)] if self.args.tools else cmd, timeout=300)
        self.results["bug"] = result.stdout + result.stderr[-500:]
        print(self.results["bug"], flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", type=Path)
    parser.add_argument("--tools", type=Path, default=None, help="directory with IREE's runtime tools")
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "build/gpu-results")))
    parser.add_argument("--budget", type=float, default=360, help="seconds for everything")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds of 3 repetitions each")
    parser.add_argument("--diagnose", default="yolo_head_k1 f16 b1", help="the case step 6 looks into")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((args.package / "manifest.json").read_text())
    work = Path("/tmp/heirpy-gpu/work") if args.device == "cuda" else args.out / "work"
    work.mkdir(parents=True, exist_ok=True)
    session = Session(args, Budget(args.budget), manifest, work)
    if shutil.which("nvidia-smi"):
        print(run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.mem", "--format=csv"]).stdout,
              flush=True)
    cases = manifest["cases"]
    session.results = {"device": args.device, "repeat": manifest["repeat"],
                       "cases": {c["name"]: {"variants": {}} for c in cases}}
    session.irpa = weights(manifest, args.package, args.tools, work)  # step 1
    session.data = {c["name"]: inputs_of(c, work) for c in cases}
    on_gpu = args.device == "cuda"
    # In order of what the issue needs most, each while the budget lasts: outputs, the bug's
    # reproducer, per-call and kernel times, where the time goes, PyTorch eager, torch.compile.
    for case in cases:  # step 2
        session.outputs(case)
        session.save()
    if on_gpu:
        session.reproducer()  # step 7 of the docstring, run early: it is quick
    for case in cases:  # steps 3-4
        session.timing(case)
        session.save()
    chosen = next((c for c in cases if c["name"] == args.diagnose), None)
    if chosen is not None and session.budget.allows("diagnosis", 60):  # step 6
        session.results["diagnosis"] = diagnose(chosen, args.package, session.irpa, session.data[chosen["name"]],
                                                args.tools, args.device, args.out, session.budget)
        session.save()
    for case in cases:  # step 5: PyTorch eager
        if on_gpu and session.budget.allows(f"PyTorch eager {case['name']}", 15):
            session.results["cases"][case["name"]]["torch"] = torch_times(case, session.budget, compile_too=False)
    for case in cases:  # step 8: torch.compile, last: its compiles take the longest
        if on_gpu and session.budget.allows(f"torch.compile {case['name']}", 40):
            found = torch_times(case, session.budget, compile_too=True)
            session.results["cases"][case["name"]].setdefault("torch", {})["compile"] = found.get("compile")
            print(f"torch.compile: {case['name']}", flush=True)
    session.results["skipped"] = session.budget.skipped
    session.save()
    print_tables(session.results, manifest)
    return 0


def save(results: dict, out: Path) -> None:
    (out / "results.json").write_text(json.dumps(results, indent=1, default=str))


def print_tables(results: dict, manifest: dict) -> None:
    rows = []
    for case in manifest["cases"]:
        entry = results["cases"].get(case["name"], {})
        variants = entry.get("variants", {})
        base = variants.get("raw", {})
        torch = entry.get("torch", {})
        for variant in case["variants"]:
            v = variants.get(variant["name"], {})
            rows.append([
                case["name"], variant["name"], cell(v.get("per_call_ms")),
                ratio(v.get("per_call_ms"), base.get("per_call_ms")), cell(v.get("kernel_ms")),
                ratio(v.get("kernel_ms"), base.get("kernel_ms")),
                (v.get("output") or {}).get("text", "-") if isinstance(v.get("output"), dict) else str(v.get("output", "-")),
                cell(torch.get("eager")) if variant["name"] == "raw" else "",
                cell(torch.get("compile")) if variant["name"] == "raw" else "",
            ])
    sources = sorted({v.get("kernel_from", "") for e in results["cases"].values() for v in e["variants"].values()} - {""})
    print("\nper call: iree-benchmark-module real time, median; kernels: the dispatches' time per call "
          f"({', '.join(sources) or 'not measured'}); outputs vs IREE's CPU output of the raw IR; ms")
    print(markdown(["case", "variant", "per call", "/raw", "kernels", "/raw", "output",
                    "torch eager", "torch.compile"], rows))
    diagnosis = results.get("diagnosis")
    if diagnosis:
        print("\nwhere the time goes:", json.dumps(diagnosis, indent=1, default=str))
    if results.get("skipped"):
        print("\nnot measured (out of time):", ", ".join(results["skipped"]))


if __name__ == "__main__":
    sys.exit(main())
