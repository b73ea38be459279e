"""Run each IREE bug reproducer in this folder through iree-compile (llvm-cpu, the flags of
heirpy.analysis.iree_dispatches) and print what IREE does with it.

    python benchmarks/iree_bugs/check.py

Each reproducer is a small module that heir-opt and iree-opt verify and heirpy's
evaluator runs; the differential fuzzer (benchmarks/fuzz_iree.py) found each one, and
tests/iree_differential.py's KNOWN_IREE_BUGS recognises them by iree-compile's message.
A row says what iree-compile did: rejects valid IR (its first error line), crashes (the
innermost MLIR function of its backtrace), or, once fixed, compiles and computes what
the evaluator computes (checked on random inputs). "fixed?" is "no" while IREE still fails.
Exit status 1 when a reproducer no longer fails (then drop it from KNOWN_IREE_BUGS).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))  # tests/ is not a package
sys.path.insert(0, str(HERE.parent))

import iree_differential as diff  # noqa: E402
from harness import markdown_table  # noqa: E402


def worst(expected: list[list[np.ndarray]], got: list[list[np.ndarray]]) -> float:
    return max(diff.ulp_error(a, b) for xs, ys in zip(expected, got) for a, b in zip(xs, ys))


def observe(path: Path) -> tuple[str, str]:
    """(what iree-compile does, fixed?) for one reproducer."""
    vmfb, error = diff.iree_compile(diff.merge_functions([("r0", path.read_text())]))
    if vmfb is None:
        return error[:160], "no"
    subject = diff.prepare(0, path.read_text(), (), "")
    subject.heirpy = ""  # only the raw program
    diff.compile_and_run([subject])
    reference = diff.IREE_MISCOMPILES.get(path.name)
    if reference is None:  # no numpy reference: the evaluator is the judge
        expected, judge = subject.values["E_raw"], "the evaluator"
    else:
        expected = [[np.asarray(r) for r in reference(*inputs)] for inputs in subject.inputs]
        expected = [[r.astype(e.dtype) for r, e in zip(rs, es)] for rs, es in zip(expected, subject.values["E_raw"])]
        judge = f"numpy (the evaluator: {worst(expected, subject.values['E_raw']):g} ulps off it)"
    off = worst(expected, subject.values["I_raw"])
    if off <= diff.AGREE_ULPS:
        return f"compiles, values agree with {judge}", "yes"
    return f"compiles, values differ from {judge} by {off:.3g} ulps", "no"


def main() -> int:
    rows = []
    fixed = 0
    for path in sorted(HERE.glob("*.mlir")):
        what, is_fixed = observe(path)
        known = path.name in diff.KNOWN_IREE_BUGS or path.name in diff.IREE_MISCOMPILES
        rows.append([path.name, what, is_fixed, "yes" if known else "NO"])
        fixed += is_fixed == "yes"
    print(markdown_table(["reproducer", "iree-compile 3.13 (llvm-cpu)", "fixed?", "in KNOWN_IREE_BUGS / IREE_MISCOMPILES"], rows))
    return 1 if fixed else 0


if __name__ == "__main__":
    sys.exit(main())
