"""The lit/FileCheck tests' heirpy-only RUN lines, with heirpy-opt run inside pytest.

Not part of ./run-tests.sh (lit runs these RUN lines there already). It exists for
benchmarks/mutation_score.py: mutmut maps each mutant to the pytest tests that execute
its function and runs only those, so a pass checked mostly by FileCheck (the
canonicalizations, the fusions' must-not-fire cases) looks untested when heirpy-opt
runs in a lit subprocess. Here every `heirpy-opt ... [| heirpy-opt ...] | filecheck
...` RUN line under tests/filecheck/{transforms,generated} is one test: each
heirpy-opt stage runs in this process (so mutmut sees what it executes), FileCheck
runs as the lit test would run it, on the last stage's output.

RUN lines that involve other tools (heir-opt, iree-opt, xdsl-opt), files written by
an earlier RUN line (%t) or shell plumbing beyond `2>&1` are left to lit.

    nice -n 19 python benchmarks/mutation_score.py --paths src/heirpy/transforms/canonicalize \
        --tests tests/unit/test_linalg_canonicalizations.py tests/mutation/test_lit_in_process.py
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from heirpy.tools.heirpy_opt import main as heirpy_opt
from lint_filecheck import run_lines

ROOT = Path(__file__).resolve().parents[2]
FILECHECK_ROOT = ROOT / "tests" / "filecheck"
DIRECTORIES = ("transforms", "generated")
# benchmarks/mutation_score.py --lit PATH...: only the RUN lines of these files or folders
# (relative to tests/filecheck, comma-separated), so that a sample of a few passes traces
# their FileCheck lines without running all of them (the whole set's traced run is long).
ONLY = tuple(p.strip().rstrip("/") for p in os.environ.get("HEIRPY_LIT_ONLY", "").split(",") if p.strip())
# The tools installed next to this Python (filecheck, heir-opt, iree-opt, xdsl-opt come
# with the test extras), found even when the venv is not activated.
TOOL_ENV = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))


TOOLS = ("heir-opt", "iree-opt", "xdsl-opt")  # run as lit runs them, on heirpy's output
REDIRECTS = {  # what a stage passes on to the next, by its redirections
    (): "out",
    ("2>&1",): "both",
    ("2>&1", ">/dev/null"): "err",
    ("2>/dev/null",): "out",
}


@dataclass(frozen=True)
class Stage:
    tool: str  # heirpy-opt (run in this process) or one of TOOLS
    args: tuple[str, ...]
    passes: str  # "out", "err" or "both" (stderr first, as an unbuffered stream lands)
    expect_failure: bool  # `not heirpy-opt ...`


@dataclass(frozen=True)
class LitRun:
    """A RUN line this module can run: a heirpy-opt stage, maybe more tools, filecheck."""

    test: Path
    line: int
    stages: tuple[Stage, ...]
    filecheck: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.test.relative_to(FILECHECK_ROOT)}:{self.line}"


def _substitute(word: str, test: Path) -> str:
    return (
        word.replace("%examples", str(ROOT / "examples"))
        .replace("%inputs", str(FILECHECK_ROOT / "Inputs"))
        .replace("%S", str(test.parent))
        .replace("%s", str(test))
    )


def _stage(words: list[str], test: Path) -> Stage | None:
    expect_failure = words[:1] == ["not"]
    if expect_failure:
        words = words[1:]
    redirects: list[str] = []
    while words and words[-1] in ("2>&1", ">/dev/null", "2>/dev/null"):
        redirects.insert(0, words.pop())
    passes = REDIRECTS.get(tuple(redirects))
    if not words or passes is None or words[0] not in ("heirpy-opt", *TOOLS):
        return None
    if any(">" in w or "<" in w for w in words):
        return None
    args = tuple(_substitute(w, test) for w in words[1:])
    return Stage(words[0], args, passes, expect_failure)


def parse_run(test: Path, line: int, command: str) -> LitRun | None:
    """The run of one RUN line, or None when it needs a file of an earlier RUN line (%t)
    or a command other than heirpy-opt, the tools it feeds, and filecheck."""
    if "%t" in command:
        return None
    try:
        words = [shlex.split(stage) for stage in command.split("|")]
    except ValueError:
        return None
    *tools, check = words
    if not tools or not check or check[0] != "filecheck":
        return None
    stages: list[Stage] = []
    for words_of_stage in tools:
        stage = _stage(words_of_stage, test)
        if stage is None:
            return None
        stages.append(stage)
    if stages[0].tool != "heirpy-opt":
        return None
    return LitRun(test, line, tuple(stages), tuple(_substitute(w, test) for w in check[1:]))


def lit_runs() -> list[LitRun]:
    runs: list[LitRun] = []
    for directory in DIRECTORIES:
        for test in sorted((FILECHECK_ROOT / directory).rglob("*.mlir")):
            if "Inputs" in test.parts:
                continue
            name = test.relative_to(FILECHECK_ROOT).as_posix()
            if ONLY and not any(name == p or name.startswith(p + "/") for p in ONLY):
                continue
            for run in run_lines(test.read_text().splitlines()):
                parsed = parse_run(test, run.line, run.command)
                if parsed is not None:
                    runs.append(parsed)
    return runs


def run_stage(stage: Stage, stdin: str | None) -> tuple[int, str, str]:
    """A stage's exit code, stdout and stderr: heirpy-opt in this process (a piped
    input through a temporary file named last, as heirpy-opt reads stdin then), the
    other tools as subprocesses."""
    if stage.tool != "heirpy-opt":
        done = subprocess.run(
            [stage.tool, *stage.args], input=stdin or "", capture_output=True, text=True, check=False,
            env=TOOL_ENV,
        )
        return done.returncode, done.stdout, done.stderr
    out, err = io.StringIO(), io.StringIO()
    argv = list(stage.args)
    with tempfile.TemporaryDirectory() as scratch:
        if stdin is not None:
            piped = Path(scratch) / "stdin.mlir"
            piped.write_text(stdin)
            argv.append(str(piped))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = heirpy_opt(argv)
    return code, out.getvalue(), err.getvalue()


RUNS = lit_runs()


def test_most_run_lines_run_here() -> None:
    # Every RUN line but those reading %t files of an earlier line (diff-based
    # idempotence checks, left to lit); with HEIRPY_LIT_ONLY, at least one of its own.
    assert len(RUNS) >= (1 if ONLY else 110)


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.id)
def test_run_line(run: LitRun) -> None:
    text: str | None = None
    for stage in run.stages:
        code, out, err = run_stage(stage, text)
        described = f"{stage.tool} {' '.join(stage.args)}"
        if stage.expect_failure:
            assert code != 0, f"{described} succeeded; the test expects an error"
        else:
            assert code == 0, f"{described}: exit {code}\n{err}"
        text = {"out": out, "err": err, "both": err + out}[stage.passes]
    checked = subprocess.run(
        ["filecheck", *run.filecheck], input=text, capture_output=True, text=True, check=False, env=TOOL_ENV
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
