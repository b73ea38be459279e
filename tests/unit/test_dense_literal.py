"""heirpy's parser reads decimal dense literals and static shaped types on quick paths
(heirpy.ir.dense_literal, LocatingParser): they must build exactly what xDSL's parser
builds, and leave everything else, errors included, to xDSL."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from heirpy.api import parse
from heirpy.ir.context import make_context
from heirpy.ir.dense_literal import canonical_skeleton, read_decimal_list
from heirpy.ir.diagnostics import HeirpyError, LocatingParser

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: not a package

from conftest import budget  # noqa: E402  (tests/conftest.py: the hypothesis profiles)


def _both(text: str) -> tuple[Attribute | str, Attribute | str]:
    """`text` read as an attribute by xDSL's parser and by heirpy's: the attribute, or
    the error (a value out of an element type's range is an OverflowError in both)."""
    results: list[Attribute | str] = []
    for parser_type in (Parser, LocatingParser):
        parser = parser_type(make_context(), text, "x")
        try:
            results.append(parser.parse_attribute())
        except ParseError as err:
            results.append(f"{err.span.start}: {err.msg}")
        except OverflowError as err:
            results.append(f"OverflowError: {err}")
    return results[0], results[1]


def test_reads_nested_decimal_list() -> None:
    assert read_decimal_list("[[[0.5]], [[-2]], [[3.5e-3]]]") == ([0.5, -2.0, 0.0035], (3, 1, 1))
    assert read_decimal_list("[[1, 2],\n [3, 4], [5, 6]]") == ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (3, 2))


def test_integer_minus_zero_is_positive_zero_as_in_xdsl() -> None:
    values, _ = read_decimal_list("[-0, -0.0]") or ([], ())
    assert [math.copysign(1, v) for v in values] == [1.0, -1.0]


@pytest.mark.parametrize(
    "text",
    ["[]", "[[1, 2], [3]]", "[[1], 2]", "[- 1.0]", "[1e5]", "[1.5e]", "[0x3F800000]",
     "[true]", "[(1, 2)]", "[1 2]", "[1.0 // comment\n]", "[+1.0]"],
)
def test_leaves_other_literals_to_xdsl(text: str) -> None:
    assert read_decimal_list(text) is None


def test_canonical_skeleton() -> None:
    assert canonical_skeleton((2, 3)) == "[[x,x,x],[x,x,x]]"
    assert canonical_skeleton((1,)) == "[x]"


@pytest.mark.parametrize(
    "text",
    [
        "dense<[[[0.07]], [[-0.12]]]> : tensor<2x1x1xf32>",
        "dense<[1, -0, 2.5, 1.]> : tensor<4xf16>",
        "dense<[1.0, 2.0]> : tensor<2xf64>",
        "dense<[1, 2, 3]> : tensor<3xi32>",  # integers: xDSL's path
        "dense<[0x7FC00000, 1.0]> : tensor<2xf32>",  # a bit pattern: heirpy's rule
        "dense<[1.0, 2.0]> : tensor<3xf32>",  # shape mismatch: xDSL's error
        "dense<[[1.0, 2.0], [3.0]]> : tensor<2x2xf32>",  # ragged: xDSL's error
        "dense<[1.0, 2.0]> : tensor<2xbf16>",
        "dense<[1.0e39]> : tensor<1xf64>",
        "dense<[1.0e39]> : tensor<1xf32>",  # beyond f32
        "dense<[65520]> : tensor<1xf16>",  # beyond f16
        "dense<[1.0, 2.0]>",  # no type: xDSL's error
    ],
)
def test_same_attribute_or_error_as_xdsl(text: str) -> None:
    xdsl, heirpy = _both(text)
    if "0x7FC00000" in text:  # xDSL reads the bit pattern as a number; heirpy as MLIR does
        assert isinstance(heirpy, DenseIntOrFPElementsAttr) and math.isnan(heirpy.get_values()[0])
        return
    assert heirpy == xdsl


_FLOAT_TEXT = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda f: f"{f:.9e}"),
    st.floats(allow_nan=False, allow_infinity=False).map(repr).filter(lambda t: "e" not in t or "." in t),
)


@settings(max_examples=budget(60))
@given(st.lists(st.integers(1, 3), min_size=1, max_size=3), st.data(), st.sampled_from(["f16", "f32", "f64"]))
def test_random_literals_read_as_xdsl_reads_them(shape: list[int], data: st.DataObject, element: str) -> None:
    values = data.draw(st.lists(_FLOAT_TEXT, min_size=math.prod(shape), max_size=math.prod(shape)))
    items = iter(values)

    def nest(dims: list[int]) -> str:
        if not dims:
            return next(items)
        return "[" + ", ".join(nest(dims[1:]) for _ in range(dims[0])) + "]"

    text = f"dense<{nest(shape)}> : tensor<{'x'.join(map(str, shape))}x{element}>"
    xdsl, heirpy = _both(text)
    assert heirpy == xdsl, text


def test_static_types_are_shared_and_equal_to_xdsls() -> None:
    module = parse(
        "func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
        "  %0 = arith.addf %a, %b : tensor<2x3xf32>\n"
        "  return %0 : tensor<2x3xf32>\n}\n"
    )
    func = next(iter(module.ops))
    a, b = func.body.blocks[0].args
    assert a.type == TensorType(Parser(make_context(), "f32").parse_type(), [2, 3])
    assert a.type is b.type


def test_type_errors_after_a_quick_literal_come_from_the_parser() -> None:
    with pytest.raises(HeirpyError, match="static shape"):
        parse("%0 = arith.constant dense<[1.0]> : tensor<?xf32>\n")


def test_quick_path_reads_decimal_float_literals() -> None:
    parser = LocatingParser(make_context(), "<[[1.0], [2.0]]> : tensor<2x1xf32> loc", "x")
    attr = parser._parse_decimal_float_literal(None)
    assert isinstance(attr, DenseIntOrFPElementsAttr) and attr.get_values() == (1.0, 2.0)
    assert parser._current_token.text == "loc"  # consumed the literal and its type
    integers = LocatingParser(make_context(), "<[1, 2]> : tensor<2xi32>", "x")
    assert integers._parse_decimal_float_literal(None) is None
    assert integers._current_token.text == "<"  # nothing consumed
