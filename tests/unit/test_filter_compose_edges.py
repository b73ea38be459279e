"""filter_compose beside its property test (test_filter_compose.py, float64 only):
integer filters and inits are summed exactly in their own dtype, unequal H and W
parameters stay on their own axis, and a wrong filter size names both sizes."""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.transforms.linear.filter_compose import ConvPoolGeometry, compose_filter, pooled_constant
from heirpy.transforms.linear.linear_maps import conv_nchw, sum_pool_nchw


def test_integer_filters_compose_exactly_in_their_dtype() -> None:
    g = ConvPoolGeometry((2, 1), conv_strides=(1, 2), conv_dilations=(2, 1), pool_window=(2, 3),
                         pool_strides=(1, 1), pool_dilations=(1, 2))
    assert g.pool_offset_step() == (1, 4)  # e*s per axis: H 1*1, W 2*2
    assert g.composed_size() == (4, 9)  # (k-1)*d + (p-1)*e*s + 1
    assert g.composed_strides() == (1, 2)
    w = np.array([[[[3], [-5]]]], dtype=np.int32)  # 1x1x2x1
    composed = compose_filter(w, g)
    assert composed.dtype == np.int32
    # each pool tap (py, px) adds the dilated filter at (py*1, px*4): rows py and py+2
    expected = np.zeros((4, 9), dtype=np.int32)
    for py in range(2):
        for px in range(3):
            expected[py, px * 4] += 3
            expected[py + 2, px * 4] += -5
    assert composed[0, 0].tolist() == expected.tolist()
    x = np.arange(1 * 1 * 9 * 13, dtype=np.int64).reshape(1, 1, 9, 13)
    conv = conv_nchw(x, w.astype(np.int64), g.conv_strides, g.conv_dilations)
    pooled = sum_pool_nchw(conv, g.pool_window, g.pool_strides, g.pool_dilations)
    fused = conv_nchw(x, composed.astype(np.int64), g.composed_strides(), (1, 1))
    assert fused.tolist() == pooled.tolist()


def test_integer_inits_pool_exactly_and_a_divisor_divides_both() -> None:
    g = ConvPoolGeometry((1, 1), pool_window=(2, 2), pool_strides=(2, 2))
    conv_init = np.arange(16, dtype=np.int32).reshape(1, 1, 4, 4)
    pool_init = np.full((1, 1, 2, 2), 100, dtype=np.int32)
    term = pooled_constant(conv_init, pool_init, g)
    assert term.dtype == np.int32 and term[0, 0].tolist() == [[110, 118], [142, 150]]
    halves = pooled_constant(conv_init.astype(np.float32), pool_init.astype(np.float32), g, divisor=4.0)
    assert halves.dtype == np.float32 and halves[0, 0].tolist() == [[27.5, 29.5], [35.5, 37.5]]


def test_a_filter_of_another_size_names_both() -> None:
    with pytest.raises(ValueError) as err:
        compose_filter(np.zeros((1, 1, 2, 3)), ConvPoolGeometry((3, 2)))
    assert str(err.value) == "filter is 2x3, geometry says (3, 2)"
