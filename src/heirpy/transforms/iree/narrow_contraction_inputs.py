"""A contraction whose f32 inputs are widened f16 values reads the f16 values: the form
torch-mlir exports and IREE fuses.

torch-mlir writes an f16 `nn.Linear` (and conv) as a named op reading f16 data into an
f32 accumulator, each input widened by an `extf` generic IREE clones into the matmul's
dispatch (`matmul_1x1000x192_f16xf16xf32`). heirpy's f16 rules compute a linear run in
f32 (`mixed_precision.py`) and constant folding evaluates the `extf` of a weight into an
f32 constant (twice the bytes), and its pointwise fusion merges an input's `extf` into
the op before it (a ReLU that yields `extf(relu(x))`, a LayerNorm that yields
`extf(truncf(y))`). The contraction then reads f32 values IREE cannot widen inside its
dispatch: the widening ran as a dispatch of its own per call (ViT-tiny f16's
`elementwise_192_f16xf32` before the classifier: 187 dispatches per call against raw's
186; GhostNet-0.5 f16's `elementwise_1280_f16xf32`).

This pass, a step of `iree-prepare`, gives such a contraction its narrow inputs back
when every data input has one of the same narrow type (no mixed f16/f32 op: IREE's
im2col mishandles those):
* a constant whose values are all exact in the narrow type becomes that constant in the
  narrow type;
* `extf(x)` (a one-op generic or `arith.extf`) becomes `x`;
* a generic used only here whose one result yields `extf(v)` yields `v` instead;
through any chain of `tensor.collapse_shape` / `expand_shape` used only here (rebuilt on
the narrow type). A named linalg op casts its inputs to the accumulator's type, and each
narrow value widens exactly, so the values computed are the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from heirpy.ir.constants import Blobs, ContextBlobs, constant_array, dense_constant, element_dtype
from heirpy.ir.dialects import tensor
from heirpy.ir.dialects.linalg import BatchMatmulOp, GenericOp, YieldOp
from heirpy.transforms.linear.linear_match import LINEAR_OP_TYPES
from heirpy.transforms.linear.mixed_precision import extf_source
from heirpy.transforms.rewrite import OpPattern, OutsideGenericBodies, PatternSet, apply_pattern_sets

_RESHAPES = (tensor.CollapseShapeOp, tensor.ExpandShapeOp)
_CONTRACTIONS: tuple[type[Operation], ...] = (*LINEAR_OP_TYPES, BatchMatmulOp)


def _float(value: SSAValue) -> AnyFloat | None:
    type_ = value.type
    element = type_.get_element_type() if isinstance(type_, TensorType) else None
    return element if isinstance(element, AnyFloat) else None


def _single_use(value: SSAValue) -> bool:
    return sum(1 for _ in value.uses) == 1


def reshape_chain(value: SSAValue) -> tuple[list[Operation], SSAValue]:
    """The static reshapes (outermost last) that `value` is computed by from its base,
    each used once, and that base."""
    chain: list[Operation] = []
    while (
        isinstance(value, OpResult) and isinstance(value.op, _RESHAPES) and len(value.op.operands) == 1
        and (not chain or _single_use(value))
    ):
        chain.insert(0, value.op)
        value = value.op.operands[0]
    return chain, value


def exact_narrow_constant(value: SSAValue, narrow: Attribute, blobs: Blobs) -> np.ndarray | None:
    """`value`'s array when it is an `arith.constant` whose every value `narrow` holds
    exactly (finite, no rounding), else None."""
    if not isinstance(value, OpResult) or not isinstance(value.op, arith.ConstantOp):
        return None
    array = constant_array(value, blobs)
    if array is None or not np.all(np.isfinite(array)):
        return None
    narrowed = array.astype(element_dtype(TensorType(narrow, [1])))
    return array if np.array_equal(narrowed.astype(array.dtype), array) else None


def yielded_extf(value: SSAValue) -> tuple[GenericOp, SSAValue] | None:
    """(the generic, the narrow value in its body) when `value` is the one result of a
    generic, used once, that yields `extf(v)` and does not read its output."""
    if not isinstance(value, OpResult) or not isinstance(value.op, GenericOp) or not _single_use(value):
        return None
    widening = body_widening(value.op)
    return None if widening is None else (value.op, widening.input)


def body_widening(op: GenericOp) -> arith.ExtFOp | None:
    """The `extf` a one-result generic yields, when it does not read its output; else None
    (shared with `sink_widening_casts`)."""
    if len(op.results) != 1 or len(op.outputs) != 1 or op.body.block.args[-1].uses:
        return None
    yield_op = op.body.block.last_op
    if not isinstance(yield_op, YieldOp) or len(yield_op.operands) != 1:
        return None
    produced = yield_op.operands[0]
    if not isinstance(produced, OpResult) or not isinstance(produced.op, arith.ExtFOp):
        return None
    return produced.op


def narrow_of(value: SSAValue) -> tuple[Attribute | None, str] | None:
    """The narrow float `value` (behind its reshapes) is widened from, and how: `extf`,
    `yield` (a generic yielding `extf(v)`) or `constant` (no type: the other input
    decides it); None if none."""
    _, base = reshape_chain(value)
    source = extf_source(base)
    if source is not None:
        narrow = _float(source)
        return (narrow, "extf") if narrow is not None else None
    found = yielded_extf(base)
    if found is not None:
        return found[1].type, "yield"
    if isinstance(base, OpResult) and isinstance(base.op, arith.ConstantOp):
        return None, "constant"
    return None


@dataclass
class NarrowContractionInputs(OpPattern[Operation], OutsideGenericBodies):
    """A contraction reading widened f16 values ==> the contraction reading the f16 values.

        %a = linalg.generic ins(%x : tensor<1x192xf16>) outs(..) { extf } -> tensor<1x192xf32>
        %w = arith.constant dense<...> : tensor<192x1000xf32>      (every value exact in f16)
        %r = linalg.matmul ins(%a, %w : tensor<1x192xf32>, tensor<192x1000xf32>)
               outs(%z : tensor<1x1000xf32>)
      ==>
        %w16 = arith.constant dense<...> : tensor<192x1000xf16>
        %r = linalg.matmul ins(%x, %w16 : tensor<1x192xf16>, tensor<192x1000xf16>)
               outs(%z : tensor<1x1000xf32>)

    Legality: a named contraction (heirpy's linear ops, `linalg.batch_matmul`) with two
    data inputs of the accumulator's float type, each of them (through single-use
    reshapes) `extf` of one narrow type, a single-use generic yielding `extf` of it, or a
    constant exact in it, and at least one of them not a constant (a constant-only op is
    the folder's). Anything else, one input not narrowable, two narrow types: unchanged.
    """

    op_types = _CONTRACTIONS

    blobs: Blobs

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if len(op.operands) != 3 or len(op.results) != 1:
            return
        wide = _float(op.results[0])
        data = list(op.operands[:2])
        if wide is None or any(_float(v) != wide for v in data):
            return
        found = [narrow_of(v) for v in data]
        if any(f is None for f in found):
            return
        kinds = [f[1] for f in found]  # type: ignore[index]
        narrows = {f[0] for f in found if f[1] != "constant"}  # type: ignore[index]
        if len(narrows) != 1:
            return  # all constants, or two narrow types
        narrow = narrows.pop()
        if not isinstance(narrow, AnyFloat) or narrow.bitwidth >= wide.bitwidth:
            return
        arrays = [exact_narrow_constant(reshape_chain(v)[1], narrow, self.blobs) if k == "constant" else None
                  for v, k in zip(data, kinds, strict=True)]
        if any(k == "constant" and a is None for k, a in zip(kinds, arrays, strict=True)):
            return
        new_inputs = [
            self._narrowed(v, k, a, narrow, op, rewriter) for v, k, a in zip(data, kinds, arrays, strict=True)
        ]
        build: Callable[..., Operation] = type(op)  # a named linalg op: (ins, outs, res); builds its body
        narrowed = build(
            new_inputs, [op.operands[2]], [op.results[0].type],
            attributes=dict(op.attributes), properties=dict(op.properties),
        )
        rewriter.replace(op, narrowed)
        erased: set[Operation] = set()
        for value, kind in zip(data, kinds, strict=True):  # the old reshapes and a rebuilt generic: unused now
            chain, base = reshape_chain(value)
            owners = [*reversed(chain), *([base.owner] if kind == "yield" else [])]
            for dead in owners:
                if isinstance(dead, Operation) and dead not in erased and not any(r.uses for r in dead.results):
                    erased.add(dead)
                    rewriter.erase(dead)

    @staticmethod
    def _narrowed(value: SSAValue, kind: str, array: np.ndarray | None, narrow: AnyFloat, op: Operation,
                  rewriter: PatternRewriter) -> SSAValue:
        """The narrow value for `value`, its reshapes rebuilt on the narrow type."""
        chain, base = reshape_chain(value)
        if kind == "extf":
            source = extf_source(base)
            assert source is not None
            current = source
        elif kind == "yield":
            found = yielded_extf(base)
            assert found is not None
            current = _narrow_yield(found[0], found[1], narrow, rewriter)
        else:
            assert array is not None and isinstance(base.type, TensorType)
            constant = dense_constant(array, TensorType(narrow, base.type.get_shape()))
            constant.result.name_hint = base.name_hint
            rewriter.insert(constant, InsertPoint.before(op))
            current = constant.result
        for reshape in chain:
            old = reshape.results[0].type
            assert isinstance(old, TensorType)
            rebuilt = type(reshape).create(
                operands=[current], result_types=[TensorType(narrow, old.get_shape())],
                properties=dict(reshape.properties), attributes=dict(reshape.attributes),
            )
            rewriter.insert(rebuilt, InsertPoint.before(op))
            current = rebuilt.results[0]
        return current


def _narrow_yield(generic: GenericOp, narrow_value: SSAValue, narrow: AnyFloat,
                  rewriter: PatternRewriter) -> SSAValue:
    """Rebuild `generic` (one result, yielding `extf(narrow_value)`) to yield
    `narrow_value` into a fresh narrow `tensor.empty`; its new result."""
    old_type = generic.results[0].type
    assert isinstance(old_type, TensorType)
    new_type = TensorType(narrow, old_type.get_shape())
    empty = tensor.EmptyOp([], new_type)
    yield_op = generic.body.block.last_op
    assert isinstance(yield_op, YieldOp)
    extf = yield_op.operands[0].owner
    yield_op.operands = [narrow_value]
    if isinstance(extf, Operation) and not extf.results[0].uses:
        Rewriter.erase_op(extf)
    Rewriter.replace_value_with_new_type(generic.body.block.args[-1], narrow)
    rebuilt = GenericOp(
        list(generic.inputs), [empty.tensor], rewriter.move_region_contents_to_new_regions(generic.body),
        list(generic.indexing_maps), list(generic.iterator_types), [new_type],
    )
    rebuilt.results[0].name_hint = generic.results[0].name_hint
    rewriter.insert([empty, rebuilt], InsertPoint.before(generic))
    return rebuilt.results[0]


@dataclass(frozen=True)
class NarrowContractionInputsPass(ModulePass):
    """A contraction whose f32 inputs are widened f16 values reads the f16 values.

        %r = linalg.matmul ins(extf(%x16), %w32_exact_in_f16) outs(%acc32)
      ==>
        %r = linalg.matmul ins(%x16, %w16) outs(%acc32)

    (tests/filecheck/transforms/narrow-contraction-inputs/ has the cases.) For IREE only,
    a step of `iree-prepare`: IREE widens narrow inputs inside the contraction's dispatch,
    where a widened input heirpy computed ran as a dispatch of its own (ViT-tiny f16,
    GhostNet f16), and an f32 weight is twice the bytes.
    """

    name = "narrow-contraction-inputs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_pattern_sets(op, [PatternSet.of(NarrowContractionInputs(ContextBlobs(ctx)))])
