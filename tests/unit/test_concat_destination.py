"""Kernels that store their slice of a concatenation (YOLOv5 Detect in its export form).

Numerics: the fused, lowered and re-fused forms equal the original under the evaluator, on a
small three-head Detect and on the real YOLOv5s Detect against PyTorch's outputs. The kernel
analysis counts a store's destination as updated in place only when nothing else reads it.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from heirpy.analysis.kernels import analyze_module
from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp import load_file, run_function
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.reference import load_npz

ROOT = Path(__file__).resolve().parents[2]
SMALL = ROOT / "tests" / "filecheck" / "transforms" / "linalg-fuse-pointwise" / "concat_destination.mlir"
PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"


def _small_detect() -> str:
    """The FileCheck input without its comment lines."""
    return "\n".join(line for line in SMALL.read_text().splitlines() if not line.startswith("//"))


def _kernels_and_bytes(text: str) -> tuple[int, int]:
    (report,) = analyze_module(parse(text))
    return report.count, report.intermediate_bytes


def test_small_detect_stores_each_head_with_equal_values() -> None:
    text = _small_detect()
    fused = parse(text)
    run_pipeline(fused, PIPELINE)
    fused_text = print_module(fused)
    assert "tensor.concat" not in fused_text and fused_text.count("tensor.insert_slice") == 3
    lowered = parse(fused_text)
    run_pipeline(lowered, "lower-tensor-ext")
    refused = parse(print_module(lowered))
    run_pipeline(refused, PIPELINE)
    original = parse(text)
    for candidate in (fused, lowered, refused):
        report = check_equivalence(original, candidate, function="detect", seeds=(0, 1, 2))
        assert report.ok, report.summary()
    # Before: per head the bias broadcast, the conv, the transpose and the sigmoid each
    # materialise 15 x n x n floats for the next op (n = 4, 2, 1); the concat copies them all.
    assert _kernels_and_bytes(text) == (13, 4 * 4 * 15 * (16 + 4 + 1))
    assert _kernels_and_bytes(fused_text) == (3, 0)
    # Lowering and fusing again gives the same kernels, stores included.
    assert _kernels_and_bytes(print_module(refused)) == (3, 0)


def test_destination_read_elsewhere_is_an_intermediate() -> None:
    """A store's destination that another op also reads must be kept: not in place."""
    fused = parse(_small_detect())
    run_pipeline(fused, PIPELINE)
    text = print_module(fused)
    # Return the first kernel's result too: the second kernel's store can no longer reuse it.
    first = re.search(r"(%\w+) = tensor_ext.kernel", text)
    assert first is not None
    name = first.group(1)
    text = text.replace("-> tensor<1x63x5xf32> {\n  %one", "-> (tensor<1x63x5xf32>, tensor<1x63x5xf32>) {\n  %one", 1)
    text = re.sub(r"\breturn (%\w+) : tensor<1x63x5xf32>", rf"return \1, {name} : tensor<1x63x5xf32>, tensor<1x63x5xf32>", text)
    text = text.replace(") -> tensor<1x63x5xf32> {\n", ") -> (tensor<1x63x5xf32>, tensor<1x63x5xf32>) {\n", 1)
    count, intermediate = _kernels_and_bytes(text)
    assert count == 3
    assert intermediate == 4 * 63 * 5  # the first kernel's result, read by the second and returned


def test_yolov5s_detect_concat_lowered_equals_pytorch() -> None:
    """The real Detect layer (80/40/20), lowered to the insert_slice chain, has PyTorch's values
    (its kernel figures fused: tests/unit/test_example_targets.py)."""
    loaded = load_file(ROOT / "examples" / "yolov5s_detect_concat.mlir")
    run_pipeline(loaded.module, PIPELINE + ",lower-tensor-ext")
    data = load_npz(ROOT / "examples" / "yolov5s_detect_concat.npz")
    inputs, expected = [data[f"arg{i}"] for i in range(3)], data["result0"]
    (got,) = run_function(loaded.module, "main", inputs, resources=loaded.resources)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
