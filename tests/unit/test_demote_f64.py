"""demote-f64 on the forms its lit cases do not hold: f64 constants whose values f32
rounds (a scalar, a dense list, a dense_resource blob), the f64 forms it must leave
alone (a vector, an f64 attribute outside a constant, complex<f64>, an unreadable
constant), and `demoted_type` on each kind of type. Found by issue 35's mutation
habit: cases.mlir's only f64 constants were 0.0 and a splat 8.0, which f32 holds
exactly, and every function it leaves alone was left for its signature or a bitcast."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, TensorType, VectorType, i64

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.transforms.iree.demote_f64 import demoted_type

F32, F64 = Float32Type(), Float64Type()


def _demoted(text: str) -> str:
    return print_module(run_pipeline(parse(text), "demote-f64"))


def test_demoted_type_of_each_kind() -> None:
    assert demoted_type(F64) == F32
    assert demoted_type(TensorType(F64, [2, 3])) == TensorType(F32, [2, 3])
    assert demoted_type(TensorType(Float16Type(), [2])) == TensorType(Float16Type(), [2])
    assert demoted_type(F32) == F32
    assert demoted_type(i64) == i64
    # f64 in a form the pass does not rewrite: refused, not passed through
    assert demoted_type(VectorType(F64, [4])) is None
    assert demoted_type(parse_type("tensor<2xcomplex<f64>>")) is None


def parse_type(text: str):  # noqa: ANN201 - an xDSL attribute
    module = parse(f"func.func @f(%x: {text}) {{\n  return\n}}")
    return next(op for op in module.walk() if op.name == "func.func").function_type.inputs.data[0]


SCALAR = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 0.1 : f64
  %x64 = arith.extf %x : tensor<4xf32> to tensor<4xf64>
  %e = tensor.empty() : tensor<4xf64>
  %k = linalg.fill ins(%c : f64) outs(%e : tensor<4xf64>) -> tensor<4xf64>
  %s = arith.mulf %x64, %k : tensor<4xf64>
  %r = arith.truncf %s : tensor<4xf64> to tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def test_a_scalar_f64_constant_is_rounded_to_f32() -> None:
    out = _demoted(SCALAR)
    assert "f64" not in out
    assert "arith.constant 1.000000e-01 : f32" in out
    # the extf and truncf between now-equal types are gone: one multiply on %x
    assert "arith.extf" not in out and "arith.truncf" not in out
    report = check_equivalence(parse(SCALAR), parse(out), function="main", seeds=(0, 1))
    assert report.ok, report.summary()


VALUES = [0.1, -2.5, 1.0 / 3.0, 1e-7]
DENSE = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant WEIGHTS : tensor<4xf64>
  %x64 = arith.extf %x : tensor<4xf32> to tensor<4xf64>
  %s = arith.addf %x64, %w : tensor<4xf64>
  %r = arith.truncf %s : tensor<4xf64> to tensor<4xf32>
  return %r : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x08000000BLOB"
    }
  }
#-}
""".replace("BLOB", np.array(VALUES, dtype="<f8").tobytes().hex().upper())


@pytest.mark.parametrize("weights", ["dense<[" + ", ".join(f"{v:.17e}" for v in VALUES) + "]>", "dense_resource<blob>"], ids=["dense", "resource"])
def test_a_dense_f64_constant_is_rounded_element_by_element(weights: str) -> None:
    text = DENSE.replace("WEIGHTS", weights)
    module = run_pipeline(parse(text), "demote-f64")
    out = print_module(module)
    assert "f64" not in out
    constant = next(op for op in module.walk() if op.name == "arith.constant")
    stored = np.frombuffer(constant.properties["value"].data.data, dtype=np.float32)
    np.testing.assert_array_equal(stored, np.array(VALUES, dtype=np.float32))
    report = check_equivalence(parse(text), parse(out), function="main", seeds=(0, 1))
    assert report.ok, report.summary()


LEFT_ALONE = {
    "vector": """
func.func @main(%x: vector<4xf32>) -> vector<4xf32> {
  %e = arith.extf %x : vector<4xf32> to vector<4xf64>
  %r = arith.truncf %e : vector<4xf64> to vector<4xf32>
  return %r : vector<4xf32>
}""",
    "f64 attribute": """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = arith.extf %x {note = 1.0 : f64} : tensor<4xf32> to tensor<4xf64>
  %r = arith.truncf %e : tensor<4xf64> to tensor<4xf32>
  return %r : tensor<4xf32>
}""",
    "unreadable constant": """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense_resource<missing> : tensor<4xf64>
  %e = arith.extf %x : tensor<4xf32> to tensor<4xf64>
  %s = arith.addf %e, %w : tensor<4xf64>
  %r = arith.truncf %s : tensor<4xf64> to tensor<4xf32>
  return %r : tensor<4xf32>
}""",
}


@pytest.mark.parametrize("name", sorted(LEFT_ALONE))
def test_an_f64_form_it_does_not_demote_leaves_the_function_as_it_was(name: str) -> None:
    text = LEFT_ALONE[name]
    assert _demoted(text) == print_module(parse(text))
    assert "f64" in _demoted(text)


def test_only_the_function_it_cannot_demote_is_left() -> None:
    text = LEFT_ALONE["vector"].replace("@main", "@kept") + SCALAR
    out = _demoted(text)
    kept, main = out.split("func.func @main")
    assert "vector<4xf64>" in kept
    assert "f64" not in main


def test_a_declaration_is_skipped() -> None:
    text = "func.func private @ext(tensor<4xf32>) -> tensor<4xf32>\n" + SCALAR
    out = _demoted(text)
    assert "func.func private @ext(tensor<4xf32>) -> tensor<4xf32>" in out
    assert "f64" not in out


def test_an_f64_scalar_below_f32s_range_becomes_f32s_zero() -> None:
    """Rounded as f32 (as IREE does), 1e-50 is 0: written as `1e-50 : f32` it would name a
    value f32 cannot hold."""
    out = _demoted(SCALAR.replace("arith.constant 0.1 : f64", "arith.constant 1.0e-50 : f64"))
    assert "arith.constant 0.000000e+00 : f32" in out
