"""heirpy.analysis.kernels' table and counting edges: the table's exact text (repeated
kinds, no kernel, dynamic intermediates), kernels inside a non-kernel region but not
inside a kernel, a result read only through views, a dynamic loop bound's message."""

from __future__ import annotations

import pytest

from heirpy.analysis.kernels import analyze_module, count_kernels, format_kernel_table, intermediate_bytes, loop_points
from heirpy.api import parse
from heirpy.ir.diagnostics import HeirpyError

TWO_ADDS = """func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %a = linalg.add ins(%x, %x : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = linalg.add ins(%a, %x : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = tensor.collapse_shape %b [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %d = tensor.expand_shape %c [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  %t = linalg.transpose ins(%d : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>) permutation = [1, 0]
  return %t : tensor<2x3xf32>
}
func.func @g(%x: tensor<?xf32>) -> tensor<?xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %c = tensor.cast %x : tensor<?xf32> to tensor<?xf32>
  %y = arith.addf %x, %x : tensor<?xf32>
  %z = arith.mulf %y, %y : tensor<?xf32>
  return %z : tensor<?xf32>
}
func.func @h(%s: f32) -> f32 {
  return %s : f32
}
"""


def test_the_table_names_each_function_its_kernels_and_bytes() -> None:
    reports = analyze_module(parse(TWO_ADDS))
    f, g, h = reports
    assert f.kernels == ("linalg.add", "linalg.add", "linalg.transpose")
    # %a is read by the second add (24 bytes); %b by the transpose through two views
    assert [(i.producer, i.type, i.bytes) for i in f.intermediates] == [
        ("linalg.add", "tensor<2x3xf32>", 24), ("linalg.add", "tensor<2x3xf32>", 24)]
    assert (g.count, g.intermediate_bytes, g.dynamic) == (2, 0, 1)  # the addf's ?xf32 read by the mulf
    assert (h.count, h.intermediates) == (0, ())
    assert format_kernel_table(reports) == "\n".join([
        "function  kernels  intermediate bytes  dynamic  kernel ops",
        "@f        3        48                  0        linalg.add x2, linalg.transpose",
        "@g        2        0                   1        arith.addf, arith.mulf",
        "@h        0        0                   0        -",
    ])
    assert count_kernels(parse(TWO_ADDS)) == 7 - 2  # @f 3, @g 2
    assert intermediate_bytes(parse(TWO_ADDS)) == 48


def test_kernels_inside_a_loop_count_and_ops_inside_a_kernel_do_not() -> None:
    text = """func.func @f(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%acc : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""
    (report,) = analyze_module(parse(text))
    assert report.kernels == ("linalg.generic",)  # not its arith.mulf, not scf.for
    assert report.intermediates == ()  # scf.yield is no kernel


def test_a_dynamic_loop_bound_names_the_op() -> None:
    text = """func.func @g(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = linalg.add ins(%x, %x : tensor<?xf32>, tensor<?xf32>) outs(%x : tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
"""
    with pytest.raises(HeirpyError) as err:
        loop_points(parse(text))
    assert str(err.value) == "error: loop_points: 'linalg.add' has a dynamic loop bound"
    static = parse(TWO_ADDS.split("func.func @g")[0])
    assert loop_points(static) == 6 + 6 + 6  # two adds and a transpose, 6 points each
