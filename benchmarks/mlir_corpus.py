"""MLIR fidelity: heirpy-opt against heir-opt on MLIR's and HEIR's own test files.

    python benchmarks/mlir_corpus.py --llvm SRC [--heir SRC] [--out build/corpus]
                                     [--core | --files GLOB ...] [--gaps] [--by-file]
                                     [--json FILE]

SRC is a source tree of llvm-project (or of HEIR): a directory, a `.tar.*` archive
(Debian's `llvm-toolchain-23_23.1.1.orig.tar.xz` from `apt-get source --download-only
llvm-toolchain-23` is one), a bare git directory (read at HEAD), or an http(s) URL of an
archive. The test files are copied from it at run time into `--out` (ignored by git);
nothing fetched is part of the repository.

MLIR's files (by default mlir/test/Dialect/{Linalg,Tensor}/**.mlir; `--core`: the
dialects' named-ops, roundtrip, ops and invalid files) are split on
`// -----`; a chunk is kept when every dialect it names is builtin, func, arith, math,
tensor or linalg. heir-opt (LLVM 24) gives each chunk its verdict: valid if it parses
and verifies, invalid otherwise (most invalid chunks carry `expected-error`); a chunk without `expected-error` that
heir-opt rejects only for an op its MLIR has since removed is "obsolete" and not
counted. heirpy-opt
(run in this process) then accepts, rejects (one clean diagnostic) or crashes (a
Python exception shown as "internal error" / "malformed operation (...Error", a
traceback, a hang). Every valid chunk heirpy accepts is printed by heirpy in custom and
in generic form and each print is re-parsed by heir-opt (round trip), and heirpy's custom
print is compared with heir-opt's print of the same chunk, line by line, with SSA value
and block names replaced by their order of appearance in each function (MLIR renames
every value; heirpy keeps the input's names): "printed as heir-opt prints it".

With `--heir`, HEIR's lit files for `linalg-canonicalizations` and
`linalg-fuse-linear-ops` run unchanged with heirpy-opt in place of heir-opt (the
heir-opt flags of the RUN line become a heirpy-opt pipeline) and the FileCheck verdict
is counted, for each whole file and for each of its `// -----` chunks on its own (the
chunk with its own CHECK lines, through the same RUN line; heir-opt runs the same
chunks as a control, and a failing chunk whose heir-opt output differs numerically from
its input is marked as expecting a miscompile); then every chunk of those files goes
through both tools and each output is compared with its input by heirpy's evaluator (3
random seeds).

`--gaps` lists, per op, the valid chunks heirpy does not accept and the invalid chunks
it accepts.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent

MLIR_FILES = ("mlir/test/Dialect/Linalg/**/*.mlir", "mlir/test/Dialect/Tensor/**/*.mlir")
CORE_FILES = tuple(
    f"mlir/test/Dialect/{name}.mlir"
    for name in ("Linalg/named-ops", "Linalg/roundtrip", "Linalg/invalid", "Tensor/ops", "Tensor/invalid")
)
"""The dialects' own round-trip and invalid-IR files: what the ops are, not what passes do."""
HEIR_FILES = (
    "tests/Transforms/linalg_canonicalizations/*.mlir",
    "tests/Transforms/linalg_fuse_linear_ops/*.mlir",
)
ALLOWED_DIALECTS = frozenset({"builtin", "func", "arith", "math", "tensor", "linalg"})
SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)
# `dialect.name` where an op, attribute (#d.x) or type (!d.x) may be named; not inside an
# SSA or symbol name, a float literal or a quoted string.
DIALECT_REF = re.compile(r"(?<![\w%@^$.\"'-])[#!]?([a-z_][a-z0-9_]*)\.[a-z_]")
QUOTED_OP = re.compile(r"\"([a-z_][a-z0-9_]*)\.[\w.]+\"\s*\(")
EXPECTED = re.compile(r"expected-(error|warning|remark|note)\s*(@[+-]?\w+)?")
UNKNOWN_OP = re.compile(r"custom op '[\w.]+' is unknown|is not registered|unregistered operation")
CRASH_MARKS = ("internal error", "malformed operation (", "Traceback")
HEIRPY_FLAGS = frozenset({"--split-input-file", "--verify-diagnostics", "--print-op-generic"})


# --- getting the files ---------------------------------------------------------------


def copy_tree(source: str, patterns: Sequence[str], dest: Path) -> list[Path]:
    """Copy the files of `source` matching `patterns` under `dest`, keeping their paths."""
    if re.match(r"https?://", source):
        local = dest.parent / "downloads" / source.rstrip("/").rsplit("/", 1)[-1]
        if not local.exists():
            local.parent.mkdir(parents=True, exist_ok=True)
            urllib.request.urlretrieve(source, local)  # noqa: S310 (the user's URL)
        source = str(local)
    path = Path(source)
    found = dict(_read_files(path, patterns))
    if not found:
        raise SystemExit(f"error: no file of {source} matches {', '.join(patterns)}")
    out = []
    for rel, data in sorted(found.items()):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        out.append(target)
    return out


def _relative(name: str, patterns: Sequence[str]) -> str | None:
    """`name` from the first component of a matching pattern on, or None."""
    parts = PurePosixPath(name).parts
    for pattern in patterns:
        first = PurePosixPath(pattern).parts[0]
        for i, part in enumerate(parts):
            if part == first:
                rel = PurePosixPath(*parts[i:])
                if _match(rel, pattern):
                    return str(rel)
    return None


def _match(rel: PurePosixPath, pattern: str) -> bool:
    if "**" in pattern:
        head, tail = pattern.split("/**/", 1)
        return str(rel).startswith(head + "/") and rel.match(tail)
    return rel.match(pattern) and len(rel.parts) == len(PurePosixPath(pattern).parts)


def _read_files(path: Path, patterns: Sequence[str]) -> Iterator[tuple[str, bytes]]:
    if path.is_dir() and (path / "HEAD").is_file() and (path / "objects").is_dir():
        names = subprocess.run(
            ["git", "--git-dir", str(path), "ls-tree", "-r", "--name-only", "HEAD"],
            check=True, capture_output=True, text=True,
        ).stdout.splitlines()
        for name in names:
            rel = _relative(name, patterns)
            if rel is not None:
                yield rel, subprocess.run(
                    ["git", "--git-dir", str(path), "show", f"HEAD:{name}"],
                    check=True, capture_output=True,
                ).stdout
    elif path.is_dir():
        for file in path.rglob("*.mlir"):
            rel = _relative(file.relative_to(path).as_posix(), patterns)
            if rel is not None:
                yield rel, file.read_bytes()
    elif tarfile.is_tarfile(path):
        with tarfile.open(path) as archive:
            for member in archive:
                rel = _relative(member.name, patterns) if member.isfile() else None
                if rel is not None:
                    stream = archive.extractfile(member)
                    assert stream is not None, "a regular member has data"
                    yield rel, stream.read()
    else:
        raise SystemExit(f"error: {path} is not a directory, git directory or archive")


# --- chunks ----------------------------------------------------------------------------


@dataclass
class Chunk:
    file: str  # path relative to the corpus root
    index: int
    line: int  # first line of the chunk in its file (1-based)
    text: str
    path: Path = Path()
    dialects: tuple[str, ...] = ()
    marked_invalid: bool = False
    mlir: str = ""  # "valid" / "invalid"
    mlir_error: str = ""
    heirpy: str = ""  # "accepted" / "rejected" / "crashed"
    heirpy_error: str = ""
    same_line: bool = False  # heirpy's error is on a line MLIR expects one
    custom_roundtrip: bool | None = None
    generic_roundtrip: bool | None = None
    print_difference: tuple[str, str] | None = None  # first line heir-opt / heirpy print differently
    ops: tuple[str, ...] = field(default_factory=tuple)

    @property
    def name(self) -> str:
        return f"{self.file}#{self.index}"


def split_chunks(rel: str, text: str) -> list[Chunk]:
    chunks, start, line = [], 0, 1
    for index, match in enumerate([*SPLIT.finditer(text), None]):
        end = match.start() if match else len(text)
        body = text[start:end]
        if _has_code(body):
            chunks.append(Chunk(rel, index, line, body))
        if match:
            line += text.count("\n", start, match.end()) + 1
            start = match.end() + 1
    return chunks


def _code(text: str) -> str:
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def _has_code(text: str) -> bool:
    return bool(_code(text).strip())


def dialects_of(text: str) -> tuple[str, ...]:
    code = _code(text)
    names = set(QUOTED_OP.findall(code))
    names.update(DIALECT_REF.findall(re.sub(r'"[^"\n]*"', '""', code)))
    return tuple(sorted(names))


OP_NAME = re.compile(r"\b((?:linalg|tensor|arith|math|func)\.[a-z_][a-z0-9_]*)")


def ops_of(text: str) -> tuple[str, ...]:
    return tuple(sorted(set(OP_NAME.findall(_code(text)))))


def expected_lines(text: str) -> set[int]:
    """Lines (1-based, in the chunk) on which MLIR's test expects a diagnostic."""
    lines = text.splitlines()
    out: set[int] = set()
    for number, line in enumerate(lines, start=1):
        for kind, where in EXPECTED.findall(line):
            if kind != "error":
                continue
            if not where:
                out.add(number)
            elif where in ("@above", "@below"):
                step = -1 if where == "@above" else 1
                target = number + step
                while 0 < target <= len(lines) and "expected-" in lines[target - 1]:
                    target += step
                out.add(target)
            elif re.fullmatch(r"@[+-]\d+", where):
                out.add(number + int(where[1:]))
    return out


# --- running the tools -------------------------------------------------------------------


class _Hang(BaseException):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hang()


def run_heirpy(args: Sequence[str], limit: int = 60, stdin: str | None = None) -> tuple[int, str, str]:
    """heirpy-opt's `main()` in this process: (exit code, stdout, stderr)."""
    from heirpy.tools.heirpy_opt import main as heirpy_opt

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(limit)
    try:
        if stdin is not None:
            sys.stdin = _TextStdin(stdin)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = heirpy_opt(list(args))
    except _Hang:
        return 124, out.getvalue(), f"hang: no answer in {limit} s"
    finally:
        signal.alarm(0)
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


class _TextStdin(io.StringIO):
    @property
    def buffer(self) -> io.BytesIO:
        return io.BytesIO(self.getvalue().encode())


def run_heir_opt(args: Sequence[str], stdin: str | None = None) -> tuple[int, str, str]:
    try:
        done = subprocess.run(
            ["heir-opt", *args], input=stdin, capture_output=True, text=True, timeout=120
        )
    except subprocess.TimeoutExpired:
        return 124, "", "timeout"
    return done.returncode, done.stdout, done.stderr


def first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error" in line:
            return line.strip()
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[0].strip() if lines else ""


def heirpy_verdict(code: int, stderr: str) -> str:
    if code == 124 or any(mark in stderr for mark in CRASH_MARKS):
        return "crashed"
    return "accepted" if code == 0 else "rejected"


_SSA_NAME = re.compile(r"[%^][A-Za-z0-9_$.\-]+")
_RESULTS = re.compile(r"\s*((?:%[A-Za-z0-9_$.\-]+(?::\d+)?)(?:, %[A-Za-z0-9_$.\-]+)*) = ")


def without_ssa_names(text: str) -> list[str]:
    """The printed lines of `text` with value and block names replaced by numbers in
    order of definition (`%0`, `%input` -> `%v0`; `%0#1` -> `%v0#1`), restarting in each
    function. A definition is an op result, a typed argument (`%x: f32`), a name bound
    with ` = ` (`iter_args(%acc = %1)`) or a block label; a later use of the same name
    means the latest definition, so two bodies that both call their argument `%in`
    compare equal to two that call them apart. Blank and comment lines and trailing
    spaces go."""
    names: dict[str, str] = {}
    count = 0
    lines = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        if "func.func" in line:
            names.clear()
            count = 0
        results = _RESULTS.match(line)
        defined_until = results.end(1) if results else -1

        def rename(match: re.Match[str], line: str = line, defined_until: int = defined_until) -> str:
            nonlocal count
            token, end = match.group(0), match.end()
            label = token[0] == "^" and line[: match.start()].strip() == ""
            if match.start() < defined_until or line.startswith((": ", " = "), end) or label:
                names[token] = f"{token[0]}v{count}"
                count += 1
            elif token not in names:  # a use ahead of its definition (a graph region)
                names[token] = f"{token[0]}v{count}"
                count += 1
            return names[token]

        lines.append(_SSA_NAME.sub(rename, line.rstrip()))
    return lines


def first_print_difference(mlir: str, heirpy: str) -> tuple[str, str] | None:
    """The first line (MLIR's, heirpy's) where the two prints differ, SSA names aside;
    None when they are the same."""
    a, b = without_ssa_names(mlir), without_ssa_names(heirpy)
    for x, y in zip(a, b):
        if x != y:
            return x.strip(), y.strip()
    if len(a) != len(b):
        return f"{len(a)} lines", f"{len(b)} lines"
    return None


def judge(chunk: Chunk) -> None:
    code, mlir_print, err = run_heir_opt([str(chunk.path)])
    chunk.mlir = "valid" if code == 0 else "invalid"
    chunk.mlir_error = "" if code == 0 else first_error(err)
    if chunk.mlir == "invalid" and not chunk.marked_invalid and UNKNOWN_OP.search(err):
        # An op the test file still uses but heir-opt's newer MLIR has removed (the
        # named elementwise ops): neither a valid nor an invalid example any more.
        chunk.mlir = "obsolete"
    code, out, err = run_heirpy([str(chunk.path)])
    chunk.heirpy = heirpy_verdict(code, err)
    chunk.heirpy_error = first_error(err)
    if chunk.heirpy == "rejected":
        where = re.match(r"[^:]+:(\d+):\d+: error", chunk.heirpy_error)
        chunk.same_line = bool(where) and int(where.group(1)) in expected_lines(chunk.text)
    if chunk.mlir == "valid" and chunk.heirpy == "accepted":
        chunk.custom_roundtrip = run_heir_opt(["-"], stdin=out)[0] == 0
        chunk.print_difference = first_print_difference(mlir_print, out)
        code, generic, _ = run_heirpy([str(chunk.path), "--print-op-generic"])
        chunk.generic_roundtrip = code == 0 and run_heir_opt(["-"], stdin=generic)[0] == 0


# --- HEIR's lit files ----------------------------------------------------------------


def heirpy_args(heir_args: Sequence[str]) -> tuple[list[str], list[str]]:
    """heirpy-opt arguments for a heir-opt command line, and the passes heirpy lacks.

    Each `--pass-name` flag that is not one of the driver's own flags is a pass of the
    pipeline, in order, as in mlir-opt.
    """
    from heirpy.transforms import available_passes

    known = available_passes()
    flags: list[str] = []
    passes: list[str] = []
    missing: list[str] = []
    for arg in heir_args:
        if arg in HEIRPY_FLAGS or not arg.startswith("--"):
            flags.append(arg)
            continue
        name, _, options = arg[2:].partition("=")
        passes.append(f"{name}{{{options}}}" if options else name)
        if name not in known:
            missing.append(name)
    if passes:
        flags += ["-p", ",".join(passes)]
    return flags, missing


@dataclass
class LitResult:
    file: str
    passed: bool
    missing_passes: list[str]
    detail: str


def run_lines_of(path: Path) -> list[str]:
    return re.findall(r"^// RUN:(.*)$", path.read_text(), re.MULTILINE)


def run_heir_lit(path: Path, rel: str, run_lines: Sequence[str] | None = None) -> LitResult:
    """Run the file's RUN lines (or `run_lines`, with `%s` = `path`) with heirpy-opt for
    heir-opt; FileCheck judges the output."""
    if run_lines is None:
        run_lines = run_lines_of(path)
    missing: list[str] = []
    for line in run_lines:
        stages = [shlex.split(stage.replace("%s", str(path))) for stage in line.split("|")]
        tool, *args = stages[0]
        if tool != "heir-opt":
            return LitResult(rel, False, [], f"RUN line starts with {tool}")
        flags, lacking = heirpy_args(args)
        missing += lacking
        code, out, err = run_heirpy(flags)
        if code != 0:
            return LitResult(rel, False, missing, first_error(err).replace(str(path), rel))
        for stage in stages[1:]:
            if stage[0] != "FileCheck":
                return LitResult(rel, False, missing, f"unsupported RUN stage {stage[0]}")
            check = subprocess.run(
                ["filecheck", *stage[1:]], input=out, capture_output=True, text=True
            )
            if check.returncode != 0:
                detail = first_error(check.stderr + check.stdout).replace(str(path), rel)
                return LitResult(rel, False, missing, detail)
    return LitResult(rel, True, missing, "")


@dataclass
class LitChunkResult:
    chunk: str  # file#index, as the numerics name it
    line: int  # first line of the chunk in its file
    functions: list[str]
    verdict: str  # "pass" / "FAIL" / "no checks"
    detail: str  # the first error, at the line of the original file
    missing_passes: list[str]  # HEIR-only passes of the RUN line
    heir_opt_passes: bool  # the control: heir-opt's own output of the chunk passes its checks
    heir_output_differs: bool = False  # heir-opt's own output differs numerically from its input

    @property
    def heir_miscompile(self) -> bool:
        """HEIR's expectation is a miscompile: heir-opt's output differs from its input and
        every pass of the RUN line is one heirpy has too (a HEIR-only pass may change
        values on purpose, so such a chunk is only flagged, not counted)."""
        return self.heir_output_differs and not self.missing_passes


def run_heir_lit_chunks(path: Path, rel: str, out_dir: Path) -> list[LitChunkResult]:
    """Each `// -----` chunk of a lit file on its own: its text (after as many empty
    lines as precede it, so FileCheck's line numbers are the file's) through the file's
    RUN lines, checked against its own CHECK lines."""
    run_lines = run_lines_of(path)
    results = []
    for chunk in split_chunks(rel, path.read_text()):
        chunk_path = out_dir / f"{rel.replace('/', '__')}.{chunk.index}.mlir"
        chunk_path.parent.mkdir(parents=True, exist_ok=True)
        chunk_path.write_text("\n" * (chunk.line - 1) + chunk.text)
        lit = run_heir_lit(chunk_path, rel, run_lines)
        verdict = "pass" if lit.passed else "FAIL"
        if not lit.passed and "no check strings found" in lit.detail.lower():
            verdict = "no checks"
        results.append(LitChunkResult(
            chunk.name, chunk.line, _functions(chunk.text), verdict, lit.detail, lit.missing_passes,
            heir_opt_lit(chunk_path, run_lines),
        ))
    return results


def heir_opt_lit(path: Path, run_lines: Sequence[str]) -> bool:
    """The RUN lines with heir-opt itself: whether splitting lost nothing the checks need."""
    for line in run_lines:
        stages = [shlex.split(stage.replace("%s", str(path))) for stage in line.split("|")]
        code, out, _ = run_heir_opt(stages[0][1:])
        if code != 0:
            return False
        for stage in stages[1:]:
            check = subprocess.run(["filecheck", *stage[1:]], input=out, capture_output=True, text=True)
            if check.returncode != 0:
                return False
    return True


@dataclass
class NumericResult:
    chunk: str
    function: str
    heir: str  # "equal" / "MISMATCH" / "error: ..." / "not evaluated: ..."
    heirpy: str


def compare_numerics(path: Path, rel: str, out_dir: Path) -> list[NumericResult]:
    """Each chunk through both tools; each output against its input with the evaluator."""
    run_lines = run_lines_of(path)
    args = [a for a in shlex.split(run_lines[0].split("|")[0])[1:] if a != "%s"]
    heir_args = [a for a in args if a != "--split-input-file"]
    heirpy_flags, missing = heirpy_args(heir_args)
    if missing:  # run what heirpy has; say so in the table
        passes = [p for p in heirpy_flags[heirpy_flags.index("-p") + 1].split(",")
                  if p.split("{")[0] not in missing]
        heirpy_flags = ["-p", ",".join(passes)] if passes else []
    results = []
    for chunk in split_chunks(rel, path.read_text()):
        chunk_path = out_dir / f"{Path(rel).stem}.{chunk.index}.mlir"
        chunk_path.write_text(chunk.text)
        code, heir_out, heir_err = run_heir_opt([*heir_args, str(chunk_path)])
        heir_text = heir_out if code == 0 else None
        code, heirpy_out, heirpy_err = run_heirpy([*heirpy_flags, str(chunk_path)])
        heirpy_text = heirpy_out if code == 0 else None
        for function in _functions(chunk.text):
            results.append(NumericResult(
                chunk.name, function,
                _equal(chunk.text, heir_text, function, first_error(heir_err)),
                _equal(chunk.text, heirpy_text, function, first_error(heirpy_err)),
            ))
    return results


def _functions(text: str) -> list[str]:
    return re.findall(r"func\.func\s+(?:public\s+)?@([\w$.]+)\s*\(", text)


@contextlib.contextmanager
def _empty_reads_zero() -> Iterator[None]:
    """Evaluate `tensor.empty` as zeros while comparing HEIR's cases.

    In MLIR a `tensor.empty` holds undefined values and heirpy's evaluator fills it with
    NaN so a read shows. HEIR's tests accumulate matmuls and pools into bare
    `tensor.empty` inits and mean zeros (what torch-mlir's `linalg.fill` gives), so the
    comparison takes that reading, for both tools alike.
    """
    from heirpy.interp import tensor_ops

    saved = tensor_ops.EMPTY_FLOAT_VALUE
    tensor_ops.EMPTY_FLOAT_VALUE = 0.0
    try:
        yield
    finally:
        tensor_ops.EMPTY_FLOAT_VALUE = saved


def _equal(before: str, after: str | None, function: str, error: str) -> str:
    import heirpy
    from heirpy.interp.equivalence import check_equivalence

    if after is None:
        return f"error: {error}"
    try:
        with _empty_reads_zero():
            # Two tools computing the same NaN or Inf agree (the figures count it so).
            report = check_equivalence(heirpy.parse(before), heirpy.parse(after), function, nonfinite_equal=True)
    except Exception as err:  # noqa: BLE001 (an unevaluable chunk is a table entry)
        return f"not evaluated: {str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__}"
    if report.problems:
        return f"not evaluated: {report.problems[0]}"
    return "equal" if report.ok else "MISMATCH"


# --- report ----------------------------------------------------------------------------


def summarize(chunks: Sequence[Chunk]) -> dict[str, int]:
    valid = [c for c in chunks if c.mlir == "valid"]
    invalid = [c for c in chunks if c.mlir == "invalid"]
    tensor = [c for c in valid if "tensor<" in c.text]
    return {
        "chunks": len(chunks),
        "valid": len(valid),
        "valid_accepted": sum(c.heirpy == "accepted" for c in valid),
        "valid_rejected": sum(c.heirpy == "rejected" for c in valid),
        "valid_crashed": sum(c.heirpy == "crashed" for c in valid),
        "tensor_valid": len(tensor),
        "tensor_valid_accepted": sum(c.heirpy == "accepted" for c in tensor),
        "invalid": len(invalid),
        "invalid_marked": sum(c.marked_invalid for c in invalid),
        "invalid_rejected": sum(c.heirpy == "rejected" for c in invalid),
        "invalid_rejected_same_line": sum(c.same_line for c in invalid),
        "invalid_accepted": sum(c.heirpy == "accepted" for c in invalid),
        "invalid_crashed": sum(c.heirpy == "crashed" for c in invalid),
        "obsolete": sum(c.mlir == "obsolete" for c in chunks),
        "crashed": sum(c.heirpy == "crashed" for c in chunks),
        "custom_roundtrip": sum(bool(c.custom_roundtrip) for c in valid),
        "generic_roundtrip": sum(bool(c.generic_roundtrip) for c in valid),
        "same_print": sum(c.heirpy == "accepted" and c.print_difference is None for c in valid),
    }


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def print_table(s: dict[str, int]) -> None:
    print("| MLIR corpus (heir-opt's verdict) | chunks | heirpy accepts | rejects | crashes |")
    print("|---|---|---|---|---|")
    print(f"| valid | {s['valid']} | {s['valid_accepted']} ({_pct(s['valid_accepted'], s['valid'])}) "
          f"| {s['valid_rejected']} | {s['valid_crashed']} |")
    print(f"| valid, tensor-typed | {s['tensor_valid']} | {s['tensor_valid_accepted']} "
          f"({_pct(s['tensor_valid_accepted'], s['tensor_valid'])}) | | |")
    print(f"| invalid ({s['invalid_marked']} with expected-error) | {s['invalid']} "
          f"| {s['invalid_accepted']} | {s['invalid_rejected']} "
          f"({_pct(s['invalid_rejected'], s['invalid'])}; {s['invalid_rejected_same_line']} "
          f"on the expected line) | {s['invalid_crashed']} |")
    print(f"\nround trip of the {s['valid_accepted']} valid chunks heirpy accepts, re-parsed by "
          f"heir-opt: custom print {s['custom_roundtrip']}, generic print {s['generic_roundtrip']}")
    print(f"printed as heir-opt prints it, SSA names aside: {s['same_print']} of {s['valid_accepted']}")
    print(f"Python exceptions shown as diagnostics (all chunks): {s['crashed']}")
    print(f"not counted: {s['obsolete']} chunks using ops heir-opt's MLIR no longer has")


def print_by_file(chunks: Sequence[Chunk]) -> None:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for c in chunks:
        rows[c.file][f"{c.mlir} {c.heirpy}"] += 1
    print("\n| file | valid: accepted / rejected / crashed | invalid: rejected / accepted / crashed |")
    print("|---|---|---|")
    for file in sorted(rows):
        r = rows[file]
        print(f"| {file} | {r['valid accepted']} / {r['valid rejected']} / {r['valid crashed']} "
              f"| {r['invalid rejected']} / {r['invalid accepted']} / {r['invalid crashed']} |")


def print_gaps(chunks: Sequence[Chunk]) -> None:
    gaps: dict[str, list[Chunk]] = defaultdict(list)
    for c in chunks:
        if c.mlir == "valid" and c.heirpy != "accepted":
            gaps[f"valid not accepted: {_culprit(c)}"].append(c)
        elif c.mlir == "invalid" and c.heirpy != "rejected":
            gaps[f"invalid {c.heirpy}: {_culprit(c)}"].append(c)
        if c.mlir == "valid" and c.heirpy == "accepted" and not (c.custom_roundtrip and c.generic_roundtrip):
            gaps[f"round trip fails: {', '.join(c.ops)}"].append(c)
        if c.mlir == "valid" and c.print_difference is not None:
            gaps["printed unlike heir-opt"].append(c)
    print("\n## Gaps by op (most frequent first)")
    for key, items in sorted(gaps.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"- {len(items)} x {key}")
        for c in items[:3]:
            why = c.heirpy_error if c.mlir == "valid" else c.mlir_error
            if c.print_difference is not None and key == "printed unlike heir-opt":
                why = "heir-opt: {} | heirpy: {}".format(*(line[:100] for line in c.print_difference))
            print(f"    {c.name}: {why[:200]}")


def _culprit(chunk: Chunk) -> str:
    """The op a gap is about: the op named in the diagnostic, else the chunk's rarest op."""
    text = chunk.heirpy_error if chunk.mlir == "valid" else chunk.mlir_error
    named = re.search(r"'((?:linalg|tensor|arith|math|func)\.\w+)'", text) or OP_NAME.search(text)
    if named:
        return named.group(1)
    common = {"func.func", "func.return", "arith.constant", "tensor.empty", "linalg.fill", "linalg.yield"}
    rare = [op for op in chunk.ops if op not in common]
    return rare[0] if rare else (chunk.ops[0] if chunk.ops else "?")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llvm", help="llvm-project: directory, archive, bare git dir or URL")
    parser.add_argument("--heir", help="google/heir: directory, archive, bare git dir or URL")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "corpus")
    parser.add_argument("--files", nargs="*", default=list(MLIR_FILES),
                        help="MLIR test files to use (globs under the llvm-project root)")
    parser.add_argument("--core", action="store_const", dest="files", const=list(CORE_FILES),
                        help="only the round-trip and invalid-IR files of linalg and tensor")
    parser.add_argument("--gaps", action="store_true", help="list the gaps by op")
    parser.add_argument("--by-file", action="store_true", help="a row per test file")
    parser.add_argument("--json", type=Path, help="write every chunk's verdicts here")
    args = parser.parse_args()
    if shutil.which("heir-opt") is None:
        raise SystemExit("error: heir-opt is not on PATH (pip install heir-py)")
    if not args.llvm and not args.heir:
        parser.error("give --llvm and/or --heir")
    report: dict[str, object] = {}
    if args.llvm:
        chunks = mlir_chunks(args.llvm, args.files, args.out)
        print(f"{len(chunks)} chunks use only {', '.join(sorted(ALLOWED_DIALECTS))}\n")
        for chunk in chunks:
            judge(chunk)
        summary = summarize(chunks)
        print_table(summary)
        if args.by_file:
            print_by_file(chunks)
        if args.gaps:
            print_gaps(chunks)
        report["mlir"] = {"summary": summary,
                          "chunks": [{**asdict(c), "path": str(c.path), "text": None} for c in chunks]}
    if args.heir:
        report["heir"] = heir_section(args.heir, args.out)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


def mlir_chunks(source: str, patterns: Sequence[str], out: Path) -> list[Chunk]:
    root = out / "llvm"
    shutil.rmtree(root, ignore_errors=True)
    files = copy_tree(source, patterns, root)
    chunk_dir = out / "chunks"
    shutil.rmtree(chunk_dir, ignore_errors=True)
    kept: list[Chunk] = []
    for file in files:
        rel = file.relative_to(root).as_posix()
        for chunk in split_chunks(rel, file.read_text(errors="replace")):
            chunk.dialects = dialects_of(chunk.text)
            if not set(chunk.dialects) <= ALLOWED_DIALECTS:
                continue
            chunk.ops = ops_of(chunk.text)
            chunk.marked_invalid = "expected-error" in chunk.text
            chunk.path = chunk_dir / f"{rel.replace('/', '__')}.{chunk.index}.mlir"
            chunk.path.parent.mkdir(parents=True, exist_ok=True)
            chunk.path.write_text(chunk.text)
            kept.append(chunk)
    return kept


def heir_section(source: str, out: Path) -> dict[str, object]:
    root = out / "heir"
    shutil.rmtree(root, ignore_errors=True)
    files = copy_tree(source, HEIR_FILES, root)
    lit = [run_heir_lit(f, f.relative_to(root).as_posix()) for f in files]
    chunk_dir = out / "heir-lit-chunks"
    shutil.rmtree(chunk_dir, ignore_errors=True)
    chunks = {f: run_heir_lit_chunks(f, f.relative_to(root).as_posix(), chunk_dir) for f in files}
    numeric_dir = out / "heir-chunks"
    numeric_dir.mkdir(parents=True, exist_ok=True)
    numerics = [n for f in files for n in compare_numerics(f, f.relative_to(root).as_posix(), numeric_dir)]
    differs = {n.chunk for n in numerics if n.heir == "MISMATCH"}
    for results in chunks.values():
        for c in results:
            c.heir_output_differs = c.chunk in differs
    print_heir_lit(lit, [chunks[f] for f in files])
    tally = {tool: Counter(getattr(n, tool).split(":")[0] for n in numerics) for tool in ("heir", "heirpy")}
    print(f"\nNumerics of each output against its input ({len(numerics)} functions):")
    for tool, label in (("heir", "heir-opt"), ("heirpy", "heirpy-opt")):
        print(f"  {label}: " + ", ".join(f"{k} {v}" for k, v in sorted(tally[tool].items())))
    for n in numerics:
        if "MISMATCH" in (n.heir, n.heirpy):
            print(f"  MISMATCH {n.chunk} @{n.function}: heir-opt {n.heir}, heirpy {n.heirpy}")
    return {
        "lit": [asdict(r) for r in lit],
        "lit_chunks": [asdict(c) for f in files for c in chunks[f]],
        "numerics": [asdict(n) for n in numerics],
    }


def print_heir_lit(lit: Sequence[LitResult], chunks: Sequence[Sequence[LitChunkResult]]) -> None:
    """Whole files, then each chunk on its own: a file passes only if every chunk does,
    so the chunk count says how much of a failing file heirpy already matches."""
    counted = [c for file_chunks in chunks for c in file_chunks if c.verdict != "no checks"]
    passing = [c for c in counted if c.verdict == "pass"]
    print(f"\nHEIR's lit files with heirpy-opt for heir-opt: {sum(r.passed for r in lit)} of "
          f"{len(lit)} pass")
    failing = [c for c in counted if c.verdict == "FAIL"]
    wrong = sum(c.heir_miscompile for c in failing)
    control = sum(c.heir_opt_passes for c in counted)
    print(f"their `// -----` chunks, each alone with its own CHECK lines: {len(passing)} of {len(counted)} "
          f"pass (heir-opt itself: {control} of {len(counted)})"
          + (f"; {wrong} of the {len(failing)} failing expect what heir-opt miscompiles" if wrong else ""))
    print("\n| HEIR lit file | FileCheck | chunks passing | first failure |")
    print("|---|---|---|---|")
    for r, file_chunks in zip(lit, chunks):
        note = f" (HEIR-only pass: {', '.join(r.missing_passes)})" if r.missing_passes else ""
        checked = [c for c in file_chunks if c.verdict != "no checks"]
        ok = sum(c.verdict == "pass" for c in checked)
        print(f"| {r.file} | {'pass' if r.passed else 'FAIL'}{note} | {ok}/{len(checked)} | {r.detail[:160]} |")
    print(f"| total | {sum(r.passed for r in lit)}/{len(lit)} | {len(passing)}/{len(counted)} | |")
    if failing:
        print("\nFailing chunks (function: first error, at the file's line):")
    for c in failing:
        where = ", ".join(f"@{name}" for name in c.functions) or f"line {c.line}"
        mark = " [HEIR's expectation is a miscompile: heir-opt's output differs from its input]" \
            if c.heir_miscompile else ""
        if c.missing_passes:
            also = "; heir-opt's output differs from its input" if c.heir_output_differs else ""
            mark = f" [HEIR-only pass: {', '.join(c.missing_passes)}{also}]"
        file = c.chunk.rsplit("#", 1)[0]
        detail = re.sub(rf"^{re.escape(file)}:(\d+): ", r"line \1: ", c.detail)
        print(f"  {c.chunk} {where}: {detail[:200]}{mark}")
    unchecked = [c.chunk for file_chunks in chunks for c in file_chunks if c.verdict == "no checks"]
    if unchecked:
        print(f"not counted (no CHECK line of the RUN line's prefix): {', '.join(unchecked)}")


if __name__ == "__main__":
    sys.exit(main())
