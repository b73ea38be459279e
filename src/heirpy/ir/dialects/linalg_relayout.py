"""linalg's relayout ops, `linalg.pack` and `linalg.unpack`, with MLIR's form and verifiers.

`pack` tiles a rank-n tensor into a rank-(n + k) one: each dim listed in
`inner_dims_pos` is split into (outer, tile), the outer dims may be permuted by
`outer_dims_perm`, and the k tiles become the innermost dims. A partial last tile is
filled with `padding_value`. `unpack` is the inverse (the padding is dropped):

    %p = linalg.pack %src padding_value(%zero : f32) outer_dims_perm = [1, 0]
           inner_dims_pos = [0, 1] inner_tiles = [8, %t] into %dst
           : tensor<13x15xf32> -> tensor<?x2x8x?xf32>
    %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %out
           : tensor<2x8x8x2xf32> -> tensor<13x15xf32>

Both are destination-style: on tensors they return a new value of the dest's type (and
are side-effect free), on memrefs they write the dest. The verifier is MLIR's
(`commonVerifierPackAndUnPackOp` and `PackOp::verify`), with its messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils import parse_dynamic_index_list_without_types, print_dynamic_index_list
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    Operand,
    VarOperand,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from heirpy.ir.dialects.linalg_core import TENSOR_OR_MEMREF
from heirpy.ir.dialects.linalg_structured import PURE_ON_TENSORS, print_sorted_attr_dict

_OWN_PROPERTIES = frozenset({"static_inner_tiles", "inner_dims_pos", "outer_dims_perm", "operandSegmentSizes"})


# ----------------------------------------------------------------------------- pure helpers
def _is_dynamic(size: int) -> bool:
    return size < 0


def invalid_position_list(positions: Sequence[int], rank: int) -> bool:
    """MLIR's `isInvalidPackingPosSpecification`: more entries than the rank, a
    duplicate, or an entry out of [0, rank)."""
    return len(positions) > rank or len(set(positions)) != len(positions) or any(
        not 0 <= p < rank for p in positions
    )


def packed_shape(
    unpacked: Sequence[int], tiles: Sequence[int], inner_dims_pos: Sequence[int], outer_dims_perm: Sequence[int]
) -> list[int]:
    """MLIR's `PackOp::inferPackedShape`: each tiled dim becomes ceil(size / tile) (dynamic
    when either is), the outer dims permuted, then the tiles appended. Negative = dynamic."""
    shape = list(unpacked)
    for tile, dim in zip(tiles, inner_dims_pos):
        if _is_dynamic(shape[dim]):
            continue
        shape[dim] = DYNAMIC_INDEX if _is_dynamic(tile) else -(-shape[dim] // tile)
    if outer_dims_perm:
        shape = [shape[p] for p in outer_dims_perm]
    return shape + list(tiles)


def needs_padding(
    source: Sequence[int],
    inner_dims_pos: Sequence[int],
    dest: Sequence[int],
    outer_dims_perm: Sequence[int],
    tiles: Sequence[int],
) -> bool:
    """MLIR's `PackOp::requirePaddingValue`: some static tiled dim is not a whole number of
    its tile (for a dynamic tile, of the dest's outer size)."""
    outer = list(dest[: len(source)])
    if outer_dims_perm:
        inverse = [0] * len(outer_dims_perm)
        for position, dim in enumerate(outer_dims_perm):
            inverse[dim] = position
        outer = [outer[inverse[d]] for d in range(len(outer))]
    for dim, tile in zip(inner_dims_pos, tiles):
        if _is_dynamic(source[dim]):
            continue
        if _is_dynamic(tile):
            if not _is_dynamic(outer[dim]) and outer[dim] != 0 and source[dim] % outer[dim] != 0:
                return True
        elif source[dim] % tile != 0:
            return True
    return False


def _compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(x == y or _is_dynamic(x) or _is_dynamic(y) for x, y in zip(a, b))


def _show_type(like: Attribute, shape: Sequence[int]) -> str:
    """`'tensor<2x8xf32>'` (or memref) of `shape`, as MLIR's diagnostics quote a type."""
    assert isinstance(like, TensorType | MemRefType)
    dims = "".join(f"{'?' if _is_dynamic(d) else d}x" for d in shape)
    kind = "memref" if isinstance(like, MemRefType) else "tensor"
    return f"'{kind}<{dims}{like.get_element_type()}>'"


# ----------------------------------------------------------------------------- the ops
class _RelayoutOp(IRDLOperation):
    """What `pack` and `unpack` share: operands, properties, verifier, custom form."""

    if TYPE_CHECKING:  # declared by each op (IRDL reads fields per class); typed for the shared code
        source: Operand
        dest: Operand
        inner_tiles: VarOperand
        outer_dims_perm: DenseArrayBase[IntegerType] | None
        inner_dims_pos: DenseArrayBase[IntegerType]
        static_inner_tiles: DenseArrayBase[IntegerType]

    IS_PACK: ClassVar[bool] = False

    # --- accessors
    def outer_perm(self) -> tuple[int, ...]:
        return () if self.outer_dims_perm is None else tuple(self.outer_dims_perm.get_values())

    def dims_pos(self) -> tuple[int, ...]:
        return tuple(self.inner_dims_pos.get_values())

    def static_tiles(self) -> tuple[int, ...]:
        """The tile sizes, a dynamic one (an SSA operand) negative."""
        return tuple(self.static_inner_tiles.get_values())

    def packed_and_unpacked(self) -> tuple[SSAValue, SSAValue]:
        return (self.dest, self.source) if self.IS_PACK else (self.source, self.dest)

    # --- verifier
    def verify_(self) -> None:
        self._verify_semantics()
        tiles = self.static_tiles()
        if tiles.count(DYNAMIC_INDEX) != len(self.inner_tiles):
            raise VerifyException(
                f"expected {tiles.count(DYNAMIC_INDEX)} dynamic inner tile operand(s), got {len(self.inner_tiles)}"
            )
        if any(t == 0 for t in tiles):
            raise VerifyException("invalid zero tile factor")
        packed_value, unpacked_value = self.packed_and_unpacked()
        packed_type, unpacked_type = packed_value.type, unpacked_value.type
        assert isinstance(packed_type, ShapedType) and isinstance(unpacked_type, ShapedType)
        unpacked, packed = tuple(unpacked_type.get_shape()), tuple(packed_type.get_shape())
        self._verify_positions(len(unpacked), len(packed), tiles)
        _verify_tile_sizes(packed[len(packed) - len(tiles) :], tiles)
        expected = packed_shape(unpacked, tiles, self.dims_pos(), self.outer_perm())
        if not _compatible(expected, packed):
            raise VerifyException(
                f"expected {_show_type(packed_type, expected)} for the packed domain value, got "
                f"{_show_type(packed_type, packed)}"
            )
        self.verify_pack_extras(unpacked, packed)

    def _verify_semantics(self) -> None:
        """Both operands tensors (one result, the dest's type) or both memrefs (none)."""
        source_type, dest_type = self.source.type, self.dest.type
        on_tensors = isinstance(source_type, TensorType) and isinstance(dest_type, TensorType)
        on_memrefs = isinstance(source_type, MemRefType) and isinstance(dest_type, MemRefType)
        if not (on_tensors or on_memrefs):
            raise VerifyException("mixing tensor and buffer semantics is not allowed")
        results = len(self.results)
        if on_tensors and results != 1:
            raise VerifyException(f"expected 1 result, got {results}")
        if on_memrefs and results != 0:
            raise VerifyException(f"expected 0 results, got {results}")
        if on_tensors and self.results[0].type != dest_type:
            raise VerifyException("failed to verify that result type matches type of dest")

    def _verify_positions(self, unpacked_rank: int, packed_rank: int, tiles: Sequence[int]) -> None:
        """inner_dims_pos and outer_dims_perm name distinct dims in range; one tile per tiled dim."""
        dims_pos, outer_perm = self.dims_pos(), self.outer_perm()
        if invalid_position_list(dims_pos, unpacked_rank):
            raise VerifyException("invalid inner_dims_pos vector")
        if invalid_position_list(outer_perm, unpacked_rank):
            raise VerifyException("invalid outer_dims_perm vector")
        if outer_perm and len(outer_perm) != unpacked_rank:
            raise VerifyException("outer_dims_perm must be a permutation or empty")
        if len(tiles) > unpacked_rank:
            raise VerifyException(
                "tiling factors must be less than or equal to the input rank for pack or output rank for unpack"
            )
        if len(tiles) != len(dims_pos):
            raise VerifyException("tiling factors must equal the number of dimensions to tile")
        if packed_rank != unpacked_rank + len(tiles):
            raise VerifyException(
                f"packed rank != (unpacked rank + num tiling factors), got {packed_rank} != "
                f"{unpacked_rank + len(tiles)}"
            )

    def verify_pack_extras(self, unpacked: Sequence[int], packed: Sequence[int]) -> None:
        """What only `pack` checks (its padding)."""

    # --- custom form
    @classmethod
    def parse_layout(cls, parser: Parser) -> _ParsedLayout:
        """`[outer_dims_perm = [..]] inner_dims_pos = [..] inner_tiles = [..] into %dest
        {attrs} : S -> D`, what follows the source (and pack's padding_value)."""
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("outer_dims_perm"):
            properties["outer_dims_perm"] = _parse_i64_list(parser)
        parser.parse_keyword("inner_dims_pos")
        properties["inner_dims_pos"] = _parse_i64_list(parser)
        parser.parse_keyword("inner_tiles")
        parser.parse_punctuation("=")
        tile_names, static_tiles = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        properties["static_inner_tiles"] = DenseArrayBase.from_list(i64, list(static_tiles))
        parser.parse_keyword("into")
        dest_name = parser.parse_unresolved_operand()
        attributes = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        if not parser.parse_optional_punctuation("->"):
            parser.raise_error("pack/unpack requires '->' and destination type")
        dest = parser.resolve_operand(dest_name, parser.parse_type())
        tiles = [parser.resolve_operand(name, IndexType()) for name in tile_names]
        return _ParsedLayout(properties, attributes, tiles, source_type, dest)

    def print_layout(self, printer: Printer) -> None:
        if self.outer_dims_perm is not None and self.outer_perm():
            printer.print_string(f" outer_dims_perm = [{', '.join(map(str, self.outer_perm()))}]")
        printer.print_string(f" inner_dims_pos = [{', '.join(map(str, self.dims_pos()))}]")
        printer.print_string(" inner_tiles = ")
        print_dynamic_index_list(printer, DYNAMIC_INDEX, self.inner_tiles, self.static_tiles())
        printer.print_string(" into ")
        printer.print_ssa_value(self.dest)
        print_sorted_attr_dict(printer, {k: v for k, v in self.attributes.items() if k not in _OWN_PROPERTIES})
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dest.type)


def _verify_tile_sizes(inner_sizes: Sequence[int], tiles: Sequence[int]) -> None:
    """The packed type's innermost sizes are the static tiles (dynamic where a tile is)."""
    for index, (size, tile) in enumerate(zip(inner_sizes, tiles)):
        if not _is_dynamic(tile) and size != tile:
            # MLIR prints a dynamic size as its int64 sentinel here.
            raise VerifyException(
                "mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type at "
                f"index {index}: got {size if not _is_dynamic(size) else -(2**63)} != {tile}"
            )
        if _is_dynamic(tile) and not _is_dynamic(size):
            raise VerifyException(
                f"mismatch in inner tile sizes specified at index {index}: got static shape {size} but "
                "dynamic tile size"
            )


@dataclass
class _ParsedLayout:
    """The custom form after the source: properties, discardable attributes, dynamic
    tiles, the source's type (the source is resolved by the caller) and the dest."""

    properties: dict[str, Attribute]
    attributes: dict[str, Attribute]
    tiles: Sequence[SSAValue]
    source_type: Attribute
    dest: SSAValue


def _parse_i64_list(parser: Parser) -> DenseArrayBase:
    """`= [1, 2]`."""
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)
    return DenseArrayBase.from_list(i64, values)


@irdl_op_definition
class PackOp(_RelayoutOp):
    """`linalg.pack`: the source tiled into the dest's layout (see the module docstring)."""

    name = "linalg.pack"
    source = operand_def(TENSOR_OR_MEMREF)
    dest = operand_def(TENSOR_OR_MEMREF)
    padding_value = opt_operand_def()
    inner_tiles = var_operand_def(IndexType)
    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))
    result = opt_result_def(TensorType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = PURE_ON_TENSORS

    IS_PACK: ClassVar[bool] = True

    def verify_pack_extras(self, unpacked: Sequence[int], packed: Sequence[int]) -> None:
        source_type = self.source.type
        assert isinstance(source_type, TensorType | MemRefType)
        element = source_type.get_element_type()
        if self.padding_value is not None and self.padding_value.type != element:
            raise VerifyException(f"expected padding_value has '{element}' but got: '{self.padding_value.type}'")
        if self.padding_value is None and needs_padding(
            unpacked, self.dims_pos(), packed, self.outer_perm(), self.static_tiles()
        ):
            raise VerifyException(
                "invalid tile factor or output size provided. Only full tiles are supported when "
                "padding_value is not set"
            )

    @classmethod
    def parse(cls, parser: Parser) -> PackOp:
        source_name = parser.parse_unresolved_operand()
        padding: list[SSAValue] = []
        if parser.parse_optional_keyword("padding_value"):
            parser.parse_punctuation("(")
            padding_name = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            padding = [parser.resolve_operand(padding_name, parser.parse_type())]
            parser.parse_punctuation(")")
        layout = cls.parse_layout(parser)
        source = parser.resolve_operand(source_name, layout.source_type)
        segments = _segments(1, 1, len(padding), len(layout.tiles))
        return cls.create(
            operands=[source, layout.dest, *padding, *layout.tiles],
            result_types=_result_types(layout.dest),
            properties=_sorted({**layout.properties, "operandSegmentSizes": segments}),
            attributes=layout.attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        if self.padding_value is not None:
            printer.print_string(" padding_value(")
            printer.print_ssa_value(self.padding_value)
            printer.print_string(" : ")
            printer.print_attribute(self.padding_value.type)
            printer.print_string(")")
        self.print_layout(printer)


@irdl_op_definition
class UnPackOp(_RelayoutOp):
    """`linalg.unpack`: the packed source back in the dest's layout (padding dropped)."""

    name = "linalg.unpack"
    source = operand_def(TENSOR_OR_MEMREF)
    dest = operand_def(TENSOR_OR_MEMREF)
    inner_tiles = var_operand_def(IndexType)
    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))
    result = opt_result_def(TensorType)
    traits = PURE_ON_TENSORS

    @classmethod
    def parse(cls, parser: Parser) -> UnPackOp:
        source_name = parser.parse_unresolved_operand()
        layout = cls.parse_layout(parser)
        source = parser.resolve_operand(source_name, layout.source_type)
        return cls.create(
            operands=[source, layout.dest, *layout.tiles],
            result_types=_result_types(layout.dest),
            properties=_sorted(layout.properties),
            attributes=layout.attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        self.print_layout(printer)


def _result_types(dest: SSAValue) -> list[Attribute]:
    """One result of the dest's type on tensors, none on memrefs."""
    return [dest.type] if isinstance(dest.type, TensorType) else []


def _sorted(properties: dict[str, Attribute]) -> dict[str, Attribute]:
    """By name: the order MLIR's generic form prints properties in."""
    return dict(sorted(properties.items()))


def _segments(*sizes: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, list(sizes))


RELAYOUT_OPS: tuple[type[IRDLOperation], ...] = (PackOp, UnPackOp)
