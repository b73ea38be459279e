"""The printer behind every piece of IR heirpy writes for users: xDSL's, spelling op
names the way MLIR's own tools do.

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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation, Region
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove

__all__ = ["DEFAULT_DIALECTS", "MLIRPrinter", "short_op_name"]

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


@dataclass(eq=False, repr=False)
class MLIRPrinter(Printer):
    """xDSL's printer with MLIR's op-name spelling (see the module docstring)."""

    _default_dialects: list[str] = field(
        default_factory=lambda: [TOP_LEVEL_DIALECT], init=False
    )

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
