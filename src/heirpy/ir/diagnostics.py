"""One-line diagnostics for users: `file:line:col: error: message`, never a traceback.

xDSL reports a parse error as a multi-line excerpt and a verify error by printing
the whole module. A compiler engineer piping heirpy into a build wants one line that
names the place, like mlir-opt. This module gives ops real source locations while
parsing and turns xDSL's exceptions into that line.
"""

from __future__ import annotations

import argparse
import gc
import re
import struct
import sys
import traceback
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from math import prod
from typing import NoReturn, TypeVar

from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyDenseElement,
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    RankedStructure,
    StringAttr,
    TensorType,
    UnknownLoc,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue, TypeAttribute
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSet
from xdsl.irdl import AttrConstraint, base
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.parser.affine_parser import AffineParser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

from heirpy.ir.affine import NonAffineError, combine
from heirpy.ir.dense_literal import DENSE_DECIMAL_LIST, read_decimal_list
from heirpy.ir.lexer import FastMLIRLexer

_T = TypeVar("_T")

MAX_CONSTANT_ELEMENTS = 1 << 26
"""Largest dense constant heirpy will hold (64 Mi elements, 256 MiB of f32)."""




_RESULTS = r"(?:%[\w$.-]+(?::\d+)?\s*,\s*)*%[\w$.-]+(?::\d+)?\s*=\s*"
_RESULTS_TEXT = re.compile(_RESULTS)
_RESULTS_BYTES = re.compile(_RESULTS.encode())
"""An op's result list and its `=` (`%0 = `, `%a, %b:2 = `): what precedes the op's name."""


_ASCII_SPACE = " \t\n\r\f\v"  # what xDSL's lexer skips (besides comments)
_STATIC_SHAPED_TYPE = re.compile(r"(?:tensor|vector)<(?:[0-9]+x)*(?:f16|bf16|f32|f64|index|i[0-9]+)>")
# A dictionary on one line without nested braces and whose strings have no escapes:
# `{indexing_maps = [#map, #map1], iterator_types = ["parallel"]}`, `{dilations = ...}`.
_FLAT_DICTIONARY = re.compile(r'\{(?:[^{}"\n]++|"[^"\\\n]*+")*+\}')


@cache
def _dense_literal_type_constraint() -> AttrConstraint:
    """The types a dense literal may have (xDSL's rule), built once."""
    return (
        base(TensorType[AnyDenseElement])
        | base(VectorType[AnyDenseElement])
        | base(MemRefType[AnyDenseElement])
    )


class HeirpyError(Exception):
    """An error meant for the user; `str(err)` is the one-line diagnostic."""


class _BitPatternElement(Parser._TensorLiteralElement):
    """A dense-literal element where a hex integer in a float tensor is a bit pattern.

    MLIR reads `dense<[0xFF800000, 1.0]> : tensor<2xf32>` as [-inf, 1.0]; xDSL
    converts the hex integer to the float 4286578688.0, silently changing the model.
    """

    def to_type(self, parser, element_type):
        is_hex = self.span.text.lower().startswith("0x")
        is_int = isinstance(self.value, int) and not isinstance(self.value, bool)
        if is_hex and is_int and isinstance(element_type, AnyFloat):
            try:
                return float_from_bits(int(self.value), element_type.bitwidth, isinstance(element_type, BFloat16Type))
            except ValueError as err:
                parser.raise_error(str(err), at_position=self.span)
        return super().to_type(parser, element_type)


def float_from_bits(bits: int, width: int, bfloat: bool = False) -> float:
    """The float whose IEEE bit pattern (of `width` bits) is `bits`; with `bfloat`, the
    bf16 pattern (the top half of an f32's: `0x3FC0` is 1.5, not f16's 1.9375)."""
    formats = {16: "<e", 32: "<f", 64: "<d"}
    if bfloat:
        if not 0 <= bits < (1 << 16):
            raise ValueError(f"no bf16 has the bit pattern {bits:#x}")
        (value,) = struct.unpack("<f", (bits << 16).to_bytes(4, "little"))
        return float(value)
    if width not in formats or not 0 <= bits < (1 << width):
        raise ValueError(f"no f{width} has the bit pattern {bits:#x}")
    if width == 16 and bits & 0x7C00 == 0x7C00 and bits & 0x3FF:
        # An f16 NaN: struct drops its payload, numpy keeps it. numpy is imported
        # here, not at the top: every heirpy command imports this module.
        import numpy as np

        return float(np.frombuffer(bits.to_bytes(2, "little"), np.float16)[0])
    # struct gives numpy's value for every other pattern (NaN payloads of f32 and f64
    # included), without importing numpy: a tenth of the CPU to read a small model
    # whose weights are written as hex floats.
    (value,) = struct.unpack(formats[width], bits.to_bytes(width // 8, "little"))
    return float(value)


class _SemiAffineParser(AffineParser):
    """xDSL's affine parser, building semi-affine expressions as MLIR does.

    xDSL builds pure-affine expressions only: `d0 floordiv s0`, which MLIR accepts,
    was a NotImplementedError, and `d0 * d1`, which MLIR refuses, the same internal
    error. `combine` builds the first and refuses the second with MLIR's message,
    located at the operator.
    """

    def _create_binop_expr(self, lhs: AffineExpr, rhs: AffineExpr, binop: MLIRToken) -> AffineExpr:
        try:
            semi_affine = combine(binop.text, lhs, rhs)
        except NonAffineError as err:
            raise ParseError(binop.span, str(err)) from err
        if semi_affine is not None:
            return semi_affine
        return super()._create_binop_expr(lhs, rhs, binop)


class LocatingParser(Parser):
    """xDSL's parser, but every op without an explicit `loc(...)` gets its position.

    Line numbers come from a table of line starts built once, so locating an op
    costs a binary search rather than a scan of the file (xDSL's `Span.get_location`
    counts newlines from the start, which is quadratic over a large module).
    """

    _TensorLiteralElement = _BitPatternElement

    def __init__(self, ctx: Context, text: str | bytes, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        assert isinstance(self.lexer, MLIRLexer)
        self._parser_state = ParserState(FastMLIRLexer(self.lexer.input))
        content = self.lexer.input.content
        self._line_starts = _line_starts(content)
        self._file_name = StringAttr(name)
        self._line_offset = line_offset
        self._static_types: dict[str, TypeAttribute | None] = {}
        self._dictionaries: dict[str, DictionaryAttr | None] = {}
        self._attr_dicts: dict[str, dict[str, Attribute] | None] = {}

    def parse_optional_builtin_int_or_float_attr(self) -> IntegerAttr | FloatAttr | None:
        """xDSL's, but a hexadecimal float literal wider than its type (`0xFF800000 : f16`)
        is MLIR's diagnostic at the literal, not an `OverflowError` from `int.to_bytes`."""
        start = self._current_token.span.start
        try:
            return super().parse_optional_builtin_int_or_float_attr()
        except OverflowError:
            self.raise_error("hexadecimal float constant out of range for type", start, self.pos)

    def _once_per_spelling(
        self, pattern: re.Pattern[str], known: dict[str, _T | None], parse: Callable[[], _T | None]
    ) -> _T | None:
        """`parse()`, or what it returned the last time the text ahead was spelled the
        same (`pattern`'s match there), skipping that text.

        Within one parse the same spelling always reads as the same value: attributes
        and types are immutable values, and the aliases they may name (`#map`) are
        defined once, ahead of any use. A spelling is remembered only when `parse` read
        exactly it (no comment or other text inside) and succeeded."""
        content = self.lexer.input.content
        if not isinstance(content, str):
            return parse()
        match = pattern.match(content, self._current_token.span.start)
        if match is None:
            return parse()
        spelling = match.group(0)
        value = known.get(spelling)
        if value is not None:
            self._resume_from(match.end())
            return value
        value = parse()
        if value is not None and not content[match.end() : self.pos].strip(_ASCII_SPACE):
            known[spelling] = value
        return value

    def parse_optional_type(self) -> TypeAttribute | None:
        """xDSL's, but a static tensor or vector type of a plain element type is parsed
        once per spelling: a network spells the same few dozen types thousands of
        times, and xDSL builds and verifies each anew (types are immutable values, so
        ops may share one)."""
        if self._current_token.kind != MLIRTokenKind.BARE_IDENT:
            return super().parse_optional_type()
        return self._once_per_spelling(
            _STATIC_SHAPED_TYPE, self._static_types, super().parse_optional_type
        )

    def _parse_optional_builtin_dict_attr(self) -> DictionaryAttr | None:
        """xDSL's, but a one-line dictionary is parsed once per spelling: each
        `linalg.generic` of a network spells its `{indexing_maps = ..., iterator_types =
        ...}` in one of a few ways, and reading it was a seventh of the time to parse."""
        if self._current_token.kind != MLIRTokenKind.L_BRACE:
            return None
        return self._once_per_spelling(
            _FLAT_DICTIONARY, self._dictionaries, super()._parse_optional_builtin_dict_attr
        )

    def parse_optional_attr_dict(self) -> dict[str, Attribute]:
        """xDSL's, once per one-line spelling (see `_parse_optional_builtin_dict_attr`):
        a network's convolutions repeat their `{dilations = ..., strides = ...}`. The
        caller gets a dictionary of its own (ops keep and change theirs)."""
        if self._current_token.kind != MLIRTokenKind.L_BRACE:
            return super().parse_optional_attr_dict()
        entries = self._once_per_spelling(
            _FLAT_DICTIONARY, self._attr_dicts, super().parse_optional_attr_dict
        )
        return dict(entries) if entries is not None else {}

    def _parse_resource(self, dialect_name: str, interface: OpAsmDialectInterface) -> None:
        """xDSL's, but a blob without escapes is one slice of the text: xDSL's reading
        of a string literal (escapes resolved through bytes) copied each of a model's
        megabyte blobs five times over."""
        key = self._parse_dialect_resource_handle(dialect_name, interface)
        self._parse_token(MLIRTokenKind.COLON, "expected `:`")
        token = self._current_token
        content = self.lexer.input.content
        value: str | None = None
        if token.kind == MLIRTokenKind.STRING_LIT and isinstance(content, str):
            value = content[token.span.start + 1 : token.span.end - 1]
            if "\\" in value:
                value = None  # escapes: xDSL reads them
            else:
                self._consume_token(MLIRTokenKind.STRING_LIT)
        if value is None:
            value = self.parse_str_literal()
        try:
            interface.parse_resource(key, value)
        except Exception as e:
            self.raise_error(f"got an error when parsing a resource: {e}")

    def parse_affine_map(self) -> AffineMap:
        return _SemiAffineParser(self._parser_state).parse_affine_map()

    def parse_affine_set(self) -> AffineSet:
        return _SemiAffineParser(self._parser_state).parse_affine_set()

    def parse_affine_map_of_ssa_ids(self) -> tuple[AffineMap, Sequence[SSAValue[IndexType]]]:
        affine_map, spans = _SemiAffineParser(self._parser_state).parse_affine_map_of_ssa_ids()
        operands = [self.resolve_operand(UnresolvedOperand(span, 0), IndexType()) for span in spans]
        return affine_map, operands

    def _op_name_position(self, start: int) -> int:
        """Where the op's name begins, given where the op does: MLIR locates an op at its
        name (`linalg.generic` or `"linalg.generic"`), after any `%r, %s:2 =` results."""
        content = self.lexer.input.content
        pattern = _RESULTS_TEXT if isinstance(content, str) else _RESULTS_BYTES
        match = pattern.match(content, start)
        return match.end() if match else start

    def line_col(self, position: int) -> tuple[int, int]:
        line = bisect_right(self._line_starts, position)
        return line + self._line_offset, position - self._line_starts[line - 1] + 1

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        start = span.start
        try:
            op = super().parse_operation()
        except VerifyException as err:
            # An attribute that cannot exist (an i64 literal out of range) fails
            # while the parser builds it.
            self.raise_error(_first_line(err), span)
        except (IndexError, KeyError, TypeError, ValueError, AssertionError) as err:
            # Some ops' custom parsers (xDSL's named linalg ops among them) index
            # operand lists without checking their length; report the op instead.
            self.raise_error(f"malformed operation ({type(err).__name__}: {err})", span)
        if not isinstance(op.location, UnknownLoc):
            return op  # an explicit loc(...) in the text wins
        line, col = self.line_col(self._op_name_position(start))
        op.location = FileLineColLoc(self._file_name, IntAttr(line), IntAttr(col))
        return op

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr:
        literal = self._parse_decimal_float_literal(type)
        if literal is not None:
            return literal
        return super().parse_dense_int_or_fp_elements_attr(type)

    def _parse_decimal_float_literal(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr | None:
        """`<[decimal list]>` (and its `: type` unless given) of a float tensor, read
        with `read_decimal_list`; None, with nothing consumed, for any other literal.

        The attribute is the one xDSL builds (`from_list` of the same Python floats).
        A literal that `read_decimal_list` accepts is one xDSL's parser reads without
        complaint, so errors in the type after it come in xDSL's order."""
        content = self.lexer.input.content
        start = self._current_token.span.start
        if self._current_token.kind != MLIRTokenKind.LESS or not isinstance(content, str):
            return None
        match = DENSE_DECIMAL_LIST.match(content, start)
        literal = read_decimal_list(match.group(1)) if match else None
        if match is None or literal is None:
            return None
        values, shape = literal
        self._resume_from(match.end())
        if type is None:
            if self.parse_optional_punctuation(":") is None:
                self._resume_from(start)
                return None
            type = self._parse_dense_literal_type()
        if not isinstance(type.element_type, Float16Type | Float32Type | Float64Type) or (
            tuple(type.get_shape()) != shape
        ):
            self._resume_from(start)
            return None
        return DenseIntOrFPElementsAttr.from_list(type, values)

    def _parse_dense_literal_type(self):
        """Refuse dense literals too large to materialise before xDSL expands them.

        xDSL stores every dense constant, splats included, as its full byte string,
        so `dense<0.0> : tensor<100000000x100000000xf32>` would exhaust memory.
        """
        type_span = self._current_token.span
        literal_type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        # xDSL's own check builds this constraint anew for every literal, which took a
        # fifth of the time to parse a network with a hundred weight constants.
        if not _dense_literal_type_constraint().verifies(literal_type):
            self.raise_error(
                "Expected memref, vector or tensor type of integer, index, float, or complex type",
                type_span,  # at the type, not at the token after it (often the next line)
            )
        assert isinstance(literal_type, TensorType | VectorType | MemRefType)
        if any(dim == DYNAMIC_INDEX for dim in literal_type.get_shape()):
            self.raise_error("Dense literal attribute should have a static shape.", type_span)
        count = prod(literal_type.get_shape())
        if count > MAX_CONSTANT_ELEMENTS:
            self.raise_error(
                f"dense constant of {count} elements is larger than heirpy materialises "
                f"(limit {MAX_CONSTANT_ELEMENTS})",
                type_span,
            )
        return literal_type


def _line_starts(content: str | bytes) -> list[int]:
    """Where each line of `content` begins. `find` jumps from newline to newline at
    memchr's speed: a whole network's weights make the text tens of MB long, which a
    regex scan (or a Python loop over characters) reads one character at a time."""
    starts = [0]
    find = content.find
    newline = "\n" if isinstance(content, str) else b"\n"
    end = find(newline)  # type: ignore[arg-type]
    while end >= 0:
        starts.append(end + 1)
        end = find(newline, end + 1)  # type: ignore[arg-type]
    return starts


def is_blank(text: str) -> bool:
    """True for input with nothing but whitespace and `//` comments.

    mlir-opt reads such input as an empty module; xDSL's parser reports that it
    "could not parse entire input", which would confuse a user.

    Lines are read from growing prefixes of the text, so the answer for a model (its
    first line is code) costs no copy of tens of MB of text split into lines.
    """
    size = 4096
    while size < len(text):
        # Every line of the prefix but its last one is a whole line of the text.
        if not all(_blank_line(line) for line in text[:size].splitlines()[:-1]):
            return False
        size *= 8
    return all(_blank_line(line) for line in text.splitlines())


def _blank_line(line: str) -> bool:
    return not line.strip() or line.lstrip().startswith("//")


def location_prefix(op: Operation) -> str:
    """`file:line:col: ` for an op parsed from text, or '' if it has no position."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: "
    return ""


def parse_error_line(err: ParseError, line_offset: int = 0) -> str:
    """`file:line:col: error: message` for an xDSL parse error."""
    location = err.span.get_location()
    message = err.msg.strip().splitlines()[0] if err.msg.strip() else "parse error"
    return f"{location.file}:{location.line + line_offset}:{location.col}: error: {message}"


def _first_line(err: Exception) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def verify_module(module: ModuleOp) -> None:
    """Verify every op; raise HeirpyError naming the first op that fails.

    Ops are checked outermost first, one at a time, so the message names the op
    that is wrong rather than printing the whole module as xDSL does.
    """
    for op in module.walk():
        try:
            # `verify` runs the op's own verifier (`verify_`) after the structural checks;
            # when all pass, that one call is enough. When something fails, the checks run
            # again in the order that gives the user the op's own message first (and the
            # failing `verify` had printed the whole module into its note, which we drop).
            op.verify(verify_nested_ops=False)
            continue
        except Exception:
            pass
        try:
            op.verify_()
            op.verify(verify_nested_ops=False)
        except (VerifyException, DiagnosticException, ValueError) as err:
            message = _first_line(err).removeprefix("Operation does not verify: ")
            raise HeirpyError(f"{location_prefix(op)}error: '{op.name}' op {message}") from err


def parse_module_text(
    ctx: Context,
    text: str | bytes,
    filename: str,
    *,
    line_offset: int = 0,
    implicit_module: bool = True,
) -> ModuleOp:
    """Parse MLIR text, turning every kind of bad input into a one-line HeirpyError.

    Blank input is an empty module, as in mlir-opt. The parser is built inside the
    `try` because xDSL lexes the first token in its constructor.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise HeirpyError(
                f"{filename}: error: input is not valid UTF-8 (byte {err.start})"
            ) from err
    if is_blank(text):
        return ModuleOp([])
    with _collection_paused():
        try:
            return LocatingParser(ctx, text, filename, line_offset).parse_module(implicit_module)
        except ParseError as err:
            raise HeirpyError(parse_error_line(err, line_offset)) from err
        except VerifyException as err:  # an impossible attribute outside any op
            raise HeirpyError(f"{filename}: error: {_first_line(err)}") from err


@contextmanager
def _collection_paused() -> Iterator[None]:
    """No cyclic garbage collection in the body. A parse keeps every object it makes
    (ops, values, attributes point at each other), so the collector's passes over the
    growing heap find nothing to free: 5-10% of the time to parse a network."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class UsageError(HeirpyError):
    """A bad command line (argparse would exit 2 with a usage dump)."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse for heirpy's CLIs: a bad command line is a one-line `UsageError`."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"error: {message}")


def run_guarded(run: Callable[[list[str]], int], argv: Sequence[str] | None = None) -> int:
    """A CLI's `main`: `run(argv)`'s exit code, with every error as one line on stderr
    and exit code 1. A `HeirpyError` prints its diagnostic; any other exception is a bug
    in heirpy and still prints one line. `--debug` in argv adds the traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    try:
        return run(args)
    except HeirpyError as err:
        if debug:
            traceback.print_exc()
        print(str(err).splitlines()[0] if str(err) else "error: unknown error", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 1
    except Exception as err:  # a bug in heirpy: still one line unless --debug
        if debug:
            traceback.print_exc()
        print(f"error: internal error: {type(err).__name__}: {err}".splitlines()[0], file=sys.stderr)
        return 1
