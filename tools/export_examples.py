"""Regenerate the example models in examples/ from PyTorch.

Needs (none of these is a dependency of heirpy or its tests; the exported files are committed):
    torch==2.13.0 (the CPU wheel)
    torch-mlir (nightly 20261001; provides torch_mlir.fx and MLIR's Python bindings and JIT)
    iree-base-compiler==3.13.0 (provides the iree-import-onnx and iree-opt executables)
    onnx (read by iree-import-onnx; the legacy TorchScript exporter needs no onnxscript)

Run from anywhere:
    /work/genvenv/bin/python tools/export_examples.py [--out DIR] [--no-verify]

Every model is built in eval mode right after torch.manual_seed(0), and its input is the next draw of
torch.randn from that same generator, so reruns with the same torch version write the same files.
For each model this writes <name>.mlir (linalg-on-tensors, as the front end printed it) and <name>.npz
(inputs arg0.., PyTorch's outputs result0.., float32). Unless --no-verify is given, every written .mlir
is then compiled with MLIR's own JIT (through torch-mlir's bindings) and its output compared with the
.npz, which checks the ONNX route and the dense_resource rewrite, not only the torch-mlir export.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch_mlir import fx, ir, passmanager
from torch_mlir.execution_engine import ExecutionEngine
from torch_mlir.runtime import (
    get_ranked_memref_descriptor,
    make_nd_memref_descriptor,
    ranked_memref_to_numpy,
)

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # iree-import-onnx / iree-opt live next to the venv's python
ALLOWED_DIALECTS = {"builtin", "func", "arith", "math", "tensor", "linalg"}
SEED = 0
ONNX_OPSET = 17


# --------------------------------------------------------------------------------------------- models
class Square(nn.Module):
    """x * x, the polynomial activation of encrypted-inference nets."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * x


def tiny_cnn() -> nn.Module:
    # 1x1x8x8 -> conv 1x2x8x8 -> pool 1x2x4x4 -> conv 1x4x4x4 -> pool 1x4x2x2 -> 16 -> 10
    return nn.Sequential(
        nn.Conv2d(1, 2, 3, padding=1),
        nn.AvgPool2d(2),
        Square(),
        nn.Conv2d(2, 4, 3, padding=1),
        nn.AvgPool2d(2),
        nn.Flatten(),
        nn.Linear(16, 10),
    )


def alexnet_tiny() -> nn.Module:
    # 1x3x16x16 -> 1x4x8x8 -> 1x8x4x4 -> 1x16x2x2 -> 64 -> 10
    return nn.Sequential(
        nn.Conv2d(3, 4, 3, padding=1),
        nn.AvgPool2d(2),
        Square(),
        nn.Conv2d(4, 8, 3, padding=1),
        nn.AvgPool2d(2),
        Square(),
        nn.Conv2d(8, 16, 3, padding=1),
        nn.AdaptiveAvgPool2d(2),
        Square(),
        nn.Flatten(),
        nn.Linear(64, 10),
    )


class YoloHead(nn.Module):
    """One YOLOv5s Detect level: 3 anchors x (80 classes + 5) channels, then sigmoid."""

    def __init__(self, k: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(128, 255, k, padding=k // 2, bias=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x).view(1, 3, 85, 80, 80).permute(0, 1, 3, 4, 2)
        return torch.sigmoid(y)


MODELS: dict[str, tuple[Callable[[], nn.Module], tuple[int, ...]]] = {
    "tiny_cnn": (tiny_cnn, (1, 1, 8, 8)),
    "alexnet_tiny": (alexnet_tiny, (1, 3, 16, 16)),
    "yolo_head_k1": (lambda: YoloHead(1), (1, 128, 80, 80)),
    "yolo_head_k3": (lambda: YoloHead(3), (1, 128, 80, 80)),
}


def build(name: str) -> tuple[nn.Module, torch.Tensor]:
    factory, shape = MODELS[name]
    torch.manual_seed(SEED)
    model = factory().eval()
    x = torch.randn(shape)
    return model, x


def save_npz(path: Path, inputs: list[torch.Tensor], outputs: list[torch.Tensor]) -> None:
    arrays = {f"arg{i}": t.detach().numpy().astype(np.float32) for i, t in enumerate(inputs)}
    arrays |= {f"result{i}": t.detach().numpy().astype(np.float32) for i, t in enumerate(outputs)}
    np.savez_compressed(path, **arrays)


def write_text(path: Path, text: str) -> None:
    path.write_text(text.rstrip() + "\n")


# ---------------------------------------------------------------------------------------- front ends
def export_torch_mlir(model: nn.Module, x: torch.Tensor) -> str:
    module = fx.export_and_import(model, x, output_type="linalg-on-tensors")
    return str(module)


def export_onnx_route(model: nn.Module, x: torch.Tensor) -> str:
    """PyTorch -> ONNX (legacy exporter) -> torch dialect (iree-import-onnx) -> linalg (iree-opt).

    convert-torch-onnx-to-torch turns the generic `torch.operator "onnx.*"` ops into torch ops; the
    two torch-mlir pipelines then reach the linalg-on-tensors backend contract. With
    iree-base-compiler 3.13.0 that output needs no clean-up: the `torch.onnx_meta.*` function
    attributes are dropped by the backend type conversion, no util/flow/hal op appears (those come
    only from IREE's own input pipeline, which is not run), and the onnx `dense_resource` weights come
    out as plain `dense<...>` constants. check_dialects() below fails loudly if a future version
    leaks anything else, rather than silently stripping it here.
    """
    with tempfile.TemporaryDirectory() as tmp:
        onnx_path = Path(tmp) / "model.onnx"
        torch_path = Path(tmp) / "model.torch.mlir"
        linalg_path = Path(tmp) / "model.linalg.mlir"
        torch.onnx.export(
            model,
            (x,),
            str(onnx_path),
            dynamo=False,
            opset_version=ONNX_OPSET,
            input_names=["input"],
            output_names=["output"],
        )
        run([str(BIN / "iree-import-onnx"), str(onnx_path), "-o", str(torch_path)])
        pipeline = (
            "builtin.module("
            "func.func(convert-torch-onnx-to-torch),"
            "torch-onnx-to-torch-backend-pipeline,"
            "torch-backend-to-linalg-on-tensors-backend-pipeline)"
        )
        run([str(BIN / "iree-opt"), str(torch_path), f"--pass-pipeline={pipeline}", "-o", str(linalg_path)])
        return linalg_path.read_text()


def run(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd)} failed:\n{proc.stderr}")


# ---------------------------------------------------------------------------------- resource -> dense
_RESOURCE_SECTION = re.compile(r"\n*\{-#.*?#-\}\s*", re.S)
_RESOURCE_ENTRY = re.compile(r'^\s*([^\s:]+):\s*"0x([0-9A-Fa-f]*)"', re.M)


def inline_dense_resources(text: str) -> str:
    """Rewrite every `dense_resource<name>` as `dense<"0x...">` and drop the `{-# ... #-}` section.

    A builtin resource blob is printed as hex whose first 4 bytes are the blob's alignment
    (little-endian u32, 4 for f32 from torch-mlir), not data; the rest is the raw little-endian
    element bytes, which is exactly what the hex form of a dense attribute holds.
    """
    section = _RESOURCE_SECTION.search(text)
    if section is None:
        raise SystemExit("error: no dialect_resources section to inline")
    blobs = {name: data[8:] for name, data in _RESOURCE_ENTRY.findall(section.group(0))}
    body = text[: section.start()] + text[section.end() :]

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in blobs:
            raise SystemExit(f"error: dense_resource<{name}> has no blob")
        return f'dense<"0x{blobs[name]}">'

    body = re.sub(r"dense_resource<([^>]+)>", replace, body)
    return body.rstrip() + "\n"


# ------------------------------------------------------------------------------------------- checks
def op_inventory(text: str) -> collections.Counter[str]:
    """Ops as they appear in the text: the implicit bodies of named linalg ops are not counted."""
    counts: collections.Counter[str] = collections.Counter()
    with ir.Context():
        module = ir.Module.parse(text)

        def visit(op: ir.Operation) -> ir.WalkResult:
            counts[op.name] += 1
            named_linalg = op.name.startswith("linalg.") and op.name != "linalg.generic"
            return ir.WalkResult.SKIP if named_linalg else ir.WalkResult.ADVANCE

        module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return counts


def check_dialects(name: str, counts: collections.Counter[str]) -> None:
    bad = sorted(op for op in counts if op.split(".")[0] not in ALLOWED_DIALECTS)
    if bad:
        raise SystemExit(f"error: {name}: ops outside {sorted(ALLOWED_DIALECTS)}: {bad}")


# MLIR's JIT, lowered the plain upstream way; only the verification uses it.
_JIT_PIPELINE = (
    "builtin.module("
    "func.func(linalg-generalize-named-ops,linalg-fuse-elementwise-ops),"
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,"
    "func.func(arith-expand),convert-math-to-llvm,convert-math-to-libm,expand-strided-metadata,"
    "finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,"
    "reconcile-unrealized-casts)"
)


class _UnrankedMemRef(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("descriptor", ctypes.c_void_p)]


def _strided_view(memref: _UnrankedMemRef, elem_size: int) -> np.ndarray:
    rank = memref.rank
    words = (ctypes.c_int64 * (3 + 2 * rank)).from_address(memref.descriptor)
    aligned, offset = words[1], words[2]
    sizes = tuple(words[3 : 3 + rank])
    strides = tuple(words[3 + rank : 3 + 2 * rank])
    span = 1 + sum((n - 1) * s for n, s in zip(sizes, strides)) if all(sizes) else 0
    raw = (ctypes.c_char * (span * elem_size)).from_address(aligned + offset * elem_size)
    flat = np.frombuffer(raw, dtype=np.dtype(f"V{elem_size}"))
    return np.lib.stride_tricks.as_strided(flat, sizes, tuple(s * elem_size for s in strides))


# The strided memref.copy of tensor.pad lowers to a call of `memrefCopy` from libmlir_c_runner_utils,
# which the torch-mlir wheel does not ship; this is that function.
@ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.POINTER(_UnrankedMemRef), ctypes.POINTER(_UnrankedMemRef))
def _memref_copy(elem_size: int, src: ctypes._Pointer, dst: ctypes._Pointer) -> None:
    _strided_view(dst.contents, elem_size)[...] = _strided_view(src.contents, elem_size)


def run_with_jit(text: str, inputs: list[np.ndarray]) -> np.ndarray:
    with ir.Context():
        module = ir.Module.parse(text)
        funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
        if len(funcs) != 1:
            raise SystemExit("error: expected exactly one function")
        funcs[0].attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        fn_name = ir.StringAttr(funcs[0].attributes["sym_name"]).value
        result_type = ir.RankedTensorType(funcs[0].type.results[0])
        passmanager.PassManager.parse(_JIT_PIPELINE).run(module.operation)
        engine = ExecutionEngine(module, opt_level=2)
        engine.raw_register_runtime("memrefCopy", ctypes.cast(_memref_copy, ctypes.c_void_p))
        # The C interface returns a memref result through a pointer passed first.
        out = make_nd_memref_descriptor(result_type.rank, ctypes.c_float)()
        descriptors = [get_ranked_memref_descriptor(np.ascontiguousarray(a)) for a in inputs]
        engine.invoke(
            fn_name,
            ctypes.pointer(ctypes.pointer(out)),
            *[ctypes.pointer(ctypes.pointer(d)) for d in descriptors],
        )
        return np.array(ranked_memref_to_numpy(ctypes.pointer(out)), copy=True)


def verify(path: Path, npz_path: Path) -> float:
    data = np.load(npz_path)
    inputs = [data[f"arg{i}"] for i in range(sum(k.startswith("arg") for k in data.files))]
    expected = data["result0"]
    got = run_with_jit(path.read_text(), inputs)
    err = float(np.max(np.abs(got - expected)))
    if got.shape != expected.shape or not np.allclose(got, expected, rtol=1e-4, atol=1e-5):
        raise SystemExit(f"error: {path.name}: JIT result differs from PyTorch (max abs err {err})")
    return err


# --------------------------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "examples")
    parser.add_argument("--no-verify", action="store_true", help="skip the MLIR JIT comparison")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    written: dict[str, str] = {}
    for name in MODELS:
        model, x = build(name)
        with torch.no_grad():
            y = model(x)
        written[name] = export_torch_mlir(model, x)
        save_npz(out / f"{name}.npz", [x], [y])
        print(f"exported {name}: input {tuple(x.shape)} -> output {tuple(y.shape)}")

    model, x = build("tiny_cnn")
    with torch.no_grad():
        y = model(x)
    written["tiny_cnn_onnx"] = export_onnx_route(model, x)
    written["tiny_cnn_dense"] = inline_dense_resources(written["tiny_cnn"])
    for variant in ("tiny_cnn_onnx", "tiny_cnn_dense"):
        save_npz(out / f"{variant}.npz", [x], [y])

    for name, text in written.items():
        path = out / f"{name}.mlir"
        write_text(path, text)
        counts = op_inventory(text)
        check_dialects(name, counts)
        summary = ", ".join(f"{op} x{n}" for op, n in sorted(counts.items()))
        line = f"{path.name}: {summary}"
        if not args.no_verify:
            line += f"\n  JIT vs PyTorch max abs err {verify(path, out / f'{name}.npz'):.2e}"
        print(line)


if __name__ == "__main__":
    main()
