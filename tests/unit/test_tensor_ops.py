"""The tensor ops heirpy added (generate, gather, scatter, rank, bitcast) against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import heirpy
from heirpy.interp.errors import EvaluationError
from heirpy.interp.evaluator import Evaluator


def _run(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return Evaluator(heirpy.parse(text)).call("f", inputs)


def test_generate_evaluates_its_body_at_every_index() -> None:
    (got,) = _run(
        """func.func @f(%n: index) -> tensor<?x4xf32> {
  %t = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %k = arith.muli %i, %j : index
    %c = arith.index_cast %k : index to i32
    %f = arith.sitofp %c : i32 to f32
    tensor.yield %f : f32
  } : tensor<?x4xf32>
  return %t : tensor<?x4xf32>
}""",
        [np.asarray(3, dtype=np.int64)],
    )
    np.testing.assert_array_equal(got, np.outer(np.arange(3), np.arange(4)).astype(np.float32))


def test_gather_out_of_bounds_is_an_error_naming_the_index() -> None:
    src = np.zeros((4, 3), dtype=np.float32)
    idx = np.array([[1], [5]], dtype=np.int64)
    with pytest.raises(EvaluationError, match="'tensor.gather' reads index 5 of dim 0, of size 4"):
        _run(
            """func.func @f(%src: tensor<4x3xf32>, %idx: tensor<2x1xindex>) -> tensor<2x1x3xf32> {
  %g = tensor.gather %src[%idx] gather_dims([0]) : (tensor<4x3xf32>, tensor<2x1xindex>) -> tensor<2x1x3xf32>
  return %g : tensor<2x1x3xf32>
}""",
            [src, idx],
        )


def test_gather_and_scatter_invert_each_other() -> None:
    rng = np.random.default_rng(0)
    src = rng.standard_normal((5, 6, 7)).astype(np.float32)
    idx = np.array([[[1, 2], [4, 0]], [[0, 6], [3, 3]]], dtype=np.int64)  # 2x2 points in dims 1, 2
    gathered, scattered = _run(
        """func.func @f(%src: tensor<5x6x7xf32>, %idx: tensor<2x2x2xindex>) -> (tensor<2x2x5x1x1xf32>, tensor<5x6x7xf32>) {
  %g = tensor.gather %src[%idx] gather_dims([1, 2]) : (tensor<5x6x7xf32>, tensor<2x2x2xindex>) -> tensor<2x2x5x1x1xf32>
  %z = arith.constant dense<0.0> : tensor<5x6x7xf32>
  %s = tensor.scatter %g into %z[%idx] scatter_dims([1, 2]) unique
         : (tensor<2x2x5x1x1xf32>, tensor<5x6x7xf32>, tensor<2x2x2xindex>) -> tensor<5x6x7xf32>
  return %g, %s : tensor<2x2x5x1x1xf32>, tensor<5x6x7xf32>
}""",
        [src, idx],
    )
    for a in range(2):
        for b in range(2):
            i, j = idx[a, b]
            np.testing.assert_array_equal(gathered[a, b, :, 0, 0], src[:, i, j])
    expected = np.zeros_like(src)
    for i, j in idx.reshape(-1, 2):
        expected[:, i, j] = src[:, i, j]
    np.testing.assert_array_equal(scattered, expected)


def test_rank_and_bitcast() -> None:
    x = np.array([1.0, -2.0, 0.5], dtype=np.float32)
    rank, bits = _run(
        """func.func @f(%x: tensor<3xf32>) -> (index, tensor<3xi32>) {
  %r = tensor.rank %x : tensor<3xf32>
  %b = tensor.bitcast %x : tensor<3xf32> to tensor<3xi32>
  return %r, %b : index, tensor<3xi32>
}""",
        [x],
    )
    assert int(rank) == 1
    np.testing.assert_array_equal(bits, x.view(np.int32))


def test_a_zero_size_slice_reads_nothing_wherever_its_offset() -> None:
    """A slice of size 0 reads no element, so a dynamic offset past the end (which the
    verifier cannot see) gives an empty tensor; a non-empty slice there is an error."""
    text = """func.func @f(%x: tensor<4xf32>, %o: index, %n: index) -> tensor<?xf32> {
  %s = tensor.extract_slice %x[%o] [%n] [1] : tensor<4xf32> to tensor<?xf32>
  return %s : tensor<?xf32>
}"""
    x = np.arange(4, dtype=np.float32)
    (empty,) = _run(text, [x, np.array(6), np.array(0)])
    assert empty.shape == (0,)
    (tail,) = _run(text, [x, np.array(2), np.array(2)])
    np.testing.assert_array_equal(tail, [2.0, 3.0])
    with pytest.raises(EvaluationError, match=r"slice of axis 0 \(offset 3, size 2, stride 1\) is out of bounds"):
        _run(text, [x, np.array(3), np.array(2)])
