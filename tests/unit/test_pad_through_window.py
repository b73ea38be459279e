"""The legality rule that moves a zero pad from a window op's output to its input
(`linear_maps.pad_through_window`), as a pure function and proved by numerics.

`pad(op(x), (low, high)) == op'(pad(x, (low*s, high*s)))`, with op' the same weights and
its init zero-padded, holds exactly when the rule says so: checked on every small
configuration (sizes, kernels, strides, dilations, pads, outputs read), on random data and
weights, in both directions -- where the rule gives a pad the two sides are equal, where it
refuses they differ. That is what lets VGG's `avgpool(2) -> pad 1 -> conv` fold the pool
into the conv (tests/filecheck/transforms/linalg-fuse-linear-chains/pool_pad_conv.mlir
runs it through the pass, guards included).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from heirpy.transforms.linear.linear_maps import (
    AffineConv,
    add_pads,
    pad_conv_input,
    pad_convs_input,
    pad_through_window,
    pool_filter,
    window_out_size,
)


# ----------------------------------------------------------------------------- the rule
def test_aligned_pool_moves_its_pad_scaled_by_the_stride() -> None:
    # AvgPool2d(2) of 32 rows, then VGG's pad 1: pad the pool's input by 2
    assert pad_through_window(32, 16, 2, 2, 1, 1, 1) == (2, 2)
    # asymmetric pads move side by side
    assert pad_through_window(32, 16, 2, 2, 1, 1, 0) == (2, 0)
    assert pad_through_window(32, 16, 2, 2, 1, 0, 3) == (0, 6)
    # a window narrower than its stride (1x1 stride 2: every other row) moves too
    assert pad_through_window(8, 4, 1, 2, 1, 1, 1) == (2, 2)
    # any 1x1 unit-stride op (an elementwise step) moves a pad unchanged
    assert pad_through_window(5, 5, 1, 1, 1, 2, 1) == (2, 1)
    # no pad: nothing to move, always allowed
    assert pad_through_window(7, 2, 3, 2, 1, 0, 0) == (0, 0)


def test_overlapping_windows_refuse_a_low_pad_only() -> None:
    # AvgPool2d(3, stride 2) of 16 rows: the output before the first would read row 0
    assert pad_through_window(16, 7, 3, 2, 1, 1, 0) is None
    # a 3x3 unit-stride conv: the same
    assert pad_through_window(8, 6, 3, 1, 1, 1, 1) is None
    # dilation widens the window: 2 taps 2 apart at stride 2 overlap the next window
    assert pad_through_window(8, 3, 2, 2, 2, 1, 0) is None
    # the high side does not care about overlap: the new outputs start past the input's end
    assert pad_through_window(15, 7, 3, 2, 1, 0, 1) is None  # row 14 left out
    assert pad_through_window(8, 4, 2, 2, 1, 0, 1) == (0, 2)


def test_a_row_the_op_leaves_out_refuses_a_high_pad_only() -> None:
    # a 2x2 pool of 17 rows reads 16: the new output after the last would read row 16
    assert pad_through_window(17, 8, 2, 2, 1, 0, 1) is None
    assert pad_through_window(17, 8, 2, 2, 1, 1, 0) == (2, 0)
    # an op asked for fewer outputs than fit (MLIR reads only what its result needs)
    assert pad_through_window(8, 3, 2, 2, 1, 0, 1) is None
    assert pad_through_window(8, 3, 2, 2, 1, 1, 0) == (2, 0)


def test_nonsense_is_refused() -> None:
    assert pad_through_window(8, 4, 2, 2, 1, -1, 0) is None
    assert pad_through_window(8, 4, 0, 2, 1, 0, 0) is None
    assert pad_through_window(8, 4, 2, 0, 1, 0, 0) is None
    assert pad_through_window(8, 4, 2, 2, 0, 0, 0) is None


# ----------------------------------------------------------------------------- numerics
def _both_sides(
    rng: np.random.Generator, in_size: int, out_size: int, k: int, s: int, d: int,
    low: int, high: int, input_pad: tuple[int, int],
) -> tuple[np.ndarray, np.ndarray]:
    """pad(op(x)) and op(pad(x)) along H (W is 1), for a random 2-channel op with a
    random init; op(pad(x)) computes out_size + low + high outputs."""
    x = rng.normal(size=(1, 2, in_size, 1))
    weight = rng.normal(size=(2, 2, k, 1))
    init = rng.normal(size=(2, out_size, 1))
    op = AffineConv(weight, (s, 1), (d, 1), init)
    lhs = np.pad(op.apply(x), ((0, 0), (0, 0), (low, high), (0, 0)))
    padded_init = np.pad(init, ((0, 0), (low, high), (0, 0)))
    moved = AffineConv(weight, (s, 1), (d, 1), padded_init)
    rhs = moved.apply(np.pad(x, ((0, 0), (0, 0), input_pad, (0, 0))))
    return lhs, rhs


def _configurations():  # type: ignore[no-untyped-def]
    for in_size, k, s, d in itertools.product(range(1, 9), range(1, 5), range(1, 4), range(1, 3)):
        most = window_out_size(in_size, k, s, d)
        for out_size in range(1, most + 1):
            for low, high in itertools.product(range(3), range(3)):
                yield in_size, out_size, k, s, d, low, high


def test_the_rule_is_exact_on_every_small_configuration() -> None:
    """Equal where the rule moves the pad, different where it refuses: so the rule is
    neither too strict nor too loose (a refused case reads real data where the padded
    output holds zero, and random weights make that visible)."""
    rng = np.random.default_rng(0)
    moved = refused = 0
    for in_size, out_size, k, s, d, low, high in _configurations():
        widths = pad_through_window(in_size, out_size, k, s, d, low, high)
        lhs, rhs = _both_sides(rng, in_size, out_size, k, s, d, low, high,
                               widths if widths is not None else (low * s, high * s))
        case = (in_size, out_size, k, s, d, low, high)
        if widths is not None:
            assert widths == (low * s, high * s)
            np.testing.assert_allclose(rhs, lhs, rtol=1e-12, atol=1e-12, err_msg=str(case))
            moved += 1
        else:
            assert not np.allclose(rhs, lhs), f"the rule refused {case}, but the pad moves"
            refused += 1
    assert moved > 1000 and refused > 1000  # both sides of the rule are exercised


def test_only_the_pad_times_the_stride_moves() -> None:
    """Where the rule moves (low, high), an input pad of the same total width shifted by
    one row (low*s - 1, high*s + 1) gives other values: the pad must be the multiple."""
    rng = np.random.default_rng(1)
    checked = 0
    for in_size, out_size, k, s, d, low, high in _configurations():
        if s < 2 or low == 0 or pad_through_window(in_size, out_size, k, s, d, low, high) is None:
            continue
        lhs, rhs = _both_sides(rng, in_size, out_size, k, s, d, low, high, (low * s - 1, high * s + 1))
        assert not np.allclose(rhs, lhs), (in_size, out_size, k, s, d, low, high)
        checked += 1
    assert checked > 100


def test_a_nonzero_pad_value_does_not_move() -> None:
    """The rule is for zero pads: with a pad value v the moved form's new outputs are v
    times the sum of the taps (plus the init), not v. They agree only when the taps sum
    to 1 (an average pool alone), which a conv's do not, so the pass requires 0.0."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(1, 2, 4, 4))
    op = AffineConv(rng.normal(size=(2, 2, 2, 2)), (2, 2), (1, 1), np.zeros((2, 2, 2)))
    moved = AffineConv(op.weight, (2, 2), (1, 1), np.zeros((2, 4, 4)))
    for value, equal in ((0.0, True), (1.0, False)):
        lhs = np.pad(op.apply(x), ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=value)
        rhs = moved.apply(np.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)), constant_values=value))
        assert np.allclose(rhs, lhs) == equal
    average = AffineConv(pool_filter(2, (2, 2)) / 4, (2, 2), (1, 1), np.zeros((2, 2, 2)))
    lhs = np.pad(average.apply(x), ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=1.0)
    rhs = AffineConv(average.weight, (2, 2), (1, 1), np.zeros((2, 4, 4))).apply(
        np.pad(x, ((0, 0), (0, 0), (2, 2), (2, 2)), constant_values=1.0))
    np.testing.assert_allclose(rhs, lhs)  # the exception: taps summing to 1


# ----------------------------------------------------------------------------- sequences
@pytest.mark.parametrize("hw", [(8, 8), (8, 12)])
def test_a_pad_moves_through_a_pool_and_its_divide(hw: tuple[int, int]) -> None:
    """VGG's stage boundary as AffineConvs: sum pool 2x2/2, divide by 4 (a 1x1 diagonal
    conv), pad 1; moved, it is a pad of 2 of the input, and the composed op agrees."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 3, *hw))
    out_hw = (hw[0] // 2, hw[1] // 2)
    pool = AffineConv(pool_filter(3, (2, 2)), (2, 2), (1, 1), np.zeros((3, *out_hw)))
    divide = AffineConv(np.eye(3)[:, :, None, None] / 4, (1, 1), (1, 1), rng.normal(size=(3, *out_hw)))
    pad = ((1, 1), (0, 2))
    moved = pad_convs_input([pool, divide], hw, pad)
    assert moved is not None
    convs, outer = moved
    assert outer == ((2, 2), (0, 4))
    expected = np.pad(divide.apply(pool.apply(x)), ((0, 0), (0, 0), *pad))
    got = np.pad(x, ((0, 0), (0, 0), *outer))
    for conv in convs:
        got = conv.apply(got)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_a_pad_does_not_move_through_a_3x3_conv_before_the_pool() -> None:
    conv = AffineConv(np.ones((2, 2, 3, 3)), (1, 1), (1, 1), np.zeros((2, 6, 6)))
    pool = AffineConv(pool_filter(2, (2, 2)), (2, 2), (1, 1), np.zeros((2, 3, 3)))
    assert pad_convs_input([conv, pool], (8, 8), ((1, 1), (1, 1))) is None
    assert pad_conv_input(pool, (6, 6), ((1, 1), (1, 1))) is not None


def test_pads_add() -> None:
    assert add_pads(((1, 2), (3, 4)), ((10, 20), (30, 40))) == ((11, 22), (33, 44))
    x = np.arange(6.0).reshape(1, 1, 2, 3)
    twice = np.pad(np.pad(x, ((0, 0), (0, 0), (1, 2), (3, 4))), ((0, 0), (0, 0), (10, 20), (30, 40)))
    once = np.pad(x, ((0, 0), (0, 0), (11, 22), (33, 44)))
    np.testing.assert_array_equal(twice, once)
