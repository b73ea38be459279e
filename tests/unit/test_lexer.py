"""heirpy's lexer (`ir/lexer.py`) gives xDSL's tokens, kind and span, on any input, and
its blob reading and trailer printing keep the text as it was."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from heirpy.api import parse, print_module
from heirpy.ir.diagnostics import is_blank
from heirpy.ir.lexer import FastMLIRLexer

REPO = Path(__file__).resolve().parents[2]


def tokens(lexer_class: type[MLIRLexer], text: str) -> list[tuple[object, int, int]] | str:
    """Every token of `text` as (kind, start, end), or the error that stopped lexing."""
    lexer = lexer_class(Input(text, "t"))
    out: list[tuple[object, int, int]] = []
    try:
        while True:
            token = lexer.lex()
            out.append((token.kind, token.span.start, token.span.end))
            if token.kind == MLIRTokenKind.EOF:
                return out
    except ParseError as err:
        return f"{out} {err.span.start} {err.msg}"


TRICKY = [
    "%0 = arith.addf %a, %b : f32 // comment\n// another\n  return",
    "#map = affine_map<(d0, d1) -> (d0 floordiv 2, -d1 + 3)>",
    "{-# dialect_resources: { builtin: { k: \"0x04000000\" } } #-}",
    "0x 0x1F 0xg 0xFF800000 1.5e+3 1.e 2.5E-7 12x3xf32 007 1.5e 3.",
    "#-} #-x #a.b$c ^bb0 !tuple<i32> %arg0:2 %0#1 %_ %$ %-1 @f @\"quoted\" ...",
    "a/b // c\n/ * ? | + = < > [ ] ( ) { } , : -> - -- -->",
    "\"str\\n\\\"x\" \"unterminated",
    "é x ½ 1",
    "% # ^ !",
    "",
    "   \t\n\v\f\r  ",
    "//only a comment",
    "{-#",
]


@pytest.mark.parametrize("text", TRICKY)
def test_fast_lexer_gives_xdsl_tokens_on_tricky_text(text: str) -> None:
    assert tokens(FastMLIRLexer, text) == tokens(MLIRLexer, text)


def test_fast_lexer_gives_xdsl_tokens_on_the_examples_and_tests() -> None:
    files = sorted((REPO / "tests" / "filecheck" / "printer").glob("*.mlir"))
    files += sorted((REPO / "tests" / "filecheck" / "dialects").glob("*.mlir"))
    files += [REPO / "examples" / "resnet_block.mlir", REPO / "examples" / "tiny_cnn_dense.mlir"]
    for path in files:
        text = path.read_text()
        assert tokens(FastMLIRLexer, text) == tokens(MLIRLexer, text), path


def test_is_blank_reads_long_input_like_splitlines() -> None:
    comments = "// x\n" * 2000
    assert is_blank(comments + "  \n\f\n")
    assert not is_blank(comments + "module {}\n")
    assert not is_blank("module {}\n" + comments)
    assert not is_blank(comments + "\r" + "a")  # a line break of splitlines' own, at the end


BLOB_MODULE = """module {
  func.func @main() -> tensor<2xf32> {
    %0 = arith.constant dense_resource<w> : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}
"""


def test_blob_reads_and_prints_back_verbatim() -> None:
    printed = print_module(parse(BLOB_MODULE))
    assert printed.startswith(BLOB_MODULE[: BLOB_MODULE.index("{-#")].rstrip())
    assert printed.endswith(BLOB_MODULE[BLOB_MODULE.index("{-#") :].rstrip())
    assert print_module(parse(printed)) == printed


def test_blob_with_an_escape_reads_through_xdsl() -> None:
    """`\\30` is `0`: the blob slow path resolves escapes as xDSL does."""
    escaped = BLOB_MODULE.replace('"0x0400', '"\\30x0400')
    assert escaped != BLOB_MODULE
    assert print_module(parse(escaped)) == print_module(parse(BLOB_MODULE))
    from heirpy.ir.diagnostics import HeirpyError

    with pytest.raises(HeirpyError, match="resource"):  # `\\31` is `1`: not a hex blob
        parse(BLOB_MODULE.replace('"0x0400', '"\\31x0400'))


def test_trailer_printed_in_pieces_keeps_the_printer_position() -> None:
    from heirpy.ir.context import context_of
    from heirpy.ir.printer import MLIRPrinter

    module = parse(BLOB_MODULE)
    stream = io.StringIO()
    printer = MLIRPrinter(stream=stream)
    printer.print_op(module)
    printer.print_metadata(context_of(module).loaded_dialects)
    text = stream.getvalue()
    assert printer._current_line == text.count("\n")
    assert printer._current_column == len(text.rsplit("\n", 1)[-1])


def test_tokens_are_xdsls_objects() -> None:
    """The fast path builds its tokens without the dataclasses' `__init__`: they must
    still be equal to xDSL's, field for field (`line_offset` included)."""
    text = "%0 = arith.addf %a, %b : tensor<1x64xf32> -> {x = [1, 2]}"
    fast, slow = FastMLIRLexer(Input(text, "t")), MLIRLexer(Input(text, "t"))
    while True:
        ours, theirs = fast.lex(), slow.lex()
        assert type(ours) is type(theirs) and type(ours.span) is type(theirs.span)
        assert ours == theirs and ours.span.line_offset == 0 and hash(ours.span) == hash(theirs.span)
        if theirs.kind == MLIRTokenKind.EOF:
            break
