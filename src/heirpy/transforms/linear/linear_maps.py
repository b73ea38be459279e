"""Pure numpy math and legality rules for fusing linear ops (no IR in here).

Shared by `linalg-fuse-linear-ops` and `linalg-fuse-linear-chains`. Everything is a
function of shapes, window parameters and arrays, so each rule is unit-tested alone.

Conventions. A *sample* is one batch element: `[C, H, W]` for NCHW ops, a row `[K]` for a
matmul's LHS, the whole vector for matvec/vecmat. An `AffineConv` is the per-sample map

    y[f, oy, ox] = sum_{c, i, j} W[f, c, i, j] * x[c, oy*s + i*d, ox*s' + j*d'] + const[f, oy, ox]

i.e. a VALID `linalg.conv_2d_nchw_fchw` whose init is `const` broadcast over the batch.
Arrays here are float64 so compositions are rounded once, when the pass casts them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import gcd, prod

import numpy as np

from heirpy.interp.linalg_named import windows
from heirpy.ir.utils import window_out_size

Pair = tuple[int, int]
SampleMap = Callable[[np.ndarray], np.ndarray]
"""A per-sample map applied to a batch: [B, *sample_in] -> [B, *sample_out]."""


# ------------------------------------------------------------------------- reference ops
def conv_nchw(
    x: np.ndarray,
    w: np.ndarray,
    strides: Sequence[int] = (1, 1),
    dilations: Sequence[int] = (1, 1),
    out_hw: Sequence[int] | None = None,
) -> np.ndarray:
    """VALID NCHW conv of a batch `x` [B, C, H, W] with `w` [F, C, KH, KW], in float64.

    `out_hw` may ask for fewer output positions than fit (MLIR reads only what the
    output shape needs)."""
    b, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    (sh, sw), (dh, dw) = tuple(strides), tuple(dilations)
    if out_hw is None:
        out_hw = (window_out_size(h, kh, sh, dh), window_out_size(wd, kw, sw, dw))
    view = windows(x.astype(np.float64), (2, 3), (kh, kw), (sh, sw), (dh, dw), out_hw)
    return np.einsum("bcyxij,fcij->bfyx", view, w.astype(np.float64), optimize=True)


def sum_pool_nchw(
    x: np.ndarray,
    window: Sequence[int],
    strides: Sequence[int] = (1, 1),
    dilations: Sequence[int] = (1, 1),
    out_hw: Sequence[int] | None = None,
) -> np.ndarray:
    """VALID NCHW sum pool of a batch, in float64."""
    b, c, h, w = x.shape
    (ph, pw), (th, tw), (eh, ew) = tuple(window), tuple(strides), tuple(dilations)
    if out_hw is None:
        out_hw = (window_out_size(h, ph, th, eh), window_out_size(w, pw, tw, ew))
    view = windows(x.astype(np.float64), (2, 3), (ph, pw), (th, tw), (eh, ew), out_hw)
    return view.sum(axis=(-2, -1))


def pool_filter(channels: int, window: Sequence[int]) -> np.ndarray:
    """A sum pool as a conv filter [C, C, *window] (any window rank): ones on the
    channel diagonal, in float64."""
    eye = np.eye(channels, dtype=np.float64).reshape(channels, channels, *([1] * len(window)))
    return eye * np.ones(tuple(window), dtype=np.float64)


# ------------------------------------------------------------------------- affine convs
@dataclass(frozen=True)
class AffineConv:
    """A per-sample VALID conv plus a constant (see the module docstring)."""

    weight: np.ndarray  # [F, C, KH, KW]
    strides: Pair
    dilations: Pair
    const: np.ndarray  # [F, OH, OW], the per-sample init

    @property
    def out_hw(self) -> Pair:
        return (int(self.const.shape[1]), int(self.const.shape[2]))

    def apply(self, x: np.ndarray) -> np.ndarray:
        """On a batch [B, C, H, W]."""
        return conv_nchw(x, self.weight, self.strides, self.dilations, self.out_hw) + self.const

    def macs(self) -> int:
        """Multiply-accumulates per sample: F*OH*OW*C*KH*KW."""
        return prod(self.const.shape) * prod(self.weight.shape[1:])


def depthwise_filter(weight: np.ndarray) -> np.ndarray | None:
    """`weight` [F, C, KH, KW] as a depthwise filter [C, KH, KW] when it is one: as many
    output as input channels and every tap off the channel diagonal exactly zero (a
    depthwise conv composed with per-channel scales, or with another depthwise conv);
    else None."""
    if weight.ndim != 4 or weight.shape[0] != weight.shape[1]:
        return None
    channels = weight.shape[0]
    diagonal = weight[np.arange(channels), np.arange(channels)]
    off = weight.copy()
    off[np.arange(channels), np.arange(channels)] = 0
    return None if np.any(off) else diagonal


def composed_window(
    first: tuple[int, int, int], second: tuple[int, int, int]
) -> tuple[int, int, int]:
    """(size, stride, dilation) of one spatial dim of `second ∘ first`, both given as
    (kernel size, stride, dilation).

    Output row y of `second` reads `first`'s row y*s2 + a*d2, which reads input row
    (y*s2 + a*d2)*s1 + i*d1 = y*(s1*s2) + a*(d2*s1) + i*d1. The taps a*(d2*s1) + i*d1
    all lie on the grid of g = gcd of the steps that actually occur, so the composed
    dilation is g and the size is ((k2-1)*d2*s1 + (k1-1)*d1) / g + 1."""
    k1, s1, d1 = first
    k2, s2, d2 = second
    steps = [step for step, k in ((d2 * s1, k2), (d1, k1)) if k > 1]
    g = 0
    for step in steps:
        g = gcd(g, step)
    g = g or 1
    extent = (k2 - 1) * d2 * s1 + (k1 - 1) * d1
    return extent // g + 1, s1 * s2, g


def compose_conv_weights(
    first: np.ndarray,
    first_window: tuple[Pair, Pair],
    second: np.ndarray,
    second_window: tuple[Pair, Pair],
) -> tuple[np.ndarray, Pair, Pair]:
    """The filter, strides and dilations of conv `second` applied after conv `first`.

    `*_window` is (strides, dilations). G[g, c, t] = sum over f and taps a, i with
    a*d2*s1 + i*d1 == t*gcd of second[g, f, a] * first[f, c, i], per spatial dim."""
    (s1, d1), (s2, d2) = first_window, second_window
    f1, c, k1h, k1w = first.shape
    g_out, f2, k2h, k2w = second.shape
    if f1 != f2:
        raise ValueError(f"channel mismatch: first has {f1} outputs, second reads {f2}")
    dims = [
        composed_window((k1, s1[a], d1[a]), (k2, s2[a], d2[a]))
        for a, (k1, k2) in enumerate(((k1h, k2h), (k1w, k2w)))
    ]
    (gh, sh, dh), (gw, sw, dw) = dims
    out = np.zeros((g_out, c, gh, gw), dtype=np.float64)
    first64, second64 = first.astype(np.float64), second.astype(np.float64)
    for a in range(k2h):
        for b in range(k2w):
            # One tap of `second` adds `first`, mixed over channels, at its input offset.
            block = np.einsum("gf,fcij->gcij", second64[:, :, a, b], first64)
            oy, ox = a * d2[0] * s1[0], b * d2[1] * s1[1]
            ys = [(oy + i * d1[0]) // dh for i in range(k1h)]
            xs = [(ox + j * d1[1]) // dw for j in range(k1w)]
            out[:, :, np.array(ys)[:, None], np.array(xs)[None, :]] += block
    return out, (sh, sw), (dh, dw)


def compose_affine_convs(first: AffineConv, second: AffineConv) -> AffineConv:
    """`second ∘ first` as one AffineConv: the composed filter, and the constant
    `second(first.const)` (the first init pushed through the second conv's filter)."""
    weight, strides, dilations = compose_conv_weights(
        first.weight, (first.strides, first.dilations),
        second.weight, (second.strides, second.dilations),
    )
    pushed = conv_nchw(
        first.const[None], second.weight, second.strides, second.dilations, second.out_hw
    )[0]
    return AffineConv(weight, strides, dilations, pushed + second.const)


def composed_conv_fits(in_hw: Pair, conv: AffineConv) -> bool:
    """The composed conv reads inside the input for every output position it makes.

    Always true for a composition of VALID convs (each step only reads what exists), so
    a False here means a bug or an inconsistent chain: the pass then does not fuse."""
    kh, kw = conv.weight.shape[2:]
    for size, k, s, d, o in zip(in_hw, (kh, kw), conv.strides, conv.dilations, conv.out_hw):
        if o > 0 and (o - 1) * s + d * (k - 1) + 1 > size:
            return False
    return True



# ------------------------------------------------------------------------- pads
def pad_through_window(
    in_size: int, out_size: int, kernel: int, stride: int, dilation: int, low: int, high: int
) -> tuple[int, int] | None:
    """Along one spatial dim, the zero pad (low', high') of a window op's INPUT that
    equals zero-padding its OUTPUT by (low, high), or None when there is none.

    The window op (a conv, a sum pool: output o reads input o*s + a*d for taps a < k,
    plus its init) keeps its weights; padding its input by (low*s, high*s) shifts each
    of its `out_size` outputs by `low` and computes `low` outputs before and `high`
    after them, each an init plus taps on the padded input. Those taps read only pad
    (so the outputs are the init alone, which the caller pads with zeros) exactly when:

    * low side: output low-1 reads original input positions -s + a*d, all negative
      for every tap iff (k-1)*d < s, i.e. the window is no wider than the stride
      (windows do not overlap; AvgPool2d(2) and any 1x1 op qualify, AvgPool2d(3,
      stride 2) or a 3x3 conv do not); outputs further out read further out;
    * high side: output low+out_size reads original positions out_size*s + a*d, all
      at or past the end iff out_size*s >= in_size, i.e. the op reads its input to
      the end (a 2x2 pool of an odd size leaves its last row out, and that row would
      then be read).

    New outputs always fit the padded input: the last reads (out_size-1+high)*s +
    (k-1)*d + low*s < in_size + (low+high)*s because the op's own last output reads
    inside `in_size`. Both conditions are needed for a generic op: when one fails, a
    new output reads real input data where the padded output holds zero.
    Proved numerically in tests/unit/test_pad_through_window.py, and the pad value must
    be zero (the caller checks): a non-zero value v would need taps summing to v.
    """
    if min(low, high, in_size, out_size, kernel, stride, dilation - 1) < 0 or kernel < 1 or stride < 1:
        return None
    if low and (kernel - 1) * dilation >= stride:
        return None
    if high and out_size * stride < in_size:
        return None
    return low * stride, high * stride


SpatialPad = tuple[Pair, Pair]
"""((low_h, high_h), (low_w, high_w)): a zero pad of an NCHW tensor's H and W."""


def pad_conv_input(conv: AffineConv, in_hw: Pair, pad: SpatialPad) -> tuple[AffineConv, SpatialPad] | None:
    """`conv` and the zero pad of its input that, together, equal zero-padding
    `conv`'s output by `pad` (`pad_through_window` per spatial dim); the returned
    conv's init is `conv.const` padded with zeros. None when no such pad exists."""
    kh, kw = conv.weight.shape[2:]
    moved = []
    for size, out, k, s, d, (low, high) in zip(in_hw, conv.out_hw, (kh, kw), conv.strides, conv.dilations, pad):
        widths = pad_through_window(size, out, k, s, d, low, high)
        if widths is None:
            return None
        moved.append(widths)
    const = np.pad(conv.const, ((0, 0), pad[0], pad[1]))
    return AffineConv(conv.weight, conv.strides, conv.dilations, const), (moved[0], moved[1])


def add_pads(first: SpatialPad, second: SpatialPad) -> SpatialPad:
    """Zero-padding by `first`, then by `second`, is one zero pad by their sum."""
    (a, b), (c, d) = first
    (e, f), (g, h) = second
    return ((a + e, b + f), (c + g, d + h))


def pad_convs_input(
    convs: Sequence[AffineConv], in_hw: Pair, pad: SpatialPad
) -> tuple[list[AffineConv], SpatialPad] | None:
    """Move a zero pad of the output of the conv sequence `convs` (applied in order to
    an input of spatial size `in_hw`) to that input: the sequence with zero-padded
    inits and the pad of its input, or None when a conv of the sequence does not let it
    through (`pad_conv_input`)."""
    moved = list(convs)
    for index in reversed(range(len(moved))):
        size = in_hw if index == 0 else moved[index - 1].out_hw
        step = pad_conv_input(moved[index], size, pad)
        if step is None:
            return None
        moved[index], pad = step
    return moved, pad


# ------------------------------------------------------------------------- legality
def channel_vector(full: np.ndarray, axis: int) -> np.ndarray | None:
    """The 1-D vector `v` with `full == v` broadcast along `axis`, if `full` varies along
    no other axis (then scaling the output is scaling the weights along `axis`)."""
    if full.ndim == 0:
        return None
    moved = np.moveaxis(full, axis, 0).reshape(full.shape[axis], -1)
    if moved.shape[1] and not np.all(moved == moved[:, :1]):
        return None
    return moved[:, 0].copy()


def is_batch_invariant(full: np.ndarray) -> bool:
    """Every batch element (axis 0) holds the same constant: then it is a per-sample
    constant of a map that treats every sample alike."""
    return full.ndim >= 1 and bool(np.all(full == full[:1]))


def varying_axes(full: np.ndarray) -> tuple[int, ...]:
    """The axes along which `full` is not constant (none for a zero-size array: it has
    no two elements to differ)."""
    if full.size == 0:
        return ()
    axes = []
    for axis in range(full.ndim):
        first = np.take(full, [0], axis=axis)
        if not np.all(full == first):
            axes.append(axis)
    return tuple(axes)


def keeps_batch_axis(reassociation: Sequence[Sequence[int]]) -> bool:
    """A collapse/expand whose first group is exactly [0] reshapes each sample alone."""
    return len(reassociation) >= 1 and list(reassociation[0]) == [0]


def pad_keeps_batch(low: Sequence[int], high: Sequence[int]) -> bool:
    """A pad that adds no batch elements acts on each sample alone."""
    return len(low) >= 1 and low[0] == 0 and high[0] == 0 and all(
        v >= 0 for v in (*low, *high)
    )


# ------------------------------------------------------------------------- cost model
MAX_MATRIX_ELEMENTS = 1 << 22
"""Largest explicit matrix (D_in x D_out entries) a chain may become: 4M weights."""


def matrix_macs(d_in: int, d_out: int) -> int:
    """Multiply-accumulates per sample of an explicit D_in x D_out matrix."""
    return d_in * d_out


@dataclass(frozen=True)
class Form:
    """One exact representation of a fused chain and its cost per sample."""

    kind: str  # "conv" | "contraction" | "matrix"
    macs: int
    weights: int  # weight elements


_FORM_ORDER = {"conv": 0, "contraction": 1, "matrix": 2}


def matrix_form(d_in: int, d_out: int) -> Form | None:
    """The explicit D_in x D_out matrix, unless it exceeds MAX_MATRIX_ELEMENTS."""
    if d_in * d_out > MAX_MATRIX_ELEMENTS:
        return None
    return Form("matrix", matrix_macs(d_in, d_out), d_in * d_out)


def choose_form(forms: Sequence[Form | None]) -> Form | None:
    """The cheapest available form: fewest MACs, then fewest weights, then conv before
    contraction before matrix (a conv's filter is the smallest constant to store)."""
    available = [f for f in forms if f is not None]
    if not available:
        return None
    return min(available, key=lambda f: (f.macs, f.weights, _FORM_ORDER[f.kind]))


def affine_matrix(
    apply: SampleMap, sample_in: Sequence[int], chunk: int = 512
) -> tuple[np.ndarray, np.ndarray]:
    """(A, b) with apply(x) == A @ x.ravel() + b for every sample x of shape `sample_in`,
    found by applying the (affine) map to 0 and to each unit vector. A is [D_out, D_in]."""
    d_in = prod(sample_in)
    zero = np.zeros((1, *sample_in), dtype=np.float64)
    bias = apply(zero).reshape(-1)
    columns = []
    for start in range(0, d_in, chunk):
        stop = min(d_in, start + chunk)
        basis = np.zeros((stop - start, d_in), dtype=np.float64)
        basis[np.arange(stop - start), np.arange(start, stop)] = 1.0
        out = apply(basis.reshape(stop - start, *sample_in)).reshape(stop - start, -1)
        columns.append(out - bias)
    return np.concatenate(columns, axis=0).T, bias

