"""IREE's dispatches for the GPU targets, which compile without a GPU (issue 26).

`iree-compile --iree-hal-target-device=cuda --iree-cuda-target=sm_80` (and `hip` /
`gfx942`) stops after dispatch formation (`--compile-to=flow`, about a second). The raw
torch-mlir IR of the YOLO heads and the Detect layer, f32 and f16, against heirpy's
output (`lower-tensor-ext`, and `lower-tensor-ext{target=gpu}`): a change that loses the
one-dispatch form on a GPU target fails here, not only on a GPU. The f16 examples are
the 20x20 exports (the dispatch counts do not depend on the image size; bench_iree.py
compiles them at 80x80). iree-compile is a test extra: a missing tool fails, never skips.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from heirpy.analysis.iree_dispatches import find_iree_compile, iree_dispatches
from heirpy.api import parse, print_module, run_pipeline
from heirpy.ir.diagnostics import HeirpyError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FUSE = "linalg-canonicalizations,linalg-fuse-ops"
ONE_BY_ONE = ["matmul_like", "elementwise_transpose"]
THREE_BY_THREE = ["slow_memcpy", "conv", "elementwise_transpose"]


def _iree_compile() -> str:
    found = find_iree_compile()
    if found is None:
        pytest.fail("iree-compile not found: install the test extras (pip install -e '.[test]')")
    return found


def _heirpy(text: str, lowering: str) -> str:
    module = parse(text)
    run_pipeline(module, f"{FUSE},{lowering}")
    return print_module(module)


# (example, raw dispatches, heirpy's)
CASES = [
    ("yolo_head_k1", ONE_BY_ONE, ["matmul_like"]),
    ("yolo_head_k1_f16", ONE_BY_ONE, ["matmul_like"]),
    ("yolo_head_k3", THREE_BY_THREE, THREE_BY_THREE),
    ("yolo_head_k3_f16", THREE_BY_THREE, THREE_BY_THREE),
    ("yolov5s_detect", ONE_BY_ONE * 3, ["matmul_like"] * 3),
    ("yolov5s_detect_f16", ONE_BY_ONE * 3, ["matmul_like"] * 3),
]


@pytest.mark.parametrize(("name", "raw", "fused"), CASES, ids=[c[0] for c in CASES])
def test_cuda_dispatches_raw_and_heirpy(name: str, raw: list[str], fused: list[str]) -> None:
    text = (EXAMPLES / f"{name}.mlir").read_text()
    tool = _iree_compile()
    assert iree_dispatches(text, tool, target="cuda") == raw
    assert iree_dispatches(_heirpy(text, "lower-tensor-ext"), tool, target="cuda") == fused


@pytest.mark.parametrize("name", ["yolo_head_k1_f16", "yolo_head_k1", "yolov5s_detect_f16"])
def test_the_gpu_form_stays_one_dispatch_per_head(name: str) -> None:
    """`target=gpu` (the conv as a contraction generic, weights first) must not cost the
    fusion: IREE still puts the contraction and the epilogue in one dispatch."""
    text = (EXAMPLES / f"{name}.mlir").read_text()
    heads = 3 if "detect" in name else 1
    got = iree_dispatches(_heirpy(text, "lower-tensor-ext{target=gpu}"), _iree_compile(), target="cuda")
    assert got == ["matmul_like"] * heads


def test_rocm_dispatches_of_the_half_head() -> None:
    """gfx942 (MI300, the MIGraphX-class GPU of the original report) forms the same."""
    text = (EXAMPLES / "yolo_head_k1_f16.mlir").read_text()
    tool = _iree_compile()
    assert iree_dispatches(text, tool, target="rocm") == ONE_BY_ONE
    assert iree_dispatches(_heirpy(text, "lower-tensor-ext"), tool, target="rocm") == ["matmul_like"]


def test_an_unknown_target_is_a_one_line_error() -> None:
    with pytest.raises(HeirpyError, match=r"^error: unknown IREE target 'tpu'"):
        iree_dispatches("func.func @f() { return }", _iree_compile(), target="tpu")


def test_lower_tensor_ext_rejects_an_unknown_target() -> None:
    module = parse((EXAMPLES / "yolo_head_k1_f16.mlir").read_text())
    with pytest.raises(HeirpyError, match=r"lower-tensor-ext\{target=tpu\}: expected one of cpu, gpu"):
        run_pipeline(module, f"{FUSE},lower-tensor-ext{{target=tpu}}")
