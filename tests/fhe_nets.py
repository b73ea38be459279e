"""Hypothesis strategy for small FHE nets, written as torch-mlir prints them: what HEIR's
CKKS pipeline is meant to compile. A net is a sequence of convs (every stride 1 or 2,
zero pads of 0, 1 or 2, symmetric or not, with a broadcast bias or a zero init), sum and
average pools (optionally padded), eval-mode batch-norm, global average pools, x² (the
only activation: CKKS has no other at this depth), and at the end possibly flatten and
Linear layers (with x² between); batch 1 or 2; the result is the last feature map
(multi-dim) or the Linear's output (flat). Weights are constants (`dense<...>` or
`dense_resource<...>`), never arguments: the function's only argument is the input.

Each net carries its depth bound, counted from its layers: one level per maximal run of
linear layers (convs, pools, batch-norm, Linear, with their pads, biases and divides)
and one per x², the levels an ideal compiler of the CKKS cost model spends.

    from fhe_nets import fhe_nets       # after putting tests/ on sys.path
    @given(fhe_nets())
    def test_something(net: FheNet) -> None: ...

Built on the generic program builder of tests/strategies.py (its `_Builder` and its
batch-norm and global-pool layers), in functions of its own. `fhe_nets(edges=True)`
(benchmarks/fuzz_heir.py) draws its convs and pools with tests/edge_strategies.py's
layers instead: kernel, stride, dilation and each pad per axis on its own, at the
guards' limits (a pad as wide as the window, on one side only, a channel pad, 1x1
pools), and records the limits reached (`FheNet.limits`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from math import prod

import numpy as np
from hypothesis import strategies as st

from edge_strategies import edge_conv, edge_pool
from strategies import (
    Draw,
    Shape,
    _batch_norm,
    _Builder,
    _global_avg_pool,
    _identity_map,
    _window_op,
    emit_pool,
    tensor_type,
)

FHE_WEIGHTS = ("dense", "resource")


@dataclass(frozen=True)
class FheNet:
    """A generated FHE net `@main(%arg0)`: its MLIR text, its layers and its depth bound."""

    text: str
    layers: tuple[str, ...]
    bound: int
    arg_shape: Shape
    result_shape: Shape
    limits: tuple[str, ...] = ()  # guard limits its layers were drawn at (edge_strategies.LIMITS)

    def __repr__(self) -> str:  # what hypothesis prints for a falsifying example
        return f"FheNet(layers={list(self.layers)}, bound={self.bound})\n{self.text}"


def _out(size: int, kernel: int, stride: int) -> int:
    return (size - kernel) // stride + 1


def fhe_conv(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """Conv2d with a zero pad of 0-2 per side (symmetric as torch pads, or not), stride 1
    or 2, a 1x1 to 3x3 kernel, 1-4 output channels, a bias or none."""
    n, c, h, w = shape
    if draw(st.booleans()):
        p = draw(st.integers(1, 2))
        low = high = (0, 0, p, p)
        if draw(st.integers(0, 3)) == 0:  # an asymmetric pad, as an explicit F.pad writes it
            low, high = (0, 0, draw(st.integers(0, 1)), p), (0, 0, p, draw(st.integers(0, 1)))
        x, shape = b.pad(x, shape, low, high, b.scalar("0.000000e+00"))
        b.layers.append(f"pad{low[2:]}{high[2:]}")
    _, _, h, w = shape
    k = draw(st.integers(1, min(3, h, w)))
    s = draw(st.integers(1, 2))
    f = draw(st.integers(1, 4))
    out = (n, f, _out(h, k, s), _out(w, k, s))
    kind = draw(st.sampled_from(FHE_WEIGHTS))
    weight = b.weight((f, c, k, k), kind, 1.0 / np.sqrt(c * k * k))
    if draw(st.booleans()):
        bias = b.weight((f,), draw(st.sampled_from(FHE_WEIGHTS)), 0.5)
        e = b.empty(out)
        init = b.fresh("broadcasted")
        b.emit(f"{init} = linalg.broadcast ins({bias} : tensor<{f}xf32>) outs({e} : {tensor_type(out)}) dimensions = [0, 2, 3]")
    else:
        init = b.fill(b.scalar("0.000000e+00"), out)
    name = _window_op(b, "linalg.conv_2d_nchw_fchw", (x, shape), (weight, (f, c, k, k)), (init, out), (s, s), (1, 1))
    b.layers.append(f"conv{f}x{c}x{k}x{k}/s{s}")
    return name, out


def fhe_pool(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """Sum or average pool (AvgPool2d: the sum, then a divide), 2x2 or 3x3, stride 1-2."""
    kind = draw(st.sampled_from(("sum", "avg")))
    k = draw(st.integers(2, min(3, shape[2], shape[3])))
    s = draw(st.integers(1, 2))
    if k == 3 and draw(st.integers(0, 3)) == 0:
        x, shape = b.pad(x, shape, (0, 0, 1, 1), (0, 0, 1, 1), b.scalar("0.000000e+00"))
        b.layers.append("pad1")
    name, out = emit_pool(b, kind, (x, shape), (k, k), (s, s), "0.000000e+00")
    b.layers.append(f"{kind}pool{k}/s{s}")
    return name, out


def fhe_square(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """x * x, as torch-mlir writes it (the same tensor read twice)."""
    ident = _identity_map(len(shape))

    def square(a: list[str]) -> list[str]:
        r = b.fresh()
        return [f"{r} = arith.mulf {a[0]}, {a[1]} : f32", f"linalg.yield {r} : f32"]

    b.layers.append("square")
    return b.generic([(x, shape, ident), (x, shape, ident)], shape, square), shape


def fhe_linear(draw: Draw, b: _Builder, x: str, shape: Shape) -> tuple[str, Shape]:
    """nn.Linear (flatten first when the input is a feature map), with or without bias."""
    if len(shape) > 2:
        flat = (shape[0], prod(shape[1:]))
        name = b.fresh("collapsed")
        groups = [[0], list(range(1, len(shape)))]
        b.emit(f"{name} = tensor.collapse_shape {x} {groups} : {tensor_type(shape)} into {tensor_type(flat)}")
        b.layers.append("flatten")
        x, shape = name, flat
    n, k = shape
    m = draw(st.integers(2, 10))
    weight = b.weight((m, k), draw(st.sampled_from(FHE_WEIGHTS)), 1.0 / np.sqrt(k))
    e = b.empty((k, m))
    wt = b.fresh("transposed")
    b.emit(f"{wt} = linalg.transpose ins({weight} : {tensor_type((m, k))}) outs({e} : {tensor_type((k, m))}) permutation = [1, 0]")
    init = b.fill(b.scalar("0.000000e+00"), (n, m))
    mm = b.fresh()
    b.emit(
        f"{mm} = linalg.matmul ins({x}, {wt} : {tensor_type(shape)}, {tensor_type((k, m))}) "
        f"outs({init} : {tensor_type((n, m))}) -> {tensor_type((n, m))}"
    )
    b.layers.append(f"linear{k}->{m}")
    if not draw(st.booleans()):
        return mm, (n, m)
    bias = b.weight((m,), draw(st.sampled_from(FHE_WEIGHTS)), 0.5)

    def add(a: list[str]) -> list[str]:
        r = b.fresh()
        return [f"{r} = arith.addf {a[0]}, {a[1]} : f32", f"linalg.yield {r} : f32"]

    b.layers.append("bias")
    return b.generic([(mm, (n, m), _identity_map(2)), (bias, (m,), "affine_map<(d0, d1) -> (d1)>")], (n, m), add), (n, m)


LINEAR_LAYERS = {"conv": fhe_conv, "pool": fhe_pool, "batch_norm": _batch_norm, "global_avg_pool": _global_avg_pool}
EDGE_LINEAR_LAYERS = {**LINEAR_LAYERS, "conv": partial(edge_conv, kinds=FHE_WEIGHTS), "pool": edge_pool}


def fhe_bound(kinds: list[str]) -> int:
    """One level per x² and per maximal run of linear layers between them; a copy (a 1x1
    pool: heirpy.analysis.depth's bound) costs none and neither starts nor ends a run."""
    levels, in_run = 0, False
    for kind in kinds:
        if kind == "copy":
            continue
        if kind == "square":
            levels, in_run = levels + 1, False
        elif not in_run:
            levels, in_run = levels + 1, True
    return levels


def _feature_map_kinds(shape: Shape) -> list[str]:
    """The layer kinds that keep a valid feature map of `shape`."""
    kinds = ["square", "batch_norm"]
    if min(shape[2], shape[3]) >= 1:
        kinds += ["conv", "conv", "conv"]
    if min(shape[2], shape[3]) >= 2:
        kinds += ["pool", "pool"]
    if shape[2] * shape[3] > 1:
        kinds.append("global_avg_pool")
    return kinds


@st.composite
def fhe_nets(draw: Draw, max_layers: int = 5, edges: bool = False) -> FheNet:
    """A random FHE net (see the module doc): 1-`max_layers` feature-map layers with at
    least one linear layer, then (half the time) flatten + 1-2 Linear layers with x²
    between or after; `edges`: convs and pools drawn axis by axis (module doc)."""
    linear_layers = EDGE_LINEAR_LAYERS if edges else LINEAR_LAYERS
    seed = draw(st.integers(0, 2**16))
    b = _Builder(np.random.default_rng(seed))
    shape: Shape = (draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(4, 10)), draw(st.integers(4, 10)))
    arg_shape = shape
    b.args.append(("%arg0", shape))
    x = "%arg0"
    kinds: list[str] = []
    for _ in range(draw(st.integers(1, max_layers))):
        kind = draw(st.sampled_from(_feature_map_kinds(shape)))
        if kind == "square" and (not kinds or kinds[-1] == "square"):
            kind = "conv"  # a net starts with a linear layer, and x² never follows x²
        x, shape = (fhe_square if kind == "square" else linear_layers[kind])(draw, b, x, shape)
        one_element_pool = b.layers[-1].startswith(("sumpool1x1/", "avgpool1x1/"))
        kinds.append("square" if kind == "square" else "copy" if one_element_pool else "linear")
    if draw(st.booleans()) and prod(shape[1:]) <= 600:
        for index in range(draw(st.integers(1, 2))):
            if index and draw(st.booleans()):
                x, shape = fhe_square(draw, b, x, shape)
                kinds.append("square")
            x, shape = fhe_linear(draw, b, x, shape)
            kinds.append("linear")
    if kinds[-1] == "linear" and draw(st.integers(0, 3)) == 0:
        x, shape = fhe_square(draw, b, x, shape)
        kinds.append("square")
    return FheNet(b.text([(x, shape)]), tuple(b.layers), fhe_bound(kinds), arg_shape, shape, tuple(b.limits))
