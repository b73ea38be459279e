"""IREE dispatches and run time: raw IR, heirpy's output, and iree-opt's own fusion.

    python benchmarks/bench_iree.py [--pipeline P] [--rounds 5] [--min-time 0.2]
        [--only NAME ...] [--iree-bin DIR] [--keep DIR]
    python benchmarks/bench_iree.py --target cuda|rocm [--only WORD ...] [--prepare DIR]
        (the YOLO heads and Detect on a GPU target: benchmarks/iree_gpu.py)

Cases: every case of `bench_kernels.py` (the YOLOv5s heads with a 1x1 and a 3x3 conv,
matmul -> reshape -> transpose -> add, add -> transpose -> add -> relu), both heads at
batch 2, the ViT attention block and the whole networks of examples/ (ResNet-20, MobileNetV2,
YOLOv5, the VGG-style CIFAR net; each checked against its `.npz`; `--only resnet20` etc. picks
one). Variants per case:

- raw:     the IR as the front end wrote it;
- heirpy:  after `--pipeline` (default `linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext`);
- heirpy inlined: the same with `lower-tensor-ext{layout-ops=false}`, each kernel inlined as
           it is (the epilogue reads its root through mixed-radix maps): the form before
           the lowering was chosen for IREE, measured in the same run for comparison;
- iree-opt: after `iree-opt --linalg-generalize-named-ops --linalg-fuse-elementwise-ops`
           (IREE's own upstream-linalg fusion, the baseline of `bench_kernels.py`);
- heirpy IREE rule (whole networks, in place of "inlined"): after
           `iree-prepare` (heirpy.transforms.iree.iree_prepare), the same passes with a cost rule
           that lets no fusion grow the multiply-accumulates (`max-mac-growth=1`), and unit-stride
           depthwise convs unrolled into a sum of slices (`unroll-depthwise-conv`).

Each variant is compiled with `iree-compile --iree-hal-target-device=local
--iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host`;
dispatches are the `flow.executable` ops after `--compile-to=flow` (with their kinds, the
suffix IREE gives each dispatch); a whole network's are also counted for CUDA
(`--iree-hal-target-device=cuda --iree-cuda-target=sm_80`, no GPU needed). Run time is `iree-benchmark-module --device=local-task`,
once single-threaded (`--task_topology_max_group_count=1`) and once with IREE's default
threading; the variants of a case alternate, `--rounds` times, and the table gives medians.
The single-threaded figure is the process CPU time: on a shared machine the wall time of a
one-thread run also counts the time other processes hold the core, CPU time does not (both
agree on an idle machine; the wall median is printed beside it). With several threads only
the wall time means anything. Ratios are against the raw IR measured in the same run.

IREE's own output is checked for every variant: against PyTorch's `result0` in
`examples/<name>.npz` for the batch-1 heads, the attention block and the whole networks, else against heirpy's evaluator on the raw IR
(`heirpy-run --random 0`, which also draws the inputs); allclose with rtol 1e-4, atol 1e-5.
IREE comes from `iree-base-compiler` and `iree-base-runtime` (benchmarks/requirements.txt);
on a shared machine run it with `--lock /work/coord/bench.lock`: every case compiles first, then
the lock is held once, for the timed runs only.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import heirpy  # noqa: E402
from bench_kernels import cases as kernel_cases  # noqa: E402  (the same cases, not a copy)
from harness import Tools, held, layout_names, markdown_table, median, run  # noqa: E402
from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, iree_dispatches  # noqa: E402
from heirpy.interp.npz_recipes import load_arrays  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
DEFAULT_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext"
IREE_OPT_FLAGS = ["--linalg-generalize-named-ops", "--linalg-fuse-elementwise-ops"]
RTOL, ATOL = 1e-4, 1e-5


def batched(text: str, batch: int) -> str:
    """The YOLO head at another batch size: its batch dim is the only leading 1."""
    return text.replace("tensor<1x", f"tensor<{batch}x").replace(
        "output_shape [1,", f"output_shape [{batch},"
    )


@dataclass
class Case:
    name: str
    text: str
    reference: Path | None = None  # an .npz with arg* and result*; None: the evaluator's
    whole_network: bool = False  # adds the IREE-rule variant, leaves out the inlined one


def all_cases() -> list[Case]:
    found = []
    for name, text in kernel_cases():
        head = re.match(r"(yolo_head_k\d)", name)
        reference = EXAMPLES / f"{head.group(1)}.npz" if head else None
        found.append(Case(name, text, reference))
    for head in ("yolo_head_k1", "yolo_head_k3"):
        text = batched((EXAMPLES / f"{head}.mlir").read_text(), 2)
        found.append(Case(f"{head} batch 2", text))
    # The attention block: linalg-canonicalizations raises torch's written-out softmax to
    # linalg.softmax so that IREE keeps it one dispatch (its own pattern stops matching
    # once pointwise fusion has merged the subtract into the exp).
    vit = EXAMPLES / "vit_attention"
    found.append(Case(vit.name, vit.with_suffix(".mlir").read_text(), vit.with_suffix(".npz")))
    return found + whole_network_cases()


WHOLE_NETWORKS = ("resnet20", "mobilenetv2", "yolov5", "vgg_cifar")


def whole_network_cases() -> list[Case]:
    """The whole networks of examples/ (issue 27), each checked against its PyTorch outputs."""
    return [
        Case(name, (EXAMPLES / f"{name}.mlir").read_text(), EXAMPLES / f"{name}.npz", whole_network=True)
        for name in WHOLE_NETWORKS
    ]


def whole_network_sources(case: Case, work: Path) -> list[tuple[str, Path]]:
    """A whole network's extra variant: heirpy under iree-prepare, the cost rule that lets
    no fusion grow the MACs (what a plaintext back end pays; the main pipeline fuses for
    CKKS levels)."""
    return [("heirpy IREE rule", heirpy_output(case.text, case.name, "iree-prepare", work / "heirpy_iree.mlir"))]


# ----------------------------------------------------------------------------- IREE
@dataclass
class Variant:
    name: str
    source: Path
    vmfb: Path
    kinds: list[str] = field(default_factory=list)
    cuda_kinds: list[str] | None = None  # whole networks: the dispatches for CUDA sm_80
    error: str = ""
    check: str = ""
    one_cpu: list[float] = field(default_factory=list)
    one_wall: list[float] = field(default_factory=list)
    many_wall: list[float] = field(default_factory=list)


def benchmark(tools: Tools, variant: Variant, inputs: list[Path], threads: str, min_time: float) -> None:
    cmd = [
        tools.benchmark, "--device=local-task", f"--module={variant.vmfb}", "--function=main",
        *[f"--input=@{path}" for path in inputs], "--benchmark_format=json",
        f"--benchmark_min_time={min_time}s",
    ]
    if threads == "one":
        cmd.insert(2, "--task_topology_max_group_count=1")
    for entry in json.loads(run(cmd))["benchmarks"]:
        if entry.get("run_type", "iteration") != "iteration":
            continue
        if threads == "one":
            variant.one_cpu.append(entry["cpu_time"])
            variant.one_wall.append(entry["real_time"])
        else:
            variant.many_wall.append(entry["real_time"])


BEST_CPU_FLAGS = ("--iree-opt-data-tiling", "--iree-global-opt-use-im2col-for-convs")
"""IREE's best CPU flags (data tiling and im2col; the zoo's baseline, docs/iree.md), for
every benchmark that compiles with them."""


def time_forms(tools: Tools, texts: dict[str, str], flags: tuple[str, ...], work: Path, x: Path, rounds: int,
               min_time: float, layouts: int, tolerance: float, mismatch: str) -> dict[str, float]:
    """Two forms of one module (`texts`, first the reference): each compiled for llvm-cpu with
    `flags` under `layouts` source names (`harness.layout_names`), run once on the input `x`
    and checked (the second's output within `tolerance` x max(1, largest |value|) of the
    first's, else `mismatch` ends the script), then timed single-threaded, alternating,
    `rounds` times. Per form: the geometric mean over its layouts of the median CPU time."""
    variants: list[Variant] = []
    for side, text in texts.items():
        source = work / f"{side}.mlir"
        source.write_text(text)
        for index, name in enumerate(layout_names(source, work, side, layouts)):
            variant = Variant(f"{side} {index}", name, work / f"{side}_{index}.vmfb")
            run([tools.compile, *COMPILE_FLAGS, *flags, str(name), "-o", str(variant.vmfb)])
            variants.append(variant)
    outputs = []
    for variant in variants[::layouts]:
        out = work / f"{variant.name.split()[0]}_out.npy"
        run([tools.run, "--device=local-task", f"--module={variant.vmfb}", "--function=main",
             f"--input=@{x}", f"--output=@{out}"])
        outputs.append(np.load(out).astype(np.float64))
    scale = float(np.abs(outputs[0]).max())
    if float(np.abs(outputs[0] - outputs[1]).max()) > tolerance * max(1.0, scale):
        raise SystemExit(mismatch)
    for _ in range(rounds):
        for variant in variants:
            benchmark(tools, variant, [x], "one", min_time)
    return {side: statistics.geometric_mean([statistics.median(v.one_cpu) for v in variants
                                             if v.name.startswith(side)]) for side in texts}


def check_outputs(tools: Tools, variant: Variant, inputs: list[Path], expected: list[np.ndarray], work: Path) -> str:
    outputs = [work / f"{variant.name}_out{i}.npy" for i in range(len(expected))]
    run([
        tools.run, "--device=local-task", f"--module={variant.vmfb}", "--function=main",
        *[f"--input=@{path}" for path in inputs], *[f"--output=@{path}" for path in outputs],
    ])
    worst, ok = 0.0, True
    for path, want in zip(outputs, expected):
        got = np.load(path)
        ok = ok and got.shape == want.shape and bool(np.allclose(got, want, rtol=RTOL, atol=ATOL))
        worst = max(worst, float(np.max(np.abs(got - want))) if got.shape == want.shape else np.inf)
    return f"{'ok' if ok else 'MISMATCH'} ({worst:.1e})"


# ----------------------------------------------------------------------------- one case
def reference_data(case: Case, raw: Path, work: Path) -> tuple[list[Path], list[np.ndarray], str]:
    """Input .npy files and expected outputs (PyTorch's when the example has them)."""
    if case.reference is not None:
        data = load_arrays(case.reference)  # the example's inputs are drawn from seeds
        origin = "torch"
    else:
        heirpy_run = Path(sys.executable).parent / "heirpy-run"
        out = work / "reference.npz"
        run([str(heirpy_run) if heirpy_run.exists() else "heirpy-run", str(raw),
             "--random", "0", "--output", str(out)])
        data = load_arrays(out)
        origin = "evaluator"
    args = sorted((k for k in data if k.startswith("arg")), key=lambda k: int(k[3:]))
    results = sorted((k for k in data if k.startswith("result")), key=lambda k: int(k[6:]))
    inputs = []
    for key in args:
        path = work / f"{key}.npy"
        np.save(path, data[key])
        inputs.append(path)
    return inputs, [data[key] for key in results], origin


def heirpy_output(text: str, name: str, pipeline: str, path: Path) -> Path:
    module = heirpy.parse(text, name)
    heirpy.run_pipeline(module, pipeline)
    path.write_text(heirpy.print_module(module))
    return path


def prepare(case: Case, tools: Tools, pipeline: str, work: Path) -> tuple[list[Variant], list[Path], str]:
    raw = work / "raw.mlir"
    raw.write_text(case.text)
    sources = [("raw", raw), ("heirpy", heirpy_output(case.text, case.name, pipeline, work / "heirpy.mlir"))]
    if case.whole_network:
        sources += whole_network_sources(case, work)
    elif pipeline.endswith(",lower-tensor-ext"):
        inlined = pipeline + "{layout-ops=false}"
        sources.append(("heirpy inlined", heirpy_output(case.text, case.name, inlined, work / "inlined.mlir")))
    iree_opt = work / "iree_opt.mlir"
    iree_opt.write_text(run([tools.opt, *IREE_OPT_FLAGS, str(raw)]))
    sources.append(("iree-opt", iree_opt))

    inputs, expected, origin = reference_data(case, raw, work)
    variants = []
    for name, source in sources:
        variant = Variant(name, source, work / f"{source.stem}.vmfb")
        try:
            variant.kinds = iree_dispatches(source.read_text(), tools.compile)
            if case.whole_network:  # compiles for CUDA, no GPU needed (issue 27)
                variant.cuda_kinds = iree_dispatches(source.read_text(), tools.compile, target="cuda")
            run([tools.compile, *COMPILE_FLAGS, str(source), "-o", str(variant.vmfb)])
            variant.check = check_outputs(tools, variant, inputs, expected, work)
        except (RuntimeError, heirpy.HeirpyError) as err:
            variant.error = str(err)
        variants.append(variant)
    return variants, inputs, origin


def cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}" if value < 10 else f"{value:.1f}"


def ratio(value: float | None, base: float | None) -> str:
    return "-" if value is None or not base else f"{value / base:.2f}"


def summarise(kinds: list[str]) -> str:
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{k} x{n}" if n > 1 else k for k, n in counts.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    parser.add_argument("--rounds", type=int, default=5, help="alternating runs per variant")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per benchmark run")
    parser.add_argument("--only", nargs="*", default=None, help="case names containing these")
    parser.add_argument("--iree-bin", default=None, help="directory with the iree-* tools")
    parser.add_argument("--keep", default=None, help="keep the compiled files in this directory")
    parser.add_argument("--target", default="llvm-cpu", choices=("llvm-cpu", "cuda", "rocm"),
                        help="cuda / rocm: the YOLO heads and Detect on a GPU target (benchmarks/iree_gpu.py)")
    parser.add_argument("--prepare", default=None, help="--target cuda: write the device run's modules here")
    parser.add_argument("--prepare-target", default="cuda", choices=("cuda", "llvm-cpu"),
                        help="llvm-cpu: prepare CPU modules, to try benchmarks/gpu/device.py without a GPU")
    parser.add_argument("--lock", default=None, help="hold this flock file (once) during the timed runs only")
    args = parser.parse_args(argv)
    tools = Tools.find(args.iree_bin)
    if args.target != "llvm-cpu":
        import iree_gpu  # noqa: PLC0415 (benchmarks/; the GPU cases, compiled without a GPU)

        return iree_gpu.main(args.target, args.only, args.prepare, args.keep, tools.compile, args.prepare_target)

    header = [
        "case", "variant", "dispatches", "CUDA dispatches", "1 thread CPU ms", "(wall)", "default threads wall ms",
        "/raw 1 thread", "/raw default", "IREE output", "dispatch kinds",
    ]
    rows: list[list[str]] = []
    cases = [c for c in all_cases() if not args.only or any(word in c.name for word in args.only)]
    with tempfile.TemporaryDirectory(prefix="bench_iree_") as tmp:
        prepared = []
        for case in cases:  # compiling needs no lock
            work = (Path(args.keep) if args.keep else Path(tmp)) / re.sub(r"\W+", "_", case.name)
            work.mkdir(parents=True, exist_ok=True)
            prepared.append((case, *prepare(case, tools, args.pipeline, work)))
            print(f"compiled: {case.name}", file=sys.stderr, flush=True)
        with held(args.lock):  # one hold for every case's timed runs
            for case, variants, inputs, _ in prepared:
                runnable = [v for v in variants if not v.error]
                for _ in range(args.rounds):
                    for threads in ("one", "default"):
                        for variant in runnable:
                            benchmark(tools, variant, inputs, threads, args.min_time)
                print(f"timed: {case.name}", file=sys.stderr, flush=True)
    for case, variants, _, origin in prepared:
        base = variants[0]
        for variant in variants:
            if variant.error:
                rows.append([case.name, variant.name, "-", "-", "-", "-", "-", "-", "-", variant.error, ""])
                continue
            one, many = median(variant.one_cpu), median(variant.many_wall)
            rows.append([
                case.name, variant.name, str(len(variant.kinds)),
                "-" if variant.cuda_kinds is None else str(len(variant.cuda_kinds)), cell(one),
                cell(median(variant.one_wall)), cell(many),
                ratio(one, median(base.one_cpu)), ratio(many, median(base.many_wall)),
                f"{variant.check} vs {origin}", summarise(variant.kinds),
            ])
    print(f"heirpy: {args.pipeline}; iree-opt: {' '.join(IREE_OPT_FLAGS)}; "
          f"iree-compile {' '.join(COMPILE_FLAGS)}; medians of {args.rounds} alternating runs")
    print(markdown_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
