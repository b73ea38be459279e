"""heirpy's `linalg` dialect: MLIR's linalg as front ends and MLIR tools write it.

The dialect is registered under the name `linalg`, so MLIR text from torch-mlir,
iree-import-onnx or heir-opt parses unchanged. Its parts:

* MLIR's named structured ops (contractions, convolutions, pooling, `matmul` /
  `batch_matmul` / `batch_reduce_matmul` with `indexing_maps`, `contract`) come from
  `linalg_structured.py`, each stated by its loops and operand indexing, with MLIR's
  bodies, custom form and verifiers;
* `fill`, `map`, `reduce` (several inputs and inits), `transpose`, `broadcast`, `yield`
  and `index` come from `linalg_core.py`, with MLIR's custom forms (the `{ payload }`
  short form included) and verifiers;
* `pack` and `unpack` come from `linalg_relayout.py`, `softmax` from `linalg_softmax.py`;
* `div`, and xDSL's `generic` (read with MLIR's grammar here), `copy` and the legacy
  elementwise ops (`add`, `exp`, ...; removed from current MLIR but still parsed);
* every structured op whose operands are all tensors is side-effect free, so `dce`
  and `canonicalize` remove dead ones (on memrefs they keep unknown effects).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DictionaryAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg import attrs as linalg_attrs
from xdsl.dialects.linalg import ops as xops
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation
from xdsl.ir import Attribute, BlockArgument, Dialect, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
)
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from heirpy.ir.dialects.linalg_core import (  # noqa: F401 (re-exported: linalg's ops)
    BroadcastOp,
    FillOp,
    LinalgIndexOp,
    LinalgYieldOp,
    MapOp,
    ReduceOp,
    TransposeOp,
    pure_on_tensors,
    verify_destination_style,
)
from heirpy.ir.dialects.linalg_relayout import RELAYOUT_OPS, PackOp, UnPackOp  # noqa: F401 (re-exported)
from heirpy.ir.dialects.linalg_softmax import SoftmaxOp
from heirpy.ir.dialects.linalg_structured import (  # noqa: F401 (re-exported: linalg's ops)
    NAMED_OPS,
    PURE_ON_TENSORS,
    BatchMatmulOp,
    Conv1DNcwFcwOp,
    Conv2DNchwFchwOp,
    ConvolutionOp,
    DepthwiseConv2DNchwChwOp,
    MatmulOp,
    MatvecOp,
    NamedStructuredOp,
    PoolingNchwMaxOp,
    PoolingNchwSumOp,
    PoolingNcwMaxOp,
    PoolingNcwSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcSumOp,
    PoolingOp,
    TensorSemanticsMemoryEffect,
    TypeFnAttr,
    VecmatOp,
    WindowOp,
    window_values,
)

# Build and match body terminators and loop indices with xDSL's classes: the parsed ones
# are heirpy's verifying subclasses (`LinalgYieldOp`), so `isinstance` matches both.
YieldOp = xops.YieldOp
IndexOp = xops.IndexOp
IteratorTypeAttr = linalg_attrs.IteratorTypeAttr


# --------------------------------------------------------------------------------------
# xDSL's ops, reused with one difference: heirpy's classes add the tensor-semantics effect
# (the analogue of an MLIR external interface model). They subclass xDSL's, so xDSL's
# own passes and `isinstance` checks still match them, and xDSL's classes are left as
# they are for every other user of xDSL in the process.
# --------------------------------------------------------------------------------------


class GenericOp(xops.GenericOp):
    """xDSL's `linalg.generic`, side-effect free on tensors, read with MLIR's grammar.

    xDSL 0.74 prints a generic with several results as `-> (tensor<..>, tensor<..>)`, as
    MLIR does (torch-mlir's max / argmax / softmax lower to such a two-result generic), but
    reads only `-> t1, t2`, so its own output failed with "Expected '->'". This parses

        linalg.generic TRAIT (ins(%a, ... : t, ...))? (outs(%o, ... : t, ...))?
            (attrs = {...})? REGION (-> type | -> (type, ...))?

    where TRAIT is the dictionary holding `indexing_maps`, `iterator_types` and optionally
    `doc` and `library_call` (any other entry is kept as an attribute), written in place or
    as an attribute alias (`#trait`). Printing is xDSL's (already MLIR's form).
    """

    traits = pure_on_tensors(xops.GenericOp)

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        start = parser.pos
        trait = parser.parse_attribute()
        end = parser.pos
        if not isinstance(trait, DictionaryAttr):
            parser.raise_error("expected a dictionary of linalg.generic attributes", start, end)
        entries = dict(trait.data)
        maps = entries.pop("indexing_maps", None)
        if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr) for m in maps):
            parser.raise_error("expected 'indexing_maps', an array of affine maps, in linalg.generic", start, end)
        iterators = entries.pop("iterator_types", None)
        if not isinstance(iterators, ArrayAttr):
            parser.raise_error("expected 'iterator_types', an array, in linalg.generic", start, end)
        iterator_types = [_iterator_type(parser, attr, start, end) for attr in iterators]
        doc = _string_entry(parser, entries, "doc", start, end)
        library_call = _string_entry(parser, entries, "library_call", start, end)
        pos = parser.pos
        ins = _parse_operand_group(parser, pos) if parser.parse_optional_characters("ins") else ()
        pos = parser.pos
        outs = _parse_operand_group(parser, pos) if parser.parse_optional_characters("outs") else ()
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punctuation("=")
            entries |= parser.expect(parser.parse_optional_attr_dict, "expected an attribute dictionary")
        body = parser.parse_region()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("("):
                result_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
                parser.parse_punctuation(")")
            else:
                result_types = [parser.parse_type()]
        op = cls(ins, outs, body, maps, iterator_types, result_types, doc, library_call)
        op.attributes |= entries
        return op

    def verify_(self) -> None:
        super().verify_()
        # xDSL does not check it; a wrong result type would only fail in the evaluator.
        verify_destination_style(self, self.outputs)


class _ScalarElements:
    """Refuse, with a diagnostic, element types xDSL's elementwise ops cannot build a body
    for (complex, index): xDSL asserts on them while parsing."""

    @staticmethod
    def body_arg_types(operands: Sequence[SSAValue]) -> Sequence[AnyFloat | IntegerType]:
        types: list[AnyFloat | IntegerType] = []
        for operand in operands:
            type_ = operand.type
            element = type_.get_element_type() if isinstance(type_, TensorType | MemRefType) else type_
            if not isinstance(element, AnyFloat | IntegerType):
                raise VerifyException(f"expects integer or floating-point elements, got '{element}'")
            types.append(element)
        return types


class AddOp(_ScalarElements, xops.AddOp):
    """xDSL's `linalg.add`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.AddOp)


class SubOp(_ScalarElements, xops.SubOp):
    """xDSL's `linalg.sub`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.SubOp)


class MulOp(_ScalarElements, xops.MulOp):
    """xDSL's `linalg.mul`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.MulOp)


class ExpOp(_ScalarElements, xops.ExpOp):
    """xDSL's `linalg.exp`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.ExpOp)


class LogOp(_ScalarElements, xops.LogOp):
    """xDSL's `linalg.log`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.LogOp)


class SqrtOp(_ScalarElements, xops.SqrtOp):
    """xDSL's `linalg.sqrt`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.SqrtOp)


class SelectOp(_ScalarElements, xops.SelectOp):
    """xDSL's `linalg.select`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.SelectOp)


class CopyOp(_ScalarElements, xops.CopyOp):
    """xDSL's `linalg.copy`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.CopyOp)


class MaxOp(_ScalarElements, xops.MaxOp):
    """xDSL's `linalg.max`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.MaxOp)


class MinOp(_ScalarElements, xops.MinOp):
    """xDSL's `linalg.min`, side-effect free on tensors."""

    traits = pure_on_tensors(xops.MinOp)


_REUSED_XDSL_OPS: tuple[type[IRDLOperation], ...] = (
    GenericOp,
    AddOp,
    SubOp,
    MulOp,
    ExpOp,
    LogOp,
    SqrtOp,
    SelectOp,
    CopyOp,
    MaxOp,
    MinOp,
)


# --------------------------------------------------------------------------------------
# Elementwise.
# --------------------------------------------------------------------------------------


@irdl_op_definition
class DivOp(ElementwiseOperation):
    """Elementwise `out = lhs / rhs` (divf for floats, divsi for integers)."""

    name = "linalg.div"
    traits = PURE_ON_TENSORS

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        div = arith.DivfOp if isinstance(arg_types[-1], AnyFloat) else arith.DivSIOp

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(div(args[0], args[1]))

        return body


def _string_entry(parser: Parser, entries: dict[str, Attribute], key: str, start: int, end: int) -> StringAttr | None:
    """`entries[key]` removed, if present; it must be a string."""
    value = entries.pop(key, None)
    if value is not None and not isinstance(value, StringAttr):
        parser.raise_error(f"expected '{key}' in linalg.generic to be a string", start, end)
    return value


def _iterator_type(parser: Parser, attr: Attribute, start: int, end: int) -> IteratorTypeAttr:
    """`"parallel"` (as printed) or `#linalg.iterator_type<parallel>` as an iterator type."""
    if isinstance(attr, IteratorTypeAttr):
        return attr
    if isinstance(attr, StringAttr) and attr.data in _ITERATOR_NAMES:
        return IteratorTypeAttr(linalg_attrs.IteratorType(attr.data))
    parser.raise_error(f"unknown iterator type {attr} in linalg.generic", start, end)


_ITERATOR_NAMES = frozenset(kind.value for kind in linalg_attrs.IteratorType)


def _parse_operand_group(parser: Parser, pos: int) -> Sequence[SSAValue]:
    parser.parse_punctuation("(")
    unresolved = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(unresolved, types, pos)


Linalg = Dialect(
    "linalg",
    [
        *_REUSED_XDSL_OPS,
        FillOp,
        TransposeOp,
        BroadcastOp,
        ReduceOp,
        MapOp,
        LinalgYieldOp,
        LinalgIndexOp,
        DivOp,
        *NAMED_OPS,
        *RELAYOUT_OPS,
        SoftmaxOp,
    ],
    [IteratorTypeAttr, TypeFnAttr],
)
