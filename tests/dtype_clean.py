"""Every pipeline is dtype-clean (issue 34): on f32, f16 and bf16 variants of the same
generated programs, no pass builds a body, a constant or an accumulator of another
element type than its operands'. Shared by tests/unit/test_dtype_clean.py (a small fixed
sample) and benchmarks/fuzz_dtypes.py (thousands on demand); imports nothing from pytest.

A variant is the program of tests/strategies.py with its element type converted
(`convert_element`: every f32 type, its resource blobs and its -inf literal), so the f16
and bf16 programs hold the same layers as the f32 one: depthwise convs, batch norms,
pools, convs, matmuls, softmax. The programs in torch-mlir's mixed form (f32 accumulators
+ truncf, batch norm via extf; strategies.differential_programs) are drawn in f16 and
converted to bf16 the same way (their f32 accumulators stay f32). For each variant and
pipeline:

  crash      the pipeline raised something else than a user-facing `HeirpyError`
  refused    a `HeirpyError` raised by heirpy itself (kept apart: a documented limit, not a
             dtype bug); one that wraps another exception (`apply_pass`) is a crash
  invalid    heirpy's verifier rejects the output
  dtype      the output holds a float type the input holds nowhere (an f32 constant, body
             or accumulator in an all-f16 program, an f16 one in a bf16 program); for
             heir-prepare, which computes a half-precision program in f32 (WIDENING), a
             half type left or any type but the input's with f32 for f16 / bf16
  iree       iree-opt does not parse the output (not Orion's: NOT_FOR_MLIR_TOOLS; all outputs of a batch go through one
             `iree-opt --split-input-file` call; an error's line names the program)
  mismatch   the output differs from the input under the evaluator by more than
             `dtype_tolerance` (bf16 runs as `ml_dtypes.bfloat16`, heirpy.ir.constants);
             for heir-prepare, which computes the model in f32, also from the input
             widened by `heir-widen-half` alone (the input's own f16 roundings are the
             model's arithmetic, not the rewrite's: issue 34's rule)

The tolerance is derived from the element type: fusion reassociates sums and, in half
precision, removes intermediate roundings (the mixed-precision rule, docs/passes.md), so
each layer may move a value by a few units in the last place of its type:
rtol = atol = 8 * eps * (layers + 1) (f16: eps = 2^-10, 5 layers -> 0.047; bf16: eps =
2^-7, 5 layers -> 0.375; f32: 5.7e-6).
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from heirpy.api import context_of, parse, print_module, run_pipeline
from heirpy.export.orion import ORION_PIPELINE
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_module, module_resources
from heirpy.ir.diagnostics import HeirpyError, verify_module

MAIN_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext"
HEIR_PIPELINE = "heir-prepare"
PIPELINES = {"main": MAIN_PIPELINE, "iree": "iree-prepare", "heir": HEIR_PIPELINE}
ALL_PIPELINES = {**PIPELINES, "iree-gpu": "iree-prepare{target=gpu}", "orion": ORION_PIPELINE}
"""Every named pipeline: PIPELINES (the unit test's) plus IREE's GPU target and Orion's."""
WIDENING = frozenset({"heir"})
"""Pipelines that compute a half-precision program in f32 (heir-prepare's last step,
`heir-widen-half`): their output must hold f32 in place of every half type, and no half
type; their results are read rounded to the input's types."""
NOT_FOR_MLIR_TOOLS = frozenset({"orion"})
"""Pipelines whose output heirpy's Orion exporter reads, not iree-opt: it keeps heirpy's
`tensor_ext.kernel` ops (no `lower-tensor-ext`), so it is not sent through iree-opt."""
ELEMENTS = ("f16", "bf16")
DTYPE_ERRORS = ("crash", "invalid", "dtype", "iree")  # what counts against the target
_FLOAT_TYPE = re.compile(r"(?:(?<=x)|\b)(bf16|f16|f32|f64)\b")
SEEDS = (0, 1)

_EPS = {"f32": float(np.finfo(np.float32).eps), "f16": float(np.finfo(np.float16).eps), "bf16": 2.0**-7}
_NEG_INF = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80"}
_BLOB_NAME = {"f32": "(?:float32|f32)", "f16": "(?:float16|f16)"}  # strategies' and ours
_BLOB = {source: re.compile(rf"(\w+)\.{name}: \"0x0[24]000000([0-9A-Fa-f]*)\"") for source, name in _BLOB_NAME.items()}
_STORAGE = {"f32": "<f4", "f16": "<f2"}


def dtype_tolerance(element: str, layers: int) -> float:
    """rtol = atol for a program of `layers` layers in `element` (module docstring)."""
    return 8 * _EPS[element] * (layers + 1)


def _bf16_bytes(values: np.ndarray) -> bytes:
    """f32 values rounded to nearest even bf16, as little-endian 16-bit patterns."""
    bits = values.astype("<f4").view("<u4").astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype("<u2").tobytes()


def convert_element(text: str, element: str, source: str = "f32") -> str:
    """`text` (a program of tests/strategies.py computing in `source`, f32 or f16) with
    every `source` made `element`: the types, the -inf literal of a max pool's init and
    each resource blob's values (its alignment header too: 2 bytes for a 16-bit type).
    The f32 accumulators of the f16 (torch-mlir) form stay f32 when `source` is f16."""
    if element == source:
        return text

    def blob(match: re.Match[str]) -> str:
        values = np.frombuffer(bytes.fromhex(match.group(2)), dtype=_STORAGE[source]).astype("<f4")
        data = values.astype(_STORAGE[element]).tobytes() if element in _STORAGE else _bf16_bytes(values)
        header = "0x04000000" if element == "f32" else "0x02000000"
        return f'{match.group(1)}.{element}: "{header}{data.hex().upper()}"'

    text = _BLOB[source].sub(blob, text)
    text = re.sub(rf"dense_resource<(\w+)\.{_BLOB_NAME[source]}>", rf"dense_resource<\1.{element}>", text)
    text = text.replace(_NEG_INF[source], _NEG_INF[element])
    return re.sub(rf"(?<=[\sx<(,:]){source}\b", element, text)  # `xf32>`, `: f32`, `(f32`


@dataclass
class Variant:
    """One program in one element type."""

    name: str
    element: str
    text: str
    layers: int


@dataclass
class Finding:
    variant: str
    pipeline: str
    kind: str  # crash | refused | invalid | dtype | iree | mismatch
    detail: str


@dataclass
class Outputs:
    """The printed outputs to send through iree-opt, and what went wrong before that."""

    texts: list[tuple[str, str, str]] = field(default_factory=list)  # (variant, pipeline, text)
    findings: list[Finding] = field(default_factory=list)


def float_types(text: str) -> set[str]:
    """The float element types `text` spells anywhere (types, casts, resource names)."""
    return set(_FLOAT_TYPE.findall(text))


def type_problem(input_types: set[str], output_text: str, widening: bool) -> str:
    """'' when `output_text` holds only the float types it may: those of the input, or
    with `widening` the input's with f32 for each half type (and no half type left)."""
    output = float_types(output_text)
    half = input_types & {"f16", "bf16"}
    allowed = (input_types - half) | ({"f32"} if half else set()) if widening else input_types
    if widening and output & half:
        return f"output keeps {sorted(output & half)} (heir-widen-half computes it in f32)"
    if output - allowed:
        return f"output holds {sorted(output - allowed)}, input none"
    return ""


def _one_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return f"{type(err).__name__}: {lines[-1] if lines else ''}"


def run_variant(variant: Variant, pipelines: dict[str, str], outputs: Outputs, *, numerics: bool = True) -> None:
    """Run each pipeline on `variant`: verify, compare numerics, keep the output text."""
    reference = load_module(variant.text) if numerics else None
    input_types = float_types(variant.text)
    for label, spec in pipelines.items():
        module = parse(variant.text)
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                run_pipeline(module, spec, verify=False)
        except HeirpyError as err:
            # `apply_pass` wraps a Python exception inside a pass as a one-line HeirpyError:
            # that is still a crash (a bug), not a documented limit.
            wrapped = err.__cause__ is not None and not isinstance(err.__cause__, HeirpyError)
            outputs.findings.append(Finding(variant.name, label, "crash" if wrapped else "refused", _one_line(err)))
            continue
        except Exception as err:  # noqa: BLE001 - any other exception is the finding
            outputs.findings.append(Finding(variant.name, label, "crash", _one_line(err)))
            continue
        try:
            verify_module(module)
        except Exception as err:  # noqa: BLE001
            outputs.findings.append(Finding(variant.name, label, "invalid", _one_line(err)))
            continue
        text = print_module(module)
        problem = type_problem(input_types, text, label in WIDENING)
        if problem:
            outputs.findings.append(Finding(variant.name, label, "dtype", problem))
        if label not in NOT_FOR_MLIR_TOOLS:
            outputs.texts.append((variant.name, label, text))
        if reference is None:
            continue
        tol = dtype_tolerance(variant.element, variant.layers)
        try:
            report = check_equivalence(
                reference.module, module, "main", seeds=SEEDS, rtol=tol, atol=tol,
                resources_a=reference.resources, resources_b=module_resources(module, context_of(module)),
                nonfinite_equal=True, row_major_results=label == "heir", padded_args=label == "heir",
                widened_floats=label in WIDENING,
            )
        except Exception as err:  # noqa: BLE001 - the evaluator failing on the output is a finding
            outputs.findings.append(Finding(variant.name, label, "mismatch", f"evaluating failed: {_one_line(err)}"))
            continue
        if not report.ok and label in WIDENING and _as_widened_input(variant, module, label, tol):
            continue  # the model's own half-precision arithmetic, not the rewrite (module doc)
        if not report.ok:
            outputs.findings.append(Finding(variant.name, label, "mismatch", report.summary().replace("\n", " | ")))


def _as_widened_input(variant: Variant, module: ModuleOp, label: str, tol: float) -> bool:
    """Whether `module` (a WIDENING pipeline's output) computes what `variant` computes
    once `heir-widen-half` alone makes it f32: the input's own f16 roundings (an f16
    matmul accumulating 192 products in f16) may be further from the widened output than
    the tolerance, which heirpy is not to blame for (issue 34's rule: judged against the
    model as computed in f32, not against its f16 arithmetic)."""
    widened = load_module(variant.text)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            run_pipeline(widened.module, "heir-widen-half", verify=False)
        report = check_equivalence(
            widened.module, module, "main", seeds=SEEDS, rtol=tol, atol=tol,
            resources_a=widened.resources, resources_b=module_resources(module, context_of(module)),
            nonfinite_equal=True, row_major_results=label == "heir", padded_args=label == "heir", widened_floats=True,
        )
    except Exception:  # noqa: BLE001 - no widened reference: the first verdict stands
        return False
    return report.ok


def iree_parse(texts: Sequence[tuple[str, str, str]], iree_opt: str = "iree-opt") -> list[Finding]:
    """Send every text through ONE `iree-opt --split-input-file` call; each error's line
    number names the program it is in."""
    if not texts:
        return []
    starts: list[int] = []
    chunks: list[str] = []
    line = 1
    for _, _, text in texts:
        starts.append(line)
        chunks.append(text.rstrip("\n"))
        line += text.rstrip("\n").count("\n") + 2  # the chunk's lines and the separator
    joined = "\n// -----\n".join(chunks) + "\n"
    done = subprocess.run(
        [iree_opt, "--split-input-file", "-", "-o", "/dev/null"],
        input=joined, capture_output=True, text=True, timeout=600,
    )
    findings: list[Finding] = []
    seen: set[int] = set()
    for match in re.finditer(r"^<stdin>:(\d+):\d+: error: (.*)$", done.stderr, re.M):
        at = int(match.group(1))
        index = max(i for i, start in enumerate(starts) if start <= at)
        if index not in seen:
            seen.add(index)
            name, label, _ = texts[index]
            findings.append(Finding(name, label, "iree", match.group(2)))
    if done.returncode != 0 and not findings:
        findings.append(Finding("(batch)", "-", "iree", done.stderr.strip()[-300:]))
    return findings
