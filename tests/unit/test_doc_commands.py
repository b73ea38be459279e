"""Every command in README.md and docs/ is run by a test: this one, another test named in
tests/doc_commands.toml, or CI. A command nobody runs fails here (tests/doc_commands.py)."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from doc_commands import ROOT, DocCommand, Entry, ci_files, commands, commands_in, registry  # noqa: E402

COMMANDS = commands()
ENTRIES = registry()


def entry_for(command: DocCommand) -> Entry:
    matching = [e for e in ENTRIES if e.matches(command.text)]
    assert matching, (
        f"{command.where}: `{command.text}` is run by no test: add an entry to tests/doc_commands.toml "
        "(docs/testing.md, 'Commands in the docs')"
    )
    return matching[0]


def program(text: str) -> str:
    """The command's program: past env assignments, nice/flock prefixes and `python`."""
    words = shlex.split(text.split("|")[0])
    while words and (re.fullmatch(r"\w+=.*", words[0]) or words[0] in ("nice", "flock", "python", "python3")):
        if words[0] == "nice" and len(words) > 2 and words[1] == "-n":
            words = words[3:]
        elif words[0] == "flock":
            words = words[2:]
        else:
            words = words[1:]
    assert words, text
    return words[0]


def scratch_root(tmp_path: Path) -> Path:
    """A directory that looks like the repository root (each top-level entry linked) but
    keeps what a command writes (net.pt, build/) out of the work tree."""
    root = tmp_path / "repo"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", "build"):
            (root / entry.name).symlink_to(entry)
    return root


@pytest.mark.parametrize("command", COMMANDS, ids=[c.where for c in COMMANDS])
def test_doc_command_is_run_by_a_test(command: DocCommand, tmp_path: Path) -> None:
    entry = entry_for(command)
    if entry.kind == "run":
        missing = [m for m in entry.requires if importlib.util.find_spec(m) is None]
        if missing:
            pytest.skip(f"needs {', '.join(missing)} (not installed on this Python)")
        env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command.text], cwd=scratch_root(tmp_path), env=env,
            capture_output=True, text=True, timeout=entry.timeout, stdin=subprocess.DEVNULL,
        )
        assert result.returncode == entry.exit, f"{command.where}: `{command.text}`:\n{result.stderr[-2000:]}"
    elif entry.kind == "test":
        assert entry.test is not None, f"{entry.label}: kind test needs test = 'tests/...py::name'"
        path, _, name = entry.test.partition("::")
        source = (ROOT / path).read_text()
        assert re.search(rf"^def {re.escape(name)}\(", source, re.M), f"{entry.test} does not exist"
        evidence = entry.evidence or program(command.text)
        assert evidence in source, f"{path} does not hold {evidence!r}: does {name} run `{command.text}`?"
    elif entry.kind == "ci":
        assert entry.file in ci_files(), f"{entry.file} is not run by CI (.ci/run and the scripts it runs)"
        evidence = entry.evidence or command.text
        assert evidence in (ROOT / entry.file).read_text(), f"{entry.file} does not hold {evidence!r}"
    elif entry.kind == "flags":
        script = program(command.text)
        assert script.startswith("benchmarks/"), f"kind flags is for benchmarks/ scripts, not {script}"
        usage = subprocess.run([sys.executable, str(ROOT / script), "--help"], capture_output=True,
                               text=True, timeout=120, cwd=ROOT)
        assert usage.returncode == 0, usage.stderr
        unknown = [flag for flag in re.findall(r"(?<!\S)(--[\w-]+)", command.text) if flag not in usage.stdout]
        assert not unknown, f"{command.where}: {script} has no option {unknown}"
    else:
        pytest.fail(f"tests/doc_commands.toml: {entry.label}: unknown kind {entry.kind!r}")


def test_every_registry_entry_matches_a_doc_command() -> None:
    """An entry for a command the docs no longer hold is stale: it says something is
    tested that nobody reads."""
    stale = [e.label for e in ENTRIES if not any(e.matches(c.text) for c in COMMANDS)]
    assert not stale


def test_ci_runs_the_readme_commands() -> None:
    assert {".ci/run", "run-tests.sh", "run-examples.sh", "scripts/bootstrap.sh"} <= ci_files()


def test_commands_are_found_in_sh_blocks_and_dollar_lines() -> None:
    text = """Prose with `heirpy-opt inline` is not a command.

```sh
./run-tests.sh   # the suite
# a comment line
nice -n 19 python benchmarks/x.py --a 1 \\
    --b "x # not a comment"
```

```
$ heirpy-report examples/tiny_cnn.mlir
output, not a command
```

```python
print("not a command")
```
"""
    found = [(c.line, c.text) for c in commands_in(text, "x.md")]
    assert found == [
        (4, "./run-tests.sh"),
        (6, 'nice -n 19 python benchmarks/x.py --a 1 --b "x # not a comment"'),
        (11, "heirpy-report examples/tiny_cnn.mlir"),
    ]


def test_a_command_no_test_runs_fails() -> None:
    """The guard bites: a new doc command without an entry is an error naming it."""
    (command,) = commands_in("```sh\nheirpy-opt --no-such-flag\n```\n", "docs/new.md")
    with pytest.raises(AssertionError, match=r"docs/new.md:2: `heirpy-opt --no-such-flag` is run by no test"):
        entry_for(command)


def test_program_skips_prefixes() -> None:
    assert program("nice -n 19 python benchmarks/mutation_score.py --paths x") == "benchmarks/mutation_score.py"
    assert program("HEIRPY_HYPOTHESIS_PROFILE=nightly ./run-tests.sh") == "./run-tests.sh"
    assert program("flock /work/lock python benchmarks/bench_orion.py") == "benchmarks/bench_orion.py"


def test_readme_fits_a_screen_or_two() -> None:
    """Issue 28's target: README is an index; the rest lives in docs/."""
    assert len((ROOT / "README.md").read_text().splitlines()) <= 250


def test_readme_example_is_the_reports_layout() -> None:
    """README pastes the main job's output: its titles, legends and table headers are the
    ones heirpy-report prints now (a renamed column fails here until README is pasted anew)."""
    from heirpy.tools.report_format import render_text

    readme = (ROOT / "README.md").read_text()
    example = readme[readme.index("$ ./run-examples.sh"):]
    example = example[: example.index("```")]
    printed = render_text({"pipeline": "linalg-canonicalizations,linalg-fuse-ops", "out_dir": "build/examples",
                           "plot": "build/report.png", "models": []}).splitlines()
    fixed = [" ".join(line.split()) for line in printed if line and not line.startswith("---")]
    pasted = [" ".join(line.split()) for line in example.splitlines()]
    assert [line for line in fixed if line not in pasted] == [line for line in fixed if line.startswith("all checks")]
