"""dense_resource constants in the evaluator: an i1 blob is one byte per element (any
non-zero byte true), little-endian words read as such, and a blob of the wrong size is a
located error naming both sizes."""

from __future__ import annotations

import numpy as np
import pytest

from heirpy.interp import load_module
from heirpy.interp.errors import EvaluationError
from heirpy.interp.evaluator import Evaluator

MODULE = """func.func @f() -> TYPE {
  %c = arith.constant dense_resource<blob> : TYPE
  return %c : TYPE
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x04000000DATA"
    }
  }
#-}
"""


def evaluate(type_: str, data: str) -> np.ndarray:
    loaded = load_module(MODULE.replace("TYPE", type_).replace("DATA", data), "r.mlir")
    return Evaluator(loaded.module, loaded.resources).call("f", [])[0]


def test_i1_blobs_are_a_byte_per_element() -> None:
    got = evaluate("tensor<4xi1>", "00010200")
    assert got.dtype == np.bool_ and got.tolist() == [False, True, True, False]


def test_words_are_little_endian() -> None:
    assert evaluate("tensor<2xi16>", "0100FFFF").tolist() == [1, -1]
    assert evaluate("tensor<1xf32>", "0000803F").tolist() == [1.0]


@pytest.mark.parametrize(("type_", "data", "size", "expected"), [
    ("tensor<3xi16>", "01000200", 4, "6 for shape [3] of int16"),
    ("tensor<3xi1>", "0101", 2, "3 for shape [3] of bool"),
])
def test_a_blob_of_the_wrong_size_names_both_sizes(type_: str, data: str, size: int, expected: str) -> None:
    with pytest.raises(EvaluationError) as err:
        evaluate(type_, data)
    assert str(err.value) == (
        f"r.mlir:2:8: error: 'arith.constant' dense_resource blob has {size} bytes, expected {expected}")


def test_a_dense_literal_built_with_too_few_elements_is_an_error() -> None:
    """The parser refuses such a literal, but a pass building IR in Python can make one:
    the evaluator names the count and the shape instead of reshaping garbage."""
    import struct

    from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType, f32

    import heirpy

    module = heirpy.parse("func.func @f() -> tensor<3xf32> {\n  %c = arith.constant dense<[1.0, 2.0, 3.0]> : "
                          "tensor<3xf32>\n  return %c : tensor<3xf32>\n}", "d.mlir")
    constant = next(op for op in module.walk() if op.name == "arith.constant")
    assert Evaluator(module).call("f", [])[0].tolist() == [1.0, 2.0, 3.0]
    constant.properties["value"] = DenseIntOrFPElementsAttr(TensorType(f32, [3]), BytesAttr(struct.pack("<2f", 1, 2)))
    with pytest.raises(EvaluationError) as err:
        Evaluator(module).call("f", [])
    assert str(err.value) == "d.mlir:2:8: error: 'arith.constant' has 2 dense elements for shape [3]"
    constant.properties["value"] = DenseIntOrFPElementsAttr(TensorType(f32, [3]), BytesAttr(struct.pack("<1f", 5)))
    assert Evaluator(module).call("f", [])[0].tolist() == [5.0, 5.0, 5.0]  # one element: a splat
