"""IREE on a GPU: the YOLO heads and the Detect layer, f32 and f16, batch 1 and 8 (issue 26).

    python benchmarks/bench_iree.py --target cuda [--only k1 f16 ...] [--prepare build/gpu]
    python benchmarks/bench_iree.py --target rocm

Cases: `yolo_head_k1`, `yolo_head_k3` and `yolov5s_detect` at 80x80 (P3; Detect also 40x40 and
20x20), in f32 (examples/<model>.mlir) and f16 (examples/<model>_f16.mlir, exported by torch-mlir
from PyTorch's `.half()` model at 20x20 and scaled here to 80x80: `scaled`), batch 1 and 8. Three
variants each: raw (the IR as torch-mlir wrote it), heirpy (`linalg-canonicalizations,
linalg-fuse-ops,lower-tensor-ext`) and heirpy gpu (`iree-prepare{target=gpu}`: the same fusion and `lower-tensor-ext{target=gpu}`).

Compile only, no GPU needed (`iree-compile --iree-hal-target-device=cuda --iree-cuda-target=sm_80`,
or `hip` / `gfx942` for `--target rocm`: dispatch counts only): the dispatches IREE forms, and for
CUDA each dispatch's workload (the loop ranges in its name), the tile IREE's heuristic picks for it
(`workgroup` of the lowering config, read off `--iree-hal-dump-executable-configurations-to`), the
matrix intrinsic, threads per workgroup and the number of workgroups it launches, and what one call
of the module does on the host (`@main` of `--compile-to=vm`: buffer allocations and their bytes,
queue submissions). Timing needs a GPU: on a machine where `nvidia-smi` answers and IREE lists a
CUDA device, the measurement of benchmarks/gpu/device.py runs on the modules prepared here (per-call
time, kernel time, PyTorch eager and torch.compile, every output against IREE's CPU output of the raw
IR); elsewhere the script says so. `--prepare DIR` writes what that measurement needs, for a machine
without heirpy or iree-compile (benchmarks/gpu/README.md).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

import heirpy
from gpu_head_forms import EXAMPLES, hand_forms_with_weights, scaled
from heirpy.analysis.iree_dispatches import TARGET_FLAGS, dispatch_kind, iree_dispatches
from heirpy.ir.diagnostics import HeirpyError

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("yolo_head_k1", "yolo_head_k3", "yolov5s_detect")
FUSE = "linalg-canonicalizations,linalg-fuse-ops"
VARIANTS: dict[str, str | None] = {
    "raw": None,
    "heirpy": f"{FUSE},lower-tensor-ext",
    "heirpy gpu": "iree-prepare{target=gpu}",  # == FUSE + max-mac-growth=1 + lower-tensor-ext{target=gpu} on the heads
}
BATCHES = (1, 8)
# The measurement's CPU reference runs on the GPU machine's host: any x86-64 with AVX2.
CPU_REFERENCE_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=x86-64-v3",
)
REPEAT = 11  # dispatch repeats of the kernel-time modules: (t_11 - t_1) / 10 is the kernels' time
PARAMETER_MINIMUM = 4096  # constants this large become parameters in the prepared modules
RUNTIME_TOOLS = (
    "iree-run-module", "iree-benchmark-module", "iree-profile", "iree-create-parameters",
    "iree-dump-parameters", "iree-dump-module",
)


# ----------------------------------------------------------------------------- cases
@dataclass
class GpuCase:
    name: str
    model: str
    dtype: str
    batch: int
    text: str


def batched(text: str, batch: int) -> str:
    """A YOLO model at another batch size: its batch dim is the only leading 1."""
    return text.replace("tensor<1x", f"tensor<{batch}x").replace("output_shape [1,", f"output_shape [{batch},")


def gpu_cases(only: list[str] | None = None) -> list[GpuCase]:
    found = []
    for model in MODELS:
        f32 = (EXAMPLES / f"{model}.mlir").read_text()
        texts = {"f32": f32, "f16": scaled((EXAMPLES / f"{model}_f16.mlir").read_text(), f32)}
        for dtype, text in texts.items():
            for batch in BATCHES:
                name = f"{model} {dtype} b{batch}"
                if only and not all(word in name for word in only):
                    continue
                found.append(GpuCase(name, model, dtype, batch, batched(text, batch)))
    return found


def variant_text(case: GpuCase, pipeline: str | None) -> str:
    if pipeline is None:
        return case.text
    module = heirpy.parse(case.text, case.name)
    heirpy.run_pipeline(module, pipeline)
    return heirpy.print_module(module)


def extra_forms(case: GpuCase) -> dict[str, str]:
    """For the 1x1 head at batch 1, the one-dispatch forms of benchmarks/iree_gpu_forms.py that
    heirpy does not emit, so that one device run times them beside heirpy's (their tiles
    differ: the conv's loop order gives f32 a 32x128 tile over (classes, pixels))."""
    if case.model != "yolo_head_k1" or case.batch != 1:
        return {}
    return {f"form: {name}": text for name, text in hand_forms_with_weights(case.dtype).items()
            if name in ("weights first, conv order", "image first, conv order")}


# ----------------------------------------------------------------------------- compile-only
@dataclass
class Dispatch:
    name: str
    kind: str
    workload: str = ""
    tile: str = ""
    intrinsic: str = ""
    threads: int = 0
    workgroups: int = 0


@dataclass
class Characterised:
    dispatches: list[Dispatch] = field(default_factory=list)
    allocations: list[int] = field(default_factory=list)  # bytes allocated per call
    submissions: int = 0  # queue executions per call
    error: str = ""


def run(cmd: list[str], timeout: float = 900) -> str:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        first = next((line for line in result.stderr.splitlines() if "error" in line), result.stderr[-300:])
        raise RuntimeError(f"{Path(cmd[0]).name} failed: {first.strip()}")
    return result.stdout


_CONFIG_FUNC = re.compile(r"func\.func @(main_dispatch_\d+_\w+)\(\)")
_WORKGROUP_TILE = re.compile(r"lowering_config = #iree_\w+\.lowering_config<\{[^}]*?\bworkgroup = \[([\d, ]+)\]")
_INTRINSIC = re.compile(r"mma_kind = #iree_gpu\.\w+<(\w+)>")
_THREADS = re.compile(r"workgroup_size = \[([\d, ]+)\]")
_WORKLOAD = re.compile(r"_dispatch_\d+_[a-z_]+?_((?:\d+x)*\d+)_")
_DISPATCH_CALL = re.compile(r"@hal\.command_buffer\.dispatch\(%\w+, %\w+, %\w+, %c(\d+), %c(\d+), %c(\d+)")
_MAIN = re.compile(r"vm\.func private @main\(.*?\n(.*?)\n    \}", re.S)
_ALLOCA = re.compile(r"@hal\.device\.queue\.alloca\([^)]*%c(\d+), %zero\)")


def characterise(text: str, iree_compile: str, target: str, work: Path) -> Characterised:
    """Dispatches, tiles and per-call host work of `text` compiled for `target`."""
    found = Characterised()
    try:
        kinds = iree_dispatches(text, iree_compile, target=target)
    except HeirpyError as err:
        found.error = str(err)
        return found
    if target != "cuda":
        found.dispatches = [Dispatch("", kind) for kind in kinds]
        return found
    work.mkdir(parents=True, exist_ok=True)
    source, vm, configs = work / "input.mlir", work / "module.vm.mlir", work / "configs"
    shutil.rmtree(configs, ignore_errors=True)
    source.write_text(text)
    try:
        run([iree_compile, *TARGET_FLAGS[target], "--compile-to=vm",
             f"--iree-hal-dump-executable-configurations-to={configs}", str(source), "-o", str(vm)])
    except RuntimeError as err:
        found.error = str(err)
        return found
    for path in sorted(configs.glob("configured_*.mlir"), key=lambda p: int(re.findall(r"_(\d+)\.mlir$", p.name)[0])):
        body = path.read_text()
        name = _CONFIG_FUNC.search(body)
        label = name.group(1) if name else path.stem
        workload = _WORKLOAD.search(label + "_")
        tile = _WORKGROUP_TILE.search(body)
        intrinsic = _INTRINSIC.search(body)
        threads = _THREADS.search(body)
        found.dispatches.append(Dispatch(
            label, dispatch_kind(label), workload.group(1) if workload else "",
            "x".join(tile.group(1).replace(" ", "").split(",")) if tile else "",
            intrinsic.group(1) if intrinsic else "",
            _product(threads.group(1)) if threads else 0,
        ))
    vm_text = vm.read_text()
    counts = [int(x) * int(y) * int(z) for x, y, z in _DISPATCH_CALL.findall(vm_text)]
    for dispatch, count in zip(found.dispatches, counts):
        dispatch.workgroups = count
    main = _MAIN.search(vm_text)
    if main:
        found.allocations = [int(size) for size in _ALLOCA.findall(main.group(1))]
        found.submissions = main.group(1).count("@hal.device.queue.execute")
    return found


def _product(values: str) -> int:
    total = 1
    for value in values.split(","):
        total *= int(value)
    return total


# ----------------------------------------------------------------------------- parameters
_CONSTANT = re.compile(
    r'^(\s*)(%[\w#.$-]+) = arith\.constant (?:dense_resource<([^>]+)>|dense<"0x([0-9A-Fa-f]+)">) : (tensor<[^>]+>)\s*$',
    re.M,
)
_BLOB = re.compile(r'^\s*([^\s:]+):\s*"0x([0-9A-Fa-f]+)"', re.M)
_ELEMENT = re.compile(r"tensor<((?:\d+x)+)(\w+)>")


def parameterized(text: str) -> tuple[str, dict[str, dict[str, object]]]:
    """`text` with every constant of at least `PARAMETER_MINIMUM` bytes read from a parameter
    (`util.global ... = #flow.parameter.named<"model"::KEY>`, KEY the SHA-1 of its bytes, so the
    same weights have the same key in every variant), and each key's shape and element type.

    The prepared modules then carry code only; benchmarks/gpu/device.py generates the weights
    from the keys on the GPU machine (the repository and what a device run carries must stay
    under 64 MiB; the weights of all cases are 30 MB of modules)."""
    blobs = {name: data[8:] for name, data in _BLOB.findall(text)}  # the first 4 bytes: alignment
    params: dict[str, dict[str, object]] = {}
    globals_: list[str] = []

    def replace(match: re.Match[str]) -> str:
        indent, value, resource, hexdata, type_ = match.groups()
        data = blobs.get(resource, "") if resource else hexdata
        if len(data) // 2 < PARAMETER_MINIMUM:
            return match.group(0)
        key = hashlib.sha1(bytes.fromhex(data)).hexdigest()[:16]
        shape, element = _ELEMENT.match(type_).groups()  # type: ignore[union-attr]
        if key not in params:
            params[key] = {"shape": [int(d) for d in shape[:-1].split("x")], "dtype": element}
            globals_.append(f'  util.global private @p{key} = #flow.parameter.named<"model"::"{key}"> : {type_}')
        return f"{indent}{value} = util.global.load @p{key} : {type_}"

    body = _CONSTANT.sub(replace, text)
    start = re.search(r"^module[^\n]*\{\s*$", body, re.M)
    if start is None:
        raise HeirpyError("error: no module to add parameters to")
    body = body[: start.end()] + "\n" + "\n".join(globals_) + body[start.end():]
    return body, params


# ----------------------------------------------------------------------------- the device package
def signature(text: str) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """The entry function's argument and result tensors: shape and element type."""
    module = heirpy.parse(text)
    func = next(op for op in module.ops if getattr(op, "sym_name", None) is not None and op.name == "func.func")
    def spec(type_: object) -> dict[str, object]:
        shape, element = _ELEMENT.match(str(type_)).groups()  # type: ignore[union-attr]
        return {"shape": [int(d) for d in shape[:-1].split("x")], "dtype": element}
    ftype = func.function_type  # type: ignore[attr-defined]
    return [spec(t) for t in ftype.inputs.data], [spec(t) for t in ftype.outputs.data]


def runtime_tools_archive(out: Path) -> Path:
    """IREE's runtime command-line tools (from iree-base-runtime, 1.5 MB as tar.xz): what the
    GPU machine needs of IREE, where nothing can be installed."""
    import iree._runtime_libs as libs  # noqa: PLC0415 (iree-base-runtime, a benchmark requirement)

    directory = Path(libs.__file__).parent
    archive = out / "iree-tools.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        for tool in RUNTIME_TOOLS:
            tar.add(directory / tool, arcname=tool)
    return archive


DIAGNOSED = "yolo_head_k1 f16 b1"  # device.py looks into where this case's per-call time goes


def prepare_case(
    case: GpuCase, texts: dict[str, str], iree_compile: str, out: Path, device_flags: tuple[str, ...]
) -> dict[str, object]:
    """Compile `case`'s variants for the device run (`device_flags`: CUDA, or llvm-cpu to try the
    measurement without a GPU); returns its manifest entry."""
    modules = out / "modules"
    modules.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"\W+", "_", case.name)
    inputs, outputs = signature(texts["raw"])
    entry: dict[str, object] = {
        "name": case.name, "model": case.model, "dtype": case.dtype, "batch": case.batch,
        "inputs": inputs, "outputs": outputs, "variants": [], "params": {},
    }
    params: dict[str, dict[str, object]] = {}
    for variant, text in texts.items():
        body, keys = parameterized(text)
        params |= keys
        source = modules / f"{stem}_{variant.replace(' ', '_')}.mlir"
        source.write_text(body)
        vmfb = source.with_suffix(".vmfb")
        repeat = source.with_name(source.stem + f"_x{REPEAT}.vmfb")
        run([iree_compile, *device_flags, str(source), "-o", str(vmfb)])
        run([iree_compile, *device_flags, f"--iree-hal-benchmark-dispatch-repeat-count={REPEAT}",
             str(source), "-o", str(repeat)])
        found = {"name": variant, "vmfb": vmfb.relative_to(out).as_posix(), "repeat_vmfb": repeat.relative_to(out).as_posix()}
        if case.name == DIAGNOSED:  # the real weights inline too: do parameters change a call's cost?
            inline = source.with_name(source.stem + "_inline.vmfb")
            source.write_text(text)
            run([iree_compile, *device_flags, str(source), "-o", str(inline)])
            found["inline_vmfb"] = inline.relative_to(out).as_posix()
        entry["variants"].append(found)  # type: ignore[union-attr]
        if variant == "raw":
            cpu = source.with_name(source.stem + "_cpu.vmfb")
            source.write_text(body)
            run([iree_compile, *CPU_REFERENCE_FLAGS, str(source), "-o", str(cpu)])
            entry["reference"] = cpu.relative_to(out).as_posix()
        source.unlink()
    entry["params"] = params
    return entry


# ----------------------------------------------------------------------------- tables
def dispatch_cell(found: Characterised) -> str:
    if found.error:
        return found.error
    counts: dict[str, int] = {}
    for d in found.dispatches:
        counts[d.kind] = counts.get(d.kind, 0) + 1
    kinds = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in counts.items())
    return f"{len(found.dispatches)}: {kinds}"


def contraction_cells(found: Characterised) -> list[str]:
    """Workload, tile, intrinsic, threads x workgroups of the first contraction or conv
    dispatch (the P3 head's, for Detect; `+2` counts the others)."""
    roots = [d for d in found.dispatches if d.kind.startswith(("matmul", "conv", "batch_matmul"))]
    if not roots:
        return ["-", "-", "-"]
    first = roots[0]
    more = f" (+{len(roots) - 1})" if len(roots) > 1 else ""
    loops = first.workload.count("x") + 1
    tile = first.tile.split("x")
    tile = tile[: loops - 1] if len(tile) >= loops else tile  # the reduction loop's entry
    while len(tile) > 1 and tile[-1] == "0":  # reduction loops IREE does not tile per workgroup
        tile.pop()
    parallel = "x".join(tile)
    return [
        f"{first.workload}{more}",
        f"{parallel} ({first.intrinsic or 'SIMT'})",
        f"{first.threads} x {first.workgroups}",
    ]


def per_call_cell(found: Characterised) -> str:
    if not found.allocations and not found.submissions:
        return "-"
    sizes = " + ".join(f"{b / 1e6:.2f}" for b in found.allocations) or "0"
    return f"{len(found.allocations)} alloc ({sizes} MB), {found.submissions} submit"


DEVICE_LIMIT = 64 << 20  # what one device run may send: tracked files plus what it carries


def carried_archive(out: Path) -> str:
    """`out` as `out.tar.xz` (arcname `gpu`: what run_device.sh unpacks), and whether the
    repository's tracked files and it stay under the device run's 64 MiB."""
    archive = out.with_name(out.name + ".tar.xz")
    with tarfile.open(archive, "w:xz") as tar:
        tar.add(out, arcname="gpu")
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True).stdout  # what travels: tracked and untracked-not-ignored files
    tracked = sum((ROOT / name).stat().st_size for name in set(listed.decode().split("\0")) if name and (ROOT / name).is_file())
    total = tracked + archive.stat().st_size
    verdict = "fits" if total < DEVICE_LIMIT else "DOES NOT FIT: carry less or shrink the repository"
    return (f"{archive}: {archive.stat().st_size / 1e6:.1f} MB; with the repository's {tracked / 1e6:.1f} MB "
            f"{total / 2**20:.1f} MiB of the device run's 64 MiB: {verdict}")


def gpu_present() -> str | None:
    """Why timing cannot run here, or None when an NVIDIA GPU and IREE's CUDA driver answer."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return "no GPU on this machine (nvidia-smi not found)"
    result = subprocess.run([smi, "-L"], capture_output=True, text=True)
    if result.returncode != 0 or "GPU" not in result.stdout:
        return f"no GPU on this machine (nvidia-smi: {result.stderr.strip() or result.stdout.strip()})"
    return None


def main(
    target: str, only: list[str] | None, prepare_dir: str | None, keep: str | None, iree_compile: str,
    prepare_target: str = "cuda",
) -> int:
    from harness import markdown_table  # noqa: PLC0415 (benchmarks/)

    cases = gpu_cases(only)
    work_root = Path(keep) if keep else ROOT / "build" / "gpu-work"
    rows: list[list[str]] = []
    device_flags = TARGET_FLAGS[prepare_target] if prepare_target != "llvm-cpu" else CPU_REFERENCE_FLAGS
    manifest: dict[str, object] = {"repeat": REPEAT, "flags": list(device_flags), "cases": []}
    details: dict[str, dict[str, object]] = {}
    for case in cases:
        texts = {variant: variant_text(case, pipeline) for variant, pipeline in VARIANTS.items()}
        for variant, text in texts.items():
            work = work_root / re.sub(r"\W+", "_", f"{case.name} {variant}")
            found = characterise(text, iree_compile, target, work)
            details[f"{case.name} / {variant}"] = asdict(found)
            row = [case.name, variant, dispatch_cell(found)]
            if target == "cuda":
                row += [*contraction_cells(found), per_call_cell(found)]
            rows.append(row)
        if prepare_dir and target == "cuda":
            texts |= extra_forms(case)
            manifest["cases"].append(prepare_case(case, texts, iree_compile, Path(prepare_dir), device_flags))  # type: ignore[union-attr]
        print(f"done: {case.name}", file=sys.stderr, flush=True)

    header = ["case", "variant", "dispatches"]
    if target == "cuda":
        header += ["contraction (loops)", "workgroup tile", "threads x workgroups", "per call on the host"]
    print(f"iree-compile {' '.join(TARGET_FLAGS[target])}; heirpy: {VARIANTS['heirpy']}; "
          f"heirpy gpu: {VARIANTS['heirpy gpu']}")
    print(markdown_table(header, rows))
    (work_root).mkdir(parents=True, exist_ok=True)
    (work_root / "characterisation.json").write_text(json.dumps(details, indent=1))

    if prepare_dir and target == "cuda":
        out = Path(prepare_dir)
        runtime_tools_archive(out)
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
        if prepare_target == "cuda":
            bug = Path(__file__).resolve().parent / "iree_bugs" / "cuda_f16_head.py"
            run([sys.executable, str(bug), "--prepare", str(out / "bugs")])
        print(carried_archive(out), file=sys.stderr)
        print(f"prepared {len(cases)} cases in {out} for benchmarks/gpu/run_device.sh", file=sys.stderr)
    missing = gpu_present() if target == "cuda" else "ROCm: compile and dispatch counts only"
    if missing:
        print(f"\ntiming not taken: {missing}")
        return 0
    if not prepare_dir:
        print("\na GPU is here: run again with --prepare DIR to time every case (benchmarks/gpu/device.py)")
        return 0
    device = Path(__file__).resolve().parent / "gpu" / "device.py"
    return subprocess.run([sys.executable, str(device), prepare_dir, "--tools", str(Path(iree_compile).parent)]).returncode
