"""`apfloat_text` against LLVM's own expectations for `APFloat::toString` (the cases of
llvm/unittests/ADT/APFloatTest.cpp's toString test, for doubles): every combination of
precision, max padding and truncate-zero that the printer's two forms (MLIR's `%e`-like
form and APFloat's default) do not exercise on their own, plus the sign of zero."""

from __future__ import annotations

import pytest

from heirpy.ir.float_text import apfloat_text

# (value, precision, max padding, truncate zero, LLVM's text)
LLVM_CASES = [
    (10.0, 6, 3, True, "10"),
    (10.0, 6, 0, True, "1.0E+1"),
    (0.0, 6, 3, True, "0"),
    (0.0, 6, 0, True, "0.0E+0"),
    (1.01e4, 4, 3, True, "1.01E+4"),
    (1.01e4, 5, 1, True, "1.01E+4"),
    (1.01e-2, 5, 1, True, "1.01E-2"),
    (1.01e-2, 4, 2, True, "0.0101"),
    (1.01e-2, 4, 1, True, "1.01E-2"),
    (0.78539816339744830961, 0, 3, True, "0.78539816339744828"),
    (4.9406564584124654e-324, 0, 3, True, "4.9406564584124654E-324"),
    (873.1834, 0, 1, True, "873.18340000000001"),
    (873.1834, 0, 0, True, "8.7318340000000001E+2"),
    (1.7976931348623157e308, 0, 0, True, "1.7976931348623157E+308"),
    (10.0, 6, 3, False, "10"),
    (10.0, 6, 0, False, "1.000000e+01"),
    (0.0, 6, 0, False, "0.000000e+00"),
    (1.01e4, 6, 3, False, "10100"),
    (1.01e4, 4, 0, False, "1.0100e+04"),
    (1.01e4, 5, 1, False, "1.01000e+04"),
    (1.01e-2, 5, 1, False, "1.01000e-02"),
    (1.01e-2, 4, 2, False, "0.0101"),
    (0.78539816339744830961, 0, 3, False, "0.78539816339744828"),
    (4.9406564584124654e-324, 0, 3, False, "4.94065645841246540e-324"),
    (873.1834, 0, 1, False, "873.18340000000001"),
    (873.1834, 0, 0, False, "8.73183400000000010e+02"),
    (1.7976931348623157e308, 0, 0, False, "1.79769313486231570e+308"),
]


@pytest.mark.parametrize(("value", "precision", "padding", "truncate", "text"), LLVM_CASES)
def test_llvms_tostring_cases(value: float, precision: int, padding: int, truncate: bool, text: str) -> None:
    assert apfloat_text(value, 53, precision, padding, truncate) == text
    if value:
        assert apfloat_text(-value, 53, precision, padding, truncate) == "-" + text


def test_negative_zero_keeps_its_sign_in_each_form() -> None:
    assert apfloat_text(-0.0, 53) == "-0"
    assert apfloat_text(-0.0, 53, 6, 0, True) == "-0.0E+0"
    assert apfloat_text(-0.0, 53, 6, 0, False) == "-0.000000e+00"
