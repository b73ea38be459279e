"""`heir-widen-half` (heir-prepare's last step): an f16 / bf16 function computes in f32 for
HEIR's CKKS, an f32 one is left as it is, and a half value in a form the pass does not
widen leaves the function as it was, with a remark. The widened output computes what the
half-precision input does within the input's precision (results read rounded to f16 /
bf16); tests/filecheck/transforms/heir-prepare/half_precision_widen.mlir pins the IR
and compiles it with heir-opt."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from heirpy.api import context_of, parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_module, module_resources

WIDEN_TEST = Path(__file__).resolve().parents[1] / "filecheck" / "transforms" / "heir-prepare" / "half_precision_widen.mlir"


def _chunks() -> dict[str, str]:
    """The test file's three programs (f16, bf16, f32 twin) by their function's name."""
    chunks = [c.split("// CHECK")[0] for c in WIDEN_TEST.read_text().split("// -----\n")]
    return {name: next(c for c in chunks if f"@{name}(" in c)
            for name in ("conv_bn_square_f16", "conv_bn_square_bf16", "conv_bn_square_f32")}


def _run(text: str, pipeline: str) -> tuple[str, str]:
    module = parse(text)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        run_pipeline(module, pipeline)
    return print_module(module), err.getvalue()


@pytest.mark.parametrize("name,element", [("conv_bn_square_f16", "f16"), ("conv_bn_square_bf16", "bf16")])
def test_half_model_computes_in_f32_with_its_values(name: str, element: str) -> None:
    text = _chunks()[name]
    out, err = _run(text, "heir-prepare")
    assert not re.search(r"(?:x|: |\()b?f16\b", out)  # no f16 / bf16 type left
    assert f"func.func @{name}(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x3x3xf32>" in out
    assert f"remark: heir-widen-half: @{name} computes in f32" in err
    before, after = load_module(text), parse(out)
    tol = 4 * (2.0**-10 if element == "f16" else 2.0**-7)
    report = check_equivalence(before.module, after, name, seeds=(0, 1), rtol=tol, atol=tol,
                               resources_a=before.resources, resources_b=module_resources(after, context_of(after)),
                               row_major_results=True, padded_args=True, widened_floats=True)
    assert report.ok, report.summary()


def test_widening_off_keeps_the_half_types() -> None:
    out, err = _run(_chunks()["conv_bn_square_f16"], "heir-prepare{widen-half=false}")
    assert "tensor<1x2x4x4xf16>" in out and "heir-widen-half" not in err


def test_f32_twin_is_left_as_it_is() -> None:
    text = _chunks()["conv_bn_square_f32"]
    prepared, _ = _run(text, "heir-prepare{widen-half=false}")
    widened, err = _run(text, "heir-prepare")
    assert widened == prepared and "heir-widen-half" not in err


def test_a_half_value_it_does_not_widen_leaves_the_function_with_a_remark() -> None:
    """A bitcast of an f16 tensor to i16 has no f32 form: the function stays f16."""
    text = """
    func.func @bits(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xi16>) {
      %b = arith.bitcast %x : tensor<4xf16> to tensor<4xi16>
      return %x, %b : tensor<4xf16>, tensor<4xi16>
    }
    """
    out, err = _run(text, "heir-widen-half")
    assert out == print_module(parse(text))
    assert "remark: heir-widen-half: @bits keeps its half-precision types (an arith.bitcast" in err


def test_half_scalar_and_dense_constants_widen_exactly() -> None:
    text = """
    func.func @k(%x: tensor<3xf16>) -> tensor<3xf16> {
      %c = arith.constant dense<[0.333251953125, -2.5, 65504.0]> : tensor<3xf16>
      %s = arith.constant 1.5 : f16
      %e = tensor.empty() : tensor<3xf16>
      %f = linalg.fill ins(%s : f16) outs(%e : tensor<3xf16>) -> tensor<3xf16>
      %a = arith.addf %x, %c : tensor<3xf16>
      %m = arith.mulf %a, %f : tensor<3xf16>
      return %m : tensor<3xf16>
    }
    """
    out, _ = _run(text, "heir-widen-half")
    assert not re.search(r"(?:x|: |\()b?f16\b", out)
    # the f16 values exactly (0.333251953125 is f16's nearest to 1/3; heirpy prints f32 shortest)
    assert "dense<[0.333251953, -2.500000e+00, 6.550400e+04]> : tensor<3xf32>" in out
    assert "arith.constant 1.500000e+00 : f32" in out


def test_a_name_spelling_f16_is_not_a_half_value() -> None:
    """A callee or a message that says "f16" holds no half type: the caller is widened."""
    text = """
    func.func @scale_f16(%x: tensor<2xf16>) -> tensor<2xf16> {
      %y = arith.addf %x, %x : tensor<2xf16>
      return %y : tensor<2xf16>
    }
    func.func @main(%x: tensor<2xf16>) -> tensor<2xf16> {
      %y = func.call @scale_f16(%x) : (tensor<2xf16>) -> tensor<2xf16>
      return %y : tensor<2xf16>
    }
    """
    out, err = _run(text, "heir-widen-half")
    assert not re.search(r"(?:x|: |\()b?f16\b", out) and "keeps its half-precision types" not in err
    assert "call @scale_f16(%x) : (tensor<2xf32>) -> tensor<2xf32>" in out
