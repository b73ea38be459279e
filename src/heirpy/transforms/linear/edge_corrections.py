"""A zero pad through a conv whose windows overlap, with an edge correction (pure numpy).

`linear_maps.pad_convs_input` moves a zero pad of a conv's output to its input only where
the windows do not overlap: `pad(A(x), p)` equals `A(pad(x, p*s))` only if every new
output reads pad alone. A 3x3 stride-2 conv (GhostNet's stride block: its depthwise conv
composed with the ghost module's primary 1x1 conv) reads the input's last real row from
the padded row past its end, so `B(pad(A(x), p))` (the ghost module's cheap 3x3 conv
reading that pad) was no conv and cost two levels.

It is one conv and a few corrections, all at the same level. Let y_ext be A evaluated on
the grid extended by p (x zero padded as far as that needs: `A(pad(x, p*s))`, A's formula
everywhere), and R its ring (y_ext outside A's own output grid, zero inside). Then
`pad(A(x), p) = y_ext - R` and, B being linear up to its bias,

    B(pad(A x)) = K(x) - B_lin(R) + M(0) - K(0)

with K = B ∘ A_ext ONE conv of x zero padded by pA + s*p (kernel s*(kB-1) + kA, stride
s*t), emitted with its init M(0), the chain's value at x = 0, so the corrections carry no
bias. R splits by inclusion-exclusion into row strips (the ring rows, every extended
column), column strips (the ring columns, every extended row) and their corners, counted
twice: add them back. For output row i, the row strip term is K with B's kernel rows
masked to those reading outside A's rows (`compose(A, B * mask)`), read at row i only: a
conv of a row slice of the same padded input, one output row high. Columns alike;
corners masked both ways. A tap of a correction that reads only x's zero padding for
every output it makes is dropped (on GhostNet's 7x7 stride-2 K the top and left strips
read only pad: only the bottom row, the right column and their corner remain), and the
kernel is cut to its nonzero taps.

Exact for any kernel, stride and dilation of A and B and any pads of A's input
(tests/unit/test_edge_corrections.py draws them); only a zero pad (a non-zero value is
no linear map of y, and the caller does not ask).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

from heirpy.transforms.linear.linear_maps import (
    AffineConv,
    Pair,
    SpatialPad,
    compose_affine_convs,
    compose_conv_weights,
    conv_nchw,
)


@dataclass(frozen=True)
class EdgeCorrection:
    """`conv(x̂[rows, cols], weight)` added to K's output at `out_start`, `out_size` big,
    where x̂ is K's padded input and (rows, cols) the window `in_start`, `in_size`
    those outputs read with the taps kept; the term's sign is in `weight`, its
    strides and dilations are K's."""

    weight: np.ndarray  # [F, C, KH, KW]
    out_start: Pair
    out_size: Pair
    in_start: Pair
    in_size: Pair

    def macs(self, depthwise: bool) -> int:
        taps = prod(self.weight.shape[2:])
        per_output = taps if depthwise else self.weight.shape[1] * taps
        return self.weight.shape[0] * prod(self.out_size) * per_output

    def weights(self, depthwise: bool) -> int:
        return self.weight.shape[0] * prod(self.weight.shape[2:]) if depthwise else self.weight.size


@dataclass(frozen=True)
class EdgeCorrected:
    """`B(pad(A(x̂_A), p))` as K of x̂_A zero padded by `input_pad`, plus `corrections`."""

    conv: AffineConv  # K, its init the chain's value at a zero input
    input_pad: SpatialPad  # the pad of A's input K reads (p times A's strides)
    corrections: tuple[EdgeCorrection, ...]


def edge_corrected(
    a: AffineConv, a_in_hw: Pair, pad: SpatialPad, b: AffineConv, a_real: tuple[Pair, Pair] | None = None
) -> EdgeCorrected:
    """`b(pad(a(x̂), pad))` (the zero pad `pad` of `a`'s output, `a` reading x̂ of H, W
    `a_in_hw`) as K plus edge corrections (module docstring). `a_real` is the [start,
    stop) of x's own data in x̂ along H and W (x̂ may be x zero padded): taps that read
    outside it only are dropped; None: all of x̂ is data."""
    a_out = a.out_hw
    real = a_real if a_real is not None else ((0, a_in_hw[0]), (0, a_in_hw[1]))
    input_pad: SpatialPad = (
        (pad[0][0] * a.strides[0], pad[0][1] * a.strides[0]),
        (pad[1][0] * a.strides[1], pad[1][1] * a.strides[1]),
    )
    ext_hw = (a_out[0] + sum(pad[0]), a_out[1] + sum(pad[1]))
    extended = AffineConv(a.weight, a.strides, a.dilations, np.zeros((a.weight.shape[0], *ext_hw)))
    composed = compose_affine_convs(extended, b)
    at_zero = b.apply(np.pad(a.const, ((0, 0), *pad))[None])[0]
    k = AffineConv(composed.weight, composed.strides, composed.dilations, at_zero)
    # x's data in K's padded input, along each dim
    data = tuple((start + low, stop + low) for (start, stop), (low, _) in zip(real, input_pad))
    rows, cols = (
        _ring_groups(b.out_hw[d], b.weight.shape[2 + d], b.strides[d], b.dilations[d], pad[d][0], a_out[d])
        for d in (0, 1)
    )
    all_rows = [(0, b.out_hw[0], np.ones(b.weight.shape[2], dtype=bool))]
    all_cols = [(0, b.out_hw[1], np.ones(b.weight.shape[3], dtype=bool))]
    terms = [(r, c, -1.0) for r in rows for c in all_cols]
    terms += [(r, c, -1.0) for r in all_rows for c in cols]
    terms += [(r, c, 1.0) for r in rows for c in cols]
    corrections = []
    for (r0, r1, row_mask), (c0, c1, col_mask), sign in terms:
        masked = b.weight * (row_mask[:, None] & col_mask[None, :])
        weight, _, _ = compose_conv_weights(a.weight, (a.strides, a.dilations), masked, (b.strides, b.dilations))
        correction = _cut(sign * weight, k, (r0, r1), (c0, c1), data)
        if correction is not None:
            corrections.append(correction)
    return EdgeCorrected(k, input_pad, tuple(corrections))


def _ring_groups(
    out: int, kernel: int, stride: int, dilation: int, low: int, size: int
) -> list[tuple[int, int, np.ndarray]]:
    """Along one dim of B: runs [start, stop) of B's outputs whose taps read outside A's
    output (rows low .. low+size-1 of the padded grid), with the same mask of those taps."""
    groups: list[tuple[int, int, np.ndarray]] = []
    for o in range(out):
        read = o * stride + dilation * np.arange(kernel)
        mask = (read < low) | (read >= low + size)
        if not mask.any():
            continue
        if groups and groups[-1][1] == o and np.array_equal(groups[-1][2], mask):
            groups[-1] = (groups[-1][0], o + 1, mask)
        else:
            groups.append((o, o + 1, mask))
    return groups


def _cut(weight: np.ndarray, k: AffineConv, rows: Pair, cols: Pair, data: tuple[Pair, ...]) -> EdgeCorrection | None:
    """The correction `weight` (K's window) makes at outputs rows x cols, its taps that
    read no data for any of those outputs dropped and the kernel cut to the rest; None
    when no tap is left."""
    starts, sizes, keep = [], [], []
    for axis, ((o0, o1), (d0, d1)) in enumerate(zip((rows, cols), data)):
        stride, dilation = k.strides[axis], k.dilations[axis]
        taps = np.arange(weight.shape[2 + axis])
        first, last = o0 * stride + taps * dilation, (o1 - 1) * stride + taps * dilation
        # a tap reads data for some output iff [first, last] meets [d0, d1) on its stride grid
        reads = np.array([any(d0 <= p < d1 for p in range(int(f), int(l_) + 1, stride))
                          for f, l_ in zip(first, last)])
        keep.append(reads)
    weight = weight * (keep[0][:, None] & keep[1][None, :])
    nonzero = np.argwhere(np.any(weight != 0, axis=(0, 1)))
    if nonzero.size == 0:
        return None
    (u0, v0), (u1, v1) = nonzero.min(axis=0), nonzero.max(axis=0)
    for axis, ((o0, o1), t0, t1) in enumerate(zip((rows, cols), (u0, v0), (u1, v1))):
        stride, dilation = k.strides[axis], k.dilations[axis]
        starts.append(int(o0 * stride + t0 * dilation))
        sizes.append(int((o1 - o0 - 1) * stride + (t1 - t0) * dilation + 1))
    return EdgeCorrection(
        weight[:, :, u0:u1 + 1, v0:v1 + 1],
        (rows[0], cols[0]), (rows[1] - rows[0], cols[1] - cols[0]),
        (starts[0], starts[1]), (sizes[0], sizes[1]),
    )


def apply_edge_corrected(fused: EdgeCorrected, x: np.ndarray) -> np.ndarray:
    """The reference evaluation of K plus corrections on a batch `x` [B, C, H, W] of A's
    input (the tests compare it with the chain)."""
    (lh, hh), (lw, hw) = fused.input_pad
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (lh, hh), (lw, hw)))
    out = fused.conv.apply(padded)
    for c in fused.corrections:
        window = padded[:, :, c.in_start[0]:c.in_start[0] + c.in_size[0], c.in_start[1]:c.in_start[1] + c.in_size[1]]
        (r, q), (h, w) = c.out_start, c.out_size
        out[:, :, r:r + h, q:q + w] += conv_nchw(window, c.weight, fused.conv.strides, fused.conv.dilations, (h, w))
    return out
