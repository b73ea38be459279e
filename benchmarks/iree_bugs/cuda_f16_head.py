"""IREE 3.13's CUDA back end computes the raw f16 YOLO head wrong (issue 26): a reproducer.

    python benchmarks/iree_bugs/cuda_f16_head.py --prepare DIR          (needs iree-compile, heirpy)
    python3 benchmarks/iree_bugs/cuda_f16_head.py --run DIR [--tools BIN]  (needs a GPU, numpy, IREE's
                                                                          runtime tools; no heirpy)

The raw torch-mlir IR of the f16 1x1 head (examples/yolo_head_k1_f16.mlir at 80x80, its real
weights) compiles for CUDA sm_80 to two dispatches: a 255x6400x128 f16 GEMM accumulating in f32
(tensor-core tiles of 64x64, 255 padded to 256) and one elementwise dispatch doing the bias,
truncf, transpose and sigmoid. On an H200 (issue 26) 48% of its outputs were off by more than
1e-2 (max 0.77) against IREE's own CPU output, with `layout-ops=false` too (the same GEMM
dispatch), while heirpy's one-dispatch form was right. To tell which dispatch is wrong, `--prepare`
also cuts the raw function in two:

  gemm    the conv with its bias init, returning the f32 conv result (the GEMM dispatch alone,
          plus IREE's split-off bias add)
  tail    the f32 conv result as an argument -> truncf -> expand_shape -> transpose -> sigmoid
          (the elementwise dispatch alone)
  raw     the whole function
  heirpy  heirpy's output (`linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext`): the control

`--run` runs each on the GPU and on the CPU (the same module compiled for llvm-cpu, same inputs)
and prints, per module, the share of values that differ by more than heirpy's comparisons allow
(1e-5 + 1e-4 |x| for f32, 3.9e-3 (1 + |x|) for f16: 4 units in the last place) and the largest
difference. Nothing here is timed. Read in the PTX without a GPU (2026-12-04):
the elementwise dispatch's indexing is right (block ids delinearised in 16 bits, 51000 blocks,
within range); the GEMM is the suspect until `--run` says otherwise.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
CUDA = ("--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80")
CPU = ("--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
       "--iree-llvmcpu-target-cpu=x86-64-v3")
ULPS = 4


def split_raw(raw: str) -> dict[str, str]:
    """The raw function, its conv half (`gemm`) and its elementwise half (`tail`)."""
    conv = re.search(r"^(\s*)(%\w+) = linalg\.conv_2d_nchw_fchw .*-> (tensor<[^>]+>)\s*$", raw, re.M)
    signature = re.search(r"func\.func @main\((%\w+): (tensor<[^>]+>)\) -> (tensor<[^>]+>) \{", raw)
    ret = re.search(r"^(\s*)return (%\w+) : (tensor<[^>]+>)\s*$", raw, re.M)
    if conv is None or signature is None or ret is None:
        sys.exit("error: the raw head does not have the expected conv / signature / return")
    value, conv_type = conv.group(2), conv.group(3)
    gemm = raw[: ret.start()] + f"{ret.group(1)}return {value} : {conv_type}\n" + raw[ret.end() + 1:]
    gemm = gemm.replace(f") -> {signature.group(3)} {{", f") -> {conv_type} {{", 1)
    # tail: the conv result is the argument; keep the scalar constants the epilogue uses.
    head, body = raw[: signature.end()], raw[signature.end(): conv.start()]
    scalars = [line for line in body.splitlines() if re.search(r"= arith\.constant [-\d.e+]+ : f\d+$", line)]
    tail = (
        head.replace(f"@main({signature.group(1)}: {signature.group(2)})", f"@main({value}: {conv_type})")
        + "\n" + "\n".join(scalars) + raw[conv.end():]
    )
    return {"raw": raw, "gemm": gemm, "tail": tail}


def prepare(out: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import heirpy  # noqa: PLC0415
    from iree_gpu import gpu_cases  # noqa: PLC0415

    iree_compile = shutil.which("iree-compile") or str(Path(sys.executable).parent / "iree-compile")
    raw = gpu_cases(["yolo_head_k1", "f16", "b1"])[0].text
    module = heirpy.parse(raw)
    heirpy.run_pipeline(module, "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext")
    texts = split_raw(raw) | {"heirpy": heirpy.print_module(module)}
    out.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for name, text in texts.items():
        heirpy.parse(text, name)  # each piece must be valid IR before IREE sees it
        source = out / f"{name}.mlir"
        source.write_text(text)
        for device, flags in (("cuda", CUDA), ("cpu", CPU)):
            subprocess.run([iree_compile, *flags, str(source), "-o", str(out / f"{name}_{device}.vmfb")], check=True)
        signature = re.search(r"func\.func @main\(%\w+: tensor<((?:\d+x)+)(\w+)>\)", text)
        assert signature is not None
        manifest[name] = {"input": [int(d) for d in signature.group(1)[:-1].split("x")], "dtype": signature.group(2)}
        source.unlink()
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    print(f"prepared {', '.join(manifest)} in {out}")


def execute(tools: Path | None, device: str, vmfb: Path, arg: Path, out: Path) -> np.ndarray | str:
    runner = str(tools / "iree-run-module") if tools else (shutil.which("iree-run-module") or "iree-run-module")
    result = subprocess.run([runner, f"--device={device}", f"--module={vmfb}", "--function=main",
                             f"--input=@{arg}", f"--output=@{out}"], capture_output=True, text=True)
    if result.returncode != 0:
        return (result.stderr.strip().splitlines() or ["failed"])[-1][:160]
    return np.load(out)


def run_all(pkg: Path, tools: Path | None, work: Path) -> int:
    manifest = json.loads((pkg / "manifest.json").read_text())
    work.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    print("| module | on the GPU vs on the CPU |\n|---|---|")
    wrong = 0
    for name, spec in manifest.items():
        arg = work / f"{name}_in.npy"
        dtype = np.float16 if spec["dtype"] == "f16" else np.float32
        np.save(arg, rng.standard_normal(spec["input"]).astype(dtype))
        gpu = execute(tools, "cuda", pkg / f"{name}_cuda.vmfb", arg, work / f"{name}_gpu.npy")
        cpu = execute(tools, "local-task", pkg / f"{name}_cpu.vmfb", arg, work / f"{name}_cpu.npy")
        if isinstance(gpu, str) or isinstance(cpu, str):
            print(f"| {name} | did not run: {gpu if isinstance(gpu, str) else cpu} |")
            continue
        # heirpy's comparison: atol + rtol * |cpu|, at least 1e-5 / 1e-4 (an f32 sum of 128
        # products in another order) and at least 4 ulps of the result type (f16)
        eps = float(np.finfo(cpu.dtype).eps)
        diff = np.abs(gpu.astype(np.float64) - cpu.astype(np.float64))
        tol = max(1e-5, ULPS * eps) + max(1e-4, ULPS * eps) * np.abs(cpu.astype(np.float64))
        share = float(np.mean(diff > tol))
        wrong += share > 0
        print(f"| {name} | {100 * share:.1f}% of {diff.size} values off, max {float(diff.max()):.3g} |")
    return 1 if wrong else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--prepare", type=Path)
    group.add_argument("--run", type=Path)
    parser.add_argument("--tools", type=Path, default=None)
    parser.add_argument("--work", type=Path, default=Path("/tmp/heirpy-iree-bug"))
    args = parser.parse_args()
    if args.prepare:
        prepare(args.prepare)
        return 0
    return run_all(args.run, args.tools, args.work)


if __name__ == "__main__":
    sys.exit(main())
