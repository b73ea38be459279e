"""MLIR's named structured ops, each stated as a table row: its loops and operand indexing.

MLIR generates its named ops (convolutions, pooling, contractions) from one table
(`LinalgNamedStructuredOps.yaml`); heirpy does the same in Python. An op is a small
class that says, in MLIR's loop order, what it computes:

    @irdl_op_definition
    class DepthwiseConv2DNhwcHwcmOp(ConvolutionOp):
        '''`O[n, oh, ow, c, m] += I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] * K[kh, kw, c, m]`.'''

        name = "linalg.depthwise_conv_2d_nhwc_hwcm"
        LOOPS: ClassVar[str] = "n oh ow c m [kh kw]"
        OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw, c, m", "n, oh, ow, c, m")

`LOOPS` names the loop dims in MLIR's order, reductions in brackets. Each `OPERANDS`
entry indexes one operand (inputs, then the init) by those names; `a+b` is a window
access `a * stride + b * dilation`, the k-th such term using `strides[k]` and
`dilations[k]`. `BODY` is MLIR's scalar computation: inputs are cast to the init's
element type (`cast_signed`, or `cast_unsigned` for the `*_unsigned` pools) and combined
with the init, e.g. `out + a * b`.

Every op parses and prints in MLIR's named-op form,

    %r = linalg.<name> {attr = ...} ins(%a, %b : T, U) outs(%c : V) -> V

with the attribute dictionary sorted as MLIR prints it and `strides`/`dilations`
omitted when the text omits them (MLIR defaults them to 1 and does not print them).
The region is hidden in the custom form and built from `BODY`, so the generic form
carries MLIR's exact body, and the evaluator runs any of these ops through its maps and
body.

`matmul`, `batch_matmul` and `batch_reduce_matmul` keep `indexing_maps` as a property
(a transposed or broadcast operand; the default maps are not printed) and a `cast`
(`#linalg.type_fn<cast_unsigned>`); `contract` requires its maps and takes its iterator
types from the output map. Their verifiers check what MLIR's check, with its messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect, get_effects
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from heirpy.ir.utils import element_type, int_values


# ----------------------------------------------------------------------------- effects
class TensorSemanticsMemoryEffect(MemoryEffect):
    """No side effects when every shaped operand is a tensor and the body is pure.

    A linalg op on tensors only produces new SSA values; on memrefs it reads and
    writes buffers, which we report as unknown so that nothing removes it.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance] | None:
        if any(isinstance(operand.type, MemRefType) for operand in op.operands):
            return None
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if isinstance(child, YieldOp):
                        continue  # only forwards values
                    child_effects = get_effects(child)
                    if child_effects is None or child_effects:
                        return None
        return frozenset()


PURE_ON_TENSORS = traits_def(TensorSemanticsMemoryEffect())


# ----------------------------------------------------------------------------- the table language
@cache
def parse_loops(spec: str) -> tuple[tuple[str, ...], frozenset[int]]:
    """`"n oh ow [kh kw] c"` -> the loop names and the positions of the reductions."""
    names: list[str] = []
    reductions: set[int] = set()
    in_reduction = False
    for token in re.findall(r"\[|\]|\w+", spec):
        if token in "[]":
            in_reduction = token == "["
            continue
        if in_reduction:
            reductions.add(len(names))
        names.append(token)
    return tuple(names), frozenset(reductions)


def operand_map(
    spec: str, loops: Sequence[str], strides: Sequence[int], dilations: Sequence[int], window: list[int]
) -> AffineMap:
    """The indexing map of one `OPERANDS` entry; `window` counts the `a+b` terms seen so far."""
    dims = {name: AffineDimExpr(i) for i, name in enumerate(loops)}
    results: list[AffineExpr] = []
    for term in filter(None, (t.strip() for t in spec.split(","))):
        if "+" in term:
            out, tap = (part.strip() for part in term.split("+"))
            k = window[0]
            window[0] += 1
            results.append(_scaled(dims[out], strides[k]) + _scaled(dims[tap], dilations[k]))
        else:
            results.append(dims[term])
    return AffineMap(len(loops), 0, tuple(results))


def _scaled(expr: AffineDimExpr, factor: int) -> AffineExpr:
    return expr if factor == 1 else expr * factor  # MLIR's maps drop a `* 1`


# ----------------------------------------------------------------------------- bodies
def cast_scalar(value: SSAValue, to: Attribute, unsigned: bool, ops: list[Operation]) -> SSAValue:
    """`value` converted to `to` as MLIR's named-op bodies do (`convertScalarToDtype`)."""
    source = value.type
    if source == to:
        return value
    op: Operation | None = None
    if isinstance(source, IndexType) or isinstance(to, IndexType):
        op = arith.IndexCastOp(value, to)
    elif isinstance(to, IntegerType) and isinstance(source, AnyFloat):
        op = arith.FPToUIOp(value, to) if unsigned else arith.FPToSIOp(value, to)
    elif isinstance(to, IntegerType) and isinstance(source, IntegerType):
        if to.width.data > source.width.data:
            op = arith.ExtUIOp(value, to) if unsigned else arith.ExtSIOp(value, to)
        elif to.width.data < source.width.data:
            op = arith.TruncIOp(value, to)
    elif isinstance(to, AnyFloat) and isinstance(source, IntegerType):
        op = arith.UIToFPOp(value, to) if unsigned else arith.SIToFPOp(value, to)
    elif isinstance(to, AnyFloat) and isinstance(source, AnyFloat):
        if to.bitwidth > source.bitwidth:
            op = arith.ExtFOp(value, to)
        elif to.bitwidth < source.bitwidth:
            op = arith.TruncFOp(value, to)
    if op is None:
        return value  # MLIR warns and leaves the value as it is
    ops.append(op)
    return op.results[0]


Operands = tuple[str, ...]
"""One index spec per operand: inputs, then the init (see the module docstring)."""

BodyBuilder = Callable[[Sequence[SSAValue], Attribute, bool, list[Operation]], SSAValue]


def _add(a: SSAValue, b: SSAValue, ops: list[Operation]) -> SSAValue:
    op = arith.AddfOp(a, b) if isinstance(a.type, AnyFloat) else arith.AddiOp(a, b)
    ops.append(op)
    return op.results[0]


def _sub(a: SSAValue, b: SSAValue, ops: list[Operation]) -> SSAValue:
    op = arith.SubfOp(a, b) if isinstance(a.type, AnyFloat) else arith.SubiOp(a, b)
    ops.append(op)
    return op.results[0]


def _mul(a: SSAValue, b: SSAValue, ops: list[Operation]) -> SSAValue:
    op = arith.MulfOp(a, b) if isinstance(a.type, AnyFloat) else arith.MuliOp(a, b)
    ops.append(op)
    return op.results[0]


def mul_add(args: Sequence[SSAValue], out: Attribute, unsigned: bool, ops: list[Operation]) -> SSAValue:
    """`out + cast(a) * cast(b)`: contractions and convolutions."""
    a, b = (cast_scalar(v, out, unsigned, ops) for v in args[:2])
    return _add(args[-1], _mul(a, b, ops), ops)


def mul_add_zero_points(args: Sequence[SSAValue], out: Attribute, unsigned: bool, ops: list[Operation]) -> SSAValue:
    """`out + (cast(a) - cast(a_zp)) * (cast(b) - cast(b_zp))`: the `*_q` convolutions."""
    a = _sub(cast_scalar(args[0], out, unsigned, ops), cast_scalar(args[2], out, unsigned, ops), ops)
    b = _sub(cast_scalar(args[1], out, unsigned, ops), cast_scalar(args[3], out, unsigned, ops), ops)
    return _add(args[-1], _mul(a, b, ops), ops)


def add_input(args: Sequence[SSAValue], out: Attribute, unsigned: bool, ops: list[Operation]) -> SSAValue:
    """`out + cast(in)`: sum pooling (the window operand only gives the shape)."""
    return _add(args[-1], cast_scalar(args[0], out, unsigned, ops), ops)


def _extremum(kind: str) -> BodyBuilder:
    def body(args: Sequence[SSAValue], out: Attribute, unsigned: bool, ops: list[Operation]) -> SSAValue:
        value = cast_scalar(args[0], out, unsigned, ops)
        if unsigned and (not isinstance(out, IntegerType) or out.width.data == 1):
            # MLIR's region builder refuses it (floats, and i1 too) while parsing.
            raise VerifyException(f"unsupported operation: unsigned {kind} not on uint")
        if isinstance(out, AnyFloat):
            op: Operation = arith.MaximumfOp(args[-1], value) if kind == "max" else arith.MinimumfOp(args[-1], value)
        elif kind == "max":
            op = arith.MaxUIOp(args[-1], value) if unsigned else arith.MaxSIOp(args[-1], value)
        else:
            op = arith.MinUIOp(args[-1], value) if unsigned else arith.MinSIOp(args[-1], value)
        ops.append(op)
        return op.results[0]

    body.__doc__ = f"`{kind}(out, cast(in))`: {kind} pooling."
    return body


max_input = _extremum("max")
min_input = _extremum("min")


@dataclass(frozen=True)
class Body:
    """A named op's scalar computation (held in an object so that, as a class attribute,
    it is not taken for a method)."""

    compute: BodyBuilder


def build_body(body: Body, operand_types: Sequence[Attribute], unsigned: bool) -> Region:
    """The region `body` computes, over one scalar argument per operand."""
    block = Block(arg_types=[element_type(t) for t in operand_types])
    ops: list[Operation] = []
    result = body.compute(block.args, block.args[-1].type, unsigned, ops)
    block.add_ops([*ops, YieldOp(result)])
    return Region(block)


# ----------------------------------------------------------------------------- the custom form
def parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """`keyword(%a, %b : T, U)`, or nothing when the keyword is absent."""
    if not parser.parse_optional_keyword(keyword):
        return []
    pos = parser.pos
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"expected {len(names)} types in {keyword}(...), got {len(types)}", pos)
    return list(parser.resolve_operands(names, types, pos))


def parse_result_types(parser: Parser) -> list[Attribute]:
    """MLIR's optional arrow type list: `-> T` or `-> (T, U)`."""
    if not parser.parse_optional_punctuation("->"):
        return []
    types = parser.parse_optional_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
    return list(types) if types is not None else [parser.parse_type()]


def print_operand_group(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
    """` keyword(%a, %b : T, U)`, MLIR's spacing."""
    if not values:
        return
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def print_result_types(printer: Printer, types: Sequence[Attribute]) -> None:
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
    else:
        with printer.in_parens():
            printer.print_list(types, printer.print_attribute)


def print_sorted_attr_dict(printer: Printer, attrs: dict[str, Attribute]) -> None:
    """` {a = ..., b = ...}` sorted by name, as MLIR's DictionaryAttr prints."""
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(attrs.items())))


# ----------------------------------------------------------------------------- the base class
class NamedStructuredOp(LinalgStructuredOperation):
    """A named linalg op: `LOOPS`, `OPERANDS` and `BODY` say what it computes.

    `NUM_INPUTS` is the number of `ins` operands (2; 4 for the `*_q` ops, whose last two
    are the zero points). `UNSIGNED` makes the body cast with `cast_unsigned`.
    """

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = PURE_ON_TENSORS

    LOOPS: ClassVar[str]
    OPERANDS: ClassVar[Operands]
    BODY: ClassVar[Body] = Body(mul_add)
    NUM_INPUTS: ClassVar[int] = 2
    UNSIGNED: ClassVar[bool] = False
    # Property names the custom form prints in its attribute dictionary.
    PRINTED_PROPERTIES: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        *,
        properties: dict[str, Attribute] | None = None,
    ):
        """`res` defaults to the types of the tensor inits; the body is MLIR's."""
        if res is None:
            res = [o.type for o in outputs if isinstance(o.type, TensorType)]
        properties = dict(sorted((properties or {}).items()))
        body = build_body(type(self).BODY, [v.type for v in (*inputs, *outputs)], self.is_unsigned(properties))
        super().__init__(
            operands=[inputs, outputs],
            result_types=[res],
            properties=properties,
            attributes=attributes or {},
            regions=[body],
        )

    @classmethod
    def is_unsigned(cls, properties: dict[str, Attribute]) -> bool:
        return cls.UNSIGNED

    # ---- semantics
    def loops(self) -> tuple[tuple[str, ...], frozenset[int]]:
        return parse_loops(self.LOOPS)

    def window(self) -> tuple[Sequence[int], Sequence[int]]:
        """Strides and dilations of the `a+b` terms (unit for ops without attributes)."""
        return (1, 1, 1), (1, 1, 1)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        names, _ = self.loops()
        strides, dilations = self.window()
        counter = [0]
        return ArrayAttr(
            AffineMapAttr(operand_map(spec, names, strides, dilations, counter)) for spec in self.OPERANDS
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        names, reductions = self.loops()
        return ArrayAttr(
            IteratorTypeAttr.reduction() if i in reductions else IteratorTypeAttr.parallel()
            for i in range(len(names))
        )

    def verify_(self) -> None:
        expected = len(self.OPERANDS)
        if len(self.inputs) != self.NUM_INPUTS or len(self.outputs) != expected - self.NUM_INPUTS:
            raise VerifyException(
                f"expected {self.NUM_INPUTS} inputs and {expected - self.NUM_INPUTS} output(s), "
                f"got {len(self.inputs)} and {len(self.outputs)}"
            )
        tensor_outs = [o.type for o in self.outputs if isinstance(o.type, TensorType)]
        if [r.type for r in self.res] != tensor_outs:
            raise VerifyException("expected one result per tensor init, of the init's type")
        super().verify_()

    # ---- the custom form
    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        """Properties an op spells before its attributes (matmul's `indexing_maps = [...]`)."""
        return {}

    @classmethod
    def parse(cls, parser: Parser) -> NamedStructuredOp:
        pos = parser.pos
        properties = cls.parse_prefix(parser)
        if parser.parse_optional_punctuation("<"):
            props = parser.parse_attribute()
            parser.parse_punctuation(">")
            if not isinstance(props, DictionaryAttr):
                parser.raise_error("expected a dictionary of properties", pos)
            properties.update(props.data)
        attrs = dict(parser.parse_optional_attr_dict())
        inputs = parse_operand_group(parser, "ins")
        outputs = parse_operand_group(parser, "outs")
        attrs.update(parser.parse_optional_attr_dict())
        result_types = parse_result_types(parser)
        known = cls.get_irdl_definition().properties
        for name in [n for n in attrs if n in known]:
            properties[name] = attrs.pop(name)
        properties.pop("operandSegmentSizes", None)
        if len(inputs) != cls.NUM_INPUTS or len(outputs) != len(cls.OPERANDS) - cls.NUM_INPUTS:
            parser.raise_error(
                f"'{cls.name}' expects {cls.NUM_INPUTS} ins and "
                f"{len(cls.OPERANDS) - cls.NUM_INPUTS} outs operand(s), got {len(inputs)} and {len(outputs)}",
                pos,
            )
        for value in (*inputs, *outputs):
            if not isinstance(element_type(value.type), IntegerType | AnyFloat | IndexType):
                parser.raise_error(f"'{cls.name}' cannot compute on elements of {value.type}", pos)
        return cls(inputs, outputs, result_types, attrs, properties=properties)

    def print(self, printer: Printer) -> None:
        self.print_prefix(printer)
        shown = {n: v for n, v in self.properties.items() if n in self.PRINTED_PROPERTIES}
        print_sorted_attr_dict(printer, {**shown, **self.attributes})
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        print_result_types(printer, [r.type for r in self.res])

    def print_prefix(self, printer: Printer) -> None:
        """What an op prints before its attributes (matmul's `indexing_maps = [...]`)."""


# ----------------------------------------------------------------------------- window ops
class WindowOp(NamedStructuredOp):
    """A convolution or pooling: `strides` and `dilations`, one per spatial dim, default 1.

    MLIR accepts them as `dense<...> : tensor<Nxi64>` or `vector<Nxi64>` and prints
    them back as given; when the text leaves them out they stay out.
    """

    strides = opt_prop_def(DenseIntOrFPElementsAttr)
    dilations = opt_prop_def(DenseIntOrFPElementsAttr)
    PRINTED_PROPERTIES: ClassVar[tuple[str, ...]] = ("dilations", "strides")

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        *,
        strides: DenseIntOrFPElementsAttr | None = None,
        dilations: DenseIntOrFPElementsAttr | None = None,
        properties: dict[str, Attribute] | None = None,
    ):
        """`strides`/`dilations` left out are MLIR's default 1 (and stay unprinted)."""
        properties = dict(properties or {})
        for name, attr in (("strides", strides), ("dilations", dilations)):
            if attr is not None:
                properties[name] = attr
        super().__init__(inputs, outputs, res, attributes, properties=properties)

    @classmethod
    def window_rank(cls) -> int:
        return sum("+" in term for term in cls.OPERANDS[0].split(","))

    def window(self) -> tuple[Sequence[int], Sequence[int]]:
        return self.window_strides(), self.window_dilations()

    def window_strides(self) -> tuple[int, ...]:
        return _window_values(self.strides, self.window_rank())

    def window_dilations(self) -> tuple[int, ...]:
        return _window_values(self.dilations, self.window_rank())

    def verify_(self) -> None:
        rank = self.window_rank()
        for name in ("strides", "dilations"):
            attr = self.properties.get(name)
            if attr is None:
                continue
            if not isinstance(attr, DenseIntOrFPElementsAttr) or attr.get_element_type() != IntegerType(64):
                raise VerifyException(
                    f"attribute '{name}' failed to satisfy constraint: 64-bit signless int "
                    f"elements attribute of shape [{rank}]"
                )
            if attr.get_shape() != (rank,):
                raise VerifyException(
                    f"attribute '{name}' failed to satisfy constraint: 64-bit signless int "
                    f"elements attribute of shape [{rank}]"
                )
            if any(v < 1 for v in int_values(attr)):
                # MLIR does not check this; heirpy's window arithmetic needs it.
                raise VerifyException(f"expects positive '{name}', got {list(int_values(attr))}")
        super().verify_()


class ConvolutionOp(WindowOp):
    """A convolution: `O += I[window] * K`, inputs cast to the output element type."""


class PoolingOp(WindowOp):
    """A pooling: `O = combine(O, I[window])`; the second input only gives the window shape."""


def window_values(attr: Attribute | None, rank: int) -> tuple[int, ...]:
    """The strides or dilations of a window op, defaulting to 1 as MLIR does."""
    return (1,) * rank if attr is None else int_values(attr)


def _window_values(attr: DenseIntOrFPElementsAttr | None, rank: int) -> tuple[int, ...]:
    values = window_values(attr, rank)
    return values if len(values) == rank else (1,) * rank  # the verifier reports the rest


# ----------------------------------------------------------------------------- the table
@irdl_op_definition
class MatvecOp(NamedStructuredOp):
    """`y[i] += A[i, j] * x[j]`."""

    name = "linalg.matvec"
    LOOPS: ClassVar[str] = "i [j]"
    OPERANDS: ClassVar[Operands] = ("i, j", "j", "i")


@irdl_op_definition
class VecmatOp(NamedStructuredOp):
    """`y[n] += x[m] * A[m, n]`."""

    name = "linalg.vecmat"
    LOOPS: ClassVar[str] = "n [m]"
    OPERANDS: ClassVar[Operands] = ("m", "m, n", "n")


@irdl_op_definition
class BatchMatvecOp(NamedStructuredOp):
    """`y[b, i] += A[b, i, j] * x[b, j]`."""

    name = "linalg.batch_matvec"
    LOOPS: ClassVar[str] = "b i [j]"
    OPERANDS: ClassVar[Operands] = ("b, i, j", "b, j", "b, i")


@irdl_op_definition
class BatchVecmatOp(NamedStructuredOp):
    """`y[b, n] += x[b, m] * A[b, m, n]`."""

    name = "linalg.batch_vecmat"
    LOOPS: ClassVar[str] = "b n [m]"
    OPERANDS: ClassVar[Operands] = ("b, m", "b, m, n", "b, n")


@irdl_op_definition
class DotOp(NamedStructuredOp):
    """`c += a[k] * b[k]` into a 0-d init."""

    name = "linalg.dot"
    LOOPS: ClassVar[str] = "[k]"
    OPERANDS: ClassVar[Operands] = ("k", "k", "")


@irdl_op_definition
class Mmt4DOp(NamedStructuredOp):
    """`C[m, n, m0, n0] += A[m, k, m0, k0] * B[n, k, n0, k0]`: matmul of tiled operands, the rhs tiles transposed."""

    name = "linalg.mmt4d"
    LOOPS: ClassVar[str] = "m n [k] m0 n0 [k0]"
    OPERANDS: ClassVar[Operands] = ("m, k, m0, k0", "n, k, n0, k0", "m, n, m0, n0")


@irdl_op_definition
class BatchMmt4DOp(NamedStructuredOp):
    """`mmt4d` per batch `b`."""

    name = "linalg.batch_mmt4d"
    LOOPS: ClassVar[str] = "b m n [k] m0 n0 [k0]"
    OPERANDS: ClassVar[Operands] = ("b, m, k, m0, k0", "b, n, k, n0, k0", "b, m, n, m0, n0")


@irdl_op_definition
class QuantizedMatmulOp(NamedStructuredOp):
    """`C[m, n] += (A[m, k] - a_zp) * (B[k, n] - b_zp)`."""

    name = "linalg.quantized_matmul"
    LOOPS: ClassVar[str] = "m n [k]"
    OPERANDS: ClassVar[Operands] = ("m, k", "k, n", "", "", "m, n")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class QuantizedBatchMatmulOp(NamedStructuredOp):
    """`C[b, m, n] += (A[b, m, k] - a_zp) * (B[b, k, n] - b_zp)`."""

    name = "linalg.quantized_batch_matmul"
    LOOPS: ClassVar[str] = "b m n [k]"
    OPERANDS: ClassVar[Operands] = ("b, m, k", "b, k, n", "", "", "b, m, n")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class Conv1DOp(NamedStructuredOp):
    """`O[o] += I[o + k] * K[k]` (no strides or dilations)."""

    name = "linalg.conv_1d"
    LOOPS: ClassVar[str] = "o [k]"
    OPERANDS: ClassVar[Operands] = ("o+k", "k", "o")


@irdl_op_definition
class Conv2DOp(NamedStructuredOp):
    """`O[oh, ow] += I[oh + kh, ow + kw] * K[kh, kw]`."""

    name = "linalg.conv_2d"
    LOOPS: ClassVar[str] = "oh ow [kh kw]"
    OPERANDS: ClassVar[Operands] = ("oh+kh, ow+kw", "kh, kw", "oh, ow")


@irdl_op_definition
class Conv3DOp(NamedStructuredOp):
    """`O[od, oh, ow] += I[od + kd, oh + kh, ow + kw] * K[kd, kh, kw]`."""

    name = "linalg.conv_3d"
    LOOPS: ClassVar[str] = "od oh ow [kd kh kw]"
    OPERANDS: ClassVar[Operands] = ("od+kd, oh+kh, ow+kw", "kd, kh, kw", "od, oh, ow")


@irdl_op_definition
class Conv1DNwcWcfOp(ConvolutionOp):
    """`O[n, ow, f] += I[n, ow*s0 + kw*d0, c] * K[kw, c, f]`."""

    name = "linalg.conv_1d_nwc_wcf"
    LOOPS: ClassVar[str] = "n ow f [kw c]"
    OPERANDS: ClassVar[Operands] = ("n, ow+kw, c", "kw, c, f", "n, ow, f")


@irdl_op_definition
class Conv1DNcwFcwOp(ConvolutionOp):
    """`O[n, f, ow] += I[n, c, ow*s0 + kw*d0] * K[f, c, kw]`."""

    name = "linalg.conv_1d_ncw_fcw"
    LOOPS: ClassVar[str] = "n f ow [c kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, ow+kw", "f, c, kw", "n, f, ow")


@irdl_op_definition
class Conv2DNhwcHwcfOp(ConvolutionOp):
    """`O[n, oh, ow, f] += I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] * K[kh, kw, c, f]`."""

    name = "linalg.conv_2d_nhwc_hwcf"
    LOOPS: ClassVar[str] = "n oh ow f [kh kw c]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw, c, f", "n, oh, ow, f")


@irdl_op_definition
class Conv2DNhwcFhwcOp(ConvolutionOp):
    """`O[n, oh, ow, f] += I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] * K[f, kh, kw, c]`."""

    name = "linalg.conv_2d_nhwc_fhwc"
    LOOPS: ClassVar[str] = "n oh ow f [kh kw c]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "f, kh, kw, c", "n, oh, ow, f")


@irdl_op_definition
class Conv2DNchwFchwOp(ConvolutionOp):
    """`O[n, f, oh, ow] += I[n, c, oh*s0 + kh*d0, ow*s1 + kw*d1] * K[f, c, kh, kw]`."""

    name = "linalg.conv_2d_nchw_fchw"
    LOOPS: ClassVar[str] = "n f oh ow [c kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, oh+kh, ow+kw", "f, c, kh, kw", "n, f, oh, ow")


@irdl_op_definition
class Conv2DNgchwFgchwOp(ConvolutionOp):
    """`O[n, g, f, oh, ow] += I[n, g, c, oh*s0 + kh*d0, ow*s1 + kw*d1] * K[f, g, c, kh, kw]`."""

    name = "linalg.conv_2d_ngchw_fgchw"
    LOOPS: ClassVar[str] = "n g f oh ow [c kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, g, c, oh+kh, ow+kw", "f, g, c, kh, kw", "n, g, f, oh, ow")


@irdl_op_definition
class Conv2DNgchwGfchwOp(ConvolutionOp):
    """`O[n, g, f, oh, ow] += I[n, g, c, oh*s0 + kh*d0, ow*s1 + kw*d1] * K[g, f, c, kh, kw]`."""

    name = "linalg.conv_2d_ngchw_gfchw"
    LOOPS: ClassVar[str] = "n g f oh ow [c kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, g, c, oh+kh, ow+kw", "g, f, c, kh, kw", "n, g, f, oh, ow")


@irdl_op_definition
class Conv2DNhwgcGfhwcOp(ConvolutionOp):
    """`O[n, oh, ow, g, f] += I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, g, c] * K[g, f, kh, kw, c]`."""

    name = "linalg.conv_2d_nhwgc_gfhwc"
    LOOPS: ClassVar[str] = "n oh ow g f [kh kw c]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, g, c", "g, f, kh, kw, c", "n, oh, ow, g, f")


@irdl_op_definition
class Conv3DNdhwcDhwcfOp(ConvolutionOp):
    """`O[n, od, oh, ow, f] += I[n, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2, c] * K[kd, kh, kw, c, f]`."""

    name = "linalg.conv_3d_ndhwc_dhwcf"
    LOOPS: ClassVar[str] = "n od oh ow f [kd kh kw c]"
    OPERANDS: ClassVar[Operands] = ("n, od+kd, oh+kh, ow+kw, c", "kd, kh, kw, c, f", "n, od, oh, ow, f")


@irdl_op_definition
class Conv3DNcdhwFcdhwOp(ConvolutionOp):
    """`O[n, f, od, oh, ow] += I[n, c, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2] * K[f, c, kd, kh, kw]`."""

    name = "linalg.conv_3d_ncdhw_fcdhw"
    LOOPS: ClassVar[str] = "n f od oh ow [c kd kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, od+kd, oh+kh, ow+kw", "f, c, kd, kh, kw", "n, f, od, oh, ow")


@irdl_op_definition
class Conv2DNhwcHwcfQOp(ConvolutionOp):
    """`O[n, oh, ow, f] += (I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] - i_zp) * (K[kh, kw, c, f] - k_zp)`."""

    name = "linalg.conv_2d_nhwc_hwcf_q"
    LOOPS: ClassVar[str] = "n oh ow f [kh kw c]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw, c, f", "", "", "n, oh, ow, f")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class Conv2DNhwcFhwcQOp(ConvolutionOp):
    """`O[n, oh, ow, f] += (I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] - i_zp) * (K[f, kh, kw, c] - k_zp)`."""

    name = "linalg.conv_2d_nhwc_fhwc_q"
    LOOPS: ClassVar[str] = "n oh ow f [kh kw c]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "f, kh, kw, c", "", "", "n, oh, ow, f")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class Conv2DNchwFchwQOp(ConvolutionOp):
    """`O[n, f, oh, ow] += (I[n, c, oh*s0 + kh*d0, ow*s1 + kw*d1] - i_zp) * (K[f, c, kh, kw] - k_zp)`."""

    name = "linalg.conv_2d_nchw_fchw_q"
    LOOPS: ClassVar[str] = "n f oh ow [c kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, oh+kh, ow+kw", "f, c, kh, kw", "", "", "n, f, oh, ow")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class Conv2DNhwgcGfhwcQOp(ConvolutionOp):
    """`O[n, oh, ow, g, f] += (I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, g, c] - i_zp) * (K[g, f, kh, kw, c] - k_zp)`."""

    name = "linalg.conv_2d_nhwgc_gfhwc_q"
    LOOPS: ClassVar[str] = "n oh ow g f [kh kw c]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, g, c", "g, f, kh, kw, c", "", "", "n, oh, ow, g, f")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class Conv2DNgchwGfchwQOp(ConvolutionOp):
    """`O[n, g, f, oh, ow] += (I[n, g, c, oh*s0 + kh*d0, ow*s1 + kw*d1] - i_zp) * (K[g, f, c, kh, kw] - k_zp)`."""

    name = "linalg.conv_2d_ngchw_gfchw_q"
    LOOPS: ClassVar[str] = "n g f oh ow [c kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, g, c, oh+kh, ow+kw", "g, f, c, kh, kw", "", "", "n, g, f, oh, ow")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class Conv3DNdhwcDhwcfQOp(ConvolutionOp):
    """`O[n, od, oh, ow, f] += (I[n, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2, c] - i_zp)
    * (K[kd, kh, kw, c, f] - k_zp)`."""

    name = "linalg.conv_3d_ndhwc_dhwcf_q"
    LOOPS: ClassVar[str] = "n od oh ow f [kd kh kw c]"
    OPERANDS: ClassVar[Operands] = ("n, od+kd, oh+kh, ow+kw, c", "kd, kh, kw, c, f", "", "", "n, od, oh, ow, f")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class DepthwiseConv1DNwcWcOp(ConvolutionOp):
    """`O[n, ow, c] += I[n, ow*s0 + kw*d0, c] * K[kw, c]`."""

    name = "linalg.depthwise_conv_1d_nwc_wc"
    LOOPS: ClassVar[str] = "n ow c [kw]"
    OPERANDS: ClassVar[Operands] = ("n, ow+kw, c", "kw, c", "n, ow, c")


@irdl_op_definition
class DepthwiseConv1DNcwCwOp(ConvolutionOp):
    """`O[n, c, ow] += I[n, c, ow*s0 + kw*d0] * K[c, kw]`."""

    name = "linalg.depthwise_conv_1d_ncw_cw"
    LOOPS: ClassVar[str] = "n ow c [kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, ow+kw", "c, kw", "n, c, ow")


@irdl_op_definition
class DepthwiseConv1DNwcWcmOp(ConvolutionOp):
    """`O[n, ow, c, m] += I[n, ow*s0 + kw*d0, c] * K[kw, c, m]`."""

    name = "linalg.depthwise_conv_1d_nwc_wcm"
    LOOPS: ClassVar[str] = "n ow c m [kw]"
    OPERANDS: ClassVar[Operands] = ("n, ow+kw, c", "kw, c, m", "n, ow, c, m")


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(ConvolutionOp):
    """`O[n, oh, ow, c] += I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] * K[kh, kw, c]`."""

    name = "linalg.depthwise_conv_2d_nhwc_hwc"
    LOOPS: ClassVar[str] = "n oh ow c [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw, c", "n, oh, ow, c")


@irdl_op_definition
class DepthwiseConv2DNchwChwOp(ConvolutionOp):
    """`O[n, c, oh, ow] += I[n, c, oh*s0 + kh*d0, ow*s1 + kw*d1] * K[c, kh, kw]`."""

    name = "linalg.depthwise_conv_2d_nchw_chw"
    LOOPS: ClassVar[str] = "n oh ow c [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, oh+kh, ow+kw", "c, kh, kw", "n, c, oh, ow")


@irdl_op_definition
class DepthwiseConv2DNhwcHwcQOp(ConvolutionOp):
    """`O[n, oh, ow, c] += (I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] - i_zp) * (K[kh, kw, c] - k_zp)`."""

    name = "linalg.depthwise_conv_2d_nhwc_hwc_q"
    LOOPS: ClassVar[str] = "n oh ow c [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw, c", "", "", "n, oh, ow, c")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class DepthwiseConv2DNhwcHwcmOp(ConvolutionOp):
    """`O[n, oh, ow, c, m] += I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] * K[kh, kw, c, m]`."""

    name = "linalg.depthwise_conv_2d_nhwc_hwcm"
    LOOPS: ClassVar[str] = "n oh ow c m [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw, c, m", "n, oh, ow, c, m")


@irdl_op_definition
class DepthwiseConv2DNhwcHwcmQOp(ConvolutionOp):
    """`O[n, oh, ow, c, m] += (I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c] - i_zp) * (K[kh, kw, c, m] - k_zp)`."""

    name = "linalg.depthwise_conv_2d_nhwc_hwcm_q"
    LOOPS: ClassVar[str] = "n oh ow c m [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw, c, m", "", "", "n, oh, ow, c, m")
    NUM_INPUTS: ClassVar[int] = 4
    BODY: ClassVar[Body] = Body(mul_add_zero_points)


@irdl_op_definition
class DepthwiseConv3DNdhwcDhwcOp(ConvolutionOp):
    """`O[n, od, oh, ow, c] += I[n, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2, c] * K[kd, kh, kw, c]`."""

    name = "linalg.depthwise_conv_3d_ndhwc_dhwc"
    LOOPS: ClassVar[str] = "n od oh ow [kd kh kw] c"
    OPERANDS: ClassVar[Operands] = ("n, od+kd, oh+kh, ow+kw, c", "kd, kh, kw, c", "n, od, oh, ow, c")


@irdl_op_definition
class DepthwiseConv3DNcdhwCdhwOp(ConvolutionOp):
    """`O[n, c, od, oh, ow] += I[n, c, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2] * K[c, kd, kh, kw]`."""

    name = "linalg.depthwise_conv_3d_ncdhw_cdhw"
    LOOPS: ClassVar[str] = "n od oh ow [kd kh kw] c"
    OPERANDS: ClassVar[Operands] = ("n, c, od+kd, oh+kh, ow+kw", "c, kd, kh, kw", "n, c, od, oh, ow")


@irdl_op_definition
class DepthwiseConv3DNdhwcDhwcmOp(ConvolutionOp):
    """`O[n, od, oh, ow, c, m] += I[n, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2, c] * K[kd, kh, kw, c, m]`."""

    name = "linalg.depthwise_conv_3d_ndhwc_dhwcm"
    LOOPS: ClassVar[str] = "n od oh ow m [kd kh kw] c"
    OPERANDS: ClassVar[Operands] = ("n, od+kd, oh+kh, ow+kw, c", "kd, kh, kw, c, m", "n, od, oh, ow, c, m")


@irdl_op_definition
class PoolingNhwcSumOp(PoolingOp):
    """`O[n, oh, ow, c] += I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c]`
    over the window; the second input only gives its shape."""

    name = "linalg.pooling_nhwc_sum"
    LOOPS: ClassVar[str] = "n oh ow c [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw", "n, oh, ow, c")
    BODY: ClassVar[Body] = Body(add_input)


@irdl_op_definition
class PoolingNhwcMaxOp(PoolingOp):
    """`O[n, oh, ow, c] = max(O[n, oh, ow, c], I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c])` over the window."""

    name = "linalg.pooling_nhwc_max"
    LOOPS: ClassVar[str] = "n oh ow c [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw", "n, oh, ow, c")
    BODY: ClassVar[Body] = Body(max_input)


@irdl_op_definition
class PoolingNhwcMaxUnsignedOp(PoolingOp):
    """`O[n, oh, ow, c] = max(O[n, oh, ow, c], I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c])` over the window (unsigned)."""

    name = "linalg.pooling_nhwc_max_unsigned"
    LOOPS: ClassVar[str] = "n oh ow c [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw", "n, oh, ow, c")
    BODY: ClassVar[Body] = Body(max_input)
    UNSIGNED: ClassVar[bool] = True


@irdl_op_definition
class PoolingNhwcMinOp(PoolingOp):
    """`O[n, oh, ow, c] = min(O[n, oh, ow, c], I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c])` over the window."""

    name = "linalg.pooling_nhwc_min"
    LOOPS: ClassVar[str] = "n oh ow c [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw", "n, oh, ow, c")
    BODY: ClassVar[Body] = Body(min_input)


@irdl_op_definition
class PoolingNhwcMinUnsignedOp(PoolingOp):
    """`O[n, oh, ow, c] = min(O[n, oh, ow, c], I[n, oh*s0 + kh*d0, ow*s1 + kw*d1, c])` over the window (unsigned)."""

    name = "linalg.pooling_nhwc_min_unsigned"
    LOOPS: ClassVar[str] = "n oh ow c [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, oh+kh, ow+kw, c", "kh, kw", "n, oh, ow, c")
    BODY: ClassVar[Body] = Body(min_input)
    UNSIGNED: ClassVar[bool] = True


@irdl_op_definition
class PoolingNchwSumOp(PoolingOp):
    """`O[n, c, oh, ow] += I[n, c, oh*s0 + kh*d0, ow*s1 + kw*d1]`
    over the window; the second input only gives its shape."""

    name = "linalg.pooling_nchw_sum"
    LOOPS: ClassVar[str] = "n c oh ow [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, oh+kh, ow+kw", "kh, kw", "n, c, oh, ow")
    BODY: ClassVar[Body] = Body(add_input)


@irdl_op_definition
class PoolingNchwMaxOp(PoolingOp):
    """`O[n, c, oh, ow] = max(O[n, c, oh, ow], I[n, c, oh*s0 + kh*d0, ow*s1 + kw*d1])` over the window."""

    name = "linalg.pooling_nchw_max"
    LOOPS: ClassVar[str] = "n c oh ow [kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, oh+kh, ow+kw", "kh, kw", "n, c, oh, ow")
    BODY: ClassVar[Body] = Body(max_input)


@irdl_op_definition
class PoolingNwcSumOp(PoolingOp):
    """`O[n, ow, c] += I[n, ow*s0 + kw*d0, c]` over the window; the second input only gives its shape."""

    name = "linalg.pooling_nwc_sum"
    LOOPS: ClassVar[str] = "n ow c [kw]"
    OPERANDS: ClassVar[Operands] = ("n, ow+kw, c", "kw", "n, ow, c")
    BODY: ClassVar[Body] = Body(add_input)


@irdl_op_definition
class PoolingNwcMaxOp(PoolingOp):
    """`O[n, ow, c] = max(O[n, ow, c], I[n, ow*s0 + kw*d0, c])` over the window."""

    name = "linalg.pooling_nwc_max"
    LOOPS: ClassVar[str] = "n ow c [kw]"
    OPERANDS: ClassVar[Operands] = ("n, ow+kw, c", "kw", "n, ow, c")
    BODY: ClassVar[Body] = Body(max_input)


@irdl_op_definition
class PoolingNwcMaxUnsignedOp(PoolingOp):
    """`O[n, ow, c] = max(O[n, ow, c], I[n, ow*s0 + kw*d0, c])` over the window (unsigned)."""

    name = "linalg.pooling_nwc_max_unsigned"
    LOOPS: ClassVar[str] = "n ow c [kw]"
    OPERANDS: ClassVar[Operands] = ("n, ow+kw, c", "kw", "n, ow, c")
    BODY: ClassVar[Body] = Body(max_input)
    UNSIGNED: ClassVar[bool] = True


@irdl_op_definition
class PoolingNwcMinOp(PoolingOp):
    """`O[n, ow, c] = min(O[n, ow, c], I[n, ow*s0 + kw*d0, c])` over the window."""

    name = "linalg.pooling_nwc_min"
    LOOPS: ClassVar[str] = "n ow c [kw]"
    OPERANDS: ClassVar[Operands] = ("n, ow+kw, c", "kw", "n, ow, c")
    BODY: ClassVar[Body] = Body(min_input)


@irdl_op_definition
class PoolingNwcMinUnsignedOp(PoolingOp):
    """`O[n, ow, c] = min(O[n, ow, c], I[n, ow*s0 + kw*d0, c])` over the window (unsigned)."""

    name = "linalg.pooling_nwc_min_unsigned"
    LOOPS: ClassVar[str] = "n ow c [kw]"
    OPERANDS: ClassVar[Operands] = ("n, ow+kw, c", "kw", "n, ow, c")
    BODY: ClassVar[Body] = Body(min_input)
    UNSIGNED: ClassVar[bool] = True


@irdl_op_definition
class PoolingNcwSumOp(PoolingOp):
    """`O[n, c, ow] += I[n, c, ow*s0 + kw*d0]` over the window; the second input only gives its shape."""

    name = "linalg.pooling_ncw_sum"
    LOOPS: ClassVar[str] = "n c ow [kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, ow+kw", "kw", "n, c, ow")
    BODY: ClassVar[Body] = Body(add_input)


@irdl_op_definition
class PoolingNcwMaxOp(PoolingOp):
    """`O[n, c, ow] = max(O[n, c, ow], I[n, c, ow*s0 + kw*d0])` over the window."""

    name = "linalg.pooling_ncw_max"
    LOOPS: ClassVar[str] = "n c ow [kw]"
    OPERANDS: ClassVar[Operands] = ("n, c, ow+kw", "kw", "n, c, ow")
    BODY: ClassVar[Body] = Body(max_input)


@irdl_op_definition
class PoolingNdhwcSumOp(PoolingOp):
    """`O[n, od, oh, ow, c] += I[n, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2, c]`
    over the window; the second input only gives its shape."""

    name = "linalg.pooling_ndhwc_sum"
    LOOPS: ClassVar[str] = "n od oh ow c [kd kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, od+kd, oh+kh, ow+kw, c", "kd, kh, kw", "n, od, oh, ow, c")
    BODY: ClassVar[Body] = Body(add_input)


@irdl_op_definition
class PoolingNdhwcMaxOp(PoolingOp):
    """`O[n, od, oh, ow, c] = max(O[n, od, oh, ow, c], I[n, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2, c])`
    over the window."""

    name = "linalg.pooling_ndhwc_max"
    LOOPS: ClassVar[str] = "n od oh ow c [kd kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, od+kd, oh+kh, ow+kw, c", "kd, kh, kw", "n, od, oh, ow, c")
    BODY: ClassVar[Body] = Body(max_input)


@irdl_op_definition
class PoolingNdhwcMinOp(PoolingOp):
    """`O[n, od, oh, ow, c] = min(O[n, od, oh, ow, c], I[n, od*s0 + kd*d0, oh*s1 + kh*d1, ow*s2 + kw*d2, c])`
    over the window."""

    name = "linalg.pooling_ndhwc_min"
    LOOPS: ClassVar[str] = "n od oh ow c [kd kh kw]"
    OPERANDS: ClassVar[Operands] = ("n, od+kd, oh+kh, ow+kw, c", "kd, kh, kw", "n, od, oh, ow, c")
    BODY: ClassVar[Body] = Body(min_input)


# ----------------------------------------------------------------------------- matmul and contract
class TypeFn(StrEnum):
    """How a named op's body casts its inputs to the output element type."""

    CAST_SIGNED = "cast_signed"
    CAST_UNSIGNED = "cast_unsigned"


@irdl_attr_definition
class TypeFnAttr(EnumAttribute[TypeFn]):
    """`#linalg.type_fn<cast_signed>` / `#linalg.type_fn<cast_unsigned>`."""

    name = "linalg.type_fn"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TypeFn:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


def parse_indexing_maps(parser: Parser) -> ArrayAttr[AffineMapAttr] | None:
    """`indexing_maps = [affine_map<...>, ...]` before the operands, if present."""
    if not parser.parse_optional_keyword("indexing_maps"):
        return None
    parser.parse_punctuation("=")
    pos = parser.pos
    maps = parser.parse_attribute()
    if not isinstance(maps, ArrayAttr) or not all(isinstance(m, AffineMapAttr) for m in maps.data):
        parser.raise_error("element of indexing_maps array is not an affine_map", pos)
    return maps


class ExplicitMapsOp(NamedStructuredOp):
    """A contraction whose `indexing_maps` may transpose or broadcast its inputs.

    `LOOPS`/`OPERANDS` give the default maps, which the custom form leaves out; the
    `cast` property (`#linalg.type_fn<cast_unsigned>`) picks the body's casts.
    """

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    cast = opt_prop_def(TypeFnAttr)
    PRINTED_PROPERTIES: ClassVar[tuple[str, ...]] = ("cast",)
    MAPS_REQUIRED: ClassVar[bool] = False

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        *,
        properties: dict[str, Attribute] | None = None,
    ):
        properties = dict(properties or {})
        properties.setdefault("indexing_maps", self.default_maps())
        super().__init__(inputs, outputs, res, attributes, properties=properties)

    @classmethod
    def default_maps(cls) -> ArrayAttr[AffineMapAttr]:
        names, _ = parse_loops(cls.LOOPS)
        counter = [0]
        return ArrayAttr(AffineMapAttr(operand_map(spec, names, (), (), counter)) for spec in cls.OPERANDS)

    @classmethod
    def is_unsigned(cls, properties: dict[str, Attribute]) -> bool:
        cast = properties.get("cast")
        return isinstance(cast, TypeFnAttr) and cast.data == TypeFn.CAST_UNSIGNED

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def has_user_defined_maps(self) -> bool:
        return self.indexing_maps != self.default_maps()

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        pos = parser.pos
        maps = parse_indexing_maps(parser)
        if maps is None:
            if cls.MAPS_REQUIRED:
                parser.raise_error("expected 'indexing_maps' attribute", pos)
            return {}
        return {"indexing_maps": maps}

    def print_prefix(self, printer: Printer) -> None:
        if self.MAPS_REQUIRED or self.has_user_defined_maps():
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)

    def verify_(self) -> None:
        if len(self.indexing_maps.data) != len(self.OPERANDS):
            raise VerifyException(
                f"expected {len(self.OPERANDS)} indexing maps, got {len(self.indexing_maps.data)}"
            )
        if self.has_user_defined_maps():  # MLIR checks these before the operand shapes
            self.verify_user_maps([m.data for m in self.indexing_maps.data], [m.data for m in self.default_maps().data])
        super().verify_()

    def verify_user_maps(self, maps: Sequence[AffineMap], defaults: Sequence[AffineMap]) -> None:
        """MLIR's checks of a transposing or broadcasting map (per op kind)."""


def _subset_of_default(m: AffineMap, default: AffineMap) -> bool:
    return set(m.results) <= set(default.results)


@irdl_op_definition
class MatmulOp(ExplicitMapsOp):
    """`C[m, n] += A[m, k] * B[k, n]`; `indexing_maps` may transpose A or B or drop
    (broadcast) a dim other than k."""

    name = "linalg.matmul"
    LOOPS: ClassVar[str] = "m n [k]"
    OPERANDS: ClassVar[Operands] = ("m, k", "k, n", "m, n")

    def verify_user_maps(self, maps: Sequence[AffineMap], defaults: Sequence[AffineMap]) -> None:
        for index in (0, 1):
            if not _subset_of_default(maps[index], defaults[index]):
                raise VerifyException("Unexpected dim expression in map result.")
            if len(maps[index].results) < len(defaults[index].results):
                if len(maps[index].results) != 1 or maps[index].results[0] != AffineDimExpr(2):
                    raise VerifyException("Invalid broadcast requested, should be (d2).")


class _BatchVariantMatmul(ExplicitMapsOp):
    """MLIR's map checks shared by batch_matmul and batch_reduce_matmul."""

    OUTPUT_DIMS: ClassVar[tuple[int, ...]]

    def verify_user_maps(self, maps: Sequence[AffineMap], defaults: Sequence[AffineMap]) -> None:
        out = maps[2]
        if len(out.results) != len(self.OUTPUT_DIMS):
            raise VerifyException(f"expects {len(self.OUTPUT_DIMS)} dims, but got ({len(out.results)}).")
        if tuple(out.results) != tuple(AffineDimExpr(d) for d in self.OUTPUT_DIMS):
            raise VerifyException("Invalid output map result dimension.")
        b, m, n, k = (AffineDimExpr(d) for d in range(4))
        for index, is_lhs in ((0, True), (1, False)):
            current, default = maps[index], defaults[index]
            if not _subset_of_default(current, default):
                raise VerifyException(
                    "Unexpected result dim expression (outside the set of default result dims)."
                )
            if len(current.results) > 3:
                raise VerifyException("no. of result dim expressions exceeds 3.")
            results = tuple(current.results)
            if len(results) < len(default.results):
                if len(results) == 1:
                    valid = results[0] == k
                elif is_lhs:
                    valid = results[0] in (b, m) and results[1] == k
                else:
                    valid = results in ((b, k), (k, n))
                if not valid:
                    raise VerifyException("Invalid broadcast requested.")
            elif results[0] != b:
                raise VerifyException("Invalid batch dimension expression.")


@irdl_op_definition
class BatchMatmulOp(_BatchVariantMatmul):
    """`C[b, m, n] += A[b, m, k] * B[b, k, n]`, maps as for matmul."""

    name = "linalg.batch_matmul"
    LOOPS: ClassVar[str] = "b m n [k]"
    OPERANDS: ClassVar[Operands] = ("b, m, k", "b, k, n", "b, m, n")
    OUTPUT_DIMS: ClassVar[tuple[int, ...]] = (0, 1, 2)


@irdl_op_definition
class BatchReduceMatmulOp(_BatchVariantMatmul):
    """`C[m, n] += A[b, m, k] * B[b, k, n]`: the batch is reduced too."""

    name = "linalg.batch_reduce_matmul"
    LOOPS: ClassVar[str] = "[b] m n [k]"
    OPERANDS: ClassVar[Operands] = ("b, m, k", "b, k, n", "m, n")
    OUTPUT_DIMS: ClassVar[tuple[int, ...]] = (1, 2)


@irdl_op_definition
class ContractOp(ExplicitMapsOp):
    """`out[...] += lhs[...] * rhs[...]`, an einsum given by its three projected maps.

    A dim in the output map is parallel; one in both inputs and not the output is a
    contracting (reduction) dim. `indexing_maps` is required.
    """

    name = "linalg.contract"
    LOOPS: ClassVar[str] = ""
    OPERANDS: ClassVar[Operands] = ("", "", "")
    MAPS_REQUIRED: ClassVar[bool] = True

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        out = self.indexing_maps.data[-1].data
        in_output = {r.position for r in out.results if isinstance(r, AffineDimExpr)}
        return ArrayAttr(
            IteratorTypeAttr.parallel() if d in in_output else IteratorTypeAttr.reduction()
            for d in range(out.num_dims)
        )

    def has_user_defined_maps(self) -> bool:
        return True

    def verify_(self) -> None:
        maps = [m.data for m in self.indexing_maps.data]
        if len(maps) != 3:
            raise VerifyException(f"expected 3 indexing maps, got {len(maps)}")
        dims = maps[0].num_dims
        used_in = [0] * dims
        used_out = [0] * dims
        for index, (m, operand) in enumerate(zip(maps, self.operands)):
            positions = [r.position for r in m.results if isinstance(r, AffineDimExpr)]
            if len(positions) != len(m.results) or len(set(positions)) != len(positions):
                raise VerifyException("provided affine_map is not a projected permutation")
            rank = len(operand.type.get_shape()) if isinstance(operand.type, ShapedType) else 0
            if len(m.results) != rank:
                if isinstance(operand.type, ShapedType):
                    raise VerifyException("ranks of shaped operand and results of corresponding affine_map differ")
                raise VerifyException("affine_map specifies shaped access while operand has non-shaped type")
            if m.num_dims != dims:
                raise VerifyException("iteration spaces of provided affine_maps differ")
            for position in positions:
                (used_out if index == 2 else used_in)[position] += 1
        contracting = False
        for d in range(dims):
            contracting |= used_in[d] == 2 and used_out[d] == 0
            if used_in[d] == 0 and used_out[d] == 0:
                raise VerifyException(f"iteration space dim at index {d} not used to access any operand")
            if used_in[d] == 1 and used_out[d] != 1:
                raise VerifyException(
                    f"iteration space dim at index {d} is neither a contracting dim nor of parallel iteration type"
                )
        if not contracting:
            raise VerifyException("'indexing_maps' do not specify a contracting dimension")
        NamedStructuredOp.verify_(self)


NAMED_OPS: tuple[type[NamedStructuredOp], ...] = (
    MatvecOp,
    VecmatOp,
    BatchMatvecOp,
    BatchVecmatOp,
    DotOp,
    Mmt4DOp,
    BatchMmt4DOp,
    QuantizedMatmulOp,
    QuantizedBatchMatmulOp,
    Conv1DOp,
    Conv2DOp,
    Conv3DOp,
    Conv1DNwcWcfOp,
    Conv1DNcwFcwOp,
    Conv2DNhwcHwcfOp,
    Conv2DNhwcFhwcOp,
    Conv2DNchwFchwOp,
    Conv2DNgchwFgchwOp,
    Conv2DNgchwGfchwOp,
    Conv2DNhwgcGfhwcOp,
    Conv3DNdhwcDhwcfOp,
    Conv3DNcdhwFcdhwOp,
    Conv2DNhwcHwcfQOp,
    Conv2DNhwcFhwcQOp,
    Conv2DNchwFchwQOp,
    Conv2DNhwgcGfhwcQOp,
    Conv2DNgchwGfchwQOp,
    Conv3DNdhwcDhwcfQOp,
    DepthwiseConv1DNwcWcOp,
    DepthwiseConv1DNcwCwOp,
    DepthwiseConv1DNwcWcmOp,
    DepthwiseConv2DNhwcHwcOp,
    DepthwiseConv2DNchwChwOp,
    DepthwiseConv2DNhwcHwcQOp,
    DepthwiseConv2DNhwcHwcmOp,
    DepthwiseConv2DNhwcHwcmQOp,
    DepthwiseConv3DNdhwcDhwcOp,
    DepthwiseConv3DNcdhwCdhwOp,
    DepthwiseConv3DNdhwcDhwcmOp,
    PoolingNhwcSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMaxUnsignedOp,
    PoolingNhwcMinOp,
    PoolingNhwcMinUnsignedOp,
    PoolingNchwSumOp,
    PoolingNchwMaxOp,
    PoolingNwcSumOp,
    PoolingNwcMaxOp,
    PoolingNwcMaxUnsignedOp,
    PoolingNwcMinOp,
    PoolingNwcMinUnsignedOp,
    PoolingNcwSumOp,
    PoolingNcwMaxOp,
    PoolingNdhwcSumOp,
    PoolingNdhwcMaxOp,
    PoolingNdhwcMinOp,
    MatmulOp,
    BatchMatmulOp,
    BatchReduceMatmulOp,
    ContractOp,
)
"""Every named op above, for the dialect."""
