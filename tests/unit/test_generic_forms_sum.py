"""generic_forms' fast path for a plain sum (`sum_matrix`, written from the maps) gives
the matrix the slow path (`affine_matrix` of the body run by the evaluator) finds, on
sums that take it; bodies that must not take it get None from it and the slow path's
matrix from `generic_affine_matrix`. Also `sums_elements` at a reduction of size 1."""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.api import parse
from heirpy.ir.dialects.linalg import GenericOp
from heirpy.transforms.heir.generic_forms import generic_affine_matrix, generic_sample_map, sum_matrix, sums_elements
from heirpy.transforms.linear.linear_maps import affine_matrix

SUM = """func.func @f(%x: tensor<1x3x2x2xf32>, %init: tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32> {
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x3x2x2xf32>) outs(%init : tensor<1x3x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    BODY
  } -> tensor<1x3x1x1xf32>
  return %g : tensor<1x3x1x1xf32>
}"""


def generic(body: str, text: str = SUM) -> GenericOp:
    return next(op for op in parse(text.replace("BODY", body)).walk() if isinstance(op, GenericOp))


INIT = np.arange(3, dtype=np.float64).reshape(1, 3, 1, 1) + 0.5


def slow(op: GenericOp) -> tuple[np.ndarray, np.ndarray]:
    return affine_matrix(generic_sample_map(op, op.inputs[0], {op.outputs[0]: INIT}), (1, 3, 2, 2))


@pytest.mark.parametrize("body", [
    "%s = arith.addf %in, %acc : f32\n    linalg.yield %s : f32",
    "%s = arith.addf %acc, %in : f32\n    linalg.yield %s : f32",
])
def test_the_fast_path_gives_the_slow_paths_matrix(body: str) -> None:
    op = generic(body)
    fast = sum_matrix(op, op.inputs[0], {op.outputs[0]: INIT})
    assert fast is not None
    matrix, offset = slow(op)
    np.testing.assert_array_equal(fast[0], matrix)
    np.testing.assert_array_equal(fast[1], offset)
    assert fast[0].shape == (3, 12) and fast[0].sum() == 12  # each input element once
    both = generic_affine_matrix(op, op.inputs[0], {op.outputs[0]: INIT})
    assert both is not None and np.array_equal(both[0], matrix)


@pytest.mark.parametrize("body", [
    "%c = arith.constant 2.0 : f32\n    %m = arith.mulf %in, %c : f32\n    %s = arith.addf %m, %acc : f32\n    linalg.yield %s : f32",
    "%s = arith.subf %in, %acc : f32\n    linalg.yield %s : f32",
    "%s = arith.addf %in, %in : f32\n    linalg.yield %s : f32",
    "%s = arith.addf %acc, %acc : f32\n    linalg.yield %s : f32",
    "%s = arith.addf %in, %acc : f32\n    linalg.yield %acc : f32",
])
def test_other_bodies_take_the_slow_path(body: str) -> None:
    op = generic(body)
    assert sum_matrix(op, op.inputs[0], {op.outputs[0]: INIT}) is None
    found = generic_affine_matrix(op, op.inputs[0], {op.outputs[0]: INIT})
    assert found is not None
    matrix, offset = slow(op)
    np.testing.assert_array_equal(found[0], matrix)
    np.testing.assert_array_equal(found[1], offset)


def test_no_init_value_or_another_secret_is_no_fast_path() -> None:
    op = generic("%s = arith.addf %in, %acc : f32\n    linalg.yield %s : f32")
    assert sum_matrix(op, op.inputs[0], {}) is None
    assert sum_matrix(op, op.outputs[0], {op.outputs[0]: INIT}) is None


def test_a_reduction_over_one_element_sums_nothing() -> None:
    body = "%s = arith.addf %in, %acc : f32\n    linalg.yield %s : f32"
    assert sums_elements(generic(body))
    unit = SUM.replace("1x3x2x2", "1x3x1x1")
    assert not sums_elements(generic(body, unit))
    half = SUM.replace("1x3x2x2", "1x3x1x2")
    assert sums_elements(generic(body, half))
