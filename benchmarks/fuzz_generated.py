"""Property fuzzing over generated programs: thousands of random linalg-on-tensors functions
(tests/strategies.py) through the default pipeline and through every heirpy pass alone.

    python benchmarks/fuzz_generated.py [--count 2000] [--seed 0] [--spec P ...] [--save DIR]
        [--edges] [--verify-forms]

For every program and every spec it checks the properties of tests/generated_properties.py
(output verifies and re-parses in custom and generic form, numerically equal to the input
under the evaluator, a second run changes nothing, multiplicative depth never grows) and
prints the counts: programs, checks, mismatches, crashes, non-idempotent, depth increases,
invalid output, hangs (a check over --timeout seconds). The default pipeline's one-step
non-idempotence is counted on its own line (see tests/unit/test_generated_programs.py for
why it is allowed) next to the pipelines that do not settle after a third run;
heir-prepare, which runs its passes to a fixpoint, is counted with the single passes.
`--save DIR` writes each failing program with a header naming the spec and the problem.
`--edges` draws tests/edge_strategies.py's programs instead (every axis on its own, values
at each guard's limit) and prints how many programs reached each limit; `--verify-forms` also prints what the HEIR specs (legalize-for-heir,
heir-prepare) and the IREE ones (unroll-depthwise-conv, iree-prepare)
make and has heir-opt / iree-opt verify it, 50 programs to a run (`--split-input-file`).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ is not a package

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from edge_strategies import edge_programs, format_limit_counts, limit_counts  # noqa: E402
from generated_properties import FULL_PIPELINE, check_program, single_pass_specs  # noqa: E402
from heirpy.api import parse, print_module, run_pipeline  # noqa: E402
from strategies import Program, programs  # noqa: E402

HEIR_SPECS = ("legalize-for-heir", "heir-prepare")
ALLOWED_NON_IDEMPOTENT = (FULL_PIPELINE,)
"""Specs allowed to change on a second run (not on a third): the default pipeline only."""
IREE_SPECS = ("unroll-depthwise-conv", "iree-prepare")
BATCH = 50


class Forms:
    """The HEIR and IREE forms seen so far, verified by heir-opt / iree-opt BATCH at a time."""

    def __init__(self) -> None:
        self.pending: dict[str, list[str]] = {"heir-opt": [], "iree-opt": []}
        self.rejected: Counter[str] = Counter()
        self.verified: Counter[str] = Counter()

    def add(self, spec: str, text: str, problems: dict[str, str]) -> None:
        """`spec`'s output on `text`, when it is a HEIR or IREE form and the checks passed it."""
        tool = "heir-opt" if spec in HEIR_SPECS else "iree-opt" if spec in IREE_SPECS else None
        if tool is None or problems.keys() & {"crash", "hang", "invalid"}:
            return
        module = parse(text)
        with contextlib.redirect_stderr(io.StringIO()):  # remarks: check_program reported on this run
            run_pipeline(module, spec, verify=False)
        self.pending[tool].append(print_module(module))
        if len(self.pending[tool]) >= BATCH:
            self.flush(tool)

    def flush(self, tool: str) -> None:
        self.rejected[tool] += verify_batch(tool, self.pending[tool])
        self.verified[tool] += len(self.pending[tool])
        self.pending[tool].clear()


def verify_batch(tool: str, texts: list[str]) -> int:
    """How many of `texts` `tool` rejects (one run for the batch; each alone if it fails)."""
    def run(chunks: list[str]) -> bool:
        return subprocess.run([tool, "--split-input-file", "-o", "/dev/null"], input="\n// -----\n".join(chunks),
                              capture_output=True, text=True, timeout=600).returncode == 0
    if not texts or run(texts):
        return 0
    return sum(not run([t]) for t in texts)


class Hang(BaseException):  # not Exception: the checker must not swallow it
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise Hang()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="programs to generate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--spec", action="append", help="a pass or pipeline (repeatable); default: all")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per check before it counts as a hang")
    parser.add_argument("--save", type=Path, help="directory for failing programs")
    parser.add_argument("--progress", type=int, default=100, help="print a line every N programs")
    parser.add_argument("--edges", action="store_true", help="draw tests/edge_strategies.py's programs")
    parser.add_argument("--verify-forms", action="store_true", help="heir-opt / iree-opt verify the HEIR / IREE forms")
    args = parser.parse_args(argv)
    forms = Forms()

    specs = args.spec or [FULL_PIPELINE, *single_pass_specs()]
    counts: Counter[tuple[str, str]] = Counter()
    programs_seen = 0
    failing_programs = 0
    limits: list[tuple[str, ...]] = []
    start = time.perf_counter()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGALRM, _on_alarm)

    @seed(args.seed)
    @settings(
        max_examples=args.count, deadline=None, database=None, phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(program=edge_programs() if args.edges else programs())
    def run(program: Program) -> None:
        nonlocal programs_seen, failing_programs
        programs_seen += 1
        limits.append(program.limits)
        failed = False
        for spec in specs:
            signal.alarm(args.timeout)
            try:
                problems = check_program(program.text, spec).problems
            except Hang:
                problems = {"hang": f"over {args.timeout} s"}
            except Exception as err:  # noqa: BLE001 - the checker's own inputs failed: count, keep going
                problems = {"crash": f"checker: {type(err).__name__}: {err}"}
            finally:
                signal.alarm(0)
            if args.verify_forms:
                forms.add(spec, program.text, problems)
            for category, message in problems.items():
                counts[(spec, category)] += 1
                allowed = spec in ALLOWED_NON_IDEMPOTENT and category == "non_idempotent"
                failed |= not allowed
                if args.save and not allowed:
                    name = f"{programs_seen:05d}_{spec.replace(',', '+')}_{category}.mlir"
                    header = f"// spec: {spec}\n// {category}: {message}\n// layers: {list(program.layers)}\n"
                    (args.save / name).write_text(header + program.text)
        failing_programs += failed
        if args.progress and programs_seen % args.progress == 0:
            print(f"... {programs_seen} programs, {sum(counts.values())} findings, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)

    run()
    for tool in forms.pending:
        forms.flush(tool)
    elapsed = time.perf_counter() - start

    summary(specs, counts, programs_seen, failing_programs, forms if args.verify_forms else None, elapsed)
    if args.edges:
        print("guard limits drawn (programs):")
        print(format_limit_counts(limit_counts(limits), programs_seen))
    bad = sum(n for (spec, cat), n in counts.items()
              if not (spec in ALLOWED_NON_IDEMPOTENT and cat == "non_idempotent"))
    return 1 if bad or sum(forms.rejected.values()) else 0


def summary(
    specs: list[str], counts: Counter[tuple[str, str]], programs_seen: int, failing_programs: int,
    forms: Forms | None, elapsed: float,
) -> None:
    """Print the counts (the module doc)."""
    def total(category: str, *, pipeline: bool | None = None) -> int:
        return sum(
            n for (spec, cat), n in counts.items()
            if cat == category and (pipeline is None or (spec in ALLOWED_NON_IDEMPOTENT) == pipeline)
        )

    print(f"specs: {', '.join(specs)}")
    print(f"programs:                         {programs_seen}")
    print(f"checks (program x spec):          {programs_seen * len(specs)}")
    print(f"programs with a finding:          {failing_programs}")
    print(f"mismatches:                       {total('mismatch')}")
    print(f"crashes:                          {total('crash')}")
    print(f"hangs:                            {total('hang')}")
    print(f"invalid output:                   {total('invalid')}")
    print(f"non-idempotent (passes, heir-prepare): {total('non_idempotent', pipeline=False)}")
    print(f"depth increases:                  {total('depth_increase')}")
    print(f"depth below the input's bound:    {total('below_bound')}")
    print(f"bound changed by the rewrite:     {total('bound_changed')}")
    if forms is not None:
        for tool in forms.pending:
            print(f"{tool} rejects:                 {forms.rejected[tool]} of {forms.verified[tool]} outputs")
    print(f"default pipeline not idempotent in 1 run: {total('non_idempotent', pipeline=True)} (allowed)")
    print(f"pipeline/pass not converging:     {total('not_converging')}")
    print(f"time: {elapsed:.0f} s ({elapsed / max(programs_seen, 1):.2f} s per program)")
    if counts:
        print("by spec and category:")
        for (spec, category), n in sorted(counts.items()):
            print(f"  {spec:60s} {category:16s} {n}")


if __name__ == "__main__":
    sys.exit(main())
