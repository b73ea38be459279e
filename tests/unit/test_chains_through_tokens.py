"""A matmul on a conv's tokens (`chains_through_tokens`): the token test at its limits
(the layouts that make tokens, and the nearest ones that do not), and `conv_tokens` read
off IR."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp, ReturnOp

from heirpy.api import parse
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
from heirpy.transforms.linear.chains_through_tokens import conv_tokens, reads_tokens

SHAPE = (1, 3, 2, 4)  # N, C, H, W
INDEX = np.arange(24).reshape(SHAPE)


@pytest.mark.parametrize(("moved", "expected"), [
    (INDEX.transpose(0, 2, 3, 1).reshape(8, 3), True),  # flatten(2).transpose(1, 2), rows merged
    (INDEX.reshape(1, 3, 8).transpose(0, 2, 1), True),  # rows still [N, H*W]
    (INDEX.transpose(0, 2, 3, 1), True),  # [N, H, W, C]: rows regrouped
    (INDEX.transpose(0, 3, 2, 1).reshape(8, 3), False),  # positions in (w, h) order
    (INDEX.reshape(3, 8), False),  # rows the channels
    (INDEX.transpose(0, 2, 3, 1).reshape(8, 3)[:, ::-1], False),  # channels reversed
    (INDEX.transpose(0, 2, 3, 1).reshape(4, 6), False),  # two positions a row
])
def test_reads_tokens_at_its_limits(moved: np.ndarray, expected: bool) -> None:
    assert reads_tokens(SHAPE, moved) is expected


def test_reads_tokens_needs_a_feature_map() -> None:
    assert reads_tokens((3, 8), np.arange(24).reshape(8, 3)) is False


def _returned(ir: str) -> tuple[FuncOp, ReturnOp]:
    func = next(op for op in parse(ir).walk() if isinstance(op, FuncOp))
    ret = func.body.blocks[0].last_op
    assert isinstance(ret, ReturnOp)
    return func, ret


TOKENS = """
func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<4x3xf16> {
  %k = arith.constant dense<0.5> : tensor<3x2x3x3xf32>
  %c = arith.constant dense<0.0> : tensor<1x3x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw ins(%x, %k : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) outs(%c : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %h = arith.truncf %y : tensor<1x3x2x2xf32> to tensor<1x3x2x2xf16>
  %a = tensor.collapse_shape %h [[0], [1], [2, 3]] : tensor<1x3x2x2xf16> into tensor<1x3x4xf16>
  %e = tensor.empty() : tensor<1x4x3xf16>
  %t = linalg.transpose ins(%a : tensor<1x3x4xf16>) outs(%e : tensor<1x4x3xf16>) permutation = [0, 2, 1]
  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<1x4x3xf16> into tensor<4x3xf16>
  return %r : tensor<4x3xf16>
}
"""


def test_conv_tokens_through_a_truncf() -> None:
    _, ret = _returned(TOKENS)
    found = conv_tokens(ret.operands[0])
    assert found is not None
    conv, path = found
    assert isinstance(conv, Conv2DNchwFchwOp)
    assert [op.name for op in path] == ["tensor.collapse_shape", "linalg.transpose", "tensor.collapse_shape"]


def test_conv_tokens_path_is_in_order_from_the_conv() -> None:
    """Tokens left as `[N, H*W, C]` (no last collapse): the path is the collapse, then
    the transpose, from the conv's output to the matmul's operand."""
    ir = TOKENS.replace("tensor<4x3xf16>", "tensor<1x4x3xf16>").replace(
        "  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<1x4x3xf16> into tensor<1x4x3xf16>\n", "").replace(
        "return %r", "return %t")
    _, ret = _returned(ir)
    found = conv_tokens(ret.operands[0])
    assert found is not None
    assert [op.name for op in found[1]] == ["tensor.collapse_shape", "linalg.transpose"]


def test_conv_tokens_stops_at_another_op() -> None:
    _, ret = _returned(TOKENS.replace("%h = arith.truncf %y", "%h = arith.negf %y").replace(
        "tensor<1x3x2x2xf32> to tensor<1x3x2x2xf16>", "tensor<1x3x2x2xf32>").replace("xf16", "xf32"))
    assert conv_tokens(ret.operands[0]) is None
