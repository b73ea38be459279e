"""How Orion packs a linear layer: its multiplexed layout and the diagonals it encodes.

Orion (orion-fhe 1.0.2, `orion/core/packing.py`) evaluates every conv, average pool
and Linear as one plaintext-ciphertext matrix-vector product over CKKS slots. At
compile time it builds the layer's dense matrix (for a conv its Toeplitz matrix, rows
and columns in Orion's *multiplexed* layout), cuts it into `slots` x `slots` blocks
and encodes, per block, every generalized diagonal that holds a nonzero entry: one
plaintext of `slots` values per diagonal, at the layer's level. Those diagonals are
what an Orion layer costs: the plaintexts it stores (memory), the products it runs
(time), and most of them a rotation. This module counts them from shapes alone, as
Orion would, so that a fusion can be judged by what Orion will pack.

Layout (`Layout`). A stride-s conv or pool does not compact its output: Orion leaves
the result spread out with a *gap* (the input's gap times s) and fills the gaps with
further channels (`multiplex`: PyTorch's pixel_shuffle after padding the channels to
a multiple of gap²). So a tensor of clear shape (N, C, H, W) at gap g sits in
`fhe_shape` = (N, ceil(C / g²), H', W') with H' = max(H_in, H * g), where H_in is the
height of the layer's clear input (Orion's `Conv2d.compute_fhe_output_shape`). Channel
c, row h, column w of the clear tensor is slot

    (c // g²) * H' * W' + (h * g + (c % g²) // g) * W' + (w * g + c % g)

A Linear resets the gap to 1 and its output is its clear shape; Flatten, x², batch
norm and add keep their input's layout (Orion's Flatten is the identity on ciphertexts
and even keeps the 4-D "clear" shape, so a Linear after it reads the multiplexed
layout).

Diagonals (`count_diagonals`). With `slots` slots and a matrix of `height` rows,
entry (r, c) belongs to block (r // slots, c // slots) and, within it, to diagonal
(c - r) mod B, where B is the block height: `slots`, except with the "hybrid"
embedding (Orion's default) when the matrix has a single block row and is NOT the
network's last linear layer, where B is `height` rounded up to a power of two (Orion
then sums the B-row partial results with log2(slots / B) rotations). The last linear
layer is always packed "square" (B = slots), so that no partial sums are left in the
output slots: a 10 x 4096 Linear at the end of a network is 4096 + 9 = 4105 diagonals,
in the middle of one 16.

`conv_diagonals` and `linear_diagonals` build the nonzero pattern Orion's
`construct_conv2d_toeplitz` / `construct_linear_matrix` would (a weight mask stands
for the weights: a dense conv is all True, a depthwise conv or pool has the channel
diagonal only) and count its diagonals; tests/unit/test_orion_packing.py checks them
against Orion's own packing on real layers.

Pure: numpy only, no IR.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, log2

import numpy as np

ORION_SLOTS = 8192
"""Slots the cost is counted for by default: N = 2^14, the ring of most Orion runs here."""

Shape = tuple[int, ...]


@dataclass(frozen=True)
class Layout:
    """A tensor as Orion holds it: its clear `shape` ((N, C, H, W), or (N, F) after a
    Linear), the multiplexing `gap`, and the multiplexed `fhe_shape` its slots hold."""

    shape: Shape
    gap: int = 1
    fhe_shape: Shape | None = None

    @property
    def packed(self) -> Shape:
        return self.shape if self.fhe_shape is None else self.fhe_shape

    def slots_needed(self) -> int:
        """Slots the tensor occupies (Orion's `fhe_shape.numel()`)."""
        return int(np.prod(self.packed))


def conv_output_layout(layout: Layout, out_channels: int, out_hw: tuple[int, int], stride: int) -> Layout:
    """The layout of a stride-`stride` conv or pool's output (Orion's
    `Conv2d.compute_fhe_output_gap` / `compute_fhe_output_shape`)."""
    n, _, h_in, w_in = layout.shape
    gap = layout.gap * stride
    ho, wo = out_hw
    fhe = (n, ceil(out_channels / gap**2), max(h_in, ho * gap), max(w_in, wo * gap))
    return Layout((n, out_channels, ho, wo), gap, fhe)


def linear_output_layout(batch: int, out_features: int) -> Layout:
    """A Linear's output: gap 1, as in the clear."""
    return Layout((batch, out_features))


def slot_index(layout: Layout, c: np.ndarray, h: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The slot (within one sample) of clear element (c, h, w) of a 4-D `layout`."""
    g = layout.gap
    _, _, hp, wp = layout.packed
    sub = c % (g * g)
    return (c // (g * g)) * hp * wp + (h * g + sub // g) * wp + (w * g + sub % g)


class DiagonalSet:
    """The nonzero diagonals Orion encodes for a matrix of `height` rows (Orion's
    `diagonalize`), gathered from its nonzero entries a batch at a time."""

    def __init__(self, height: int, width: int, slots: int, last: bool, hybrid: bool = True):
        self.slots = slots
        block_rows = ceil(height / slots)
        if block_rows == 1 and hybrid and not last:
            self.block_height = 2 ** ceil(log2(height)) if height > 1 else 1
        else:
            self.block_height = slots
        self.block_cols = max(1, ceil(width / slots))
        self.seen = np.zeros(block_rows * self.block_cols * self.block_height, dtype=bool)

    def add(self, rows: np.ndarray, cols: np.ndarray) -> None:
        """Mark the diagonals of entries (`rows`[i], `cols`[i])."""
        block_row, local_row = np.divmod(rows.astype(np.int64), self.slots)
        block_col, local_col = np.divmod(cols.astype(np.int64), self.slots)
        diagonal = (local_col - local_row) % self.block_height
        self.seen[(block_row * self.block_cols + block_col) * self.block_height + diagonal] = True

    def count(self) -> int:
        return int(self.seen.sum())


def count_diagonals(
    rows: np.ndarray, cols: np.ndarray, height: int, width: int, slots: int, last: bool, hybrid: bool = True
) -> int:
    """Nonzero diagonals of a `height` x `width` matrix whose nonzero entries are
    (`rows`[i], `cols`[i]), packed at `slots` slots."""
    diagonals = DiagonalSet(height, width, slots, last, hybrid)
    diagonals.add(rows, cols)
    return diagonals.count()


CHUNK = 1 << 22
"""Entries handled at once (bounds the memory of counting a large layer)."""


def conv_diagonals(
    mask: np.ndarray,
    layout: Layout,
    out_hw: tuple[int, int],
    stride: int = 1,
    padding: int = 0,
    dilation: int = 1,
    slots: int = ORION_SLOTS,
    last: bool = False,
    hybrid: bool = True,
) -> int:
    """Diagonals of a conv with nonzero-weight pattern `mask` [F, C, KH, KW] (all input
    channels: a grouped conv's mask is zero across groups) reading `layout`, with
    symmetric zero `padding` (Orion's `Conv2d`; an average pool is the depthwise conv of
    ones). Orion's `construct_conv2d_toeplitz`, entry by entry."""
    if mask.shape[1] != layout.shape[1]:
        # Taps of channels the layout lacks would land past the matrix (an IndexError).
        raise ValueError(f"a conv over {mask.shape[1]} channels reads a layout of {layout.shape[1]}")
    out = conv_output_layout(layout, mask.shape[0], out_hw, stride)
    n = layout.shape[0]
    g_in = layout.gap
    _, _, h_in, w_in = layout.packed  # the multiplexed input plane
    rows_per_sample = int(np.prod(out.packed[1:]))
    cols_per_sample = int(np.prod(layout.packed[1:]))
    diagonals = DiagonalSet(n * rows_per_sample, n * cols_per_sample, slots, last, hybrid)
    ho, wo = np.meshgrid(np.arange(out_hw[0]), np.arange(out_hw[1]), indexing="ij")
    ho, wo = ho.reshape(1, -1), wo.reshape(1, -1)
    taps = np.stack(np.nonzero(mask), axis=1)  # (f, c, kh, kw) of every nonzero weight
    per_chunk = max(1, CHUNK // max(1, ho.size * n))
    for start in range(0, len(taps), per_chunk):
        f, c, kh, kw = (taps[start:start + per_chunk, i:i + 1] for i in range(4))
        # Output (f, ho, wo) reads clear input row ho*s + kh*d - p, column wo*s + kw*d - p;
        # Orion keeps the taps whose multiplexed position lies in the input plane.
        h = ho * stride + kh * dilation - padding
        w = wo * stride + kw * dilation - padding
        sub = c % (g_in * g_in)
        hm, wm = h * g_in + sub // g_in, w * g_in + sub % g_in
        keep = (h >= 0) & (w >= 0) & (hm < h_in) & (wm < w_in)
        rows = np.broadcast_to(slot_index(out, f, ho, wo), keep.shape)[keep]
        cols = ((c // (g_in * g_in)) * h_in * w_in + hm * w_in + wm)[keep]
        diagonals.add(*_batched(rows, cols, n, rows_per_sample, cols_per_sample))
    return diagonals.count()


def linear_diagonals(
    mask: np.ndarray, layout: Layout, slots: int = ORION_SLOTS, last: bool = False, hybrid: bool = True
) -> int:
    """Diagonals of a Linear with nonzero-weight pattern `mask` [out, in] reading
    `layout`: a 2-D input as it is, a 4-D one (after Flatten) through its multiplexed
    slots (Orion's `construct_linear_matrix`)."""
    n = layout.shape[0]
    out_features = mask.shape[0]
    o, i = np.nonzero(mask)
    if len(layout.shape) == 4:
        _, _, h, w = layout.shape
        ci, rest = np.divmod(i, h * w)
        hi, wi = np.divmod(rest, w)
        cols = slot_index(layout, ci, hi, wi)
        cols_per_sample = int(np.prod(layout.packed[1:]))
    else:
        cols, cols_per_sample = i, layout.shape[1]
    rows, cols = _batched(o, cols, n, out_features, cols_per_sample)
    return count_diagonals(rows, cols, n * out_features, n * cols_per_sample, slots, last, hybrid)


def _batched(rows: np.ndarray, cols: np.ndarray, n: int, row_step: int, col_step: int) -> tuple[np.ndarray, np.ndarray]:
    """Orion packs a batch of n as the block-diagonal kron(eye(n), matrix)."""
    if n == 1:
        return rows, cols
    offsets = np.arange(n)[:, None]
    return (rows[None] + offsets * row_step).reshape(-1), (cols[None] + offsets * col_step).reshape(-1)


def dense_mask(out_channels: int, in_channels: int, kernel: tuple[int, int], groups: int = 1) -> np.ndarray:
    """The weight pattern of a conv with `groups` (1: dense; `in_channels`: depthwise)."""
    mask = np.zeros((out_channels, in_channels, *kernel), dtype=bool)
    per_in, per_out = in_channels // groups, out_channels // groups
    for group in range(groups):
        mask[group * per_out:(group + 1) * per_out, group * per_in:(group + 1) * per_in] = True
    return mask


def pool_mask(channels: int, window: tuple[int, int]) -> np.ndarray:
    """An average pool's pattern: each channel reads itself over the window."""
    return dense_mask(channels, channels, window, groups=channels)
