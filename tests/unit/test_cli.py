"""heirpy-opt's error paths: one diagnostic line, exit code 1, never a traceback."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from heirpy.tools.heirpy_opt import main

REPO = Path(__file__).resolve().parents[2]

GOOD = """func.func @f(%a: tensor<4x3xf32>, %x: tensor<3xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.matvec ins(%a, %x : tensor<4x3xf32>, tensor<3xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def run_cli(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """Run heirpy-opt as a user would, in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "heirpy.tools.heirpy_opt", *args],
        input=stdin.decode("utf-8", "replace") if stdin is not None else None,
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], expected: str) -> None:
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert expected in lines[0], lines[0]


def write(tmp_path: Path, text: str | bytes, name: str = "in.mlir") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_good_input_round_trips(tmp_path: Path) -> None:
    result = run_cli([str(write(tmp_path, GOOD))])
    assert result.returncode == 0, result.stderr
    assert "linalg.matvec ins(" in result.stdout


def test_missing_file(tmp_path: Path) -> None:
    assert_one_line_error(run_cli([str(tmp_path / "nope.mlir")]), "error: cannot read")


def test_directory_as_input(tmp_path: Path) -> None:
    assert_one_line_error(run_cli([str(tmp_path)]), "error: cannot read")


def test_parse_error_has_location(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("outs(%y : tensor<4xf32>)", "outs(%y tensor<4xf32>)"))
    assert_one_line_error(run_cli([str(path)]), f"{path}:2:")


def test_verify_error_names_op_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("tensor<3xf32>, %y", "tensor<5xf32>, %y").replace(
        "tensor<4x3xf32>, tensor<3xf32>)", "tensor<4x3xf32>, tensor<5xf32>)"))
    assert_one_line_error(run_cli([str(path)]), f"{path}:2:8: error: 'linalg.matvec' op")


def test_unknown_pass(tmp_path: Path) -> None:
    assert_one_line_error(
        run_cli([str(write(tmp_path, GOOD)), "-p", "frobnicate"]), "Unrecognized passes"
    )


def test_bad_pass_option(tmp_path: Path) -> None:
    assert_one_line_error(
        run_cli([str(write(tmp_path, GOOD)), "-p", "canonicalize{nope=3}"]), "nope"
    )


def test_bad_flag() -> None:
    assert_one_line_error(run_cli(["--frobnicate"]), "unrecognized arguments")


def test_non_utf8_input(tmp_path: Path) -> None:
    path = write(tmp_path, b"func.func @f() {\xff\xfe}\n")
    assert_one_line_error(run_cli([str(path)]), "not valid UTF-8")


def test_empty_file_is_an_empty_module(tmp_path: Path) -> None:
    result = run_cli([str(write(tmp_path, ""))])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("module {")


def test_unwritable_output(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    assert_one_line_error(
        run_cli([str(path), "-o", str(tmp_path / "no" / "such" / "dir.mlir")]), "cannot write"
    )


def test_debug_flag_shows_traceback(tmp_path: Path) -> None:
    result = run_cli([str(tmp_path / "nope.mlir"), "--debug"])
    assert result.returncode == 1
    assert "Traceback" in result.stderr


def test_split_input_reports_every_failing_chunk(tmp_path: Path) -> None:
    bad = GOOD.replace("outs(%y : tensor<4xf32>)", "outs(%y tensor<4xf32>)")
    path = write(tmp_path, bad + "// -----\n" + GOOD + "// -----\n" + bad)
    result = run_cli([str(path), "--split-input-file"])
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if "error:" in line]
    # Chunks 1 and 3 fail; line numbers count from the start of the whole file.
    assert [e.split(":")[1] for e in errors] == ["2", "12"], errors
    assert result.stdout.count("linalg.matvec ins(") == 1


def test_output_file(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    assert main([str(write(tmp_path, GOOD)), "-o", str(out), "--print-op-generic"]) == 0
    assert '"linalg.matvec"' in out.read_text()


def test_list_passes_lists_every_heirpy_pass(capsys: pytest.CaptureFixture[str]) -> None:
    from heirpy.transforms import HEIRPY_PASSES

    assert main(["--list-passes"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line]
    assert listed == sorted(HEIRPY_PASSES)


def test_list_all_passes_includes_xdsl(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list-passes=all"]) == 0
    out = capsys.readouterr().out
    assert any(line.startswith("canonicalize ") for line in out.splitlines())


# Modules that starting heirpy-opt must not import unless the input or the pipeline
# needs them (they are most of its start-up time; benchmarks/bench_startup.py measures it).
HEAVY = ("numpy", "heirpy.interp", "heirpy.export", "heirpy.analysis", "heirpy.ir.dialects.linalg",
         "heirpy.ir.dialects.tensor", "heirpy.ir.constants", "xdsl.dialects.linalg", "xdsl.dialects.arith")


def modules_loaded_by(argv: list[str], stdin: str = "") -> list[str]:
    """The heavy modules (and heirpy pass modules) a fresh heirpy-opt run imports."""
    code = (
        "import sys\nfrom heirpy.tools.heirpy_opt import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        f"heavy = {HEAVY!r}\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy) or "
        "(m.startswith('heirpy.transforms.') and m != 'heirpy.transforms.rewrite')), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True, timeout=120)
    return ast.literal_eval(done.stderr.strip().splitlines()[-1])


def test_help_imports_no_pass_no_numpy_no_evaluator() -> None:
    assert modules_loaded_by(["--help"]) == []


def test_printing_a_network_imports_no_numpy() -> None:
    """ResNet-20 writes weights as hex floats (`0x4B89F6C9`) and holds long splats:
    reading and printing them must not pay for importing numpy."""
    loaded = modules_loaded_by([str(REPO / "examples" / "resnet20.mlir"), "-o", os.devnull])
    assert not [m for m in loaded if m.startswith("numpy")]


def test_a_pipeline_imports_only_the_passes_and_dialects_it_needs() -> None:
    text = "func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n"
    assert modules_loaded_by(["-p", "dce"], text) == []
    loaded = modules_loaded_by(["-p", "report-kernels"], text)
    assert "heirpy.transforms.report.report_kernels" in loaded
    assert not [m for m in loaded if m.startswith(("heirpy.transforms.pointwise", "heirpy.transforms.linear"))]


def test_reader_closing_the_pipe_is_not_an_error(tmp_path: Path) -> None:
    """`heirpy-opt big.mlir | head`: once the reader is gone heirpy-opt stops quietly
    with SIGPIPE's status (141), as mlir-opt does; it was an "internal error" line."""
    body = "".join(f"  %v{i} = arith.addf %v{i - 1}, %v{i - 1} : tensor<4xf32>\n" for i in range(1, 40))
    chunk = f"func.func @f(%v0: tensor<4xf32>) -> tensor<4xf32> {{\n{body}  return %v39 : tensor<4xf32>\n}}\n"
    # About 300 KB of output: more than a pipe holds, so the writer is still writing
    # when the reader closes its end.
    path = write(tmp_path, "// -----\n".join([chunk] * 120))
    proc = subprocess.Popen(
        [sys.executable, "-m", "heirpy.tools.heirpy_opt", str(path), "--split-input-file"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"module {\n"
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert stderr == ""


def test_help_names_each_back_ends_one_step_pipeline(capsys: pytest.CaptureFixture[str]) -> None:
    """`--help` shows the one-step command for each back end, and the IREE one spells out
    exactly what `iree-prepare` runs (the epilog is text, so it could drift from the pass)."""
    from heirpy.transforms.iree.iree_prepare import iree_prepare_pipeline

    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "-p 'heir-prepare{slot-count=N}' | heir-opt" in help_text
    assert "-p iree-prepare | iree-compile -" in help_text
    # The epilog wraps the pipeline after a comma: read it back without the wrapping's space.
    assert f"iree-prepare = {iree_prepare_pipeline('cpu')}:" in help_text.replace(", ", ",")
    assert "lower-tensor-ext{target=gpu}" in help_text


def test_the_process_ends_with_all_its_output_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As the process, heirpy-opt exits without freeing the IR (`_end_process`): what it
    wrote to stdout and to `-o` must be complete all the same, and match `main(argv)`."""
    model = str(REPO / "examples" / "resnet_block.mlir")
    assert main([model]) == 0
    expected = capsys.readouterr().out
    out = tmp_path / "out.mlir"
    assert run_cli([model, "-o", str(out)]).returncode == 0
    assert out.read_text() == expected
    result = run_cli([model])
    assert result.returncode == 0 and result.stdout == expected
    assert run_cli([model, "-p", "no-such-pass"]).returncode == 1
