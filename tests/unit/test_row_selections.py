"""Row selections (`row_selections`): the slice legality at its limits, and a selection
path read off real IR gives, on a constant, the rows the IR itself selects."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp, ReturnOp

from heirpy.api import parse
from heirpy.interp import load_module, run_function
from heirpy.transforms.linear.row_selections import row_selection_path, selected_rows, selects, selects_rows


@pytest.mark.parametrize(("offsets", "sizes", "strides", "result", "expected"), [
    ((0, 0, 0), (1, 2, 3), (1, 2, 1), (1, 2, 3), True),  # rows strided, features whole
    ((0, 1, 0), (1, 2, 3), (1, 1, 1), (1, 2, 3), True),  # a row offset
    ((0, 0, 0), (1, 2, 2), (1, 2, 1), (1, 2, 2), False),  # one feature short
    ((0, 0, 1), (1, 2, 2), (1, 2, 1), (1, 2, 2), False),  # features shifted
    ((0, 0, 0), (1, 2, 2), (1, 2, 2), (1, 2, 2), False),  # features strided
    ((0, 0, 0), (1, 2, 3), (1, 2, 1), (2, 3), False),  # rank reduced
])
def test_selects_rows_at_its_limits(offsets: tuple[int, ...], sizes: tuple[int, ...], strides: tuple[int, ...],
                                    result: tuple[int, ...], expected: bool) -> None:
    assert selects_rows((1, 4, 3), offsets, sizes, strides, result) is expected


def test_selects_rows_needs_rows_and_features() -> None:
    assert selects_rows((3,), (0,), (3,), (1,), (3,)) is False  # one axis: no rows


def test_selects_rows_of_a_matrix() -> None:
    """Two axes are the least a row selection needs (a `[R, F]` matmul operand)."""
    assert selects_rows((4, 3), (1, 0), (2, 3), (2, 1), (2, 3)) is True
    assert selects_rows((4, 3), (1, 0), (2, 2), (2, 1), (2, 2)) is False  # one feature short


SELECTION = """
func.func @main(%x: tensor<1x16x3xf32>) -> tensor<4x3xf32> {
  %g = tensor.expand_shape %x [[0], [1, 2], [3]] output_shape [1, 4, 4, 3] : tensor<1x16x3xf32> into tensor<1x4x4x3xf32>
  %t = tensor.extract_slice %g[0, 1, 0, 0] [1, 2, 2, 3] [1, 2, 3, 1] : tensor<1x4x4x3xf32> to tensor<1x2x2x3xf32>
  %r = tensor.collapse_shape %t [[0, 1, 2], [3]] : tensor<1x2x2x3xf32> into tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
"""


def test_selected_rows_is_what_the_ir_selects() -> None:
    """The path from the returned value back to the argument, applied to a constant with
    other features (1 instead of 3), takes the rows the IR takes."""
    func = next(op for op in parse(SELECTION).walk() if isinstance(op, FuncOp))
    ret = func.body.blocks[0].last_op
    assert isinstance(ret, ReturnOp)
    start, path = row_selection_path(ret.operands[0])
    assert start is func.body.blocks[0].args[0] and len(path) == 3 and selects(path)
    x = np.arange(48, dtype=np.float32).reshape(1, 16, 3)
    loaded = load_module(SELECTION)
    (out,) = run_function(loaded.module, "main", [x], resources=loaded.resources)
    rows = selected_rows(path, np.arange(16, dtype=np.float64).reshape(16, 1))
    assert np.array_equal(np.asarray(out), x[0, rows[:, 0].astype(int)])


def test_path_stops_at_a_feature_regrouping() -> None:
    ir = """
func.func @main(%x: tensor<4x6xf32>) -> tensor<4x2x3xf32> {
  %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
  return %e : tensor<4x2x3xf32>
}
"""
    func = next(op for op in parse(ir).walk() if isinstance(op, FuncOp))
    ret = func.body.blocks[0].last_op
    assert isinstance(ret, ReturnOp)
    start, path = row_selection_path(ret.operands[0])
    assert start is ret.operands[0] and path == [] and not selects(path)
