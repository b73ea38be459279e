"""Generated programs that draw every axis on its own, with values at each guard's limit
(issue 35).

`strategies.programs` draws a conv's strides, dilations and pads per dim but from narrow
ranges (pads 0-1, strides 1-2), pools and depthwise convs square and padded evenly; the
guards of heirpy's HEIR and IREE rewrites sit where those draws never go. Here:

  edge_conv       kernel 1-4, stride 1-3, dilation 1-3 for H and W apart; each of the
                  four spatial pads drawn apart from {0, 1, reach - 1, reach} (reach =
                  d * (k - 1) + 1: a pad as wide as the window, a pad on the high side
                  only); sometimes a zero pad of the channels, low or high apart
  edge_depthwise  the same per-axis draws for a depthwise conv (no channel pad)
  edge_pool       a sum or average pool, window and stride per axis, a pad on one side
  grid_edge       a strided conv, then a 2x2 conv padded 1 before and 0-2 after: its last
                  strided output lands before, exactly on, or past the edge of the grid
                  `strided-on-grid` would run it on
  pieces_result   (last) a matvec whose result is expanded to a shape of MAX_PIECES - 1,
                  MAX_PIECES or MAX_PIECES + 1 pieces (or a small one), and returned

`edge_programs` strings them with x², relu and per-channel adds; its samples are its own,
so `strategies.programs`' derandomized samples (which tests pin) do not move. The FHE and
IREE fuzzers draw the same layers: `fhe_nets(edges=True)` (benchmarks/fuzz_heir.py) its
convs and pools, `edge_differential_programs` (benchmarks/fuzz_iree.py) the four above.

Each layer records the guard limits its draws reached in the builder's `limits` (a
program's `limits`; `LIMITS` names them all), so that a run can say how often each
limit was drawn (`limit_counts`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from math import prod

import numpy as np
from hypothesis import strategies as st

from strategies import (
    WEIGHT_KINDS,
    Draw,
    Layer,
    Program,
    Shape,
    _activation,
    _broadcast_add,
    _Builder,
    _window_op,
    depthwise_layer,
    differential_programs,
    emit_pool,
    tensor_type,
)

MAX_PIECES = 64  # heirpy.transforms.heir.heir_results.MAX_PIECES (checked by the tests)
PIECE_SHAPES = ((7, 9, 10), (4, 4, 4, 8), (5, 13, 14), (2, 3), (2, 2, 3))
"""Result shapes of MAX_PIECES - 1, MAX_PIECES, MAX_PIECES + 1 pieces, and small ones."""


LIMITS = (
    "kernel H != W", "stride H != W", "dilation H != W", "stride > window",
    "pads before != after", "pad as wide as the window", "pad = window - 1",
    "pad on the high side only", "pad on the low side only",
    "channel pad low", "channel pad high", "one-channel depthwise conv", "1x1 pool",
    "grid edge: pad after 0", "grid edge: pad after 1", "grid edge: pad after 2",
    f"{MAX_PIECES - 1} pieces", f"{MAX_PIECES} pieces", f"{MAX_PIECES + 1} pieces",
)
"""Every limit a layer records (`axis_limits` and the layers below)."""

Axis = tuple[int, int, int, int, int]  # kernel, stride, dilation, pad before, pad after


def axis_limits(h: Axis, w: Axis) -> list[str]:
    """The limits a window op drawn with `h` and `w` (`_axis`) reaches, from `LIMITS`."""
    found = []
    for index, name in enumerate(("kernel", "stride", "dilation")):
        if h[index] != w[index]:
            found.append(f"{name} H != W")
    reaches = [(k - 1) * d + 1 for k, _, d, _, _ in (h, w)]
    if any(s > r for (_, s, _, _, _), r in zip((h, w), reaches)):
        found.append("stride > window")
    pads = [(low, high) for _, _, _, low, high in (h, w)]
    if any(low != high for low, high in pads):
        found.append("pads before != after")
    if any(reach in pair for pair, reach in zip(pads, reaches)):
        found.append("pad as wide as the window")
    if any(reach > 1 and reach - 1 in pair for pair, reach in zip(pads, reaches)):
        found.append("pad = window - 1")
    if any(low == 0 < high for low, high in pads):
        found.append("pad on the high side only")
    if any(high == 0 < low for low, high in pads):
        found.append("pad on the low side only")
    return found


def limit_counts(limits: Iterable[Iterable[str]]) -> Counter[str]:
    """How many programs (or nets) reached each limit of `LIMITS` (0 for those none did)."""
    counts = Counter({name: 0 for name in LIMITS})
    for own in limits:
        counts.update(set(own))
    return counts


def format_limit_counts(counts: Counter[str], programs: int) -> str:
    """One line per limit: how many of `programs` drew it."""
    width = max(map(len, LIMITS))
    return "\n".join(f"  {name:{width}s} {counts[name]:6d} of {programs}" for name in LIMITS)


def _out(size: int, kernel: int, stride: int, dilation: int) -> int:
    return (size - (kernel - 1) * dilation - 1) // stride + 1


def _axis(draw: Draw, size: int, max_kernel: int = 4) -> tuple[int, int, int, int, int]:
    """(kernel, stride, dilation, pad before, pad after) for one spatial dim of `size`,
    each drawn on its own; the padded size always holds one window."""
    kernel, stride, dilation = draw(st.integers(1, max_kernel)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    reach = (kernel - 1) * dilation + 1
    pads = sorted({0, 1, reach - 1, reach})
    low, high = draw(st.sampled_from(pads)), draw(st.sampled_from(pads))
    if size + low + high < reach:  # too small for the window: the smallest that fits
        dilation = 1
        kernel = min(kernel, size + low + high)
    return kernel, stride, dilation, low, high


def _bias_or_zero(draw: Draw, b: _Builder, out: Shape, kinds: tuple[str, ...] = WEIGHT_KINDS) -> str:
    if draw(st.booleans()):
        f = out[1]
        bias = b.weight((f,), draw(st.sampled_from(kinds)), 0.5)
        e = b.empty(out)
        init = b.fresh("broadcasted")
        b.emit(f"{init} = linalg.broadcast ins({bias} : tensor<{f}xf32>) outs({e} : {tensor_type(out)}) dimensions = [0, 2, 3]")
        return init
    return b.fill(b.scalar("0.000000e+00"), out)


def edge_conv(
    draw: Draw, b: _Builder, x: str, shape: Shape, kinds: tuple[str, ...] = WEIGHT_KINDS
) -> tuple[str, Shape]:
    """A conv drawn axis by axis (module doc), its weights and bias of `kinds`
    (tests/fhe_nets.py: constants only)."""
    n, c, h, w = shape
    kh, sh, dh, lh, hh = _axis(draw, h)
    kw, sw, dw, lw, hw = _axis(draw, w)
    channel_low, channel_high = (draw(st.integers(0, 1)), draw(st.integers(0, 1))) if draw(st.integers(0, 3)) == 0 else (0, 0)
    b.limits += axis_limits((kh, sh, dh, lh, hh), (kw, sw, dw, lw, hw))
    b.limits += ["channel pad low"] * channel_low + ["channel pad high"] * channel_high
    low, high = (0, channel_low, lh, lw), (0, channel_high, hh, hw)
    if any(low) or any(high):
        x, shape = b.pad(x, shape, low, high, b.scalar("0.000000e+00"))
        b.layers.append(f"pad{low[1:]}{high[1:]}")
    _, c, h, w = shape
    f = draw(st.integers(1, 4))
    out = (n, f, _out(h, kh, sh, dh), _out(w, kw, sw, dw))
    kind = draw(st.sampled_from(kinds))
    weight = b.weight((f, c, kh, kw), kind, 1.0 / np.sqrt(c * kh * kw))
    init = _bias_or_zero(draw, b, out, kinds)
    name = _window_op(b, "linalg.conv_2d_nchw_fchw", (x, shape), (weight, (f, c, kh, kw)), (init, out), (sh, sw), (dh, dw))
    b.layers.append(f"conv{f}x{c}x{kh}x{kw}/s{sh},{sw}/d{dh},{dw}/{kind}")
    return name, out


def edge_depthwise(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    n, c, h, w = shape
    kh, sh, dh, lh, hh = _axis(draw, h, 3)
    kw, sw, dw, lw, hw = _axis(draw, w, 3)
    b.limits += axis_limits((kh, sh, dh, lh, hh), (kw, sw, dw, lw, hw)) + ["one-channel depthwise conv"] * (c == 1)
    if lh or hh or lw or hw:
        x, shape = b.pad(x, shape, (0, 0, lh, lw), (0, 0, hh, hw), b.scalar("0.000000e+00"))
        b.layers.append(f"pad{(lh, lw)}{(hh, hw)}")
    return depthwise_layer(draw, b, x, shape, ((kh, sh, dh), (kw, sw, dw)))


def edge_pool(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    kind = draw(st.sampled_from(("sum", "avg")))
    kh, kw = draw(st.integers(1, min(3, shape[2]))), draw(st.integers(1, min(3, shape[3])))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    side = draw(st.sampled_from(("none", "low", "high")))
    padded = side != "none" and max(kh, kw) >= 2
    pads = [((k - 1, 0) if side == "low" else (0, k - 1)) if padded else (0, 0) for k in (kh, kw)]
    b.limits += axis_limits((kh, sh, 1, *pads[0]), (kw, sw, 1, *pads[1]))
    b.limits += ["1x1 pool"] * (kh == kw == 1)
    if padded:
        pad = (0, 0, kh - 1, kw - 1)
        low, high = (pad, (0, 0, 0, 0)) if side == "low" else ((0, 0, 0, 0), pad)
        x, shape = b.pad(x, shape, low, high, b.scalar("0.000000e+00"))
        b.layers.append(f"pad{low[2:]}{high[2:]}")
    name, out = emit_pool(b, kind, (x, shape), (kh, kw), (sh, sw), "0.000000e+00")
    b.layers.append(f"{kind}pool{kh}x{kw}/s{sh},{sw}")
    return name, out


def grid_edge(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """A stride-2 conv (1x1 to 3x3), then a 2x2 conv of its result padded 1 before and
    0, 1 or 2 after per axis: strided-on-grid's edge test (ConvOnGrid) at, before and
    past its limit."""
    n, c, h, w = shape
    k = draw(st.integers(1, min(3, h, w)))
    out = (n, draw(st.integers(1, 3)), _out(h, k, 2, 1), _out(w, k, 2, 1))
    weight = b.weight((out[1], c, k, k), "dense", 1.0 / np.sqrt(c * k * k))
    init = _bias_or_zero(draw, b, out)
    y = _window_op(b, "linalg.conv_2d_nchw_fchw", (x, shape), (weight, (out[1], c, k, k)), (init, out), (2, 2), (1, 1))
    b.layers.append(f"conv{out[1]}x{c}x{k}x{k}/s2")
    high = (0, 0, draw(st.integers(0, 2)), draw(st.integers(0, 2)))
    b.limits += [f"grid edge: pad after {n}" for n in sorted(set(high[2:]))]
    padded, padded_shape = b.pad(y, out, (0, 0, 1, 1), high, b.scalar("0.000000e+00"))
    b.layers.append(f"pad(1, 1){high[2:]}")
    f = draw(st.integers(1, 3))
    result = (n, f, padded_shape[2] - 1, padded_shape[3] - 1)
    weight2 = b.weight((f, out[1], 2, 2), "dense", 0.5)
    init2 = _bias_or_zero(draw, b, result)
    name = _window_op(b, "linalg.conv_2d_nchw_fchw", (padded, padded_shape), (weight2, (f, out[1], 2, 2)), (init2, result), (1, 1), (1, 1))
    b.layers.append(f"conv{f}x{out[1]}x2x2")
    return name, result


def pieces_result(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """Flatten, a matvec to 5, x², a matvec to prod(S), expand to S (`PIECE_SHAPES`)."""
    flat = prod(shape)
    name = b.fresh("collapsed")
    b.emit(f"{name} = tensor.collapse_shape {x} [{list(range(len(shape)))}] : {tensor_type(shape)} into {tensor_type((flat,))}")
    value = _matvec(b, name, flat, 5)
    value = b.generic([(value, (5,), "affine_map<(d0) -> (d0)>")], (5,), lambda a: _square(b, a))
    target = draw(st.sampled_from(PIECE_SHAPES))
    rows = prod(target)
    pieces = prod(target[:-1])  # one piece per row of the last dim (heir_results)
    b.limits += [f"{pieces} pieces"] * (abs(pieces - MAX_PIECES) <= 1)
    value = _matvec(b, value, 5, rows)
    out = b.fresh("expanded")
    b.emit(
        f"{out} = tensor.expand_shape {value} [{list(range(len(target)))}] output_shape [{', '.join(map(str, target))}] "
        f": {tensor_type((rows,))} into {tensor_type(target)}"
    )
    b.layers.append(f"pieces{'x'.join(map(str, target))}")
    return out, target


def _square(b: _Builder, a: list[str]) -> list[str]:
    r = b.fresh()
    return [f"{r} = arith.mulf {a[0]}, {a[0]} : f32", f"linalg.yield {r} : f32"]


def _matvec(b: _Builder, x: str, k: int, m: int) -> str:
    weight = b.weight((m, k), "dense", 1.0 / np.sqrt(k))
    init = b.weight((m,), "dense", 0.5)
    name = b.fresh()
    b.emit(
        f"{name} = linalg.matvec ins({weight}, {x} : {tensor_type((m, k))}, {tensor_type((k,))}) "
        f"outs({init} : {tensor_type((m,))}) -> {tensor_type((m,))}"
    )
    b.layers.append(f"matvec{k}->{m}")
    return name


EDGE_LAYERS = {
    "edge_conv": edge_conv,
    "edge_depthwise": edge_depthwise,
    "edge_pool": edge_pool,
    "grid_edge": grid_edge,
    "activation": _activation,
    "broadcast_add": _broadcast_add,
}


@st.composite
def edge_programs(draw: Draw, max_layers: int = 4) -> Program:
    """`@main` of 1..max_layers layers of `EDGE_LAYERS` on a 1-2 x 1-4 x H x W input (H
    and W 1-12 apart), ending a third of the time (batch 1) in `pieces_result`."""
    seed = draw(st.integers(0, 2**16))
    b = _Builder(np.random.default_rng(seed))
    shape: Shape = (draw(st.integers(1, 2)), draw(st.integers(1, 4)), draw(st.integers(1, 12)), draw(st.integers(1, 12)))
    b.args.append(("%arg0", shape))
    x = "%arg0"
    for _ in range(draw(st.integers(1, max_layers))):
        kinds = ["edge_conv", "edge_conv", "edge_depthwise", "edge_pool", "activation", "broadcast_add"]
        if min(shape[2], shape[3]) >= 3:
            kinds.append("grid_edge")
        kind = draw(st.sampled_from(kinds))
        x, shape = EDGE_LAYERS[kind](draw, b, x, shape)
    if shape[0] == 1 and prod(shape) <= 600 and draw(st.integers(0, 2)) == 0:
        x, shape = pieces_result(draw, b, x, shape)
    return Program(b.text([(x, shape)]), tuple(b.layers), tuple(s for _, s in b.args), (shape,), tuple(b.limits))


def _grid_edge_or_conv(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """grid_edge where H and W are 3 or more, else an edge conv."""
    return (grid_edge if min(shape[2], shape[3]) >= 3 else edge_conv)(draw, b, x, shape)


EDGE_DIFFERENTIAL_LAYERS: dict[str, Layer] = {
    "edge_conv": edge_conv, "edge_depthwise": edge_depthwise, "edge_pool": edge_pool, "grid_edge": _grid_edge_or_conv,
}


def edge_differential_programs(element: str = "f32") -> st.SearchStrategy[Program]:
    """`strategies.differential_programs` in `element` with the edge layers above drawn
    beside its own on feature maps: benchmarks/fuzz_iree.py's programs."""
    return differential_programs(element, extra=EDGE_DIFFERENTIAL_LAYERS)
