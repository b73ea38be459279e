"""Numerics of every FileCheck test: the IR each RUN line feeds `heirpy-opt -p PIPELINE`
is run by the evaluator before and after that pipeline (and after lowering tensor_ext),
on random inputs, and must compute the same. Where the input computes NaN (the
evaluator's value for reading a `tensor.empty`, whose contents are undefined), the
rewrite may compute anything: refining undefined values is legal.

The FileCheck tests pin the IR a pass prints; this pins what it computes. Every
must-not-fire case is thereby also a numeric test: a legality guard that is removed
makes the pass fire where it must not, and the result is wrong (or fails to verify).

    cases = numeric_cases(ROOT / "tests/filecheck", ["transforms", "generated"])
    for case in cases:
        problems = case_problems(case)      # [] when every function agrees

Not used by pytest directly: tests/unit/test_filecheck_numerics.py parametrizes over
the cases.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import AnyFloat, IntegerType, ShapedType, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.dialects.tensor import ExtractOp

from filecheck_chunks import chunks
from heirpy.api import print_module, run_pipeline
from heirpy.interp.equivalence import compare_arrays, padded_inputs, random_input, rounded_to
from heirpy.interp.errors import EvaluationError
from heirpy.interp.evaluator import run_function
from heirpy.interp.resources import LoadedModule, load_module
from heirpy.ir.constants import element_dtype
from lint_filecheck import RunLine, run_lines

SEEDS = (0, 1)
PIPELINE_ONLY = re.compile(r"^// numerics: pipeline only: (\S.*)$", re.M)
MAX_DYNAMIC = 8  # dynamic dims are drawn from 1..MAX_DYNAMIC
FLAT_RESULTS = "flat-results=true"  # legalize-for-heir's option: results come back flat


def pads_inputs(pipeline: str) -> bool:
    """May `pipeline` widen an image argument's channels? With `pad-input-channels=true`,
    and with `heir-prepare`, whose default it is, unless it says `pad-input-channels=false`."""
    return "pad-input-channels=true" in pipeline or re.search(
        r"heir-prepare(?!\{[^}]*pad-input-channels=false)", pipeline) is not None


def widens_floats(pipeline: str) -> bool:
    """May `pipeline` compute a half-precision function in f32? With `heir-widen-half`,
    and with `heir-prepare`, whose default it is, unless it says `widen-half=false`."""
    return "heir-widen-half" in pipeline or re.search(
        r"heir-prepare(?!\{[^}]*widen-half=false)", pipeline) is not None


def returns_flat(pipeline: str) -> bool:
    """May `pipeline` return a result flat? With `flat-results=true`, and with
    `heir-prepare`, whose default it is, unless it says `flat-results=false`."""
    return FLAT_RESULTS in pipeline or re.search(r"heir-prepare(?!\{[^}]*flat-results=false)", pipeline) is not None


@dataclass(frozen=True)
class NumericCase:
    """One (input chunk, pipeline) pair taken from a FileCheck test's RUN lines."""

    test: Path  # the FileCheck file whose RUN line names the pipeline
    source: Path  # the IR file it reads (the test itself, an Inputs/ file, an example)
    chunk: int  # the `// -----` chunk, 0 when the RUN line does not split the input
    pipeline: str
    text: str

    @property
    def unevaluable(self) -> str | None:
        """Why the evaluator cannot run this chunk (its `// numerics: pipeline only: WHY`
        line), or None. Such a chunk is still run through the pipeline, which must
        succeed and print IR that re-parses; only the before/after values are not
        compared (buffers, types numpy has no form of such as i7, and index arguments
        the evaluator would draw at random are out of its reach)."""
        match = PIPELINE_ONLY.search(self.text)
        return match.group(1).strip() if match else None

    @property
    def id(self) -> str:
        where = self.source.stem if self.source == self.test else f"{self.test.stem}:{self.source.stem}"
        return f"{self.test.parent.name}/{where}#{self.chunk}[{self.pipeline}]"


def heirpy_opt_calls(run: RunLine) -> Iterable[tuple[str, str, bool]]:
    """(input, pipeline, split) of each `heirpy-opt FILE -p PIPELINE` in a RUN line."""
    for stage in re.split(r"\|", run.command):
        try:
            words = shlex.split(stage)
        except ValueError:
            continue
        if not words or words[0] != "heirpy-opt" and words[:2] != ["not", "heirpy-opt"]:
            continue
        if words[0] == "not":
            continue  # an expected failure has no output to compare
        pipeline, source, split = "", "", False
        index = 1
        while index < len(words):
            word = words[index]
            if word == "-p" and index + 1 < len(words):
                pipeline = words[index + 1]
                index += 1
            elif word.startswith("-p="):
                pipeline = word[3:]
            elif word == "--split-input-file":
                split = True
            elif not word.startswith("-") and not source and not word.startswith(("2>", ">", "<")):
                source = word
            index += 1
        if pipeline and source:
            yield source, pipeline, split


def split_pipeline(pipeline: str) -> list[str]:
    """The passes of a pipeline: split at the commas outside `{options}` and quotes
    (`report-depth{plaintext-args="0,1"}` is one pass)."""
    passes: list[str] = []
    depth, quoted, start = 0, False, 0
    for index, char in enumerate(pipeline):
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "{":
            depth += 1
        elif not quoted and char == "}":
            depth -= 1
        elif not quoted and depth == 0 and char == ",":
            passes.append(pipeline[start:index])
            start = index + 1
    passes.append(pipeline[start:])
    return [p.strip() for p in passes if p.strip()]


def _resolve(source: str, test: Path, examples: Path) -> Path | None:
    if source.startswith("%t"):
        return None  # an intermediate file of the test itself
    path = (
        source.replace("%examples", str(examples))
        .replace("%S", str(test.parent))
        .replace("%s", str(test))
    )
    return Path(path)




def numeric_cases(root: Path, directories: Sequence[str], examples: Path) -> list[NumericCase]:
    """Every distinct (chunk, pipeline) the RUN lines under `root/directories` apply,
    plus the same pipeline followed by `lower-tensor-ext` when it does not end there."""
    cases: dict[tuple[Path, int, str], NumericCase] = {}
    for directory in directories:
        for test in sorted((root / directory).rglob("*.mlir")):
            if "Inputs" in test.parts:
                continue
            for run in run_lines(test.read_text().splitlines()):
                for source, pipeline, split in heirpy_opt_calls(run):
                    path = _resolve(source, test, examples)
                    # Report passes print tables and leave the IR alone.
                    pipeline = ",".join(p for p in split_pipeline(pipeline) if not p.startswith("report-"))
                    if path is None or not pipeline:
                        continue
                    pipelines = [pipeline]
                    if "lower-tensor-ext" not in pipeline:
                        pipelines.append(f"{pipeline},lower-tensor-ext")
                    texts = chunks(path) if split else [path.read_text()]
                    for index, chunk in enumerate(texts):
                        for spec in pipelines:
                            key = (path, index, spec)
                            if key not in cases:
                                cases[key] = NumericCase(test, path, index, spec, chunk)
    return list(cases.values())


def inputs_for(func: FuncOp, seed: int, dynamic: Sequence[int] = ()) -> list[np.ndarray]:
    """Random arguments, dynamic dims taken in order from `dynamic`. When the function
    gathers (`tensor.extract` with data-dependent indices), integers stay below the
    smallest float extent, so no index is out of bounds (which MLIR leaves undefined)."""
    rng = np.random.default_rng(seed)
    sizes = iter(dynamic)
    shapes: list[tuple[int, ...]] = []
    for type_ in func.function_type.inputs.data:
        shape = type_.get_shape() if isinstance(type_, ShapedType) else ()
        shapes.append(tuple(next(sizes) if d < 0 else d for d in shape))
    types = list(func.function_type.inputs.data)
    gathers = any(isinstance(op, ExtractOp) for op in func.walk())
    float_extents = [
        d for t, shape in zip(types, shapes)
        if isinstance(t, ShapedType) and not isinstance(t.get_element_type(), IntegerType)
        for d in shape
    ]
    bound = min(float_extents, default=1)
    values = []
    for type_, shape in zip(types, shapes):
        element = type_.get_element_type() if isinstance(type_, ShapedType) else type_
        if isinstance(type_, TensorType):
            type_ = TensorType(element, shape)
        if gathers and isinstance(element, IntegerType):
            values.append(rng.integers(0, bound, size=shape).astype(element_dtype(type_)))
        else:
            values.append(random_input(type_, rng))
    return values


def dynamic_sizes(loaded: LoadedModule, func: FuncOp) -> tuple[int, ...] | None:
    """Sizes for the function's dynamic argument dims that it runs on, or None.

    Dynamic dims may be tied by the ops (a pool's output size follows its input's), so
    size combinations from 1 to MAX_DYNAMIC are tried, smallest first."""
    count = sum(
        d < 0 for t in func.function_type.inputs.data if isinstance(t, ShapedType) for d in t.get_shape()
    )
    if count == 0:
        return ()
    for combo in sorted(product(range(1, MAX_DYNAMIC + 1), repeat=count), key=sum):
        try:
            run_function(loaded.module, func.sym_name.data, inputs_for(func, 0, combo),
                         resources=loaded.resources)
        except EvaluationError:
            continue
        return combo
    return None


def case_problems(case: NumericCase, seeds: Sequence[int] = SEEDS) -> list[str]:
    """What differs between the case's chunk and its rewrite ([] if nothing)."""
    if case.unevaluable is not None:
        after = load_module(case.text, str(case.source))
        run_pipeline(after.module, case.pipeline)
        load_module(print_module(after.module))
        return []
    return numeric_problems(case.text, case.pipeline, seeds, str(case.source))


def narrowest_float(func: FuncOp) -> np.dtype | None:
    """The narrowest float element type (f16, bf16) that `func` computes with anywhere, if
    it is narrower than f32; None otherwise."""
    widths = {}
    for op in func.walk():
        for result in op.results:
            if isinstance(result.type, ShapedType):
                dtype = _float_dtype(result.type)
                if dtype is not None and dtype.itemsize < 4:
                    widths[dtype.itemsize, dtype.name] = dtype
    return widths[min(widths)] if widths else None


def _float_dtype(shaped: ShapedType) -> np.dtype | None:
    element = shaped.get_element_type()
    return np.dtype(element_dtype(shaped)) if isinstance(element, AnyFloat) else None


def _result_problem(index: int, a: np.ndarray, b: np.ndarray, pipeline: str, storage: np.dtype | None) -> str | None:
    """Result `index` before (`a`) and after (`b`) the pipeline compared, or None if equal."""
    if widens_floats(pipeline):  # an f16 result computed in f32, read as f16
        b = rounded_to(b, a.dtype)
    if returns_flat(pipeline) and a.shape != b.shape and a.size == b.size:
        b = b.reshape(a.shape)  # a result returned flat, read in row-major order
    defined = ~np.isnan(a) if a.dtype.kind == "f" else np.ones(a.shape, bool)
    if a.shape == b.shape:  # undefined elements (NaN) may be refined to anything
        a, b = a[defined], b[defined]
    # A wide result of a function that rounds to a narrow float on the way (torch-mlir's
    # f16 form returning an f32 accumulator): a rewrite that composes two linear ops drops
    # a rounding between them, so the result is judged in the narrow float, as the values
    # it was computed from.
    if storage is not None and a.dtype.kind == "f" and a.dtype.itemsize > storage.itemsize:
        a, b = rounded_to(a, storage), rounded_to(b, storage)
    # An Inf the input computes (a divide by zero) must stay that Inf.
    # A narrow float (f16, bf16) computed with narrow accumulators: a rewrite that
    # reassociates a sum (two convs composed into one) moves an element that cancels to
    # near zero by a few ulps of the sum's terms, not of itself, so it is judged against
    # the result's magnitude, as heirpy-report judges it.
    narrow = a.dtype.kind == "f" and a.dtype.itemsize < 4
    comparison = compare_arrays(index, a, b, rtol=1e-4, atol=1e-4, nonfinite_equal=True, scale_atol=narrow)
    return None if comparison.ok else comparison.line()


def numeric_problems(
    text: str, pipeline: str, seeds: Sequence[int] = SEEDS, filename: str = "<string>"
) -> list[str]:
    """What differs between `text` and `text` after `pipeline`, per function and seed
    ([] if nothing).

    The pipeline verifies its output after every pass, and the output must re-parse, so
    a rewrite that emits invalid IR raises here."""
    before = load_module(text, filename)
    after = load_module(text, filename)
    run_pipeline(after.module, pipeline)
    load_module(print_module(after.module))
    problems: list[str] = []
    for func in before.module.ops:
        if not isinstance(func, FuncOp) or not func.body.blocks:
            continue
        name = func.sym_name.data
        dynamic = dynamic_sizes(before, func)
        if dynamic is None:
            problems.append(f"@{name}: no sizes up to {MAX_DYNAMIC} for its dynamic dims run")
            continue
        for seed in seeds:
            inputs = inputs_for(func, seed, dynamic)
            expected = run_function(before.module, name, inputs, resources=before.resources)
            if pads_inputs(pipeline):  # an image argument with more channels: the input zero-padded
                after_func = next(f for f in after.module.ops if isinstance(f, FuncOp) and f.sym_name.data == name)
                actual = run_function(after.module, name, padded_inputs(inputs, after_func), resources=after.resources)
            else:
                actual = run_function(after.module, name, inputs, resources=after.resources)
            if len(expected) != len(actual):
                problems.append(f"@{name}: {len(actual)} results instead of {len(expected)}")
                continue
            for index, (a, b) in enumerate(zip(expected, actual)):
                problem = _result_problem(index, a, b, pipeline, narrowest_float(func))
                if problem is not None:
                    problems.append(f"@{name} seed {seed}: {problem}")
    return problems
