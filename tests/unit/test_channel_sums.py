"""A sum over a linear op's output channels read through a one-channel op of its input
(`channel_sums.FoldChannelSumIntoLinearOp`): the pure weight/init helpers against
numpy, the guards at their limits, and the cost rule's price at its limit."""

from __future__ import annotations

import numpy as np

from heirpy.api import parse, run_pipeline
from heirpy.interp.evaluator import run_function
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp, GenericOp
from heirpy.transforms.linear.channel_sums import (
    Digit,
    channel_sum_init,
    channel_sum_weights,
    linear_terms,
    reaches_linear,
    reshape_digit,
    sum_cost,
    summed_terms,
)
from heirpy.transforms.linear.constant_folding import ConstantFolder

ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
LAST = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>"


def test_channel_sum_weights_equal_the_summed_outputs() -> None:
    rng = np.random.default_rng(5)
    # x @ W summed over the columns, each scaled by s: x @ (W s)
    x, w, s = rng.normal(size=(3, 4)), rng.normal(size=(4, 5)), rng.normal(size=5)
    one = channel_sum_weights("dense", w, 1, s)
    assert one.shape == (4, 1)
    np.testing.assert_allclose(x @ one, ((x @ w) * s).sum(axis=1, keepdims=True), rtol=1e-12)
    # a 1x1 conv [F, C, 1, 1] summed over F: the filter sum_f s[f] W[f]
    wc = rng.normal(size=(5, 4, 1, 1))
    one = channel_sum_weights("dense", wc, 0, s)
    assert one.shape == (1, 4, 1, 1)
    np.testing.assert_allclose(one[0], np.einsum("f,fckl->ckl", s, wc), rtol=1e-12)
    # a depthwise filter [C, kh, kw]: output channel c reads input c only, so the sum is
    # the dense conv whose filter for input c is s[c] W[c]
    wd, sd = rng.normal(size=(4, 3, 3)), rng.normal(size=4)
    one = channel_sum_weights("depthwise", wd, 0, sd)
    assert one.shape == (1, 4, 3, 3)
    np.testing.assert_allclose(one[0], wd * sd[:, None, None])


def test_channel_sum_init_sums_scaled_init_and_shift() -> None:
    init = np.arange(6.0).reshape(2, 3)
    scale = np.broadcast_to(np.array([1.0, 2.0, -1.0]), (2, 3))
    shift = np.full((2, 3), 0.5)
    np.testing.assert_allclose(channel_sum_init(init, scale, shift, 1), [[0 + 2 - 2 + 1.5], [3 + 8 - 5 + 1.5]])


def _dw_mean(channels: int, body: str = "", init: float = 0.0) -> str:
    """A depthwise conv over `channels`, NHWC transpose, an optional elementwise `body`
    on the transposed value, then its sum over the channel into an init of `init`."""
    t = f"tensor<1x{channels}x4x4xf32>"
    tt = f"tensor<1x4x4x{channels}xf32>"
    st = "tensor<1x4x4x1xf32>"
    w = np.round(np.random.default_rng(channels).normal(size=(channels, 3, 3)), 2).tolist()
    mapped = "%t"
    extra = ""
    if body:
        extra = f"""
  %n = linalg.generic {{indexing_maps = [{ID4}, {ID4}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%t : {tt}) outs(%et : {tt}) {{
  ^bb0(%in: f32, %out: f32):
    {body}
  }} -> {tt}"""
        mapped = "%n"
    return f"""
func.func @f(%x: tensor<1x{channels}x6x6xf32>) -> ({t}, {st}) {{
  %w = arith.constant dense<{w}> : tensor<{channels}x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %start = arith.constant {init} : f32
  %e = tensor.empty() : {t}
  %i = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %c = linalg.depthwise_conv_2d_nchw_chw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<1x{channels}x6x6xf32>, tensor<{channels}x3x3xf32>) outs(%i : {t}) -> {t}
  %et = tensor.empty() : {tt}
  %t = linalg.transpose ins(%c : {t}) outs(%et : {tt}) permutation = [0, 2, 3, 1]{extra}
  %es = tensor.empty() : {st}
  %z = linalg.fill ins(%start : f32) outs(%es : {st}) -> {st}
  %s = linalg.generic {{indexing_maps = [{ID4}, {LAST}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins({mapped} : {tt}) outs(%z : {st}) {{
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  }} -> {st}
  return %c, %s : {t}, {st}
}}
"""


def _rewritten(text: str, pipeline: str = "linalg-fuse-linear-ops") -> tuple[bool, float]:
    """Whether the channel sum became a one-channel conv, and the largest difference of
    the function's results before and after."""
    module = parse(text)
    x = np.random.default_rng(0).normal(size=tuple(module.body.block.first_op.args[0].type.get_shape())).astype(np.float32)
    before = run_function(module, "f", [x])
    run_pipeline(module, pipeline)
    after = run_function(module, "f", [x])
    ones = [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]
    sums = [op for op in module.walk() if isinstance(op, GenericOp) and "reduction" in str(op.iterator_types)]
    assert bool(ones) != bool(sums)
    return bool(ones), max(float(np.max(np.abs(a - b))) for a, b in zip(after, before))


def test_channel_sum_fires_from_two_channels_and_not_on_one() -> None:
    fired, error = _rewritten(_dw_mean(2))
    assert fired and error < 1e-5
    fired, _ = _rewritten(_dw_mean(1))  # a sum over one element is a copy: nothing to gain
    assert not fired


def test_a_nonlinear_addend_or_a_nonzero_init_keeps_the_sum() -> None:
    relu = "%r = arith.maximumf %in, %zero : f32\n    linalg.yield %r : f32"
    assert not _rewritten(_dw_mean(4, relu))[0]
    assert not _rewritten(_dw_mean(4, init=1.0))[0]
    # a constant step after a layout op is no step of the op (steps fold only right
    # after it, where they scale its output channel): summed as it is
    affine = "%two = arith.constant 2.0 : f32\n    %m = arith.mulf %in, %two : f32\n    linalg.yield %m : f32"
    assert not _rewritten(_dw_mean(4, affine))[0]


def test_a_shift_after_a_layout_op_is_split_off_a_negated_operand_is_not() -> None:
    # `x + c` and `x - c` after the transpose: sum(x) plus the constant sum(+-c)
    # (MobileViT's bias after the expand_shape of SharedWeightBatchMatmulToMatmul)
    for op in ("addf %in, %k", "addf %k, %in", "subf %in, %k"):
        body = f"%k = arith.constant 0.75 : f32\n    %m = arith.{op} : f32\n    linalg.yield %m : f32"
        fired, error = _rewritten(_dw_mean(4, body), "linalg-canonicalizations,linalg-fuse-linear-ops")
        assert fired and error < 1e-5, op
    # `c - x` negates x: not a shift of x, summed as it is
    body = "%k = arith.constant 0.75 : f32\n    %m = arith.subf %k, %in : f32\n    linalg.yield %m : f32"
    assert not _rewritten(_dw_mean(4, body), "linalg-canonicalizations,linalg-fuse-linear-ops")[0]


def test_cost_rule_prices_the_one_channel_filter_at_its_limit() -> None:
    # the depthwise filter (4x3x3) gets a dense one-channel copy (1x4x3x3): 2x the weights
    assert _rewritten(_dw_mean(4), "linalg-fuse-ops{max-weight-growth=2 pointwise=false}")[0]
    assert not _rewritten(_dw_mean(4), "linalg-fuse-ops{max-weight-growth=1.99 pointwise=false}")[0]
    assert not _rewritten(_dw_mean(4), "linalg-fuse-ops{policy=size pointwise=false}")[0]


def _residual_stream() -> str:
    """y = (r + x @ W1) + h @ W2, summed over the channels: two adds deep."""
    rng = np.random.default_rng(2)
    w1, w2 = (np.round(rng.normal(size=(3, 4)), 2).tolist() for _ in range(2))
    t, s = "tensor<2x4xf32>", "tensor<2x1xf32>"
    return f"""
func.func @f(%r: {t}, %x: tensor<2x3xf32>, %h: tensor<2x3xf32>) -> {s} {{
  %w1 = arith.constant dense<{w1}> : tensor<3x4xf32>
  %w2 = arith.constant dense<{w2}> : tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %z = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %a = linalg.matmul ins(%x, %w1 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%z : {t}) -> {t}
  %b = linalg.matmul ins(%h, %w2 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%z : {t}) -> {t}
  %s1 = arith.addf %r, %a : {t}
  %y = arith.addf %s1, %b : {t}
  %es = tensor.empty() : {s}
  %zs = linalg.fill ins(%zero : f32) outs(%es : {s}) -> {s}
  %m = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}} ins(%y : {t}) outs(%zs : {s}) {{
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  }} -> {s}
  return %m : {s}
}}
"""


def test_one_add_is_split_the_residual_below_keeps_its_sum() -> None:
    module = parse(_residual_stream())
    rng = np.random.default_rng(0)
    args = [rng.normal(size=s).astype(np.float32) for s in ((2, 4), (2, 3), (2, 3))]
    (before,) = run_function(module, "f", args)
    run_pipeline(module, "linalg-fuse-linear-ops")
    (after,) = run_function(module, "f", args)
    np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-5)
    widths = sorted(op.results[0].type.get_shape()[1] for op in module.walk() if op.name == "linalg.matmul")
    # the last add's matmul became its one-column copy (the sum was its only reader); the
    # one below the first add stays whole, inside the residual stream's own sum
    assert widths == [1, 4]
    sums = [op for op in module.walk() if isinstance(op, GenericOp) and "reduction" in str(op.iterator_types)]
    assert len(sums) == 1  # the residual stream's own sum, r + x @ W1 whole


def _cls_concat(concat_dim: int) -> str:
    """`concat([cls, expand(x @ W)], concat_dim) + pos` summed over the channel (axis 2):
    ViT's first LayerNorm mean in small."""
    cat = "tensor<1x3x2xf32>" if concat_dim == 1 else "tensor<1x2x3xf32>"
    cls = "tensor<1x1x2xf32>" if concat_dim == 1 else "tensor<1x2x1xf32>"
    cls_value = "[[[0.1, 0.2]]]" if concat_dim == 1 else "[[[0.1], [0.2]]]"
    pos_value = "[[[0.5, 0.5], [1.0, 1.0], [2.0, 2.0]]]" if concat_dim == 1 else "[[[0.5, 0.5, 1.0], [1.0, 2.0, 2.0]]]"
    sum_t = "tensor<1x3x1xf32>" if concat_dim == 1 else "tensor<1x2x1xf32>"
    id3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
    return f"""
func.func @f(%x: tensor<2x2xf32>) -> {sum_t} {{
  %w = arith.constant dense<[[0.5, -0.3], [0.2, 0.7]]> : tensor<2x2xf32>
  %cls = arith.constant dense<{cls_value}> : {cls}
  %pos = arith.constant dense<{pos_value}> : {cat}
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) -> tensor<2x2xf32>
  %me = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 2, 2] : tensor<2x2xf32> into tensor<1x2x2xf32>
  %cat = tensor.concat dim({concat_dim}) %cls, %me : ({cls}, tensor<1x2x2xf32>) -> {cat}
  %ea = tensor.empty() : {cat}
  %a = linalg.generic {{indexing_maps = [{id3}, {id3}, {id3}], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%cat, %pos : {cat}, {cat}) outs(%ea : {cat}) {{
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %s = arith.addf %in, %in_1 : f32
    linalg.yield %s : f32
  }} -> {cat}
  %es = tensor.empty() : {sum_t}
  %zs = linalg.fill ins(%zero : f32) outs(%es : {sum_t}) -> {sum_t}
  %sum = linalg.generic {{indexing_maps = [{id3}, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a : {cat}) outs(%zs : {sum_t}) {{
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  }} -> {sum_t}
  return %sum : {sum_t}
}}
"""


def _summed(module) -> list:
    sums = [op for op in module.walk() if isinstance(op, GenericOp) and "reduction" in str(op.iterator_types)]
    (op,) = sums
    return summed_terms(op.inputs[0], 2, ConstantFolder())


def test_a_concat_along_the_tokens_and_a_constant_add_are_followed() -> None:
    module = parse(_cls_concat(1))
    terms = _summed(module)
    # the concat (class token: a constant part; the matmul: a linear part), then the
    # position embedding's constant
    assert [bool(t.parts) for t in terms] == [True, False]
    assert terms[1].constant is not None and reaches_linear(terms[0]) and not reaches_linear(terms[1])
    cls_part, matmul_part = terms[0].parts
    assert cls_part[0].constant is not None and matmul_part[0].view is not None
    assert len(linear_terms(terms[0])) == 1
    x = np.array([[0.3, -1.2], [2.0, 0.7]], dtype=np.float32)
    before = run_function(module, "f", [x])
    run_pipeline(module, "linalg-fuse-linear-ops")
    assert not any(isinstance(op, GenericOp) and "reduction" in str(op.iterator_types) for op in module.walk())
    np.testing.assert_allclose(run_function(module, "f", [x]), before, rtol=1e-6)


def test_a_concat_along_the_summed_channel_is_summed_whole() -> None:
    module = parse(_cls_concat(2))
    terms = _summed(module)
    assert len(terms) == 1 and terms[0].view is None and terms[0].constant is None and not terms[0].parts


def test_sum_cost_counts_the_constant_sums() -> None:
    base = sum_cost([], [])
    with_constants = sum_cost([], [], 197)
    assert with_constants.constants_after - base.constants_after == 197
    assert with_constants.weights_after == base.weights_after


def _digit_oracle(source: tuple[int, ...], result: tuple[int, ...], digit: Digit) -> list[Digit]:
    """Every digit of `source` that holds `result`'s `digit` under a row-major reshape,
    by brute force over numpy's reshape of an iota (each element's channel compared)."""
    flat = np.arange(int(np.prod(source)))
    channel = (np.indices(result)[digit.axis] // digit.inner % digit.size).reshape(-1)
    coords = np.indices(source).reshape(len(source), -1)
    found = []
    for axis, size in enumerate(source):
        for inner in range(1, size + 1):
            if size % (inner * digit.size) == 0 and np.array_equal(coords[axis][flat] // inner % digit.size, channel):
                found.append(Digit(axis, inner, digit.size))
    return found


def test_reshape_digit_agrees_with_numpy_on_reshapes() -> None:
    # MobileViT's unfold ([1, C, 8, 8] -> [C*4, 2, 4, 2] -> ... -> [1, C, 16, 4]) and
    # reshapes that mix the channel with other axes or split it
    cases = [
        ((1, 64, 8, 8), (512, 8), Digit(0, 8, 64)),
        ((512, 8), (256, 2, 4, 2), Digit(0, 4, 64)),
        ((1024, 4), (1, 64, 16, 4), Digit(1, 1, 64)),
        ((1, 3, 4, 4), (12, 4), Digit(0, 4, 3)),
        ((12, 4), (2, 6, 4), Digit(1, 1, 6)),  # 6 mixes the channel with the rows
        ((1, 4, 4, 4), (2, 2, 4, 4), Digit(1, 1, 2)),  # the channel's low digit
        ((1, 4, 4, 4), (2, 2, 4, 4), Digit(0, 1, 4)),  # 4 channels over two dims: split
        ((6, 4), (3, 8), Digit(1, 1, 8)),
    ]
    for source, result, digit in cases:
        expected = _digit_oracle(source, result, digit)
        got = reshape_digit(source, result, digit)
        assert (got is None and not expected) or got in expected, (source, result, digit, got, expected)
    assert reshape_digit((1, 64, 8, 8), (512, 8), Digit(0, 8, 64)) == Digit(1, 1, 64)
    # [12, 4] -> [2, 6, 4]: 6 is a digit of [12, 4] (12 = 2 x 6) but of no axis of the
    # conv's [1, 3, 4, 4] (3 channels x 2 of the 4 rows): not followed to the conv
    assert reshape_digit((12, 4), (2, 6, 4), Digit(1, 1, 6)) == Digit(0, 1, 6)
    assert reshape_digit((1, 3, 4, 4), (12, 4), Digit(0, 1, 6)) is None
    assert reshape_digit((1, 4, 4, 4), (2, 2, 4, 4), Digit(1, 1, 2)) == Digit(1, 1, 2)  # a digit, not whole


def test_reshape_digit_fits_the_channel_at_its_limit() -> None:
    # [5, 12] -> [60]: a digit of stride 4 fits in the source's 12 when inner * size
    # divides 12: size 3 is the limit (4 * 3 == 12), size 2 inside it; size 5 spans the
    # two source axes (4 * 5 = 20 > 12): no digit of the source
    cases = {Digit(0, 4, 3): Digit(1, 4, 3), Digit(0, 2, 3): Digit(1, 2, 3), Digit(0, 4, 5): None,
             Digit(0, 12, 5): Digit(0, 1, 5)}
    for digit, expected in cases.items():
        assert reshape_digit((5, 12), (60,), digit) == expected, digit
        oracle = _digit_oracle((5, 12), (60,), digit)
        assert (expected is None and not oracle) or expected in oracle, digit


def test_the_unfold_is_followed_and_a_mixed_reshape_is_not() -> None:
    """The sum over MobileViT's unfolded channel reads a one-channel conv (numerics
    against the evaluator); the same IR with a reshape mixing channel and rows is
    left alone."""
    text = """
func.func @f(%x: tensor<1x2x4x4xf32>) -> tensor<4x4x1xf32> {
  %w = arith.constant dense<[[[[0.9]], [[-0.46]]], [[[-1.31]], [[0.66]]], [[[0.96]], [[0.52]]]]> : tensor<3x2x1x1xf32>
  %zc = arith.constant dense<0.5> : tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%zc : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c1 = tensor.collapse_shape %c [[0, 1, 2], [3]] : tensor<1x3x4x4xf32> into tensor<12x4xf32>
  %x1 = tensor.expand_shape %c1 [[0, 1], [2, 3]] output_shape [6, 2, 2, 2] : tensor<12x4xf32> into tensor<6x2x2x2xf32>
  %e1 = tensor.empty() : tensor<6x2x2x2xf32>
  %t1 = linalg.transpose ins(%x1 : tensor<6x2x2x2xf32>) outs(%e1 : tensor<6x2x2x2xf32>) permutation = [0, 2, 1, 3]
  %c2 = tensor.collapse_shape %t1 [[0, 1], [2, 3]] : tensor<6x2x2x2xf32> into tensor<12x4xf32>
  %x2 = tensor.expand_shape %c2 [[0, 1, 2], [3]] output_shape [1, 3, 4, 4] : tensor<12x4xf32> into tensor<1x3x4x4xf32>
  %e2 = tensor.empty() : tensor<1x4x4x3xf32>
  %t2 = linalg.transpose ins(%x2 : tensor<1x3x4x4xf32>) outs(%e2 : tensor<1x4x4x3xf32>) permutation = [0, 3, 2, 1]
  %u = tensor.collapse_shape %t2 [[0, 1], [2], [3]] : tensor<1x4x4x3xf32> into tensor<4x4x3xf32>
  %z = arith.constant dense<0.0> : tensor<4x4x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%u : tensor<4x4x3xf32>) outs(%z : tensor<4x4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x4x1xf32>
  return %s : tensor<4x4x1xf32>
}
"""
    def one_channel(text: str) -> tuple[bool, float]:
        module = parse(text)
        x = np.random.default_rng(0).normal(size=(1, 2, 4, 4)).astype(np.float32)
        before = run_function(module, "f", [x])
        run_pipeline(module, "linalg-fuse-linear-ops")
        after = run_function(module, "f", [x])
        convs = [op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)]
        fired = any(op.results[0].type.get_shape()[1] == 1 for op in convs)
        return fired, max(float(np.max(np.abs(a - b))) for a, b in zip(after, before))

    fired, error = one_channel(text)
    assert fired and error < 1e-5
    # the patch rows transposed with the channel's rows: [6, 2, 2, 2] read as [2, 6, 2, 2]
    # (6 = 3 channels x 2 patch rows split as 2 x 3) before the same ops: not a channel sum
    mixed = text.replace("output_shape [6, 2, 2, 2] : tensor<12x4xf32> into tensor<6x2x2x2xf32>",
                         "output_shape [6, 2, 2, 2] : tensor<12x4xf32> into tensor<6x2x2x2xf32>\n"
                         "  %m = tensor.collapse_shape %x1 [[0, 1], [2], [3]] : tensor<6x2x2x2xf32> into tensor<12x2x2xf32>\n"
                         "  %x1b = tensor.expand_shape %m [[0, 1], [2], [3]] output_shape [2, 6, 2, 2] : tensor<12x2x2xf32> into tensor<2x6x2x2xf32>\n"
                         "  %et = tensor.empty() : tensor<6x2x2x2xf32>\n"
                         "  %tt = linalg.transpose ins(%x1b : tensor<2x6x2x2xf32>) outs(%et : tensor<6x2x2x2xf32>) permutation = [1, 0, 2, 3]")
    mixed = mixed.replace("ins(%x1 : tensor<6x2x2x2xf32>) outs(%e1", "ins(%tt : tensor<6x2x2x2xf32>) outs(%e1")
    fired, error = one_channel(mixed)
    assert not fired and error == 0
