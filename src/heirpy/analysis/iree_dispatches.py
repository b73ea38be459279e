"""The dispatches IREE forms for a module: a real compiler's count of kernels.

heirpy's own kernel count (`heirpy.analysis.kernels`) is a model; what IREE keeps in one
dispatch is what users get. `iree_dispatches(text, tool)` runs

    iree-compile --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu
                 --iree-llvmcpu-target-cpu=host --compile-to=flow

(the CPU back end, stopping after dispatch formation, so it takes about a second; or
a GPU target, `target="cuda"` / `"rocm"`, which needs no GPU to compile) and
returns one kind per `flow.executable`: the suffix IREE gives each dispatch, e.g.
`matmul_like`, `conv`, `elementwise_transpose`, `slow_memcpy` (a copy, e.g. a pad).
iree-compile comes from the PyPI package `iree-base-compiler` (a test extra); the IR
must be standard MLIR, so lower heirpy's `tensor_ext` ops first (`lower-tensor-ext`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from heirpy.ir.diagnostics import HeirpyError

# heirpy's pipeline for IREE: the main pipeline's rewrites with a cost rule that never lets a
# fusion grow the multiply-accumulates per sample (`max-mac-growth=1`), then the lowering of
# heirpy's ops in the form IREE fuses. The main pipeline fuses for CKKS levels, which can
# cost MACs that IREE runs as written: a pool folded into the next 3x3 conv through its pad
# is a 6x6 stride-2 conv with 4x the conv's MACs (VGG: 10.2 M loop iterations raw, 17.1 M
# after the main pipeline, `heirpy.analysis.kernels.loop_points`), a MobileNetV2 projection
# composed with the next 1x1 conv 2.2x (its last one, 160 -> 1280 after 480 -> 160, was the
# dispatch that made the net 1.14x slower than raw), a global pool merged into the Linear a
# dense H*W-times-wider matmul. A plaintext back end pays MACs, not levels; under this rule
# a standalone pool also stays a pool (`linalg-canonicalizations`' pool -> conv form has a
# diagonal filter, C times the pool's work). On the whole networks of examples/ its output
# runs no more loop iterations than the raw IR (tests/unit/test_whole_networks_iree.py).
# Last, `unroll-depthwise-conv` writes each unit-stride depthwise conv as a sum of shifted
# slices: IREE compiles the named NCHW depthwise conv to scalar loops (MobileNetV2 ran 1.08x
# raw with it, the loss in those loops), the sum of slices vectorises (docs/iree.md).
IREE_PIPELINE = (
    "linalg-canonicalizations{max-mac-growth=1},linalg-fuse-ops{max-mac-growth=1},lower-tensor-ext,unroll-depthwise-conv"
)

COMPILE_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
)
# GPU targets compile without a GPU. IREE 3.13 knows no sm_90 target ("missing GPU
# target"): sm_80 code runs on Hopper through the driver's PTX compilation. gfx942 is
# the MI300, the MIGraphX-class GPU of the YOLO head's original report.
TARGET_FLAGS: dict[str, tuple[str, ...]] = {
    "llvm-cpu": COMPILE_FLAGS,
    "cuda": ("--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"),
    "rocm": ("--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"),
}
_EXPORT = re.compile(r"flow\.executable\.export\s+public\s+@(\w+)")
_NAME = re.compile(r"_dispatch_\d+_(\w+)$")
_SHAPE_OR_TYPE = re.compile(r"\d+(x\d+)*|[fiu]\d+|bf16")


def find_iree_compile() -> str | None:
    """iree-compile on PATH or beside the running Python (a venv's bin/), else None."""
    beside = Path(sys.executable).parent / "iree-compile"
    return shutil.which("iree-compile") or (str(beside) if beside.exists() else None)


def dispatch_kind(name: str) -> str:
    """`main_dispatch_1_elementwise_transpose_3x6400x85_f32` -> `elementwise_transpose`."""
    match = _NAME.search(name)
    if match is None:
        return name
    words: list[str] = []
    for word in match.group(1).split("_"):
        if _SHAPE_OR_TYPE.fullmatch(word):
            break
        words.append(word)
    return "_".join(words) or name


def iree_dispatches(
    text: str, iree_compile: str, *, timeout: float = 600, target: str = "llvm-cpu"
) -> list[str]:
    """The kinds of the dispatches iree-compile forms for the MLIR `text`, in order,
    compiling for `target` (a key of `TARGET_FLAGS`).

    Raises HeirpyError with iree-compile's first error line if it rejects the input,
    or if it runs longer than `timeout` seconds."""
    if target not in TARGET_FLAGS:
        raise HeirpyError(f"error: unknown IREE target '{target}' (known: {', '.join(TARGET_FLAGS)})")
    try:
        result = subprocess.run(
            [iree_compile, *TARGET_FLAGS[target], "--compile-to=flow", "-", "-o", "-"],
            input=text,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as err:
        raise HeirpyError(f"error: iree-compile timed out after {timeout:g} s") from err
    if result.returncode != 0:
        lines = result.stderr.splitlines()
        first = next((line for line in lines if "error:" in line), lines[0] if lines else "")
        raise HeirpyError(f"error: iree-compile failed: {first.strip()}")
    return [dispatch_kind(name) for name in _EXPORT.findall(result.stdout)]
