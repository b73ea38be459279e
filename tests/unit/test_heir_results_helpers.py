"""heir_results' pure helpers on each side of their choices: `piece_axis` (the longest
axis, the innermost on a tie), `static_slice` (1-D and static only) and `slice_rows`.
Found by issue 35's mutation habit: the tie and the refusals ran in no test."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import tensor

from heirpy.api import parse
from heirpy.transforms.heir.heir_results import piece_axis, slice_rows, static_slice


@pytest.mark.parametrize(("shape", "axis"), [
    ((2, 10), 1), ((10, 2), 0), ((4, 4), 1), ((4, 4, 4, 8), 3), ((8, 4, 8), 2), ((9, 4, 8), 0), ((5,), 0),
])
def test_piece_axis_is_the_longest_and_the_innermost_on_a_tie(shape: tuple[int, ...], axis: int) -> None:
    assert piece_axis(shape) == axis


def test_slice_rows() -> None:
    np.testing.assert_array_equal(slice_rows(2, 3, 2), [2, 4, 6])
    np.testing.assert_array_equal(slice_rows(0, 4, 1), [0, 1, 2, 3])
    assert slice_rows(5, 0, 3).size == 0


def _slice(text: str) -> tensor.ExtractSliceOp:
    module = parse(text)
    return next(op for op in module.walk() if isinstance(op, tensor.ExtractSliceOp))


def test_static_slice_reads_a_static_1d_slice() -> None:
    op = _slice("""
func.func @f(%v: tensor<20xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %v[3] [4] [2] : tensor<20xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}""")
    assert static_slice(op) == (3, 4, 2)


def test_static_slice_refuses_2d_and_dynamic_slices() -> None:
    two = _slice("""
func.func @f(%v: tensor<4x5xf32>) -> tensor<1x5xf32> {
  %s = tensor.extract_slice %v[1, 0] [1, 5] [1, 1] : tensor<4x5xf32> to tensor<1x5xf32>
  return %s : tensor<1x5xf32>
}""")
    assert static_slice(two) is None
    dynamic = _slice("""
func.func @f(%v: tensor<20xf32>, %i: index) -> tensor<4xf32> {
  %s = tensor.extract_slice %v[%i] [4] [1] : tensor<20xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}""")
    assert static_slice(dynamic) is None
