"""The properties every heirpy pass (and the default pipeline) must keep on any valid input,
checked on one program text. Shared by tests/unit/test_generated_programs.py (a bounded
number of hypothesis examples in CI) and benchmarks/fuzz_generated.py (thousands on demand),
so it imports nothing from pytest.

For `spec` (a pass or a pipeline) and an input text:
  crash           the pass raised (a traceback or a HeirpyError "pass ... failed")
  invalid         the output does not verify, or its custom or generic print does not parse
  mismatch        the output computes something else than the input (numpy evaluator)
  non_idempotent  running `spec` again on the output changes its text (SSA names aside)
  not_converging  ... and a third run changes it again
  depth_increase  the multiplicative depth of @main grew (heirpy.analysis.depth)
  below_bound     the depth after is below the input's depth bound (every chain of linear
                  ops fused: `depth_bound`): one of the two counts is wrong
  bound_changed   the depth bound of the output differs from the input's: a correct
                  rewrite changes neither what is computed nor how far it can be fused
A report-only pass (it prints a table) must leave the IR text unchanged.
"""

from __future__ import annotations

import contextlib
import io
import re
import traceback
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from filecheck_numerics import pads_inputs, returns_flat  # tests/, on the path of whoever imports this module
from heirpy.analysis.depth import analyze_module, depth_bound
from heirpy.api import context_of, parse, print_module, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import LoadedModule, load_module, module_resources
from heirpy.ir.diagnostics import verify_module

FULL_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext"
REPORT_PASSES = frozenset({"report-depth", "report-kernels", "report-slots"})
CATEGORIES = ("crash", "invalid", "mismatch", "non_idempotent", "not_converging", "depth_increase", "below_bound",
              "bound_changed")

# Float32 sums reassociated by fusion (a composed filter, a folded bias) differ from the
# op-by-op order in the last bits; x*x and sigmoid chains amplify that a little.
RTOL, ATOL = 1e-3, 1e-4
SEEDS = (0, 1)


def single_pass_specs() -> list[str]:
    """Every registered heirpy pass, by CLI name (report passes included)."""
    from heirpy.transforms import HEIRPY_PASSES

    return sorted(HEIRPY_PASSES)


@dataclass
class Outcome:
    """What went wrong for one (spec, program); empty `problems` means all properties hold."""

    spec: str
    problems: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        return "\n".join(f"[{self.spec}] {k}: {v}" for k, v in self.problems.items())


def _run(text_or_module, spec: str):  # type: ignore[no-untyped-def]
    """Run `spec` without verifying (verification is its own property), report tables muted."""
    with contextlib.redirect_stderr(io.StringIO()):
        return run_pipeline(text_or_module, spec, verify=False)


def _short_traceback(err: BaseException) -> str:
    frames = traceback.extract_tb(err.__traceback__)
    where = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
    cause = err.__cause__
    if cause is not None and cause.__traceback__ is not None:
        inner = traceback.extract_tb(cause.__traceback__)[-1]
        where += f" (cause {type(cause).__name__} at {inner.filename.rsplit('/', 1)[-1]}:{inner.lineno})"
    return f"{type(err).__name__}: {str(err).strip().splitlines()[-1] if str(err).strip() else ''}{where}"


def check_program(text: str, spec: str, *, numerics: bool = True) -> Outcome:
    """Check every property of `spec` on the program `text` (see the module docstring)."""
    outcome = Outcome(spec)
    problems = outcome.problems
    reference = load_module(text)
    module = parse(text)
    before_text = print_module(module)
    try:
        _run(module, spec)
    except Exception as err:  # noqa: BLE001 - any exception is the finding
        problems["crash"] = _short_traceback(err)
        return outcome
    invalid = _invalid_output(module)
    if invalid is not None:
        problems["invalid"] = invalid
        return outcome
    after_text = canonical_names(print_module(module))
    if spec in REPORT_PASSES and after_text != canonical_names(before_text):
        problems["non_idempotent"] = "a report-only pass changed the IR"
    if numerics:
        mismatch = _numeric_mismatch(reference, module, row_major=returns_flat(spec), padded=pads_inputs(spec))
        if mismatch is not None:
            problems["mismatch"] = mismatch
    depth_before = {f.name: f.depth for f in analyze_module(reference.module)}
    depth_after = {f.name: f.depth for f in analyze_module(module)}
    grown = {n: (depth_before[n], d) for n, d in depth_after.items() if n in depth_before and d > depth_before[n]}
    if grown:
        problems["depth_increase"] = ", ".join(f"@{n}: {a} -> {b}" for n, (a, b) in grown.items())
    bounds = {op.sym_name.data: depth_bound(op).depth for op in reference.module.walk() if isinstance(op, FuncOp)}
    beaten = {n: (bounds[n], d) for n, d in depth_after.items() if n in bounds and d < bounds[n]}
    if beaten:
        problems["below_bound"] = ", ".join(f"@{n}: depth {d} after, bound {b}" for n, (b, d) in beaten.items())
    bounds_after = {op.sym_name.data: depth_bound(op).depth for op in module.walk() if isinstance(op, FuncOp)}
    moved = {n: (bounds[n], b) for n, b in bounds_after.items() if n in bounds and b != bounds[n]}
    if moved:
        problems["bound_changed"] = ", ".join(f"@{n}: bound {a} -> {b}" for n, (a, b) in moved.items())
    problems.update(_rerun_problems(module, spec, after_text))
    return outcome


def _invalid_output(module: ModuleOp) -> str | None:
    """Why the pass's output is not valid IR (it must verify and re-parse from both
    print forms), or None."""
    try:
        verify_module(module)
    except Exception as err:  # noqa: BLE001
        return f"output does not verify: {_short_traceback(err)}"
    for generic in (False, True):
        try:
            parse(print_module(module, generic=generic))
        except Exception as err:  # noqa: BLE001
            form = "generic" if generic else "custom"
            return f"{form} print does not re-parse: {_short_traceback(err)}"
    return None


def _numeric_mismatch(
    reference: LoadedModule, module: ModuleOp, row_major: bool = False, padded: bool = False
) -> str | None:
    """How the output differs from the input under the evaluator, or None (`row_major`:
    a result the pipeline returned flat is read in the input's shape, row-major;
    `padded`: an argument it widened gets the input zero-padded)."""
    try:
        report = check_equivalence(
            reference.module, module, "main", seeds=SEEDS, rtol=RTOL, atol=ATOL,
            resources_a=reference.resources,
            resources_b=module_resources(module, context_of(module)),
            nonfinite_equal=True,  # a rewrite keeps the NaN or Inf a program computes
            row_major_results=row_major,
            padded_args=padded,  # heir-prepare's image arguments may take more channels
        )
    except Exception as err:  # noqa: BLE001 - the evaluator failing on the output is a finding
        return f"evaluating the output failed: {_short_traceback(err)}"
    return None if report.ok else report.summary().replace("\n", " |")


def _rerun_problems(module: ModuleOp, spec: str, after_text: str) -> dict[str, str]:
    """Running `spec` again must change nothing (crash / non_idempotent /
    not_converging otherwise)."""
    try:
        _run(module, spec)
        again = canonical_names(print_module(module))
    except Exception as err:  # noqa: BLE001
        return {"crash": f"second run: {_short_traceback(err)}"}
    if again == after_text:
        return {}
    problems = {"non_idempotent": _first_difference(after_text, again)}
    # Does a third run change anything? A pipeline whose output is not yet in the
    # form its first passes produce settles after one more run; one that keeps
    # changing has two rewrites undoing each other.
    try:
        _run(module, spec)
    except Exception as err:  # noqa: BLE001
        problems["crash"] = f"third run: {_short_traceback(err)}"
        return problems
    third = canonical_names(print_module(module))
    if third != again:
        problems["not_converging"] = _first_difference(again, third)
    return problems


_SSA_NAME = re.compile(r"%[A-Za-z_$.][\w$.-]*|%\d+")


def canonical_names(text: str) -> str:
    """`text` with SSA names numbered by first appearance: a pass that only renames
    values (xDSL keeps name hints of ops it re-creates) changes nothing."""
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        return names.setdefault(match.group(0), f"%_{len(names)}")

    return _SSA_NAME.sub(rename, text)


def _first_difference(a: str, b: str) -> str:
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return f"line {i + 1}: {x.strip()[:160]!r} became {y.strip()[:160]!r}"
    return f"{len(a.splitlines())} lines became {len(b.splitlines())}"
