"""Composing a conv filter with a sum-pool window into one conv filter (pure numpy).

A `linalg.conv_2d_nchw_fchw` (strides s, dilations d) followed by a
`linalg.pooling_nchw_sum` (window P, strides t, dilations e) reads input row

    (y*t + py*e)*s + kh*d  =  y*(s*t) + (py*e*s + kh*d)

for output row y, pool offset py and filter offset kh. So the pair is ONE conv with
stride `s*t`, dilation 1 and the composed filter

    G[f, c, j, i] = sum over (py, kh) with py*e*s + kh*d == j,
                        (px, kw) with px*e'*s' + kw*d' == i   of  K[f, c, kh, kw]

of size `(KH-1)*d + (PH-1)*e*s + 1` per spatial dim, divided by the divisor of an
average pool. Its VALID output size equals the pool's (nested floor division:
floor(floor(A/s)/t) == floor(A/(s*t))), so no shape changes either.

The constant terms: the conv's init `conv_init` is pooled as it is (a per-channel
broadcast bias b becomes `b * PH*PW`), the pool's init is added, and the divisor
divides both:

    r = (pool_init + sumpool(conv_init)) / D  +  conv(input, G / D, stride s*t)

Everything here is plain numpy on static shapes, so it is shared by the fusion pass
(shape rules), the lowering (constant filters) and the tests (reference conv / pool).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from heirpy.ir.constants import is_float_dtype
from heirpy.ir.utils import int_pair, window_out_size
from heirpy.transforms.linear.linear_maps import sum_pool_nchw

Pair = tuple[int, int]


@dataclass(frozen=True)
class ConvPoolGeometry:
    """The window parameters of a conv followed by a sum pool, per spatial dim (H, W)."""

    filter_size: Pair  # KH, KW
    conv_strides: Pair = (1, 1)
    conv_dilations: Pair = (1, 1)
    pool_window: Pair = (1, 1)
    pool_strides: Pair = (1, 1)
    pool_dilations: Pair = (1, 1)

    def composed_size(self) -> Pair:
        """`(K-1)*d + (P-1)*e*s + 1` per dim: the composed filter's spatial size."""
        return int_pair(
            (k - 1) * d + (p - 1) * e * s + 1
            for k, d, p, e, s in zip(
                self.filter_size,
                self.conv_dilations,
                self.pool_window,
                self.pool_dilations,
                self.conv_strides,
            )
        )

    def composed_strides(self) -> Pair:
        """`s*t` per dim: the composed conv's stride (its dilation is 1)."""
        return int_pair(s * t for s, t in zip(self.conv_strides, self.pool_strides))

    def pool_offset_step(self) -> Pair:
        """`e*s` per dim: how far apart in input rows two pool taps land."""
        return int_pair(e * s for e, s in zip(self.pool_dilations, self.conv_strides))

    def window_count(self) -> int:
        """How many conv outputs one pool output sums: PH*PW."""
        return self.pool_window[0] * self.pool_window[1]

    def conv_out_shape(self, in_hw: Pair) -> Pair:
        return int_pair(
            window_out_size(h, k, s, d)
            for h, k, s, d in zip(in_hw, self.filter_size, self.conv_strides, self.conv_dilations)
        )

    def pool_out_shape(self, in_hw: Pair) -> Pair:
        conv_hw = self.conv_out_shape(in_hw)
        return int_pair(
            window_out_size(h, p, t, e)
            for h, p, t, e in zip(conv_hw, self.pool_window, self.pool_strides, self.pool_dilations)
        )

    def composed_out_shape(self, in_hw: Pair) -> Pair:
        return int_pair(
            window_out_size(h, g, st, 1)
            for h, g, st in zip(in_hw, self.composed_size(), self.composed_strides())
        )


def compose_filter(
    filter: np.ndarray, geometry: ConvPoolGeometry, divisor: float | None = None
) -> np.ndarray:
    """The composed filter `G` [F, C, GH, GW] (see the module docstring), in `filter`'s
    dtype. Sums are taken in float64 (or int64) and cast once, so the result is the
    exactly rounded composition."""
    f, c, kh, kw = filter.shape
    if (kh, kw) != geometry.filter_size:
        raise ValueError(f"filter is {kh}x{kw}, geometry says {geometry.filter_size}")
    gh, gw = geometry.composed_size()
    (dh, dw), (ph, pw) = geometry.conv_dilations, geometry.pool_window
    (oh, ow) = geometry.pool_offset_step()
    wide = np.float64 if is_float_dtype(filter.dtype) else np.int64
    source: np.ndarray = filter.astype(wide)
    out: np.ndarray = np.zeros((f, c, gh, gw), dtype=wide)
    for py in range(ph):
        for px in range(pw):
            # One pool tap adds the dilated filter, shifted by the tap's input offset.
            out[:, :, py * oh : py * oh + (kh - 1) * dh + 1 : dh,
                px * ow : px * ow + (kw - 1) * dw + 1 : dw] += source
    if divisor is not None:
        out = out / divisor
    return out.astype(filter.dtype)


def pooled_constant(
    conv_init: np.ndarray,
    pool_init: np.ndarray,
    geometry: ConvPoolGeometry,
    divisor: float | None = None,
) -> np.ndarray:
    """`(pool_init + sumpool(conv_init)) / divisor`: the fused op's constant term."""
    pooled = sum_pool_nchw(
        conv_init.astype(np.float64 if is_float_dtype(conv_init.dtype) else np.int64),
        geometry.pool_window,
        geometry.pool_strides,
        geometry.pool_dilations,
        out_hw=pool_init.shape[2:],
    )
    total = pooled + pool_init
    if divisor is not None:
        total = total / divisor
    return total.astype(pool_init.dtype)


def broadcast_bias_term(bias: np.ndarray, geometry: ConvPoolGeometry) -> np.ndarray:
    """A per-channel bias broadcast into the conv's init, after the sum pool: `b*PH*PW`."""
    return bias * geometry.window_count()
