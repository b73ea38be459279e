"""MLIR element types as numpy dtypes, and the integer views MLIR's signless ops need.

MLIR integers are signless: `arith.addi` on i8 wraps mod 2^8, and only the op (`divsi`
vs `divui`, `cmpi slt` vs `cmpi ult`) says whether the bits are read as signed. We keep
every signless integer in the *signed* numpy dtype of its width (numpy array arithmetic
wraps exactly like MLIR's) and reinterpret the bits through `as_unsigned` for the
unsigned ops. `i1` is numpy `bool`; its signed value is -1 for true, as in MLIR.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ShapedType,
    Signedness,
)
from xdsl.ir import Attribute

from heirpy.diagnostics import HeirpyError


class UnsupportedTypeError(HeirpyError):
    """An element type the evaluator has no numpy representation for (bf16, i7, ...)."""


_SIGNED = {1: np.dtype(np.bool_), 8: np.dtype(np.int8), 16: np.dtype(np.int16),
           32: np.dtype(np.int32), 64: np.dtype(np.int64)}
_UNSIGNED = {1: np.dtype(np.bool_), 8: np.dtype(np.uint8), 16: np.dtype(np.uint16),
             32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def element_dtype(type_: Attribute) -> np.dtype:
    """The numpy dtype holding elements of `type_` (a scalar type or a shaped type)."""
    if isinstance(type_, ShapedType):
        type_ = type_.get_element_type()
    if isinstance(type_, Float32Type):
        return np.dtype(np.float32)
    if isinstance(type_, Float64Type):
        return np.dtype(np.float64)
    if isinstance(type_, Float16Type):
        return np.dtype(np.float16)
    if isinstance(type_, IndexType):
        return np.dtype(np.int64)
    if isinstance(type_, IntegerType):
        width = type_.width.data
        table = _UNSIGNED if type_.signedness.data == Signedness.UNSIGNED else _SIGNED
        if width in table:
            return table[width]
    raise UnsupportedTypeError(f"error: element type {type_} has no numpy representation")


def is_float(dtype: np.dtype) -> bool:
    return dtype.kind == "f"


def as_unsigned(values: np.ndarray) -> np.ndarray:
    """The same bits read as an unsigned integer (a view; bool stays bool)."""
    if values.dtype.kind == "i":
        return values.view(np.dtype(f"u{values.dtype.itemsize}"))
    return values


def as_signed(values: np.ndarray) -> np.ndarray:
    """The same bits read as a signed integer; an i1 `true` is -1 as in MLIR."""
    if values.dtype == np.bool_:
        return -values.astype(np.int8)
    if values.dtype.kind == "u":
        return values.view(np.dtype(f"i{values.dtype.itemsize}"))
    return values


def wrap_to(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Integer `values` truncated to `dtype`'s width (two's complement), as MLIR stores them.

    `astype` between integer dtypes already truncates; i1 keeps only the low bit.
    """
    if dtype == np.bool_:
        return (values.astype(np.int64, copy=False) & 1).astype(np.bool_)
    return values.astype(dtype, copy=False)


def shaped(values: object, type_: Attribute) -> np.ndarray:
    """`values` as an array of `type_`'s element dtype (0-d for a scalar type)."""
    return np.asarray(values).astype(element_dtype(type_), copy=False)
