"""`heirpy-run` and `heirpy-equiv`: run MLIR functions with heirpy's numpy evaluator.

    heirpy-run FILE [--function NAME] [--inputs in.npz | --random SEED] [--output out.npz]
                    [--check] [--rtol R] [--atol A] [--debug]

Runs one function (default: `main`, or the module's only function) and prints each
result's shape, dtype and first values. Inputs come from an .npz holding `arg0`,
`arg1`, ... (the format of examples/*.npz) or are drawn from a seed (default 0).
`--output` writes the inputs and results as `arg*` / `result*`. `--check` compares the
results with the `result*` arrays of the `--inputs` file and exits 1 on a mismatch.

    heirpy-equiv A.mlir B.mlir [--function NAME] [--seeds N] [--rtol R] [--atol A] [--debug]

Runs the function of both files on the same random inputs for seeds 0..N-1 (default 3)
and prints the max absolute and relative error of each result; exits 1 when a result
differs beyond `atol + rtol * |a|` (defaults 1e-5 and 1e-4; integers must be equal).
A half-precision (f16, bf16) result of A that B misses that by is judged against A's
function computed in f32 (`heir-widen-half`): it passes when B moves no value further
from those than A's own output is (`heirpy.interp.equivalence.judge_half`: two f16
computations of a deep network that round at different points differ by tens of ulps,
and the closer one to the exact values is not the wrong one); `--plain-half` keeps
the plain rule.

Errors print one line, `file:line:col: error: ...` or `error: ...`, and exit 1; `--debug`
shows the traceback instead.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.func import FuncOp

from heirpy.interp.equivalence import check_equivalence, is_half, random_inputs
from heirpy.interp.evaluator import Evaluator
from heirpy.interp.reference import compare_with_reference, load_npz, reference_inputs
from heirpy.interp.resources import LoadedModule, load_file, module_resources
from heirpy.ir.constants import element_dtype
from heirpy.ir.context import clone_module, context_of
from heirpy.ir.diagnostics import ArgumentParser, HeirpyError, UsageError, run_guarded
from heirpy.transforms.heir.heir_widen_half import HeirWidenHalfPass

PREVIEW_VALUES = 6


# ----------------------------------------------------------------------------- heirpy-run
def run_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="heirpy-run", description="Run an MLIR function with heirpy's numpy evaluator.")
    parser.add_argument("file", help="MLIR file")
    parser.add_argument("--function", help="function to run (default: main, or the only function)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--inputs", type=Path, help=".npz with arg0, arg1, ...")
    source.add_argument("--random", type=int, metavar="SEED", help="draw inputs from this seed (default 0)")
    parser.add_argument("--output", type=Path, help="write arg* and result* to this .npz")
    parser.add_argument("--check", action="store_true", help="compare with result* of the --inputs file")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    return parser


def default_function(loaded: LoadedModule, name: str | None) -> str:
    if name is not None:
        return name
    names = [op.sym_name.data for op in loaded.module.ops if isinstance(op, FuncOp) and op.body.blocks]
    if "main" in names or len(names) != 1:
        return "main"
    return names[0]


def describe(name: str, value: np.ndarray) -> str:
    shape = "x".join(map(str, value.shape)) or "scalar"
    flat = value.reshape(-1)
    preview = np.array2string(flat[:PREVIEW_VALUES], precision=6, separator=", ", max_line_width=200)
    more = f" ... ({flat.size} values)" if flat.size > PREVIEW_VALUES else ""
    stats = ""
    if flat.size and value.dtype.kind in "fiu":
        stats = f"  min {flat.min():.6g} max {flat.max():.6g}"
    return f"{name}: {shape} {value.dtype} {preview}{more}{stats}"


def run_main(argv: Sequence[str] | None = None) -> int:
    args = run_parser().parse_args(argv)
    if args.check and args.inputs is None:
        raise UsageError("error: --check needs --inputs (the file holding result0, ...)")
    loaded = load_file(args.file)
    evaluator = Evaluator(loaded.module, loaded.resources)
    name = default_function(loaded, args.function)
    func = evaluator.function(name)
    count = len(func.function_type.inputs.data)
    if args.inputs is not None:
        stored = load_npz(args.inputs)
        inputs = reference_inputs(stored, count, str(args.inputs))
    else:
        inputs, stored = random_inputs(func, 0 if args.random is None else args.random), {}
    results = [np.ascontiguousarray(r) for r in evaluator.call(name, inputs)]
    for index, value in enumerate(results):
        print(describe(f"result{index}", value))
    if args.output is not None:
        arrays = {f"arg{i}": np.asarray(a) for i, a in enumerate(inputs)}
        arrays |= {f"result{i}": r for i, r in enumerate(results)}
        try:
            np.savez(args.output, allow_pickle=False, **arrays)
        except OSError as err:
            raise HeirpyError(f"error: cannot write '{args.output}': {err.strerror or err}") from err
    if args.check:
        return check_against(stored, results, args.rtol, args.atol, str(args.inputs))
    return 0


def check_against(
    stored: dict[str, np.ndarray], results: list[np.ndarray], rtol: float, atol: float, source: str
) -> int:
    comparisons = compare_with_reference(stored, results, rtol, atol, source)
    for comparison in comparisons:
        print(f"check {comparison.line()}")
    return 0 if all(c.ok for c in comparisons) else 1


# ----------------------------------------------------------------------------- heirpy-equiv
def equiv_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="heirpy-equiv", description="Check that two MLIR files compute the same function."
    )
    parser.add_argument("file_a", help="reference MLIR file")
    parser.add_argument("file_b", help="MLIR file to compare (e.g. after a pass pipeline)")
    parser.add_argument("--function", default="main")
    parser.add_argument("--seeds", type=int, default=3, help="number of random input sets (seeds 0..N-1)")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--plain-half", action="store_true",
                        help="judge f16/bf16 results by the plain tolerance only, not against A computed in f32")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    return parser


def computed_in_f32(loaded: LoadedModule, function: str) -> LoadedModule | None:
    """`loaded` with `@function` computed in f32 (`heir-widen-half`), when one of its
    results is f16 or bf16 and the pass widens it (None otherwise)."""
    funcs = [op for op in loaded.module.ops if isinstance(op, FuncOp) and op.sym_name.data == function]
    if not funcs or not any(is_half(element_dtype(t)) for t in funcs[0].function_type.outputs.data):
        return None
    wide = clone_module(loaded.module)
    with contextlib.redirect_stderr(io.StringIO()):  # its remark names the new signature
        HeirWidenHalfPass().apply(context_of(wide), wide)
    widened = [op for op in wide.ops if isinstance(op, FuncOp) and op.sym_name.data == function]
    if any(is_half(element_dtype(t)) for t in widened[0].function_type.outputs.data):
        return None  # a form the pass does not widen: the plain rule alone
    return LoadedModule(wide, module_resources(wide))


def equiv_run(argv: Sequence[str] | None = None) -> int:
    args = equiv_parser().parse_args(argv)
    if args.seeds < 1:
        raise UsageError("error: --seeds must be at least 1")
    a, b = load_file(args.file_a), load_file(args.file_b)
    wide = None if args.plain_half else computed_in_f32(a, args.function)
    report = check_equivalence(
        a.module, b.module, args.function, range(args.seeds), args.rtol, args.atol,
        resources_a=a.resources, resources_b=b.resources,
        half_reference=None if wide is None else wide.module,
        resources_reference=None if wide is None else wide.resources,
    )
    print(report.summary())
    return 0 if report.ok else 1


# ----------------------------------------------------------------------------- entry points
def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `heirpy-run`."""
    return run_guarded(run_main, argv)


def equiv_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `heirpy-equiv`."""
    return run_guarded(equiv_run, argv)


if __name__ == "__main__":
    sys.exit(main())
