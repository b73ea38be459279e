"""heirpy.export.network / pointwise: linalg IR read as encrypted-inference layers.

These tests need neither torch nor Orion: they check the layers, their folded weights
(against numpy) and the errors. test_export_orion.py runs the Orion networks.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import UnknownLoc

import heirpy
from heirpy.analysis.depth import analyze_module
from heirpy.export.network import Add, ChannelAffine, Conv, Flatten, Linear, Square, extract_network
from heirpy.export.orion import orion_depth
from heirpy.interp.resources import load_file
from heirpy.ir.diagnostics import HeirpyError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"

ID = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
CH = "affine_map<(d0, d1, d2, d3) -> (d1)>"
PAR4 = '["parallel", "parallel", "parallel", "parallel"]'
W = "dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[-1.0, 0.5], [0.25, 2.0]]]]> : tensor<2x1x2x2xf32>"


def conv_net(epilogue: str, result: str = "%c", out_type: str = "tensor<1x2x3x3xf32>", strides: str = "[1, 1]") -> str:
    """A 1->2 channel 2x2 conv of a 1x1x4x4 input, then `epilogue` (which may use
    %c, the conv, %x, the input, %e an empty 1x2x3x3 tensor and %zero)."""
    return f"""
func.func @main(%x: tensor<1x1x4x4xf32>) -> {out_type} {{
  %w = arith.constant {W}
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{strides}> : vector<2xi64>}} ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x1x2x2xf32>) outs(%f : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
{epilogue}
  return {result} : {out_type}
}}
"""


def generic(name: str, ins: str, types: str, maps: str, body: str, out: str = "%e") -> str:
    return f"""  {name} = linalg.generic {{indexing_maps = [{maps}], iterator_types = {PAR4}}} ins({ins} : {types}) outs({out} : tensor<1x2x3x3xf32>) {{
{body}
  }} -> tensor<1x2x3x3xf32>"""


def network(text: str):  # type: ignore[no-untyped-def]
    return extract_network(heirpy.parse(text, "net.mlir"), "main")


def conv_weight() -> np.ndarray:
    return np.array([[[[1.0, 2.0], [3.0, 4.0]]], [[[-1.0, 0.5], [0.25, 2.0]]]])


def export_error(text: str) -> str:
    with pytest.raises(HeirpyError) as info:
        network(text)
    message = str(info.value)
    assert "\n" not in message
    return message


# ----------------------------------------------------------------------------- example models
def test_raw_tiny_cnn_keeps_every_layer_and_reads_avg_pools() -> None:
    net = extract_network(load_file(EXAMPLES / "tiny_cnn.mlir").module)
    assert [type(layer) for layer in net.layers] == [Conv, Conv, Square, Conv, Conv, Flatten, Linear]
    pools = [layer.is_average_pool() for layer in net.layers if isinstance(layer, Conv)]
    assert pools == [False, True, False, True]
    first = net.layers[0]
    assert isinstance(first, Conv) and (first.stride, first.padding, first.groups) == (1, 1, 1)
    assert orion_depth(net) == 6
    assert net.output == len(net.layers)


@pytest.mark.parametrize("name", ["tiny_cnn", "alexnet_tiny"])
def test_fused_nets_need_heirpy_depth_bound_in_orion(name: str) -> None:
    loaded = load_file(EXAMPLES / f"{name}.mlir")
    raw_depth = orion_depth(extract_network(loaded.module))
    heirpy.run_pipeline(loaded.module, PIPELINE)
    net = extract_network(loaded.module)
    (depth,) = analyze_module(loaded.module)
    assert orion_depth(net) == depth.depth < raw_depth
    assert not any(isinstance(layer, Conv) and layer.is_average_pool() for layer in net.layers)
    strided = [layer for layer in net.layers if isinstance(layer, Conv)]
    assert all(layer.stride == 2 and layer.weight.shape[2] == 4 for layer in strided)



def test_fused_mobilenet_block_reaches_its_bound_with_one_linear_after_the_pool() -> None:
    """heirpy's main pipeline fuses the global pool, flatten and Linear into one
    contraction generic; Orion reads it as Flatten + one Linear over the whole 64x32x32
    feature map, so the pool costs no level of its own. (With the weight budget off: the
    main pipeline's `constant-budget=1.5` refuses this fold, 213x this block's constants
    for one level.)"""
    loaded = load_file(EXAMPLES / "mobilenet_block.mlir")
    raw = extract_network(loaded.module)
    heirpy.run_pipeline(loaded.module, PIPELINE.replace("linalg-fuse-ops", "linalg-fuse-ops{constant-budget=0}"))
    net = extract_network(loaded.module)
    (depth,) = analyze_module(loaded.module)
    assert orion_depth(net) == depth.depth == 5 < orion_depth(raw) == 6
    assert [type(layer) for layer in net.layers[-2:]] == [Flatten, Linear]
    assert net.layers[-1].weight.shape == (10, 64 * 32 * 32)


def test_orion_pipeline_keeps_mobilenet_blocks_pool_out_of_its_last_linear() -> None:
    """Under `ORION_PIPELINE` (`policy=diagonals`) that fusion is refused: Orion would
    pack the 10 x 65536 Linear from its dense matrix, square as the last layer (65,536
    diagonals at N = 2^15, against the global pool's 4,096 and the Linear's 73), which does
    not fit in 24 GB.
    The pool stays an average pool and the Linear reads the 64 pooled values."""
    from heirpy.export.orion import ORION_PIPELINE

    loaded = load_file(EXAMPLES / "mobilenet_block.mlir")
    heirpy.run_pipeline(loaded.module, ORION_PIPELINE)
    net = extract_network(loaded.module)
    (depth,) = analyze_module(loaded.module)
    assert orion_depth(net) == depth.depth == 6
    pool, flatten, linear = net.layers[-3:]
    assert isinstance(pool, Conv) and pool.is_average_pool() and pool.weight.shape[2:] == (32, 32)
    assert isinstance(flatten, Flatten)
    assert isinstance(linear, Linear) and linear.weight.shape == (10, 64)


# Orion's levels for the FHE examples, raw -> after ORION_PIPELINE: what docs/orion.md's
# Orion table reports. Every other fusion passes the diagonal bound (2x per level saved;
# the fused networks pack fewer diagonals than the raw ones), so only mobilenet_block
# keeps its layers.
ORION_LEVELS = {
    "tiny_cnn": (6, 3), "alexnet_tiny": (10, 7), "cryptonets": (8, 5), "lenet5": (11, 9),
    "lola_mnist": (5, 5), "resnet_block": (4, 4), "mobilenet_block": (6, 6),
}


@pytest.mark.parametrize("name", sorted(ORION_LEVELS))
def test_orion_pipeline_levels_equal_heirpys_depth_of_the_fused_ir(name: str) -> None:
    from heirpy.export.orion import ORION_PIPELINE

    loaded = load_file(EXAMPLES / f"{name}.mlir")
    raw = orion_depth(extract_network(loaded.module))
    heirpy.run_pipeline(loaded.module, ORION_PIPELINE)
    (depth,) = analyze_module(loaded.module)
    fused = orion_depth(extract_network(loaded.module))
    assert (raw, fused) == ORION_LEVELS[name]
    assert fused == depth.depth


# ----------------------------------------------------------------------------- folding
def test_batch_norm_chain_folds_into_the_conv() -> None:
    body = """  ^bb0(%v: f32, %m: f32, %g: f32, %b: f32, %o: f32):
    %s = arith.subf %v, %m : f32
    %t = arith.mulf %s, %g : f32
    %u = arith.addf %t, %b : f32
    linalg.yield %u : f32"""
    consts = """  %mean = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %gamma = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %beta = arith.constant dense<[0.1, -0.2]> : tensor<2xf32>
"""
    bn = generic("%bn", "%c, %mean, %gamma, %beta", "tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>",
                 f"{ID}, {CH}, {CH}, {CH}, {ID}", body)
    net = network(conv_net(consts + bn, "%bn"))
    (conv,) = net.layers
    assert isinstance(conv, Conv)
    gamma = np.array([2.0, 3.0])
    np.testing.assert_allclose(conv.weight, conv_weight() * gamma[:, None, None, None], rtol=1e-6)
    np.testing.assert_allclose(conv.bias, (0 - np.array([0.5, -1.0])) * gamma + np.array([0.1, -0.2]), rtol=1e-6)


def divide_by_nine(source: str, init: str) -> str:
    """`%avg = source / 9` on 1x2x1x1 tensors (a 3x3 pool's divisor)."""
    return f"""  %nine = arith.constant 9.0 : f32
  %avg = linalg.generic {{indexing_maps = [{ID}, {ID}], iterator_types = {PAR4}}} ins({source} : tensor<1x2x1x1xf32>) outs({init} : tensor<1x2x1x1xf32>) {{
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %nine : f32
    linalg.yield %d : f32
  }} -> tensor<1x2x1x1xf32>"""


def test_sum_pool_then_divide_is_an_average_pool() -> None:
    pool = """  %pe = tensor.empty() : tensor<1x2x1x1xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<3> : vector<2xi64>} ins(%c, %win : tensor<1x2x3x3xf32>, tensor<3x3xf32>) outs(%pf : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
""" + divide_by_nine("%p", "%pe")
    net = network(conv_net(pool, "%avg", "tensor<1x2x1x1xf32>"))
    conv, pool_layer = net.layers
    assert isinstance(pool_layer, Conv) and pool_layer.is_average_pool()
    assert (pool_layer.groups, pool_layer.stride, pool_layer.weight.shape) == (2, 3, (2, 1, 3, 3))


def test_fused_bias_square_epilogue_is_conv_then_quad() -> None:
    body = """  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %q = arith.mulf %s, %s : f32
    linalg.yield %q : f32"""
    consts = "  %bias = arith.constant dense<[0.5, -2.0]> : tensor<2xf32>\n"
    sq = generic("%sq", "%c, %bias", "tensor<1x2x3x3xf32>, tensor<2xf32>", f"{ID}, {CH}, {ID}", body)
    conv, square = network(conv_net(consts + sq, "%sq")).layers
    assert isinstance(conv, Conv) and isinstance(square, Square) and square.inputs == (1,)
    np.testing.assert_allclose(conv.bias, [0.5, -2.0], rtol=1e-6)
    np.testing.assert_allclose(conv.weight, conv_weight())


def test_scaled_residual_add_scales_the_input_with_a_batch_norm() -> None:
    # 3 * conv + 2 * x (x broadcast to 2 channels is not expressible, so use conv twice)
    body = """  ^bb0(%a: f32, %b: f32, %o: f32):
    %three = arith.constant 3.0 : f32
    %s = arith.mulf %a, %three : f32
    %t = arith.addf %s, %b : f32
    %q = arith.mulf %t, %t : f32
    linalg.yield %q : f32"""
    square_of_c = generic("%sq", "%c", "tensor<1x2x3x3xf32>", f"{ID}, {ID}", """  ^bb0(%a: f32, %o: f32):
    %q = arith.mulf %a, %a : f32
    linalg.yield %q : f32""")
    residual = generic("%r", "%c2, %sq", "tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>", f"{ID}, {ID}, {ID}", body)
    second = """  %w2 = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%sq, %w2 : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
"""
    net = network(conv_net(square_of_c + "\n" + second + residual, "%r"))
    kinds = [type(layer) for layer in net.layers]
    assert kinds == [Conv, Square, Conv, Add, Square]
    assert net.layers[3].inputs == (3, 2)  # the scaled conv and the square it reads
    np.testing.assert_allclose(net.layers[2].weight, 3.0, rtol=1e-6)  # (3 * conv2) folded


def _channel_scale(scales: str) -> str:
    """The encrypted input times a constant per channel (1x2x3x3, `scales` its two values)."""
    return f"""
func.func @main(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {{
  %s = arith.constant dense<[{scales}]> : tensor<2xf32>
  %e = tensor.empty() : tensor<1x2x3x3xf32>
{generic("%y", "%x, %s", "tensor<1x2x3x3xf32>, tensor<2xf32>", f"{ID}, {CH}, {ID}", '''  ^bb0(%v: f32, %k: f32, %o: f32):
    %m = arith.mulf %v, %k : f32
    linalg.yield %m : f32''')}
  return %y : tensor<1x2x3x3xf32>
}}
"""


def test_scale_of_the_encrypted_input_is_a_channel_affine() -> None:
    text = _channel_scale("2.0, -1.0")
    (affine,) = network(text).layers
    assert isinstance(affine, ChannelAffine) and affine.rank == 4
    np.testing.assert_allclose(affine.scale, [2.0, -1.0])
    np.testing.assert_allclose(affine.shift, [0.0, 0.0])


# ----------------------------------------------------------------------------- errors
def unary(body_ops: str, result: str = "%r") -> str:
    return conv_net(generic("%g", "%c", "tensor<1x2x3x3xf32>", f"{ID}, {ID}", f"""  ^bb0(%a: f32, %o: f32):
{body_ops}
    linalg.yield {result} : f32"""), "%g")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("    %r = arith.maximumf %a, %o : f32", "applies 'arith.maximumf' to the activation"),
        ("    %s = arith.mulf %a, %a : f32\n    %r = arith.mulf %s, %a : f32", "degree 3"),
        ("    %one = arith.constant 1.0 : f32\n    %s = arith.mulf %a, %a : f32\n    %r = arith.addf %s, %one : f32",
         "not the square of an affine map"),
        ("    %r = math.exp %a : f32", "applies 'math.exp'"),
    ],
)
def test_non_polynomial_or_unfactorable_elementwise_ops_are_errors(body: str, expected: str) -> None:
    message = export_error(unary(body))
    assert message.startswith("net.mlir:") and "error: 'linalg.generic'" in message
    assert expected in message


def conv_net_f16(epilogue: str, result: str) -> str:
    """`conv_net` in torch-mlir's f16 form: an f16 input and filter, an f32 accumulator
    rounded to f16 (%t), and `epilogue` widening %t to f32 and rounding its result back
    (%ef an empty 1x2x3x3 f16 tensor); the function returns f16."""
    w16 = W.replace("xf32>", "xf16>")
    return f"""
func.func @main(%x: tensor<1x1x4x4xf16>) -> tensor<1x2x3x3xf16> {{
  %w = arith.constant {w16}
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %ef = tensor.empty() : tensor<1x2x3x3xf16>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<1x1x4x4xf16>, tensor<2x1x2x2xf16>) outs(%f : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %t = linalg.generic {{indexing_maps = [{ID}, {ID}], iterator_types = {PAR4}}} ins(%c : tensor<1x2x3x3xf32>) outs(%ef : tensor<1x2x3x3xf16>) {{
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  }} -> tensor<1x2x3x3xf16>
  %g = linalg.generic {{indexing_maps = [{ID}, {ID}], iterator_types = {PAR4}}} ins(%t : tensor<1x2x3x3xf16>) outs(%ef : tensor<1x2x3x3xf16>) {{
  ^bb0(%a16: f16, %o: f16):
    %a = arith.extf %a16 : f16 to f32
{epilogue}
    %r16 = arith.truncf %r : f32 to f16
    linalg.yield %r16 : f16
  }} -> tensor<1x2x3x3xf16>
  return {result} : tensor<1x2x3x3xf16>
}}
"""


def test_an_f16_square_epilogue_is_a_quad_through_its_casts() -> None:
    """torch-mlir's f16 form widens and rounds around each op: the casts keep the degree,
    so the f16 net has the f32 net's layers (the rounded conv is the conv itself)."""
    body = "    %b = arith.constant 0.5 : f32\n    %s = arith.addf %a, %b : f32\n    %r = arith.mulf %s, %s : f32"
    conv, square = network(conv_net_f16(body, "%g")).layers
    assert isinstance(conv, Conv) and isinstance(square, Square)
    np.testing.assert_allclose(conv.weight, conv_weight())
    np.testing.assert_allclose(conv.bias, [0.5, 0.5])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("    %z = arith.constant 0.0 : f32\n    %r = arith.maximumf %a, %z : f32", "applies 'arith.maximumf'"),
        ("    %s = arith.mulf %a, %a : f32\n    %r = arith.mulf %s, %a : f32", "degree 3"),
    ],
)
def test_an_f16_epilogue_is_refused_for_its_nonlinearity_not_its_casts(body: str, expected: str) -> None:
    message = export_error(conv_net_f16(body, "%g"))
    assert expected in message and "truncf" not in message and "extf" not in message


def test_per_element_scale_is_an_error() -> None:
    scale = "  %k = arith.constant dense<2.0> : tensor<1x2x3x3xf32>\n" + generic(
        "%g", "%c, %k", "tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>", f"{ID}, {ID}, {ID}",
        "  ^bb0(%a: f32, %b: f32, %o: f32):\n    %m = arith.mulf %a, %b : f32\n    linalg.yield %m : f32")
    (conv,) = network(conv_net(scale, "%g")).layers  # a uniform scale folds
    np.testing.assert_allclose(conv.weight, 2 * conv_weight())
    varying = scale.replace("dense<2.0> : tensor<1x2x3x3xf32>", "dense<" + str(
        np.arange(18.0).reshape(1, 2, 3, 3).tolist()) + "> : tensor<1x2x3x3xf32>")
    assert "other than one number per channel" in export_error(conv_net(varying, "%g"))


def test_scaling_a_conv_that_another_op_reads_is_an_error() -> None:
    double = generic("%d", "%c", "tensor<1x2x3x3xf32>", f"{ID}, {ID}",
                     "  ^bb0(%a: f32, %o: f32):\n    %two = arith.constant 2.0 : f32\n    %m = arith.mulf %a, %two : f32\n    linalg.yield %m : f32")
    add = generic("%s", "%d, %c", "tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>", f"{ID}, {ID}, {ID}",
                  "  ^bb0(%a: f32, %b: f32, %o: f32):\n    %m = arith.addf %a, %b : f32\n    linalg.yield %m : f32")
    assert "other ops read too" in export_error(conv_net(double + "\n" + add, "%s"))


@pytest.mark.parametrize(
    ("epilogue", "result", "out_type", "expected"),
    [
        ("""  %pe = tensor.empty() : tensor<1x2x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %m = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %win : tensor<1x2x3x3xf32>, tensor<2x2xf32>) outs(%pe : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>""",
         "%m", "tensor<1x2x2x2xf32>", "'linalg.pooling_nchw_max' on the encrypted input has no Orion layer"),
        ("""  %te = tensor.empty() : tensor<1x2x3x3xf32>
  %t = linalg.transpose ins(%c : tensor<1x2x3x3xf32>) outs(%te : tensor<1x2x3x3xf32>) permutation = [0, 1, 3, 2]""",
         "%t", "tensor<1x2x3x3xf32>", "'linalg.transpose' on the encrypted input has no Orion layer"),
        ("""  %one = arith.constant 1.0 : f32
  %p = tensor.pad %c low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x2x3x3xf32> to tensor<1x2x5x5xf32>""",
         "%p", "tensor<1x2x5x5xf32>", "pads with a non-zero value"),
        ("""  %fl = tensor.collapse_shape %c [[0, 1], [2, 3]] : tensor<1x2x3x3xf32> into tensor<2x9xf32>""",
         "%fl", "tensor<2x9xf32>", "not a flatten of an NCHW tensor"),
    ],
)
def test_ops_orion_cannot_express_are_one_line_errors(epilogue: str, result: str, out_type: str, expected: str) -> None:
    message = export_error(conv_net(epilogue, result, out_type))
    assert message.startswith("net.mlir:") and ": error: " in message
    assert expected in message


def padded_conv_net(low: str, high: str, padded: str, out: str) -> str:
    """A zero pad of the 1x1x4x4 input (`low`/`high` on H and W), then the 2x2 conv."""
    return f"""
func.func @main(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x{out}xf32> {{
  %w = arith.constant {W}
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, {low}] high[0, 0, {high}] {{
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  }} : tensor<1x1x4x4xf32> to tensor<1x1x{padded}xf32>
  %e = tensor.empty() : tensor<1x2x{out}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x{out}xf32>) -> tensor<1x2x{out}xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%p, %w : tensor<1x1x{padded}xf32>, tensor<2x1x2x2xf32>) outs(%f : tensor<1x2x{out}xf32>) -> tensor<1x2x{out}xf32>
  return %c : tensor<1x2x{out}xf32>
}}
"""


def test_a_symmetric_zero_pad_is_the_conv_padding() -> None:
    (conv,) = network(padded_conv_net("1, 1", "1, 1", "6x6", "5x5")).layers
    assert isinstance(conv, Conv) and (conv.stride, conv.padding) == (1, 1)


@pytest.mark.parametrize(("low", "high", "padded", "out"), [
    ("1, 1", "0, 0", "5x5", "4x4"),  # top and left only: Conv2d(padding=1) would give 5x5
    ("0, 0", "1, 1", "5x5", "4x4"),
    ("1, 0", "1, 0", "6x4", "5x3"),  # H only
    ("1, 1", "2, 2", "7x7", "6x6"),
])
def test_a_pad_not_alike_on_all_four_sides_is_an_error(low: str, high: str, padded: str, out: str) -> None:
    """Orion's Conv2d pads every side by one number: a one-sided pad must not export as a
    symmetric padding (Orion would compute a larger output)."""
    message = export_error(padded_conv_net(low, high, padded, out))
    assert message.startswith("net.mlir:") and "Orion pads all four sides alike" in message


def test_unequal_strides_and_encrypted_weights_are_errors() -> None:
    strided = conv_net("", "%c", "tensor<1x2x3x2xf32>", "[1, 2]").replace(
        "outs(%f : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>", "outs(%g : tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>"
    ).replace("  %c = ", "  %g = tensor.empty() : tensor<1x2x3x2xf32>\n  %c = ")
    assert "one stride for H and W" in export_error(strided)
    matmul = """
func.func @main(%x: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %a = arith.constant dense<1.0> : tensor<2x3xf32>
  %z = arith.constant dense<0.0> : tensor<2x4xf32>
  %m = linalg.matmul ins(%a, %x : tensor<2x3xf32>, tensor<3x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}
"""
    assert "reads the encrypted value as operand #1; Orion's layer reads it as operand #0" in export_error(matmul)


def test_errors_for_ops_without_a_position_say_which_op() -> None:
    module = heirpy.parse(unary("    %r = arith.maximumf %a, %o : f32"), "net.mlir")
    for op in module.walk():
        op.location = UnknownLoc()  # as for ops a pass created
    with pytest.raises(HeirpyError) as info:
        extract_network(module)
    assert str(info.value).startswith("error: 'linalg.generic' (op #5 of @main) applies 'arith.maximumf'")


def test_function_signature_errors() -> None:
    with pytest.raises(HeirpyError, match="no function @nope"):
        extract_network(load_file(EXAMPLES / "tiny_cnn.mlir").module, "nope")
    two_args = "func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n"
    assert "must take one tensor" in export_error(two_args)
    constant = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %c = arith.constant dense<1.0> : tensor<2xf32>\n  return %c : tensor<2xf32>\n}\n"
    assert "does not depend on the input" in export_error(constant)


def test_importing_the_exporter_loads_neither_torch_nor_orion() -> None:
    import subprocess
    import sys

    code = ("import sys, heirpy, heirpy.export.orion, heirpy.export.orion_cli; "
            "print(sorted(m for m in ('torch', 'orion') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def spatial_sum(body: str) -> str:
    """`%s`: the conv %c summed over H and W into 1x2x1x1 by a reduction generic whose
    body (block arguments %v, %o) yields %a; torch-mlir's global pool."""
    return f"""  %ge = tensor.empty() : tensor<1x2x1x1xf32>
  %gf = linalg.fill ins(%zero : f32) outs(%ge : tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %s = linalg.generic {{indexing_maps = [{ID}, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}} ins(%c : tensor<1x2x3x3xf32>) outs(%gf : tensor<1x2x1x1xf32>) {{
  ^bb0(%v: f32, %o: f32):
{body}
    linalg.yield %a : f32
  }} -> tensor<1x2x1x1xf32>"""


def test_global_average_pool_generic_is_an_average_pool() -> None:
    gap = spatial_sum("    %a = arith.addf %v, %o : f32") + "\n" + divide_by_nine("%s", "%ge")
    conv, pool = network(conv_net(gap, "%avg", "tensor<1x2x1x1xf32>")).layers
    assert isinstance(pool, Conv) and pool.is_average_pool() and pool.weight.shape == (2, 1, 3, 3)
    maximum = gap.replace("%a = arith.addf %v, %o", "%a = arith.maximumf %v, %o")
    message = export_error(conv_net(maximum, "%avg", "tensor<1x2x1x1xf32>"))
    assert "neither a sum over H and W nor a contraction" in message


def test_sum_over_h_and_w_of_a_fused_epilogue_splits_into_its_layers() -> None:
    """heirpy's pointwise fusion pulls a batch-norm + x^2 epilogue into a global pool's
    reduction: `out += (2 * c + 1)^2`. The exporter reads it as conv (scaled, shifted),
    x^2, then the H x W sum."""
    gap = spatial_sum("""    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %v, %two : f32
    %b = arith.addf %m, %one : f32
    %q = arith.mulf %b, %b : f32
    %a = arith.addf %o, %q : f32""")
    conv, square, pool = network(conv_net(gap, "%s", "tensor<1x2x1x1xf32>")).layers
    assert isinstance(conv, Conv) and isinstance(square, Square) and isinstance(pool, Conv)
    np.testing.assert_allclose(conv.weight, 2 * conv_weight(), rtol=1e-6)
    np.testing.assert_allclose(conv.bias, [1.0, 1.0], rtol=1e-6)
    assert (pool.groups, pool.weight.shape, pool.stride) == (2, (2, 1, 3, 3), 3) and (pool.weight == 1).all()
    assert square.op is pool.op  # both come from the one generic


def test_layers_the_result_does_not_depend_on_are_dropped() -> None:
    dead = generic("%dead", "%c", "tensor<1x2x3x3xf32>", f"{ID}, {ID}",
                   "  ^bb0(%a: f32, %o: f32):\n    %q = arith.mulf %a, %a : f32\n    linalg.yield %q : f32")
    square = dead.replace("%dead", "%sq")
    net = network(conv_net(dead + "\n" + square, "%sq"))
    assert [type(layer) for layer in net.layers] == [Conv, Square]
    assert net.layers[1].inputs == (1,) and net.output == 2


# ----------------------------------------------------------------------------- contractions
FC = "dense<[[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]]> : tensor<3x2xf32>"


def contraction(x_map: str, w_map: str, out_map: str, iterators: str, body: str = "", fc: str = FC) -> str:
    """`%y` (1x3) = a reduction generic over the conv %c (1x2x3x3) and a 3x2 weight
    %fc: heirpy's fused global pool + Linear is `y[n, o] += c[n, ch, h, w] * fc[o, ch]`."""
    body = body or "    %p = arith.mulf %v, %k : f32\n    %a = arith.addf %o, %p : f32"
    fc_type = fc.split(" : ")[-1]
    return f"""  %fc = arith.constant {fc}
  %ye = tensor.empty() : tensor<1x3xf32>
  %yf = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x3xf32>) -> tensor<1x3xf32>
  %y = linalg.generic {{indexing_maps = [{x_map}, {w_map}, {out_map}], iterator_types = {iterators}}} ins(%c, %fc : tensor<1x2x3x3xf32>, {fc_type}) outs(%yf : tensor<1x3xf32>) {{
  ^bb0(%v: f32, %k: f32, %o: f32):
{body}
    linalg.yield %a : f32
  }} -> tensor<1x3xf32>"""


GAP_FC = (
    "affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>",
    "affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>",
    "affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>",
    '["parallel", "parallel", "reduction", "reduction", "reduction"]',
)


def test_contraction_of_a_global_pool_and_linear_is_flatten_then_one_linear() -> None:
    text = conv_net(contraction(*GAP_FC), "%y", "tensor<1x3xf32>")
    module = heirpy.parse(text, "net.mlir")
    net = extract_network(module, "main")
    conv, flatten, linear = net.layers
    assert isinstance(conv, Conv) and isinstance(flatten, Flatten) and isinstance(linear, Linear)
    fc = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]])
    # row o holds fc[o, ch] at every (ch, h, w) of the flattened 2x3x3 sample
    np.testing.assert_allclose(linear.weight, np.repeat(fc, 9, axis=1), rtol=1e-6)
    assert orion_depth(net) == 2
    # the layers compute what the IR computes (numpy on the layers vs the evaluator)
    from heirpy.interp.evaluator import run_function

    x = np.random.default_rng(0).standard_normal((1, 1, 4, 4)).astype(np.float32)
    (expected,) = run_function(module, "main", [x])
    c = np.zeros((1, 2, 3, 3))
    for i in range(3):
        for j in range(3):
            c[0, :, i, j] = np.einsum("okl,kl->o", conv_weight()[:, 0], x[0, 0, i:i + 2, j:j + 2])
    got = c.reshape(1, -1) @ linear.weight.T + linear.bias
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_contractions_orion_has_no_linear_for_are_errors() -> None:
    x_map, w_map, out_map, iterators = GAP_FC
    # the weight indexed by the batch loop: not one matrix for every sample
    batch_in_weight = contraction(x_map, "affine_map<(d0, d1, d2, d3, d4) -> (d1, d0)>", out_map, iterators,
                                  fc="dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>")
    assert "batch n outside the weight" in export_error(conv_net(batch_in_weight, "%y", "tensor<1x3xf32>"))
    # acc + a * b * b is not a contraction; its reduction is not a spatial sum either
    cubic = contraction(*GAP_FC, body="    %p = arith.mulf %v, %k : f32\n    %q = arith.mulf %p, %k : f32\n"
                        "    %a = arith.addf %o, %q : f32")
    assert "nor a contraction" in export_error(conv_net(cubic, "%y", "tensor<1x3xf32>"))


def test_contraction_of_two_encrypted_values_is_an_error() -> None:
    """`y[n, o] += c[n, ch, h, w] * c[n, ch, h, w]` is a ciphertext x ciphertext product:
    no Linear has an encrypted weight."""
    x_map = "affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>"
    square_sum = f"""  %ye = tensor.empty() : tensor<1x3xf32>
  %yf = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x3xf32>) -> tensor<1x3xf32>
  %y = linalg.generic {{indexing_maps = [{x_map}, {x_map}, {GAP_FC[2]}], iterator_types = {GAP_FC[3]}}} ins(%c, %c : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) outs(%yf : tensor<1x3xf32>) {{
  ^bb0(%v: f32, %k: f32, %o: f32):
    %p = arith.mulf %v, %k : f32
    %a = arith.addf %o, %p : f32
    linalg.yield %a : f32
  }} -> tensor<1x3xf32>"""
    message = export_error(conv_net(square_sum, "%y", "tensor<1x3xf32>"))
    assert message.endswith(
        "'linalg.generic' multiplies two encrypted values in a contraction; Orion's Linear needs a plaintext weight"
    )


def test_a_contraction_too_large_to_lay_out_is_an_error() -> None:
    """The Linear's matrix is built over the contraction's loops: past MAX_CONTRACTION_LOOPS
    (2^26) the exporter refuses before allocating anything that size (the activation
    itself is never materialised, so the input may be huge)."""
    text = """
func.func @main(%x: tensor<1x1x8192x8193xf32>) -> tensor<1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[2.0]> : tensor<1xf32>
  %ye = tensor.empty() : tensor<1x1xf32>
  %yf = linalg.fill ins(%zero : f32) outs(%ye : tensor<1x1xf32>) -> tensor<1x1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x8192x8193xf32>, tensor<1xf32>) outs(%yf : tensor<1x1xf32>) {
  ^bb0(%v: f32, %k: f32, %o: f32):
    %p = arith.mulf %v, %k : f32
    %a = arith.addf %o, %p : f32
    linalg.yield %a : f32
  } -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}
"""
    assert 8192 * 8193 > 1 << 26
    assert export_error(text).endswith(
        f"'linalg.generic' is a contraction over more than {1 << 26} points; too large to export"
    )


def test_a_scale_within_float_rounding_of_one_is_kept() -> None:
    """Only a scale within 1e-6 of 1 (coefficients read back through f32 arithmetic) is an
    identity; 1.00001 is a real scale, 10 ulps of f32 beyond that bound, and stays a layer."""
    text = _channel_scale("1.00001, 1.00001")
    (affine,) = network(text).layers
    assert isinstance(affine, ChannelAffine)
    np.testing.assert_allclose(affine.scale, [1.00001, 1.00001], rtol=1e-7)
