"""Half precision as PyTorch writes it (issue 26): f16 inputs, an f32 accumulator, truncf.

The evaluator computes f16 as f16: every f16 op rounds its result to f16 (numpy's half
ops compute in f32 and round once, as MLIR's lowering of a half op does), a conv or
matmul accumulates in its init's type (f32 for torch-mlir's half conv), `truncf` rounds
to nearest even. These tests pin each of those against a reference that would fail if
the evaluator widened a value silently or narrowed an accumulator, and the bundled f16
models against PyTorch's stored f16 outputs and the pipeline's kernel targets.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from heirpy.analysis.kernels import count_kernels, intermediate_bytes
from heirpy.api import run_pipeline
from heirpy.interp import load_file, load_module, run_function
from heirpy.interp.equivalence import ULPS_OF_SLACK, compare_arrays
from heirpy.interp.reference import load_npz

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HALF = np.float16


def run(ir: str, *inputs: np.ndarray) -> list[np.ndarray]:
    loaded = load_module(ir)
    return run_function(loaded.module, "main", list(inputs), resources=loaded.resources)


# ------------------------------------------------------------------ f16 ops round
SIGMOID_F16 = """
func.func @main(%x: tensor<4096xf16>) -> tensor<4096xf16> {
  %one = arith.constant dense<1.0> : tensor<4096xf16>
  %n = arith.negf %x : tensor<4096xf16>
  %e = math.exp %n : tensor<4096xf16>
  %d = arith.addf %e, %one : tensor<4096xf16>
  %r = arith.divf %one, %d : tensor<4096xf16>
  return %r : tensor<4096xf16>
}
"""


def test_each_f16_op_rounds_to_f16() -> None:
    """torch-mlir's half sigmoid is four f16 ops, each rounding; PyTorch computes the
    sigmoid in f32 and rounds once. The evaluator must give the first, bit for bit."""
    x = np.random.default_rng(0).normal(0, 3, 4096).astype(HALF)
    (got,) = run(SIGMOID_F16, x)
    assert got.dtype == HALF
    one = HALF(1)
    with np.errstate(over="ignore"):  # exp(11) is past f16's range: inf, as MLIR computes
        per_op = one / (np.exp(-x) + one)  # numpy's half ops: f32 inside, one rounding each
    assert per_op.dtype == HALF
    np.testing.assert_array_equal(got, per_op)
    once = (1 / (1 + np.exp(-x.astype(np.float32)))).astype(HALF)
    assert np.count_nonzero(got != once) > 0  # the two really differ on these inputs


def test_truncf_rounds_to_nearest_even_and_extf_is_exact() -> None:
    ir = """
    func.func @main(%x: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
      %t = arith.truncf %x : tensor<4xf32> to tensor<4xf16>
      %w = arith.extf %t : tensor<4xf16> to tensor<4xf32>
      return %t, %w : tensor<4xf16>, tensor<4xf32>
    }
    """
    # 1 + 2^-11 ties to 1 (even), 1 + 3 * 2^-11 ties to 1 + 2^-9 (even), 1e5 overflows.
    x = np.array([1 + 2**-11, 1 + 3 * 2**-11, -(1 + 2**-12), 1e5], dtype=np.float32)
    half, wide = run(ir, x)
    np.testing.assert_array_equal(half, np.array([1, 1 + 2**-9, -1, np.inf], dtype=HALF))
    np.testing.assert_array_equal(wide, half.astype(np.float32))


# ------------------------------------------------------------------ accumulation
CONV_F16_F32 = """
func.func @main(%x: tensor<1x2048x1x1xf16>, %w: tensor<1x2048x1x1xf16>) -> tensor<1x1x1x1x{acc}> {
  %zero = arith.constant 0.0 : {acc}
  %e = tensor.empty() : tensor<1x1x1x1x{acc}>
  %z = linalg.fill ins(%zero : {acc}) outs(%e : tensor<1x1x1x1x{acc}>) -> tensor<1x1x1x1x{acc}>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : tensor<1x2048x1x1xf16>, tensor<1x2048x1x1xf16>) outs(%z : tensor<1x1x1x1x{acc}>) -> tensor<1x1x1x1x{acc}>
  return %c : tensor<1x1x1x1x{acc}>
}
"""


def test_a_half_conv_accumulates_in_its_f32_init() -> None:
    """torch-mlir's half conv: f16 operands, f32 init. The sum of 2048 products must be
    the f32 one (within f32 rounding of the exact sum), far closer than any f16 sum."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2048, 1, 1)).astype(HALF)
    w = rng.standard_normal((1, 2048, 1, 1)).astype(HALF)
    (got,) = run(CONV_F16_F32.replace("{acc}", "f32"), x, w)
    assert got.dtype == np.float32
    exact = float(np.sum(x.astype(np.float64) * w.astype(np.float64)))
    assert abs(float(got.item()) - exact) <= 1e-5 * np.sum(np.abs(x.astype(np.float64) * w))
    (half,) = run(CONV_F16_F32.replace("{acc}", "f16"), x, w)
    assert half.dtype == HALF
    # An f16 init makes an f16 result: one rounding of a sum at least as precise as f32
    # (MLIR's loops would round every step; the evaluator documents the difference).
    assert half.item() == HALF(got.item())


# ------------------------------------------------------------------ comparisons
def test_f16_results_compare_to_within_a_few_ulps_not_finer() -> None:
    ulp = float(np.spacing(HALF(0.75)))  # 2^-11, the unit in the last place below 1
    a = np.full(8, 0.75, dtype=HALF)
    one_ulp = (a.astype(np.float32) + ulp).astype(HALF)
    assert compare_arrays(0, a, one_ulp, rtol=1e-4, atol=1e-5).ok
    far = (a.astype(np.float32) + 8 * ULPS_OF_SLACK * ulp).astype(HALF)
    assert not compare_arrays(0, a, far, rtol=1e-4, atol=1e-5).ok
    # f32 is not loosened: 1e-3 apart still fails at rtol 1e-4.
    b = np.full(8, 0.75, dtype=np.float32)
    assert not compare_arrays(0, b, b + 1e-3, rtol=1e-4, atol=1e-5).ok


# ------------------------------------------------------------------ the bundled f16 models
HALF_MODELS = {"yolo_head_k1_f16": 1, "yolo_head_k3_f16": 1, "yolov5s_detect_f16": 3}


@pytest.mark.parametrize("name", sorted(HALF_MODELS))
def test_half_models_fuse_as_fully_as_the_f32_ones(name: str) -> None:
    """One kernel per head, nothing materialised: the f16 bias's `extf` folds into a
    constant, so it no longer stands outside the kernel as a kernel of its own."""
    loaded = load_file(EXAMPLES / f"{name}.mlir")
    run_pipeline(loaded.module, "linalg-canonicalizations,linalg-fuse-ops")
    assert count_kernels(loaded.module) == HALF_MODELS[name]
    assert intermediate_bytes(loaded.module) == 0


@pytest.mark.parametrize("name", sorted(HALF_MODELS))
def test_half_models_store_pytorch_f16_tensors(name: str) -> None:
    arrays = load_npz(EXAMPLES / f"{name}.npz")
    assert arrays and all(array.dtype == HALF for array in arrays.values())
