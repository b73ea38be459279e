"""heirpy.ir.constants: the element types' numpy forms, blob decoding and the
compile-time constants the folds read, each branch on an input that takes it and one
that must not (a wrong answer here folds the wrong numbers or nothing)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IndexType, IntegerType, Signedness, TensorType, f16, f32, f64, i1, i8, i32, i64

from heirpy.api import parse
from heirpy.ir.constants import (
    NO_BLOBS,
    UnsupportedTypeError,
    constant_array,
    decode_blob,
    dense_attr,
    element_dtype,
    module_resources,
    numpy_dtype,
    scalar_constant,
)
from heirpy.ir.diagnostics import HeirpyError


def test_element_dtypes_by_width_and_signedness() -> None:
    u16 = IntegerType(16, Signedness.UNSIGNED)
    si8 = IntegerType(8, Signedness.SIGNED)
    got = [element_dtype(t) for t in (f16, f32, f64, i1, i8, i32, i64, IndexType(), u16, si8, TensorType(f16, [2]))]
    assert [d.name for d in got] == [
        "float16", "float32", "float64", "bool", "int8", "int32", "int64", "int64", "uint16", "int8", "float16"
    ]
    with pytest.raises(UnsupportedTypeError) as err:
        element_dtype(IntegerType(7))
    assert str(err.value) == "error: element type i7 has no numpy representation"
    assert numpy_dtype(IntegerType(7)) is None and numpy_dtype(i8) == np.int8


def test_decode_blob_errors_name_the_handle() -> None:
    assert decode_blob("w", "0x0400000001020304") == bytes([1, 2, 3, 4])
    assert decode_blob("w", "0x04000000") == b""  # a header alone: no data
    for text, why in [("", "has no blob"), ("0x0400zz", "blob is not hex: "),
                      ("0x040000", "blob is shorter than its header")]:
        with pytest.raises(HeirpyError) as err:
            decode_blob("w", text)
        assert str(err.value).startswith(f"error: dense_resource<w> {why}")


RESOURCE_MODULE = """func.func @f() -> (tensor<2xf32>, tensor<3xf32>, tensor<2xi1>) {
  %a = arith.constant dense_resource<good> : tensor<2xf32>
  %b = arith.constant dense_resource<good> : tensor<3xf32>
  %c = arith.constant dense_resource<flags> : tensor<2xi1>
  return %a, %b, %c : tensor<2xf32>, tensor<3xf32>, tensor<2xi1>
}
{-#
  dialect_resources: {
    builtin: {
      good: "0x040000000000803F00000040",
      flags: "0x010000000101"
    }
  }
#-}
"""


def test_resources_read_only_at_their_exact_size() -> None:
    module = parse(RESOURCE_MODULE, "c.mlir")
    blobs = module_resources(module)
    assert set(blobs) == {"good", "flags"}
    a, b, c = [op.results[0] for op in module.walk() if op.name == "arith.constant"]
    assert constant_array(a, blobs).tolist() == [1.0, 2.0]
    assert constant_array(b, blobs) is None  # 8 bytes of data for 12
    assert constant_array(c, blobs) is None  # an i1 blob is never read (its byte layout is not numpy's bool)
    assert constant_array(a, NO_BLOBS) is None


def test_constants_splats_fills_and_broadcasts() -> None:
    text = """func.func @f(%x: tensor<2xf32>) -> () {
  %s = arith.constant 3.0 : f32
  %i = arith.constant 7 : i8
  %splat = arith.constant dense<2.5> : tensor<2x2xf32>
  %full = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %fill = linalg.fill ins(%s : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %bc = linalg.broadcast ins(%full : tensor<2xf32>) outs(%e : tensor<2x3xf32>) dimensions = [1]
  %e2 = tensor.empty() : tensor<3x2xf32>
  %bc0 = linalg.broadcast ins(%full : tensor<2xf32>) outs(%e2 : tensor<3x2xf32>) dimensions = [0]
  %bx = linalg.broadcast ins(%x : tensor<2xf32>) outs(%e : tensor<2x3xf32>) dimensions = [1]
  return
}
"""
    module = parse(text, "c.mlir")
    ops = {op.results[0].name_hint: op.results[0] for op in module.walk() if op.results and op.results[0].name_hint}
    assert constant_array(ops["s"], NO_BLOBS).shape == ()
    assert constant_array(ops["i"], NO_BLOBS).dtype == np.int8 and int(constant_array(ops["i"], NO_BLOBS)) == 7
    assert constant_array(ops["splat"], NO_BLOBS).tolist() == [[2.5, 2.5], [2.5, 2.5]]
    assert constant_array(ops["fill"], NO_BLOBS).tolist() == [[3.0] * 3] * 2
    assert constant_array(ops["bc"], NO_BLOBS).tolist() == [[1.0] * 3, [2.0] * 3]
    assert constant_array(ops["bc0"], NO_BLOBS).tolist() == [[1.0, 2.0]] * 3
    assert constant_array(ops["bx"], NO_BLOBS) is None  # broadcasts a function argument
    assert constant_array(module.body.block.ops.first.body.block.args[0], NO_BLOBS) is None
    assert scalar_constant(ops["splat"], NO_BLOBS) == 2.5
    assert scalar_constant(ops["full"], NO_BLOBS) is None  # not one value
    assert scalar_constant(ops["s"], NO_BLOBS) == 3.0
    assert scalar_constant(ops["bx"], NO_BLOBS) is None


def test_dense_attr_refuses_what_it_cannot_spell_and_splats_repeats() -> None:
    with pytest.raises(ValueError, match=r"^array of shape \(3,\) for type tensor<2xf32>$"):
        dense_attr(np.zeros(3), TensorType(f32, [2]))
    with pytest.raises(ValueError, match=r"^no dense<...> literal of element type "):
        dense_attr(np.zeros(2), TensorType(TensorType(f32, [1]), [2]))
    splat = dense_attr(np.full((2, 2), 1.5), TensorType(f32, [2, 2]))
    assert len(splat.data.data) == 4  # one f32
    full = dense_attr(np.array([1.0, 2.0]), TensorType(f16, [2]))
    assert len(full.data.data) == 4  # two f16
    one = dense_attr(np.array([5]), TensorType(i32, [1]))
    assert len(one.data.data) == 4
