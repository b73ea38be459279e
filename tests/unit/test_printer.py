"""heirpy's printer spells op names, affine maps and resource blobs as MLIR's tools do
(tests/filecheck/printer has the IR-level cases of the op-name rule)."""

from __future__ import annotations

import contextlib
import math
import random
import re
import subprocess
from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, Float16Type, Float32Type, Float64Type, f16, f32, f64
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

import heirpy
from heirpy.ir.printer import (
    MLIRPrinter,
    _number_aliases,
    format_affine_expr,
    format_affine_map,
    mlir_float_text,
    short_op_name,
)


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


_TWO_RESULTS = """
func.func @f(%a: tensor<4x8xf32>, %i: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  RESULTS = linalg.reduce ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%i, %i : tensor<4xf32>, tensor<4xf32>) dimensions = [1]
      (%x: f32, %y: f32, %o1: f32, %o2: f32) {
        %s = arith.addf %x, %o1 : f32
        %m = arith.maximumf %y, %o2 : f32
        linalg.yield %s, %m : f32, f32
      }
  return USES : tensor<4xf32>, tensor<4xf32>
}
"""


def _two_results(results: str, uses: str) -> str:
    return _TWO_RESULTS.replace("RESULTS", results).replace("USES", uses)


def test_results_of_one_op_print_as_mlir_groups_them() -> None:
    # Unnamed results (and a group named in the input) print as one group, `%0:2`,
    # used as `%0#1`, as MLIR prints them; custom and generic form both re-parse.
    for results, group in (("%0:2", "%0"), ("%r:2", "%r")):
        text = _two_results(results, f"{results[:-2]}#1, {results[:-2]}#0")
        printed = heirpy.print_module(heirpy.parse(text))
        assert f"    {group}:2 = linalg.reduce ins(" in printed
        assert f"    return {group}#1, {group}#0 :" in printed
        assert heirpy.print_module(heirpy.parse(printed)) == printed
        generic = heirpy.print_module(heirpy.parse(text), generic=True)
        assert f'{group}:2 = "linalg.reduce"' in generic
        assert heirpy.print_module(heirpy.parse(generic)) == printed
    # Results with names of their own keep them.
    printed = heirpy.print_module(heirpy.parse(_two_results("%sum, %max", "%max, %sum")))
    assert "    %sum, %max = linalg.reduce ins(" in printed
    assert "    return %max, %sum :" in printed


@pytest.mark.parametrize(
    ("value", "type_", "mlir"),
    [  # as heir-opt (LLVM 24) prints each value
        (1.5, f32, "1.500000e+00"),
        (-0.0, f32, "-0.000000e+00"),
        (2.0**-23, f32, "1.1920929E-7"),  # %e with 6 digits would not read back
        (797.676574707031, f32, "797.676574"),  # APFloat truncates before it rounds
        (0.0999755859375, f16, "9.997550e-02"),
        (620.43, f64, "620.42999999999995"),
        (16777216.0, f32, "0x4B800000"),  # no decimal point in APFloat's form: hex
        (float("-inf"), f32, "0xFF800000"),
        (float("nan"), f16, "0x7E00"),
    ],
)
def test_floats_print_as_mlir_spells_them(value: float, type_: AnyFloat, mlir: str) -> None:
    assert isinstance(type_, (Float16Type, Float32Type, Float64Type))
    stored = type_.unpack(type_.pack([value]), 1)[0]
    assert mlir_float_text(stored, type_) == mlir


def test_random_floats_print_as_heir_opt_prints_them() -> None:
    rng = random.Random(7)
    cases: list[tuple[float, str]] = []
    for _ in range(300):
        magnitude = rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30)
        for value in (magnitude, round(rng.uniform(-1000, 1000), rng.randint(0, 6))):
            for type_, name in ((f16, "f16"), (f32, "f32"), (f64, "f64")):
                with contextlib.suppress(OverflowError):
                    stored = type_.unpack(type_.pack([value]), 1)[0]
                    if math.isfinite(stored):
                        cases.append((stored, name))
    body = "\n".join(f"  %c{i} = arith.constant {v:.16e} : {t}" for i, (v, t) in enumerate(cases))
    types = ", ".join(t for _, t in cases)
    values = ", ".join(f"%c{i}" for i in range(len(cases)))
    text = f"func.func @f() -> ({types}) {{\n{body}\n  return {values} : {types}\n}}\n"
    mlir = subprocess.run(["heir-opt"], input=text, capture_output=True, text=True, check=True).stdout
    ours = heirpy.print_module(heirpy.parse(text))

    def literals(printed: str) -> list[str]:
        return re.findall(r"arith\.constant (\S+) :", printed)

    assert len(literals(ours)) == len(cases)
    assert literals(ours) == literals(mlir)


def test_an_integer_memory_space_prints_without_its_type() -> None:
    # As MLIR prints it (`memref<..., 1>`, not `1 : i64`); other spaces are unchanged.
    signature = (
        '%a: memref<1x24xf32, 1>, %b: memref<f32, 3>, '
        '%c: memref<?x4xf32, strided<[4, 1], offset: ?>, 2>, %d: memref<4xf32, "gpu">'
    )
    text = "func.func @f(" + signature + ") {\n  return\n}\n"
    printed = heirpy.print_module(heirpy.parse(text))
    assert "func.func @f(" + signature + ")" in printed
    assert heirpy.print_module(heirpy.parse(printed)) == printed


def test_a_declaration_without_results_prints_no_arrow() -> None:
    # MLIR: `func.func private @f(index)`; results, when there are any, keep theirs.
    text = "func.func private @use(index, index) attributes {note}\nfunc.func private @get(index) -> index\n"
    printed = heirpy.print_module(heirpy.parse(text))
    assert "\n  func.func private @use(index, index) attributes {note}\n" in printed
    assert "\n  func.func private @get(index) -> index\n" in printed
    assert heirpy.print_module(heirpy.parse(printed)) == printed


def test_an_empty_from_elements_keeps_mlirs_two_spaces() -> None:
    text = (
        "func.func @f(%a: f32) -> (tensor<0xf32>, tensor<1xf32>) {\n"
        "  %e = tensor.from_elements : tensor<0xf32>\n  %o = tensor.from_elements %a : tensor<1xf32>\n"
        "  return %e, %o : tensor<0xf32>, tensor<1xf32>\n}\n"
    )
    printed = heirpy.print_module(heirpy.parse(text))
    assert "%e = tensor.from_elements  : tensor<0xf32>\n" in printed  # as mlir-opt writes it
    assert "%o = tensor.from_elements %a : tensor<1xf32>\n" in printed
    assert heirpy.print_module(heirpy.parse(printed)) == printed


def _add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return AffineBinaryOpExpr(AffineBinaryOpKind.Add, lhs, rhs)


def _mul(lhs: AffineExpr, factor: int) -> AffineExpr:
    return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, lhs, AffineConstantExpr(factor))


D0, D1, S0 = AffineDimExpr(0), AffineDimExpr(1), AffineSymExpr(0)


def test_affine_expressions_in_mlir_spelling() -> None:
    floordiv = AffineBinaryOpExpr(AffineBinaryOpKind.FloorDiv, _add(D0, D1), AffineConstantExpr(2))
    cases = {
        _add(_mul(D1, 3), D0): "d1 * 3 + d0",
        _add(D0, _mul(D1, -1)): "d0 - d1",
        _mul(D0, -1): "-d0",
        _add(D0, AffineConstantExpr(-3)): "d0 - 3",
        _add(D0, _mul(D1, -2)): "d0 - d1 * 2",
        _add(D0, _mul(_add(D1, S0), -1)): "d0 - (d1 + s0)",
        _mul(_add(D0, D1), 4): "(d0 + d1) * 4",
        floordiv: "(d0 + d1) floordiv 2",
        _add(floordiv, D1): "(d0 + d1) floordiv 2 + d1",
        # A sum on the right keeps its brackets, so it reads back as the same tree.
        _add(D0, _add(D1, S0)): "d0 + (d1 + s0)",
    }
    for expr, text in cases.items():
        assert format_affine_expr(expr) == text
    assert format_affine_map(AffineMap(2, 1, (D0, _add(D1, S0)))) == "(d0, d1)[s0] -> (d0, d1 + s0)"
    assert format_affine_map(AffineMap(0, 0, (AffineConstantExpr(0),))) == "() -> (0)"


def _random_expr(rng: random.Random, depth: int) -> AffineExpr:
    if depth == 0 or rng.random() < 0.3:
        leaf = rng.random()
        if leaf < 0.4:
            return AffineDimExpr(rng.randrange(3))
        if leaf < 0.6:
            return AffineSymExpr(rng.randrange(2))
        return AffineConstantExpr(rng.choice([-3, -1, 0, 2, 5]))
    kind = rng.choice(list(AffineBinaryOpKind))
    if kind is AffineBinaryOpKind.Add:
        return _add(_random_expr(rng, depth - 1), _random_expr(rng, depth - 1))
    factor = rng.choice([-3, -2, -1, 2, 4]) if kind is AffineBinaryOpKind.Mul else rng.choice([2, 3])
    return AffineBinaryOpExpr(kind, _random_expr(rng, depth - 1), AffineConstantExpr(factor))


def _random_maps(count: int) -> list[AffineMap]:
    rng = random.Random(14)
    return [AffineMap(3, 2, (_random_expr(rng, 4), _random_expr(rng, 3))) for _ in range(count)]


def test_affine_maps_read_back_as_the_same_tree() -> None:
    for amap in _random_maps(500):
        text = f"affine_map<{format_affine_map(amap)}>"
        reparsed = Parser(Context(), text).parse_attribute()
        bracketed = Parser(Context(), f"affine_map<{amap}>").parse_attribute()
        assert reparsed == bracketed, text  # xDSL's parser folds constants alike in both


def test_mlir_reads_affine_maps_as_xdsl_bracketed_them() -> None:
    """heir-opt prints each map in its own canonical form: both spellings give the same."""
    maps = _random_maps(200)

    def canonical(spellings: list[str]) -> str:
        attrs = ", ".join(f"t.m{i} = affine_map<{text}>" for i, text in enumerate(spellings))
        run = subprocess.run(
            ["heir-opt", "--mlir-print-local-scope"],
            input=f"module attributes {{{attrs}}} {{}}\n",
            capture_output=True,
            text=True,
            check=True,
        )
        return run.stdout

    assert canonical([format_affine_map(m) for m in maps]) == canonical([str(m) for m in maps])


def test_resource_blobs_one_a_line_in_order_of_use() -> None:
    text = """func.func @f() -> (tensor<2xf32>, tensor<1xf32>) {
  %b = arith.constant dense_resource<zeta> : tensor<2xf32>
  %a = arith.constant dense_resource<alpha> : tensor<1xf32>
  func.return %b, %a : tensor<2xf32>, tensor<1xf32>
}
{-#
  dialect_resources: {
    builtin: {
      alpha: "0x040000000000803F",
      zeta: "0x040000000000803F00000040"
    }
  }
#-}
"""
    printed = heirpy.print_module(heirpy.parse(text))
    assert printed.endswith(
        "\n{-#\n  dialect_resources: {\n    builtin: {\n"
        '      zeta: "0x040000000000803F00000040",\n'
        '      alpha: "0x040000000000803F"\n'
        "    }\n  }\n#-}"
    )
    again = heirpy.parse(printed)
    assert heirpy.print_module(again) == printed


def test_attribute_dictionaries_print_sorted_by_name() -> None:
    text = 'func.func @f() attributes {zeta = 1 : i64, alpha = "a"} {\n  func.return\n}\n'
    module = heirpy.parse(text)
    assert 'attributes {alpha = "a", zeta = 1 : i64}' in heirpy.print_module(module)
    generic = heirpy.print_module(module, generic=True)
    assert '<{function_type = () -> (), sym_name = "f"}>' in generic
    assert '{alpha = "a", zeta = 1 : i64}' in generic


_TWO_MAPS = """func.func @f(%x: tensor<3xf32>, %o: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3xf32>) outs(%o : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
"""


def test_affine_maps_print_as_aliases_ahead_of_the_module() -> None:
    module = heirpy.parse(_TWO_MAPS)
    printed = heirpy.print_module(module)
    assert printed.startswith(
        "#map = affine_map<(d0, d1) -> (d0)>\n#map1 = affine_map<(d0, d1) -> (d0, d1)>\nmodule {\n"
    )
    assert "indexing_maps = [#map, #map1]" in printed
    assert heirpy.print_module(heirpy.parse(printed)) == printed
    # Printing again starts afresh (the aliases belong to one top-level print).
    assert heirpy.print_module(module) == printed
    local = heirpy.print_module(module, local_scope=True)
    assert local.startswith("module {\n")
    assert "indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]" in local


def test_an_op_printed_inside_the_ir_keeps_its_maps_inline() -> None:
    # MLIR's local scope: only an op without a parent prints alias lines.
    module = heirpy.parse(_TWO_MAPS)
    func = module.body.block.first_op
    assert func is not None
    out = StringIO()
    MLIRPrinter(stream=out).print_op(func)
    assert out.getvalue().startswith("func.func @f(")
    assert "indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]" in out.getvalue()


def test_alias_numbering_follows_mlir() -> None:
    # Sorted stably by (depth, types first, name); a second use of a name is numbered,
    # with `_` after a name that ends in a digit, skipping names already taken.
    maps = [AffineMapAttr(AffineMap.constant_map(i)) for i in range(6)]
    found = {
        maps[0]: ("map", 1),
        maps[1]: ("x1", 1),
        maps[2]: ("map", 1),
        maps[3]: ("x1", 1),
        maps[4]: ("map", 2),
        maps[5]: ("map1", 1),
    }
    aliases = _number_aliases(found)
    assert {m.data.results[0]: aliases[m].text for m in maps} == {
        AffineConstantExpr(0): "#map",
        AffineConstantExpr(2): "#map1",
        AffineConstantExpr(5): "#map1_1",
        AffineConstantExpr(1): "#x1",
        AffineConstantExpr(3): "#x1_1",
        AffineConstantExpr(4): "#map2",
    }
    order = [aliases[m].text for m in sorted(maps, key=lambda m: aliases[m].sort_key)]
    assert order == ["#map", "#map1", "#map1_1", "#x1", "#x1_1", "#map2"]


def _printed(attribute: object, printer_type: type = MLIRPrinter) -> str:
    out = StringIO()
    printer_type(stream=out).print_attribute(attribute)
    return out.getvalue()


@pytest.mark.parametrize(
    ("values", "dtype", "element", "hex_form"),
    [
        ([0.5 * i for i in range(101)], "<f4", f32, True),  # 101 elements, not a splat
        ([1.5] * 100 + [1.5000001], "<f4", f32, True),
        ([0.0, -0.0] * 60, "<f4", f32, False),  # equal values: a splat, as xDSL has it
        ([math.nan] * 120, "<f2", f16, True),  # NaN is not equal to itself: not a splat
        ([2.0] * 101, "<f8", f64, False),
        (list(range(200)), "<i4", None, True),
        ([7] * 200, "<i8", None, False),
        # the bytes alone decide most (no numpy), the rest go to numpy:
        ([0.0] * 60 + [-0.0] * 60, "<f4", f32, False),  # equal as numbers, not as bytes
        ([math.nan] + [1.0] * 119, "<f4", f32, True),
        ([7] * 199 + [8], "<i2", None, True),
    ],
)
def test_long_dense_literals_print_as_xdsl_decides(
    values: list[float], dtype: str, element: AnyFloat | None, hex_form: bool
) -> None:
    import numpy as np
    from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, IntegerType, TensorType

    element_type = element if element is not None else IntegerType(8 * np.dtype(dtype).itemsize)
    data = np.asarray(values, dtype=dtype).tobytes()
    attr = DenseIntOrFPElementsAttr(TensorType(element_type, [len(values)]), BytesAttr(data))
    text = _printed(attr)
    assert text.startswith('dense<"0x') == hex_form
    if hex_form:  # xDSL's own printer writes the same
        assert text == _printed(attr, Printer)
        assert text == f'dense<"0x{data.hex().upper()}"> : {_printed(attr.get_type(), Printer)}'
