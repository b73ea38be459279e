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
