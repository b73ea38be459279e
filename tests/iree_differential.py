"""Differential testing through real compilers: each generated program (tests/strategies.py),
raw and after heirpy's pipeline, compiled by IREE's llvm-cpu back end and run on the same
random inputs as heirpy's evaluator; heirpy's output must also parse and verify in
heir-opt and iree-opt. Shared by tests/unit/test_iree_differential.py (a CI sample) and
benchmarks/fuzz_iree.py (a thousand programs), so it imports nothing from pytest.

Four values of each program's results, per seed:

    E_raw   heirpy's evaluator on the raw program     I_raw   IREE on the raw program
    E_heir  heirpy's evaluator on heirpy's output     I_heir  IREE on heirpy's output

All four claim to be the same function. A disagreement is classified by a vote: the
values that agree with each other outvote the one that does not, and its producer is
blamed (`classify`). heirpy's rewrite is wrong when both compilers of its output agree
with each other and both differ from both compilers of the raw program. Where the vote
is split two against two along the compiler (the evaluator against IREE, on both
forms), the vote cannot say which is right: "evaluator or IREE", settled by hand
against a reference (numpy, PyTorch or MLIR's own JIT), as docs/testing.md records.

Tolerance, in the precision the program computes in: an element's error is counted in
units in the last place (ulps) of the result's element type, at the larger of the
element's magnitude and the result's root-mean-square (a sum of terms of mixed sign
carries an absolute error on the scale of its terms, not of the sum). Two values agree
when the error is at most `AGREE_ULPS`; for f16 that is 2**-10 relative at the RMS
floor per ulp, so f16 results are compared as f16, never with an f32 tolerance. NaN
agrees with NaN and an infinity with the same infinity; a result whose reference (E_raw)
holds NaN or an infinity is "not comparable" in the tables, whatever else agrees.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np

from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, find_iree_compile
from heirpy.api import context_of, parse, print_module, run_pipeline
from heirpy.interp.equivalence import random_inputs
from heirpy.interp.evaluator import Evaluator
from heirpy.interp.resources import load_module, module_resources

PIPELINE = "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext"
SEEDS = (0, 1)
# Measured on 1,000 programs (docs/testing.md): agreeing implementations differ by at
# most a few ulps at the RMS floor; every wrong value seen was off by thousands.
AGREE_ULPS = 64.0
SOURCES = ("E_raw", "E_heir", "I_raw", "I_heir")

# The families a program belongs to, from the layers it was built of (a program may be
# in several); `family_of` reads them.
FAMILIES = (
    "conv/matmul epilogue", "reshape/transpose chain", "pool", "softmax", "concat", "yolo head",
)


def family_of(layers: Sequence[str]) -> set[str]:
    """The fusion families `layers` exercise (the names tests/strategies.py gives them)."""
    found: set[str] = set()
    for i, layer in enumerate(layers):
        follows = layers[i + 1] if i + 1 < len(layers) else ""
        if layer.startswith(("conv", "depthwise", "linear")) and follows and not follows.startswith("pad"):
            found.add("conv/matmul epilogue")
        if layer.startswith(("expand", "collapse", "transpose", "flatten", "permuted_")):
            found.add("reshape/transpose chain")
        if "pool" in layer:
            found.add("pool")
        if layer.startswith("softmax"):
            found.add("softmax")
        if layer.startswith("concat"):
            found.add("concat")
        if layer.startswith("yolo_head"):
            found.add("yolo head")
    return found


def tool(name: str) -> str:
    """A command-line tool on PATH or beside the running Python (a venv's bin/)."""
    beside = Path(sys.executable).parent / name
    found = shutil.which(name) or (str(beside) if beside.exists() else None)
    if found is None:
        raise FileNotFoundError(f"{name} not found: install the test extras (pip install -e '.[test]')")
    return found


# ------------------------------------------------------------------ one program, prepared
@dataclass
class Subject:
    """One generated program: its texts, inputs, and the values each implementation gave."""

    index: int
    layers: tuple[str, ...]
    element: str
    raw: str
    heirpy: str = ""  # heirpy's output, maps printed inline (for merging into one module)
    custom: str = ""  # heirpy's output as `heirpy-opt` prints it, and in generic form
    generic: str = ""
    inputs: list[list[np.ndarray]] = field(default_factory=list)  # per seed
    values: dict[str, list[list[np.ndarray]]] = field(default_factory=dict)  # SOURCES -> per seed
    problems: dict[str, str] = field(default_factory=dict)  # crash / reparse / compile findings

    @property
    def families(self) -> set[str]:
        return family_of(self.layers)


def prepare(index: int, text: str, layers: Sequence[str], element: str) -> Subject:
    """Run heirpy's pipeline and its evaluator on both forms (E_raw, E_heir)."""
    subject = Subject(index, tuple(layers), element, text)
    reference = load_module(text)
    evaluator = Evaluator(reference.module, reference.resources)
    func = evaluator.function("main")
    subject.inputs = [random_inputs(func, seed) for seed in SEEDS]
    subject.values["E_raw"] = [evaluator.call("main", inputs) for inputs in subject.inputs]
    module = parse(text)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            run_pipeline(module, PIPELINE)
    except Exception as err:  # noqa: BLE001 - a crash is a finding of its own
        subject.problems["heirpy crash"] = f"{type(err).__name__}: {err}"
        return subject
    subject.heirpy = print_module(module, local_scope=True)
    subject.custom = print_module(module)
    subject.generic = print_module(module, generic=True)
    after = Evaluator(module, module_resources(module, context_of(module)))
    try:
        subject.values["E_heir"] = [after.call("main", inputs) for inputs in subject.inputs]
    except Exception as err:  # noqa: BLE001 - the evaluator failing on heirpy's output
        subject.problems["evaluator crash"] = f"{type(err).__name__}: {err}"
    return subject


# ------------------------------------------------------------------ heir-opt / iree-opt
def reparse_failures(texts: dict[int, str], command: Sequence[str]) -> dict[int, str]:
    """Which of `texts` `command` (heir-opt or iree-opt) rejects: all in one run with
    --split-input-file, then one by one only when that run fails. Returns the first
    error line of each rejected text."""
    if not texts:
        return {}
    joined = "\n// -----\n".join(texts.values())
    run = subprocess.run([*command, "--split-input-file", "-o", "/dev/null", "-"],
                         input=joined, capture_output=True, text=True)
    if run.returncode == 0:
        return {}
    failures = {}
    for index, text in texts.items():
        one = subprocess.run([*command, "-o", "/dev/null", "-"], input=text, capture_output=True, text=True)
        if one.returncode != 0:
            lines = one.stderr.splitlines()
            failures[index] = next((line for line in lines if "error" in line), lines[0] if lines else "?")
    if not failures:  # the batch failed but no text alone does: report it, do not drop it
        failures[-1] = run.stderr.strip().splitlines()[0] if run.stderr.strip() else "batch failed"
    return failures


def check_reparse(subjects: Sequence[Subject]) -> None:
    """heirpy's output, in custom and generic print, must parse and verify in heir-opt and
    iree-opt; each failure is a problem of its subject ("reparse <tool> <form>")."""
    for name in ("heir-opt", "iree-opt"):
        command = [tool(name)]
        for form in ("custom", "generic"):
            texts = {s.index: getattr(s, form) for s in subjects if s.heirpy}
            for index, message in reparse_failures(texts, command).items():
                for s in subjects:
                    if s.index == index or index == -1:
                        s.problems[f"reparse {name} {form}"] = message


# ------------------------------------------------------------------ IREE
_RESOURCES = re.compile(r"\{-#.*?#-\}", re.S)
_BLOB = re.compile(r'^\s*([\w.$-]+)\s*:\s*"(0x[0-9A-Fa-f]*)"', re.M)


def merge_functions(parts: Sequence[tuple[str, str]]) -> str:
    """One module holding each (symbol, module text)'s `@main` renamed `@symbol`, its blobs
    renamed apart. The texts must print their maps inline (no `#map` aliases)."""
    bodies: list[str] = []
    blobs: list[str] = []
    for symbol, text in parts:
        section = _RESOURCES.search(text)
        body = text if section is None else text[: section.start()] + text[section.end():]
        for name, data in _BLOB.findall(section.group(0)) if section else []:
            body = body.replace(f"dense_resource<{name}>", f"dense_resource<{symbol}_{name}>")
            blobs.append(f'      {symbol}_{name}: "{data}"')
        body = re.sub(r"@main\b", f"@{symbol}", re.sub(r"^\s*//.*$", "", body, flags=re.M).strip())
        if body.startswith("module"):  # else the module is implicit: the text is its body
            body = body[body.index("{") + 1: body.rindex("}")]
        bodies.append(body)
    out = "module {\n" + "\n".join(bodies) + "\n}\n"
    if blobs:
        out += "\n{-#\n  dialect_resources: {\n    builtin: {\n" + ",\n".join(blobs) + "\n    }\n  }\n#-}\n"
    return out


# The verdicts must read the same on every machine, so the target CPU is fixed rather than
# `host`: on a CPU with AVX512-FP16 an f16 max is one instruction and softmax_f16.mlir
# links, on one without it IREE calls libm's fmaxf, which its linker lacks. x86-64-v3
# (AVX2) is a level every x86 machine this suite runs on meets.
DIFF_COMPILE_FLAGS = (
    *(flag for flag in COMPILE_FLAGS if not flag.startswith("--iree-llvmcpu-target-cpu=")),
    "--iree-llvmcpu-target-cpu=x86-64-v3",
)


def iree_compile(text: str) -> tuple[bytes | None, str]:
    """IREE's llvm-cpu module for `text`, or None and iree-compile's first error line."""
    compiler = find_iree_compile()
    if compiler is None:
        raise FileNotFoundError("iree-compile not found: install the test extras (pip install -e '.[test]')")
    run = subprocess.run([compiler, *DIFF_COMPILE_FLAGS, "-", "-o", "-"], input=text.encode(), capture_output=True)
    if run.returncode == 0:
        return run.stdout, ""
    return None, compile_error(run.stderr.decode(errors="replace"), run.returncode)


_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (\S+)\(")


def compile_error(stderr: str, returncode: int) -> str:
    """iree-compile's first error line, or for a crash "crash in F" with F the innermost
    MLIR/IREE function of its backtrace (the same crash reads the same on every input)."""
    lines = stderr.splitlines()
    if "Please report issues" in stderr or returncode < 0:
        frames = [m.group(1) for m in map(_FRAME.match, lines) if m]
        inner = next((f for f in frames if f.startswith("mlir::")), frames[0] if frames else "?")
        return f"crash in {inner}"
    return next((line.strip() for line in lines if "error" in line), lines[0] if lines else f"exit {returncode}")


def _parts(subject: Subject) -> list[tuple[str, str]]:
    parts = [(f"r{subject.index}", subject.raw)]
    if subject.heirpy:
        parts.append((f"h{subject.index}", subject.heirpy))
    return parts


def _compile_parts(parts: Sequence[tuple[str, str]]) -> tuple[dict[str, bytes], dict[str, str]]:
    """Compile `parts` as one module; when iree-compile fails, bisect so that each failing
    part is found alone. Returns (symbol -> module of the batch it compiled in, symbol ->
    iree-compile's error on that part alone)."""
    vmfb, error = iree_compile(merge_functions(parts))
    if vmfb is not None:
        return {symbol: vmfb for symbol, _ in parts}, {}
    if len(parts) == 1:
        return {}, {parts[0][0]: error}
    half = len(parts) // 2
    first, first_errors = _compile_parts(parts[:half])
    second, second_errors = _compile_parts(parts[half:])
    return first | second, first_errors | second_errors


def compile_and_run(subjects: Sequence[Subject]) -> None:
    """Compile every subject's two forms into one IREE module (one iree-compile run; when
    it fails, halves of it, down to the failing forms), run them on the subject's inputs
    and store I_raw and I_heir. A form IREE rejects is a problem of its subject."""
    import iree.runtime as ireert  # a test extra, imported only when IREE runs

    parts = [part for s in subjects for part in _parts(s)]
    compiled, failed = _compile_parts(parts)
    loaded: dict[int, object] = {}  # one runtime module per compiled batch
    for s in subjects:
        for symbol, source in ((f"r{s.index}", "I_raw"), (f"h{s.index}", "I_heir")):
            if symbol in failed:
                s.problems[f"iree-compile {'raw' if source == 'I_raw' else 'heirpy'}"] = failed[symbol]
            if symbol not in compiled:
                continue
            vmfb = compiled[symbol]
            if id(vmfb) not in loaded:
                loaded[id(vmfb)] = ireert.load_vm_flatbuffer(vmfb, driver="local-sync")
            function = getattr(loaded[id(vmfb)], symbol)
            results = []
            for inputs in s.inputs:
                out = function(*inputs)
                outs = out if isinstance(out, (tuple, list)) else [out]
                results.append([np.asarray(o.to_host()) for o in outs])
            s.values[source] = results


# ------------------------------------------------------------------ comparing, classifying
def ulp_error(reference: np.ndarray, value: np.ndarray) -> float:
    """The largest error of `value` against `reference`, in ulps of the reference's element
    type at max(|element|, RMS of the finite elements); inf on a shape/dtype mismatch or
    a NaN/infinity on one side only. Integers: 0 when equal, else inf."""
    if reference.shape != value.shape or reference.dtype != value.dtype:
        return float("inf")
    if reference.dtype.kind != "f":
        return 0.0 if np.array_equal(reference, value) else float("inf")
    a, b = reference.astype(np.float64), value.astype(np.float64)
    finite = np.isfinite(a)
    same = (np.isnan(a) & np.isnan(b)) | (~finite & (a == b))
    if np.any(~same & ~(finite & np.isfinite(b))):
        return float("inf")
    if not np.any(finite):
        return 0.0
    rms = float(np.sqrt(np.mean(np.square(a[finite]))))
    scale = np.maximum(np.abs(a[finite]), rms).astype(reference.dtype)
    ulp = np.spacing(scale).astype(np.float64)
    return float(np.max(np.abs(a[finite] - b[finite]) / ulp, initial=0.0))


def errors(subject: Subject) -> dict[tuple[str, str], float]:
    """The error (ulps, worst result and seed) between each pair of the four sources
    present; the pair's first source is the reference."""
    out = {}
    for x, y in combinations(SOURCES, 2):
        if x in subject.values and y in subject.values:
            worst = 0.0
            for xs, ys in zip(subject.values[x], subject.values[y]):
                if len(xs) != len(ys):
                    worst = float("inf")
                    continue
                for a, b in zip(xs, ys):
                    worst = max(worst, ulp_error(a, b))
            out[(x, y)] = worst
    return out


def not_comparable(subject: Subject) -> bool:
    """The raw program's evaluator values hold NaN or an infinity."""
    return any(
        r.dtype.kind == "f" and not np.all(np.isfinite(r))
        for results in subject.values.get("E_raw", []) for r in results
    )


# (sources that agree among themselves) -> the verdict; see the module docstring.
_CLUSTERS: dict[frozenset[str], str] = {
    frozenset({"E_raw", "I_raw", "I_heir"}): "evaluator wrong (on heirpy's output)",
    frozenset({"E_heir", "I_raw", "I_heir"}): "evaluator wrong (on the raw program)",
    frozenset({"E_raw", "E_heir", "I_heir"}): "IREE wrong (on the raw program)",
    frozenset({"E_raw", "E_heir", "I_raw"}): "IREE wrong (on heirpy's output)",
}


# IREE 3.13 bugs found by this test, each with a minimized reproducer in
# benchmarks/iree_bugs/ (check.py runs them): what iree-compile says -> the bug's file.
KNOWN_IREE_BUGS: dict[str, re.Pattern[str]] = {
    "unit_output_window.mlir": re.compile(r"inferred input/output operand #\d+ has shape's dimension #\d+ to be \d+, but found \d+"),
    "softmax_f16.mlir": re.compile(r"undefined symbol: fmaxf"),
    "output_map.mlir": re.compile(r"crash in mlir::AffineMap::isProjectedPermutation"),
}


# IREE 3.13 miscompiles found by this test (wrong values, no diagnostic), each with a
# reproducer there: file -> numpy's results of it from its arguments (the reference
# that settles the vote by hand).
IREE_MISCOMPILES: dict[str, Callable[..., list[np.ndarray]]] = {
    "strided_consumers.mlir": lambda x, wa, wb: [-x[..., ::4] * wa.item(), -x[..., ::2] * wb.item()],
}


def known_iree_bug(message: str) -> str | None:
    return next((name for name, pattern in KNOWN_IREE_BUGS.items() if pattern.search(message)), None)


def _failed_step(problems: dict[str, str]) -> str | None:
    """The verdict when a step failed before all four values existed, else None."""
    if "heirpy crash" in problems:
        return "heirpy crash"
    if "evaluator crash" in problems:
        return "evaluator crash (on heirpy's output)"
    if "iree-compile raw" in problems:
        return "IREE rejects the raw program"
    if "iree-compile heirpy" in problems:
        if any(kind.startswith("reparse") for kind in problems):
            return "heirpy's output invalid"
        return "IREE rejects heirpy's output (valid in heir-opt and iree-opt)"
    return None


def classify(subject: Subject) -> str:
    """"agree", or who is wrong: by the vote of the four values (module docstring), or
    by which step failed when some value is missing."""
    failed = _failed_step(subject.problems)
    if failed is not None:
        return failed
    if set(subject.values) != set(SOURCES):
        return "missing values"
    errs = errors(subject)
    agree = {pair for pair, err in errs.items() if err <= AGREE_ULPS}
    if len(agree) == len(errs):
        return "agree"

    def agreeing(group: frozenset[str]) -> bool:
        return all(pair in agree for pair in combinations(SOURCES, 2) if set(pair) <= group)

    for group, verdict in _CLUSTERS.items():
        if agreeing(group):
            return verdict
    if agreeing(frozenset({"E_raw", "I_raw"})) and agreeing(frozenset({"E_heir", "I_heir"})):
        return "heirpy's rewrite wrong"
    if agreeing(frozenset({"E_raw", "E_heir"})) and agreeing(frozenset({"I_raw", "I_heir"})):
        return "evaluator or IREE (both forms; needs a reference)"
    return "unclassified (needs a reference)"


def run_batch(programs: Sequence[tuple[int, str, Sequence[str], str]], *, reparse: bool = True) -> list[Subject]:
    """Prepare, re-parse (heir-opt, iree-opt) and run through IREE a batch of
    (index, text, layers, element) programs."""
    subjects = [prepare(*p) for p in programs]
    if reparse:
        check_reparse(subjects)
    compile_and_run(subjects)
    return subjects
