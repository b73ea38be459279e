"""LayerNorm's gamma/beta folded forward into the next linear ops
(`forward_affine_folds`): the pure helpers (which readers fold, which layout op needs a copy), and the f16 rule that a weight written by
several folds (batch norm after the conv, gamma before it) is rounded to f16 once."""

from __future__ import annotations

import numpy as np

from heirpy.api import parse, run_pipeline
from heirpy.interp.evaluator import run_function
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp, MatmulOp
from heirpy.transforms.linear.constant_folding import ConstantFolder
from heirpy.transforms.linear.forward_affine_folds import (
    channel_affine,
    fold_forward,
    linear_readers,
    only_read_by,
)
from heirpy.transforms.linear.linear_match import LinearOpView

ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
CH = "affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>"
PAR4 = 'iterator_types = ["parallel", "parallel", "parallel", "parallel"]'


def test_channel_affine_reads_one_axis_or_refuses() -> None:
    scale = np.broadcast_to(np.array([2.0, 3.0])[None, None, :], (1, 4, 2)).copy()
    shift = np.broadcast_to(np.array([1.0, -1.0])[None, None, :], (1, 4, 2)).copy()
    affine = channel_affine(scale, shift)
    assert affine is not None and affine.axis == 2
    np.testing.assert_array_equal(affine.scale, [2.0, 3.0])
    np.testing.assert_array_equal(affine.shift, [1.0, -1.0])
    # the shift along another axis than the scale: no single channel axis
    other = np.broadcast_to(np.arange(4.0)[None, :, None], (1, 4, 2)).copy()
    assert channel_affine(scale, other) is None
    uniform = channel_affine(np.full((1, 4, 2), 0.5), np.zeros((1, 4, 2)))
    assert uniform is not None and uniform.axis is None


def test_fold_forward_equals_the_linear_op_of_the_affine_input() -> None:
    rng = np.random.default_rng(3)
    w, init = rng.normal(size=(3, 5)), rng.normal(size=(4, 5))
    g, b, x = rng.normal(size=3), rng.normal(size=3), rng.normal(size=(4, 3))
    view = LinearOpView(MatmulOp.__new__(MatmulOp), 0, 1, 1, 1, w)
    affine = channel_affine(np.broadcast_to(g, (4, 3)).copy(), np.broadcast_to(b, (4, 3)).copy())
    assert affine is not None
    weight, new_init = fold_forward(view, init, affine)
    np.testing.assert_allclose(x @ weight + new_init, (x * g + b) @ w + init, rtol=1e-12)
    # a conv: the shift reaches each output channel through the whole filter
    wc, gc, bc = rng.normal(size=(2, 3, 2, 2)), rng.normal(size=3), rng.normal(size=3)
    conv = LinearOpView(Conv2DNchwFchwOp.__new__(Conv2DNchwFchwOp), 0, 1, 1, 0, wc)
    full = (1, 3, 4, 4)
    affine = channel_affine(np.broadcast_to(gc[:, None, None], full).copy(), np.broadcast_to(bc[:, None, None], full).copy())
    assert affine is not None
    weight, new_init = fold_forward(conv, np.zeros((1, 2, 3, 3)), affine)
    np.testing.assert_allclose(weight, wc * gc[None, :, None, None])
    np.testing.assert_allclose(new_init[0, :, 1, 2], np.einsum("fckl,c->f", wc, bc))


def _half_module(w: np.ndarray, gamma: np.ndarray, bn_scale: np.ndarray) -> str:
    """gamma (f32, per channel, NCHW) -> truncf to f16 -> 1x1 conv of f16 weights into
    an f32 init -> truncf -> a per-channel f32 scale (a batch norm's, in torch-mlir's
    half form: widened, scaled, rounded)."""
    t = "tensor<1x4x2x2x"
    k = "tensor<4x1x1xf32>"
    return f"""
func.func @f(%x: {t}f32>) -> {t}f16> {{
  %gamma = arith.constant dense<{gamma.reshape(-1, 1, 1).tolist()}> : {k}
  %bn = arith.constant dense<{bn_scale.reshape(-1, 1, 1).tolist()}> : {k}
  %w = arith.constant dense<{w.astype(np.float64).tolist()}> : tensor<4x4x1x1xf16>
  %e32 = tensor.empty() : {t}f32>
  %e16 = tensor.empty() : {t}f16>
  %g = linalg.generic {{indexing_maps = [{ID4}, {CH}, {ID4}], {PAR4}}} ins(%x, %gamma : {t}f32>, {k}) outs(%e32 : {t}f32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }} -> {t}f32>
  %h = linalg.generic {{indexing_maps = [{ID4}, {ID4}], {PAR4}}} ins(%g : {t}f32>) outs(%e16 : {t}f16>) {{
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  }} -> {t}f16>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e32 : {t}f32>) -> {t}f32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%h, %w : {t}f16>, tensor<4x4x1x1xf16>) outs(%init : {t}f32>) -> {t}f32>
  %c16 = linalg.generic {{indexing_maps = [{ID4}, {ID4}], {PAR4}}} ins(%c : {t}f32>) outs(%e16 : {t}f16>) {{
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  }} -> {t}f16>
  %s = linalg.generic {{indexing_maps = [{ID4}, {CH}, {ID4}], {PAR4}}} ins(%c16, %bn : {t}f16>, {k}) outs(%e32 : {t}f32>) {{
  ^bb0(%a: f16, %b: f32, %o: f32):
    %wide = arith.extf %a : f16 to f32
    %r = arith.mulf %wide, %b : f32
    linalg.yield %r : f32
  }} -> {t}f32>
  %out = linalg.generic {{indexing_maps = [{ID4}, {ID4}], {PAR4}}} ins(%s : {t}f32>) outs(%e16 : {t}f16>) {{
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  }} -> {t}f16>
  return %out : {t}f16>
}}
"""


def test_half_weight_of_a_backward_and_a_forward_fold_is_rounded_once() -> None:
    rng = np.random.default_rng(11)
    w = rng.normal(size=(4, 4, 1, 1)).astype(np.float16)
    gamma, bn_scale = rng.uniform(0.5, 2.0, 4), rng.uniform(0.5, 2.0, 4)
    module = parse(_half_module(w, gamma, bn_scale))
    x = rng.normal(size=(1, 4, 2, 2)).astype(np.float32)
    (before,) = run_function(module, "f", [x])
    run_pipeline(module, "linalg-fuse-linear-ops")
    convs = [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]
    assert len(convs) == 1
    scaling = [op for op in module.walk() if isinstance(op, GenericOp) and any(b.name == "arith.mulf" for b in op.walk())]
    assert not scaling  # both scales folded
    weight = ConstantFolder().fold(convs[0].operands[1])
    assert weight is not None and weight.dtype == np.float16
    exact = w.astype(np.float64) * bn_scale[:, None, None, None] * gamma[None, :, None, None]
    once = exact.astype(np.float16)
    np.testing.assert_array_equal(weight, once)
    twice = (w.astype(np.float64) * bn_scale[:, None, None, None]).astype(np.float16).astype(np.float64)
    twice = (twice * gamma[None, :, None, None]).astype(np.float16)
    assert np.any(twice != once)  # the test can tell one rounding from two
    (after,) = run_function(module, "f", [x])
    scale = float(np.max(np.abs(before.astype(np.float64))))
    assert np.max(np.abs(after.astype(np.float64) - before.astype(np.float64))) <= 8 * 2.0**-10 * scale


_READERS = """
func.func @f(%s: tensor<1x3x3xf32>, %x: tensor<1x3x3xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x3x3xf32>, tensor<1x3xf32>) {
  %w = arith.constant dense<1.0> : tensor<3x2xf32>
  %w2 = arith.constant dense<1.0> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x2xf32>) -> tensor<1x2xf32>
  %cls = tensor.extract_slice %s[0, 0, 0] [1, 1, 3] [1, 1, 1] : tensor<1x3x3xf32> to tensor<1x1x3xf32>
  %fa = tensor.collapse_shape %cls [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
  %ma = linalg.matmul ins(%fa, %w : tensor<1x3xf32>, tensor<3x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %dist = tensor.extract_slice %s[0, 1, 0] [1, 1, 3] [1, 1, 1] : tensor<1x3x3xf32> to tensor<1x1x3xf32>
  %fb = tensor.collapse_shape %dist [[0, 1], [2]] : tensor<1x1x3xf32> into tensor<1x3xf32>
  %mb = linalg.matmul ins(%fb, %w : tensor<1x3xf32>, tensor<3x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %cut = tensor.extract_slice %s[0, 2, 0] [1, 1, 2] [1, 1, 1] : tensor<1x3x3xf32> to tensor<1x1x2xf32>
  %fc = tensor.collapse_shape %cut [[0, 1], [2]] : tensor<1x1x2xf32> into tensor<1x2xf32>
  %mc = linalg.matmul ins(%fc, %w2 : tensor<1x2xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = arith.addf %s, %x : tensor<1x3x3xf32>
  %neg = arith.negf %fa : tensor<1x3xf32>
  return %ma, %mb, %mc, %r, %neg : tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x3x3xf32>, tensor<1x3xf32>
}
"""


def test_linear_readers_are_the_linears_behind_channel_keeping_layout_ops() -> None:
    module = parse(_READERS)
    value = next(op for op in module.walk() if op.name == "func.func").body.blocks[0].args[0]
    readers = linear_readers(value, 2, ConstantFolder())
    names = sorted(r.linear.results[0].name_hint or "" for r in readers)
    assert names == ["ma", "mb"]  # not the slice that cuts a channel, not the residual add
    assert all(len(r.path) == 2 and r.index == 0 and r.axis == 1 for r in readers)
    assert linear_readers(value, 1, ConstantFolder()) == []  # the tokens axis: no matmul contracts it
    by_name = {r.linear.results[0].name_hint: r for r in readers}
    assert only_read_by(by_name["mb"].path[0], readers)  # the distillation head's own slice
    # the class token's collapse is read by a negf too: its slice needs a copy for the head
    assert not only_read_by(by_name["ma"].path[0], readers)
    assert not only_read_by(by_name["mb"].path[0], [by_name["ma"]])  # a reader left out
