"""The printer behind every piece of IR heirpy writes for users: xDSL's, with MLIR's own
spelling of op names, affine maps and the resource trailer.

MLIR drops an op's dialect prefix when the op sits in a region whose *default dialect*
is that dialect: the top level defaults to `builtin`, so a module prints as `module {`;
`func.func` makes `func` the default of its body, so `func.return` prints as `return`
and `func.call` as `call`. Regions of every other op have no default dialect, so the
ops in a `linalg.generic` body or an `scf.for` keep their prefixes (`linalg.yield`,
`scf.yield`, even `func.call`). A prefix is only dropped when the rest of the name has
no dot, so the short name cannot be read as another dialect's op. Generic-form ops
(quoted names) always keep their full names, as in MLIR.

xDSL's parser resolves short names against every enclosing op's dialect, which is a
superset of MLIR's rule, so what this printer writes parses in heirpy as in MLIR.

Attribute and property dictionaries print sorted by name, as MLIR stores them; array
elements that are i64 integers or f64 floats print without their type (`[[0, 1], [2]]`),
as MLIR elides it there. Float literals are spelled as MLIR's AsmPrinter spells them
(`mlir_float_text`: its 6-digit `%e` form when that reads back exactly, else LLVM
APFloat's own shortest-safe form such as `1.1920929E-7`, else the bits in hex); an
integer memory space prints without its type (`memref<4xf32, 1>`); the results of one
op print as one group (`%0:2`, used as `%0#1`) unless the input named them apart; and a
function declaration without results prints without `-> ()`. Affine
maps print with MLIR's brackets and subtractions (`d1 * 3 + d4`, `d0 - 1`, `-d0`)
rather than xDSL's fully bracketed `((d1 * 3) + d4)`, and the `dense_resource` blobs in the
`{-# dialect_resources #-}` trailer one a line in order of first use, as MLIR writes them.

Aliases, as MLIR's AsmPrinter makes them: printing an op that has no parent (a module)
starts with one line per affine map, integer set or tuple type of more than 16 elements
that the op's text uses (`#map = affine_map<(d0, d1) -> (d0)>`, `#set = ...`,
`!tuple = ...`), and the text refers to them by name (`indexing_maps = [#map, #map1]`).
Like MLIR, heirpy finds them by printing the op once into nothing and noting each one
it meets, so a map a custom form leaves out (affine.load's, a constant loop bound) gets
none. Names are numbered in order of first use (`#map`, `#map1`, ...; a name ending in a
digit takes `_1`); the lines are sorted by nesting depth, then types before attributes,
then name. In the generic form MLIR meets an op's regions before its own types and
attributes, so a map inside a body is numbered before the op's own. An op printed inside
another one (not at the top) prints its maps inline, as MLIR's local scope does;
`print_local_scope=True` (MLIR's `--mlir-print-local-scope`) prints every map inline.
MLIR also aliases locations (`#loc`), which heirpy does not track to the column: its
`--print-debuginfo` locations stay inline.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from io import StringIO
from typing import NamedTuple

from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StringAttr,
    TensorType,
    TupleType,
    UnregisteredOp,
    VectorType,
    f64,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.utils.format import print_func_op_like
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, Region, TypeAttribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator

from heirpy.ir.float_text import mlir_float_text

__all__ = [
    "DEFAULT_DIALECTS",
    "MLIRPrinter",
    "format_affine_expr",
    "format_affine_map",
    "mlir_alias_name",
    "mlir_float_text",
    "short_op_name",
]

_MAX_DECIMAL_ELEMENTS = 100
"""A dense literal longer than this prints in hex (xDSL's rule, and MLIR's default)."""

TOP_LEVEL_DIALECT = "builtin"
"""The default dialect outside any op: what makes the top-level module print as `module`."""

DEFAULT_DIALECTS: Mapping[str, str] = {
    "builtin.module": "builtin",
    "func.func": "func",
}
"""Ops whose regions have a default dialect (MLIR's `OpAsmOpInterface::getDefaultDialect`)
among the dialects heirpy parses. Regions of any other op have none."""


def short_op_name(name: str, default_dialect: str) -> str:
    """`name` as MLIR prints a custom-form op in a region whose default dialect is
    `default_dialect` (empty for none): `func.return` in `func` is `return`, but
    `func.return` in `builtin` and `test.a.b` in `test` keep their prefixes."""
    prefix = f"{default_dialect}."
    if default_dialect and name.startswith(prefix) and name.count(".") == 1:
        return name[len(prefix) :]
    return name


def mlir_alias_name(attribute: Attribute) -> str | None:
    """The alias name MLIR gives `attribute` when it prints it at the top (`map` for an
    affine map, `set` for an integer set, `tuple` for a tuple type of more than 16
    elements: builtin's OpAsm interfaces), or None when MLIR prints it inline. No other
    dialect heirpy parses has aliases in HEIR's and MLIR's linalg/tensor pipelines."""
    if isinstance(attribute, AffineMapAttr):
        return "map"
    if isinstance(attribute, AffineSetAttr):
        return "set"
    if isinstance(attribute, TupleType) and len(attribute.types) > 16:
        return "tuple"
    return None


class _Alias(NamedTuple):
    text: str
    """`#map1`, `!tuple`: what the op's text writes in the attribute's place."""
    sort_key: tuple[int, bool, str]
    """MLIR's order of the alias lines: depth, types first, name (sorted stably)."""


def _number_aliases(found: Mapping[Attribute, tuple[str, int]]) -> dict[Attribute, _Alias]:
    """MLIR's `AliasInitializer::initializeAliases`: sort stably by (depth, types
    first, name), then number each name in that order (`map`, `map1`, ...; a name
    ending in a digit gets `_1`), probing past names already taken."""
    entries = sorted(
        found.items(),
        key=lambda item: (item[1][1], not isinstance(item[0], TypeAttribute), item[1][0]),
    )
    used: set[str] = set()
    counts: dict[str, int] = {}
    aliases: dict[Attribute, _Alias] = {}
    for attribute, (name, depth) in entries:
        if name not in used:
            used.add(name)
            unique = name
        else:
            probe = name + "_" if name[-1].isdigit() else name
            counts.setdefault(probe, 1)
            while True:
                index = counts[probe]
                counts[probe] += 1
                unique = f"{probe}{index}"
                if unique not in used:
                    used.add(unique)
                    break
        sigil = "!" if isinstance(attribute, TypeAttribute) else "#"
        is_type = isinstance(attribute, TypeAttribute)
        aliases[attribute] = _Alias(sigil + unique, (depth, not is_type, name))
    return aliases


def format_affine_map(affine_map: AffineMap) -> str:
    """`affine_map`'s body as MLIR prints it: `(d0, d1)[s0] -> (d0 + s0 * 2, -d1)`.

    xDSL brackets every binary expression (`((d1 * 3) + d4)`); MLIR brackets a sum only
    inside a product, quotient or remainder, and spells a negated term or constant as a
    subtraction (`d0 - d1`, `d0 - 3`, `-d0`)."""
    dims = ", ".join(f"d{i}" for i in range(affine_map.num_dims))
    symbols = ", ".join(f"s{i}" for i in range(affine_map.num_symbols))
    results = ", ".join(format_affine_expr(expr) for expr in affine_map.results)
    return f"({dims})" + (f"[{symbols}]" if symbols else "") + f" -> ({results})"


def format_affine_expr(expr: AffineExpr, *, operand_of_product: bool = False) -> str:
    """One affine expression in MLIR's spelling; `operand_of_product` says it is an
    operand of `*`, `floordiv`, `ceildiv` or `mod`, where any binary expression needs
    brackets."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return str(expr)  # d0, s0, 3
    if expr.kind is AffineBinaryOpKind.Add:
        text = _format_sum(expr.lhs, expr.rhs)
    elif expr.kind is AffineBinaryOpKind.Mul and _constant(expr.rhs) == -1:
        text = "-" + format_affine_expr(expr.lhs, operand_of_product=True)
    else:
        lhs = format_affine_expr(expr.lhs, operand_of_product=True)
        rhs = format_affine_expr(expr.rhs, operand_of_product=True)
        text = f"{lhs} {expr.kind.get_token()} {rhs}"
    return f"({text})" if operand_of_product else text


def _format_sum(lhs: AffineExpr, rhs: AffineExpr) -> str:
    first = format_affine_expr(lhs)
    if isinstance(rhs, AffineBinaryOpExpr) and rhs.kind is AffineBinaryOpKind.Mul:
        factor = _constant(rhs.rhs)
        if factor == -1:  # a + b * -1 is a - b; a sum b keeps its brackets
            bracket = isinstance(rhs.lhs, AffineBinaryOpExpr) and rhs.lhs.kind is AffineBinaryOpKind.Add
            return f"{first} - {format_affine_expr(rhs.lhs, operand_of_product=bracket)}"
        if factor is not None and factor < -1:  # a + b * -k is a - b * k
            return f"{first} - {format_affine_expr(rhs.lhs, operand_of_product=True)} * {-factor}"
    constant = _constant(rhs)
    if constant is not None and constant < 0:
        return f"{first} - {-constant}"
    # MLIR prints a sum on the right without brackets too, but then `a + (b + c)` would
    # read back as `(a + b) + c`: keep the tree heirpy built.
    nested_sum = isinstance(rhs, AffineBinaryOpExpr) and rhs.kind is AffineBinaryOpKind.Add
    return f"{first} + {format_affine_expr(rhs, operand_of_product=nested_sum)}"


def _constant(expr: AffineExpr) -> int | None:
    return expr.value if isinstance(expr, AffineConstantExpr) else None


@dataclass(eq=False, repr=False)
class MLIRPrinter(Printer):
    """xDSL's printer with MLIR's op-name spelling (see the module docstring)."""

    _default_dialects: list[str] = field(
        default_factory=lambda: [TOP_LEVEL_DIALECT], init=False
    )
    _resources_in_use_order: dict[str, dict[str, None]] = field(
        default_factory=dict[str, dict[str, None]], init=False
    )
    print_local_scope: bool = field(default=False)
    """MLIR's `--mlir-print-local-scope`: no alias lines, every map printed inline."""
    _aliases: dict[Attribute, _Alias] | None = field(default=None, init=False)
    """The aliases of the top-level op being printed; None outside one."""
    _type_texts: dict[int, tuple[Attribute, str]] = field(
        default_factory=dict[int, tuple[Attribute, str]], init=False
    )
    """The text of each plain tensor or vector type printed, by the type object (the
    entry keeps the object, so its id stays its own)."""

    def _print_results(self, op: Operation) -> None:
        # MLIR names the results of a multi-result op as one group, `%0:2 = ...`, used
        # as `%0#0` and `%0#1`; xDSL names each (`%0, %1 = ...`). A group is printed
        # when the results share one name (none, or the `%r` of an input `%r:2`);
        # results with names of their own (`%values, %indices = ...`) keep them.
        results = op.results
        hints = {r.name_hint for r in results}
        if len(results) > 1 and len(hints) == 1 and not any(r in self._ssa_values for r in results):
            (hint,) = hints
            if hint is None:
                group = self._get_new_valid_name_id()
            else:
                taken = self.ssa_names.get(hint, 0)
                group = f"{hint}_{taken}" if taken else hint
                self.ssa_names[hint] = taken + 1
            for index, result in enumerate(results):
                self._ssa_values[result] = f"{group}#{index}"
            self.print_string(f"%{group}:{len(results)} = ")
            return
        super()._print_results(op)

    def print_float(self, value: float, type: AnyFloat) -> None:
        if isinstance(type, (Float16Type, BFloat16Type, Float32Type, Float64Type)):
            self.print_string(mlir_float_text(value, type))
        else:
            super().print_float(value, type)

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        # MLIR keeps every attribute and property dictionary sorted by name (an op's
        # `{dilations = ..., strides = ...}`, a function's `<{function_type, sym_name}>`);
        # xDSL prints them in insertion order.
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, TensorType | VectorType) and _plain_shaped(attribute):
            self._print_type_once(attribute)
            return
        if (
            self._aliases
            and isinstance(attribute, (AffineMapAttr, AffineSetAttr, TupleType))
            and (alias := self._aliases.get(attribute)) is not None
        ):
            self.print_string(alias.text)
            return
        self._print_attribute_body(attribute)

    def _print_type_once(self, type_: Attribute) -> None:
        """Print a tensor or vector type of a plain element type, building its text once
        per type object: the parser gives each spelling one object, and a network prints
        a few dozen types thousands of times (xDSL prints each dimension anew). Such a
        type's text depends on nothing but itself (it holds no alias)."""
        known = self._type_texts.get(id(type_))
        if known is not None:
            self.print_string(known[1])
            return
        stream, self.stream = self.stream, StringIO()
        try:
            self._print_attribute_body(type_)  # moves the column on, as printing does
            text = self.stream.getvalue()
        finally:
            self.stream = stream
        self._type_texts[id(type_)] = (type_, text)
        stream.write(text)  # type: ignore[union-attr]

    def _print_attribute_body(self, attribute: Attribute) -> None:
        if (
            isinstance(attribute, MemRefType)
            and isinstance(attribute.layout, AffineMapAttr)
            and attribute.layout.data == AffineMap.identity(attribute.get_num_dims())
        ):
            # MLIR's memref type holds no identity layout: `memref<4xf32>`.
            attribute = MemRefType(
                attribute.element_type, attribute.shape, NoneAttr(), attribute.memory_space
            )
        if (
            isinstance(attribute, MemRefType)
            and isinstance(attribute.memory_space, IntegerAttr)
            and attribute.memory_space.type == i64
        ):
            self._print_memref_in_integer_space(attribute)
            return
        if isinstance(attribute, AffineMapAttr):
            self.print_string(f"affine_map<{format_affine_map(attribute.data)}>")
            return
        if isinstance(attribute, ArrayAttr):
            with self.in_square_brackets():
                self.print_list(attribute.data, self._print_array_element)
            return
        if isinstance(attribute, DenseIntOrFPElementsAttr) and self._print_long_dense(attribute):
            return
        super().print_attribute(attribute)

    def _print_long_dense(self, attribute: DenseIntOrFPElementsAttr) -> bool:
        """Print a dense literal of more than 100 elements that is not a splat, as xDSL
        does (its bytes in hex), and return True; False, printing nothing, for any other.

        xDSL decides that it is not a splat by unpacking every element into a Python
        number (a whole network's weights: 270k of them); numpy compares the same values
        (NaN unequal to itself, -0.0 equal to 0.0, as Python's `==` has them)."""
        element = attribute.get_element_type()
        if not isinstance(element, IntegerType | IndexType | Float16Type | BFloat16Type | Float32Type | Float64Type):
            return False
        data = attribute.data.data
        count = len(attribute)
        if count <= _MAX_DECIMAL_ELEMENTS or count * element.compile_time_size != len(data):
            return False
        # bf16 has no struct format (xDSL's is f16's): numpy tells its splats
        size = element.compile_time_size
        splat = None if isinstance(element, BFloat16Type) else _splat_by_bytes(data, size, element.format)
        if splat is None:
            # here: printing most modules (and every CLI's start) needs no numpy
            import numpy as np

            if isinstance(element, BFloat16Type):  # a bf16 is the top half of an f32
                values = (np.frombuffer(data, dtype="<u2").astype("<u4") << 16).view("<f4")
            else:
                values = np.frombuffer(data, dtype=np.dtype(element.format))
            splat = bool(np.all(values == values[0]))
        if splat:
            return False  # a splat prints its one element
        self.print_string(f'dense<"0x{data.hex().upper()}"> : ')
        self.print_attribute(attribute.get_type())
        return True

    def _print_declaration_without_results(self, op: FuncOp) -> None:
        # MLIR writes `func.func private @f(index)`, as it writes a definition with no
        # results; xDSL writes a declaration's whole function type, `(index) -> ()`.
        if op.sym_visibility:
            self.print_string(f" {op.sym_visibility.data}")
        print_func_op_like(
            self,
            op.sym_name,
            op.function_type,
            op.body,
            op.attributes,
            arg_attrs=op.arg_attrs,
            res_attrs=op.res_attrs,
            reserved_attr_names=("sym_name", "function_type", "sym_visibility", "arg_attrs"),
            print_empty_outputs=False,
        )

    def _print_memref_in_integer_space(self, memref: MemRefType) -> None:
        # MLIR elides the i64 of an integer memory space, `memref<4xf32, 1>`, where
        # xDSL writes `memref<4xf32, 1 : i64>` (both read back the same).
        self.print_string("memref<")
        if memref.get_shape():
            self.print_dimension_list(memref.get_shape())
            self.print_string("x")
        self.print_attribute(memref.element_type)
        if not isinstance(memref.layout, NoneAttr):
            self.print_string(", ")
            self.print_attribute(memref.layout)
        assert isinstance(memref.memory_space, IntegerAttr)
        self.print_string(f", {memref.memory_space.value.data}>")

    def _print_array_element(self, element: Attribute) -> None:
        # MLIR elides the type of an array element that is an i64 integer or an f64
        # float, the types its parser gives an untyped literal: a reassociation prints
        # `[[0, 1], [2]]` and reads back the same (xDSL writes `[[0 : i64, 1 : i64], ...]`).
        # Outside arrays (`{axis = 0 : i64}`) the type stays, as in MLIR.
        if (isinstance(element, IntegerAttr) and element.type == i64) or (
            isinstance(element, FloatAttr) and element.type == f64
        ):
            element.print_without_type(self)
        else:
            self.print_attribute(element)

    def print_resource_handle(self, dialect: str, handle: str) -> None:
        self._resources_in_use_order.setdefault(dialect, {})[handle] = None
        super().print_resource_handle(dialect, handle)

    def print_metadata(self, dialects: Iterable[Dialect]) -> None:
        """The `{-# dialect_resources: ... #-}` trailer as MLIR writes it: one blob a line,
        in the order the IR first refers to them (xDSL's puts every blob of a dialect on
        one line, sorted by name).

        Each blob goes to the stream as it is, in pieces: a network's blobs are most of
        its text (70 MB of hex in YOLOv5s), and joining them into one string to print,
        as xDSL does, copied it several times over (0.5 s and 150 MB)."""
        interfaces = {
            dialect.name: interface
            for dialect in dialects
            if (interface := dialect.get_interface(OpAsmDialectInterface)) is not None
        }
        sections: list[tuple[str, dict[str, str]]] = []
        for dialect, handles in self._resources_in_use_order.items():
            interface = interfaces.get(dialect)
            blobs = interface.build_resources(handles) if interface is not None else {}
            if blobs:
                sections.append((dialect, blobs))
        if not sections:
            return
        # The trailer as pieces of text, each blob one piece of its own (hex: no newline).
        pieces = ["\n\n{-#\n  dialect_resources: {\n"]
        newlines = 4
        for index, (dialect, blobs) in enumerate(sections):
            pieces.append(f"{SECTION_SEPARATOR if index else ''}    {dialect}: {{\n")
            newlines += 1 + bool(index)
            for position, (key, blob) in enumerate(blobs.items()):
                pieces += [f'{SECTION_SEPARATOR if position else ""}      {key}: "', blob, '"']
                newlines += bool(position)
            pieces.append("\n    }")
            newlines += 1
        pieces.append("\n  }\n#-}")
        newlines += 2
        if self._next_line_callback:  # a diagnostic waits for the next line: xDSL's way
            self.print_string("".join(pieces), indent=0)
            return
        # What print_string(text, indent=0) does with the joined text, without joining.
        write = self.stream.write  # type: ignore[union-attr]
        for piece in pieces:
            write(piece)
        self._current_line += newlines
        self._current_column = 3  # after `#-}`

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = True,
        print_block_terminators: bool = True,
    ) -> None:
        parent = region.parent_op()
        self._default_dialects.append(
            DEFAULT_DIALECTS.get(parent.name, "") if parent is not None else ""
        )
        try:
            super().print_region(
                region, print_entry_block_args, print_empty_block, print_block_terminators
            )
        finally:
            self._default_dialects.pop()

    def print_op(self, op: Operation) -> None:
        if self._aliases is not None or self.print_local_scope or op.parent is not None:
            self._print_op(op)
            return
        # A top-level op, as MLIR's `printTopLevel`: its alias lines, then the op.
        self._aliases = _AliasCollector.collect(op, self)
        try:
            for attribute, alias in sorted(self._aliases.items(), key=lambda a: a[1].sort_key):
                self.print_string(f"{alias.text} = ")
                self._print_attribute_body(attribute)
                self._print_new_line(indent=0)
            self._print_op(op)
        finally:
            self._aliases = None

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        # xDSL's, whose common case (no newline) writes through `print(..., end="")`,
        # a tenth of the time to print a network; the same text goes to the stream.
        if "\n" in text:
            super().print_string(text, indent=indent)
            return
        self._current_column += len(text)
        self.stream.write(text)  # type: ignore[union-attr]

    def _print_op(self, op: Operation) -> None:
        # xDSL's print_op with one change: the name of a custom-form op goes through
        # `short_op_name`. xDSL has no hook for the name alone, so the rest of its
        # steps (result names, scopes, diagnostics, debug locations) are repeated here.
        isolated = bool(op.get_traits_of_type(IsolatedFromAbove))
        begin_op_pos = self._current_column
        self._print_results(op)
        if isolated:
            self.enter_scope()
        custom = not (
            isinstance(op, UnregisteredOp)
            or self.print_generic_format
            or Operation.print is type(op).print
        )
        if isinstance(op, UnregisteredOp):
            self.print_string(f'"{op.op_name.data}"')
        elif custom:
            self.print_string(short_op_name(op.name, self._default_dialects[-1]))
        else:
            self.print_string(f'"{op.name}"')
        end_op_pos = self._current_column
        for message in self.diagnostic.op_messages.get(op, ()):
            self._add_message_on_next_line(message, begin_op_pos, end_op_pos)
        if isinstance(op, UnregisteredOp):
            op_name = op.op_name
            del op.attributes["op_name__"]
            self.print_op_with_default_format(op)
            op.attributes["op_name__"] = op_name
        elif custom:
            if isinstance(op, FuncOp) and not op.body.blocks and not op.function_type.outputs.data:
                self._print_declaration_without_results(op)
            else:
                op.print(self)
            if self.print_debuginfo:
                self.print_string(" ")
                self.print_attribute(op.location)
        else:
            self.print_op_with_default_format(op)
        if isolated:
            self.exit_scope()


SECTION_SEPARATOR = ",\n"

_PLAIN_ELEMENTS = (Float16Type, Float32Type, Float64Type, BFloat16Type, IntegerType, IndexType)


def _plain_shaped(type_: TensorType | VectorType) -> bool:
    """A tensor type without encoding, or a vector type, of a plain element type:
    nothing in its text can be an alias. (Exactly these classes: a subclass may print
    itself otherwise.)"""
    if type(type_) not in (TensorType, VectorType):
        return False
    encoding = getattr(type_, "encoding", None)
    return isinstance(type_.element_type, _PLAIN_ELEMENTS) and (
        encoding is None or isinstance(encoding, NoneAttr)
    )


def _splat_by_bytes(data: bytes, size: int, format: str) -> bool | None:
    """Whether the elements of `data` (`size` bytes each, struct `format`) are all equal
    as numbers, as numpy's `values == values[0]` has it, or None where the bytes alone
    cannot tell (elements equal as numbers but not as bytes: 0.0 and -0.0).

    Importing numpy to ask was a tenth of the CPU of `heirpy-opt` on a network whose
    weights are resources but which holds a few splats of more than 100 elements."""
    first = data[:size]
    if format[-1] not in "efd":
        return data == first * (len(data) // size)  # integers: equal values, equal bytes
    (value,) = struct.unpack(format, first)
    if data[size : 2 * size] != first:
        (second,) = struct.unpack_from(format, data, size)
        return None if value == second else False  # NaN is unequal to itself
    if data == first * (len(data) // size):
        return value == value  # all the same bits: equal unless they are a NaN
    return None

_PLAIN_PRINTED_DIALECTS = frozenset({"arith", "math", "tensor", "linalg", "func", "cf"})
"""Dialects whose ops print (custom form or generic) their own attributes, properties,
operand and result types and nothing else that could have an alias."""


def _nested_attributes(attribute: Attribute) -> tuple[Attribute, ...]:
    """The attributes `attribute` is made of: its parameters, array elements or
    dictionary values. Anything else it holds (numbers, strings, bytes) has no alias."""
    if isinstance(attribute, ParametrizedAttribute):
        return tuple(attribute.parameters)
    if isinstance(attribute, ArrayAttr):
        return tuple(attribute.data)
    if isinstance(attribute, DictionaryAttr):
        return tuple(attribute.data.values())
    return ()


class _NullStream(StringIO):
    """Where the collecting pass writes: nowhere."""

    def write(self, s: str, /) -> int:
        return len(s)


@dataclass(eq=False, repr=False)
class _AliasCollector(MLIRPrinter):
    """MLIR's `DummyAliasOperationPrinter`: prints an op into nothing and notes, in
    order of first use, each attribute or type that has an alias and the depth of
    aliases nested in it."""

    _found: dict[Attribute, tuple[str, int]] = field(
        default_factory=dict[Attribute, tuple[str, int]], init=False
    )
    _child_depths: list[int] = field(default_factory=lambda: [0], init=False)
    _holds_alias: dict[Attribute, bool] = field(
        default_factory=dict[Attribute, bool], init=False
    )

    @classmethod
    def collect(cls, op: Operation, printer: MLIRPrinter) -> dict[Attribute, _Alias]:
        collector = cls(
            stream=_NullStream(),
            print_generic_format=printer.print_generic_format,
            print_properties_as_attributes=printer.print_properties_as_attributes,
            print_debuginfo=printer.print_debuginfo,
        )
        collector._aliases = {}  # collecting, not at the top: no recursion
        collector._print_op(op)
        return _number_aliases(collector._found)

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if "\n" in text:
            super().print_string(text, indent=indent)
        else:
            self._current_column += len(text)  # into nothing

    def _print_op(self, op: Operation) -> None:
        # An op without regions whose attributes and types hold nothing with an alias
        # has nothing to note: most ops of a network (the printer, not this pass, makes
        # their text). Only ops of dialects whose printers print the op's own
        # attributes and types, and no others, are passed over.
        if (
            not op.regions
            and op.dialect_name() in _PLAIN_PRINTED_DIALECTS
            and not isinstance(op, UnregisteredOp)
            and not any(self._may_alias(a) for a in op.attributes.values())
            and not any(self._may_alias(a) for a in op.properties.values())
            and not any(self._may_alias(operand.type) for operand in op.operands)
            and not any(self._may_alias(t) for t in op.result_types)
        ):
            return
        super()._print_op(op)

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = True,
        print_block_terminators: bool = True,
    ) -> None:
        # What printing the region would visit, in its order, without its text (block
        # labels, value names, lines): the types of the block arguments it prints and
        # its ops. A linalg.generic's body was most of the time to collect a network's
        # aliases. With locations printed (`--mlir-print-debuginfo`) the printer's way.
        if self.print_debuginfo:
            super().print_region(
                region, print_entry_block_args, print_empty_block, print_block_terminators
            )
            return
        for index, block in enumerate(region.blocks):
            if block not in self._blocks:
                self._populate_block_name(block, index)  # successors name them
        for block in region.blocks:
            if print_entry_block_args or block is not region.blocks.first:
                for argument in block.args:
                    self.print_attribute(argument.type)
            for op in block.ops:
                if print_block_terminators or not op.has_trait(
                    IsTerminator, value_if_unregistered=False
                ):
                    self.print_op(op)

    def _may_alias(self, attribute: Attribute) -> bool:
        """Whether `attribute` has an alias or holds one (memoised: types repeat)."""
        known = self._holds_alias.get(attribute)
        if known is None:
            known = self._holds_alias[attribute] = mlir_alias_name(attribute) is not None or any(
                self._may_alias(a) for a in _nested_attributes(attribute)
            )
        return known

    def print_attribute(self, attribute: Attribute) -> None:
        if not self._may_alias(attribute):
            return  # nothing to note in it (most types of a network): do not print it
        name = mlir_alias_name(attribute)
        if name is not None and (seen := self._found.get(attribute)) is not None:
            self._child_depths[-1] = max(self._child_depths[-1], seen[1])
            return
        if name is not None:
            self._found[attribute] = (name, 1)  # first use fixes the order
        self._child_depths.append(0)
        self._visit_nested(attribute)
        nested = self._child_depths.pop()
        depth = nested + 1 if nested else (1 if name is not None else 0)
        if name is not None:
            self._found[attribute] = (name, depth)
        self._child_depths[-1] = max(self._child_depths[-1], depth)

    def _visit_nested(self, attribute: Attribute) -> None:
        # What MLIR's DummyAliasDialectAsmPrinter looks into: nothing inside a map, a
        # set, a number, a string or a dense array; only the type of an elements
        # attribute (its values would be slow to print and hold no alias).
        if isinstance(
            attribute,
            (AffineMapAttr, AffineSetAttr, IntegerAttr, FloatAttr, StringAttr, DenseArrayBase),
        ):
            return
        if isinstance(attribute, (DenseIntOrFPElementsAttr, DenseResourceAttr)):
            self.print_attribute(attribute.get_type())
            return
        self._print_attribute_body(attribute)

    def print_op_with_default_format(self, op: Operation) -> None:
        # MLIR's dummy printer meets a generic-form op's regions first, then its operand
        # and result types, then its attributes and properties by name.
        for region in op.regions:
            self.print_region(region)
        for operand in op.operands:
            self.print_attribute(operand.type)
        for result_type in op.result_types:
            self.print_attribute(result_type)
        for _, value in sorted((op.attributes | op.properties).items()):
            self.print_attribute(value)
