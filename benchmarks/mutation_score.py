"""Mutation score of heirpy's passes, analyses and evaluator (mutmut; not run in CI).

    pip install -r benchmarks/requirements.txt          # mutmut, into the project venv
    nice -n 19 python benchmarks/mutation_score.py [--paths src/heirpy/interp ...] [--max-children 1]

mutmut changes one thing at a time in the code (an operator, a constant, a condition, a
returned value), runs the unit tests that execute the changed function (it maps tests
to functions once, then runs only those per mutant), and counts the mutant as killed
when a test fails. The run happens in a copy of the tracked files under
build/mutation/ (mutmut writes its mutants and cache into the working directory), so
the work tree is never touched; re-running resumes from mutmut's cache there.

Prints, per module, mutants killed / survived / without a covering test / timed out
and the score (killed / all), per folder, and writes every survivor's diff to
build/mutation/survivors.txt. The lit tests are not run per mutant; their inputs are,
through tests/unit/test_filecheck_numerics.py.

Default paths: src/heirpy/transforms, src/heirpy/analysis, src/heirpy/interp (the
issue's scope). Expect hours for all of them on 2 cores; one folder at a time, with its
own tests (`--tests tests/unit/test_fuse_pointwise.py tests/unit/test_filecheck_numerics.py`),
keeps a run short:

    nice -n 19 python benchmarks/mutation_score.py --paths src/heirpy/interp/equivalence.py \
        --tests tests/unit/test_interp_equivalence.py tests/unit/test_interp_cli.py
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PATHS = ["src/heirpy/transforms", "src/heirpy/analysis", "src/heirpy/interp"]
KILLED = {"killed"}
STATUSES = ("killed", "survived", "no tests", "timeout", "suspicious", "skipped", "not checked")


def prepare(workdir: Path, paths: list[str], tests: list[str]) -> None:
    """A copy of the tracked files with a [tool.mutmut] section for `paths`, whose
    mutants run the tests mutmut finds executing them among `tests`."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    for name in tracked:
        source, target = ROOT / name, workdir / name
        if not source.is_file():
            continue
        if target.exists() and target.read_bytes() == source.read_bytes():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    pyproject = (ROOT / "pyproject.toml").read_text()
    config = "\n".join([
        "",
        "[tool.mutmut]",
        'source_paths = ["src/heirpy"]',
        f"only_mutate = {[p if p.endswith('.py') else p.rstrip('/') + '/*' for p in paths]!r}".replace("'", '"'),
        f"pytest_add_cli_args_test_selection = {tests!r}".replace("'", '"'),
        'also_copy = ["tests/", "examples/"]',
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q"]',
        "",
    ])
    (workdir / "pyproject.toml").write_text(pyproject + config)


def run_mutmut(workdir: Path, max_children: int) -> None:
    subprocess.run(
        [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children)],
        cwd=workdir, check=False,
    )


def results(workdir: Path) -> dict[str, str]:
    """mutant name -> status, from `mutmut results --all true`."""
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=workdir, check=True, capture_output=True, text=True,
    ).stdout
    statuses: dict[str, str] = {}
    for line in out.splitlines():
        match = re.match(r"\s*([\w.]+__mutmut_\d+):\s*(.+?)\s*$", line)
        if match:
            statuses[match.group(1)] = match.group(2)
    return statuses


def module_of(mutant: str) -> str:
    """`heirpy.interp.equivalence.x_compare__mutmut_3` -> `heirpy.interp.equivalence`."""
    return mutant.split("__mutmut_")[0].rsplit(".", 1)[0]


def folder_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[1] == "transforms" and len(parts) > 3 else ".".join(parts[:2])


def table(statuses: dict[str, str]) -> str:
    per_module: dict[str, Counter[str]] = defaultdict(Counter)
    for mutant, status in statuses.items():
        per_module[module_of(mutant)][status] += 1
    per_folder: dict[str, Counter[str]] = defaultdict(Counter)
    for module, counts in per_module.items():
        per_folder[folder_of(module)].update(counts)
        per_folder[module.split(".")[1]].update(counts)
    lines = [
        "| module | mutants | killed | survived | no tests | timeout | score |",
        "|---|---|---|---|---|---|---|",
    ]

    def row(name: str, counts: Counter[str]) -> str:
        total = sum(counts.values())
        killed = counts["killed"]
        return (
            f"| {name} | {total} | {killed} | {counts['survived']} | {counts['no tests']} | "
            f"{counts['timeout']} | {100 * killed / total:.0f}% |"
        )

    for module in sorted(per_module):
        lines.append(row(module, per_module[module]))
    lines.append("| **per folder** | | | | | | |")
    for folder in sorted(per_folder):
        lines.append(row(f"**{folder}**", per_folder[folder]))
    return "\n".join(lines)


def write_survivors(workdir: Path, statuses: dict[str, str], path: Path) -> None:
    chunks = []
    for mutant, status in sorted(statuses.items()):
        if status in KILLED:
            continue
        diff = subprocess.run(
            [sys.executable, "-m", "mutmut", "show", mutant],
            cwd=workdir, check=False, capture_output=True, text=True,
        ).stdout
        chunks.append(f"## {mutant} ({status})\n{diff}")
    path.write_text("\n".join(chunks))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paths", nargs="+", default=DEFAULT_PATHS, help="folders or files to mutate")
    parser.add_argument(
        "--tests", nargs="+", default=["tests/unit/"],
        help="test files or folders to draw each mutant's tests from (a module's own tests "
             "make the initial mapping run, and the whole run, much shorter)",
    )
    parser.add_argument("--max-children", type=int, default=1, help="parallel test workers")
    parser.add_argument("--workdir", type=Path, default=ROOT / "build" / "mutation")
    parser.add_argument("--report-only", action="store_true", help="print the table of the last run")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        prepare(args.workdir, args.paths, args.tests)
        run_mutmut(args.workdir, args.max_children)
    statuses = results(args.workdir)
    if not statuses:
        print("no mutants found: did the run finish?", file=sys.stderr)
        return 1
    print(table(statuses))
    survivors = args.workdir / "survivors.txt"
    write_survivors(args.workdir, statuses, survivors)
    print(f"\nsurvivors' diffs: {survivors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
