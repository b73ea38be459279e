"""`heir-widen-half`: a half-precision (f16 / bf16) function computed in f32, for HEIR's CKKS.

    func.func @main(%x: tensor<1x2x8x8xf16>) -> tensor<192xf16> {
      %y = linalg.matvec ins(%w, %xf : tensor<192x128xf32>, tensor<128xf16>) outs(%b : tensor<192xf32>)
      %r = linalg.generic ins(%y : tensor<192xf32>) outs(%e : tensor<192xf16>) {
      ^bb0(%a: f32, %o: f16):
        %s = arith.mulf %a, %a : f32
        %t = arith.truncf %s : f32 to f16
        linalg.yield %t : f16
      }
  ==>
    func.func @main(%x: tensor<1x2x8x8xf32>) -> tensor<192xf32> {
      %y = linalg.matvec ins(%w, %xf : tensor<192x128xf32>, tensor<128xf32>) outs(%b : tensor<192xf32>)
      %r = linalg.generic ins(%y : tensor<192xf32>) outs(%e : tensor<192xf32>) {
      ^bb0(%a: f32, %o: f32):
        %s = arith.mulf %a, %a : f32
        linalg.yield %s : f32
      }

Why: a CKKS slot holds an approximate real number, never an f16, so the roundings of a
half-precision model cannot happen under encryption; and heir-opt's
`--torch-linalg-to-ckks` (2026.11.1) rejects a linalg op whose operands mix f16 and f32
("unexpected unrealized conversion cast op found"), which is how torch-mlir writes every
conv of a `.half()` model (f16 input and filter, f32 accumulator, then `truncf`).
`heir-prepare` runs this last, after fusing in the model's own precision, so the f16 and
f32 twins of a model reach the same depth and linear-op count, and heir-opt compiles it.

What changes: every f16 and bf16 scalar or tensor type becomes f32 (block arguments,
results, the function's signature); a half constant is widened exactly; an `extf` /
`truncf` left between equal types is dropped, and then a parallel generic that only
copies its input (a cast generic, after that) is dropped too. A remark names the new
signature: the caller encodes its f16 inputs as f32 and reads f32 results. A function
with a half value this pass does not widen (a memref or vector, a bitcast, a half
attribute outside a constant, an unreadable constant) is left as it was, with a remark
saying why heir-opt may reject it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from heirpy.ir.constants import Blobs, ContextBlobs, attribute_array

F32 = Float32Type()
_HALF = (Float16Type, BFloat16Type)


def _is_half(type_: Attribute) -> bool:
    return isinstance(type_, _HALF)


def _mentions_half(attr: Attribute) -> bool:
    text = str(attr)
    return "f16" in text  # f16 and bf16 alike


def widened_type(type_: Attribute) -> Attribute | None:
    """`type_` with f16 / bf16 replaced by f32 (scalars and tensors); `type_` itself when
    it holds no half type; None when it holds one in a form this pass does not widen."""
    if _is_half(type_):
        return F32
    if isinstance(type_, TensorType):
        if _is_half(type_.get_element_type()):
            return TensorType(F32, type_.get_shape(), type_.encoding)
        return type_ if not _mentions_half(type_.get_element_type()) else None
    return type_ if not _mentions_half(type_) else None


def _constant_value(op: arith.ConstantOp, blobs: Blobs) -> Attribute | None:
    """The f32 value attribute of a half constant (exact), or None if it cannot be read."""
    value, type_ = op.value, op.result.type
    if isinstance(value, FloatAttr) and _is_half(type_):
        return FloatAttr(float(value.value.data), F32)
    if not isinstance(type_, TensorType) or not isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr):
        return None
    array = attribute_array(value, type_, blobs)
    new_type = widened_type(type_)
    if array is None or not isinstance(new_type, TensorType):
        return None
    data = np.ascontiguousarray(array.astype(np.float32))
    if data.size > 1 and np.all(data == data.flat[0]):
        data = data.reshape(-1)[:1]  # a splat prints as dense<v>
    return DenseIntOrFPElementsAttr(new_type, BytesAttr(data.tobytes()))


def _block_args(op: Operation) -> list[SSAValue]:
    return [a for r in op.regions for b in r.blocks for a in b.args]


def why_not_widened(function: func.FuncOp, blobs: Blobs) -> str | None:
    """Why `function`'s half values are not all of the forms this pass widens (None:
    they are)."""
    for op in function.body.walk():
        if isinstance(op, arith.BitcastOp) and any(_mentions_half(v.type) for v in (*op.operands, *op.results)):
            return f"an {op.name} of a half-precision value"
        for value in (*op.results, *_block_args(op)):
            if widened_type(value.type) is None:
                return f"a value of type {value.type}"
        attrs = {**op.properties, **op.attributes}
        if isinstance(op, arith.ConstantOp):
            attrs.pop("value", None)
            if _mentions_half(op.result.type) and _constant_value(op, blobs) is None:
                return "a half-precision constant heirpy cannot read"
        for name, attr in attrs.items():
            if not isinstance(attr, StringAttr | SymbolRefAttr) and _mentions_half(attr):  # not a name
                return f"a half-precision attribute `{name}` of {op.name}"
    return None


def _retype(values: list[SSAValue]) -> None:
    for value in values:
        new = widened_type(value.type)
        if new is not None and new != value.type:
            Rewriter.replace_value_with_new_type(value, new)


def _is_copy(op: Operation) -> bool:
    """A generic with identity maps, parallel loops, one input and one result of the same
    type, whose body yields its input element unchanged."""
    if not isinstance(op, GenericOp) or len(op.inputs) != 1 or len(op.res) != 1:
        return False
    if op.inputs[0].type != op.res[0].type or any(i.data != IteratorType.PARALLEL for i in op.iterator_types.data):
        return False
    maps = [m.data if isinstance(m, AffineMapAttr) else None for m in op.indexing_maps.data]
    if any(m is None or m != AffineMap.identity(m.num_dims) for m in maps):
        return False
    block = op.body.block
    yielded = block.last_op
    return (
        block.first_op is yielded and isinstance(yielded, YieldOp)
        and len(yielded.operands) == 1 and yielded.operands[0] is block.args[0]
    )


def widen_function(function: func.FuncOp, blobs: Blobs) -> bool:
    """Widen `function` in place (module docstring); whether it held a half type."""
    ops = list(function.body.walk())
    constants: dict[Operation, Attribute | None] = {
        op: _constant_value(op, blobs)
        for op in ops
        if isinstance(op, arith.ConstantOp) and _mentions_half(op.result.type)
    }
    signature = function.function_type
    changed = bool(constants) or _mentions_half(signature)
    _retype(list(function.body.blocks[0].args))
    for op in ops:
        before = [v.type for v in (*op.results, *_block_args(op))]
        _retype(_block_args(op))
        value = constants.get(op)
        if value is not None:
            op.properties["value"] = value
        _retype(list(op.results))
        changed |= before != [v.type for v in (*op.results, *_block_args(op))]
    for op in ops:
        if isinstance(op, arith.ExtFOp | arith.TruncFOp) and op.input.type == op.result.type:
            op.result.replace_all_uses_with(op.input)
            Rewriter.erase_op(op)
    for op in list(function.body.walk()):
        if _is_copy(op):
            op.results[0].replace_all_uses_with(op.operands[0])
            Rewriter.erase_op(op)
    inputs = [widened_type(t) or t for t in signature.inputs.data]
    outputs = [widened_type(t) or t for t in signature.outputs.data]
    function.properties["function_type"] = FunctionType.from_lists(inputs, outputs)
    return changed


@dataclass(frozen=True)
class HeirWidenHalfPass(ModulePass):
    """Compute a half-precision (f16 / bf16) function in f32 for HEIR's CKKS: CKKS slots hold reals, not f16.

        %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x2x6x6xf16>, tensor<3x2x3x3xf16>)
                                      outs(%z : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
        %t = arith.truncf %c : tensor<1x3x4x4xf32> to tensor<1x3x4x4xf16>
      ==>
        %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>)
                                      outs(%z : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>

    `heir-prepare` runs it last (heir-opt rejects convs that mix f16 and f32 operands);
    the remark names the widened signature. A function with a half value in a form it
    does not widen is left as it was, and the remark says which.
    (tests/filecheck/transforms/heir-prepare/half_precision_widen.mlir runs it.)
    """

    name = "heir-widen-half"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blobs = ContextBlobs(ctx)
        for function in list(op.walk()):
            if not isinstance(function, func.FuncOp) or function.is_declaration:
                continue
            if not _mentions_half(function.function_type) and not any(
                _mentions_half(v.type) for o in function.body.walk() for v in (*o.results, *_block_args(o))
            ):
                continue
            name = function.sym_name.data
            reason = why_not_widened(function, blobs)
            if reason is not None:
                print(f"remark: {self.name}: @{name} keeps its half-precision types ({reason}); "
                      "heir-opt may reject a linalg op that mixes f16 and f32", file=sys.stderr)
                continue
            widen_function(function, blobs)
            print(f"remark: {self.name}: @{name} computes in f32 (CKKS slots hold reals, not f16): "
                  f"its signature is now {function.function_type}; encode its inputs as f32", file=sys.stderr)
