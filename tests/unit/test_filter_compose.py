"""conv + sum pool == one conv with the composed filter: numpy proofs of
heirpy.transforms.linear.filter_compose, for strides, dilations, pool strides != windows,
pool dilations, batches, channels, a divisor and both inits."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)
from heirpy.transforms.linear.filter_compose import (
    ConvPoolGeometry,
    broadcast_bias_term,
    compose_filter,
    pooled_constant,
)
from heirpy.transforms.linear.linear_maps import conv_nchw, sum_pool_nchw

pair = st.tuples(st.integers(1, 3), st.integers(1, 3))


def _conv_then_pool(x, w, g: ConvPoolGeometry, conv_init, pool_init, divisor):
    c = conv_nchw(x, w, g.conv_strides, g.conv_dilations) + conv_init
    p = pool_init + sum_pool_nchw(c, g.pool_window, g.pool_strides, g.pool_dilations)
    return p / divisor if divisor is not None else p


def _fused(x, w, g: ConvPoolGeometry, conv_init, pool_init, divisor):
    composed = compose_filter(w.astype(np.float64), g, divisor)
    const = pooled_constant(conv_init, pool_init, g, divisor)
    return conv_nchw(x, composed, g.composed_strides(), (1, 1)) + const


@settings(max_examples=budget(40))
@given(
    kernel=pair, s=pair, d=pair, p=pair, t=pair, e=pair,
    n=st.integers(1, 2), c=st.integers(1, 3), f=st.integers(1, 3),
    extra=pair, avg=st.booleans(), seed=st.integers(0, 2**16),
)
def test_composition_equals_conv_then_pool(kernel, s, d, p, t, e, n, c, f, extra, avg, seed):
    g = ConvPoolGeometry(kernel, s, d, p, t, e)
    # An input just big enough for one pool output, plus a few extra rows/cols.
    hw = tuple(
        (k - 1) * dd + 1 + ((pp - 1) * ee + tt * x) * ss
        for k, dd, pp, ee, tt, x, ss in zip(kernel, d, p, e, t, extra, s)
    )
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, c, *hw))
    w = rng.standard_normal((f, c, *kernel))
    conv_hw = g.conv_out_shape(hw)
    pool_hw = g.pool_out_shape(hw)
    assert g.composed_out_shape(hw) == pool_hw
    conv_init = rng.standard_normal((n, f, *conv_hw))
    pool_init = rng.standard_normal((n, f, *pool_hw))
    divisor = float(p[0] * p[1]) if avg else None
    expected = _conv_then_pool(x, w, g, conv_init, pool_init, divisor)
    got = _fused(x, w, g, conv_init, pool_init, divisor)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-10)


def test_sizes_and_strides():
    g = ConvPoolGeometry((3, 3), (2, 2), (1, 1), (3, 3), (2, 2), (1, 1))
    assert g.composed_size() == (7, 7)  # k + s*(p-1)
    assert g.composed_strides() == (4, 4)
    dilated = ConvPoolGeometry((3, 2), (1, 1), (2, 3), (2, 2), (2, 2), (1, 1))
    assert dilated.composed_size() == (6, 5)  # (k-1)*d + (p-1)*e*s + 1
    assert dilated.window_count() == 4


def test_avg_pool_of_one_tap_filter_is_box_filter():
    g = ConvPoolGeometry((1, 1), pool_window=(2, 3), pool_strides=(2, 3))
    w = np.ones((1, 1, 1, 1), dtype=np.float32)
    composed = compose_filter(w, g, divisor=6.0)
    assert composed.dtype == np.float32
    np.testing.assert_allclose(composed, np.full((1, 1, 2, 3), 1 / 6, dtype=np.float32))


def test_broadcast_bias_is_bias_times_window():
    g = ConvPoolGeometry((3, 3), pool_window=(2, 2), pool_strides=(2, 2))
    bias = np.array([1.0, -2.0])
    conv_init = np.broadcast_to(bias[None, :, None, None], (2, 2, 6, 6))
    pool_init = np.zeros((2, 2, 3, 3))
    term = pooled_constant(conv_init, pool_init, g)
    np.testing.assert_allclose(term, np.broadcast_to((bias * 4)[None, :, None, None], term.shape))
    np.testing.assert_allclose(broadcast_bias_term(bias, g), bias * 4)


def test_wrong_filter_size_is_rejected():
    with pytest.raises(ValueError):
        compose_filter(np.zeros((1, 1, 2, 2)), ConvPoolGeometry((3, 3)))
