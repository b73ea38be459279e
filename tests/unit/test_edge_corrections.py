"""A zero pad through a conv whose windows overlap, with edge corrections
(heirpy.transforms.linear.edge_corrections): `B(pad(A(pad(x, pA)), pB))` equals K of x
zero padded by pA + s*pB plus the corrections, for drawn kernels, strides, pads and
input sizes (each axis on its own); and on IR, the fork pattern's output computes what
the chain did, one level above its input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.func import FuncOp

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)
from heirpy.analysis.depth import analyze_function
from heirpy.api import clone_module, parse, print_module, run_pipeline
from heirpy.interp import load_module, run_function
from heirpy.ir.utils import window_out_size
from heirpy.transforms.linear.edge_corrections import apply_edge_corrected, edge_corrected
from heirpy.transforms.linear.linear_maps import AffineConv

pair = st.tuples(st.integers(1, 4), st.integers(1, 4))
small = st.tuples(st.integers(1, 3), st.integers(1, 3))
pads = st.tuples(st.integers(0, 2), st.integers(0, 2))
sizes = st.tuples(st.integers(3, 11), st.integers(3, 11))


def _geometry(ka, s, pa, kb, t, pb, hw):  # type: ignore[no-untyped-def]
    """(A's input size, A's output size, B's output size) per axis, or None if empty."""
    a_in = tuple(n + 2 * p for n, p in zip(hw, pa))
    a_out = tuple(window_out_size(n, k, st_, 1) for n, k, st_ in zip(a_in, ka, s))
    b_out = tuple(window_out_size(n + 2 * p, k, st_, 1) for n, p, k, st_ in zip(a_out, pb, kb, t))
    if min(*a_out, *b_out) < 1:
        return None
    return a_in, a_out, b_out


@settings(max_examples=budget(60), deadline=None)
@given(ka=pair, s=small, pa=pads, kb=pair, t=small, pb=pads, hw=sizes, seed=st.integers(0, 2**16))
def test_k_plus_corrections_is_the_chain(ka, s, pa, kb, t, pb, hw, seed):  # type: ignore[no-untyped-def]
    geometry = _geometry(ka, s, pa, kb, t, pb, hw)
    if geometry is None:
        return
    a_in, a_out, b_out = geometry
    rng = np.random.default_rng(seed)
    c, f, g = 2, 3, 2
    a = AffineConv(rng.normal(size=(f, c, *ka)), s, (1, 1), rng.normal(size=(f, *a_out)))
    b = AffineConv(rng.normal(size=(g, f, *kb)), t, (1, 1), rng.normal(size=(g, *b_out)))
    x = rng.normal(size=(2, c, *hw))
    xp = np.pad(x, ((0, 0), (0, 0), (pa[0], pa[0]), (pa[1], pa[1])))
    padding = ((pb[0], pb[0]), (pb[1], pb[1]))
    expected = b.apply(np.pad(a.apply(xp), ((0, 0), (0, 0), *padding)))
    real = ((pa[0], pa[0] + hw[0]), (pa[1], pa[1] + hw[1]))
    fused = edge_corrected(a, a_in, padding, b, real)
    np.testing.assert_allclose(apply_edge_corrected(fused, xp), expected, rtol=1e-9, atol=1e-9)
    # K is one conv: its window s*(kB-1) + kA wide (dilated where 1x1 taps skip rows), stride s*t
    extent = tuple((k - 1) * d + 1 for k, d in zip(fused.conv.weight.shape[2:], fused.conv.dilations))
    assert extent == tuple(si * (k2 - 1) + k1 for si, k1, k2 in zip(s, ka, kb))
    assert fused.conv.strides == (s[0] * t[0], s[1] * t[1])


def test_ghostnet_stride_block_corrects_three_edges() -> None:
    """GhostNet's stride block on an even input (16x16 -> 8x8): K 7x7 stride 2 of pad(x, 3);
    the bottom row (1x7), the right column (7x1) and their corner (1x1) read x's data, the
    top and left ring only its pad (their effect is the bias, in K's init)."""
    rng = np.random.default_rng(0)
    a = AffineConv(rng.normal(size=(4, 4, 3, 3)), (2, 2), (1, 1), rng.normal(size=(4, 8, 8)))
    b = AffineConv(rng.normal(size=(4, 4, 3, 3)), (1, 1), (1, 1), rng.normal(size=(4, 8, 8)))
    fused = edge_corrected(a, (18, 18), ((1, 1), (1, 1)), b, ((1, 17), (1, 17)))
    assert fused.input_pad == ((2, 2), (2, 2))
    assert [(c.weight.shape[2:], c.out_start, c.out_size) for c in fused.corrections] == [
        ((1, 7), (7, 0), (1, 8)), ((7, 1), (0, 7), (8, 1)), ((1, 1), (7, 7), (1, 1))]
    odd = edge_corrected(a, (17, 17), ((1, 1), (1, 1)), b, ((1, 16), (1, 16)))
    assert odd.corrections == ()  # 15x15: the ring past the end reads only pad


def _fork(c: int, f: int, g: int, hw: tuple[int, int], ka: tuple[int, int], s: tuple[int, int],
          pa: tuple[int, int], kb: tuple[int, int], t: tuple[int, int], pb: tuple[int, int],
          dtype: str, rng: np.random.Generator) -> str:
    """`@main(x) -> (p, d)`: p = conv(pad(x, pa)) (kernel ka, stride s), d = conv(pad(p,
    pb)) (kb, t); p is a fork (returned and padded), so the fork pattern composes d.
    f16: f16 operands, f32 accumulators, truncf (torch-mlir's form)."""
    geometry = _geometry(ka, s, pa, kb, t, pb, hw)
    assert geometry is not None
    a_in, a_out, b_out = geometry

    def ty(shape: tuple[int, ...], e: str = dtype) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{e}>"

    def dense(shape: tuple[int, ...]) -> str:
        values = rng.integers(-8, 9, size=shape) / 8.0
        return f"dense<{np.array2string(values, separator=', ', threshold=10**6).replace(chr(10), '')}> : {ty(shape)}"

    def pad(src: str, p: tuple[int, int], src_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> str:
        return (f"tensor.pad {src} low[0, 0, {p[0]}, {p[1]}] high[0, 0, {p[0]}, {p[1]}] {{\n"
                f"  ^bb0(%q0: index, %q1: index, %q2: index, %q3: index):\n    tensor.yield %zero : {dtype}\n"
                f"  }} : {ty(src_shape)} to {ty(out_shape)}")

    def conv(name: str, src: str, w: str, in_shape: tuple[int, ...], w_shape: tuple[int, ...],
             out_shape: tuple[int, ...], stride: tuple[int, int], init: str) -> list[str]:
        lines = [f"{name}32 = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = "
                 f"dense<[{stride[0]}, {stride[1]}]> : vector<2xi64>}} ins({src}, {w} : {ty(in_shape)}, "
                 f"{ty(w_shape)}) outs({init} : {ty(out_shape, 'f32')}) -> {ty(out_shape, 'f32')}"]
        if dtype == "f32":
            return [lines[0].replace(f"{name}32 =", f"{name} =", 1)]
        return [*lines, f"{name} = arith.truncf {name}32 : {ty(out_shape, 'f32')} to {ty(out_shape)}"]

    x_shape, a_shape = (1, c, *hw), (1, c, *a_in)
    p_shape, pp_shape = (1, f, *a_out), (1, f, a_out[0] + 2 * pb[0], a_out[1] + 2 * pb[1])
    d_shape = (1, g, *b_out)
    lines = [
        f"%zero = arith.constant 0.0 : {dtype}",
        "%zero32 = arith.constant 0.0 : f32",
        f"%w1 = arith.constant {dense((f, c, *ka))}",
        f"%w2 = arith.constant {dense((g, f, *kb))}",
        f"%b1 = arith.constant dense<{(rng.integers(-8, 9, size=f) / 8.0).tolist()}> : tensor<{f}xf32>",
        f"%b1e = tensor.empty() : {ty(p_shape, 'f32')}",
        f"%i1 = linalg.broadcast ins(%b1 : tensor<{f}xf32>) outs(%b1e : {ty(p_shape, 'f32')}) dimensions = [0, 2, 3]",
        f"%i2e = tensor.empty() : {ty(d_shape, 'f32')}",
        f"%i2 = linalg.fill ins(%zero32 : f32) outs(%i2e : {ty(d_shape, 'f32')}) -> {ty(d_shape, 'f32')}",
        f"%xp = {pad('%x', pa, x_shape, a_shape)}",
        *conv("%p", "%xp", "%w1", a_shape, (f, c, *ka), p_shape, s, "%i1"),
        f"%pp = {pad('%p', pb, p_shape, pp_shape)}",
        *conv("%d", "%pp", "%w2", pp_shape, (g, f, *kb), d_shape, t, "%i2"),
        f"return %p, %d : {ty(p_shape)}, {ty(d_shape)}",
    ]
    body = "\n  ".join(lines)
    return f"func.func @main(%x: {ty(x_shape)}) -> ({ty(p_shape)}, {ty(d_shape)}) {{\n  {body}\n}}\n"


def _main(module: object) -> FuncOp:
    return next(op for op in module.walk() if isinstance(op, FuncOp))  # type: ignore[attr-defined]


def _run(ir: str, x: np.ndarray) -> list[np.ndarray]:
    loaded = load_module(ir)
    return [np.asarray(o, dtype=np.float64) for o in run_function(loaded.module, "main", [x],
                                                                   resources=loaded.resources)]


@pytest.mark.parametrize("dtype", ["f32", "f16"])
@settings(max_examples=budget(12), deadline=None)
@given(ka=pair, s=small, pa=pads, kb=pair, t=small, pb=st.tuples(st.integers(1, 2), st.integers(0, 2)),
       hw=sizes, seed=st.integers(0, 2**16))
def test_the_fork_pattern_emits_the_chain(dtype, ka, s, pa, kb, t, pb, hw, seed):  # type: ignore[no-untyped-def]
    """The emitted IR (K, slices, correction convs, pads, adds) computes the chain's
    output (f16: within its roundings), d one level above x instead of two."""
    if _geometry(ka, s, pa, kb, t, pb, hw) is None:
        return
    rng = np.random.default_rng(seed)
    ir = _fork(2, 2, 2, hw, ka, s, pa, kb, t, pb, dtype, rng)
    before = parse(ir)
    after = clone_module(before)
    run_pipeline(after, "linalg-fuse-linear-chains{policy=depth}")
    assert analyze_function(_main(before)).result_depths == (1, 2)
    assert analyze_function(_main(after)).result_depths == (1, 1)
    x = rng.normal(size=(1, 2, *hw)).astype(np.float16 if dtype == "f16" else np.float32)
    (p0, d0), (p1, d1) = _run(ir, x), _run(print_module(after), x)
    np.testing.assert_array_equal(p1, p0)
    tolerance = 1e-5 if dtype == "f32" else 1e-2
    np.testing.assert_allclose(d1, d0, atol=tolerance * max(1.0, float(np.abs(d0).max())), rtol=0)
