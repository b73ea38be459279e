"""`heirpy-report`: the main job. Runs heirpy's pipeline on model files and reports.

    heirpy-report examples/*.mlir [--pipeline P] [--out-dir DIR] [--seeds N]

For each file it parses and verifies the model, runs the pipeline, writes the result
to DIR, and prints one table row: op counts before and after, whether heir-opt
accepts the output, the numeric check of output against input (evaluator, several
random seeds) and, when `<model>.npz` sits beside the model (examples/ have PyTorch's
outputs there), the pipeline's output evaluated on those inputs against those outputs.
Each report column is a small function, so analyses added later (depth, kernels) are
one more column. When iree-compile (iree-base-compiler) is installed, a column gives
the dispatches IREE forms for the model and for heirpy's output lowered with
`lower-tensor-ext`. A mismatch in either numeric check, or heir-opt rejecting the
output, exits 1.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from heirpy.api import build_pipeline, parse, print_module, run_pipeline
from heirpy.interp.evaluator import run_function
from heirpy.interp.reference import compare_with_reference, load_npz, reference_inputs
from heirpy.ir.diagnostics import HeirpyError

DEFAULT_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"


@dataclass
class ModelReport:
    name: str
    ops_before: int = 0
    ops_after: int = 0
    heir_opt: str = "n/a"
    numerics: str = "n/a"
    extra: dict[str, str] = field(default_factory=dict)


def count_compute_ops(module: ModuleOp) -> int:
    """Ops that compute on tensors: linalg, tensor_ext and arith/math on tensors."""
    counts: Counter[str] = Counter(
        op.name for op in module.walk() if op.name.split(".")[0] in ("linalg", "tensor_ext")
    )
    counts.pop("linalg.yield", None)
    counts.pop("linalg.index", None)
    return sum(counts.values())


def heir_opt_accepts(text: str) -> str:
    """'yes'/'NO' for heir-opt re-parsing `text`, or 'n/a' when it is not installed."""
    tool = shutil.which("heir-opt")
    if tool is None:
        return "n/a"
    result = subprocess.run(
        [tool, "-"], input=text, capture_output=True, text=True, timeout=600
    )
    return "yes" if result.returncode == 0 else "NO"


def numeric_check(before: ModuleOp, after: ModuleOp, seeds: int) -> str:
    """Max abs error of the pipeline's output against its input on random inputs."""
    from heirpy.interp.equivalence import check_equivalence

    report = check_equivalence(
        before, after, function=first_function(before), seeds=tuple(range(seeds))
    )
    if report.problems:
        return "MISMATCH (" + "; ".join(report.problems) + ")"
    worst = max((r.max_abs_error for r in report.results), default=0.0)
    return f"{'ok' if report.ok else 'MISMATCH'} (max abs err {worst:.1e})"


def first_function(module: ModuleOp) -> str:
    """The model's entry: torch-mlir names it `main`, the ONNX route `main_graph`."""
    for op in module.ops:
        if op.name == "func.func":
            return op.sym_name.data
    raise HeirpyError("error: the module has no func.func to run")


def report_model(path: Path, pipeline: str, out_dir: Path | None, seeds: int) -> ModelReport:
    text = path.read_text()
    before = parse(text, str(path))
    after = parse(text, str(path))
    run_pipeline(after, pipeline)
    output = print_module(after)
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / path.name).write_text(output)
    lowered = lowered_for_mlir(output, str(path))
    report = ModelReport(
        name=path.stem,
        ops_before=count_compute_ops(before),
        ops_after=count_compute_ops(after),
        heir_opt=heir_opt_accepts(lowered),
        numerics=numeric_check(before, after, seeds),
    )
    report.extra.update(depth_columns(before, after))
    report.extra.update(kernel_columns(before, after))
    report.extra.update(iree_columns(text, lowered))
    report.extra[REFERENCE_COLUMN] = reference_check(path.with_suffix(".npz"), after)
    return report


def iree_columns(raw: str, lowered: str) -> dict[str, str]:
    """IREE's dispatches for the model and for heirpy's lowered output, before -> after
    (`heirpy.analysis.iree_dispatches`), when iree-compile is installed; none otherwise."""
    from heirpy.analysis.iree_dispatches import find_iree_compile, iree_dispatches

    tool = find_iree_compile()
    if tool is None:
        return {}

    def count(text: str) -> str:
        try:
            return str(len(iree_dispatches(text, tool)))
        except HeirpyError:
            return "rejected"

    return {"IREE dispatches before→after": f"{count(raw)}→{count(lowered)}"}


REFERENCE_COLUMN = "after vs .npz (PyTorch)"


def reference_check(npz: Path, after: ModuleOp) -> str:
    """The pipeline's output on the .npz's inputs against its stored outputs (the same
    tolerance as the export script's JIT check); 'n/a' when there is no .npz."""
    if not npz.exists():
        return "n/a"
    arrays = load_npz(npz)
    entry = first_function(after)
    function = next(op for op in after.ops if isinstance(op, FuncOp) and op.sym_name.data == entry)
    inputs = reference_inputs(arrays, len(function.function_type.inputs.data), str(npz))
    results = run_function(after, entry, inputs)
    comparisons = compare_with_reference(arrays, results, REFERENCE_RTOL, REFERENCE_ATOL, str(npz))
    worst = max((c.max_abs_error for c in comparisons), default=0.0)
    return f"{'ok' if all(c.ok for c in comparisons) else 'MISMATCH'} (max abs err {worst:.1e})"


REFERENCE_RTOL, REFERENCE_ATOL = 1e-4, 1e-5


def kernel_columns(before: ModuleOp, after: ModuleOp) -> dict[str, str]:
    """Kernels, bytes of intermediate tensors and bytes of constant data, whole module,
    before -> after (`heirpy.analysis.kernels`: views are free, function results are not
    intermediate, a splat constant stores one element)."""
    from heirpy.analysis.kernels import constant_bytes, count_kernels, intermediate_bytes

    return {
        "kernels before→after": f"{count_kernels(before)}→{count_kernels(after)}",
        "intermediate bytes before→after": f"{intermediate_bytes(before)}→{intermediate_bytes(after)}",
        "constant bytes before→after": f"{constant_bytes(before)}→{constant_bytes(after)}",
    }


def lowered_for_mlir(output: str, filename: str) -> str:
    """`output` with heirpy's tensor_ext ops lowered (`lower-tensor-ext`): heir-opt has a
    dialect of that name and rejects heirpy's ops, so this is what heir-opt gets."""
    if "tensor_ext." not in output:
        return output
    module = parse(output, filename)
    run_pipeline(module, "lower-tensor-ext")
    return print_module(module)


def depth_columns(before: ModuleOp, after: ModuleOp) -> dict[str, str]:
    """Multiplicative depth and plaintext-ciphertext linear ops of the entry function
    before -> after (CKKS cost model of `heirpy.analysis.depth`; `+`: a lower bound)."""
    from heirpy.analysis.depth import analyze_function

    entry = first_function(before)
    pair = [
        analyze_function(next(f for f in m.ops if getattr(f, "sym_name", None) and f.sym_name.data == entry))
        for m in (before, after)
    ]
    return {
        "depth before→after": f"{pair[0].depth_text()}→{pair[1].depth_text()}",
        "linear ops before→after": f"{pair[0].linear_ops}→{pair[1].linear_ops}",
        "weight bytes before→after": f"{pair[0].weight_bytes}→{pair[1].weight_bytes}",
    }


def format_table(rows: Sequence[ModelReport]) -> str:
    header = ["model", "ops before", "ops after", "heir-opt parses", "numerics"]
    extra_keys = sorted({key for row in rows for key in row.extra})
    header += extra_keys
    body = [
        [r.name, str(r.ops_before), str(r.ops_after), r.heir_opt, r.numerics]
        + [r.extra.get(k, "") for k in extra_keys]
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)) for line in [header, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="heirpy-report", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    parser.add_argument("--out-dir", type=Path, default=None)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    try:  # a bad pipeline is one error, not one per model under an empty table
        build_pipeline(args.pipeline)
    except HeirpyError as err:
        print(str(err), file=sys.stderr)
        return 1
    rows: list[ModelReport] = []
    failed = False
    for path in args.files:
        try:
            rows.append(report_model(path, args.pipeline, args.out_dir, args.seeds))
        except HeirpyError as err:
            print(str(err), file=sys.stderr)
            failed = True
        except OSError as err:
            print(f"error: cannot read '{path}': {err.strerror}", file=sys.stderr)
            failed = True
    print(f"pipeline: {args.pipeline}")
    print(format_table(rows))
    bad = [
        r.name for r in rows
        if r.heir_opt == "NO" or r.numerics.startswith("MISMATCH")
        or r.extra.get(REFERENCE_COLUMN, "").startswith("MISMATCH")
    ]
    if bad:
        print(f"error: check failed for {', '.join(bad)}", file=sys.stderr)
    return 1 if failed or bad else 0


if __name__ == "__main__":
    sys.exit(main())
