"""lower-tensor-ext's fused_conv_pool lowering in pytest (its FileCheck file
tests/filecheck/transforms/lower-tensor-ext/lower.mlir, whose RUN lines mutmut cannot
see): on each case the lowered function computes what the fused op computes (the
evaluator runs both), and the form is the one each branch promises: a constant filter
and constant inits fold to constants, run-time ones are computed by a strided insert and
sum pools, a zero conv init adds no pool, a divisor divides once per term."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence

LOWER = Path(__file__).resolve().parents[1] / "filecheck" / "transforms" / "lower-tensor-ext" / "lower.mlir"


def chunk(name: str) -> str:
    for text in LOWER.read_text().split("// -----"):
        if f"func.func @{name}(" in text:
            return "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    raise AssertionError(f"no @{name} in {LOWER}")


def lowered(name: str, pipeline: str = "lower-tensor-ext") -> tuple[Counter[str], str]:
    before = parse(chunk(name))
    after = parse(chunk(name))
    run_pipeline(after, pipeline)
    report = check_equivalence(before, after, function=name, seeds=(0, 1))
    assert report.ok, report.summary()
    return Counter(op.name for op in after.walk()), print_module(after)


def test_constant_weights_and_inits_fold_to_constants() -> None:
    ops, text = lowered("constant_weights")
    assert ops["tensor_ext.fused_conv_pool"] == 0 and ops["linalg.conv_2d_nchw_fchw"] == 1
    assert ops["linalg.pooling_nchw_sum"] == 0 and ops["tensor.insert_slice"] == 0 and ops["linalg.generic"] == 0
    # the pooled bias divided by the window is the bias again: a broadcast of it
    assert ops["linalg.broadcast"] == 1 and "strides = dense<2> : vector<2xi64>" in text


def test_run_time_weights_and_inits_are_computed_by_pools_and_divides() -> None:
    ops, text = lowered("argument_weights")
    assert ops["tensor.insert_slice"] == 1  # the filter dilated into zeros
    assert ops["linalg.pooling_nchw_sum"] == 2  # the composed filter, the constant term
    assert ops["arith.divf"] == 2  # the divisor on each
    assert "strides = dense<[2, 4]> : vector<2xi64>" in text  # s*t per axis


def test_a_zero_conv_init_adds_no_pool() -> None:
    ops, _ = lowered("sum_zero_init")
    assert ops["linalg.pooling_nchw_sum"] == 1  # the run-time filter's only
    assert ops["arith.divf"] == 0  # a sum pool: no divisor


@pytest.mark.parametrize("name", ["constant_weights", "argument_weights", "sum_zero_init"])
def test_without_layout_ops_the_same_values(name: str) -> None:
    ops, _ = lowered(name, "lower-tensor-ext{layout-ops=false}")
    assert ops["tensor_ext.fused_conv_pool"] == 0


def test_constant_inits_that_vary_in_space_fold_to_a_dense_constant() -> None:
    import numpy as np

    blob = np.arange(36, dtype="<f4").tobytes().hex().upper()
    text = chunk("constant_weights").replace(
        "%ci = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e0 : tensor<2x2x3x3xf32>) dimensions = [0, 2, 3]",
        f'%ci = arith.constant dense<"0x{blob}"> : tensor<2x2x3x3xf32>',
    )
    before, after = parse(text), parse(text)
    run_pipeline(after, "lower-tensor-ext")
    report = check_equivalence(before, after, function="constant_weights", seeds=(0,))
    assert report.ok, report.summary()
    ops = Counter(op.name for op in after.walk())
    assert ops["tensor_ext.fused_conv_pool"] == 0 and ops["linalg.pooling_nchw_sum"] == 0
    assert ops["linalg.broadcast"] == 0 and ops["linalg.fill"] == 0  # neither splat nor per channel
    assert "tensor<2x2x1x1xf32>" in print_module(after)  # the folded term, a dense constant of the result type
