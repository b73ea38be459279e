"""Tests for heirpy.analysis.kernels and for tensor_ext.kernel (evaluator, lowering).

Kernels formed by linalg-fuse-pointwise must compute what the ops they replace did:
checked with the evaluator on small heads of the YOLO structure (1x1 and 3x3 conv,
batch 1 and 2, a fused_conv_pool root, a matmul root), before, after and lowered.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import Float16Type, Float32Type, IndexType, IntegerType, TensorType, f32

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from filecheck_chunks import chunks  # noqa: E402
from heirpy.analysis.kernels import (
    analyze_module,
    constant_bytes,
    count_kernels,
    format_kernel_table,
    intermediate_bytes,
    loop_points,
)
from heirpy.api import parse, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_module
from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.utils import element_bytes, tensor_bytes

ROOT = Path(__file__).resolve().parents[2]
SEEDS = (0, 1, 2)


def test_element_and_tensor_bytes() -> None:
    assert element_bytes(Float32Type()) == 4
    assert element_bytes(Float16Type()) == 2
    assert element_bytes(IntegerType(1)) == 1
    assert element_bytes(IndexType()) == 8
    assert tensor_bytes(TensorType(f32, [1, 255, 80, 80])) == 6_528_000
    assert tensor_bytes(TensorType(f32, [-1, 4])) is None


def test_constant_bytes_counts_stored_data_and_a_splat_as_one_element() -> None:
    module = parse(
        """
func.func @f() -> (tensor<2x3xf32>, tensor<64x288xf32>, tensor<4xf16>, f32) {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<1.5> : tensor<64x288xf32>
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf16>
  %d = arith.constant 2.0 : f32
  return %a, %b, %c, %d : tensor<2x3xf32>, tensor<64x288xf32>, tensor<4xf16>, f32
}
"""
    )
    # 6 floats + one splat float + 4 halves; scalars carry no tensor data.
    assert constant_bytes(module) == 6 * 4 + 4 + 4 * 2


_VIEWS_AND_MOVES = """
func.func @f(%x: tensor<4x6xf32>) -> (tensor<24xf32>, tensor<26xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e0 : tensor<4x6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = math.exp %p : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %p = tensor.pad %c low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<24xf32> to tensor<26xf32>
  return %c, %p : tensor<24xf32>, tensor<26xf32>
}
"""


def test_views_do_not_count_and_data_moves_do() -> None:
    (report,) = analyze_module(parse(_VIEWS_AND_MOVES))
    # generic + pad; collapse_shape is a view, empty/constant are no kernels.
    assert report.kernels == ("linalg.generic", "tensor.pad")
    # The generic's 96 bytes are read by the pad through the view; the pad's result
    # only goes to func.return and is not intermediate.
    assert report.intermediate_bytes == 96
    assert "@f  " in format_kernel_table([report])



def test_loop_points_count_macs_window_reads_and_elements() -> None:
    module = parse(
        """
        func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
          %zero = arith.constant 0.0 : f32
          %e = tensor.empty() : tensor<1x4x6x6xf32>
          %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
          %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%z : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
          %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x6x6xf32>) dimensions = [0, 2, 3]
          %s = linalg.add ins(%c, %bb : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
          %pe = tensor.empty() : tensor<1x4x3x3xf32>
          %pz = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
          %win = tensor.empty() : tensor<2x2xf32>
          %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%s, %win : tensor<1x4x6x6xf32>, tensor<2x2xf32>) outs(%pz : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
          return %p : tensor<1x4x3x3xf32>
        }
        """
    )
    fills, conv, elementwise, pool = 144 + 36, 144 * 27, 2 * 144, 36 * 4
    assert loop_points(module) == fills + conv + elementwise + pool
    dynamic = parse(
        """
        func.func @g(%x: tensor<?xf32>) -> tensor<?xf32> {
          %y = linalg.add ins(%x, %x : tensor<?xf32>, tensor<?xf32>) outs(%x : tensor<?xf32>) -> tensor<?xf32>
          return %y : tensor<?xf32>
        }
        """
    )
    with pytest.raises(HeirpyError, match="dynamic loop bound"):
        loop_points(dynamic)

def test_tensor_arith_counts_and_scalar_arith_does_not() -> None:
    module = parse(
        """
        func.func @g(%x: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, f32) {
          %y = arith.addf %x, %x : tensor<4xf32>
          %t = arith.addf %s, %s : f32
          return %y, %t : tensor<4xf32>, f32
        }
        """
    )
    assert count_kernels(module) == 1 and intermediate_bytes(module) == 0


# ------------------------------------------------------------------ small heads


def _head(batch: int, k: int, channels: int = 3, classes: int = 5, size: int = 4) -> str:
    """The YOLO head's structure at toy size: conv + bias -> expand -> transpose -> sigmoid."""
    f = 3 * classes
    pad = (k - 1) // 2
    padded = size + 2 * pad
    x = f"tensor<{batch}x{channels}x{size}x{size}xf32>"
    xp = f"tensor<{batch}x{channels}x{padded}x{padded}xf32>"
    conv = f"tensor<{batch}x{f}x{size}x{size}xf32>"
    expanded = f"tensor<{batch}x3x{classes}x{size}x{size}xf32>"
    out = f"tensor<{batch}x3x{size}x{size}x{classes}xf32>"
    pad_ops = (
        f"""%xp = tensor.pad %x low[0, 0, {pad}, {pad}] high[0, 0, {pad}, {pad}] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  }} : {x} to {xp}"""
        if pad
        else ""
    )
    xin = "%xp" if pad else "%x"
    return f"""
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @main(%x: {x}, %w: tensor<{f}x{channels}x{k}x{k}xf32>, %b: tensor<{f}xf32>) -> {out} {{
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  {pad_ops}
  %e0 = tensor.empty() : {conv}
  %bb = linalg.broadcast ins(%b : tensor<{f}xf32>) outs(%e0 : {conv}) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins({xin}, %w : {xp if pad else x}, tensor<{f}x{channels}x{k}x{k}xf32>) outs(%bb : {conv}) -> {conv}
  %e = tensor.expand_shape %c [[0], [1, 2], [3], [4]] output_shape [{batch}, 3, {classes}, {size}, {size}] : {conv} into {expanded}
  %e1 = tensor.empty() : {out}
  %t = linalg.transpose ins(%e : {expanded}) outs(%e1 : {out}) permutation = [0, 1, 3, 4, 2]
  %s = linalg.generic {{indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}} ins(%t : {out}) outs(%e1 : {out}) {{
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %q = arith.divf %one, %d : f32
    linalg.yield %q : f32
  }} -> {out}
  return %s : {out}
}}
"""


def _equal(text: str, pipeline: str, seeds: tuple[int, ...] = SEEDS) -> None:
    before, after = load_module(text), load_module(text)
    run_pipeline(after.module, pipeline)
    report = check_equivalence(
        before.module, after.module, "main", seeds,
        resources_a=before.resources, resources_b=after.resources,
    )
    assert report.ok, report.summary()


@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("batch", [1, 2])
def test_small_heads_become_one_kernel_with_equal_values(k: int, batch: int) -> None:
    text = _head(batch, k)
    raw = parse(text)
    assert count_kernels(raw) == (5 if k == 3 else 4)
    fused = parse(text)
    run_pipeline(fused, "linalg-fuse-pointwise")
    assert count_kernels(fused) == 1 and intermediate_bytes(fused) == 0
    _equal(text, "linalg-fuse-pointwise")
    _equal(text, "linalg-fuse-pointwise,lower-tensor-ext")


def test_fused_conv_pool_root_forms_a_kernel() -> None:
    text = """
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
func.func @main(%x: tensor<2x3x8x8xf32>, %w: tensor<6x3x3x3xf32>) -> tensor<2x2x3x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x6x6x6xf32>
  %ci = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x6x6x6xf32>) -> tensor<2x6x6x6xf32>
  %e1 = tensor.empty() : tensor<2x6x3x3xf32>
  %pi = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x6x3x3xf32>) -> tensor<2x6x3x3xf32>
  %p = tensor_ext.fused_conv_pool {conv_strides = array<i64: 1, 1>, conv_dilations = array<i64: 1, 1>, pool_window = array<i64: 2, 2>, pool_strides = array<i64: 2, 2>, pool_dilations = array<i64: 1, 1>, divisor = 4.0 : f64} ins(%x, %w, %ci : tensor<2x3x8x8xf32>, tensor<6x3x3x3xf32>, tensor<2x6x6x6xf32>) outs(%pi : tensor<2x6x3x3xf32>) -> tensor<2x6x3x3xf32>
  %e = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [2, 2, 3, 3, 3] : tensor<2x6x3x3xf32> into tensor<2x2x3x3x3xf32>
  %e2 = tensor.empty() : tensor<2x2x3x3x3xf32>
  %t = linalg.transpose ins(%e : tensor<2x2x3x3x3xf32>) outs(%e2 : tensor<2x2x3x3x3xf32>) permutation = [0, 1, 3, 4, 2]
  %s = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%t : tensor<2x2x3x3x3xf32>) outs(%e2 : tensor<2x2x3x3x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = math.tanh %in : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x3x3xf32>
  return %s : tensor<2x2x3x3x3xf32>
}
"""
    fused = parse(text)
    run_pipeline(fused, "linalg-fuse-pointwise")
    (report,) = analyze_module(fused)
    # The pool's init fill joins the kernel only through the root; conv_init's fill is
    # an operand of the root too, so both are in: one kernel.
    assert report.kernels == ("tensor_ext.kernel",), report
    _equal(text, "linalg-fuse-pointwise")
    _equal(text, "linalg-fuse-pointwise,lower-tensor-ext")


@pytest.mark.parametrize(
    "chunk", chunks(ROOT / "tests" / "filecheck" / "dialects" / "tensor_ext" / "kernel.mlir")
)
def test_kernel_op_evaluates_as_its_lowering(chunk: str) -> None:
    name = re.search(r"func\.func @(\w+)", chunk).group(1)  # type: ignore[union-attr]
    before, after = load_module(chunk), load_module(chunk)
    run_pipeline(after.module, "lower-tensor-ext")
    assert "tensor_ext.kernel" not in {op.name for op in after.module.walk()}
    report = check_equivalence(before.module, after.module, name, SEEDS)
    assert report.ok, report.summary()


def test_heirpy_report_kernel_figures() -> None:
    from heirpy.tools.heirpy_report import kernel_figures

    text = _head(2, 3)
    before, after = parse(text), parse(text)
    run_pipeline(after, "linalg-canonicalizations,linalg-fuse-ops")
    figures = kernel_figures(before, after)
    assert figures["kernels"] == {"before": 5, "after": 1}
    assert figures["intermediate_bytes"]["before"] > 0 and figures["intermediate_bytes"]["after"] == 0
