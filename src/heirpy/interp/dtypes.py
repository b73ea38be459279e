"""The integer views MLIR's signless ops need (element types -> dtypes is
`heirpy.ir.constants.element_dtype`).

MLIR integers are signless: `arith.addi` on i8 wraps mod 2^8, and only the op (`divsi`
vs `divui`, `cmpi slt` vs `cmpi ult`) says whether the bits are read as signed. We keep
every signless integer in the *signed* numpy dtype of its width (numpy array arithmetic
wraps exactly like MLIR's) and reinterpret the bits through `as_unsigned` for the
unsigned ops. `i1` is numpy `bool`; its signed value is -1 for true, as in MLIR.
"""

from __future__ import annotations

import numpy as np


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
