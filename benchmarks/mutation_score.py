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
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PATHS = ["src/heirpy/transforms", "src/heirpy/analysis", "src/heirpy/interp"]
KILLED = {"killed", "timeout"}  # a mutant that makes a test hang is noticed
NO_MUTANT = "heirpy.no_such_module.*"
EQUIVALENT_FILE = ROOT / "benchmarks" / "mutation_equivalent.txt"
STATUSES = ("killed", "survived", "no tests", "timeout", "suspicious", "skipped", "not checked")


def prepare(workdir: Path, paths: list[str], tests: list[str], isolation: str = "fork") -> None:
    """A copy of the tracked files with a [tool.mutmut] section for `paths`, whose
    mutants run the tests mutmut finds executing them among `tests`, each in a process
    forked the `isolation` way (see main's --isolation)."""
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
        'also_copy = ["tests/", "examples/", "docs/", "benchmarks/"]',  # tests read docs (test_report) and benchmarks/heir_bugs
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q"]',
        f'process_isolation = "{isolation}"',
        "",
    ])
    (workdir / "pyproject.toml").write_text(pyproject + config)


def mutmut_env(lit: list[str] | None) -> dict[str, str] | None:
    """The environment of mutmut's runs: with `lit`, tests/mutation/test_lit_in_process.py
    runs only those FileCheck files or folders (relative to tests/filecheck)."""
    return dict(os.environ, HEIRPY_LIT_ONLY=",".join(lit)) if lit else None


def run_mutmut(
    workdir: Path, max_children: int, names: list[str] | None = None, lit: list[str] | None = None
) -> None:
    subprocess.run(
        [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children), *(names or [])],
        cwd=workdir, check=False, env=mutmut_env(lit),
    )


def generate(workdir: Path, lit: list[str] | None = None) -> None:
    """Mutants and the test mapping, without running a mutant: mutmut has no command for
    that, so it runs with a name that matches no mutant and stops after its stats run."""
    done = subprocess.run(
        [sys.executable, "-m", "mutmut", "run", "--max-children", "1", NO_MUTANT],
        cwd=workdir, check=False, capture_output=True, text=True, env=mutmut_env(lit),
    )
    if "nothing matches" not in done.stdout + done.stderr:
        sys.stdout.write(done.stdout[-4000:])
        sys.stderr.write(done.stderr[-4000:])
        raise SystemExit("mutmut did not generate its mutants (output above)")


def sample(names: list[str], per_module: int, seed: int, exclude: frozenset[str] = frozenset()) -> list[str]:
    """Up to `per_module` mutants of each module, drawn with `seed` (sorted first, so a
    seed picks the same mutants whatever order mutmut lists them in), never one of
    `exclude`: the mutants an earlier sample drew, whose survivors have tests by now, so
    a second sample on the same date (the same seed) is fresh, not a re-run of the first."""
    by_module: dict[str, list[str]] = defaultdict(list)
    for name in sorted(names):
        if name not in exclude:
            by_module[module_of(name)].append(name)
    rng = random.Random(seed)
    picked: list[str] = []
    for module in sorted(by_module):
        mutants = by_module[module]
        picked.extend(rng.sample(mutants, min(per_module, len(mutants))))
    return picked


def drawn_before(paths: list[Path]) -> frozenset[str]:
    """The mutant names listed in `paths` (one per line; blank lines and # comments skipped)."""
    names: set[str] = set()
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                names.add(line.strip())
    return frozenset(names)


def equivalents(path: Path) -> dict[str, str]:
    """mutant name -> why it cannot be killed, from `path` (`NAME  REASON` per line)."""
    if not path.exists():
        return {}
    found: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = line.strip().partition(" ")
            found[name] = reason.strip()
    return found


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


def table(statuses: dict[str, str], equivalent: dict[str, str] | None = None) -> str:
    """Per module and folder: mutants tested (of all mutmut made there), killed, survived
    (no test failed: surviving, no covering test, or suspicious), equivalent (survivors
    listed in EQUIVALENT_FILE) and the score killed / (tested - equivalent); a timeout
    counts as killed."""
    equivalent = equivalent or {}
    per_module: dict[str, Counter[str]] = defaultdict(Counter)
    for mutant, status in statuses.items():
        counts = per_module[module_of(mutant)]
        counts["all"] += 1
        if status == "not checked":
            continue
        counts["tested"] += 1
        if status in KILLED:
            counts["killed"] += 1
        elif mutant in equivalent:
            counts["equivalent"] += 1
        else:
            counts["survived"] += 1
    per_folder: dict[str, Counter[str]] = defaultdict(Counter)
    for module, counts in per_module.items():
        top = ".".join(module.split(".")[:2])  # heirpy.transforms, heirpy.interp
        for folder in {folder_of(module), top}:
            per_folder[folder].update(counts)
    lines = [
        "| module | mutants tested (of all) | killed | survived | equivalent | score |",
        "|---|---|---|---|---|---|",
    ]

    def row(name: str, counts: Counter[str]) -> str:
        judged = counts["tested"] - counts["equivalent"]
        score = f"{100 * counts['killed'] / judged:.0f}%" if judged else "-"
        return (
            f"| {name} | {counts['tested']} (of {counts['all']}) | {counts['killed']} | "
            f"{counts['survived']} | {counts['equivalent']} | {score} |"
        )

    for module in sorted(per_module):
        if per_module[module]["tested"]:
            lines.append(row(module, per_module[module]))
    lines.append("| **per folder** | | | | | |")
    for folder in sorted(per_folder):
        lines.append(row(f"**{folder}**", per_folder[folder]))
    return "\n".join(lines)


def write_survivors(workdir: Path, statuses: dict[str, str], path: Path) -> None:
    chunks = []
    for mutant, status in sorted(statuses.items()):
        if status in KILLED or status == "not checked":
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
    parser.add_argument(
        "--lit", nargs="+", metavar="PATH",
        help="with tests/mutation/test_lit_in_process.py in --tests: only the RUN lines of these "
             "files or folders under tests/filecheck (e.g. transforms/iree-prepare); all of them "
             "make the initial traced run very long",
    )
    parser.add_argument("--max-children", type=int, default=1, help="parallel test workers")
    parser.add_argument(
        "--isolation", choices=("fork", "forkserver"), default="fork",
        help="fork each mutant's worker from mutmut's process, which has run the tests once (fast), or "
             "from a server that has only collected them: needed for tests that run torch or Orion, "
             "whose threads (torch's pool, Orion's Go runtime) leave a plain fork hanging on a lock "
             "until mutmut's wall-clock limit counts the mutant as a timeout, i.e. killed",
    )
    parser.add_argument("--workdir", type=Path, default=ROOT / "build" / "mutation")
    parser.add_argument(
        "--sample", type=int, metavar="N",
        help="test N mutants per module, drawn at random (all of them when omitted)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample's draw")
    parser.add_argument(
        "--exclude", type=Path, nargs="*", default=[], metavar="FILE",
        help="files of mutant names (one per line, # comments) that --sample never draws: "
             "those earlier samples drew (benchmarks/mutation/drawn-*.txt)",
    )
    parser.add_argument("--report-only", action="store_true", help="print the table of the last run")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        prepare(args.workdir, args.paths, args.tests, args.isolation)
        names = None
        if args.sample is not None:
            generate(args.workdir, args.lit)
            statuses = results(args.workdir)
            # mutmut re-runs every mutant it is given by name: give it only those this
            # sample has not judged yet, so a run cut short (a time limit) resumes.
            names = [n for n in sample(list(statuses), args.sample, args.seed, drawn_before(args.exclude)) if statuses[n] == "not checked"]
        if names is None or names:
            run_mutmut(args.workdir, args.max_children, names, args.lit)
    statuses = results(args.workdir)
    if not statuses:
        print("no mutants found: did the run finish?", file=sys.stderr)
        return 1
    if args.sample is not None:
        print(f"sampled: up to {args.sample} mutants per module, seed {args.seed}")
    print(table(statuses, equivalents(EQUIVALENT_FILE)))
    survivors = args.workdir / "survivors.txt"
    write_survivors(args.workdir, statuses, survivors)
    print(f"\nsurvivors' diffs: {survivors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
