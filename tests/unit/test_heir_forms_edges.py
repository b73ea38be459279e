"""heir_forms' guards at their limits: which convs are left to HEIR's own kernel
(`heir_fails_on`, `pad_costs_a_level`), the row-major read rule, the dense matvec size
limit, on each side of each limit."""

from __future__ import annotations

import pytest
from xdsl.ir.affine import AffineDimExpr, AffineMap

from heirpy.api import parse
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
from heirpy.transforms.heir.heir_forms import (
    MAX_DENSE_ELEMENTS,
    fits,
    heir_fails_on,
    pad_costs_a_level,
    reads_in_row_major_order,
)

d0, d1, d2, d3 = (AffineDimExpr(i) for i in range(4))


def conv(kernel: tuple[int, int], low: tuple[int, int], high: tuple[int, int], channels: int = 4,
         size: int = 8) -> Conv2DNchwFchwOp:
    kh, kw = kernel
    ph, pw = size + low[0] + high[0], size + low[1] + high[1]
    oh, ow = ph - kh + 1, pw - kw + 1
    text = f"""func.func @f(%x: tensor<1x{channels}x{size}x{size}xf32>, %w: tensor<2x{channels}x{kh}x{kw}xf32>) -> tensor<1x2x{oh}x{ow}xf32> {{
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, {low[0]}, {low[1]}] high[0, 0, {high[0]}, {high[1]}] {{
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %z : f32
  }} : tensor<1x{channels}x{size}x{size}xf32> to tensor<1x{channels}x{ph}x{pw}xf32>
  %e = tensor.empty() : tensor<1x2x{oh}x{ow}xf32>
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%p, %w : tensor<1x{channels}x{ph}x{pw}xf32>, tensor<2x{channels}x{kh}x{kw}xf32>) outs(%e : tensor<1x2x{oh}x{ow}xf32>) -> tensor<1x2x{oh}x{ow}xf32>
  return %c : tensor<1x2x{oh}x{ow}xf32>
}}"""
    return next(op for op in parse(text).walk() if isinstance(op, Conv2DNchwFchwOp))


@pytest.mark.parametrize(
    ("kernel", "low", "high", "fails"),
    [
        ((3, 3), (1, 1), (1, 1), False),  # torch's (k - 1) / 2
        ((3, 3), (2, 2), (2, 2), False),  # one narrower than the filter
        ((3, 3), (3, 0), (0, 0), True),  # as wide as the filter, low side, H
        ((3, 3), (0, 0), (0, 3), True),  # as wide as the filter, high side, W
        ((2, 3), (2, 0), (0, 0), True),  # H's filter is 2
        ((2, 3), (0, 2), (0, 2), False),  # W's filter is 3
        ((1, 1), (0, 0), (0, 0), True),  # a 1x1 filter
        ((1, 3), (0, 0), (0, 0), False),
    ],
)
def test_heir_fails_on_a_pad_as_wide_as_the_filter_and_on_1x1(
    kernel: tuple[int, int], low: tuple[int, int], high: tuple[int, int], fails: bool
) -> None:
    assert heir_fails_on(conv(kernel, low, high)) is fails


@pytest.mark.parametrize(
    ("channels", "size", "low", "high", "costs"),
    [
        (4, 8, (1, 1), (1, 1), False),  # folded, 4*8*8 = 256 elements: a power of two
        (3, 8, (1, 1), (1, 1), True),  # folded, 192 elements: masked, a level
        (4, 8, (1, 0), (0, 1), True),  # not symmetric: not folded
    ],
)
def test_a_pad_costs_a_level_unless_folded_on_a_power_of_two(
    channels: int, size: int, low: tuple[int, int], high: tuple[int, int], costs: bool
) -> None:
    assert pad_costs_a_level(conv((3, 3), low, high, channels, size)) is costs


def test_row_major_reads() -> None:
    loops = [1, 4, 2, 1]
    assert reads_in_row_major_order(AffineMap(4, 0, (d0, d1, d2)), [1, 4, 2], loops)
    assert reads_in_row_major_order(AffineMap(4, 0, (d0, d1, d2, d3)), [1, 4, 2, 1], loops)
    assert not reads_in_row_major_order(AffineMap(4, 0, (d0, d2, d1)), [1, 2, 4], loops)  # out of order
    assert not reads_in_row_major_order(AffineMap(4, 0, (d0, d1)), [1, 4], loops)  # drops d2 of size 2
    assert not reads_in_row_major_order(AffineMap(4, 0, (d1, d1)), [4, 4], loops)  # a loop twice
    assert not reads_in_row_major_order(AffineMap(4, 1, (d0, d1, d2)), [1, 4, 2], loops)  # a symbol
    assert not reads_in_row_major_order(AffineMap(4, 0, (d0, d1, d2)), [1, 2, 4], loops)  # another shape
    assert not reads_in_row_major_order(AffineMap(4, 0, (d0, d1 + d2)), [1, 8], loops)


def test_a_dense_matvec_fits_up_to_its_element_limit() -> None:
    side = 1 << 12  # 4096 * 2048 = MAX_DENSE_ELEMENTS
    assert fits(side, MAX_DENSE_ELEMENTS // side, 1 << 16)
    assert not fits(side, MAX_DENSE_ELEMENTS // side + 1, 1 << 16)
    assert fits(16, 16, 16) and not fits(17, 16, 16) and not fits(16, 17, 16)
