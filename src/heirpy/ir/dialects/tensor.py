"""heirpy's `tensor` dialect: xDSL's tensor ops with MLIR's verifiers, and the ops xDSL lacks.

Registered under the name `tensor` by heirpy's context, in place of xDSL's. Each op
that xDSL defines without one of MLIR's checks is a subclass here adding it, with
MLIR's message (xDSL's own classes stay as they are; heirpy's passes may still build
xDSL's, which print the same):

* `empty`: one dynamic size per `?` dim;
* `extract` / `insert`: one index per dim;
* `from_elements`: one element per element of the result;
* `extract_slice` / `insert_slice`: one offset, size and stride per dim, a result
  (source) type that is the sliced type or a rank-reduced form of it, and static
  offsets and sizes inside the sliced tensor;
* `collapse_shape` / `expand_shape`: non-empty contiguous reassociation groups whose
  static sizes multiply out (a rank-0 side has no groups);
* `pad`: a result type that fits the source and static padding (a static size where
  the padding is dynamic is the user's promise, as in MLIR), an index block argument
  per dim and a yield of the element type;
* `reshape` / `cast` take unranked tensors (`tensor<*xf32>`) as MLIR does.

Ops added: `generate`, `gather`, `scatter`, `rank`, `bitcast`, with MLIR's syntax and
verifiers; the evaluator runs all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects import tensor as xt
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
    i64,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure, RecursiveMemoryEffect, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from heirpy.ir.utils import element_type, int_values

AnyTensor = TensorType | UnrankedTensorType


def _shape(type_: Attribute) -> tuple[int, ...]:
    if not isinstance(type_, TensorType):  # heirpy's verifier may run before the type checks
        raise VerifyException(f"expected a ranked tensor, got {type_}")
    return tuple(type_.get_shape())


def _show(shape: Sequence[int], element: Attribute) -> str:
    dims = "".join(f"{'?' if d == DYNAMIC_INDEX else d}x" for d in shape)
    return f"'tensor<{dims}{element}>'"


def verify_dynamic_count(type_: Attribute, dynamic_sizes: Sequence[SSAValue]) -> None:
    """MLIR's `verifyDynamicDimensionCount`: one size operand per `?` dim."""
    expected = sum(d == DYNAMIC_INDEX for d in _shape(type_))
    if len(dynamic_sizes) != expected:
        raise VerifyException(
            f"incorrect number of dynamic sizes, has {len(dynamic_sizes)}, expected {expected}"
        )


# ----------------------------------------------------------------------------- elements
class EmptyOp(xt.EmptyOp):
    """`tensor.empty(%d...) : tensor<...>`: undefined contents of a shape."""

    def verify_(self) -> None:
        verify_dynamic_count(self.tensor.type, self.dynamic_sizes)


class ExtractOp(xt.ExtractOp):
    """`tensor.extract %t[%i, %j] : tensor<...>`: one element."""

    def verify_(self) -> None:
        if len(self.indices) != len(_shape(self.tensor.type)):
            raise VerifyException("incorrect number of indices for extract_element")


class InsertOp(xt.InsertOp):
    """`tensor.insert %v into %t[%i, %j] : tensor<...>`: a copy with one element set."""

    def verify_(self) -> None:
        if len(self.indices) != len(_shape(self.dest.type)):
            raise VerifyException("incorrect number of indices")


class FromElementsOp(xt.FromElementsOp):
    """`tensor.from_elements %a, %b : tensor<2xf32>`: the elements in row-major order."""

    def print(self, printer: Printer) -> None:
        # MLIR's generated printer writes the space before the (empty) element list
        # too: `tensor.from_elements  : tensor<0xf32>`.
        if not self.elements:
            printer.print_string(" ")
        super().print(printer)

    def verify_(self) -> None:
        count = prod(_shape(self.result.type))
        if len(self.elements) != count:
            raise VerifyException(
                f"number of operands and types do not match: got {len(self.elements)} "
                f"operands and {count} types"
            )


# ----------------------------------------------------------------------------- slices
def rank_reduction_mask(original: Sequence[int], reduced: Sequence[int]) -> set[int] | None:
    """Dims of `original` a rank-reduced `reduced` drops (all size 1), or None.

    MLIR's `computeRankReductionMask`: a greedy left-to-right match of sizes.
    """
    dropped: set[int] = set()
    j = 0
    for i, size in enumerate(original):
        if j < len(reduced) and size == reduced[j]:
            j += 1
            continue
        dropped.add(i)
        if size != 1:
            return None
    return dropped if j == len(reduced) else None


def verify_slice_type(expected: Sequence[int], element: Attribute, actual: Attribute) -> None:
    """MLIR's `isRankReducedType` with its `produceSliceErrorMsg` messages."""
    assert isinstance(actual, TensorType)
    shape = _shape(actual)
    if len(shape) > len(expected):
        raise VerifyException("expected rank to be smaller or equal to the other rank. ")
    if rank_reduction_mask(expected, shape) is None:
        raise VerifyException(
            f"expected type to be {_show(expected, element)} or a rank-reduced version. (size mismatch) "
        )
    if actual.get_element_type() != element:
        raise VerifyException(f"expected element type to be '{element}'")


def verify_slice_operands(rank: int, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]) -> None:
    """MLIR's OffsetSizeAndStrideOpInterface checks: as many of each, one per dim."""
    if len(offsets) != len(sizes):
        raise VerifyException(
            f"expected mixed offsets rank to match mixed sizes rank ({len(offsets)} vs {len(sizes)}) "
            "so the rank of the result type is well-formed."
        )
    if len(sizes) != len(strides):
        raise VerifyException(
            f"expected mixed sizes rank to match mixed strides rank ({len(sizes)} vs {len(strides)}) "
            "so the rank of the result type is well-formed."
        )
    for what, values in (("offset", offsets), ("size", sizes), ("stride", strides)):
        if len(values) != rank:
            raise VerifyException(f"expected {rank} {what} values, got {len(values)}")


def verify_in_bounds(
    shape: Sequence[int], offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> None:
    """MLIR's `verifyInBoundsSlice` on the static entries."""
    for i, (dim, offset, size, stride) in enumerate(zip(shape, offsets, sizes, strides)):
        if dim == DYNAMIC_INDEX or offset == DYNAMIC_INDEX:
            continue
        if offset >= dim:
            raise VerifyException(f"offset {i} is out-of-bounds: {offset} >= {dim}")
        if size == DYNAMIC_INDEX or stride == DYNAMIC_INDEX:
            continue
        last = offset + (size - 1) * stride
        if last >= dim:
            raise VerifyException(f"slice along dimension {i} runs out-of-bounds: {last} >= {dim}")


def _values(attr: DenseArrayBase) -> tuple[int, ...]:
    return int_values(attr)


class ExtractSliceOp(xt.ExtractSliceOp):
    """`tensor.extract_slice %t[offsets] [sizes] [strides] : T to U`."""

    def verify_(self) -> None:
        super().verify_()
        source = self.source.type
        assert isinstance(source, TensorType)
        offsets, sizes, strides = (_values(a) for a in (self.static_offsets, self.static_sizes, self.static_strides))
        verify_slice_operands(len(_shape(source)), offsets, sizes, strides)
        verify_slice_type(sizes, source.get_element_type(), self.result.type)
        verify_in_bounds(_shape(source), offsets, sizes, strides)


class InsertSliceOp(xt.InsertSliceOp):
    """`tensor.insert_slice %s into %t[offsets] [sizes] [strides] : U into T`."""

    def verify_(self) -> None:
        super().verify_()
        dest = self.dest.type
        assert isinstance(dest, TensorType)
        offsets, sizes, strides = (_values(a) for a in (self.static_offsets, self.static_sizes, self.static_strides))
        verify_slice_operands(len(_shape(dest)), offsets, sizes, strides)
        verify_slice_type(sizes, dest.get_element_type(), self.source.type)
        verify_in_bounds(_shape(dest), offsets, sizes, strides)


# ----------------------------------------------------------------------------- reshapes
def _groups(reassociation: ArrayAttr[ArrayAttr[IntegerAttr]]) -> list[list[int]]:
    return [[int(i.value.data) for i in group.data] for group in reassociation.data]


def verify_reshape(expanded: Attribute, collapsed: Attribute, groups: list[list[int]], is_expansion: bool) -> None:
    """MLIR's `verifyTensorReshapeOp` for collapse_shape and expand_shape."""
    big, small = _shape(expanded), _shape(collapsed)
    if len(big) < len(small):
        raise VerifyException(
            f"expected the expanded type, {expanded} to have a higher (or same) rank than the "
            f"collapsed type, {collapsed}."
        )
    if len(small) != len(groups):
        raise VerifyException(
            f"expected collapsed rank ({len(small)}) to equal the number of reassociation maps ({len(groups)})."
        )
    expected_next = 0
    for index, group in enumerate(groups):
        if group != list(range(expected_next, expected_next + len(group))):
            raise VerifyException(f"expected reassociation map #{index} to be valid and contiguous.")
        expected_next += len(group)
    if groups and expected_next != len(big):
        raise VerifyException(f"expected reassociation map #{len(groups) - 1} to be valid and contiguous.")
    for index, group in enumerate(groups):
        band = [big[i] for i in group]
        if DYNAMIC_INDEX in band:
            if small[index] != DYNAMIC_INDEX:
                raise VerifyException(
                    f"expected dimension {index} of collapsed type to be dynamic since one or more "
                    "of the corresponding dimensions in the expanded type is dynamic"
                )
        elif small[index] != prod(band):
            raise VerifyException(
                f"expected dimension {index} of collapsed type to be static value of {prod(band)}"
            )
    if DYNAMIC_INDEX not in big and DYNAMIC_INDEX not in small and prod(big) != prod(small):
        raise VerifyException(f"number of elements must be preserved: {prod(big)} != {prod(small)}")


class CollapseShapeOp(xt.CollapseShapeOp):
    """`tensor.collapse_shape %t [[0, 1], [2]] : T into U`: merge contiguous dims."""

    def verify_(self) -> None:
        groups = _groups(self.reassociation)
        if any(not g for g in groups):
            raise VerifyException("reassociation indices must not be empty")
        verify_reshape(self.src.type, self.result.type, groups, is_expansion=False)


class ExpandShapeOp(xt.ExpandShapeOp):
    """`tensor.expand_shape %t [[0, 1], [2]] output_shape [...] : U into T`: split dims."""

    def verify_(self) -> None:
        result = _shape(self.result.type)
        static = _values(self.static_output_shape)
        if len(static) != len(result):
            raise VerifyException(
                "expected number of static shape dims to be equal to the output rank "
                f"({len(result)}) but found {len(static)} inputs instead"
            )
        if len(self.dynamic_output_shape) != static.count(DYNAMIC_INDEX):
            raise VerifyException(
                "mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape "
                f"has {static.count(DYNAMIC_INDEX)} dynamic dims while output_shape has "
                f"{len(self.dynamic_output_shape)} values"
            )
        verify_dynamic_count(self.result.type, self.dynamic_output_shape)
        for pos, (size, given) in enumerate(zip(result, static)):
            if size != DYNAMIC_INDEX and size != given:
                raise VerifyException(f"invalid output shape provided at pos {pos}")
        verify_reshape(self.result.type, self.src.type, _groups(self.reassociation), is_expansion=True)


# ----------------------------------------------------------------------------- pad
class PadOp(xt.PadOp):
    """`tensor.pad %t low[...] high[...] { ^bb0(%i: index, ...): tensor.yield %v } : T to U`.

    A dim padded by a dynamic amount may still have a static result size: it asserts
    the padded size, as in MLIR.
    """

    def verify_(self) -> None:
        source, result = _shape(self.source.type), _shape(self.result.type)
        low, high = _values(self.static_low), _values(self.static_high)
        element = self.result.type.get_element_type()
        if len(low) != len(source) or len(high) != len(source):
            raise VerifyException(
                f"failed to infer expectedType from sourceType {self.source.type}, specified resultType "
                f"is {self.result.type}"
            )
        expected = [
            DYNAMIC_INDEX if DYNAMIC_INDEX in (s, lo, hi) else s + lo + hi for s, lo, hi in zip(source, low, high)
        ]
        if len(result) != len(expected) or any(
            r != e and e != DYNAMIC_INDEX for r, e in zip(result, expected)
        ):
            raise VerifyException(
                f"specified type '{self.result.type}' does not match the inferred type "
                f"{_show(expected, self.source.type.get_element_type())}"  # type: ignore[attr-defined]
            )
        block = self.region.block
        if len(block.args) != len(result):
            raise VerifyException(f"expected the block to have {len(result)} arguments")
        for index, arg in enumerate(block.args):
            if not isinstance(arg.type, IndexType):
                raise VerifyException(f"expected block argument {index + 1} to be an index")
        terminator = block.last_op
        if isinstance(terminator, xt.YieldOp) and [v.type for v in terminator.arguments] != [element]:
            raise VerifyException("expected yield type to match shape element type")


# ----------------------------------------------------------------------------- unranked
@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """`tensor.reshape %t(%shape) : (T, tensor<Nxi32>) -> U`: row-major reshape to `shape`.

    Either side may be unranked (`tensor<*xf32>`); MLIR's checks: same element type,
    same element count when both shapes are static, and a shape operand as long as a
    ranked result's rank.
    """

    name = "tensor.reshape"
    source = operand_def(AnyTensor)
    shape = operand_def(TensorType)
    result = result_def(AnyTensor)
    assembly_format = (
        "$source `(` $shape `)` attr-dict `:` `(` type($source) `,` type($shape) `)` `->` type($result)"
    )
    traits = traits_def(Pure())

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        if source.get_element_type() != result.get_element_type():  # type: ignore[attr-defined]
            raise VerifyException(
                "element types of source and destination tensor types should be the same"
            )
        if not isinstance(result, TensorType):
            return
        (length,) = _shape(self.shape.type)
        if isinstance(source, TensorType) and DYNAMIC_INDEX not in (*_shape(source), *_shape(result)):
            if prod(_shape(source)) != prod(_shape(result)):
                raise VerifyException("source and destination tensor should have the same number of elements")
        if length == DYNAMIC_INDEX:
            raise VerifyException(
                "cannot use shape operand with dynamic length to reshape to statically-ranked tensor type"
            )
        if length != len(_shape(result)):
            raise VerifyException("length of shape operand differs from the result's tensor rank")


@irdl_op_definition
class CastOp(IRDLOperation):
    """`tensor.cast %t : T to U`: the same tensor seen with more or less static shape."""

    name = "tensor.cast"
    source = operand_def(AnyTensor)
    dest = result_def(AnyTensor)
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, b = self.source.type, self.dest.type
        if a.get_element_type() != b.get_element_type():  # type: ignore[attr-defined]
            raise VerifyException(f"operand type {a} and result type {b} are cast incompatible")
        if isinstance(a, TensorType) and isinstance(b, TensorType):
            sa, sb = _shape(a), _shape(b)
            if len(sa) != len(sb) or any(x != y and DYNAMIC_INDEX not in (x, y) for x, y in zip(sa, sb)):
                raise VerifyException(f"operand type {a} and result type {b} are cast incompatible")


@irdl_op_definition
class RankOp(IRDLOperation):
    """`tensor.rank %t : T`: the rank, as an index."""

    name = "tensor.rank"
    tensor = operand_def(AnyTensor)
    rank = result_def(IndexType)
    assembly_format = "$tensor attr-dict `:` type($tensor)"
    traits = traits_def(Pure())


@irdl_op_definition
class BitcastOp(IRDLOperation):
    """`tensor.bitcast %t : T to U`: the same bits as another element type of one width."""

    name = "tensor.bitcast"
    source = operand_def(TensorType)
    dest = result_def(TensorType)
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"
    traits = traits_def(Pure())

    def verify_(self) -> None:
        a, b = self.source.type, self.dest.type
        for which, type_ in (("operand", a), ("result", b)):
            if not isinstance(element_type(type_), IntegerType | AnyFloat):
                raise VerifyException(
                    f"{which} #0 must be tensor of signless integer or unsigned integer or signed integer "
                    f"or floating-point values, but got '{type_}'"
                )
        width = lambda t: t.get_element_type().bitwidth  # noqa: E731
        if _shape(a) != _shape(b) or width(a) != width(b):
            raise VerifyException(f"operand type {a} and result type {b} are cast incompatible")


# ----------------------------------------------------------------------------- generate
@irdl_op_definition
class GenerateOp(IRDLOperation):
    """`tensor.generate %d... { ^bb0(%i: index, ...): tensor.yield %v : T } : tensor<...>`:
    element `[i, ...]` is the body's value at that index."""

    name = "tensor.generate"
    dynamic_extents = var_operand_def(IndexType)
    body = region_def("single_block")
    result = result_def(TensorType)
    traits = traits_def(RecursiveMemoryEffect(), SingleBlockImplicitTerminator(xt.YieldOp))

    def verify_(self) -> None:
        verify_dynamic_count(self.result.type, self.dynamic_extents)
        block = self.body.block
        rank = len(_shape(self.result.type))
        if not all(isinstance(a.type, IndexType) for a in block.args):
            raise VerifyException("all body arguments must be index")
        if len(block.args) != rank:
            raise VerifyException("must have one body argument per input dimension")
        yield_op = block.last_op
        element = self.result.type.get_element_type()
        if not isinstance(yield_op, xt.YieldOp) or [v.type for v in yield_op.arguments] != [element]:
            raise VerifyException(
                "body must be terminated with a `yield` operation of the tensor element type"
            )

    @classmethod
    def parse(cls, parser: Parser) -> GenerateOp:
        pos = parser.pos
        names = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        ) or []
        extents = parser.resolve_operands(names, [IndexType()] * len(names), pos)
        body = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result = parser.parse_type()
        return cls.build(operands=[extents], result_types=[result], regions=[body], attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.dynamic_extents:
            printer.print_string(" ")
            printer.print_list(self.dynamic_extents, printer.print_ssa_value)
        printer.print_string(" ")
        printer.print_region(self.body)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


# ----------------------------------------------------------------------------- gather / scatter
def verify_gather_dims(dims: Sequence[int], indices: Sequence[int], rank: int, what: str, of: str) -> None:
    """MLIR's `verifyGatherOrScatterDims`."""
    if not dims:
        raise VerifyException(f"{what}_dims must be non-empty")
    if len(dims) > rank:
        raise VerifyException(f"{what}_dims overflow {of} rank")
    if not indices or indices[-1] != len(dims):
        raise VerifyException(f"{what}_dims length must match the size of last dimension of indices")
    for d in dims:
        if d < 0:
            raise VerifyException(f"{what}_dims value must be non-negative")
        if d >= rank:
            raise VerifyException(f"{what}_dims value must be smaller than {of} rank")
    if any(a >= b for a, b in zip(dims, dims[1:])):
        raise VerifyException(f"{what}_dims values must be strictly increasing")


def gathered_shape(source: Sequence[int], indices: Sequence[int], dims: Sequence[int], reduced: bool) -> list[int]:
    """MLIR's `GatherOp::inferResultType`: batch dims of the indices, then the source
    with the gathered dims set to 1 (or dropped when rank-reduced)."""
    shape = list(indices[:-1])
    for i, size in enumerate(source):
        if i in dims:
            if not reduced:
                shape.append(1)
        else:
            shape.append(size)
    return shape


class _IndexedAccess(IRDLOperation):
    """Shared syntax of gather and scatter: `dims([...])` and an optional `unique`."""

    DIMS_KEYWORD: ClassVar[str]

    @classmethod
    def parse_dims(cls, parser: Parser) -> tuple[DenseArrayBase, UnitAttr | None]:
        parser.parse_keyword(cls.DIMS_KEYWORD)
        parser.parse_punctuation("(")
        values = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
        parser.parse_punctuation(")")
        unique = UnitAttr() if parser.parse_optional_keyword("unique") else None
        return DenseArrayBase.from_list(i64, values), unique

    def print_dims(self, printer: Printer, dims: DenseArrayBase, unique: UnitAttr | None) -> None:
        printer.print_string(f" {self.DIMS_KEYWORD}([{', '.join(str(v) for v in _values(dims))}])")
        if unique is not None:
            printer.print_string(" unique")


@irdl_op_definition
class GatherOp(_IndexedAccess):
    """`tensor.gather %src[%idx] gather_dims([...]) [unique] : (T, I) -> R`.

    `R[b..., rest...] = src[...]` where the gathered dims of `src` take the coordinates
    in `idx[b..., :]` and the other dims run over the rest of `R`.
    """

    name = "tensor.gather"
    DIMS_KEYWORD: ClassVar[str] = "gather_dims"
    source = operand_def(TensorType)
    indices = operand_def(TensorType)
    gather_dims = prop_def(DenseArrayBase.constr(i64))
    unique = opt_prop_def(UnitAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        dims, source, indices = _values(self.gather_dims), _shape(self.source.type), _shape(self.indices.type)
        verify_gather_dims(dims, indices, len(source), "gather", "source")
        element = self.source.type.get_element_type()  # type: ignore[attr-defined]
        full = gathered_shape(source, indices, dims, reduced=False)
        reduced = gathered_shape(source, indices, dims, reduced=True)
        actual = _shape(self.result.type)
        if self.result.type.get_element_type() != element or list(actual) not in (full, reduced):
            raise VerifyException(
                f"result type mismatch: expected {_show(full, element)} or its rank-reduced variant "
                f"{_show(reduced, element)} (got: '{self.result.type}')"
            )

    @classmethod
    def parse(cls, parser: Parser) -> GatherOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        indices = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        dims, unique = cls.parse_dims(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        parser.parse_punctuation("(")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result = parser.parse_type()
        if len(types) != 2:
            parser.raise_error("expected (source type, indices type)", pos)
        operands = parser.resolve_operands([source, indices], types, pos)
        props: dict[str, Attribute] = {"gather_dims": dims}
        if unique is not None:
            props["unique"] = unique
        return cls.build(operands=operands, result_types=[result], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_string("[")
        printer.print_ssa_value(self.indices)
        printer.print_string("]")
        self.print_dims(printer, self.gather_dims, self.unique)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : ({self.source.type}, {self.indices.type}) -> {self.result.type}")


@irdl_op_definition
class ScatterOp(_IndexedAccess):
    """`tensor.scatter %src into %dest[%idx] scatter_dims([...]) unique : (S, T, I) -> T`:
    `dest` with the slices of `src` written where `gather` would read them."""

    name = "tensor.scatter"
    DIMS_KEYWORD: ClassVar[str] = "scatter_dims"
    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    indices = operand_def(TensorType)
    scatter_dims = prop_def(DenseArrayBase.constr(i64))
    unique = opt_prop_def(UnitAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        dims, dest, indices = _values(self.scatter_dims), _shape(self.dest.type), _shape(self.indices.type)
        verify_gather_dims(dims, indices, len(dest), "scatter", "dest")
        if self.unique is None:
            raise VerifyException("requires 'unique' attribute to be set")
        element = self.dest.type.get_element_type()  # type: ignore[attr-defined]
        full = gathered_shape(dest, indices, dims, reduced=False)
        reduced = gathered_shape(dest, indices, dims, reduced=True)
        if list(_shape(self.source.type)) not in (full, reduced):
            raise VerifyException(
                f"source type mismatch: expected {_show(full, element)} or its rank-reduced variant "
                f"{_show(reduced, element)} (got: '{self.source.type}')"
            )
        if self.result.type != self.dest.type:
            raise VerifyException("expected result type to match the dest type")

    @classmethod
    def parse(cls, parser: Parser) -> ScatterOp:
        source = parser.parse_unresolved_operand()
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        indices = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        dims, unique = cls.parse_dims(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        parser.parse_punctuation("(")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result = parser.parse_type()
        if len(types) != 3:
            parser.raise_error("expected (source type, dest type, indices type)", pos)
        operands = parser.resolve_operands([source, dest, indices], types, pos)
        props: dict[str, Attribute] = {"scatter_dims": dims}
        if unique is not None:
            props["unique"] = unique
        return cls.build(operands=operands, result_types=[result], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_string(" into ")
        printer.print_ssa_value(self.dest)
        printer.print_string("[")
        printer.print_ssa_value(self.indices)
        printer.print_string("]")
        self.print_dims(printer, self.scatter_dims, self.unique)
        printer.print_op_attributes(self.attributes)
        printer.print_string(
            f" : ({self.source.type}, {self.dest.type}, {self.indices.type}) -> {self.result.type}"
        )


Tensor = Dialect(
    "tensor",
    [
        BitcastOp,
        CastOp,
        CollapseShapeOp,
        xt.ConcatOp,
        xt.DimOp,
        EmptyOp,
        ExpandShapeOp,
        ExtractOp,
        ExtractSliceOp,
        FromElementsOp,
        GatherOp,
        GenerateOp,
        InsertOp,
        InsertSliceOp,
        PadOp,
        RankOp,
        ReshapeOp,
        ScatterOp,
        xt.SplatOp,
        xt.YieldOp,
    ],
    [],
)
