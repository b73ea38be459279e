"""The one reader of compile-time constants: IR <-> numpy.

Reading: `constant_array(value, blobs)` reads an SSA value that is plaintext known at
compile time into a numpy array: an `arith.constant` (scalar, `dense` list / splat /
hex, or `dense_resource`), a `linalg.fill` of such a scalar, or a `linalg.broadcast` of
such a tensor. It returns None for anything else, so a pass can always fall back to
emitting ops instead of folding. (Folding a whole constant slice, e.g. batch-norm's
`1/sqrt(var + eps)`, needs the evaluator: `transforms/linear/constant_folding.py`.)

`dense_resource` blobs: the caller always says where they come from. `ContextBlobs(ctx)`
reads the store of the context a module was parsed with (each heirpy context has its
own store, see `heirpy.ir.context`), `module_resources` snapshots the blobs one module
references, and `NO_BLOBS` reads every `dense_resource` as unknown. There is no
fallback to xDSL's shared `Builtin` store: a module parsed later in the same process
would overwrite what it holds.

A blob as printed is hex whose first 4 bytes are the blob's alignment (a little-endian
u32), not data; the readers here hand out the data bytes after that header.

Building: `dense_constant(array, type)` builds an `arith.constant` from numpy, with the
bytes stored directly (no per-element Python objects), so folded filters of real models
stay cheap to build and print.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Protocol

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    ShapedType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, OpResult, SSAValue

from heirpy.ir.context import blob_store, context_of
from heirpy.ir.diagnostics import HeirpyError
from heirpy.ir.utils import element_type, int_values

# The largest non-splat constant a fold may write (HEIR bounds only the resource blob it
# reads, at 1 MiB): a broadcast bias (1x255x80x80 in YOLO) stays an op instead of
# becoming a 6.5 MB literal that later passes must carry around.
MAX_FOLDED_BYTES = 1 << 20

# ------------------------------------------------------------------------ element types


class UnsupportedTypeError(HeirpyError):
    """An element type with no numpy representation (i7, f8E4M3, ...)."""


def bfloat16_dtype() -> np.dtype:
    """numpy's bf16: `ml_dtypes.bfloat16` (the JAX/OpenXLA package). Its arrays store
    the 16-bit patterns MLIR stores (little-endian, the top half of an f32), and numpy's
    ufuncs on them round each result to bf16, as MLIR's bf16 arithmetic does.

    Imported on first use: loading its extension takes longer than numpy itself, and
    only a bf16 module needs it. Without the package, bf16 has no numpy form (a fold of
    it is skipped, evaluating it is a one-line error), as before heirpy used it."""
    try:
        import ml_dtypes
    except ImportError as err:
        raise UnsupportedTypeError("error: element type bf16 needs the ml_dtypes package") from err
    return np.dtype(ml_dtypes.bfloat16)


def is_float_dtype(dtype: np.dtype) -> bool:
    """A float dtype, bf16 included (numpy gives `ml_dtypes.bfloat16` the kind "V")."""
    return dtype.kind == "f" or dtype.name == "bfloat16"


def float_eps(dtype: np.dtype) -> float:
    """The machine epsilon of a float dtype (bf16: 2^-7)."""
    if dtype.name == "bfloat16":
        import ml_dtypes

        return float(ml_dtypes.finfo(dtype).eps)
    return float(np.finfo(dtype).eps)


def arithmetic_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype numpy's BLAS-backed routines (einsum, matmul) can compute `dtype` in:
    f32 for bf16 (einsum refuses it; one f32 product per bf16 pair is exact), the dtype
    itself for the rest. The caller rounds the result back to `dtype`."""
    return np.dtype(np.float32) if dtype.name == "bfloat16" else dtype


_SIGNED = {1: np.dtype(np.bool_), 8: np.dtype(np.int8), 16: np.dtype(np.int16),
           32: np.dtype(np.int32), 64: np.dtype(np.int64)}
_UNSIGNED = {1: np.dtype(np.bool_), 8: np.dtype(np.uint8), 16: np.dtype(np.uint16),
             32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def element_dtype(type_: Attribute) -> np.dtype:
    """The numpy dtype holding elements of `type_` (a scalar type or a shaped type).

    MLIR integers are signless; a signless integer is kept in the *signed* numpy dtype
    of its width (see `heirpy.interp.dtypes` for the unsigned views)."""
    type_ = element_type(type_)
    if isinstance(type_, Float32Type):
        return np.dtype(np.float32)
    if isinstance(type_, Float64Type):
        return np.dtype(np.float64)
    if isinstance(type_, Float16Type):
        return np.dtype(np.float16)
    if isinstance(type_, BFloat16Type):
        return bfloat16_dtype()
    if isinstance(type_, IndexType):
        return np.dtype(np.int64)
    if isinstance(type_, IntegerType):
        width = type_.width.data
        table = _UNSIGNED if type_.signedness.data == Signedness.UNSIGNED else _SIGNED
        if width in table:
            return table[width]
    raise UnsupportedTypeError(f"error: element type {type_} has no numpy representation")


def numpy_dtype(type_: Attribute) -> np.dtype | None:
    """`element_dtype`, or None for a type with no numpy form (then nothing folds)."""
    try:
        return element_dtype(type_)
    except UnsupportedTypeError:
        return None


# ------------------------------------------------------------------------ blobs


class Blobs(Protocol):
    """Where `dense_resource` data comes from: handle -> data bytes, None if absent."""

    def get(self, handle: str, /) -> bytes | None: ...


Resources = Mapping[str, bytes]
"""A snapshot of blobs (handle -> data bytes); a `Blobs` too."""

NO_BLOBS: Resources = MappingProxyType({})
"""No blobs: every `dense_resource` reads as unknown."""

_ALIGNMENT_HEADER_BYTES = 4


def decode_blob(handle: str, text: str) -> bytes:
    """The data bytes of a printed blob `"0x<alignment u32><data>"`."""
    if not text.startswith("0x"):
        raise HeirpyError(f"error: dense_resource<{handle}> has no blob")
    try:
        raw = bytes.fromhex(text[2:])
    except ValueError as err:
        raise HeirpyError(f"error: dense_resource<{handle}> blob is not hex: {err}") from err
    if len(raw) < _ALIGNMENT_HEADER_BYTES:
        raise HeirpyError(f"error: dense_resource<{handle}> blob is shorter than its header")
    return raw[_ALIGNMENT_HEADER_BYTES:]


class ContextBlobs:
    """The blobs in `ctx`'s store, each decoded on first read and kept.

    Made for one pass run (the store may change when the context parses more text);
    a blob that is missing or malformed reads as None, i.e. not a known constant."""

    def __init__(self, ctx: Context):
        self._store = blob_store(ctx)
        self._decoded: dict[str, bytes | None] = {}

    def get(self, handle: str, /) -> bytes | None:
        if handle not in self._decoded:
            text = self._store.lookup(handle)
            try:
                self._decoded[handle] = decode_blob(handle, text) if text else None
            except HeirpyError:
                self._decoded[handle] = None
        return self._decoded[handle]


def resource_handles(module: ModuleOp) -> set[str]:
    """The handles of every `dense_resource` attribute an op of `module` holds."""
    handles: set[str] = set()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, DenseResourceAttr):
                handles.add(attr.resource_handle.data)
    return handles


def module_resources(module: ModuleOp, ctx: Context | None = None) -> dict[str, bytes]:
    """Snapshot the blobs `module` references from `ctx`'s store (by default the
    context `module` was parsed with). Handles without a blob are left out; a blob
    that is not well-formed hex is an error naming its handle."""
    store = blob_store(context_of(module) if ctx is None else ctx)
    blobs: dict[str, bytes] = {}
    for handle in resource_handles(module):
        text = store.lookup(handle)
        if text:
            blobs[handle] = decode_blob(handle, text)
    return blobs


# ------------------------------------------------------------------------ reading


def attribute_array(value: Attribute, type_: Attribute, blobs: Blobs) -> np.ndarray | None:
    """The numpy array a constant's `value` attribute denotes, or None if unknown."""
    dtype = numpy_dtype(type_)
    if dtype is None:
        return None
    shape = tuple(type_.get_shape()) if isinstance(type_, ShapedType) else ()
    if any(d < 0 for d in shape):
        return None
    if isinstance(value, FloatAttr):
        return np.full(shape, value.value.data, dtype=dtype)
    if isinstance(value, IntegerAttr) and dtype.kind in "iu":
        return np.full(shape, value.value.data, dtype=np.int64).astype(dtype)
    if isinstance(value, DenseIntOrFPElementsAttr):
        storage = dense_storage_dtype(value.get_element_type())
        flat = np.frombuffer(value.data.data, dtype=storage).astype(dtype)
        count = math.prod(shape)
        if flat.size == 1 and count != 1:
            return np.full(shape, flat[0], dtype=dtype)
        return flat.reshape(shape).copy() if flat.size == count else None
    if isinstance(value, DenseResourceAttr):
        blob = blobs.get(value.resource_handle.data)
        if blob is None or dtype == np.bool_:
            return None
        storage = dtype.newbyteorder("<")
        if len(blob) != math.prod(shape) * storage.itemsize:
            return None
        return np.frombuffer(blob, dtype=storage).astype(dtype).reshape(shape)
    return None


def constant_array(value: SSAValue, blobs: Blobs) -> np.ndarray | None:
    """`value` as a numpy array when it is a compile-time constant (see the module
    docstring for the forms understood), else None."""
    if not isinstance(value, OpResult):
        return None
    op = value.op
    if isinstance(op, arith.ConstantOp):
        return attribute_array(op.value, value.type, blobs)
    if op.name == "linalg.fill" and len(op.operands) == 2:
        scalar = constant_array(op.operands[0], blobs)
        if scalar is None or scalar.ndim != 0 or not isinstance(value.type, ShapedType):
            return None
        shape = value.type.get_shape()
        if any(d < 0 for d in shape):
            return None
        return np.full(shape, scalar, dtype=element_dtype(value.type))
    if op.name == "linalg.broadcast" and len(op.operands) == 2:
        source = constant_array(op.operands[0], blobs)
        dims = op.properties.get("dimensions")
        if source is None or dims is None or not isinstance(value.type, ShapedType):
            return None
        shape = value.type.get_shape()
        added = list(int_values(dims))
        kept = [i for i in range(len(shape)) if i not in added]
        expanded = np.expand_dims(source, tuple(added)) if added else source
        if [shape[i] for i in kept] != list(source.shape):
            return None
        return np.broadcast_to(expanded, shape).copy()
    return None


def scalar_constant(value: SSAValue, blobs: Blobs) -> float | int | None:
    """The single value of a scalar constant or a splat tensor constant, else None."""
    array = constant_array(value, blobs)
    if array is None or array.size == 0:
        return None
    first = array.flat[0]
    if not np.all(array == first):
        return None
    return first.item()


# ------------------------------------------------------------------------ building


def dense_storage_dtype(element: Attribute) -> np.dtype:
    """The dtype of a dense literal's stored bytes (xDSL's `format`; bf16 has none: its
    bytes are bf16's little-endian bit patterns, which `ml_dtypes.bfloat16` reads)."""
    if isinstance(element, BFloat16Type):
        return bfloat16_dtype()
    return np.dtype(element.format)  # type: ignore[attr-defined]


def dense_attr(array: np.ndarray, type_: TensorType) -> DenseIntOrFPElementsAttr:
    """A `dense<...>` attribute of `type_` holding `array` (converted to its dtype)."""
    element = type_.get_element_type()
    if not isinstance(element, IntegerType | IndexType | Float16Type | BFloat16Type | Float32Type | Float64Type):
        raise ValueError(f"no dense<...> literal of element type {element}")
    storage = dense_storage_dtype(element)
    data = np.ascontiguousarray(np.asarray(array, dtype=element_dtype(type_)).astype(storage))
    if tuple(data.shape) != tuple(type_.get_shape()):
        raise ValueError(f"array of shape {data.shape} for type {type_}")
    if data.size > 1 and np.all(data == data.flat[0]):
        data = data.reshape(-1)[:1]  # a splat prints as dense<v>
    return DenseIntOrFPElementsAttr(TensorType(element, type_.get_shape()), BytesAttr(data.tobytes()))


def dense_constant(array: np.ndarray, type_: TensorType) -> arith.ConstantOp:
    """`arith.constant dense<...> : type_` holding `array`."""
    return arith.ConstantOp(dense_attr(array, type_), type_)
