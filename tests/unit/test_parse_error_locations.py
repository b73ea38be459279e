"""Where and how the parser reports what it refuses, on the paths heirpy adds to xDSL's
parser (hex float bit patterns, oversized dense constants, non-affine maps, blobs), and
run_guarded's exit code on an interrupt: survivors of issue 35's third mutation sample."""

from __future__ import annotations

import pytest

from heirpy.api import parse
from heirpy.ir.diagnostics import HeirpyError, float_from_bits, run_guarded


def error_of(text: str) -> str:
    with pytest.raises(HeirpyError) as info:
        parse(text)
    return str(info.value)


@pytest.mark.parametrize(("bits", "width"), [(1 << 32, 32), (1 << 16, 16), (-1, 64), (0, 8), (0x3C00, 24)])
def test_a_bit_pattern_out_of_its_width_or_of_an_unknown_width_is_a_value_error(bits: int, width: int) -> None:
    with pytest.raises(ValueError, match=f"no f{width} has the bit pattern"):
        float_from_bits(bits, width)


def test_bit_patterns_at_the_limits_of_their_width_read() -> None:
    assert float_from_bits(0xFFFFFFFF, 32) != float_from_bits(0xFFFFFFFF, 32)  # a NaN
    assert float_from_bits(0x3C00, 16) == 1.0
    assert float_from_bits(0, 64) == 0.0


def test_a_bit_pattern_too_wide_for_its_element_type_is_reported_at_the_literal() -> None:
    assert error_of("%0 = arith.constant dense<0x1FFFF> : tensor<2xf16>\n").startswith(
        "<string>:1:27: error: no f16 has the bit pattern 0x1ffff"
    )


def test_an_oversized_dense_constant_is_reported_at_its_type() -> None:
    text = "%0 = arith.constant dense<0.0> : tensor<100000000x100000000xf32>\n"
    assert error_of(text).startswith("<string>:1:34: error: dense constant of 10000000000000000 elements")


def test_a_dense_literal_without_a_type_says_so() -> None:
    assert "error: Dense attribute must be typed!" in error_of("%0 = arith.constant dense<1.0> : 5\n")


def test_a_non_affine_map_is_reported_at_its_operator() -> None:
    text = '"test.op"() {m = affine_map<(d0, d1) -> (d0 floordiv d1)>} : () -> ()\n'
    assert error_of(text).startswith("<string>:1:45: error: non-affine expression")


def test_a_blob_that_no_attribute_names_is_read() -> None:
    """MLIR accepts a dialect_resources entry that no dense_resource names; the blob
    reader must declare it itself (through the builtin dialect's interface)."""
    text = '"test.op"() : () -> ()\n{-#\n  dialect_resources: {\n    builtin: {\n      unused: "0x0400000000000000"\n    }\n  }\n#-}\n'
    assert [op.name for op in parse(text).body.ops] == ["test.op"]


def test_an_interrupt_is_one_line_and_exit_code_1(capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(argv: list[str]) -> int:
        raise KeyboardInterrupt

    assert run_guarded(interrupted, []) == 1
    assert capsys.readouterr().err == "error: interrupted\n"
