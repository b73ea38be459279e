"""The string literal matcher's fast path (`ir/lexer.py`): a literal without escapes,
newlines or form feeds up to its closing quote (a weight blob) is found by `str.find`,
never by the pattern, whatever follows it; anything else goes to the pattern, which gives
the same end. Found by issue 35's fresh mutation sample: the tokens are the same either
way (test_lexer.py), so only this test notices a fast path that is never taken (a
megabyte blob through the pattern costs about ten times as much; no timing here)."""

from __future__ import annotations

import re

import pytest

from heirpy.ir.lexer import _STRING_LITERAL, _Ends, _StringLiteralMatcher

BLOB = '"0x' + "0A1B2C3D" * 64 + '"'


@pytest.mark.parametrize("after", ["", "\n", " : tensor<64xf32>\n}\n", '\n  "\\n" \f\v\n'])
def test_a_literal_without_escapes_is_found_by_find_whatever_follows(after: str) -> None:
    for before in ("", "  x = "):
        text = before + BLOB + after
        found = _StringLiteralMatcher().match(text, len(before))
        assert isinstance(found, _Ends), (before, after)
        assert found.end() == len(before) + len(BLOB)


@pytest.mark.parametrize("literal", ['"a\\nb"', '"a\\"b"', '"\\0A"'])
def test_a_literal_with_escapes_goes_to_the_pattern_and_ends_where_it_does(literal: str) -> None:
    text = literal + " tail\n"
    found = _StringLiteralMatcher().match(text, 0)
    assert isinstance(found, re.Match)
    expected = _STRING_LITERAL.match(text, 0)
    assert expected is not None and found.end() == expected.end() == len(literal)


def test_an_unclosed_or_broken_literal_is_no_match() -> None:
    assert _StringLiteralMatcher().match('"abc', 0) is None
    assert _StringLiteralMatcher().match('"ab\ncd"', 0) is None
