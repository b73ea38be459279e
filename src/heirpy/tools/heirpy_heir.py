"""`heirpy-heir`: prepare a net with heirpy and compile it with HEIR's CKKS pipeline, every flag named.

    heirpy-heir net.mlir [OPTION=VALUE ...] [--level-budget N] [--timeout S]
                [--prepared OUT.mlir] [-o HEIR_OUT.mlir] [--heir-opt PATH]

runs `heir-prepare{OPTION=VALUE ...}` (heir-prepare's own options: `slot-count=N`,
`flat-results=false`, `strided-on-grid=false`, `pad-input-channels=false`), then

    heir-opt --secretize=function=<entry> '--annotate-module=backend=openfhe scheme=ckks'
             '--torch-linalg-to-ckks=min-slot-count=<slots> greedy-level-budget=<depth + 1>'

with the slot count heirpy picked and a level budget that holds heirpy's depth, so a
net within one parameter set compiles with no bootstrap (`heirpy.analysis.heir_command`;
no budget past 57 levels, or while a strided conv is left to HEIR's kernel, where HEIR
spends more levels than the depth).
It prints the command, then heirpy's depth and HEIR's levels, bootstraps, slots and the
seconds of each step:

    heirpy-heir: heir-opt --secretize=function=main '--annotate-module=...' --torch-linalg-to-ckks
    heirpy-heir: depth 3, levels 3, bootstraps 0, slots 1024 (logN 11), heir-prepare 0.3 s, heir-opt 1.8 s

heir-opt is the one on PATH, else the heir-py package's (`--heir-opt` names another).
Errors are one line on stderr with exit 1: heirpy's own (`file:line:col: error: ...`),
and heir-opt's first `error:` line, its crash or its timeout, with heirpy's output kept
for a reproducer. HEIR's remarks from heir-prepare (slots, flat results, padded input
channels) go to stderr as usual.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from heirpy.analysis.heir_command import DEFAULT_LEVEL_BUDGET, MAX_LEVELS_WITHOUT_BOOTSTRAP, heir_opt_args
from heirpy.api import parse, print_module, run_pipeline
from heirpy.ir.diagnostics import ArgumentParser, HeirpyError, UsageError, run_guarded
from heirpy.transforms.heir.heir_prepare import prepared_module_flags

SCHEME_PARAM = re.compile(r"ckks\.schemeParam\s*=\s*#ckks\.scheme_param<([^>]*)>")
Q_LIST = re.compile(r"\bQ\s*=\s*\[([^\]]*)\]")
LOG_N = re.compile(r"\blogN\s*=\s*(\d+)")
OPTION = re.compile(r"^[a-z][a-z-]*=[^\s{}]+$")


@dataclass(frozen=True)
class HeirResult:
    """What heir-opt made of a module: its levels (len(Q) - 1 of the scheme parameters),
    the ring (logN) and the bootstraps it placed."""

    levels: int
    log_n: int | None
    bootstraps: int


def find_heir_opt(explicit: str | None = None) -> str:
    """heir-opt: `explicit`, else the one on PATH, else the heir-py package's binary."""
    if explicit is not None:
        if shutil.which(explicit) is None:
            raise UsageError(f"error: --heir-opt '{explicit}' is not an executable")
        return explicit
    found = shutil.which("heir-opt")
    if found is not None:
        return found
    spec = importlib.util.find_spec("heir")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        binary = Path(location) / "heir-opt"
        if binary.is_file():
            return str(binary)
    raise HeirpyError("error: heir-opt not found: install heir-py (pip install heir-py) or give --heir-opt PATH")


def read_result(output: str) -> HeirResult | None:
    """Levels, logN and bootstraps from heir-opt's CKKS output, or None without parameters."""
    match = SCHEME_PARAM.search(output)
    if match is None:
        return None
    moduli = Q_LIST.search(match.group(1))
    log_n = LOG_N.search(match.group(1))
    count = len([m for m in moduli.group(1).split(",") if m.strip()]) if moduli else 0
    if count == 0:
        return None
    bootstraps = len(re.findall(r"\bckks\.bootstrap\b", output))
    return HeirResult(count - 1, int(log_n.group(1)) if log_n else None, bootstraps)


def first_error(stderr: str) -> str:
    """heir-opt's first diagnostic line (with its position), or its first line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return next((line for line in lines if "error:" in line), lines[0] if lines else "(no message)")


def heir_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="heirpy-heir",
        description="heirpy's heir-prepare, then heir-opt's CKKS pipeline with the slots and level budget it needs.",
    )
    parser.add_argument("file", help="MLIR file (linalg on tensors, e.g. torch-mlir's export)")
    parser.add_argument("options", nargs="*", metavar="OPTION=VALUE",
                        help="heir-prepare's options, e.g. slot-count=8192 flat-results=false")
    parser.add_argument("--level-budget", type=int, metavar="N",
                        help="heir-opt's greedy-level-budget (default: heirpy's depth + 1, at least 10)")
    # ResNet-20 at 32x32 takes heir-opt ~35 min of CPU; an hour of wall time was not
    # enough on a loaded machine, where README's command must still finish.
    parser.add_argument(
        "--timeout", type=float, default=14400.0, metavar="S", help="heir-opt's limit in seconds (default: 4 h)"
    )
    parser.add_argument("--prepared", type=Path, metavar="FILE", help="write heirpy's output (heir-opt's input)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write heir-opt's output")
    parser.add_argument("--heir-opt", metavar="PATH", help="the heir-opt to run (default: PATH, then heir-py's)")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    return parser


def with_budget(args: list[str], budget: int | None) -> list[str]:
    """heir-opt's arguments with the CKKS pipeline's greedy-level-budget set to `budget`."""
    if budget is None:
        return args
    *head, pipeline = args
    options = [o for o in pipeline.partition("=")[2].split() if not o.startswith("greedy-level-budget=")]
    return [*head, "--torch-linalg-to-ckks=" + " ".join([*options, f"greedy-level-budget={budget}"])]


def write(path: Path, text: str) -> None:
    try:
        path.write_text(text)
    except OSError as err:
        raise HeirpyError(f"error: cannot write '{path}': {err.strerror or err}") from err


def prepare(path: str, options: Sequence[str]) -> tuple[str, tuple[str, int, int, bool], float]:
    """heirpy's heir-prepare on the file: (its output, (entry, slots, depth, exact), seconds)."""
    bad = [o for o in options if not OPTION.match(o)]
    if bad:
        raise UsageError(f"error: '{bad[0]}' is not a heir-prepare option (OPTION=VALUE, e.g. slot-count=8192)")
    try:
        text = Path(path).read_bytes()
    except OSError as err:
        raise HeirpyError(f"error: cannot read '{path}': {err.strerror or err}") from err
    start = time.perf_counter()
    module = parse(text, path)
    spec = "heir-prepare" + (f"{{{' '.join(options)}}}" if options else "")
    run_pipeline(module, spec)
    slot_count = next((int(o.split("=")[1]) for o in options if o.startswith("slot-count=")), 0)
    flags = prepared_module_flags(module, slot_count)
    if flags is None:
        raise HeirpyError(f"{path}: error: no function with a body to compile")
    return print_module(module), flags, time.perf_counter() - start


def run_heir(heir_opt: str, args: list[str], kept: Path, timeout: float) -> tuple[str, float]:
    """heir-opt on heirpy's output (the file `kept`): its stdout and seconds. A rejection,
    crash or timeout is a one-line HeirpyError naming `kept`, the reproducer."""
    start = time.perf_counter()
    try:
        result = subprocess.run([heir_opt, *args, str(kept)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as err:
        raise HeirpyError(f"error: heir-opt gave no result within {timeout:.0f} s (its input: {kept})") from err
    seconds = time.perf_counter() - start
    if result.returncode < 0 or result.returncode >= 128:
        raise HeirpyError(f"error: heir-opt crashed (exit {result.returncode}) on heirpy's output (kept in {kept})"
                          + budget_hint(args))
    if result.returncode != 0:
        raise HeirpyError(f"error: heir-opt rejected heirpy's output: {first_error(result.stderr)}")
    return result.stdout, seconds


def budget_hint(args: list[str]) -> str:
    """Why a crash may come from the level budget: HEIR dies (SIGFPE) when a budget above
    its default lets it spend more levels than one parameter set holds, as it does on a
    layout heirpy's depth does not count (strided convs kept off the grid: a remark)."""
    budget = re.search(r"greedy-level-budget=(\d+)", args[-1])
    if budget is None or int(budget.group(1)) <= DEFAULT_LEVEL_BUDGET:
        return ""
    return (f"; if HEIR spent more than the {MAX_LEVELS_WITHOUT_BOOTSTRAP} levels one parameter set holds, "
            f"--level-budget {DEFAULT_LEVEL_BUDGET} lets it bootstrap instead")


def heir_main(argv: Sequence[str] | None = None) -> int:
    args = heir_parser().parse_args(argv)
    if args.level_budget is not None and args.level_budget < 1:
        raise UsageError("error: --level-budget must be at least 1")
    heir_opt = find_heir_opt(args.heir_opt)
    prepared, (function, slots, depth, exact), prepare_seconds = prepare(args.file, args.options)
    heir_args = with_budget(heir_opt_args(function, slots, depth, exact), args.level_budget)
    print("heirpy-heir: " + shlex.join(["heir-opt", *heir_args]), flush=True)
    if depth > MAX_LEVELS_WITHOUT_BOOTSTRAP and args.level_budget is None:
        print(f"heirpy-heir: depth {depth} is more than the {MAX_LEVELS_WITHOUT_BOOTSTRAP} levels one HEIR "
              "parameter set holds: heir-opt will bootstrap", flush=True)
    if args.prepared is not None:
        kept = args.prepared
        write(kept, prepared)
    else:
        with tempfile.NamedTemporaryFile("w", prefix=Path(args.file).stem + "-", suffix=".heir-prepare.mlir",
                                         delete=False) as handle:
            handle.write(prepared)
        kept = Path(handle.name)
    output, heir_seconds = run_heir(heir_opt, heir_args, kept, args.timeout)
    if args.prepared is None:
        kept.unlink(missing_ok=True)  # kept only as a reproducer of a failure
    result = read_result(output)
    if result is None:
        raise HeirpyError("error: heir-opt compiled heirpy's output but printed no ckks.schemeParam")
    if args.output is not None:
        write(args.output, output)
    log_n = f" (logN {result.log_n})" if result.log_n is not None else ""
    print(f"heirpy-heir: depth {depth}, levels {result.levels}, bootstraps {result.bootstraps}, slots {slots}{log_n}, "
          f"heir-prepare {prepare_seconds:.1f} s, heir-opt {heir_seconds:.1f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `heirpy-heir`."""
    return run_guarded(heir_main, argv)


if __name__ == "__main__":
    sys.exit(main())
