"""bf16 in heirpy (issue 34): `ml_dtypes.bfloat16` holds bf16 tensors, so dense and
resource constants of bf16 read, fold and print, and the evaluator runs bf16 arithmetic
with one rounding to bf16 per op, as MLIR's bf16 ops do. Contractions (matmul, convs)
sum their products in f32 and round once (numpy's einsum has no bf16 loop).
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type

from heirpy.api import parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence, random_input
from heirpy.interp.evaluator import Evaluator
from heirpy.interp.resources import load_module
from heirpy.ir.constants import (
    NO_BLOBS,
    UnsupportedTypeError,
    bfloat16_dtype,
    constant_array,
    float_eps,
    is_float_dtype,
    numpy_dtype,
)
from heirpy.ir.diagnostics import float_from_bits

BF16 = bfloat16_dtype()


def bf16(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float32).astype(BF16)


def run(text: str, *inputs: np.ndarray) -> list[np.ndarray]:
    loaded = load_module(text)
    return Evaluator(loaded.module, resources=loaded.resources).call("main", list(inputs))


def test_bf16_dtype_is_a_float_of_eps_2_to_the_minus_7() -> None:
    assert is_float_dtype(BF16) and is_float_dtype(np.dtype(np.float16)) and not is_float_dtype(np.dtype(np.int16))
    assert float_eps(BF16) == 2.0**-7
    assert float_eps(np.dtype(np.float16)) == 2.0**-10


def test_hex_bit_patterns_are_bf16s_not_f16s() -> None:
    # 0x3FC0 is 1.5 in bf16 (the top half of f32 0x3FC00000) and 1.9375 in f16.
    assert float_from_bits(0x3FC0, 16, bfloat=True) == 1.5
    assert float_from_bits(0x3FC0, 16) == 1.9375
    assert float_from_bits(0xFF80, 16, bfloat=True) == -np.inf
    with pytest.raises(ValueError):
        float_from_bits(0x10000, 16, bfloat=True)
    module = parse("func.func @main() -> tensor<2xbf16> {\n"
                   "  %c = arith.constant dense<[0x3FC0, 0xFF80]> : tensor<2xbf16>\n"
                   "  return %c : tensor<2xbf16>\n}\n")
    const = next(op for op in module.walk() if op.name == "arith.constant")
    np.testing.assert_array_equal(constant_array(const.results[0], NO_BLOBS), bf16(1.5, -np.inf))


RESOURCE = """module {
  func.func @main(%x: tensor<3xbf16>) -> tensor<3xbf16> {
    %w = arith.constant dense_resource<w.bf16> : tensor<3xbf16>
    %s = arith.constant dense<[2.0, 0x3FC0, -1.0]> : tensor<3xbf16>
    %a = arith.addf %x, %w : tensor<3xbf16>
    %r = arith.mulf %a, %s : tensor<3xbf16>
    return %r : tensor<3xbf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      w.bf16: "0x02000000003FA0BF4040"
    }
  }
#-}
"""


def test_resource_blobs_are_little_endian_bf16_patterns() -> None:
    # 0x3F00 = 0.5, 0xBFA0 = -1.25, 0x4040 = 3.0, each stored low byte first
    (result,) = run(RESOURCE, bf16(1.0, 1.0, 1.0))
    assert result.dtype == BF16
    np.testing.assert_array_equal(result, bf16(3.0, -0.375, -4.0))


def test_each_op_rounds_to_bf16() -> None:
    text = """func.func @main(%x: tensor<2xbf16>, %y: tensor<2xbf16>) -> (tensor<2xbf16>, tensor<2xf32>) {
  %s = arith.addf %x, %y : tensor<2xbf16>
  %e = arith.extf %s : tensor<2xbf16> to tensor<2xf32>
  %w = arith.extf %x : tensor<2xbf16> to tensor<2xf32>
  %v = arith.extf %y : tensor<2xbf16> to tensor<2xf32>
  %f = arith.addf %w, %v : tensor<2xf32>
  %t = arith.truncf %f : tensor<2xf32> to tensor<2xbf16>
  %u = arith.subf %t, %s : tensor<2xbf16>
  %g = arith.subf %f, %e : tensor<2xf32>
  return %u, %g : tensor<2xbf16>, tensor<2xf32>
}
"""
    # 1 + 2^-8 is a tie between 1 and 1 + 2^-7: bf16 rounds it to even (1); f32 keeps it
    diff_bf16, diff_f32 = run(text, bf16(1.0, 256.0), bf16(2.0**-8, 1.0))
    np.testing.assert_array_equal(diff_bf16, bf16(0.0, 0.0))  # truncf rounds as addf does
    np.testing.assert_array_equal(diff_f32, np.array([2.0**-8, 1.0], dtype=np.float32))


def test_truncf_rounds_to_nearest_even() -> None:
    text = """func.func @main(%x: tensor<3xf32>) -> tensor<3xbf16> {
  %t = arith.truncf %x : tensor<3xf32> to tensor<3xbf16>
  return %t : tensor<3xbf16>
}
"""
    x = np.array([1.0 + 2.0**-8, 1.0 + 3 * 2.0**-8, 1.0 + 2.0**-8 + 2.0**-20], dtype=np.float32)
    (t,) = run(text, x)
    np.testing.assert_array_equal(t.astype(np.float32), [1.0, 1.0 + 2.0**-6, 1.0 + 2.0**-7])


MATMUL = """func.func @main(%a: tensor<2x3xbf16>, %b: tensor<3x2xbf16>) -> (tensor<2x2xbf16>, tensor<2x2xf32>) {
  %z = arith.constant 0.0 : bf16
  %zf = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xbf16>
  %i = linalg.fill ins(%z : bf16) outs(%e : tensor<2x2xbf16>) -> tensor<2x2xbf16>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xbf16>, tensor<3x2xbf16>) outs(%i : tensor<2x2xbf16>) -> tensor<2x2xbf16>
  %ef = tensor.empty() : tensor<2x2xf32>
  %if = linalg.fill ins(%zf : f32) outs(%ef : tensor<2x2xf32>) -> tensor<2x2xf32>
  %mf = linalg.matmul ins(%a, %b : tensor<2x3xbf16>, tensor<3x2xbf16>) outs(%if : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m, %mf : tensor<2x2xbf16>, tensor<2x2xf32>
}
"""


def test_matmul_accumulates_in_the_output_type() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3)).astype(BF16)
    b = rng.standard_normal((3, 2)).astype(BF16)
    into_bf16, into_f32 = run(MATMUL, a, b)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert into_bf16.dtype == BF16 and into_f32.dtype == np.float32
    np.testing.assert_allclose(into_f32, exact, rtol=1e-6)  # bf16 products are exact in f32
    np.testing.assert_array_equal(into_bf16, into_f32.astype(BF16))  # one rounding at the end


CONV = """func.func @main(%x: tensor<1x2x4x4xbf16>, %w: tensor<3x2x2x2xbf16>) -> tensor<1x3x3x3xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<1x3x3x3xbf16>
  %i = linalg.fill ins(%z : bf16) outs(%e : tensor<1x3x3x3xbf16>) -> tensor<1x3x3x3xbf16>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xbf16>, tensor<3x2x2x2xbf16>) outs(%i : tensor<1x3x3x3xbf16>) -> tensor<1x3x3x3xbf16>
  return %c : tensor<1x3x3x3xbf16>
}
"""


def test_conv_in_bf16_and_its_generic_form_agree() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2, 4, 4)).astype(BF16)
    w = rng.standard_normal((3, 2, 2, 2)).astype(BF16)
    (conv,) = run(CONV, x, w)
    assert conv.dtype == BF16
    expected = np.zeros((1, 3, 3, 3))
    for i in range(3):
        for j in range(3):
            patch = x[0, :, i:i + 2, j:j + 2].astype(np.float64)
            expected[0, :, i, j] = np.tensordot(w.astype(np.float64), patch, axes=3)
    np.testing.assert_allclose(conv.astype(np.float64), expected, rtol=2 * 2.0**-8, atol=1e-6)
    module = parse(CONV)
    run_pipeline(module, "linalg-generalize-named-ops")
    report = check_equivalence(parse(CONV), module, "main", seeds=(0, 1), rtol=0.0, atol=0.0)
    assert report.ok, report.summary()


def test_random_inputs_of_bf16_are_bf16() -> None:
    value = random_input(parse(CONV).body.block.first_op.function_type.inputs.data[0], np.random.default_rng(0))
    assert value.dtype == BF16 and value.shape == (1, 2, 4, 4) and np.any(value.astype(np.float32) != 0)


def test_folded_bf16_constants_print_as_mlir_and_reparse() -> None:
    module = parse(RESOURCE)
    run_pipeline(module, "linalg-canonicalizations,linalg-fuse-ops")
    text = print_module(module)
    assert "xbf16" in text and "f16>" not in text.replace("bf16>", "")
    reparsed = load_module(text)
    before = load_module(RESOURCE)
    report = check_equivalence(before.module, reparsed.module, "main", seeds=(0,), rtol=0.0, atol=0.0,
                               resources_a=before.resources, resources_b=reparsed.resources)
    assert report.ok, report.summary()
    for tool in ("iree-opt", "heir-opt"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is part of the environment (docs/testing.md)")
        done = subprocess.run([tool, "-"], input=text, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr


def test_long_bf16_constants_print_in_hex_and_read_back() -> None:
    values = (np.arange(120, dtype=np.float32) / 7).astype(BF16)
    literal = '"0x' + values.tobytes().hex().upper() + '"'
    text = (f"func.func @main() -> tensor<120xbf16> {{\n  %c = arith.constant dense<{literal}> : tensor<120xbf16>\n"
            "  return %c : tensor<120xbf16>\n}\n")
    printed = print_module(parse(text))
    assert literal in printed
    (result,) = run(printed)
    np.testing.assert_array_equal(result, values)


def test_bf16_literals_are_spelled_as_heir_opt_spells_them() -> None:
    rng = np.random.default_rng(0)
    patterns = [int(b) for b in rng.integers(0, 1 << 16, 200) if (int(b) >> 7) & 0xFF != 0xFF]
    patterns += [0x7F80, 0xFF80, 0x0001, 0x8000]  # the infinities (MLIR: hex), a subnormal, -0
    lines = [f"  %c{i} = arith.constant 0x{b:04X} : bf16" for i, b in enumerate(patterns)]
    types = ", ".join("bf16" for _ in patterns)
    text = (f"func.func @main() -> ({types}) {{\n" + "\n".join(lines)
            + f"\n  return {', '.join(f'%c{i}' for i in range(len(patterns)))} : {types}\n}}\n")
    if shutil.which("heir-opt") is None:
        pytest.fail("heir-opt is part of the environment (docs/testing.md)")
    theirs = subprocess.run(["heir-opt", "-"], input=text, capture_output=True, text=True, timeout=60).stdout
    ours = print_module(parse(text))
    spelled = [line.split("arith.constant ")[1] for line in ours.splitlines() if "arith.constant" in line]
    assert spelled == [line.split("arith.constant ")[1] for line in theirs.splitlines() if "arith.constant" in line]
    assert len(spelled) == len(patterns) > 150 and any("e-" in s for s in spelled)


def test_without_ml_dtypes_bf16_has_no_numpy_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)  # `import ml_dtypes` raises ImportError
    with pytest.raises(UnsupportedTypeError, match="ml_dtypes"):
        bfloat16_dtype()
    assert numpy_dtype(BFloat16Type()) is None  # folds skip bf16, as before heirpy used it
