"""The evaluator's window helper (`windows`) against the direct definition
v[..., o, ..., t] = x[..., o*stride + t*dilation, ...], on unequal strides and
dilations per axis, axes given out of order, the input exactly as long as the windows
read and one element short (a size error)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from heirpy.interp.errors import EvaluationError
from heirpy.interp.linalg_named import windows


def direct(x: np.ndarray, axes: list[int], kernel: list[int], strides: list[int], dilations: list[int],
           outs: list[int]) -> np.ndarray:
    shape = list(x.shape)
    for axis, o in zip(axes, outs):
        shape[axis] = o
    result = np.zeros(shape + list(kernel), dtype=x.dtype)
    for index in itertools.product(*[range(s) for s in shape]):
        for taps in itertools.product(*[range(k) for k in kernel]):
            source = list(index)
            for axis, s, d, t in zip(axes, strides, dilations, taps):
                source[axis] = index[axis] * s + t * d
            result[(*index, *taps)] = x[tuple(source)]
    return result


@pytest.mark.parametrize(
    ("axes", "kernel", "strides", "dilations"),
    [([2, 3], [2, 3], [1, 2], [2, 1]), ([3, 2], [3, 2], [2, 1], [1, 2]), ([1], [2], [3], [2])],
)
def test_windows_read_what_the_definition_reads(
    axes: list[int], kernel: list[int], strides: list[int], dilations: list[int]
) -> None:
    x = np.arange(2 * 3 * 9 * 10, dtype=np.int64).reshape(2, 3, 9, 10)
    outs = [(x.shape[a] - d * (k - 1) - 1) // s + 1 for a, k, s, d in zip(axes, kernel, strides, dilations)]
    np.testing.assert_array_equal(windows(x, axes, kernel, strides, dilations, outs),
                                  direct(x, axes, kernel, strides, dilations, outs))


def test_an_input_one_element_short_is_a_size_error() -> None:
    # 3 outputs, window 2, stride 2, dilation 3 read (3-1)*2 + 3*(2-1) + 1 = 8 elements
    exact = np.zeros((1, 8))
    assert windows(exact, [1], [2], [2], [3], [3]).shape == (1, 3, 2)
    with pytest.raises(EvaluationError) as err:
        windows(np.zeros((1, 7)), [1], [2], [2], [3], [3])
    assert str(err.value) == (
        "error: input axis 1 has size 7, but 3 outputs with window 2, stride 2, dilation 3 read 8 elements")
