"""A sum over a residual add's positions composed with the add's per-position branch
(`chains_through_spatial_sums.FuseSumThroughAdd`), and a sum of a sum made one
(`sums_of_sums.FuseSumOfSum`): on drawn shapes, each axis on its own, the rewrite fires
and the output is the input's; the pure guards at and on each side of their limits."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import heirpy
from heirpy.interp.evaluator import run_function
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp
from heirpy.transforms.linear.chains_through_spatial_sums import sums_positions

CONV = "linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}"
ID = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"


def _dense(array: np.ndarray) -> str:
    return f"dense<{np.asarray(array, dtype=np.float64).tolist()}>"


def _network(b: int, c_in: int, c_out: int, h: int, w: int, channels: bool, mean: bool, seed: int) -> str:
    """`x -> relu(conv1x1(x)) = g -> fc2(g) + x -> sum over (H, W) [and C]`; with `mean`,
    the pool divided by H*W, transposed to NHWC and summed over its channels, the pool
    also returned (LayerNorm's centring reads it)."""
    rng = np.random.default_rng(seed)
    wa = rng.uniform(-1, 1, (c_in, c_out, 1, 1)).round(3)
    w2 = rng.uniform(-1, 1, (c_out, c_in, 1, 1)).round(3)
    bias = rng.uniform(-1, 1, (1, c_out, 1, 1)).round(3)
    x, g, s = f"{b}x{c_out}x{h}x{w}", f"{b}x{c_in}x{h}x{w}", f"{b}x{c_out}x{h}x{w}"
    if channels and not mean:
        out, out_map, kinds = f"{b}x1x1x1", "(d0, 0, 0, 0)", '["parallel", "reduction", "reduction", "reduction"]'
    else:
        out, out_map, kinds = f"{b}x{c_out}x1x1", "(d0, d1, 0, 0)", '["parallel", "parallel", "reduction", "reduction"]'
    results = f"tensor<{out}xf32>" + (f", tensor<{b}x1x1x1xf32>" if mean else "")
    text = f"""func.func @net(%x: tensor<{x}xf32>) -> ({results}) {{
  %wa = arith.constant {_dense(wa)} : tensor<{c_in}x{c_out}x1x1xf32>
  %za = arith.constant dense<0.0> : tensor<{g}xf32>
  %a = {CONV} ins(%x, %wa : tensor<{x}xf32>, tensor<{c_in}x{c_out}x1x1xf32>) outs(%za : tensor<{g}xf32>) -> tensor<{g}xf32>
  %g = arith.maximumf %a, %za : tensor<{g}xf32>
  %w2 = arith.constant {_dense(w2)} : tensor<{c_out}x{c_in}x1x1xf32>
  %b2 = arith.constant {_dense(np.broadcast_to(bias, (b, c_out, h, w)))} : tensor<{s}xf32>
  %f = {CONV} ins(%g, %w2 : tensor<{g}xf32>, tensor<{c_out}x{c_in}x1x1xf32>) outs(%b2 : tensor<{s}xf32>) -> tensor<{s}xf32>
  %s = arith.addf %f, %x : tensor<{s}xf32>
  %z = arith.constant dense<0.0> : tensor<{out}xf32>
  %p = linalg.generic {{indexing_maps = [{ID}, affine_map<(d0, d1, d2, d3) -> {out_map}>], iterator_types = {kinds}}} ins(%s : tensor<{s}xf32>) outs(%z : tensor<{out}xf32>) {{
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  }} -> tensor<{out}xf32>
"""
    if not mean:
        return text + f"  return %p : tensor<{out}xf32>\n}}\n"
    nhwc = f"{b}x1x1x{c_out}"
    return text + f"""  %n = arith.constant dense<{float(h * w)}> : tensor<{out}xf32>
  %q = arith.divf %p, %n : tensor<{out}xf32>
  %te = tensor.empty() : tensor<{nhwc}xf32>
  %t = linalg.transpose ins(%q : tensor<{out}xf32>) outs(%te : tensor<{nhwc}xf32>) permutation = [0, 2, 3, 1]
  %zm = arith.constant dense<0.0> : tensor<{b}x1x1x1xf32>
  %m = linalg.generic {{indexing_maps = [{ID}, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins(%t : tensor<{nhwc}xf32>) outs(%zm : tensor<{b}x1x1x1xf32>) {{
  ^bb0(%in: f32, %acc: f32):
    %u = arith.addf %in, %acc : f32
    linalg.yield %u : f32
  }} -> tensor<{b}x1x1x1xf32>
  return %p, %m : tensor<{out}xf32>, tensor<{b}x1x1x1xf32>
}}
"""


def _contractions(module: object) -> list[GenericOp]:
    """Generics reading two operands with two reduction loops (the composed ones)."""
    return [op for op in module.walk()  # type: ignore[attr-defined]
            if isinstance(op, GenericOp) and len(op.inputs) == 2
            and sum("reduction" in str(k) for k in op.iterator_types) == 2]


AXIS = st.integers(1, 4)


@settings(max_examples=12, deadline=None)
@given(b=st.integers(1, 2), c_in=AXIS, c_out=AXIS, h=st.integers(1, 3), w=st.integers(1, 3),
       channels=st.booleans(), mean=st.booleans(), seed=st.integers(0, 2**16))
def test_composed_sums_fire_and_keep_the_output(b: int, c_in: int, c_out: int, h: int, w: int,
                                                channels: bool, mean: bool, seed: int) -> None:
    text = _network(b, c_in, c_out, h, w, channels, mean, seed)
    before = heirpy.parse(text)
    after = heirpy.parse(text)
    heirpy.run_pipeline(after, "linalg-fuse-linear-chains")
    # fc2 is gone: every reader of the add became a contraction of g (the pool, and
    # the mean once it is one sum of the add).
    fc2 = [op for op in after.walk() if isinstance(op, Conv2DNchwFchwOp)
           and op.inputs[1].type.get_shape()[0] == c_out]  # type: ignore[attr-defined]
    assert fc2 == [] or c_in == c_out  # c_in == c_out: conv a reads x, a conv of shape c_out too
    assert len(_contractions(after)) == (2 if mean else 1)
    x = np.random.default_rng(seed).uniform(-1, 1, (b, c_out, h, w)).astype(np.float32)
    expected = run_function(before, "net", [x])
    got = run_function(after, "net", [x])
    for e, g in zip(expected, got, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)


def test_sums_positions_at_its_limits() -> None:
    """H and W both summed (the channel may be too), never the batch, NCHW only."""
    assert sums_positions((2, 3), 4) and sums_positions((1, 2, 3), 4)
    assert not sums_positions((3,), 4) and not sums_positions((2,), 4)  # a partial window
    assert not sums_positions((1,), 4)  # the channels only
    assert not sums_positions((0, 1, 2, 3), 4)  # the batch mixes samples
    assert not sums_positions((1, 2), 3)  # not NCHW
