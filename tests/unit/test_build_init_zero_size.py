"""`build_init` and `varying_axes` on a zero-size init (a tensor with a 0 dimension):
a fill, no IndexError (np.take of index 0 on an empty axis raised it)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import Float16Type, Float32Type, TensorType

from heirpy.transforms.linear.constant_folding import build_init, init_elements
from heirpy.transforms.linear.linear_maps import varying_axes


@pytest.mark.parametrize("shape", [(1, 0, 4), (0,), (2, 3, 0)])
@pytest.mark.parametrize("element", [Float32Type(), Float16Type()])
def test_zero_size_init_is_a_fill(shape: tuple[int, ...], element: Float32Type | Float16Type) -> None:
    array = np.zeros(shape, dtype=np.float32)
    ops, value = build_init(array, TensorType(element, list(shape)))
    assert [op.name for op in ops] == ["arith.constant", "tensor.empty", "linalg.fill"]
    assert value.type == TensorType(element, list(shape))
    assert init_elements(array) == 0


def test_varying_axes_of_empty_and_one_element() -> None:
    assert varying_axes(np.zeros((3, 0))) == ()
    assert varying_axes(np.ones((1, 1))) == ()
    assert varying_axes(np.arange(6.0).reshape(2, 3)) == (0, 1)
    assert varying_axes(np.array([[1.0, 1.0], [2.0, 2.0]])) == (0,)
