"""`heirpy-report`: the main job. Runs heirpy's pipeline on model files and reports.

    heirpy-report examples/*.mlir [--pipeline P] [--out-dir DIR] [--seeds N]
                  [--format text|markdown|json] [--plot FILE.png]

For each file it parses and verifies the model, runs the pipeline, writes the result to
DIR, and measures, before -> after: the checks (heir-opt re-parses the output; the output
against the input under heirpy's evaluator on N random seeds; when `<model>.npz` sits
beside the model, the output on its inputs against the outputs PyTorch stored there), the
encrypted-inference figures (multiplicative depth, linear ops, weight bytes:
`heirpy.analysis.depth`) and the kernel figures (linalg ops, kernels, intermediate and
constant bytes: `heirpy.analysis.kernels`; IREE's dispatches when iree-compile is
installed, heirpy's side under `iree-prepare`, the pipeline for IREE). A line per model
goes to stderr as soon as that model is done; the tables (`heirpy.tools.report_format`)
go to stdout at the end. `--plot` draws depth and kernels
per model (`heirpy.tools.report_plot`, needs the `plot` extra).

Numerics (docs/usage.md, "How numerics are judged"): each element within `atol + rtol·|ref|`,
rtol 1e-4 and atol 1e-5 raised to 4 ulps of the result's float type, relative, and of its
largest value, absolute (in f16: 3.9e-3 and 3.9e-3·max|ref|). Against PyTorch the verdict
keeps the model's own arithmetic apart from heirpy's rewrite (`judge_rewrite`): "model≠ref,
heirpy ok" (a pass) when the input model is off PyTorch's values and heirpy's output is no
further off; "MISMATCH" only when heirpy's output is further off than the model's.

Exit status: 0 when every check of every model passes; 1 when a model cannot be read,
parsed or rewritten, a check could not run, heir-opt rejects an output, a numeric check
mismatches (heirpy's fault), or its values are not comparable (a NaN or Inf in the
reference: not a pass).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from heirpy.api import build_pipeline, clone_module, parse, print_module, run_pipeline
from heirpy.interp.evaluator import run_function
from heirpy.interp.reference import judge_against_reference, load_npz, reference_inputs
from heirpy.ir.diagnostics import HeirpyError
from heirpy.tools.report_format import failed_checks, progress_line, render_markdown, render_text

DEFAULT_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"
REFERENCE_RTOL, REFERENCE_ATOL = 1e-4, 1e-5  # the export script's JIT check tolerance

Cell = dict[str, Any]


def count_compute_ops(module: ModuleOp) -> int:
    """Ops that compute on tensors: linalg and tensor_ext ops (not their yields)."""
    counts: Counter[str] = Counter(
        op.name for op in module.walk() if op.name.split(".")[0] in ("linalg", "tensor_ext")
    )
    counts.pop("linalg.yield", None)
    counts.pop("linalg.index", None)
    return sum(counts.values())


def first_function(module: ModuleOp) -> FuncOp:
    """The model's entry: torch-mlir names it `main`, the ONNX route `main_graph`."""
    for op in module.ops:
        if isinstance(op, FuncOp) and op.body.blocks:
            return op
    raise HeirpyError("error: the module has no func.func to run")


def same_function(module: ModuleOp, name: str) -> FuncOp:
    return next(op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == name)


# ----------------------------------------------------------------------------- checks
def heir_opt_check(lowered: str) -> Cell:
    """heir-opt re-parsing heirpy's output (tensor_ext lowered): 'yes', 'NO' with its first
    error line, or 'n/a' when heir-opt is not installed."""
    tool = shutil.which("heir-opt")
    if tool is None:
        return {"verdict": "n/a", "max_abs_error": None, "detail": ""}
    result = subprocess.run([tool, "-"], input=lowered, capture_output=True, text=True, timeout=600)
    if result.returncode == 0:
        return {"verdict": "yes", "max_abs_error": None, "detail": ""}
    first = next((line.strip() for line in result.stderr.splitlines() if "error" in line), "rejected")
    return {"verdict": "NO", "max_abs_error": None, "detail": first}


def evaluator_check(before: ModuleOp, after: ModuleOp, seeds: int) -> Cell:
    """The output against the input under heirpy's evaluator, on seeds 0..N-1, one seed at
    a time: a seed whose reference holds NaN or Inf (x² overflowing on that input) is not
    compared, and says so; the check is ok when no seed mismatches and at least one
    compares, not comparable when none does."""
    from heirpy.interp.equivalence import check_equivalence

    name = first_function(before).sym_name.data
    reports = [check_equivalence(before, after, function=name, seeds=(seed,), scale_atol=True)
               for seed in range(seeds)]
    bad = [(seed, r) for seed, r in enumerate(reports) if r.verdict == "NOT equivalent"]
    if bad:
        details = [f"seed {seed}: {p}" for seed, r in bad for p in r.problems]
        details += [f"seed {seed}: {c.line()}" for seed, r in bad for c in r.results if c.verdict == "MISMATCH"]
        worst = max((c.max_abs_error for _, r in bad for c in r.results), default=None)
        return {"verdict": "MISMATCH", "max_abs_error": None if any(r.problems for _, r in bad) else worst,
                "detail": "; ".join(details)}
    compared = [r for r in reports if r.ok]
    skipped = [(seed, r.verdict.removeprefix("not comparable: ")) for seed, r in enumerate(reports) if not r.ok]
    if not compared:
        return {"verdict": reports[0].verdict, "max_abs_error": None, "detail": ""}
    worst = max((c.max_abs_error for r in compared for c in r.results), default=0.0)
    cell = {"verdict": "ok", "max_abs_error": worst, "detail": "", "seeds": [len(compared), len(reports)]}
    if skipped:
        cell["detail"] = "not compared on " + "; ".join(f"seed {seed} ({why})" for seed, why in skipped)
    return cell


def pytorch_check(npz: Path, before: ModuleOp, after: ModuleOp) -> Cell | None:
    """The model and heirpy's output, each run on the .npz's inputs, against the outputs
    stored there (PyTorch's, for examples/), judged by `judge_rewrite`: "MISMATCH" only
    where heirpy's output is further from the reference than the model's own;
    `MODEL_DIFFERS` (a pass) where the model's own arithmetic is off the reference and
    heirpy is not. None when there is no .npz."""
    if not npz.exists():
        return None
    arrays = load_npz(npz)
    entry = first_function(after)
    inputs = reference_inputs(arrays, len(entry.function_type.inputs.data), str(npz))
    results = run_function(after, entry.sym_name.data, inputs)
    model_results = run_function(before, first_function(before).sym_name.data, inputs)
    judged = judge_against_reference(arrays, model_results, results, REFERENCE_RTOL, REFERENCE_ATOL, str(npz))
    worst = max((j.max_abs_error for j in judged), default=0.0)
    # The worst verdict of any result: heirpy's fault, then not comparable (both fail), then the
    # model's own difference (a pass), then ok.
    faults = [j.verdict for j in judged if j.at_fault]
    differs = [j.verdict for j in judged if j.verdict != "ok"]
    verdict = "MISMATCH" if "MISMATCH" in faults else (faults or differs or ["ok"])[0]
    return {"verdict": verdict, "max_abs_error": worst,
            "model_abs_error": max((j.model_abs_error for j in judged), default=0.0),
            "changed_abs_error": max((j.changed_abs_error for j in judged), default=0.0),
            "atol": max((j.atol for j in judged), default=REFERENCE_ATOL),
            "detail": "; ".join(j.detail for j in judged if j.detail)}


# ----------------------------------------------------------------------------- figures
def depth_figures(before: ModuleOp, after: ModuleOp) -> dict[str, Cell]:
    """Depth, linear ops and weight bytes of the entry function (CKKS cost model of
    `heirpy.analysis.depth`), and the depth bound of the input (every chain of linear ops
    fused: `depth_bound`)."""
    from heirpy.analysis.depth import analyze_function, depth_bound

    entry = first_function(before).sym_name.data
    b, a = (analyze_function(same_function(m, entry)) for m in (before, after))
    bound = depth_bound(same_function(before, entry))
    return {
        "depth": {"before": b.depth, "after": a.depth, "before_exact": b.exact,
                  "after_exact": a.exact, "bound": bound.depth, "bound_exact": bound.exact},
        "linear_ops": {"before": b.linear_ops, "after": a.linear_ops},
        "weight_bytes": {"before": b.weight_bytes, "after": a.weight_bytes},
    }


def kernel_figures(before: ModuleOp, after: ModuleOp) -> dict[str, Cell]:
    """Linalg ops, kernels, intermediate and constant bytes, whole module
    (`heirpy.analysis.kernels`: views are free, function results are not intermediate,
    a splat constant stores one element)."""
    from heirpy.analysis.kernels import constant_bytes, count_kernels, intermediate_bytes

    pairs = {"compute_ops": count_compute_ops, "kernels": count_kernels,
             "intermediate_bytes": intermediate_bytes, "constant_bytes": constant_bytes}
    return {key: {"before": f(before), "after": f(after)} for key, f in pairs.items()}


def iree_figures(raw: str, before: ModuleOp) -> dict[str, Cell]:
    """IREE's dispatches for the model and for heirpy's output under `iree-prepare`, the
    pipeline docs/iree.md tells IREE users to run (not the report's `--pipeline`, which
    fuses for CKKS levels), when iree-compile is installed (`heirpy.analysis.iree_dispatches`)."""
    from heirpy.analysis.iree_dispatches import find_iree_compile, iree_dispatches

    tool = find_iree_compile()
    if tool is None:
        return {}
    for_iree = clone_module(before)
    run_pipeline(for_iree, "iree-prepare")

    def count(text: str) -> int | str:
        try:
            return len(iree_dispatches(text, tool))
        except HeirpyError:
            return "rejected"

    return {"iree_dispatches": {"before": count(raw), "after": count(print_module(for_iree))}}


def lowered_for_mlir(output: str, filename: str) -> str:
    """`output` with heirpy's tensor_ext ops lowered (`lower-tensor-ext`): heir-opt has a
    dialect of that name and rejects heirpy's ops, so this is what heir-opt gets."""
    if "tensor_ext." not in output:
        return output
    module = parse(output, filename)
    run_pipeline(module, "lower-tensor-ext")
    return print_module(module)


# ----------------------------------------------------------------------------- one model
def guarded(cells: dict[str, Any], keys: Sequence[str], compute: Callable[[], Mapping[str, Cell | None]]) -> None:
    """Add `compute()`'s cells; if it fails, each of `keys` holds the error instead, so one
    failing figure never hides the others (or crashes the report)."""
    try:
        cells.update(compute())
    except HeirpyError as err:
        cells.update({k: {"error": str(err)} for k in keys})
    except Exception as err:  # a heirpy bug: shown, not raised, so the other models still run
        cells.update({k: {"error": f"internal error (a heirpy bug): {type(err).__name__}: {err}"} for k in keys})


def report_model(path: Path, pipeline: str, out_dir: Path | None, seeds: int) -> dict[str, Any]:
    """Everything the report shows for one model (report_format's data shape)."""
    model: dict[str, Any] = {"name": path.stem, "file": str(path), "error": None}
    start = time.perf_counter()
    try:
        text = path.read_text()
        before = parse(text, str(path))
        after = clone_module(before)  # a copy, not a second parse: a network parses in ~0.5 s
        # The passes' remarks (a fused chain's constant growth, the slots HEIR needs) are
        # heirpy-opt's to print; here they would split the progress lines, so the report
        # counts them in its notes and names the command that prints them.
        with contextlib.redirect_stderr(io.StringIO()) as remarks:
            run_pipeline(after, pipeline)
        model["remarks"] = sum(": remark: " in line or line.startswith("remark: ")
                               for line in remarks.getvalue().splitlines())
        output = print_module(after)
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            (out_dir / path.name).write_text(output)
        lowered = lowered_for_mlir(output, str(path))
    except OSError as err:
        model["error"] = f"error: cannot read '{path}': {err.strerror}"
        return model
    except HeirpyError as err:
        model["error"] = str(err)
        return model
    except Exception as err:  # a heirpy bug: shown for this model only, the others still run
        model["error"] = f"{path}: error: internal error (a heirpy bug): {type(err).__name__}: {err}"
        return model
    guarded(model, ["heir_opt"], lambda: {"heir_opt": heir_opt_check(lowered)})
    guarded(model, ["evaluator"], lambda: {"evaluator": evaluator_check(before, after, seeds)})
    guarded(model, ["pytorch"], lambda: {"pytorch": pytorch_check(path.with_suffix(".npz"), before, after)})
    guarded(model, ["depth", "linear_ops", "weight_bytes"], lambda: depth_figures(before, after))
    guarded(model, ["compute_ops", "kernels", "intermediate_bytes", "constant_bytes"],
            lambda: kernel_figures(before, after))
    guarded(model, ["iree_dispatches"], lambda: iree_figures(text, before))
    model["seconds"] = round(time.perf_counter() - start, 2)
    return model


# ----------------------------------------------------------------------------- CLI
def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="heirpy-report", description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    p.add_argument("--out-dir", type=Path, default=None, help="write the rewritten models here")
    p.add_argument("--seeds", type=int, default=3, help="random input sets of the evaluator check")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                   help="text: tables that fit 100 columns; markdown; json (for scripts)")
    p.add_argument("--plot", type=Path, default=None, metavar="FILE.png",
                   help="draw depth and kernels before/after per model (needs matplotlib)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:  # a bad pipeline, or --plot without matplotlib, is one error, not one per model
        build_pipeline(args.pipeline)
        if args.plot is not None:
            from heirpy.tools.report_plot import require_matplotlib

            require_matplotlib()
    except HeirpyError as err:
        print(str(err), file=sys.stderr)
        return 1
    data: dict[str, Any] = {
        "pipeline": args.pipeline,
        "out_dir": str(args.out_dir) if args.out_dir is not None else None,
        "plot": None,
        "models": [],
    }
    width = max(len(path.stem) for path in args.files)
    for index, path in enumerate(args.files, 1):
        if sys.stderr.isatty():
            print(f"[{index}/{len(args.files)}] {path.stem} ...", end="\r", file=sys.stderr, flush=True)
        model = report_model(path, args.pipeline, args.out_dir, args.seeds)
        data["models"].append(model)
        line = progress_line(index, len(args.files), width, model)
        print(line, file=sys.stderr, flush=True)
    if args.plot is not None:
        from heirpy.tools.report_plot import save_plot

        try:
            save_plot(data, args.plot)
            data["plot"] = str(args.plot)
        except OSError as err:
            print(f"error: cannot write '{args.plot}': {err.strerror or err}", file=sys.stderr)
            return 1
    if args.format == "json":
        print(json.dumps(data, indent=1))
    else:
        print(render_markdown(data) if args.format == "markdown" else render_text(data))
    bad = [m["name"] for m in data["models"] if failed_checks(m) and not m.get("error")]
    if bad:
        print(f"error: checks not passed for {', '.join(bad)}", file=sys.stderr)
    return 1 if any(failed_checks(m) for m in data["models"]) else 0


if __name__ == "__main__":
    sys.exit(main())
