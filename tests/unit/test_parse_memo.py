"""The parser reads a repeated one-line spelling once (`LocatingParser._once_per_spelling`):
types, dictionary attributes and op attribute dictionaries. What it builds must be what
reading each spelling anew builds, and every op keeps a dictionary of its own."""

from __future__ import annotations

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr
from xdsl.parser import Parser

from heirpy.api import parse, print_module
from heirpy.ir.context import make_context

GENERICS = """#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> (0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel"]} ins(%0 : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%1 : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
"""


def test_repeated_spellings_read_as_xdsl_reads_each() -> None:
    memoised = parse(GENERICS)
    plain = Parser(make_context(), GENERICS).parse_module()
    assert print_module(memoised) == print_module(plain)
    maps = [op.indexing_maps for op in memoised.walk() if op.name == "linalg.generic"]
    assert maps[0] == maps[2] != maps[1]  # the second spelling differs in one map


def test_each_op_keeps_a_dictionary_of_its_own() -> None:
    text = '"test.op"() {a = 1 : i64, b = "x"} : () -> ()\n' * 2
    first, second = list(parse(text).body.ops)
    assert first.attributes == second.attributes
    first.attributes["a"] = IntegerAttr(2, 64)
    assert second.attributes["a"] == IntegerAttr(1, 64)


def test_a_dictionary_over_lines_reads_as_itself() -> None:
    text = (
        '"test.op"() {d = {k = 1 : i64}} : () -> ()\n'
        '"test.op"() {d = {k = // note\n 2 : i64}} : () -> ()\n'
        '"test.op"() {d = {k = 1 : i64}} : () -> ()\n'
    )
    values = [op.attributes["d"] for op in parse(text).body.ops]
    assert all(isinstance(value, DictionaryAttr) for value in values)
    assert [value.data["k"] for value in values] == [IntegerAttr(1, 64), IntegerAttr(2, 64), IntegerAttr(1, 64)]
