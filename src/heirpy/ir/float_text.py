"""Float literals as MLIR's AsmPrinter spells them (APFloat's digits), so that heirpy's
output matches mlir-opt's text: `1.500000e+00`, `1.1920929E-7`, `0xFF800000`."""

from __future__ import annotations

import math
from collections.abc import Mapping

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.ir import Attribute

__all__ = ["apfloat_text", "mlir_float_text"]


MLIRFloat = Float16Type | BFloat16Type | Float32Type | Float64Type
"""The float types whose literals heirpy spells as MLIR does."""

_SIGNIFICAND_BITS: Mapping[type[Attribute], int] = {Float16Type: 11, BFloat16Type: 8, Float32Type: 24, Float64Type: 53}
"""Precision (significand bits, hidden bit included) of the float types whose values
heirpy spells as MLIR does; other float types print as xDSL spells them."""


def _round_trips(text: str, value: float, type_: MLIRFloat) -> bool:
    return type_.unpack(type_.pack([float(text)]), 1)[0] == value


def _round_half_up(digits: str, exp: int, precision: int) -> tuple[str, int]:
    """`digits` x 10^exp cut to `precision` digits, rounding half up on the first
    dropped digit, and without trailing zeros (as APFloat rounds its decimal digits)."""
    if len(digits) > precision:
        dropped = len(digits) - precision
        exp += dropped
        if digits[precision] < "5":
            digits = digits[:precision]
        else:
            rounded = str(int(digits[:precision]) + 1)
            if len(rounded) > precision:  # 99..9 carried through: a single 1
                return "1", exp + precision
            digits = rounded
    stripped = digits.rstrip("0")
    return stripped, exp + len(digits) - len(stripped)


def _apfloat_digits(value: float, precision: int) -> tuple[str, int]:
    """The decimal digits of non-zero |value| and the power of ten of the last one, as
    APFloat's `toString` computes them: exact, except that a significand with more
    bits than `precision` digits need first loses whole tens by integer division
    (which truncates), then the digits are rounded half up to `precision`."""
    numerator, denominator = abs(value).as_integer_ratio()
    binary_exp = 1 - denominator.bit_length()  # the denominator is a power of two
    significand = numerator
    if binary_exp >= 0:
        exp = 0
    else:
        significand *= 5**-binary_exp  # N * 2^-e == N * 5^e * 10^-e
        exp = binary_exp
    bits_required = (precision * 196 + 58) // 59  # 196/59 slightly over log2(10)
    if significand.bit_length() > bits_required:
        removable = (significand.bit_length() - bits_required) * 59 // 196
        significand //= 10**removable
        exp += removable
    digits = str(significand)
    stripped = digits.rstrip("0")
    return _round_half_up(stripped, exp + len(digits) - len(stripped), precision)


def apfloat_text(
    value: float, precision_bits: int, precision: int = 0, max_padding: int = 3, truncate_zero: bool = True
) -> str:
    """LLVM's `APFloat::toString(precision, max_padding, truncate_zero)` of a finite
    float whose significand has `precision_bits` bits (0 digits: enough to read back,
    `2 + precision_bits * 59 / 196`). Its defaults give `1.1920929E-7`, `0.00123`,
    `1234.5`; (6, 0, False) gives MLIR's `%e` form, `1.500000e+00`."""
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if not precision:
        precision = 2 + precision_bits * 59 // 196
    if value == 0:
        if max_padding:
            return sign + "0"
        return sign + ("0.0E+0" if truncate_zero else "0." + "0" * max(precision, 1) + "e+00")
    digits, exp = _apfloat_digits(value, precision)
    count = len(digits)
    msd = exp + count - 1  # power of ten of the most significant digit
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or count + exp > precision
    else:
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        fraction = digits[1:] or ("0" if truncate_zero else "")
        if not truncate_zero:
            fraction += "0" * max(precision - count + 1, 0)
        power = str(abs(msd)).rjust(1 if truncate_zero else 2, "0")
        return f"{sign}{digits[0]}.{fraction}{'E' if truncate_zero else 'e'}{'+' if msd >= 0 else '-'}{power}"
    if exp >= 0:
        return sign + digits + "0" * exp
    if msd >= 0:
        return f"{sign}{digits[: msd + 1]}.{digits[msd + 1 :]}"
    return f"{sign}0.{'0' * (-msd - 1)}{digits}"


def mlir_float_text(value: float, type_: MLIRFloat) -> str:
    """A float literal as MLIR's AsmPrinter writes it: APFloat's `%e`-like form with 6
    digits (`1.500000e+00`) when it reads back as the same value; else APFloat's
    default spelling (`1.1920929E-7`) when that has a decimal point; else, and for
    infinities and NaNs, the bits in hex (`0xFF800000`, no leading zeros)."""
    bits = _SIGNIFICAND_BITS[type(type_)]
    if math.isfinite(value):
        short = apfloat_text(value, bits, 6, 0, False)
        if _round_trips(short, value, type_):
            return short
        natural = apfloat_text(value, bits)
        if "." in natural:
            return natural
    return f"0x{int.from_bytes(type_.pack([value]), 'little'):X}"
