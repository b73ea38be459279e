"""The depth bound is a property of what a function computes, not of how it is written: a
correct rewrite leaves it as it was (bound(after) == bound(before), checked on generated
programs by tests/generated_properties.py's `bound_changed`). Here the forms the main
pipeline writes that the bound once read differently from their unfused sources:

* LayerNorm's variance, (x - mean)² summed, fused into one reduction whose square's factor
  reads x and the broadcast mean (two maps): the square, then the sum (ConvNeXt read
  93 before and 76 after linalg-fuse-ops, one level per LayerNorm);
* a one-element sum pool, which canonicalization writes as a conv whose filter only
  selects (an identity, or one number): a strided copy either way;
* `linalg.softmax` over a dimension of size 1 (raised from its five written-out generics):
  its exp and divide still end a linear chain.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/ is not a package

import heirpy  # noqa: E402
from generated_properties import FULL_PIPELINE, check_program  # noqa: E402
from heirpy.analysis.depth import analyze_module, depth_bound  # noqa: E402

MAIN_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"
_ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
_ROW = "affine_map<(d0, d1) -> (d0, 0)>"
_COL = "affine_map<(d0, d1) -> (d1)>"


def _sub_mean(name: str) -> str:
    return f"""
  %{name} = linalg.generic {{indexing_maps = [{_ID2}, {_ROW}, {_ID2}], iterator_types = ["parallel", "parallel"]}} ins(%h, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {{
  ^bb0(%in: f32, %mi: f32, %o: f32):
    %d = arith.subf %in, %mi : f32
    linalg.yield %d : f32
  }} -> tensor<4x8xf32>"""


def _row_sum(name: str, source: str) -> str:
    return f"""
  %{name} = linalg.generic {{indexing_maps = [{_ID2}, {_ROW}], iterator_types = ["parallel", "reduction"]}} ins(%{source} : tensor<4x8xf32>) outs(%z1 : tensor<4x1xf32>) {{
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }} -> tensor<4x1xf32>"""


_W = np.round(np.linspace(-1.0, 1.0, 64).reshape(8, 8) * 8) / 8
# A linear layer, LayerNorm over the channels (torch's var_mean computes its own x - mean:
# one consumer, so fusion puts it and the square into the variance's sum), gamma and beta
# per channel, a second linear layer. Bound: W1 1, mean and x - mean on W1's chain,
# (x - mean)² 2, its sum 3, rsqrt (not modelled), times (x - mean) 4, gamma 5, W2 on
# gamma's chain: 5.
LAYER_NORM = f"""
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {{
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-3 : f32
  %w1 = arith.constant dense<{_W.tolist()}> : tensor<8x8xf32>
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 0.75, 1.25, 0.25, 1.0]> : tensor<8xf32>
  %beta = arith.constant dense<[0.0, 0.125, -0.25, 0.5, 0.0, -0.5, 0.25, 0.125]> : tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>{_row_sum("s", "h")}
  %m = linalg.generic {{indexing_maps = [{_ID2}, {_ID2}], iterator_types = ["parallel", "parallel"]}} ins(%s : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) {{
  ^bb0(%in: f32, %o: f32):
    %q = arith.divf %in, %n : f32
    linalg.yield %q : f32
  }} -> tensor<4x1xf32>{_sub_mean("c")}{_sub_mean("c2")}
  %sq = linalg.generic {{indexing_maps = [{_ID2}, {_ID2}], iterator_types = ["parallel", "parallel"]}} ins(%c2 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {{
  ^bb0(%in: f32, %o: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  }} -> tensor<4x8xf32>{_row_sum("v", "sq")}
  %r = linalg.generic {{indexing_maps = [{_ID2}, {_ID2}], iterator_types = ["parallel", "parallel"]}} ins(%v : tensor<4x1xf32>) outs(%e1 : tensor<4x1xf32>) {{
  ^bb0(%in: f32, %o: f32):
    %q = arith.divf %in, %n : f32
    %t = arith.addf %q, %eps : f32
    %rs = math.rsqrt %t : f32
    linalg.yield %rs : f32
  }} -> tensor<4x1xf32>
  %y = linalg.generic {{indexing_maps = [{_ID2}, {_ROW}, {_COL}, {_COL}, {_ID2}], iterator_types = ["parallel", "parallel"]}} ins(%c, %r, %gamma, %beta : tensor<4x8xf32>, tensor<4x1xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {{
  ^bb0(%in: f32, %ri: f32, %g: f32, %b: f32, %o: f32):
    %p = arith.mulf %in, %ri : f32
    %pg = arith.mulf %p, %g : f32
    %pb = arith.addf %pg, %b : f32
    linalg.yield %pb : f32
  }} -> tensor<4x8xf32>
  %out = linalg.matmul ins(%y, %w1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}}
"""


def _entry(module):  # type: ignore[no-untyped-def]
    return next(op for op in module.walk() if op.name == "func.func")


def _bound(text: str) -> int:
    return depth_bound(_entry(heirpy.parse(text))).depth


@pytest.mark.parametrize("element", ["f32", "f16"])
def test_layer_norm_keeps_its_bound_through_the_pipeline(element: str) -> None:
    text = LAYER_NORM.replace("f32", element)
    assert _bound(text) == 5
    after = heirpy.parse(text)
    heirpy.run_pipeline(after, MAIN_PIPELINE)
    # The form that was misread: the subtraction and the square inside the variance's sum.
    fused = [op for op in after.walk() if op.name == "linalg.generic" and "reduction" in str(op.iterator_types)
             and {o.name for o in op.body.block.ops} >= {"arith.subf", "arith.mulf"}]
    assert len(fused) == 1
    assert depth_bound(_entry(after)).depth == 5
    assert analyze_module(heirpy.parse(text))[0].depth == 7
    # The mean reads x through a one-column matmul (channel_sums): one level earlier.
    assert analyze_module(after)[0].depth == 6
    outcome = check_program(text, FULL_PIPELINE)  # numerics (evaluator), bound, depth, ...
    assert outcome.ok, outcome.summary()


_SQUARE_SUMMED = f"""
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x1xf32>) -> tensor<4x1xf32> {{
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %v = linalg.generic {{indexing_maps = [{_ID2}, {_ROW}, {_ROW}], iterator_types = ["parallel", "reduction"]}} ins(%x, %y : tensor<4x8xf32>, tensor<4x1xf32>) outs(%z1 : tensor<4x1xf32>) {{
  ^bb0(%a: f32, %b: f32, %acc: f32):
    BODY
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<4x1xf32>
  return %v : tensor<4x1xf32>
}}
"""


@pytest.mark.parametrize(("body", "depth"), [
    # one factor, read through two maps: the square (1), then the sum (1)
    ("%d = arith.subf %a, %b : f32\n    %p = arith.mulf %d, %d : f32", 2),
    # two factors computed alike (no CSE): still a square
    ("%d = arith.subf %a, %b : f32\n    %d2 = arith.subf %a, %b : f32\n    %p = arith.mulf %d, %d2 : f32", 2),
    # factors read through different maps: a ct x ct contraction (x·y summed), one level
    ("%p = arith.mulf %a, %b : f32", 1),
    # one factor reads both maps, the other one of them: a contraction too
    ("%d = arith.subf %a, %b : f32\n    %p = arith.mulf %d, %a : f32", 1),
])
def test_a_square_is_a_square_however_many_maps_its_factor_reads(body: str, depth: int) -> None:
    result = analyze_module(heirpy.parse(_SQUARE_SUMMED.replace("BODY", body)))[0]
    assert (result.depth, result.ct_ct_muls) == (depth, 1)


def _conv(filter_: np.ndarray, window: str = "1x1") -> str:
    f, c = filter_.shape[:2]
    literal = f"dense<{filter_.tolist()}>"
    kh, kw = (int(n) for n in window.split("x"))
    ho, wo = 4 - kh + 1, (6 - kw) // 2 + 1
    return f"""
func.func @main(%x: tensor<1x{c}x4x6xf32>) -> tensor<1x{f}x{ho}x{wo}xf32> {{
  %w = arith.constant {literal} : tensor<{f}x{c}x{kh}x{kw}xf32>
  %z = arith.constant dense<0.0> : tensor<1x{f}x{ho}x{wo}xf32>
  %r = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>}} ins(%x, %w : tensor<1x{c}x4x6xf32>, tensor<{f}x{c}x{kh}x{kw}xf32>) outs(%z : tensor<1x{f}x{ho}x{wo}xf32>) -> tensor<1x{f}x{ho}x{wo}xf32>
  return %r : tensor<1x{f}x{ho}x{wo}xf32>
}}
"""


def _taps(*picks: tuple[int, int, int, int], shape: tuple[int, ...] = (4, 4, 1, 1), value: float = 1.0) -> np.ndarray:
    array = np.zeros(shape)
    for pick in picks:
        array[pick] = value
    return array


@pytest.mark.parametrize(("filter_", "window", "bound"), [
    (_taps((0, 0, 0, 0), (1, 1, 0, 0), (2, 2, 0, 0), (3, 3, 0, 0)), "1x1", 0),  # identity: a strided copy
    (_taps((0, 2, 0, 0), (1, 0, 0, 0), (2, 3, 0, 0), (3, 1, 0, 0), value=0.5), "1x1", 0),  # a gather, one scale
    (_taps((0, 0, 0, 0), (2, 2, 0, 0)), "1x1", 0),  # rows of zeros: a copy of fewer channels
    (_taps((0, 0, 0, 0), shape=(1, 1, 1, 1), value=3.0), "1x1", 0),  # one number
    (_taps((0, 1, 1, 0), (1, 0, 0, 1), (2, 3, 1, 1), (3, 2, 0, 0), shape=(4, 4, 2, 2)), "2x2", 0),  # one tap each
    # one past the limit of each rule: a second nonzero in a row, an unequal scale
    (_taps((0, 0, 0, 0), (1, 1, 0, 0), (2, 2, 0, 0), (3, 3, 0, 0), (3, 0, 0, 0)), "1x1", 1),
    (_taps((0, 0, 0, 0), (1, 1, 0, 0), (2, 2, 0, 0)) + _taps((3, 3, 0, 0), value=2.0), "1x1", 1),
    (_taps((0, 1, 1, 0), (0, 1, 0, 0), shape=(4, 4, 2, 2)), "2x2", 1),  # two taps in one row
])
def test_a_conv_whose_filter_only_selects_is_a_copy_in_the_bound(filter_: np.ndarray, window: str, bound: int) -> None:
    text = _conv(filter_, window)
    assert _bound(text) == bound
    assert analyze_module(heirpy.parse(text))[0].depth == 1  # the depth keeps its level


_POOL_1X1 = """
func.func @main(%x: tensor<1x4x3x6xf32>) -> tensor<1x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %win = tensor.empty() : tensor<1x1xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%x, %win : tensor<1x4x3x6xf32>, tensor<1x1xf32>) outs(%z : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %p : tensor<1x4x3x3xf32>
}
"""


_POOL_1X1_SIGMOID = _POOL_1X1.replace("  return %p : tensor<1x4x3x3xf32>", """  %one = arith.constant 1.0 : f32
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x4x3x3xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    %x2 = math.exp %n : f32
    %d = arith.addf %x2, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<1x4x3x3xf32>
  return %g : tensor<1x4x3x3xf32>""")


def test_a_selecting_conv_inside_a_kernel_is_read_through_the_kernel() -> None:
    """Fusion puts the identity conv and the sigmoid after it into one kernel: the filter
    is then the kernel's block argument, read as the constant it is."""
    after = heirpy.parse(_POOL_1X1_SIGMOID)
    heirpy.run_pipeline(after, MAIN_PIPELINE)
    assert any(op.name == "tensor_ext.kernel" for op in after.walk())
    assert _bound(_POOL_1X1_SIGMOID) == depth_bound(_entry(after)).depth == 0


def test_a_one_element_sum_pool_keeps_its_bound_as_the_conv_canonicalization_makes() -> None:
    after = heirpy.parse(_POOL_1X1)
    heirpy.run_pipeline(after, MAIN_PIPELINE)
    names = [op.name for op in after.walk() if op.name.startswith("linalg.") and op.name != "linalg.yield"]
    assert names == ["linalg.conv_2d_nchw_fchw"]
    assert _bound(_POOL_1X1) == depth_bound(_entry(after)).depth == 0
    outcome = check_program(_POOL_1X1, FULL_PIPELINE)
    assert outcome.ok, outcome.summary()


_SOFTMAX = """
func.func @main(%x: tensor<4x8x1xf32>) -> tensor<4x8x1xf32> {
  %w = arith.constant dense<0.5> : tensor<4x1x1xf32>
  %s = arith.constant dense<[[[0.5]], [[1.0]], [[1.5]], [[2.0]]]> : tensor<4x1x1xf32>
  %z = arith.constant dense<0.0> : tensor<4x8x1xf32>
  %e = tensor.empty() : tensor<4x8x1xf32>
  %h = linalg.batch_matmul ins(%x, %w : tensor<4x8x1xf32>, tensor<4x1x1xf32>) outs(%z : tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %y = linalg.softmax dimension(DIM) ins(%h : tensor<4x8x1xf32>) outs(%e : tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %o = linalg.batch_matmul ins(%y, %s : tensor<4x8x1xf32>, tensor<4x1x1xf32>) outs(%z : tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  return %o : tensor<4x8x1xf32>
}
"""


@pytest.mark.parametrize(("dim", "bound"), [(2, 2), (1, 3)])
def test_softmax_ends_a_chain_even_over_a_dimension_of_size_1(dim: int, bound: int) -> None:
    """Over size 1 the sum of the exps is a copy (no level) but the exp and the divide are
    still outside the model: the next linear op starts a chain. Over size 8 the sum costs
    its level too."""
    assert _bound(_SOFTMAX.replace("DIM", str(dim))) == bound


def _pool_then_linear(channels: int, outputs: int, element: str = "f32") -> str:
    """torch's global average pool (a sum over a 2x2 map, a divide), flatten, Linear: the
    classifier head whose fused matrix (channels*4 x outputs) `MAX_MATRIX_ELEMENTS` caps."""
    c, o = channels, outputs
    four = f"""{_ID4}, {_ID4}"""
    return f"""
func.func @main(%x: tensor<1x{c}x2x2xf32>) -> tensor<1x{o}xf32> {{
  %w = arith.constant dense<0.5> : tensor<{c}x{o}xf32>
  %zero = arith.constant 0.0 : f32
  %four = arith.constant 4.0 : f32
  %e = tensor.empty() : tensor<1x{c}x1x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x{c}x1x1xf32>) -> tensor<1x{c}x1x1xf32>
  %s = linalg.generic {{indexing_maps = [{_ID4}, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}} ins(%x : tensor<1x{c}x2x2xf32>) outs(%z : tensor<1x{c}x1x1xf32>) {{
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }} -> tensor<1x{c}x1x1xf32>
  %m = linalg.generic {{indexing_maps = [{four}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%s : tensor<1x{c}x1x1xf32>) outs(%e : tensor<1x{c}x1x1xf32>) {{
  ^bb0(%in: f32, %o: f32):
    %q = arith.divf %in, %four : f32
    linalg.yield %q : f32
  }} -> tensor<1x{c}x1x1xf32>
  %f = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x{c}x1x1xf32> into tensor<1x{c}xf32>
  %ze = tensor.empty() : tensor<1x{o}xf32>
  %zz = linalg.fill ins(%zero : f32) outs(%ze : tensor<1x{o}xf32>) -> tensor<1x{o}xf32>
  %y = linalg.matmul ins(%f, %w : tensor<1x{c}xf32>, tensor<{c}x{o}xf32>) outs(%zz : tensor<1x{o}xf32>) -> tensor<1x{o}xf32>
  return %y : tensor<1x{o}xf32>
}}
""".replace("f32", element)


_ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"


@pytest.mark.parametrize(("channels", "outputs", "form"), [
    (1024, 1023, "linalg.matmul"),  # 4096 x 1023: one column under the cap, the dense matrix
    (1024, 1024, "linalg.matmul"),  # 4096 x 1024 = 2^22 weights: at the cap, still the matrix
    (1024, 1025, "linalg.generic"),  # one column past it: the contraction generic
])
def test_the_fused_head_matrix_cap_at_its_limit(channels: int, outputs: int, form: str) -> None:
    """Seven zoo models (tinynet_e, mnasnet0_5, efficientnet_lite0, efficientnet_b0,
    mobilenet_v2, repvgg_a0, mobilenet_v3_large) end in a 2x2 global pool into a
    1280 -> 1000 (or 960 -> 1280) Linear, a 5120 x 1000 matrix, past 2^22: past the cap
    the head is ONE contraction generic reading the Linear's weight through a broadcast
    (`chains.emit_contraction_generic`), at the bound with no growth of the constants
    (the dense matrix would add 15.4 MB to each model, docs/zoo.md)."""
    from heirpy.transforms.linear.linear_maps import MAX_MATRIX_ELEMENTS

    assert channels * 4 * 1024 == MAX_MATRIX_ELEMENTS
    text = _pool_then_linear(channels, outputs)
    module = heirpy.parse(text)
    heirpy.run_pipeline(module, MAIN_PIPELINE)
    assert _bound(text) == 1
    assert analyze_module(module)[0].depth == 1
    heads = [op for op in module.walk() if op.name in ("linalg.matmul", "linalg.generic")]
    assert [op.name for op in heads] == [form]
    # The weight it reads: the Linear's (outputs x channels) or the 4x repeated matrix.
    weight_type = heads[0].operands[1].type
    expected = [outputs, channels] if form == "linalg.generic" else [channels * 4, outputs]
    assert list(weight_type.get_shape()) == expected  # type: ignore[attr-defined]


@pytest.mark.parametrize("element", ["f32", "f16"])
def test_a_small_head_fuses_to_its_bound_with_the_same_values(element: str) -> None:
    text = _pool_then_linear(8, 4, element)
    module = heirpy.parse(text)
    heirpy.run_pipeline(module, MAIN_PIPELINE)
    assert (_bound(text), analyze_module(module)[0].depth) == (1, 1)
    outcome = check_program(text, FULL_PIPELINE)  # the evaluator before and after
    # the default pipeline's one-step non-idempotence is allowed (test_generated_programs)
    assert set(outcome.problems) <= {"non_idempotent"}, outcome.summary()
