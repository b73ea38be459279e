"""Property fuzzing over generated programs: thousands of random linalg-on-tensors functions
(tests/strategies.py) through the default pipeline and through every heirpy pass alone.

    python benchmarks/fuzz_generated.py [--count 2000] [--seed 0] [--spec P ...] [--save DIR]

For every program and every spec it checks the properties of tests/generated_properties.py
(output verifies and re-parses in custom and generic form, numerically equal to the input
under the evaluator, a second run changes nothing, multiplicative depth never grows) and
prints the counts: programs, checks, mismatches, crashes, non-idempotent, depth increases,
invalid output, hangs (a check over --timeout seconds). The default pipeline's one-step
non-idempotence is counted on its own line (see tests/unit/test_generated_programs.py for
why it is allowed) next to the pipelines that do not settle after a third run.
`--save DIR` writes each failing program with a header naming the spec and the problem.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/ is not a package

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from generated_properties import FULL_PIPELINE, check_program, single_pass_specs  # noqa: E402
from strategies import Program, programs  # noqa: E402


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
    args = parser.parse_args(argv)

    specs = args.spec or [FULL_PIPELINE, *single_pass_specs()]
    counts: Counter[tuple[str, str]] = Counter()
    programs_seen = 0
    failing_programs = 0
    start = time.perf_counter()
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGALRM, _on_alarm)

    @seed(args.seed)
    @settings(
        max_examples=args.count, deadline=None, database=None, phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(program=programs())
    def run(program: Program) -> None:
        nonlocal programs_seen, failing_programs
        programs_seen += 1
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
            for category, message in problems.items():
                counts[(spec, category)] += 1
                allowed = spec == FULL_PIPELINE and category == "non_idempotent"
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
    elapsed = time.perf_counter() - start

    def total(category: str, *, pipeline: bool | None = None) -> int:
        return sum(
            n for (spec, cat), n in counts.items()
            if cat == category and (pipeline is None or (spec == FULL_PIPELINE) == pipeline)
        )

    print(f"specs: {', '.join(specs)}")
    print(f"programs:                         {programs_seen}")
    print(f"checks (program x spec):          {programs_seen * len(specs)}")
    print(f"programs with a finding:          {failing_programs}")
    print(f"mismatches:                       {total('mismatch')}")
    print(f"crashes:                          {total('crash')}")
    print(f"hangs:                            {total('hang')}")
    print(f"invalid output:                   {total('invalid')}")
    print(f"non-idempotent (single passes):   {total('non_idempotent', pipeline=False)}")
    print(f"depth increases:                  {total('depth_increase')}")
    print(f"pipeline not idempotent in 1 run: {total('non_idempotent', pipeline=True)} (allowed, see docstring)")
    print(f"pipeline/pass not converging:     {total('not_converging')}")
    print(f"time: {elapsed:.0f} s ({elapsed / max(programs_seen, 1):.2f} s per program)")
    if counts:
        print("by spec and category:")
        for (spec, category), n in sorted(counts.items()):
            print(f"  {spec:60s} {category:16s} {n}")
    bad = sum(n for (spec, cat), n in counts.items() if not (spec == FULL_PIPELINE and cat == "non_idempotent"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
