"""heirpy.ir.diagnostics' remaining error paths: run_guarded's one line per failure kind
(and --debug's traceback), the dense literal types it refuses, bytes input, verify
messages at the op, and the parse keeping the garbage collector as it found it."""

from __future__ import annotations

import gc

import pytest

from heirpy.api import parse, print_module
from heirpy.ir.context import make_context
from heirpy.ir.diagnostics import HeirpyError, parse_module_text, run_guarded


def error_of(text: str | bytes, name: str = "<string>") -> str:
    with pytest.raises(HeirpyError) as info:
        parse(text, name)
    return str(info.value)


def raising(err: BaseException):  # noqa: ANN201
    def run(argv: list[str]) -> int:
        raise err

    return run


def test_run_guarded_prints_one_line_per_failure(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_guarded(lambda argv: 7 if argv == ["a"] else 0, ["a"]) == 7
    assert run_guarded(raising(HeirpyError("f:1:2: error: bad\nsecond line")), []) == 1
    assert capsys.readouterr().err == "f:1:2: error: bad\n"
    assert run_guarded(raising(HeirpyError("")), []) == 1
    assert capsys.readouterr().err == "error: unknown error\n"
    assert run_guarded(raising(RuntimeError("boom\nmore")), []) == 1
    assert capsys.readouterr().err == "error: internal error: RuntimeError: boom\n"


def test_run_guarded_adds_the_traceback_only_with_debug(capsys: pytest.CaptureFixture[str]) -> None:
    for err in (HeirpyError("error: bad"), ValueError("oops")):
        assert run_guarded(raising(err), ["x"]) == 1
        assert "Traceback" not in capsys.readouterr().err
        assert run_guarded(raising(err), ["x", "--debug"]) == 1
        out = capsys.readouterr().err
        assert out.startswith("Traceback") and out.splitlines()[-1].startswith("error: ")


def test_run_guarded_reads_sys_argv_without_the_program(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    monkeypatch.setattr("sys.argv", ["prog", "one", "two"])
    assert run_guarded(lambda argv: seen.append(argv) or 0) == 0
    assert seen == [["one", "two"]]


@pytest.mark.parametrize(
    ("literal_type", "message"),
    [
        ("tensor<?xf32>", "<string>:1:34: error: Dense literal attribute should have a static shape."),
        ("tensor<2x!test.type<\"x\">>",
         "<string>:1:34: error: Expected memref, vector or tensor type of integer, index, float, or complex type"),
    ],
)
def test_dense_literal_types_heirpy_refuses(literal_type: str, message: str) -> None:
    # at the type (as for an oversized one), not at the next line's first token
    assert error_of(f"%0 = arith.constant dense<1.0> : {literal_type}\n%1 = arith.constant 1.0 : f32\n") == message


def test_bytes_input_parses_as_its_text_and_bad_bytes_say_where() -> None:
    text = "func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}\n"
    assert print_module(parse(text.encode())) == print_module(parse(text))
    assert error_of(b"func.func @f() {\n\xff", "m.mlir") == "m.mlir: error: input is not valid UTF-8 (byte 17)"
    assert error_of(b"func.func @f() {\n  %x = \n}", "m.mlir").startswith("m.mlir:3:1: error: ")


def test_blank_input_is_an_empty_module_and_an_offset_moves_every_line() -> None:
    assert list(parse("// only a comment\n\n").body.ops) == []
    with pytest.raises(HeirpyError) as err:
        parse_module_text(make_context(), "\n\n  %x = \n", "m.mlir", line_offset=10)
    assert str(err.value).startswith("m.mlir:14:1: error: ")


def test_a_verify_error_names_the_op_at_its_position() -> None:
    text = "func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n  return %a : tensor<2xf32>\n}\n"
    assert error_of(text, "v.mlir").startswith("v.mlir:2:3: error: 'func.return' op ")


@pytest.mark.parametrize("enabled", [True, False])
def test_a_parse_leaves_the_collector_as_it_was(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        parse("func.func @f() {\n  return\n}\n")
        assert gc.isenabled() is enabled
        with pytest.raises(HeirpyError):
            parse("func.func @f( {\n")
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_an_op_without_a_position_is_named_without_one() -> None:
    """IR built in Python (a pass's new op) has no file position: the message starts at
    `error:`; the same op parsed from text names its place."""
    from xdsl.dialects.builtin import ModuleOp, f32
    from xdsl.dialects.func import FuncOp, ReturnOp

    from heirpy.ir.diagnostics import location_prefix, verify_module

    func = FuncOp("f", ((f32,), (f32, f32)))
    func.body.block.add_op(ReturnOp(func.body.block.args[0]))
    module = ModuleOp([func])
    assert location_prefix(func) == ""
    with pytest.raises(HeirpyError) as err:
        verify_module(module)
    assert str(err.value).startswith("error: 'func.return' op ")
    parsed = parse("func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}\n", "p.mlir")
    assert location_prefix(next(iter(parsed.body.block.ops))) == "p.mlir:1:1: "
