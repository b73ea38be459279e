"""The commands that README.md and docs/ tell a reader to type, and how each is tested.

`commands(path)` finds them: every line of a ```sh / ```bash / ```shell block (a `\\`
at the end of a line joins the next; `#` comment lines and trailing `# comments` are not
part of the command), and every `$ command` line of any other fenced block.
tests/doc_commands.toml says, for each, how a test runs it; tests/unit/test_doc_commands.py
checks that every command has an entry and that each entry's test really is there.
docs/testing.md ("Commands in the docs") is the short guide for adding one.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = ROOT / "tests" / "doc_commands.toml"
SHELL_LANGUAGES = {"sh", "bash", "shell"}
KINDS = ("run", "test", "ci", "flags")


@dataclass(frozen=True)
class DocCommand:
    file: str  # relative to the repository root
    line: int  # where the command starts
    text: str  # whitespace collapsed to single spaces

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def documents() -> list[Path]:
    """README.md, every page under docs/, and examples/README.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "examples" / "README.md"]


def strip_comment(line: str) -> str:
    """`line` without a trailing `# comment` (a `#` outside quotes, after a space)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def commands_in(text: str, file: str) -> list[DocCommand]:
    found: list[DocCommand] = []
    language: str | None = None  # None: outside a fence
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("```"):
            language = None if language is not None else (stripped[3:].split() or [""])[0]
            continue
        if language is None:
            continue
        line = stripped
        if line.startswith("$ "):
            line = line[2:]
        elif language not in SHELL_LANGUAGES and not pending:
            continue
        line = strip_comment(line) if not line.startswith("#") else ""
        if not line and not pending:
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        found.append(DocCommand(file, start, " ".join((pending + line).split())))
        pending = ""
    return found


def commands() -> list[DocCommand]:
    return [c for doc in documents() if doc.exists()
            for c in commands_in(doc.read_text(), str(doc.relative_to(ROOT)))]


@dataclass(frozen=True)
class Entry:
    """One [[command]] of tests/doc_commands.toml."""

    kind: str  # run | test | ci | flags
    command: str | None = None  # the exact command (whitespace collapsed), or
    pattern: str | None = None  # a regex every matching command fullmatches
    test: str | None = None  # kind test: tests/...py::test_name
    file: str | None = None  # kind ci: a file CI runs
    evidence: str | None = None  # a string that file (or the test's file) must hold
    timeout: int = 120  # kind run
    exit: int = 0  # kind run: the expected exit status
    requires: tuple[str, ...] = ()  # kind run: modules it needs (the orion extra is 3.11 only)
    why: str = ""

    def matches(self, text: str) -> bool:
        if self.command is not None:
            return " ".join(self.command.split()) == text
        return self.pattern is not None and re.fullmatch(self.pattern, text) is not None

    @property
    def label(self) -> str:
        return self.command or f"/{self.pattern}/"


def registry() -> list[Entry]:
    raw = tomllib.loads(REGISTRY.read_text())
    entries = []
    for item in raw.get("command", []):
        item = dict(item)
        item["requires"] = tuple(item.get("requires", ()))
        entries.append(Entry(**item))
    return entries


def ci_files() -> set[str]:
    """Files CI runs: .ci/run, and each repository script it names, transitively."""
    seen: set[str] = set()
    todo = [".ci/run"]
    while todo:
        name = todo.pop()
        if name in seen or not (ROOT / name).is_file():
            continue
        seen.add(name)
        text = "\n".join(strip_comment(line) for line in (ROOT / name).read_text().splitlines())
        for ref in re.findall(r"(?:\./)?([\w./-]+\.sh)\b", text):
            todo.append(ref.removeprefix("./"))
    return seen
