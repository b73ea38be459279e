"""Pure helpers of legalize-for-heir's layout patterns on each side: `added_taps`
(heir_foldable_pads: even pads, pads on N or C, low sides that are no multiple of the
dilation, a high side that need not be, unequal dilations) and heir_layout_matvecs'
`static_slice_parts`, `pad_widths` and `apply_layout_op` (strided and offset slices, a
rank-reducing slice, pads, reshapes, an op it does not read). Found by issue 35's
mutation habit."""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.api import parse
from heirpy.transforms.heir.heir_foldable_pads import added_taps
from heirpy.transforms.heir.heir_layout_matvecs import apply_layout_op, pad_widths, static_slice_parts


@pytest.mark.parametrize(("low", "high", "dilations", "taps"), [
    ([0, 0, 1, 1], [0, 0, 1, 1], [1, 1], None),  # even already
    ([0, 0, 0, 0], [0, 0, 0, 0], [1, 1], None),  # no pad
    ([0, 1, 1, 1], [0, 0, 1, 1], [1, 1], None),  # a channel pad
    ([1, 0, 1, 1], [0, 0, 1, 1], [1, 1], None),  # a batch pad
    ([0, 0, 0, 1], [0, 0, 2, 1], [1, 1], [(2, 0), (1, 1)]),
    ([0, 0, 2, 2], [0, 0, 1, 2], [2, 2], [(0, 0), (0, 0)]),  # high side: 1 // 2 taps, the rest unread
    ([0, 0, 2, 0], [0, 0, 2, 2], [1, 2], [(0, 0), (1, 0)]),
    ([0, 0, 1, 2], [0, 0, 2, 2], [2, 1], None),  # H low side moves by 1 at dilation 2
])
def test_added_taps(low: list[int], high: list[int], dilations: list[int], taps: list[tuple[int, int]] | None) -> None:
    assert added_taps(low, high, dilations) == taps


TEXT = """
func.func @f(%x: tensor<4x6xf32>, %v: tensor<12xf32>) -> tensor<4x6xf32> {
  %z = arith.constant 0.0 : f32
  %strided = tensor.extract_slice %x[1, 1] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %reduced = tensor.extract_slice %x[1, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<6xf32>
  %pad = tensor.pad %x low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<4x6xf32> to tensor<5x8xf32>
  %col = tensor.collapse_shape %x [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %exp = tensor.expand_shape %v [[0, 1]] output_shape [3, 4] : tensor<12xf32> into tensor<3x4xf32>
  %sq = arith.mulf %x, %x : tensor<4x6xf32>
  return %x : tensor<4x6xf32>
}"""


def test_layout_ops_on_element_indices() -> None:
    ops = {op.results[0].name_hint: op for op in parse(TEXT).walk() if op.results and op.results[0].name_hint}
    x = np.arange(24.0).reshape(4, 6)
    assert static_slice_parts(ops["strided"]) == ([1, 1], [2, 3], [2, 2])  # type: ignore[arg-type]
    np.testing.assert_array_equal(apply_layout_op(ops["strided"], x, np.nan), x[1:5:2, 1:7:2])  # type: ignore[arg-type]
    assert static_slice_parts(ops["reduced"]) is None  # type: ignore[arg-type]
    assert apply_layout_op(ops["reduced"], x, np.nan) is None
    assert pad_widths(ops["pad"]) == [(1, 0), (0, 2)]  # type: ignore[arg-type]
    padded = apply_layout_op(ops["pad"], x, np.nan)
    assert padded is not None and padded.shape == (5, 8)
    np.testing.assert_array_equal(padded[1:, :6], x)
    assert np.isnan(padded[0]).all() and np.isnan(padded[:, 6:]).all()
    np.testing.assert_array_equal(apply_layout_op(ops["col"], x, np.nan), x.reshape(24))  # type: ignore[arg-type]
    np.testing.assert_array_equal(apply_layout_op(ops["exp"], np.arange(12.0), np.nan),  # type: ignore[arg-type]
                                  np.arange(12.0).reshape(3, 4))
    assert apply_layout_op(ops["sq"], x, np.nan) is None
