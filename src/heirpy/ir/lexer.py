"""xDSL's MLIR lexer with one regular expression for the common tokens.

xDSL lexes a token in a dozen Python steps (skip whitespace, read a character, test it
against each kind, match the rest, build the span): a fifth of the time to parse a
network. `FastMLIRLexer.lex` matches whitespace and the commonest tokens (identifiers,
`%`/`#`/`^`/`!` names, numbers, punctuation) in one `re.match` and gives every other
input (string literals, `@` names, `...`, `{-#`, `#-}`, non-ASCII letters or digits,
errors) to xDSL's lexer from the same place, so the tokens are xDSL's, kind and span.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from xdsl.utils.lexer import Input, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

# xDSL's lexer matches string literals with `"(?:[^"\\...]+|\\...)*"`, a nested
# quantifier that backtracks exponentially when the closing quote is missing: a
# truncated hex weight blob hung the parser for minutes. The same pattern with
# possessive quantifiers (Python 3.11) matches exactly the same strings in linear time.
_STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')


class _Ends(NamedTuple):
    """The part of an `re.Match` that xDSL's lexer reads of a string literal's match."""

    stop: int

    def end(self) -> int:
        return self.stop


class _StringLiteralMatcher:
    """`_STRING_LITERAL.match`, with a fast path for a literal without escapes.

    A model's weights are hex blobs of megabytes each (70 MB in YOLOv5s): up to the
    next quote, str.find's scans for the characters the pattern stops at are some ten
    times faster than the pattern itself, and when there is none of them the pattern
    would match exactly that far."""

    def match(self, content: str, pos: int) -> re.Match[str] | _Ends | None:
        if not isinstance(content, str):
            return _STRING_LITERAL.match(content, pos)
        close = content.find('"', pos + 1)
        if close > pos and not any(content.find(c, pos, close) >= 0 for c in "\\\n\v\f"):
            return _Ends(close + 1)
        return _STRING_LITERAL.match(content, pos)


_SUFFIX_ID = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"  # xDSL's `_suffix_id`

_TOKEN = re.compile(
    # xDSL's `_whitespace_regex` (ASCII whitespace and `//` comments); possessive, since
    # nothing after it begins with whitespace or `//` (a lone `/` is left to xDSL).
    r"(?://[^\n]*+\n?|[ \t\n\r\f\v]++)*+"
    r"(?:"
    r"(?P<bare>[a-zA-Z_][a-zA-Z0-9_$.]*)"  # bare-id, xDSL's ASCII suffix
    rf"|(?P<percent>%{_SUFFIX_ID})"
    rf"|(?P<hash>#(?!-}}){_SUFFIX_ID})"  # `#-}` ends the metadata: xDSL's
    rf"|(?P<caret>\^{_SUFFIX_ID})"
    rf"|(?P<exclamation>!{_SUFFIX_ID})"
    r"|(?P<hex>0x[0-9a-fA-F]+)"  # `0x` and a hex digit, else `0` then a bare-id
    r"|(?P<float>[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<integer>[0-9]+)"
    r"|(?P<arrow>->)"
    r"|(?P<punctuation>[:,()}\[\]<>=+*?|-]|\{(?!-#))"
    r")"
)

_KINDS = {
    "bare": MLIRTokenKind.BARE_IDENT,
    "percent": MLIRTokenKind.PERCENT_IDENT,
    "hash": MLIRTokenKind.HASH_IDENT,
    "caret": MLIRTokenKind.CARET_IDENT,
    "exclamation": MLIRTokenKind.EXCLAMATION_IDENT,
    "hex": MLIRTokenKind.INTEGER_LIT,
    "float": MLIRTokenKind.FLOAT_LIT,
    "integer": MLIRTokenKind.INTEGER_LIT,
    "arrow": MLIRTokenKind.ARROW,
}

_PUNCTUATION = {kind.value: kind for kind in MLIRTokenKind if isinstance(kind.value, str)}


class FastMLIRLexer(MLIRLexer):
    """`MLIRLexer` whose `lex` matches the common tokens at once (see the module)."""

    _unescaped_characters_regex = _StringLiteralMatcher()  # type: ignore[assignment]

    def lex(self) -> MLIRToken:
        content = self.input.content
        start = self.pos
        match = _TOKEN.match(content, start) if isinstance(content, str) else None
        if match is None or (group := match.lastgroup) is None:
            return super().lex()
        self.pos = end = match.end()
        kind = _PUNCTUATION[match.group(group)] if group == "punctuation" else _KINDS[group]
        return _token(kind, match.start(group), end, self.input)


_new = object.__new__


def _token(kind: MLIRTokenKind, start: int, end: int, input: Input[str]) -> MLIRToken:
    """`Token(kind, Span(start, end, input))`, built without the dataclasses' `__init__`:
    `Span` is frozen, so its `__init__` sets each field through `object.__setattr__`, and
    building the two objects was a tenth of the time to parse a network. The objects are
    the same (same classes, same fields; `line_offset` keeps its class default 0)."""
    span = _new(Span)
    fields = span.__dict__
    fields["start"] = start
    fields["end"] = end
    fields["input"] = input
    token = _new(Token)
    token.__dict__["kind"] = kind
    token.__dict__["span"] = span
    return token
