"""One zoo model's figures: heirpy against PyTorch, depth and weights, IREE raw vs heirpy.

`measure(directory, timed, rounds)` reads `model.mlir` / `model.npz` (written by
`models.export`) and returns a JSON-able dict:

- numerics: heirpy's output under the main pipeline (`MAIN_PIPELINE`), run by heirpy's
  evaluator on the stored input, against PyTorch's output. f32: heirpy-report's rule
  (`judge_against_reference`, rtol 1e-4, atol 1e-5 scaled to the output's magnitude): a
  mismatch only where heirpy moved a value further from PyTorch's than the raw IR is. f16: against the f32 model's output,
  heirpy's f16 error may be at most twice PyTorch's own f16 error plus 4 f16 ulps of the
  output's scale (heirpy computes in f16 as written, so it may round differently from
  PyTorch's f16 kernels, but not worse in kind).
- depth, depth bound, linear ops and weight bytes of the main pipeline's output
  (`heirpy.analysis.depth`, through heirpy-report's `depth_figures`), constant bytes before
  and after (`heirpy.analysis.kernels.constant_bytes`) for the main and the IREE pipeline;
  the levels the chains that grow the constants buy (`weight_rule`: the depth with none of
  them minus the main pipeline's) and whether the growth is within issue 37's rule, 1.5x
  per level bought.
- compile speed: `heirpy-opt -p <IREE pipeline>` on the file (CPU seconds of a fresh
  process, start-up included; the file it writes is heirpy's IREE input) against `iree-opt`
  parsing and printing the same file (CPU seconds).
- IREE: dispatches (`--compile-to=flow`) raw and heirpy under IREE's default CPU flags and
  its best (`BEST_FLAGS`), heirpy's side written for each by `iree_pipeline(flags)`
  (`iree-prepare`, and with IREE's im2col flag `iree-prepare{im2col=true}`, into
  `heirpy_iree.mlir` and `heirpy_iree_best.mlir`); when `timed`, the four modules are compiled and run
  single-threaded (`iree-benchmark-module --task_topology_max_group_count=1`, process CPU
  time as in benchmarks/bench_iree.py), alternating, `rounds` times, medians kept; and each
  module's output against PyTorch's (max abs error).
"""

from __future__ import annotations

import re
import resource
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

ZOO = Path(__file__).resolve().parent
sys.path.insert(0, str(ZOO.parent))  # benchmarks/: bench_iree's helpers

from bench_iree import BEST_CPU_FLAGS, Variant, benchmark  # noqa: E402
from harness import Tools, layout_names, run  # noqa: E402
from heirpy.analysis.depth import analyze_function  # noqa: E402
from heirpy.analysis.iree_dispatches import COMPILE_FLAGS, dispatch_kind  # noqa: E402
from heirpy.analysis.kernels import constant_bytes  # noqa: E402
from heirpy.api import clone_module, parse, print_module, run_pipeline  # noqa: E402
from heirpy.interp.evaluator import run_function  # noqa: E402
from heirpy.interp.reference import MODEL_DIFFERS, compare_with_reference, judge_against_reference  # noqa: E402
from heirpy.tools.heirpy_report import (  # noqa: E402
    REFERENCE_ATOL,
    REFERENCE_RTOL,
    depth_figures,
    first_function,
    same_function,
)
from heirpy.transforms.linear.fusion_cost import within_growth_rule  # noqa: E402

MAIN_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"
# The main pipeline with no linear chain that grows its constants: the depth the growing
# chains buy their levels from (issue 37's weight rule, `constant_budget.py`).
FRUGAL_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops{constant-budget=0 max-constant-growth=1}"
BEST_FLAGS = BEST_CPU_FLAGS
FLAG_SETS = {"default": (), "best": BEST_FLAGS}
# The modules that are run are built with a larger stack limit: YOLO11n's raw export needs
# 33,792 bytes in one dispatch under the best flags, over IREE's 32 KiB check. The limit is
# a check, not a code-generation choice: a module within 32 KiB compiles the same.
RUN_FLAGS = ("--iree-llvmcpu-stack-allocation-limit=65536",)
_EXPORT = re.compile(r"flow\.executable\.export\s+public\s+@(\w+)")


IM2COL_FLAG = "--iree-global-opt-use-im2col-for-convs"
HEIRPY_FILES = {"default": "heirpy_iree.mlir", "best": "heirpy_iree_best.mlir"}


def iree_pipeline(flags: str = "default") -> str:
    """heirpy's pipeline for IREE under the flag set `flags`: the one-step pass every IREE
    user runs, `iree-prepare`, with `im2col=true` where IREE is asked for its im2col of
    convs (heirpy's im2col of the grouped convs IREE's leaves alone)."""
    return "iree-prepare{im2col=true}" if IM2COL_FLAG in FLAG_SETS[flags] else "iree-prepare"


def heirpy_sources(directory: Path) -> dict[str, Path]:
    """heirpy's IREE input per flag set in a cached model's directory (a cache written before
    the best flags had a file of their own compiles `heirpy_iree.mlir` under both)."""
    found = {flags: directory / name for flags, name in HEIRPY_FILES.items()}
    return {flags: path if path.exists() else found["default"] for flags, path in found.items()}


def write_heirpy_inputs(raw: Path, directory: Path) -> None:
    """heirpy's IREE input of every flag set whose pipeline differs from the default's (the
    default's is written, and timed, by `compile_speed`)."""
    heirpy_opt = Path(sys.executable).parent / "heirpy-opt"
    for flags, name in HEIRPY_FILES.items():
        if iree_pipeline(flags) != iree_pipeline():
            run([str(heirpy_opt), str(raw), "-p", iree_pipeline(flags), "-o", str(directory / name)])


def dispatches(tools: Tools, source: Path, flags: tuple[str, ...]) -> list[str]:
    """The kinds of IREE's dispatches for `source` compiled with `flags` (llvm-cpu)."""
    text = run([tools.compile, *COMPILE_FLAGS, *flags, "--compile-to=flow", str(source), "-o", "-"])
    return [dispatch_kind(name) for name in _EXPORT.findall(text)]


def timed_process(cmd: list[str]) -> float:
    """The CPU seconds (user + system) of the process `cmd`: on a shared machine its wall
    time also counts the time other processes hold the cores."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run(cmd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# ----------------------------------------------------------------------------- numerics
def f16_verdict(heirpy_out: np.ndarray, torch_f16: np.ndarray, torch_f32: np.ndarray) -> dict[str, Any]:
    """heirpy's f16 output judged against the f32 model's, with PyTorch's f16 as the scale."""
    ref = torch_f32.astype(np.float64)
    if not np.all(np.isfinite(torch_f16)):  # random weights can overflow f16 (RepVGG's grow to 3e4 in f32)
        return {"verdict": "not comparable: PyTorch's own f16 output has NaN or Inf",
                "finite": bool(np.all(np.isfinite(heirpy_out)))}
    if not np.all(np.isfinite(heirpy_out)):
        return {"verdict": "MISMATCH", "detail": "NaN or Inf where PyTorch's f16 has numbers"}
    err_heirpy = float(np.max(np.abs(heirpy_out.astype(np.float64) - ref)))
    err_torch = float(np.max(np.abs(torch_f16.astype(np.float64) - ref)))
    allowed = 2 * err_torch + 4 * float(np.finfo(np.float16).eps) * float(np.max(np.abs(ref)))
    return {"verdict": "ok" if err_heirpy <= allowed else "MISMATCH", "max_abs_error": err_heirpy,
            "torch_f16_error": err_torch, "allowed": allowed}


def numerics(after: Any, arrays: dict[str, np.ndarray], before: Any = None) -> dict[str, Any]:
    """heirpy's verdict against PyTorch. f32 with `before` (the raw IR): heirpy-report's rule
    (`judge_against_reference`), which keeps the model's own arithmetic (large outputs, e.g.
    RepVGG's 3e4, computed in another order than PyTorch's) apart from the rewrite's: the
    verdict is `MODEL_DIFFERS`, a pass, where the raw IR is off PyTorch and heirpy moves no
    value further from it. Without `before`, the plain comparison at the same tolerance."""
    results = run_function(after, "main", [arrays["arg0"]])
    if "f32_result0" not in arrays:
        if before is not None:
            raw = run_function(before, "main", [arrays["arg0"]])
            judged = judge_against_reference(arrays, raw, results, REFERENCE_RTOL, REFERENCE_ATOL, "model.npz")
            at_fault = [j for j in judged if j.at_fault]
            differs = [j for j in judged if j.verdict == MODEL_DIFFERS]
            return {"verdict": (at_fault or differs or judged)[0].verdict,
                    "max_abs_error": max(j.max_abs_error for j in judged),
                    "raw_max_abs_error": max(j.model_abs_error for j in judged),
                    "heirpy_vs_raw": max(j.changed_abs_error for j in judged),
                    "detail": "; ".join(j.detail for j in at_fault or differs)}
        comparisons = compare_with_reference(arrays, results, REFERENCE_RTOL, REFERENCE_ATOL, "model.npz")
        bad = [c for c in comparisons if not c.ok]
        return {"verdict": "ok" if not bad else "MISMATCH",
                "max_abs_error": max(c.max_abs_error for c in comparisons),
                "detail": "; ".join(c.line() for c in bad)}
    cells = [f16_verdict(np.asarray(r), arrays[f"result{i}"], arrays[f"f32_result{i}"]) for i, r in enumerate(results)]
    bad = [c for c in cells if c["verdict"] != "ok"]  # "not comparable" cells carry no error figure
    return bad[0] if bad else max(cells, key=lambda c: c["max_abs_error"])


# ----------------------------------------------------------------------------- one model
def heirpy_side(raw: Path, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """Main pipeline: numerics, depth, weights; the time of the pass pipeline itself."""
    before = parse(raw.read_text(), str(raw))
    after = clone_module(before)
    start = time.perf_counter()
    run_pipeline(after, MAIN_PIPELINE)
    out: dict[str, Any] = {"main_pipeline_s": time.perf_counter() - start}
    out["constant_bytes"] = {"before": constant_bytes(before), "main": constant_bytes(after)}
    out.update(depth_figures(before, after))
    out["weight_rule"] = weight_rule(before, out["depth"]["after"], out["constant_bytes"])
    print_module(after)  # what heirpy prints must print (the file itself is not needed)
    start = time.perf_counter()
    out["numerics"] = numerics(after, arrays, before)
    out["evaluator_s"] = time.perf_counter() - start
    return out


def weight_rule(before: Any, depth: int, sizes: dict[str, int]) -> dict[str, Any]:
    """Levels the growing chains buy (the depth without them, `FRUGAL_PIPELINE`, minus the
    main pipeline's) and whether the main pipeline's growth is within issue 37's rule:
    at most 1.5x per level bought (`fusion_cost.within_growth_rule`)."""
    frugal = clone_module(before)
    run_pipeline(frugal, FRUGAL_PIPELINE)
    entry = first_function(before).sym_name.data
    frugal_depth = analyze_function(same_function(frugal, entry)).depth
    growth = sizes["main"] / sizes["before"] if sizes["before"] else 1.0
    return {"frugal_depth": frugal_depth, "levels_bought": frugal_depth - depth,
            "within": within_growth_rule(growth, frugal_depth - depth)}


def compile_speed(raw: Path, ours: Path) -> dict[str, Any]:
    """heirpy-opt under the IREE pipeline (writing `ours`) and iree-opt's parse+print of
    `raw`, CPU seconds of each process."""
    tools = Tools.find(None)
    heirpy_opt = Path(sys.executable).parent / "heirpy-opt"
    scratch = ours.with_name("iree_opt.mlir")
    out = {
        "heirpy_opt_s": timed_process([str(heirpy_opt), str(raw), "-p", iree_pipeline(), "-o", str(ours)]),
        "iree_opt_s": timed_process([tools.opt, str(raw), "-o", str(scratch)]),
        "clock": "cpu",
    }
    scratch.unlink()
    return out


def iree_side(raw: Path, arrays: dict[str, np.ndarray], timed: bool, rounds: int, work: Path,
              out: dict[str, Any] | None = None) -> dict[str, Any]:
    """IREE's figures, filled into `out` as they are measured (kept if a later one fails)."""
    tools = Tools.find(None)
    ours = work / HEIRPY_FILES["default"]
    out = {} if out is None else out
    out.update(compile_speed(raw, ours))
    out["iree_constant_bytes"] = constant_bytes(parse(ours.read_text(), str(ours)))
    write_heirpy_inputs(raw, work)
    heirpy = heirpy_sources(work)
    out["dispatches"], failures = {}, {}
    for flags in FLAG_SETS:  # each count on its own: one flag set failing keeps the others
        for side, source in (("raw", raw), ("heirpy", heirpy[flags])):
            try:
                out["dispatches"][f"{side} {flags}"] = len(dispatches(tools, source, FLAG_SETS[flags]))
            except RuntimeError as err:
                failures[f"{side} {flags}"] = str(err)[:300]
    if failures:
        out["iree_failures"] = failures
        raise RuntimeError(f"{', '.join(failures)}: {next(iter(failures.values()))}")
    if timed:
        out.update(time_iree(raw, heirpy, arrays, rounds, work))
    return out


def time_iree(
    raw: Path, heirpy: dict[str, Path], arrays: dict[str, np.ndarray], rounds: int, work: Path
) -> dict[str, Any]:
    """The four modules (raw / heirpy's input for the flag set x default / best flags)
    compiled, checked against PyTorch's output and timed single-threaded, alternating,
    `rounds` times (medians)."""
    tools = Tools.find(None)
    out: dict[str, Any] = {}
    inputs = [work / "arg0.npy"]
    np.save(inputs[0], arrays["arg0"])
    variants = []
    for flags, extra in FLAG_SETS.items():
        for side, source in (("raw", raw), ("heirpy", heirpy[flags])):
            variant = Variant(f"{side} {flags}", source, work / f"{side}_{flags}.vmfb")
            run([tools.compile, *COMPILE_FLAGS, *RUN_FLAGS, *extra, str(source), "-o", str(variant.vmfb)])
            variants.append(variant)
    errors = {}
    for variant in variants:  # IREE's own output against PyTorch's
        got = work / "out0.npy"
        run([tools.run, "--device=local-task", f"--module={variant.vmfb}", "--function=main",
             f"--input=@{inputs[0]}", f"--output=@{got}"])
        errors[variant.name] = float(np.max(np.abs(np.load(got).astype(np.float64) - arrays["result0"])))
    out["iree_max_abs_error"] = errors
    for _ in range(rounds):
        for variant in variants:
            benchmark(tools, variant, inputs, "one", 0.1)
    out["ms"] = {v.name: statistics.median(v.one_cpu) for v in variants}
    if out["ms"]["heirpy best"] > out["ms"]["raw best"]:  # a regression counts once a rerun confirms it
        out["ms_rerun"] = rerun(tools, [v for v in variants if v.name.endswith("best")], inputs, rounds)
    for variant in variants:
        variant.vmfb.unlink()
    return out


def rerun(tools: Tools, variants: list[Variant], inputs: list[Path], rounds: int) -> dict[str, float]:
    """`rounds` more alternating timed runs of `variants` (fresh medians)."""
    fresh = [Variant(v.name, v.source, v.vmfb) for v in variants]
    for _ in range(rounds):
        for variant in fresh:
            benchmark(tools, variant, inputs, "one", 0.1)
    return {v.name: statistics.median(v.one_cpu) for v in fresh}


def confirm(directory: Path, rounds: int, layouts: int = 2) -> dict[str, float]:
    """Rebuild a cached model's raw and heirpy modules with the best flags and time them
    again (`rounds` alternating runs): the rerun of a regression found earlier. Each side is
    compiled under `layouts` source names (`harness.layout_names`: each moves the code) and
    its figure is the geometric mean of their medians: ConvNeXt-atto's 1.06x here was one
    draw of loop alignments, 1.00x over four layouts of each side (docs/iree.md)."""
    tools = Tools.find(None)
    inputs = [directory / "arg0.npy"]
    with np.load(directory / "model.npz") as data:
        np.save(inputs[0], data["arg0"])
    variants = []
    with tempfile.TemporaryDirectory(prefix="confirm_") as tmp:
        for side, source in (("raw", directory / "model.mlir"), ("heirpy", heirpy_sources(directory)["best"])):
            for index, name in enumerate(layout_names(source, Path(tmp), side, layouts)):
                variant = Variant(f"{side} best {index}", name, Path(tmp) / f"{side}_best_{index}.vmfb")
                run([tools.compile, *COMPILE_FLAGS, *RUN_FLAGS, *BEST_FLAGS, str(name), "-o", str(variant.vmfb)])
                variants.append(variant)
        try:
            ms = rerun(tools, variants, inputs, rounds)
        finally:
            for variant in variants:
                variant.vmfb.unlink()
    return {f"{side} best": statistics.geometric_mean([t for name, t in ms.items() if name.startswith(f"{side} ")])
            for side in ("raw", "heirpy")}


def load_arrays(directory: Path) -> dict[str, np.ndarray]:
    with np.load(directory / "model.npz") as data:
        return {k: data[k] for k in data.files}


def complete_timing(directory: Path, rounds: int) -> dict[str, Any]:
    """The IREE timings of a model measured with `--untimed`, from its cached files (the
    export and heirpy's IREE-pipeline outputs, `HEIRPY_FILES`): nothing re-exported."""
    return time_iree(directory / "model.mlir", heirpy_sources(directory), load_arrays(directory), rounds, directory)


def measure(directory: Path, timed: bool, rounds: int) -> dict[str, Any]:
    raw = directory / "model.mlir"
    arrays = load_arrays(directory)
    out: dict[str, Any] = {"mlir_bytes": raw.stat().st_size}
    out.update(heirpy_side(raw, arrays))
    iree: dict[str, Any] = {}
    try:  # heirpy's own figures stand when IREE (or heirpy-opt) fails on the model
        iree = iree_side(raw, arrays, timed, rounds, directory, iree)
    except Exception as err:
        out["error"] = f"IREE side: {type(err).__name__}: {str(err)[:300]}"
        (directory / "error.txt").write_text(traceback.format_exc())
    out.update(iree)  # what IREE's side measured before it failed
    return out
