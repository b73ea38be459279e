"""Each kind of chain step (`chain_steps.step_of`) computes its op: the step's per-sample
map on a batch of 2 equals the evaluator's value of the op, and its bookkeeping
(costly, weights, MACs, stored init, zero pad, level) is the op's. Found by issue 35's
mutation habit: the step maps were checked only through whole fused chains, where a
wrong map of a step that no chain in the tests reaches goes unseen."""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.api import parse
from heirpy.interp.evaluator import run_function
from heirpy.transforms.linear.chain_steps import BATCHED, UNBATCHED, step_of
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.linear_maps import depthwise_filter

RNG = np.random.default_rng(35)


def _dense(shape: tuple[int, ...]) -> str:
    return f"dense<{np.round(RNG.uniform(-1, 1, shape), 3).tolist()}>"


W = _dense((3, 2, 2, 2))
CASES = {
    "conv": ("tensor<2x2x5x5xf32>", "tensor<2x3x2x2xf32>", f"""
  %w = arith.constant {W} : tensor<3x2x2x2xf32>
  %b = arith.constant dense<0.5> : tensor<2x3x2x2xf32>
  %r = linalg.conv_2d_nchw_fchw {{dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>}} ins(%x, %w : tensor<2x2x5x5xf32>, tensor<3x2x2x2xf32>) outs(%b : tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32>"""),
    "depthwise": ("tensor<2x3x5x5xf32>", "tensor<2x3x2x2xf32>", f"""
  %w = arith.constant {_dense((3, 2, 2))} : tensor<3x2x2xf32>
  %b = arith.constant dense<0.5> : tensor<2x3x2x2xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {{dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>}} ins(%x, %w : tensor<2x3x5x5xf32>, tensor<3x2x2xf32>) outs(%b : tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32>"""),
    "pool": ("tensor<2x3x5x5xf32>", "tensor<2x3x2x2xf32>", """
  %win = tensor.empty() : tensor<2x3xf32>
  %b = arith.constant dense<0.25> : tensor<2x3x2x2xf32>
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<[2, 1]> : vector<2xi64>} ins(%x, %win : tensor<2x3x5x5xf32>, tensor<2x3xf32>) outs(%b : tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32>"""),
    "matmul": ("tensor<2x3xf32>", "tensor<2x4xf32>", f"""
  %w = arith.constant {_dense((3, 4))} : tensor<3x4xf32>
  %b = arith.constant dense<[[0.5, -1.0, 0.25, 2.0], [0.5, -1.0, 0.25, 2.0]]> : tensor<2x4xf32>
  %r = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%b : tensor<2x4xf32>) -> tensor<2x4xf32>"""),
    "matvec": ("tensor<3xf32>", "tensor<4xf32>", f"""
  %w = arith.constant {_dense((4, 3))} : tensor<4x3xf32>
  %b = arith.constant dense<[0.5, -1.0, 0.25, 2.0]> : tensor<4xf32>
  %r = linalg.matvec ins(%w, %x : tensor<4x3xf32>, tensor<3xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>"""),
    "vecmat": ("tensor<3xf32>", "tensor<4xf32>", f"""
  %w = arith.constant {_dense((3, 4))} : tensor<3x4xf32>
  %b = arith.constant dense<[0.5, -1.0, 0.25, 2.0]> : tensor<4xf32>
  %r = linalg.vecmat ins(%x, %w : tensor<3xf32>, tensor<3x4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>"""),
    "zero-pad": ("tensor<2x2x3x3xf32>", "tensor<2x2x4x6xf32>", """
  %z = arith.constant 0.0 : f32
  %r = tensor.pad %x low[0, 0, 1, 0] high[0, 0, 0, 3] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<2x2x3x3xf32> to tensor<2x2x4x6xf32>"""),
    "ones-pad": ("tensor<2x2x3x3xf32>", "tensor<2x3x3x4xf32>", """
  %z = arith.constant 1.5 : f32
  %r = tensor.pad %x low[0, 1, 0, 0] high[0, 0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<2x2x3x3xf32> to tensor<2x3x3x4xf32>"""),
    "collapse": ("tensor<2x3x4xf32>", "tensor<2x12xf32>", """
  %r = tensor.collapse_shape %x [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>"""),
    "expand": ("tensor<2x12xf32>", "tensor<2x3x4xf32>", """
  %r = tensor.expand_shape %x [[0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>"""),
    "transpose": ("tensor<2x3x4xf32>", "tensor<2x4x3xf32>", """
  %e = tensor.empty() : tensor<2x4x3xf32>
  %r = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<2x4x3xf32>) permutation = [0, 2, 1]"""),
    "scale": ("tensor<2x3x2x2xf32>", "tensor<2x3x2x2xf32>", """
  %c = arith.constant dense<[[[[2.0, 2.0], [2.0, 2.0]], [[-0.5, -0.5], [-0.5, -0.5]], [[3.0, 3.0], [3.0, 3.0]]], [[[2.0, 2.0], [2.0, 2.0]], [[-0.5, -0.5], [-0.5, -0.5]], [[3.0, 3.0], [3.0, 3.0]]]]> : tensor<2x3x2x2xf32>
  %r = arith.mulf %x, %c : tensor<2x3x2x2xf32>"""),
    "shift-from": ("tensor<2x3x2x2xf32>", "tensor<2x3x2x2xf32>", """
  %c = arith.constant dense<1.25> : tensor<2x3x2x2xf32>
  %r = arith.subf %c, %x : tensor<2x3x2x2xf32>"""),
    "divide": ("tensor<2x3x2x2xf32>", "tensor<2x3x2x2xf32>", """
  %c = arith.constant dense<4.0> : tensor<2x3x2x2xf32>
  %r = arith.divf %x, %c : tensor<2x3x2x2xf32>"""),
}


def _op_and_value(name: str) -> tuple[object, np.ndarray, np.ndarray]:
    in_type, out_type, body = CASES[name]
    text = f"func.func @f(%x: {in_type}) -> {out_type} {{{body}\n  return %r : {out_type}\n}}"
    module = parse(text)
    op = next(o for o in module.walk() if o.results and o.results[0].name_hint == "r")
    shape = tuple(int(d) for d in in_type[len("tensor<"):-len("xf32>")].split("x"))
    x = RNG.standard_normal(shape).astype(np.float32)
    return op, x, run_function(module, "f", [x])[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_step_computes_its_op(name: str) -> None:
    op, x, expected = _op_and_value(name)
    step = step_of(op, ConstantFolder())  # type: ignore[arg-type]
    assert step is not None and step.activation.name_hint == "x"
    if step.mode == UNBATCHED:
        got = step.sample_map(UNBATCHED)(x.astype(np.float64)[None])[0]
    else:
        got = step.sample_map(BATCHED)(x.astype(np.float64))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_step_bookkeeping() -> None:
    steps = {name: step_of(_op_and_value(name)[0], ConstantFolder()) for name in CASES}  # type: ignore[arg-type]
    assert all(s is not None for s in steps.values())
    costly = {n for n, s in steps.items() if s.costly}  # type: ignore[union-attr]
    assert costly == {"conv", "depthwise", "pool", "matmul", "matvec", "vecmat"}
    reshape_only = {n for n, s in steps.items() if s.reshape_only}  # type: ignore[union-attr]
    assert reshape_only == {"zero-pad", "ones-pad", "collapse", "expand", "transpose"}
    conv, pool, matmul, matvec = steps["conv"], steps["pool"], steps["matmul"], steps["matvec"]
    assert (conv.weights, conv.macs, conv.init_size, conv.mode) == (24, 3 * 2 * 2 * 2 * 2 * 2, 1, BATCHED)  # type: ignore[union-attr]
    depthwise = steps["depthwise"]
    # Its own 3*2*2 weights and 3*2*2 outputs * 2*2 taps MACs, not the diagonal filter's.
    assert (depthwise.weights, depthwise.macs, depthwise.init_size) == (12, 3 * 2 * 2 * 2 * 2, 1)  # type: ignore[union-attr]
    assert depthwise.conv is not None and depthwise_filter(depthwise.conv.weight) is not None  # type: ignore[union-attr]
    assert (pool.weights, pool.macs, pool.mode) == (0, 3 * 2 * 2 * 6, BATCHED)  # type: ignore[union-attr]
    assert (matmul.weights, matmul.macs, matmul.mode) == (12, 12, BATCHED)  # type: ignore[union-attr]
    assert (matvec.weights, matvec.macs, matvec.mode) == (12, 12, UNBATCHED)  # type: ignore[union-attr]
    assert steps["zero-pad"].zero_pad == ((1, 0), (0, 3))  # type: ignore[union-attr]
    assert steps["ones-pad"].zero_pad is None  # type: ignore[union-attr]
    divide, shift, scale = steps["divide"], steps["shift-from"], steps["scale"]
    assert divide.leveled and scale.leveled and not shift.leveled  # type: ignore[union-attr]
    assert (scale.weights, scale.macs, scale.init_size) == (24, 12, 0)  # type: ignore[union-attr]
    assert (shift.weights, shift.macs, shift.init_size) == (0, 0, 24)  # type: ignore[union-attr]
    assert all(s.conv is not None for s in (divide, shift, scale))  # type: ignore[union-attr]


def test_depthwise_filter_only_for_channel_diagonal_filters() -> None:
    """A composed [F, C, KH, KW] filter is written as a depthwise conv only when it is
    one: F == C and every off-diagonal tap exactly zero (one tap off it, however small,
    and it is a dense conv)."""
    diagonal = np.zeros((3, 3, 2, 2))
    diagonal[np.arange(3), np.arange(3)] = RNG.uniform(-1, 1, (3, 2, 2))
    got = depthwise_filter(diagonal)
    assert got is not None and np.array_equal(got, diagonal[np.arange(3), np.arange(3)])
    off = diagonal.copy()
    off[0, 2, 1, 1] = 1e-30
    assert depthwise_filter(off) is None
    assert depthwise_filter(np.zeros((2, 3, 2, 2))) is None  # F != C
    assert depthwise_filter(np.zeros((3, 3, 2))) is None  # not a 4-d filter
