"""Lint lit/FileCheck tests for checks that cannot fail.

    python tests/lint_filecheck.py [PATH ...]      (default: tests/filecheck)

Prints one ``file:line: [rule] message`` per finding and exits 1 if there is any.
The rules (each one a way a test stays green while checking nothing):

not-after-last-match  a CHECK-NOT after the last positive match of its CHECK-LABEL block
                      only scans what follows that match, typically `}`; put it between
                      the matches it guards.
not-before-first-label  a CHECK-NOT ahead of the first CHECK-LABEL (and of any positive
                      match) scans only the text before that label, the module header.
unbounded-not         a FileCheck run whose checks are all CHECK-NOTs: nothing anchors them,
                      so any output without the pattern passes (an emptied function too).
run-checks-nothing    a RUN line with no FileCheck, no `not`, no diff/cmp and no
                      --verify-diagnostics whose output nobody reads (neither a %t file a
                      later RUN line uses nor an explicit `> /dev/null`, which says that
                      only the exit status matters).
misspelled-directive  `CHECK :`, `check:`, `CHEKC:`, `CHECK-NXT:`, `CHECK-NEXT foo`: text
                      FileCheck does not take for a directive, so it checks nothing.
unchecked-prefix      directives with a prefix that no RUN line passes to FileCheck.
unused-prefix         a prefix passed to FileCheck with no directive in the file.
unavailable-feature   `%if F` or `REQUIRES: F` where lit.cfg never adds feature F: the RUN
                      line (or file) is dropped and lit reports PASS.
requires-too-broad    `REQUIRES: F` in a file with RUN lines that do not use F: it switches
                      those checks off too whenever F is missing; split the file.
open-last-label       a prefix's last CHECK-LABEL names a function that other functions of
                      the file follow, and its block has plain CHECK (or DAG) lines: with no
                      label after it, they may match in those later functions, so the
                      function they are meant for is not what they check. Add that
                      prefix's LABEL for the next function (a LABEL alone bounds it).

Directories named `Inputs` hold inputs for other tests and are skipped, as lit skips them.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = ("NEXT", "SAME", "NOT", "DAG", "LABEL", "EMPTY")
_SUFFIX_RE = r"(?:NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-[0-9]+)"
# Uppercase words followed by a colon that are not FileCheck prefixes.
NOT_PREFIXES = frozenset(
    {"RUN", "REQUIRES", "UNSUPPORTED", "XFAIL", "ALLOW_RETRIES", "COM", "END",
     "TODO", "NOTE", "FIXME", "NB", "XXX", "HACK", "WARNING"}
)
COMPARE_TOOLS = frozenset({"diff", "cmp"})
FILECHECK_NAMES = frozenset({"filecheck", "FileCheck"})
LINT_SUFFIXES = (".mlir",)

_COMMENT_RE = re.compile(r"//(.*)$")
_RUN_RE = re.compile(r"^\s*//\s*RUN:(.*)$")
_REQUIRES_RE = re.compile(r"^\s*//\s*REQUIRES:(.*)$")
_IF_RE = re.compile(r"%if\s+([^%]+?)\s*%\{(.*?)%\}(?:\s*%else\s*%\{(.*?)%\})?")
# A directive as FileCheck reads it, for a given set of prefixes (see _directive_re).
_CANDIDATE_RE = re.compile(
    r"(?<![A-Za-z_-])([A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*?)"
    rf"(-{_SUFFIX_RE})?(\{{LITERAL\}})?:"
)
# Anything that looks like `WORD-SUFFIX ... :` or `WORD :`, to find near misses.
_NEAR_RE = re.compile(
    r"(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9_]*)((?:-[A-Za-z0-9]+)*)(\{LITERAL\})?(\s*):"
)

_IR_LIKE = re.compile(r"%|\{\{|\[\[|\b[a-z_]+\.[a-z_]+\b")


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: [{self.rule}] {self.message}"


@dataclass(frozen=True)
class Directive:
    line: int
    prefix: str
    kind: str  # CHECK, NEXT, SAME, NOT, DAG, LABEL, EMPTY, COUNT

    @property
    def positive(self) -> bool:
        return self.kind != "NOT"


@dataclass(frozen=True)
class RunLine:
    line: int
    command: str  # continuations joined, `%if` unwrapped
    features: tuple[str, ...]  # the `%if` features guarding it


@dataclass(frozen=True)
class Invocation:
    """One FileCheck call of a RUN line: its prefixes and the file holding its checks."""

    run: RunLine
    prefixes: tuple[str, ...]
    match_file: str


# ---------------------------------------------------------------------------- parsing


def run_lines(lines: Sequence[str]) -> list[RunLine]:
    """RUN lines with `\\` continuations joined and `%if F %{ cmd %}` unwrapped."""
    runs: list[RunLine] = []
    pending: list[str] = []
    start = 0
    for number, text in enumerate(lines, 1):
        match = _RUN_RE.match(text)
        if match is None:
            continue
        body = match.group(1).strip()
        if not pending:
            start = number
        if body.endswith("\\"):
            pending.append(body[:-1].strip())
            continue
        pending.append(body)
        command = " ".join(pending)
        pending = []
        features: list[str] = []
        for cond in _IF_RE.finditer(command):
            features.extend(_feature_names(cond.group(1)))
        command = _IF_RE.sub(lambda m: m.group(2), command).strip()
        runs.append(RunLine(start, command, tuple(features)))
    return runs


def _feature_names(expression: str) -> list[str]:
    return [w for w in re.split(r"[\s,&|!()]+", expression) if w and w not in ("true", "false")]


def _stages(command: str) -> list[list[str]]:
    """The simple commands of a RUN line, split at `|`, `&&`, `||` and `;`."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;<>")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError:
        tokens = command.split()
    stages: list[list[str]] = [[]]
    for token in tokens:
        if token in ("|", "||", "&&", ";", "|&"):
            stages.append([])
        else:
            stages[-1].append(token)
    return [stage for stage in stages if stage]


def _program(stage: list[str]) -> tuple[str, list[str]]:
    """The program a stage runs (past `not`, `env X=Y`) and its arguments."""
    index = 0
    while index < len(stage) and (stage[index] in ("not", "env", "--crash")
                                  or re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", stage[index])):
        index += 1
    if index >= len(stage):
        return "", []
    return Path(stage[index]).name, stage[index + 1:]


def filecheck_invocations(run: RunLine) -> list[Invocation]:
    invocations: list[Invocation] = []
    for stage in _stages(run.command):
        program, args = _program(stage)
        if program not in FILECHECK_NAMES:
            continue
        prefixes: list[str] = []
        match_file = ""
        index = 0
        while index < len(args):
            arg = args[index]
            name, _, value = arg.partition("=")
            if name.lstrip("-") in ("check-prefix", "check-prefixes"):
                if not value and index + 1 < len(args):
                    index += 1
                    value = args[index]
                prefixes.extend(p for p in value.split(",") if p)
            elif name.lstrip("-") in ("input-file", "comment-prefixes", "D") and not value:
                index += 1
            elif not arg.startswith("-") and not match_file and arg not in ("<", ">"):
                match_file = arg
            index += 1
        invocations.append(Invocation(run, tuple(prefixes) or ("CHECK",), match_file))
    return invocations


def directives(lines: Sequence[str], prefixes: Iterable[str]) -> list[Directive]:
    """The directives FileCheck sees with these prefixes, in file order.

    Like FileCheck, a line where a comment prefix (COM, RUN) comes before one of the
    prefixes is not read for directives.
    """
    wanted = set(prefixes)
    skip = re.compile("(COM|RUN).*(" + "|".join(map(re.escape, sorted(wanted))) + ")")
    found: list[Directive] = []
    for number, text in enumerate(lines, 1):
        comment = _COMMENT_RE.search(text)
        if comment is None or skip.search(text) or _is_lit_line(text):
            continue
        for match in _CANDIDATE_RE.finditer(comment.group(1)):
            if match.group(1) not in wanted:
                continue
            suffix = (match.group(2) or "-CHECK")[1:]
            kind = "COUNT" if suffix.startswith("COUNT") else suffix
            found.append(Directive(number, match.group(1), kind))
            break
    return found


def _is_lit_line(text: str) -> bool:
    """RUN/COM lines: FileCheck skips a line with a comment prefix before the check."""
    return re.search(r"//\s*(RUN|COM|REQUIRES|UNSUPPORTED|XFAIL)\s*:", text) is not None


def used_prefixes(lines: Sequence[str]) -> dict[str, int]:
    """Uppercase words used as directive prefixes, with the first line using each."""
    used: dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        comment = _COMMENT_RE.search(text)
        if comment is None or _is_lit_line(text):
            continue
        # Only at the start of a comment: `%[[K:.*]]` inside a check is not a prefix.
        match = _CANDIDATE_RE.match(comment.group(1).strip())
        if match and match.group(1).isupper() and match.group(1) not in NOT_PREFIXES:
            used.setdefault(match.group(1), number)
    return used


def lit_features(config_text: str) -> frozenset[str]:
    """Features a lit config can add (string literals passed to available_features)."""
    names = re.findall(r"available_features\.add\(\s*[\"']([^\"']+)[\"']\s*\)", config_text)
    for group in re.findall(r"available_features\.update\(([^)]*)\)", config_text):
        names.extend(re.findall(r"[\"']([^\"']+)[\"']", group))
    return frozenset(names)


# ------------------------------------------------------------------------------ rules


def lint_text(text: str, path: str = "test.mlir",
              features: frozenset[str] = frozenset()) -> list[Finding]:
    """All findings for one test file's text; `features` are those lit may provide."""
    lines = text.splitlines()
    runs = run_lines(lines)
    findings: list[Finding] = []
    own_invocations: list[Invocation] = []
    for run in runs:
        for invocation in filecheck_invocations(run):
            if invocation.match_file in ("%s", path):
                own_invocations.append(invocation)

    findings += _rule_runs(path, runs)
    findings += _rule_prefixes(path, lines, own_invocations)
    findings += _rule_not_placement(path, lines, own_invocations)
    findings += _rule_misspelled(path, lines, own_invocations)
    findings += _rule_features(path, lines, runs, features)
    findings += _rule_open_last_label(path, lines, own_invocations)
    return sorted(set(findings))


_FUNC_RE = re.compile(r"^\s*func\.func\s+(?:(?:private|public|nested)\s+)?@([\w.$-]+)")
_LABELLED_FUNC_RE = re.compile(r"func\.func\s+(?:(?:private|public|nested)\s+)?@([\w.$-]+)")


def _rule_open_last_label(path: str, lines: list[str],
                          invocations: list[Invocation]) -> list[Finding]:
    """The last LABEL of a prefix bounds nothing after it: plain CHECKs in its block may
    match in the functions that follow the labelled one (see the module docstring)."""
    # Functions with a body (a declaration holds no ops a check could wrongly match).
    functions = [m.group(1) for text in lines for m in [_FUNC_RE.match(text)] if m and "{" in text]
    findings = []
    for inv in invocations:
        if not any(run_input_is_this_file(stage) for stage in _stages(inv.run.command)):
            continue  # the output comes from another file: its function order is unknown
        seen = directives(lines, inv.prefixes)
        labels = [d for d in seen if d.kind == "LABEL"]
        if not labels:
            continue
        last = labels[-1]
        named = _LABELLED_FUNC_RE.search(lines[last.line - 1])
        if named is None or named.group(1) not in functions:
            continue
        later = functions[functions.index(named.group(1)) + 1:]
        loose = [d for d in seen if d.line > last.line and d.kind in ("CHECK", "DAG", "COUNT")]
        if later and loose:
            findings.append(Finding(
                path, loose[0].line, "open-last-label",
                f"{last.prefix}-LABEL at line {last.line} is the last one but @{later[0]} "
                f"follows @{named.group(1)}: this check may match there; add "
                f"`{last.prefix}-LABEL: func.func @{later[0]}(`"))
    return findings


def run_input_is_this_file(stage: list[str]) -> bool:
    """Does this pipeline stage read the test file itself (`%s`)?"""
    return bool(stage) and stage[0] not in FILECHECK_NAMES and "%s" in stage[1:]


def _rule_runs(path: str, runs: list[RunLine]) -> list[Finding]:
    findings = []
    for position, run in enumerate(runs):
        stages = _stages(run.command)
        if not stages:
            continue
        programs = [_program(stage)[0] for stage in stages]
        if (any(p in FILECHECK_NAMES or p in COMPARE_TOOLS for p in programs)
                or any(stage[0] == "not" for stage in stages)
                or "--verify-diagnostics" in run.command):
            continue
        last = stages[-1]
        if _discards_stdout(last):
            continue
        outputs = _written_files(last)
        later = " ".join(r.command for r in runs[position + 1:])
        if outputs and all(_mentions(later, output) for output in outputs):
            continue
        findings.append(Finding(
            path, run.line, "run-checks-nothing",
            "RUN line without FileCheck, `not` or a comparison, and nobody reads its output: "
            "pipe it to FileCheck (or write `> /dev/null` if only the exit status matters)"))
    return findings


def _discards_stdout(stage: list[str]) -> bool:
    for index, token in enumerate(stage):
        if token in (">", "1>") and index + 1 < len(stage) and stage[index + 1] == "/dev/null":
            return not (index > 0 and stage[index - 1] == "2")
        if token == ">/dev/null":
            return True
    return False


def _written_files(stage: list[str]) -> list[str]:
    written = []
    for index, token in enumerate(stage[:-1]):
        stderr = token == ">" and index > 0 and stage[index - 1] == "2"
        if token in ("-o", ">") and stage[index + 1] != "/dev/null" and not stderr:
            written.append(stage[index + 1])
    return written


def _mentions(command: str, name: str) -> bool:
    return re.search(re.escape(name) + r"(?![A-Za-z0-9_.])", command) is not None


def _rule_prefixes(path: str, lines: list[str], invocations: list[Invocation]) -> list[Finding]:
    findings = []
    passed = {prefix for inv in invocations for prefix in inv.prefixes}
    for inv in invocations:
        for prefix in inv.prefixes:
            if not directives(lines, [prefix]):
                findings.append(Finding(
                    path, inv.run.line, "unused-prefix",
                    f"FileCheck prefix {prefix} has no directive in this file"))
    for prefix, line in used_prefixes(lines).items():
        if prefix not in passed:
            findings.append(Finding(
                path, line, "unchecked-prefix",
                f"{prefix} directives are never checked: no RUN line passes "
                f"--check-prefix={prefix} to FileCheck"))
    return findings


def _rule_not_placement(path: str, lines: list[str],
                        invocations: list[Invocation]) -> list[Finding]:
    findings = []
    for inv in invocations:
        seen = directives(lines, inv.prefixes)
        if seen and not any(d.positive for d in seen):
            findings.append(Finding(
                path, seen[0].line, "unbounded-not",
                f"the RUN line at {inv.run.line} checks only CHECK-NOTs: any output "
                f"without the pattern passes, an empty function too; add a positive match"))
            continue
        blocks = _label_blocks(seen)
        for block in blocks:
            matches = [d for d in block if d.positive and d.kind != "LABEL"]
            if not matches:
                if block[0].kind != "LABEL" and len(blocks) > 1:
                    for directive in block:
                        findings.append(Finding(
                            path, directive.line, "not-before-first-label",
                            f"{directive.prefix}-NOT before the first {directive.prefix}-LABEL "
                            f"scans only what precedes that label (the module header); put it "
                            f"after the label of the function it guards"))
                continue  # only a label: its NOTs scan the whole labelled section
            last = matches[-1]
            for directive in block:
                if directive.kind == "NOT" and directive.line > last.line:
                    findings.append(Finding(
                        path, directive.line, "not-after-last-match",
                        f"{directive.prefix}-NOT after the last match of its block (line "
                        f"{last.line}) scans only what follows it; move it between the "
                        f"matches it guards"))
    return findings


def _label_blocks(seen: list[Directive]) -> list[list[Directive]]:
    blocks: list[list[Directive]] = [[]]
    for directive in seen:
        if directive.kind == "LABEL":
            blocks.append([])
        blocks[-1].append(directive)
    return [block for block in blocks if block]


def _rule_misspelled(path: str, lines: list[str], invocations: list[Invocation]) -> list[Finding]:
    known = {prefix for inv in invocations for prefix in inv.prefixes} | {"CHECK"}
    findings = []
    for number, text in enumerate(lines, 1):
        comment = _COMMENT_RE.search(text)
        if comment is None or _is_lit_line(text):
            continue
        body = comment.group(1)
        problem = _near_miss(body, known)
        if problem:
            findings.append(Finding(path, number, "misspelled-directive", problem))
    return findings


def _near_miss(body: str, known: set[str]) -> str | None:
    for match in _NEAR_RE.finditer(body):
        word, suffix, _literal, space = match.groups()
        written = match.group(0)
        if word in known:
            if suffix and not re.fullmatch(rf"-{_SUFFIX_RE}", suffix):
                return f"`{written}`: unknown directive suffix {suffix!r}"
            if space:
                return f"`{written}`: a space before the colon makes it plain text"
            continue
        if word.upper() in known:
            return f"`{written}`: FileCheck prefixes are case-sensitive ({word.upper()})"
        for prefix in sorted(known):
            glued = re.fullmatch(rf"{re.escape(prefix)}[_ ]?({'|'.join(SUFFIXES)}|COUNT)",
                                 word.upper())
            if glued:
                return f"`{written}`: not a directive; did you mean {prefix}-{glued.group(1)}?"
        close = sorted(k for k in known if len(k) >= 4 and _edit_distance(word.upper(), k) == 1)
        if close and (word.isupper() or suffix):
            return f"`{written}`: not a directive; did you mean {close[0]}?"
    stripped = body.strip()
    for prefix in sorted(known):
        bare = re.match(rf"{re.escape(prefix)}(-{_SUFFIX_RE})?\s+(.*)", stripped)
        # A prefix without a colon, followed by IR (not prose): a directive gone wrong.
        if bare and (bare.group(1) or _IR_LIKE.search(bare.group(2))):
            return f"`{stripped.split()[0]}` without a colon is not a directive"
    return None


def _edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (adjacent transpositions count 1)."""
    rows = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        rows[i][0] = i
    for j in range(len(b) + 1):
        rows[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[len(a)][len(b)]


def _rule_features(path: str, lines: list[str], runs: list[RunLine],
                   features: frozenset[str]) -> list[Finding]:
    findings = []
    for run in runs:
        for feature in run.features:
            if feature not in features:
                findings.append(Finding(
                    path, run.line, "unavailable-feature",
                    f"`%if {feature}`: lit.cfg never adds feature {feature!r}, so this RUN "
                    f"line never runs"))
    for number, text in enumerate(lines, 1):
        match = _REQUIRES_RE.match(text)
        if match is None:
            continue
        for feature in _feature_names(match.group(1)):
            if feature not in features:
                findings.append(Finding(
                    path, number, "unavailable-feature",
                    f"REQUIRES: {feature}: lit.cfg never adds it, so the whole file is skipped"))
            unrelated = [r.line for r in runs if not _mentions_tool(r.command, feature)]
            if unrelated:
                findings.append(Finding(
                    path, number, "requires-too-broad",
                    f"REQUIRES: {feature} also switches off RUN lines that do not use it "
                    f"(line {', '.join(map(str, unrelated))}); split the file"))
    return findings


def _mentions_tool(command: str, feature: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_-])%?{re.escape(feature)}(?![A-Za-z0-9_-])",
                     command) is not None


# ------------------------------------------------------------------------------- main


def find_lit_config(start: Path) -> Path | None:
    for directory in [start, *start.parents]:
        for name in ("lit.cfg", "lit.cfg.py"):
            if (directory / name).is_file():
                return directory / name
    return None


def test_files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(p for p in sorted(path.rglob("*"))
                         if p.suffix in LINT_SUFFIXES and "Inputs" not in p.parts
                         and "Output" not in p.parts)
        else:
            files.append(path)
    return files


def lint_paths(paths: Iterable[Path]) -> list[Finding]:
    findings: list[Finding] = []
    for file in test_files(paths):
        config = find_lit_config(file.parent.resolve())
        features = lit_features(config.read_text()) if config else frozenset()
        findings += lint_text(file.read_text(encoding="utf-8"), str(file), features)
    return findings


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parent / "filecheck"
    parser.add_argument("paths", nargs="*", type=Path, default=[default])
    args = parser.parse_args(argv)
    findings = lint_paths(args.paths)
    for finding in findings:
        print(finding)
    count = len(test_files(args.paths))
    print(f"lint_filecheck: {count} files, {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
