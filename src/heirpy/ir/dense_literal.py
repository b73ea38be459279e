"""A quick reading of the common `dense<[...]>` literal: decimal numbers in regular brackets.

Front ends print every small weight tensor (a batch norm's per-channel statistics, a
bias) as a decimal list such as `dense<[[[0.07]], [[-0.12]]]> : tensor<2x1x1xf32>`. xDSL
lexes each bracket, comma and number as a token and builds an object per element: a
third of the time to parse a whole network went there. `read_decimal_list` reads such a
list with two regular-expression passes instead.

It accepts only what xDSL's lexer reads as integer or float literals (an optional `-`
right before the digits, `[0-9]+`, then optionally `.[0-9]*` and an exponent), commas
and ASCII whitespace, nested as the canonical form of one shape. Anything else (a space
after `-`, `true`, a hex bit pattern, a complex pair, a comment, a ragged nesting) reads
as None, and the caller falls back to xDSL's parser, which reads it or reports the error.
"""

from __future__ import annotations

import re

DENSE_DECIMAL_LIST = re.compile(r"<[ \t\n\r\f\v]*(\[[\[\] \t\n\r\f\v,0-9eE+.-]*\])[ \t\n\r\f\v]*>")
"""`<`, a bracketed list of the characters a decimal list may hold, `>` (a candidate)."""

_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?")
_WHITESPACE = str.maketrans("", "", " \t\n\r\f\v")


def read_decimal_list(text: str) -> tuple[list[float], tuple[int, ...]] | None:
    """The values and the shape of a bracketed list of decimal numbers, or None when
    `text` is anything but a non-empty list whose nesting is that of one shape.

    Each value is what xDSL makes of the literal for a float element type: `float` of
    the float literal, `float(int(...))` of an integer literal (so `-0` is 0.0, as xDSL
    negates the integer 0)."""
    numbers = _NUMBER.findall(text)
    if not numbers:
        return None
    skeleton = _NUMBER.sub("x", text).translate(_WHITESPACE)
    shape = _first_path_shape(skeleton)
    if shape is None or canonical_skeleton(shape) != skeleton:
        return None
    try:
        values = [float(n) if "." in n else float(int(n)) for n in numbers]
    except OverflowError:  # an integer literal beyond any float: xDSL's error, not ours
        return None
    return values, shape


def _first_path_shape(skeleton: str) -> tuple[int, ...] | None:
    """The shape the nesting implies when every sub-list is like the first one.

    With rank k (the leading `[`s), the first list at depth k - j + 1 ends where `j`
    closing brackets first meet, and holds the product of the last j sizes; string
    searches, so a long list costs no Python loop over its characters."""
    rank = len(skeleton) - len(skeleton.lstrip("["))
    if rank == 0:
        return None
    sizes: list[int] = []
    inner = 1
    for closing in range(1, rank + 1):
        end = skeleton.find("]" * closing)
        count = skeleton.count("x", 0, end)
        if end < 0 or count == 0 or count % inner:
            return None
        sizes.append(count // inner)
        inner = count
    return tuple(reversed(sizes))


def canonical_skeleton(shape: tuple[int, ...]) -> str:
    """The nesting of a list of `shape` with each number as `x` and no whitespace:
    (2, 1) -> `[[x],[x]]`."""
    text = "x"
    for size in reversed(shape):
        text = "[" + ",".join([text] * size) + "]"
    return text
