"""Constant folding helpers shared by heirpy's passes: IR constants <-> numpy.

`constant_array(value, ctx)` reads an SSA value that is plaintext known at compile time
into a numpy array: an `arith.constant` (scalar, `dense` list / splat / hex, or
`dense_resource`), a `linalg.fill` of such a scalar, or a `linalg.broadcast` of such a
tensor. It returns None for anything else, so a pass can always fall back to emitting
ops instead of folding.

`dense_resource` blobs live in the context's builtin dialect (xDSL keeps them in its
`OpAsmDialectInterface`; see `heirpy.interp.resources` for why the evaluator snapshots
them). A pass runs on the module as parsed with its context, so reading that storage
here is right; `resources=` takes an explicit mapping instead (handle -> data bytes).

`dense_constant(array, type)` builds an `arith.constant` from numpy, with the bytes
stored directly (no per-element Python objects), so folded filters of real models
stay cheap to build and print.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    ShapedType,
    TensorType,
)
from xdsl.ir import Attribute, OpResult, SSAValue

from heirpy.interp.dtypes import element_dtype
from heirpy.interp.resources import decode_blob


def attribute_array(
    value: Attribute,
    type_: Attribute,
    *,
    ctx: Context | None = None,
    resources: Mapping[str, bytes] | None = None,
) -> np.ndarray | None:
    """The numpy array a constant's `value` attribute denotes, or None if unknown."""
    try:
        dtype = element_dtype(type_)
    except Exception:  # an element type without a numpy form is simply not foldable
        return None
    shape = tuple(type_.get_shape()) if isinstance(type_, ShapedType) else ()
    if any(d < 0 for d in shape):
        return None
    if isinstance(value, FloatAttr):
        return np.full(shape, value.value.data, dtype=dtype)
    if isinstance(value, IntegerAttr) and dtype.kind in "iu":
        return np.full(shape, value.value.data, dtype=np.int64).astype(dtype)
    if isinstance(value, DenseIntOrFPElementsAttr):
        storage = np.dtype(value.get_element_type().format)  # type: ignore[union-attr]
        flat = np.frombuffer(value.data.data, dtype=storage).astype(dtype)
        count = math.prod(shape)
        if flat.size == 1 and count != 1:
            return np.full(shape, flat[0], dtype=dtype)
        return flat.reshape(shape).copy() if flat.size == count else None
    if isinstance(value, DenseResourceAttr):
        blob = _resource_blob(value.resource_handle.data, ctx, resources)
        if blob is None or dtype == np.bool_:
            return None
        storage = dtype.newbyteorder("<")
        if len(blob) != math.prod(shape) * storage.itemsize:
            return None
        return np.frombuffer(blob, dtype=storage).astype(dtype).reshape(shape)
    return None


def _resource_blob(
    handle: str, ctx: Context | None, resources: Mapping[str, bytes] | None
) -> bytes | None:
    if resources is not None:
        return resources.get(handle)
    from xdsl.dialects.builtin import Builtin

    dialect = Builtin if ctx is None else ctx.get_dialect("builtin")
    interface = dialect.get_interface(OpAsmDialectInterface)
    text = interface.lookup(handle) if interface is not None else None
    if not text:
        return None
    try:
        return decode_blob(handle, text)
    except Exception:
        return None


def constant_array(
    value: SSAValue,
    *,
    ctx: Context | None = None,
    resources: Mapping[str, bytes] | None = None,
) -> np.ndarray | None:
    """`value` as a numpy array when it is a compile-time constant (see the module
    docstring for the forms understood), else None."""
    if not isinstance(value, OpResult):
        return None
    op = value.op
    if isinstance(op, arith.ConstantOp):
        return attribute_array(op.value, value.type, ctx=ctx, resources=resources)
    if op.name == "linalg.fill" and len(op.operands) == 2:
        scalar = constant_array(op.operands[0], ctx=ctx, resources=resources)
        if scalar is None or scalar.ndim != 0 or not isinstance(value.type, ShapedType):
            return None
        shape = value.type.get_shape()
        if any(d < 0 for d in shape):
            return None
        return np.full(shape, scalar, dtype=element_dtype(value.type))
    if op.name == "linalg.broadcast" and len(op.operands) == 2:
        source = constant_array(op.operands[0], ctx=ctx, resources=resources)
        dims = op.properties.get("dimensions")
        if source is None or dims is None or not isinstance(value.type, ShapedType):
            return None
        shape = value.type.get_shape()
        added = [int(d) for d in dims.get_values()]  # type: ignore[union-attr]
        kept = [i for i in range(len(shape)) if i not in added]
        expanded = np.expand_dims(source, tuple(added)) if added else source
        if [shape[i] for i in kept] != list(source.shape):
            return None
        return np.broadcast_to(expanded, shape).copy()
    return None


def scalar_constant(value: SSAValue, **kwargs: object) -> float | int | None:
    """The single value of a scalar constant or a splat tensor constant, else None."""
    array = constant_array(value, **kwargs)  # type: ignore[arg-type]
    if array is None or array.size == 0:
        return None
    first = array.flat[0]
    if not np.all(array == first):
        return None
    return first.item()


def dense_attr(array: np.ndarray, type_: TensorType) -> DenseIntOrFPElementsAttr:
    """A `dense<...>` attribute of `type_` holding `array` (converted to its dtype)."""
    element = type_.get_element_type()
    storage = np.dtype(element.format)  # type: ignore[attr-defined]
    data = np.ascontiguousarray(np.asarray(array, dtype=element_dtype(type_)).astype(storage))
    if tuple(data.shape) != tuple(type_.get_shape()):
        raise ValueError(f"array of shape {data.shape} for type {type_}")
    if data.size > 1 and np.all(data == data.flat[0]):
        data = data.reshape(-1)[:1]  # a splat prints as dense<v>
    return DenseIntOrFPElementsAttr(type_, BytesAttr(data.tobytes()))


def dense_constant(array: np.ndarray, type_: TensorType) -> arith.ConstantOp:
    """`arith.constant dense<...> : type_` holding `array`."""
    return arith.ConstantOp(dense_attr(array, type_), type_)
