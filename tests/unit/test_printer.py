"""heirpy's printer spells op names as MLIR's tools do (tests/filecheck/printer has the
IR-level cases; these pin the naming rule itself)."""

from __future__ import annotations

import heirpy
from heirpy.ir.printer import short_op_name


def test_prefix_of_the_default_dialect_is_dropped() -> None:
    assert short_op_name("func.return", "func") == "return"
    assert short_op_name("builtin.module", "builtin") == "module"


def test_other_dialects_keep_their_prefix() -> None:
    assert short_op_name("func.return", "builtin") == "func.return"
    assert short_op_name("builtin.unrealized_conversion_cast", "func") == (
        "builtin.unrealized_conversion_cast"
    )
    # A region with no default dialect (a linalg.generic body) keeps every prefix.
    assert short_op_name("linalg.yield", "") == "linalg.yield"


def test_a_dotted_rest_keeps_the_prefix() -> None:
    # `b.c` alone would read as op `c` of dialect `b`.
    assert short_op_name("a.b.c", "a") == "a.b.c"
    # A dialect whose name merely starts like the default one is another dialect.
    assert short_op_name("funcx.op", "func") == "funcx.op"


def test_print_module_uses_mlir_names_and_reparses() -> None:
    text = "func.func @f(%x: i32) -> i32 {\n  func.return %x : i32\n}\n"
    printed = heirpy.print_module(heirpy.parse(text))
    assert printed.startswith("module {\n  func.func @f(")
    assert "\n    return %x : i32\n" in printed
    assert heirpy.print_module(heirpy.parse(printed)) == printed
    generic = heirpy.print_module(heirpy.parse(text), generic=True)
    assert '"func.return"(%x)' in generic
