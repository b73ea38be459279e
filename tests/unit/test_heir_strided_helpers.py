"""heir_strided_convs' pure helpers on each side: `grid_array` (a per-channel constant
spread over the grid, a varying one at every stride-th position, strides unequal on H
and W), `reads_spatial`, `expand` (dims, constants, and the reads it refuses) and
`conv_geometry` (default strides and dilations, batch 2). Found by issue 35's mutation
habit: these ran only inside whole strided-grid programs, with square strides."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.ir.affine import AffineExpr, AffineMap

from heirpy.api import parse
from heirpy.ir.dialects.linalg import Conv2DNchwFchwOp
from heirpy.transforms.heir.heir_strided_convs import conv_geometry, expand, grid_array, reads_spatial

D = [AffineExpr.dimension(i) for i in range(4)]
C0, C1 = AffineExpr.constant(0), AffineExpr.constant(1)


def _map(*results: AffineExpr) -> AffineMap:
    return AffineMap(4, 0, tuple(results))


def test_grid_array_spreads_a_channel_constant_and_spaces_a_varying_one() -> None:
    channel = np.arange(2.0).reshape(1, 2, 1, 1) * np.ones((1, 2, 2, 3))
    spread = grid_array(channel, (1, 2, 4, 7), (2, 3))
    np.testing.assert_array_equal(spread, np.broadcast_to(channel[:, :, :1, :1], (1, 2, 4, 7)))
    varying = np.arange(12.0).reshape(1, 2, 2, 3) + 1
    grid = grid_array(varying, (1, 2, 4, 7), (2, 3))
    np.testing.assert_array_equal(grid[:, :, ::2, ::3][:, :, :2, :3], varying)
    assert np.count_nonzero(grid) == varying.size  # zeros between
    assert grid.shape == (1, 2, 4, 7) and grid.dtype == varying.dtype
    for along in (2, 3):  # varying along H only, or W only: spaced too
        one_axis = np.ones((1, 2, 2, 3)) * np.arange(1.0, 3.0 if along == 2 else 4.0).reshape(
            (1, 1, 2, 1) if along == 2 else (1, 1, 1, 3))
        spaced = grid_array(one_axis, (1, 2, 4, 7), (2, 3))
        np.testing.assert_array_equal(spaced[:, :, ::2, ::3][:, :, :2, :3], one_axis)
        assert np.count_nonzero(spaced) == one_axis.size


@pytest.mark.parametrize(("results", "spatial"), [
    ((D[1], C0, C0), False), ((D[0], D[1]), False), ((C0,), False),
    ((D[0], D[1], D[2], D[3]), True), ((D[1], D[3]), True), ((D[2],), True), ((D[0] + D[1],), True),
])
def test_reads_spatial(results: tuple[AffineExpr, ...], spatial: bool) -> None:
    assert reads_spatial(_map(*results)) is spatial


def test_expand_reads_through_dims_and_constants() -> None:
    array = np.arange(6.0).reshape(2, 3)
    out = expand(array, _map(D[1], D[3]), (1, 2, 4, 3))
    assert out is not None and out.shape == (1, 2, 4, 3)
    np.testing.assert_array_equal(out[0, :, 0, :], array)
    np.testing.assert_array_equal(out[0, :, 3, :], array)
    row = expand(array, _map(C1, D[3]), (1, 2, 4, 3))
    assert row is not None
    np.testing.assert_array_equal(row[0, 1, 2], array[1])
    assert expand(array, _map(AffineExpr.constant(2), D[3]), (1, 2, 4, 3)) is None  # row 2 of 2
    assert expand(array, _map(D[1], D[3]), (1, 2, 4, 4)) is None  # 4 columns of 3
    assert expand(array, _map(D[1]), (1, 2, 4, 3)) is None  # one result for a 2-D array
    assert expand(array, _map(D[1], D[2] + D[3]), (1, 2, 4, 3)) is None


def test_conv_geometry() -> None:
    module = parse("""
func.func @f(%x: tensor<1x2x9x9xf32>, %y: tensor<2x2x9x9xf32>) -> (tensor<1x2x7x7xf32>, tensor<1x2x3x3xf32>, tensor<2x2x7x7xf32>) {
  %w = arith.constant dense<0.5> : tensor<2x2x3x3xf32>
  %b = arith.constant dense<0.0> : tensor<1x2x7x7xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x2x3x3xf32>
  %bb = arith.constant dense<0.0> : tensor<2x2x7x7xf32>
  %plain = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x2x9x9xf32>, tensor<2x2x3x3xf32>) outs(%b : tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  %odd = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[3, 2]> : vector<2xi64>} ins(%x, %w : tensor<1x2x9x9xf32>, tensor<2x2x3x3xf32>) outs(%b2 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %batch = linalg.conv_2d_nchw_fchw ins(%y, %w : tensor<2x2x9x9xf32>, tensor<2x2x3x3xf32>) outs(%bb : tensor<2x2x7x7xf32>) -> tensor<2x2x7x7xf32>
  return %plain, %odd, %batch : tensor<1x2x7x7xf32>, tensor<1x2x3x3xf32>, tensor<2x2x7x7xf32>
}""")
    convs = {op.results[0].name_hint: op for op in module.walk() if isinstance(op, Conv2DNchwFchwOp)}
    assert conv_geometry(convs["plain"]) == ((1, 1), (1, 1), (3, 3))
    assert conv_geometry(convs["odd"]) == ((3, 2), (1, 2), (3, 3))
    assert conv_geometry(convs["batch"]) is None
