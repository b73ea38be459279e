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
as MLIR elides it there. Affine
maps print with MLIR's brackets and subtractions (`d1 * 3 + d4`, `d0 - 1`, `-d0`)
rather than xDSL's fully bracketed `((d1 * 3) + d4)`, and the `dense_resource` blobs in the
`{-# dialect_resources #-}` trailer one a line in order of first use, as MLIR writes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    FloatAttr,
    IntegerAttr,
    UnregisteredOp,
    f64,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, Region
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove

__all__ = [
    "DEFAULT_DIALECTS",
    "MLIRPrinter",
    "format_affine_expr",
    "format_affine_map",
    "short_op_name",
]

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

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        # MLIR keeps every attribute and property dictionary sorted by name (an op's
        # `{dilations = ..., strides = ...}`, a function's `<{function_type, sym_name}>`);
        # xDSL prints them in insertion order.
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, AffineMapAttr):
            self.print_string(f"affine_map<{format_affine_map(attribute.data)}>")
            return
        if isinstance(attribute, ArrayAttr):
            with self.in_square_brackets():
                self.print_list(attribute.data, self._print_array_element)
            return
        super().print_attribute(attribute)

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
        one line, sorted by name)."""
        interfaces = {
            dialect.name: interface
            for dialect in dialects
            if (interface := dialect.get_interface(OpAsmDialectInterface)) is not None
        }
        sections: list[str] = []
        for dialect, handles in self._resources_in_use_order.items():
            interface = interfaces.get(dialect)
            blobs = interface.build_resources(handles) if interface is not None else {}
            if blobs:
                entries = ",\n".join(f'      {key}: "{blob}"' for key, blob in blobs.items())
                sections.append(f"    {dialect}: {{\n{entries}\n    }}")
        if sections:
            body = ",\n".join(sections)
            self.print_string(f"\n\n{{-#\n  dialect_resources: {{\n{body}\n  }}\n#-}}", indent=0)

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
            op.print(self)
            if self.print_debuginfo:
                self.print_string(" ")
                self.print_attribute(op.location)
        else:
            self.print_op_with_default_format(op)
        if isolated:
            self.exit_scope()
