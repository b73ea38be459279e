"""`arith` and `math` ops on scalars and tensors (also on the arrays a linalg body sees).

Every function computes with numpy in the operands' dtype and casts to the result's
element dtype, so f32 arithmetic is f32 arithmetic and integers wrap at their width.
Signless integers are stored signed; the `*ui` / unsigned-predicate ops read the same
bits through `as_unsigned` (see `heirpy.interp.dtypes`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    ShapedType,
)
from xdsl.ir import Attribute, Operation

from heirpy.interp.dtypes import as_signed, as_unsigned, wrap_to
from heirpy.interp.errors import op_error
from heirpy.interp.registry import EvaluatorProtocol, HandlerTable
from heirpy.ir.constants import dense_storage_dtype, element_dtype, is_float_dtype

HANDLERS = HandlerTable()


Arrays = Sequence[np.ndarray]


def result_dtype(op: Operation, index: int = 0) -> np.dtype:
    return element_dtype(op.results[index].type)


# ----------------------------------------------------------------------------- constants
@HANDLERS.register("arith.constant")
def constant(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    value = op.properties.get("value")
    if value is None:
        value = op.attributes.get("value")
    return [constant_value(ev, op, value, op.results[0].type)]


def constant_value(ev: EvaluatorProtocol, op: Operation, value: Attribute | None, type_: Attribute) -> np.ndarray:
    """The array an attribute denotes: scalar int/float, dense (list, splat or hex) or
    dense_resource."""
    dtype = element_dtype(type_)
    shape = type_.get_shape() if isinstance(type_, ShapedType) else ()
    if isinstance(value, FloatAttr):
        return np.full(shape, value.value.data, dtype=dtype)
    if isinstance(value, IntegerAttr):
        return np.full(shape, int_scalar(value.value.data, dtype), dtype=dtype)
    if isinstance(value, DenseIntOrFPElementsAttr):
        return dense_array(op, value, dtype, shape)
    if isinstance(value, DenseResourceAttr):
        return resource_array(op, ev.resource(op, value.resource_handle.data), dtype, shape)
    raise op_error(op, f"has a value attribute the evaluator does not know: {value}")


def int_scalar(value: int, dtype: np.dtype) -> np.generic | np.ndarray:
    """An integer attribute's value as `dtype`, keeping its low bits like MLIR's APInt."""
    if dtype == np.bool_:
        return np.bool_(value & 1)
    bits = dtype.itemsize * 8
    unsigned = np.array(value & ((1 << bits) - 1), dtype=np.dtype(f"u{dtype.itemsize}"))
    return unsigned.view(dtype)[()]


def dense_array(
    op: Operation, attr: DenseIntOrFPElementsAttr, dtype: np.dtype, shape: tuple[int, ...]
) -> np.ndarray:
    # xDSL stores the elements little-endian in its struct format; i1 as a signed byte,
    # bf16 as its 16-bit pattern.
    storage = dense_storage_dtype(attr.get_element_type())
    flat = np.frombuffer(attr.data.data, dtype=storage)
    flat = flat != 0 if dtype == np.bool_ else flat.astype(dtype, copy=False)
    count = math.prod(shape)
    if flat.size == 1 and count != 1:  # a splat, e.g. the hex form of one element
        return np.full(shape, flat[0], dtype=dtype)
    if flat.size != count:
        raise op_error(op, f"has {flat.size} dense elements for shape {list(shape)}")
    return flat.reshape(shape).copy()


def resource_array(op: Operation, blob: bytes, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    # MLIR stores an i1 resource one byte per element.
    storage = np.dtype(np.uint8) if dtype == np.bool_ else dtype.newbyteorder("<")
    count = math.prod(shape)
    if len(blob) != count * storage.itemsize:
        raise op_error(
            op, f"dense_resource blob has {len(blob)} bytes, expected {count * storage.itemsize} "
            f"for shape {list(shape)} of {dtype}"
        )
    flat = np.frombuffer(blob, dtype=storage)
    flat = flat != 0 if dtype == np.bool_ else flat.astype(dtype)
    return flat.reshape(shape)


# ----------------------------------------------------------------------------- float ops
_FLOAT_BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
    "arith.maximumf": np.maximum,  # NaN-propagating, like numpy
    "arith.minimumf": np.minimum,
    "arith.maxnumf": np.fmax,  # returns the non-NaN operand
    "arith.minnumf": np.fmin,
    "math.powf": np.power,
    "math.atan2": np.arctan2,
    "math.copysign": np.copysign,
}


@HANDLERS.register(*_FLOAT_BINARY)
def float_binary(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    lhs, rhs = args
    return [np.asarray(_FLOAT_BINARY[op.name](lhs, rhs)).astype(result_dtype(op), copy=False)]


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


_ERFC_CF_TERMS = 60


def erf(x: np.ndarray) -> np.ndarray:
    """erf in float64 to ~1e-15: Taylor series for |x| <= 2, else 1 - erfc by the
    continued fraction erfc(x) = exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/...)))."""
    x64 = np.asarray(x, dtype=np.float64)
    small = np.abs(x64) <= 2.0
    xs = np.where(small, x64, 0.0)
    term = xs.copy()
    total = xs.copy()
    square = xs * xs
    for n in range(1, 60):
        term = term * -square / n
        total = total + term / (2 * n + 1)
    series = total * (2.0 / math.sqrt(math.pi))
    xl = np.where(small, 3.0, np.abs(x64))
    fraction = xl.copy()
    for k in range(_ERFC_CF_TERMS, 0, -1):
        fraction = xl + (k / 2.0) / fraction
    erfc = np.exp(-xl * xl) / math.sqrt(math.pi) / fraction
    large = np.copysign(1.0 - erfc, x64)
    return np.where(small, series, large)


_FLOAT_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "arith.negf": np.negative,
    "math.absf": np.abs,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.log": np.log,
    "math.log2": np.log2,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1 / np.sqrt(x),
    "math.cbrt": np.cbrt,
    "math.tanh": np.tanh,
    "math.sin": np.sin,
    "math.cos": np.cos,
    "math.tan": np.tan,
    "math.asin": np.arcsin,
    "math.acos": np.arccos,
    "math.atan": np.arctan,
    "math.sinh": np.sinh,
    "math.cosh": np.cosh,
    "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh,
    "math.atanh": np.arctanh,
    "math.ceil": np.ceil,
    "math.floor": np.floor,
    "math.trunc": np.trunc,
    "math.roundeven": np.rint,  # numpy rounds half to even
    "math.round": _round_half_away,
    "math.erf": erf,
}


@HANDLERS.register(*_FLOAT_UNARY)
def float_unary(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    (operand,) = args
    return [np.asarray(_FLOAT_UNARY[op.name](operand)).astype(result_dtype(op), copy=False)]


@HANDLERS.register("math.fma")
def fma(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    a, b, c = args
    # One rounding in float64 is a fused multiply-add for f16/f32 operands.
    exact = a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)
    return [np.asarray(exact).astype(result_dtype(op))]


@HANDLERS.register("math.fpowi")
def fpowi(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    base, exponent = args
    dtype = result_dtype(op)
    return [np.asarray(np.power(base, as_signed(exponent).astype(dtype))).astype(dtype, copy=False)]


# ----------------------------------------------------------------------------- comparisons
_CMPF: tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], ...] = (
    lambda a, b: np.zeros(np.broadcast(a, b).shape, dtype=bool),  # false
    lambda a, b: a == b,  # oeq: numpy comparisons with NaN are false, i.e. ordered
    lambda a, b: a > b,  # ogt
    lambda a, b: a >= b,  # oge
    lambda a, b: a < b,  # olt
    lambda a, b: a <= b,  # ole
    lambda a, b: (a != b) & ~np.isnan(a) & ~np.isnan(b),  # one
    lambda a, b: ~np.isnan(a) & ~np.isnan(b),  # ord
    lambda a, b: (a == b) | np.isnan(a) | np.isnan(b),  # ueq
    lambda a, b: ~(a <= b),  # ugt
    lambda a, b: ~(a < b),  # uge
    lambda a, b: ~(a >= b),  # ult
    lambda a, b: ~(a > b),  # ule
    lambda a, b: a != b,  # une: true on NaN, i.e. unordered
    lambda a, b: np.isnan(a) | np.isnan(b),  # uno
    lambda a, b: np.ones(np.broadcast(a, b).shape, dtype=bool),  # true
)


@HANDLERS.register("arith.cmpf")
def cmpf(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    lhs, rhs = args
    return [np.asarray(_CMPF[_predicate(op, len(_CMPF))](lhs, rhs))]


_CMPI: tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], ...] = (
    lambda a, b: a == b,  # eq
    lambda a, b: a != b,  # ne
    lambda a, b: as_signed(a) < as_signed(b),  # slt
    lambda a, b: as_signed(a) <= as_signed(b),  # sle
    lambda a, b: as_signed(a) > as_signed(b),  # sgt
    lambda a, b: as_signed(a) >= as_signed(b),  # sge
    lambda a, b: as_unsigned(a) < as_unsigned(b),  # ult
    lambda a, b: as_unsigned(a) <= as_unsigned(b),  # ule
    lambda a, b: as_unsigned(a) > as_unsigned(b),  # ugt
    lambda a, b: as_unsigned(a) >= as_unsigned(b),  # uge
)


@HANDLERS.register("arith.cmpi")
def cmpi(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    lhs, rhs = args
    return [np.asarray(_CMPI[_predicate(op, len(_CMPI))](lhs, rhs))]


def _predicate(op: Operation, count: int) -> int:
    attr = op.properties.get("predicate")
    value = attr.value.data if isinstance(attr, IntegerAttr) else -1
    if not 0 <= value < count:
        raise op_error(op, f"has an unknown predicate {attr}")
    return value


@HANDLERS.register("arith.select")
def select(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    condition, on_true, on_false = args
    return [np.asarray(np.where(condition, on_true, on_false)).astype(result_dtype(op), copy=False)]


# ----------------------------------------------------------------------------- integer ops
def _trunc_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C division (rounds toward zero); numpy's // rounds toward minus infinity."""
    quotient = a // b
    inexact = (a % b != 0) & ((a < 0) != (b < 0))
    return quotient + inexact.astype(quotient.dtype)


def _ceil_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    quotient = a // b
    return quotient + (a % b != 0).astype(quotient.dtype)


def _shift_right_unsigned(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return as_unsigned(a) >> as_unsigned(b).astype(as_unsigned(a).dtype)


# Each entry reads the operands as signed or unsigned as the op says; i1 operands are
# widened to int8 first so that + and * wrap mod 2 instead of acting as or / and.
_INT_BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "arith.addi": np.add,
    "arith.subi": np.subtract,
    "arith.muli": np.multiply,
    "arith.divsi": lambda a, b: _trunc_div(as_signed(a), as_signed(b)),
    "arith.divui": lambda a, b: as_unsigned(a) // as_unsigned(b),
    "arith.remsi": lambda a, b: np.fmod(as_signed(a), as_signed(b)),
    "arith.remui": lambda a, b: as_unsigned(a) % as_unsigned(b),
    "arith.floordivsi": lambda a, b: as_signed(a) // as_signed(b),
    "arith.ceildivsi": lambda a, b: _ceil_div(as_signed(a), as_signed(b)),
    "arith.ceildivui": lambda a, b: _ceil_div(as_unsigned(a), as_unsigned(b)),
    "arith.maxsi": lambda a, b: np.maximum(as_signed(a), as_signed(b)),
    "arith.minsi": lambda a, b: np.minimum(as_signed(a), as_signed(b)),
    "arith.maxui": lambda a, b: np.maximum(as_unsigned(a), as_unsigned(b)),
    "arith.minui": lambda a, b: np.minimum(as_unsigned(a), as_unsigned(b)),
    "arith.andi": np.bitwise_and,
    "arith.ori": np.bitwise_or,
    "arith.xori": np.bitwise_xor,
    "arith.shli": lambda a, b: np.left_shift(a, as_unsigned(b).astype(a.dtype)),
    "arith.shrsi": lambda a, b: np.right_shift(as_signed(a), as_unsigned(b).astype(as_signed(a).dtype)),
    "arith.shrui": _shift_right_unsigned,
}


def _widen_bool(a: np.ndarray) -> np.ndarray:
    return a.astype(np.int8) if a.dtype == np.bool_ else a


@HANDLERS.register(*_INT_BINARY)
def int_binary(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    lhs, rhs = args
    dtype = result_dtype(op)
    if dtype == np.bool_ and op.name in ("arith.addi", "arith.subi", "arith.muli"):
        lhs, rhs = _widen_bool(lhs), _widen_bool(rhs)
    value = np.asarray(_INT_BINARY[op.name](lhs, rhs))
    if value.dtype.kind == "u" and dtype.kind == "i":
        value = value.view(dtype) if value.dtype.itemsize == dtype.itemsize else value
    return [wrap_to(value, dtype)]


@HANDLERS.register("arith.addui_extended")
def addui_extended(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    """The wrapped sum and whether the unsigned addition overflowed (`sum < lhs`)."""
    lhs, rhs = (np.asarray(a) for a in args)
    if lhs.dtype == np.bool_:
        return [np.logical_xor(lhs, rhs), np.logical_and(lhs, rhs)]
    left = as_unsigned(lhs)
    with np.errstate(over="ignore"):
        total = np.asarray(left + as_unsigned(rhs))
    return [wrap_to(total, result_dtype(op)), np.asarray(total < left)]


@HANDLERS.register("math.absi")
def absi(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    return [wrap_to(np.asarray(np.abs(as_signed(args[0]))), result_dtype(op))]


@HANDLERS.register("math.ipowi")
def ipowi(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    base, exponent = as_signed(args[0]), as_signed(args[1])
    # A negative exponent gives 1/base^n truncated: +-1 for |base| = 1, else 0.
    positive = np.power(base, np.maximum(exponent, 0).astype(base.dtype))
    odd = (exponent % 2) != 0
    negative = np.where(base == 1, 1, np.where(base == -1, np.where(odd, -1, 1), 0))
    return [wrap_to(np.asarray(np.where(exponent >= 0, positive, negative)), result_dtype(op))]


@HANDLERS.register("math.ctpop", "math.ctlz", "math.cttz")
def bit_count(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    bits = as_unsigned(args[0]) if args[0].dtype != np.bool_ else args[0].astype(np.uint8)
    width = 1 if args[0].dtype == np.bool_ else bits.dtype.itemsize * 8
    if op.name == "math.ctpop":
        count = np.bitwise_count(bits)
    elif op.name == "math.ctlz":
        length = sum(((bits >> np.asarray(k, bits.dtype)) != 0).astype(np.int64) for k in range(width))
        count = width - np.asarray(length)
    else:
        lowest = bits & (~bits + np.asarray(1, bits.dtype))
        count = np.where(bits == 0, width, np.bitwise_count(lowest - np.asarray(1, bits.dtype)))
    return [wrap_to(np.asarray(count), result_dtype(op))]


# ----------------------------------------------------------------------------- casts
_CASTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "arith.extf": lambda a: a,
    "arith.truncf": lambda a: a,
    "arith.extsi": as_signed,
    "arith.extui": as_unsigned,
    "arith.trunci": lambda a: a,
    "arith.sitofp": as_signed,
    "arith.uitofp": as_unsigned,
    "arith.fptosi": np.trunc,
    "arith.fptoui": np.trunc,
    "arith.index_cast": as_signed,
}


@HANDLERS.register(*_CASTS)
def cast(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    dtype = result_dtype(op)
    value = np.asarray(_CASTS[op.name](args[0]))
    if op.name == "arith.fptoui" and dtype.kind == "i":
        # Out-of-range values are poison in MLIR; in range, go through the unsigned type.
        return [value.astype(np.dtype(f"u{dtype.itemsize}")).view(dtype)]
    if dtype.kind in "iub" and is_float_dtype(value.dtype):
        return [wrap_to(value.astype(np.int64), dtype)]
    if dtype.kind in "iub":
        return [wrap_to(value, dtype)]
    return [value.astype(dtype)]


@HANDLERS.register("arith.bitcast")
def bitcast(ev: EvaluatorProtocol, op: Operation, args: Arrays) -> list[np.ndarray]:
    dtype = result_dtype(op)
    (value,) = args
    if value.dtype.itemsize != dtype.itemsize:
        raise op_error(op, f"cannot reinterpret {value.dtype} as {dtype}")
    return [np.ascontiguousarray(value).view(dtype)]
