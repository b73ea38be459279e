"""`demote-f64`: compute in f32 what the input computes in f64, as IREE does, then merge twins.

    %e = arith.extf %t : tensor<1x16x16x40xf32> to tensor<1x16x16x40xf64>
    %s64 = linalg.generic {reduction} ins(%e : tensor<1x16x16x40xf64>) outs(%z64) { addf : f64 }
    %s32 = linalg.generic {reduction} ins(%t : tensor<1x16x16x40xf32>) outs(%z32) { addf : f32 }
  ==>
    %s32 = linalg.generic {reduction} ins(%t : tensor<1x16x16x40xf32>) outs(%z32) { addf : f32 }
    (every use of %s64 reads %s32)

IREE demotes every f64 value and op to f32 before its global optimisations
(`--iree-input-demote-f64-to-f32`, on by default), then its CSE merges what became
equal. torch-mlir writes a LayerNorm's variance in f64 beside the f32 mean of the same
input, so raw IR reaches IREE's dispatch formation as ONE sum per LayerNorm. heirpy's
fusion, run on the undemoted IR, fused the two twins differently (the f64 one through
its `extf`), after which IREE could no longer merge them: MobileViT-xxs formed one more
reduction dispatch per transformer stage. Demoting first makes heirpy fuse the IR IREE
will compile, so only `iree-prepare` runs this pass: a CKKS back end keeps the input's
precision.

What changes: every f64 scalar or tensor type becomes f32 (results, block arguments);
an f64 `arith.constant` is rounded to f32; an `extf`/`truncf` left between equal types
is dropped; then xDSL's CSE merges ops that became identical. A function is left as it
was when its signature has f64 values, or when it holds an f64 value this pass does not
know how to demote (a memref or vector, a bitcast, an f64 attribute outside a constant,
an unreadable constant): IREE demotes those too, but this pass only rewrites what it
can rewrite exactly as IREE would.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

from heirpy.ir.constants import Blobs, ContextBlobs, attribute_array

F32 = Float32Type()


def demoted_type(type_: Attribute) -> Attribute | None:
    """`type_` with f64 replaced by f32 (scalars and tensors); `type_` itself when it has
    no f64; None when it holds f64 in a form this pass does not demote."""
    if isinstance(type_, Float64Type):
        return F32
    if isinstance(type_, TensorType):
        element = type_.get_element_type()
        if isinstance(element, Float64Type):
            return TensorType(F32, type_.get_shape(), type_.encoding)
        return type_ if "f64" not in str(element) else None
    return type_ if "f64" not in str(type_) else None


def _constant_value(op: arith.ConstantOp, blobs: Blobs) -> Attribute | None:
    """The f32 value attribute of an f64 constant, or None if it cannot be read."""
    value, type_ = op.value, op.result.type
    if isinstance(value, FloatAttr) and isinstance(type_, Float64Type):
        return FloatAttr(float(np.float32(value.value.data)), F32)
    if not isinstance(type_, TensorType) or not isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr):
        return None
    array = attribute_array(value, type_, blobs)
    new_type = demoted_type(type_)
    if array is None or not isinstance(new_type, TensorType):
        return None
    # Every element stored, as the parser stores `dense<8.0> : tensor<4x1xf32>`, so that CSE
    # sees the demoted constant equal to an f32 twin the input wrote (a splat still prints
    # as one value).
    data = np.ascontiguousarray(array, dtype=np.float32)
    return DenseIntOrFPElementsAttr(new_type, BytesAttr(data.tobytes()))


def _has_f64(attr: Attribute) -> bool:
    return "f64" in str(attr)


def demotable(function: func.FuncOp) -> bool:
    """The function's f64 values are all of the forms this pass demotes exactly."""
    if _has_f64(function.function_type):
        return False
    for op in function.body.walk():
        if isinstance(op, arith.BitcastOp) and any(_has_f64(v.type) for v in (*op.operands, *op.results)):
            return False
        values: list[SSAValue] = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        if any(demoted_type(v.type) is None for v in values):
            return False
        attrs = {**op.properties, **op.attributes}
        if isinstance(op, arith.ConstantOp):
            attrs.pop("value", None)
        if any(_has_f64(a) for a in attrs.values()):
            return False
    return True


def _retype(values: list[SSAValue]) -> bool:
    """Give each of `values` its demoted type; whether any changed."""
    changed = False
    for value in values:
        new = demoted_type(value.type)
        if new is not None and new != value.type:
            Rewriter.replace_value_with_new_type(value, new)
            changed = True
    return changed


def demote_function(function: func.FuncOp, blobs: Blobs) -> bool:
    """Demote `function` in place if it is `demotable` and all its f64 constants read;
    returns whether it changed."""
    if not demotable(function):
        return False
    ops = list(function.body.walk())
    constants: dict[Operation, Attribute] = {}
    for op in ops:
        if isinstance(op, arith.ConstantOp) and _has_f64(op.result.type):
            value = _constant_value(op, blobs)
            if value is None:
                return False
            constants[op] = value
    changed = False
    for op in ops:
        args = [a for r in op.regions for b in r.blocks for a in b.args]
        changed |= _retype(args)
        if op in constants:
            op.properties["value"] = constants[op]
        changed |= _retype(list(op.results))
    for op in ops:
        if isinstance(op, arith.ExtFOp | arith.TruncFOp) and op.input.type == op.result.type:
            op.result.replace_all_uses_with(op.input)
            Rewriter.erase_op(op)
    return changed


@dataclass(frozen=True)
class DemoteF64Pass(ModulePass):
    """Demote f64 to f32 as IREE's input conversion does, then merge the ops that became equal.

        %e = arith.extf %t : tensor<4x8xf32> to tensor<4x8xf64>
        %s = arith.addf %e, %e : tensor<4x8xf64>
        %r = arith.truncf %s : tensor<4x8xf64> to tensor<4x8xf32>
      ==>
        %r = arith.addf %t, %t : tensor<4x8xf32>

    Only `iree-prepare` runs it (the module docstring says why); a function with f64 in
    its signature, or with an f64 value in a form it does not demote, is left as it was.
    (tests/filecheck/transforms/demote-f64/docstring.mlir runs the example.)
    """

    name = "demote-f64"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blobs = ContextBlobs(ctx)
        changed = False
        for function in op.walk():
            if isinstance(function, func.FuncOp) and not function.is_declaration:
                changed |= demote_function(function, blobs)
        if changed:
            CommonSubexpressionElimination().apply(ctx, op)



