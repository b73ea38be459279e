"""Attention's scale folded into an f16 projection rounds the weight once (issue 34:
"folding done in f32 and rounded to the storage type once").

`MoveScaleIntoProjection` (`linalg-fuse-linear-ops`) moves a uniform scale after `q kᵀ`
into the q columns of the qkv projection. It computes the scaled weight in float64 and
writes it in the weight's type; like every other fold it must leave the float64 value
with the constant reader (`remember_unrounded`), so that the next fold into the same
projection starts from it. Two scales in a row (`(q kᵀ) * 0.3 * 0.7`, both folded by
the same pattern) tell the two apart: the f16 weight must be `round(W * 0.3 * 0.7)`,
not `round(round(W * 0.3) * 0.7)`. f32 keeps its per-fold rounding (the reader
remembers only narrow floats), so the f32 twin is as before.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from heirpy.api import parse, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.linear.constant_folding import ConstantFolder

SOURCE = (Path(__file__).resolve().parents[1] / "filecheck" / "transforms" / "linalg-fuse-linear-ops"
          / "attention_scale.mlir").read_text()
SECOND_SCALE = """  %ss2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<2x4x4xf32>) outs(%e4 : tensor<2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v2 = arith.mulf %in, %c2 : f32
    linalg.yield %v2 : f32
  } -> tensor<2x4x4xf32>
"""
PIPELINE = "linalg-fuse-linear-ops{bias-into-init=false}"
C1, C2 = 0.3, 0.7


def two_scales(dtype: str) -> str:
    """attention_scale.mlir's first function with a second uniform scale, in `dtype`."""
    fn = SOURCE[SOURCE.index("func.func @attention_scale("):SOURCE.index("// CHECK-LABEL: func.func @attention_scale(")]
    fn = fn.replace("%c = arith.constant 0.5 : f32", f"%c = arith.constant {C1} : f32\n  %c2 = arith.constant {C2} : f32")
    end = fn.index("  %e5 = tensor.empty()")
    fn = fn[:end] + SECOND_SCALE + fn[end:]
    fn = fn.replace("ins(%ss, %v :", "ins(%ss2, %v :")
    return fn.replace("f32", dtype)


def rounded(values: np.ndarray, dtype: str) -> np.ndarray:
    return np.asarray(values, np.float64).astype(np.dtype({"f16": np.float16, "f32": np.float32}[dtype])).astype(
        np.float64)


def projection_weight(ir: str) -> np.ndarray:
    module = parse(ir, "scale_fold.mlir")
    run_pipeline(module, PIPELINE)
    matmuls = [op for op in module.walk() if op.name == "linalg.matmul"]
    assert len(matmuls) == 1
    assert not any(op.name == "linalg.generic" for op in module.walk())  # the bias and both scales folded
    weight = ConstantFolder().fold(matmuls[0].operands[1])
    assert weight is not None
    return weight.astype(np.float64)


def expected(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """(rounded once, rounded after each scale) for the projection's 6x18 weight."""
    literal = re.search(r"dense<(\[\[.*?\]\])> : tensor<18x6xf32>", SOURCE, re.S)
    assert literal is not None
    w = rounded(np.array(eval(literal.group(1)), np.float64), dtype).T  # noqa: S307 (a test literal)
    c1, c2 = rounded(np.array(C1), dtype), rounded(np.array(C2), dtype)
    q = np.arange(18) < 6  # q is the first 6 columns (2 heads of width 3)
    once = rounded(w * np.where(q, c1 * c2, 1.0), dtype)
    twice = rounded(rounded(w * np.where(q, c1, 1.0), dtype) * np.where(q, c2, 1.0), dtype)
    return once, twice


def test_f16_scale_folds_round_the_weight_once() -> None:
    once, twice = expected("f16")
    assert np.count_nonzero(once != twice) > 0  # the inputs tell the two apart
    np.testing.assert_array_equal(projection_weight(two_scales("f16")), once)


def test_f32_keeps_its_per_fold_rounding() -> None:
    _, twice = expected("f32")
    np.testing.assert_array_equal(projection_weight(two_scales("f32")), twice)


@pytest.mark.parametrize("dtype", ["f16", "f32"])
def test_the_folded_attention_computes_what_the_input_does(dtype: str) -> None:
    ir = two_scales(dtype)
    fused = parse(ir, "scale_fold.mlir")
    run_pipeline(fused, PIPELINE)
    report = check_equivalence(parse(ir, "scale_fold.mlir"), fused, function="attention_scale", seeds=(0, 1))
    assert report.ok, report.summary()
