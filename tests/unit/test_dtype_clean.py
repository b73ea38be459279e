"""Every pipeline is dtype-clean on generated programs (issue 34; tests/dtype_clean.py):
f16 and bf16 variants of tests/strategies.py's programs and programs in torch-mlir's
mixed form (f16 and bf16 storage, f32 accumulators) go through the main pipeline,
iree-prepare and heir-prepare; heirpy's verifier and iree-opt (one call for the whole
sample) accept every output, no pipeline refuses a bf16 program (bf16 folds and
evaluates as `ml_dtypes.bfloat16`), and every output computes what its input does within
the dtype's tolerance. benchmarks/fuzz_dtypes.py runs the same on thousands.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from dtype_clean import (  # noqa: E402
    PIPELINES,
    Outputs,
    Variant,
    convert_element,
    dtype_tolerance,
    iree_parse,
    run_variant,
    type_problem,
)
from heirpy.interp.evaluator import Evaluator  # noqa: E402
from heirpy.interp.resources import load_module  # noqa: E402
from heirpy.ir.constants import bfloat16_dtype  # noqa: E402
from strategies import Program, differential_programs, programs  # noqa: E402

SAMPLE = 4
_fixed = dict(deadline=None, derandomize=True, database=None, max_examples=SAMPLE,
              suppress_health_check=list(HealthCheck))


def _draw(strategy: object) -> list[Program]:
    drawn: list[Program] = []

    @settings(**_fixed)  # type: ignore[arg-type]
    @given(program=strategy)
    def collect(program: Program) -> None:
        drawn.append(program)

    collect()
    return drawn


@pytest.fixture(scope="module")
def sample_outputs() -> Outputs:
    """Every pipeline on the fixed sample's f16, bf16 and torch-f16 variants, with one
    iree-opt call for all outputs (its findings appended)."""
    outputs = Outputs()
    for number, program in enumerate(_draw(programs())):
        for element in ("f16", "bf16"):
            text = convert_element(program.text, element)
            run_variant(Variant(f"#{number}/{element}", element, text, len(program.layers)), PIPELINES, outputs)
    for number, program in enumerate(_draw(differential_programs(element="f16"))):
        for element in ("f16", "bf16"):
            text = convert_element(program.text, element, source="f16")
            variant = Variant(f"#{number}/{element}-torch", element, text, len(program.layers))
            run_variant(variant, PIPELINES, outputs)
    if shutil.which("iree-opt"):
        outputs.findings += iree_parse(outputs.texts)
    return outputs


def test_no_dtype_errors(sample_outputs: Outputs) -> None:
    errors = [f for f in sample_outputs.findings if f.kind in ("crash", "invalid", "iree")]
    assert not errors, "\n".join(f"{f.variant} [{f.pipeline}] {f.kind}: {f.detail}" for f in errors)
    assert len(sample_outputs.texts) == 4 * SAMPLE * len(PIPELINES)  # every variant printed


def test_numerics_within_dtype_tolerance(sample_outputs: Outputs) -> None:
    mismatches = [f for f in sample_outputs.findings if f.kind == "mismatch"]
    assert not mismatches, "\n".join(f"{f.variant} [{f.pipeline}]: {f.detail}" for f in mismatches)


def test_no_pipeline_refuses_a_half_precision_program(sample_outputs: Outputs) -> None:
    refused = [f for f in sample_outputs.findings if f.kind == "refused"]
    assert not refused, refused


def test_iree_parse_names_the_program_it_rejects() -> None:
    if not shutil.which("iree-opt"):
        pytest.fail("iree-opt is part of the environment (docs/testing.md)")
    good = "func.func @main(%x: tensor<2xf16>) -> tensor<2xf16> {\n  return %x : tensor<2xf16>\n}\n"
    bad = "func.func @main(%x: tensor<2xf16>) -> tensor<2xf32> {\n  return %x : tensor<2xf16>\n}\n"
    findings = iree_parse([("a", "main", good), ("b", "main", bad), ("c", "main", good)])
    assert [(f.variant, f.kind) for f in findings] == [("b", "iree")]
    assert iree_parse([("a", "main", good), ("c", "main", good)]) == []


BLOB_PROGRAM = """module {
  func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %w = arith.constant dense_resource<blob_1_3.float32> : tensor<3xf32>
    %m = arith.constant dense<0xFF800000> : tensor<3xf32>
    %a = arith.addf %x, %w : tensor<3xf32>
    %r = arith.maximumf %a, %m : tensor<3xf32>
    return %r : tensor<3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob_1_3.float32: "0x04000000BLOB"
    }
  }
#-}
""".replace("BLOB", np.array([0.5, -1.25, 3.0e-3], dtype="<f4").tobytes().hex().upper())


def test_convert_element_converts_types_blobs_and_infinities() -> None:
    for element, inf in (("f16", "0xFC00"), ("bf16", "0xFF80")):
        text = convert_element(BLOB_PROGRAM, element)
        assert "f32" not in text.replace("float32", "")
        assert f"tensor<3x{element}>" in text and f"dense<{inf}>" in text
        assert f'blob_1_3.{element}: "0x02000000' in text
        loaded = load_module(text)
        (data,) = loaded.resources.values()
        dtype = np.dtype(np.float16) if element == "f16" else bfloat16_dtype()
        expected = np.array([0.5, -1.25, 3.0e-3], dtype=np.float32).astype(dtype)
        np.testing.assert_array_equal(np.frombuffer(data, dtype=dtype), expected)
        (result,) = Evaluator(loaded.module, resources=loaded.resources).call(
            "main", [np.array([1.0, 2.0, 3.0], dtype=dtype)])
        np.testing.assert_array_equal(result, np.array([1.5, 0.75, 3.003], dtype=np.float32).astype(dtype))
    # bf16 keeps the top 16 bits, rounded to nearest even (0.5 and -1.25 are exact)
    hex_data = convert_element(BLOB_PROGRAM, "bf16").split('blob_1_3.bf16: "0x02000000')[1][:12]
    assert hex_data[:8] == "003FA0BF"


def test_convert_element_from_the_f16_form_keeps_its_f32_accumulators() -> None:
    f16 = convert_element(BLOB_PROGRAM, "f16").replace(
        "return %r : tensor<3xf16>",
        "%e = arith.extf %r : tensor<3xf16> to tensor<3xf32>\n    return %e : tensor<3xf32>",
    ).replace("-> tensor<3xf16> {", "-> tensor<3xf32> {")
    bf16 = convert_element(f16, "bf16", source="f16")
    assert "f16" not in bf16.replace("bf16", "") and "arith.extf %r : tensor<3xbf16> to tensor<3xf32>" in bf16
    assert "dense<0xFF80>" in bf16 and 'blob_1_3.bf16: "0x02000000003FA0BF' in bf16
    load_module(bf16)  # verifies


def test_dtype_tolerance_follows_the_type() -> None:
    assert dtype_tolerance("f16", 5) == 8 * 2.0**-10 * 6
    assert dtype_tolerance("f32", 0) == 8 * 2.0**-23
    assert dtype_tolerance("bf16", 1) > dtype_tolerance("f16", 1) > dtype_tolerance("f32", 1)


DEPTHWISE_CASES = Path(__file__).resolve().parent.parent / "filecheck/transforms/unroll-depthwise-conv/half_precision.mlir"


def test_mixed_form_depthwise_convs_through_every_pipeline() -> None:
    """The generators draw no depthwise conv in torch-mlir's mixed form (f16 or bf16 into an
    f32 accumulator): the unroll-depthwise-conv half-precision cases, and their bf16 twins,
    go through every pipeline here (heir-prepare once built an expand_shape from f16 to
    f32 for them, tests/filecheck/transforms/heir-prepare/half_precision_depthwise.mlir)."""
    outputs = Outputs()
    for number, chunk in enumerate(DEPTHWISE_CASES.read_text().split("// -----")):
        text = "\n".join(line for line in chunk.splitlines() if not line.lstrip().startswith("//"))
        name = re.search(r"func\.func @(\w+)", text)
        assert name is not None
        text = text.replace(f"@{name.group(1)}", "@main")
        element = "bf16" if "bf16" in text else "f16"
        run_variant(Variant(f"#{number}/{element}", element, text, 1), PIPELINES, outputs)
        if element == "f16":
            twin = convert_element(text, "bf16", source="f16")
            run_variant(Variant(f"#{number}/bf16", "bf16", twin, 1), PIPELINES, outputs)
    outputs.findings += iree_parse(outputs.texts)
    assert not outputs.findings, "\n".join(f"{f.variant} [{f.pipeline}] {f.kind}: {f.detail}" for f in outputs.findings)
    assert len(outputs.texts) >= 4 * len(PIPELINES)


WIDENED = """func.func @main(%x: tensor<4xf16>) -> tensor<4xf16> {
  %c = arith.constant dense<[0.5, 1.5, -2.0, 0.25]> : tensor<4xf16>
  %a = arith.addf %x, %c : tensor<4xf16>
  return %a : tensor<4xf16>
}
"""


def test_an_f32_type_in_an_f16_program_is_a_dtype_error_unless_the_pipeline_widens() -> None:
    """`heir-widen-half` (heir-prepare's last step) makes the f16 program f32: the element
    type check flags that under any pipeline label but heir-prepare's (WIDENING), whose
    output must hold f32 for f16 and nothing else; an f16 left there is flagged too."""
    outputs = Outputs()
    run_variant(Variant("#w/f16", "f16", WIDENED, 1), {"main": "heir-widen-half", "heir": "heir-widen-half"}, outputs)
    kinds = sorted((f.pipeline, f.kind) for f in outputs.findings)
    assert kinds == [("main", "dtype"), ("main", "mismatch")], outputs.findings
    assert type_problem({"f16"}, "tensor<4xf32> tensor<4xf16>", widening=True).startswith("output keeps ['f16']")
    assert type_problem({"f16", "f32"}, "tensor<4xf32>", widening=True) == ""
    assert type_problem({"bf16", "f32"}, "tensor<4xf16>", widening=True).startswith("output holds ['f16']")
    assert type_problem({"bf16"}, "tensor<4xbf16> f32", widening=False).startswith("output holds ['f32']")


ROUNDING = """func.func @main(%x: tensor<4xf16>) -> tensor<4xf16> {
  %big = arith.constant dense<2048.0> : tensor<4xf16>
  %a = arith.addf %x, %big : tensor<4xf16>
  %b = arith.subf %a, %big : tensor<4xf16>
  return %b : tensor<4xf16>
}
"""


def test_widened_output_is_judged_against_the_input_computed_in_f32() -> None:
    """(x + 2048) - 2048 in f16 loses x's fraction (f16's spacing at 2048 is 2), in f32 it
    keeps it: the widened program is far from the f16 input, but it is what the input
    computes in f32, so a widening pipeline (heir) is no mismatch; under another label the
    same output is one (and a dtype error)."""
    outputs = Outputs()
    run_variant(Variant("#r/f16", "f16", ROUNDING, 2), {"main": "heir-widen-half", "heir": "heir-widen-half"}, outputs)
    assert sorted((f.pipeline, f.kind) for f in outputs.findings) == [("main", "dtype"), ("main", "mismatch")]



def test_a_python_exception_wrapped_by_the_pass_manager_is_a_crash_not_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """`apply_pass` turns an exception inside a pass into a one-line HeirpyError; the fuzz
    must still count it against the target (it once counted four as "refused"), while a
    HeirpyError a pass raises itself stays a refusal."""
    from dataclasses import dataclass

    from xdsl.passes import ModulePass

    import dtype_clean
    from heirpy.api import apply_pass, context_of
    from heirpy.ir.diagnostics import HeirpyError

    @dataclass(frozen=True)
    class Raising(ModulePass):
        name = "raising"
        error: Exception = ValueError("not enough values to unpack (expected 4, got 1)")

        def apply(self, ctx: object, op: object) -> None:
            raise self.error

    text = "func.func @main(%a: tensor<4xf16>) -> tensor<4xf16> {\n  return %a : tensor<4xf16>\n}\n"
    for error, kind in ((ValueError("not enough values to unpack"), "crash"), (HeirpyError("error: a limit"), "refused")):
        monkeypatch.setattr(dtype_clean, "run_pipeline",
                            lambda module, spec, verify=True, e=error: apply_pass(Raising(e), module, context_of(module)))
        outputs = Outputs()
        run_variant(Variant("v", "f16", text, 0), {"p": "raising"}, outputs, numerics=False)
        assert [f.kind for f in outputs.findings] == [kind], outputs.findings
