"""heirpy's `linalg` dialect: MLIR's linalg as front ends and MLIR tools write it.

The dialect is registered under the name `linalg`, so MLIR text from torch-mlir,
iree-import-onnx or heir-opt parses unchanged. Its parts:

* MLIR's named structured ops (contractions, convolutions, pooling, `matmul` /
  `batch_matmul` / `batch_reduce_matmul` with `indexing_maps`, `contract`) come from
  `linalg_structured.py`, each stated by its loops and operand indexing, with MLIR's
  bodies, custom form and verifiers;
* `map` (current MLIR's form, whose body also takes the init's element) and `div`;
* xDSL's `generic`, `fill`, `copy`, `transpose`, `broadcast`, `reduce` and the legacy
  elementwise ops (`add`, `exp`, ...; removed from current MLIR but still parsed);
* every structured op whose operands are all tensors is side-effect free, so `dce`
  and `canonicalize` remove dead ones (on memrefs they keep unknown effects).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, ArrayAttr, DictionaryAttr, MemRefType, ShapedType, StringAttr
from xdsl.dialects.linalg import attrs as linalg_attrs
from xdsl.dialects.linalg import ops as xops
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, OpTraits, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

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
from heirpy.ir.utils import element_type, iterator_attrs

YieldOp = xops.YieldOp
IndexOp = xops.IndexOp
IteratorTypeAttr = linalg_attrs.IteratorTypeAttr


# --------------------------------------------------------------------------------------
# xDSL's ops, reused with one difference: heirpy's classes add the tensor-semantics effect
# (the analogue of an MLIR external interface model). They subclass xDSL's, so xDSL's
# own passes and `isinstance` checks still match them, and xDSL's classes are left as
# they are for every other user of xDSL in the process.
# --------------------------------------------------------------------------------------


def _pure_on_tensors(xdsl_op: type[IRDLOperation]) -> OpTraits:
    """`xdsl_op`'s traits plus `TensorSemanticsMemoryEffect`."""
    return OpTraits(lambda: (*xdsl_op.traits, TensorSemanticsMemoryEffect()))


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

    traits = _pure_on_tensors(xops.GenericOp)

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


class AddOp(xops.AddOp):
    """xDSL's `linalg.add`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.AddOp)


class SubOp(xops.SubOp):
    """xDSL's `linalg.sub`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.SubOp)


class MulOp(xops.MulOp):
    """xDSL's `linalg.mul`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.MulOp)


class ExpOp(xops.ExpOp):
    """xDSL's `linalg.exp`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.ExpOp)


class LogOp(xops.LogOp):
    """xDSL's `linalg.log`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.LogOp)


class SqrtOp(xops.SqrtOp):
    """xDSL's `linalg.sqrt`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.SqrtOp)


class SelectOp(xops.SelectOp):
    """xDSL's `linalg.select`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.SelectOp)


class FillOp(xops.FillOp):
    """xDSL's `linalg.fill`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.FillOp)


class CopyOp(xops.CopyOp):
    """xDSL's `linalg.copy`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.CopyOp)


class MaxOp(xops.MaxOp):
    """xDSL's `linalg.max`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.MaxOp)


class MinOp(xops.MinOp):
    """xDSL's `linalg.min`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.MinOp)


class TransposeOp(xops.TransposeOp):
    """xDSL's `linalg.transpose`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.TransposeOp)


class BroadcastOp(xops.BroadcastOp):
    """xDSL's `linalg.broadcast`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.BroadcastOp)


class ReduceOp(xops.ReduceOp):
    """xDSL's `linalg.reduce`, side-effect free on tensors."""

    traits = _pure_on_tensors(xops.ReduceOp)


_REUSED_XDSL_OPS: tuple[type[IRDLOperation], ...] = (
    GenericOp,
    AddOp,
    SubOp,
    MulOp,
    ExpOp,
    LogOp,
    SqrtOp,
    SelectOp,
    FillOp,
    CopyOp,
    MaxOp,
    MinOp,
    TransposeOp,
    BroadcastOp,
    ReduceOp,
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


@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: applies its body elementwise to the inputs; every map is identity.

    MLIR's body takes one argument per input (older MLIR) or per input plus the init
    (current MLIR); both parse, and the init argument is added when missing, so the
    op always prints in current MLIR's long form:

        %r = linalg.map ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
                        outs(%init : tensor<4xf32>)
          (%x: f32, %y: f32, %unused: f32) {
            %s = arith.addf %x, %y : f32
            linalg.yield %s : f32
          }

    The short form `linalg.map { arith.addf } ins(...) outs(...)` parses too.
    """

    name = "linalg.map"
    inputs = var_operand_def()
    init = operand_def(ShapedType)
    res = var_result_def()
    body = region_def("single_block")
    traits = PURE_ON_TENSORS

    def get_indexing_maps(self) -> ArrayAttr:
        from xdsl.dialects.builtin import AffineMapAttr

        rank = self._rank()
        return ArrayAttr(
            AffineMapAttr(AffineMap.identity(rank)) for _ in range(len(self.operands))
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(iterator_attrs(["parallel"] * self._rank()))

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        """The init, under the name other structured ops use for their outs."""
        return (self.init,)

    def _rank(self) -> int:
        out_type = self.init.type
        assert isinstance(out_type, ShapedType)
        return len(out_type.get_shape())

    def verify_(self) -> None:
        out_type = self.init.type
        assert isinstance(out_type, ShapedType)
        for index, operand in enumerate(self.inputs):
            in_type = operand.type
            if not isinstance(in_type, ShapedType) or in_type.get_shape() != out_type.get_shape():
                raise VerifyException(
                    f"expects input #{index} to have the init's shape "
                    f"{list(out_type.get_shape())}, got {in_type}"
                )
        args = self.body.block.args
        if len(args) not in (len(self.inputs), len(self.inputs) + 1):
            raise VerifyException(
                f"body expects {len(self.inputs)} argument(s) (one per "
                f"input, optionally one more for the init), got {len(args)}"
            )

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string(" ins(")
            printer.print_list(self.inputs, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.inputs.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" outs(")
        printer.print_ssa_value(self.init)
        printer.print_string(" : ")
        printer.print_attribute(self.init.type)
        printer.print_string(")")
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string("\n")
        with printer.indented():
            printer.print_string("(", indent=0)
            printer.print_list(self.body.block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.body, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        short_form_op: str | None = None
        short_form_pos = parser.pos
        if parser.parse_optional_punctuation("{"):
            short_form_op = parser.parse_identifier()
            parser.parse_punctuation("}")
        pos = parser.pos
        ins: Sequence[SSAValue] = ()
        if parser.parse_optional_characters("ins"):
            ins = _parse_operand_group(parser, pos)
        pos = parser.pos
        parser.parse_characters("outs")
        outs = _parse_operand_group(parser, pos)
        attrs = parser.parse_optional_attr_dict()
        if short_form_op is None:
            args = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN,
                lambda: parser.parse_argument(expect_type=True),
            )
            region = parser.parse_region(args)
        else:
            region = _short_form_body(parser, short_form_op, ins, outs, short_form_pos)
        # Current MLIR gives the body one argument per input AND one for the init;
        # older MLIR omitted the init's. Normalise to the current form, which both
        # the evaluator and today's mlir-opt/heir-opt accept.
        out_type = outs[0].type
        if len(region.block.args) == len(ins) and isinstance(out_type, ShapedType):
            region.block.insert_arg(element_type(out_type), len(ins))
        on_tensors = isinstance(outs[0].type, ShapedType) and not isinstance(outs[0].type, MemRefType)
        result_types = [outs[0].type] if on_tensors else []
        if len(outs) != 1:
            parser.raise_error("'linalg.map' expects exactly one init in outs(...)", pos)
        return cls.build(
            operands=(ins, outs[0]),
            result_types=(result_types,),
            attributes=attrs,
            regions=(region,),
        )


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


def _short_form_body(
    parser: Parser,
    op_name: str,
    ins: Sequence[SSAValue],
    outs: Sequence[SSAValue],
    start: int,
) -> Region:
    """Body for `linalg.map { arith.addf }`: one op applied to the input elements."""
    element_types = NamedOperation.body_arg_types(ins)
    op_def = parser.ctx.get_optional_op(op_name)
    if op_def is None:
        parser.raise_error(f"unknown operation '{op_name}' in linalg.map short form", start)
    block = Block(arg_types=element_types)
    out_type = outs[0].type
    assert isinstance(out_type, ShapedType)
    inner = op_def.create(operands=list(block.args), result_types=[element_type(out_type)])
    block.add_ops([inner, YieldOp(inner.results[0])])
    return Region(block)


Linalg = Dialect(
    "linalg",
    [*_REUSED_XDSL_OPS, YieldOp, IndexOp, DivOp, MapOp, *NAMED_OPS],
    [IteratorTypeAttr, TypeFnAttr],
)
