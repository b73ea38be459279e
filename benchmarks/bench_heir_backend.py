"""Levels HEIR's CKKS back end allocates for each net, raw vs after heirpy's pipeline.

    /work/venv/bin/python benchmarks/bench_heir_backend.py [--timeout 600] [--only NAME ...]
        [--ckks-options "first-mod-bits=... ..."] [--out benchmarks/out/heir_backend.md]

For every `examples/*.mlir` model and every net `bench_depth.py` generates with
torch-mlir (its generators are imported, not copied), heir-opt runs

    heir-opt --secretize=function=<entry> '--annotate-module=backend=openfhe scheme=ckks'
             --torch-linalg-to-ckks

on (a) the raw IR, (b) the IR after heirpy's `linalg-canonicalizations,linalg-fuse-ops,
lower-tensor-ext` (checked to contain no tensor_ext op) and (c) (b) with each 1xK matmul
rewritten as a matvec (see `rows_as_matvec`; only when (b) has such a matmul). `<entry>` is
the module's first function (`@main_graph` for the ONNX export).

Where the levels come from: a compiled module carries
`ckks.schemeParam = #ckks.scheme_param<logN = .., Q = [q0, q1, ...], P = [...], ...>` on the
module; HEIR's parameter generation sizes the Q chain to the level budget its management
passes computed, so "levels" = len(Q) - 1 (q0 is the base modulus for decryption).

"heirpy depth" is `heirpy.analysis.depth` (one level per plaintext-ciphertext linear op,
one per ct x ct multiply, `+` = lower bound) on the raw IR and on what heir-opt gets in (b),
so heirpy's cost model can be read next to HEIR's allocation. A rejected run shows HEIR's
first `error:` line (file position stripped). heir-opt calls run one after another, each
with a timeout (only a few cores are shared); with heir-opt 2026.11.1 every call on these
nets ends within 10 s (most are rejected in under a second) and the script takes ~35 s.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_depth import depth_of, entry, export_generated  # noqa: E402  (the nets' generators)

import numpy as np  # noqa: E402
from xdsl.dialects import tensor  # noqa: E402
from xdsl.dialects.builtin import ModuleOp, TensorType  # noqa: E402
from xdsl.dialects.linalg.ops import MatmulOp  # noqa: E402
from xdsl.rewriter import Rewriter  # noqa: E402

from heirpy.api import context_of, parse, print_module, run_pipeline  # noqa: E402
from heirpy.ir.dialects.linalg import MatvecOp  # noqa: E402
from heirpy.interp.equivalence import check_equivalence  # noqa: E402
from heirpy.ir.utils import reassociation_attr  # noqa: E402
from heirpy.ir.constants import ContextBlobs, constant_array, dense_constant  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HEIR_OPT = shutil.which("heir-opt") or str(ROOT.parent / "venv" / "bin" / "heir-opt")
HEIRPY_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops,lower-tensor-ext"
SCHEME_PARAM = re.compile(r"ckks\.schemeParam\s*=\s*#ckks\.scheme_param<([^>]*)>")
Q_LIST = re.compile(r"\bQ\s*=\s*\[([^\]]*)\]")
LOG_N = re.compile(r"\blogN\s*=\s*(\d+)")


@dataclass
class HeirRun:
    """One heir-opt invocation: compiled (with levels), rejected, or timed out."""

    status: str  # "ok" | "rejected" | "timeout" | "no params"
    seconds: float
    levels: int | None = None
    log_n: int | None = None
    error: str = ""

    def cell(self) -> str:
        if self.status == "ok":
            return f"{self.levels} (logN {self.log_n})"
        return self.status

    def time_cell(self) -> str:
        return f"{self.seconds:.1f}"


@dataclass
class Row:
    name: str
    depth_raw: str
    depth_heirpy: str
    raw: HeirRun
    heirpy: HeirRun | None
    heirpy_error: str = ""  # heirpy's own pipeline failed
    matvec: HeirRun | None = None  # variant (c); None when (b) has no 1xK matmul


def heir_pipeline(function: str, ckks_options: str) -> list[str]:
    to_ckks = "--torch-linalg-to-ckks" + (f"={ckks_options}" if ckks_options else "")
    return [
        f"--secretize=function={function}",
        "--annotate-module=backend=openfhe scheme=ckks",
        to_ckks,
    ]


def first_error(stderr: str) -> str:
    """HEIR's first diagnostic line, without the `file:line:col:` prefix."""
    for line in stderr.splitlines():
        if "error:" in line:
            return line[line.index("error:"):].strip()
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[0].strip() if lines else "(no message)"


def levels_of(output: str) -> tuple[int | None, int | None]:
    """(len(Q) - 1, logN) from the module's ckks.schemeParam, or (None, None)."""
    match = SCHEME_PARAM.search(output)
    if match is None:
        return None, None
    q = Q_LIST.search(match.group(1))
    log_n = LOG_N.search(match.group(1))
    moduli = [m for m in q.group(1).split(",") if m.strip()] if q else []
    return (len(moduli) - 1 if moduli else None), (int(log_n.group(1)) if log_n else None)


def run_heir(text: str, function: str, timeout: float, ckks_options: str) -> HeirRun:
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as handle:
        handle.write(text)
        path = handle.name
    start = time.monotonic()
    try:
        result = subprocess.run(
            [HEIR_OPT, *heir_pipeline(function, ckks_options), path],
            capture_output=True, text=True, timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return HeirRun("timeout", time.monotonic() - start, error=f"no result after {timeout:.0f} s")
    finally:
        Path(path).unlink(missing_ok=True)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        return HeirRun("rejected", seconds, error=first_error(result.stderr))
    levels, log_n = levels_of(result.stdout)
    if levels is None:
        return HeirRun("no params", seconds, error="compiled, but no ckks.schemeParam in the output")
    return HeirRun("ok", seconds, levels=levels, log_n=log_n)


def heirpy_lowered(text: str, name: str) -> str:
    module = parse(text, name)
    run_pipeline(module, HEIRPY_PIPELINE)
    lowered = print_module(module)
    if "tensor_ext." in lowered:
        raise RuntimeError("tensor_ext ops left after lower-tensor-ext")
    return lowered


def _flatten_row(value, width: int, element) -> tensor.CollapseShapeOp:  # type: ignore[no-untyped-def]
    return tensor.CollapseShapeOp(
        operands=[value], result_types=[TensorType(element, [width])],
        properties={"reassociation": reassociation_attr([[0, 1]])},
    )


def rows_as_matvec(module: ModuleOp) -> int:
    """Benchmark-only rewrite (not a heirpy pass): each `matmul(x: 1xK, W: KxN const)`
    becomes `expand(matvec(W^T, collapse(x)))`, the same values.

    Why: heir-opt 2026.11.1's --torch-linalg-to-ckks rejects every 1xK matmul (and
    vecmat) that a torch Linear layer produces ("'linalg.vecmat' op expected operand #0
    rank (2) ...") but compiles `linalg.matvec`, so this variant (c) shows what HEIR
    allocates for the nets with a Linear layer. Returns the number of matmuls rewritten.
    """
    blobs = ContextBlobs(context_of(module))
    rewritten = 0
    for op in [op for op in module.walk() if isinstance(op, MatmulOp)]:
        lhs, rhs = op.inputs
        init = op.outputs[0]
        weight = constant_array(rhs, blobs)
        lhs_type, out_type = lhs.type, op.results[0].type
        if weight is None or weight.ndim != 2 or not isinstance(lhs_type, TensorType) \
                or not isinstance(out_type, TensorType) or lhs_type.get_shape()[0] != 1:
            continue
        k, n = weight.shape
        element = out_type.get_element_type()
        x = _flatten_row(lhs, k, element)
        acc = _flatten_row(init, n, element)
        w_t = dense_constant(np.ascontiguousarray(weight.T), TensorType(element, [n, k]))
        vec_type = TensorType(element, [n])
        matvec = MatvecOp(
            [w_t.result, x.results[0]], [acc.results[0]], [vec_type], None, None,
            MatvecOp.get_hidden_region([w_t.result, x.results[0]], [acc.results[0]]),
        )
        expand = tensor.ExpandShapeOp(matvec.results[0], [], reassociation_attr([[0, 1]]), [1, n], out_type)
        Rewriter.replace_op(op, [x, acc, w_t, matvec, expand], [expand.results[0]])
        rewritten += 1
    return rewritten


def bench(path: Path, timeout: float, ckks_options: str) -> Row:
    text = path.read_text()
    module = parse(text, str(path))
    function = entry(module).sym_name.data
    depth_raw = depth_of(module).depth_text()
    print(f"{path.stem}: raw ...", file=sys.stderr, flush=True)
    raw = run_heir(text, function, timeout, ckks_options)
    try:
        lowered = heirpy_lowered(text, str(path))
    except Exception as err:  # report heirpy's own failure instead of hiding the net
        return Row(path.stem, depth_raw, "-", raw, None, f"heirpy: {str(err).splitlines()[0][:100]}")
    depth_heirpy = depth_of(parse(lowered, f"{path.name}-heirpy")).depth_text()
    print(f"{path.stem}: heirpy ...", file=sys.stderr, flush=True)
    heirpy = run_heir(lowered, function, timeout, ckks_options)
    row = Row(path.stem, depth_raw, depth_heirpy, raw, heirpy)
    variant = parse(lowered, f"{path.name}-matvec")
    if rows_as_matvec(variant):
        reference = parse(lowered, f"{path.name}-heirpy")
        report = check_equivalence(reference, variant, function=function, seeds=(0,))
        if not report.ok:  # never report levels for a program that computes something else
            raise RuntimeError(f"{path.stem}: matvec variant changed the values")
        print(f"{path.stem}: heirpy + matvec ...", file=sys.stderr, flush=True)
        row.matvec = run_heir(print_module(variant), function, timeout, ckks_options)
    return row


def _note(row: Row) -> str:
    a, b = row.raw, row.heirpy
    if b is None:
        return ""
    if a.status == "timeout" or b.status == "timeout":
        return "timeout: no comparison"
    if a.status != "ok" and b.status == "ok":
        return "compiles only after heirpy"
    if a.status == "ok" and b.status != "ok":
        return "REGRESSION: rejected after heirpy"
    if a.status == "ok" and a.levels is not None and b.levels is not None:
        saved = a.levels - b.levels
        return f"{saved} level{'s' if abs(saved) != 1 else ''} fewer" if saved else "same levels"
    return ""


def format_rows(rows: list[Row]) -> str:
    header = ["net", "heirpy depth raw -> heirpy", "HEIR levels (a) raw", "(a) s",
              "HEIR levels (b) heirpy", "(b) s", "(c) heirpy + matvec", "(c) s", "note"]
    body = []
    notes: list[str] = []
    for row in rows:
        b, c = row.heirpy, row.matvec
        body.append([
            row.name, f"{row.depth_raw} -> {row.depth_heirpy}",
            row.raw.cell(), row.raw.time_cell(),
            b.cell() if b else "heirpy error", b.time_cell() if b else "-",
            c.cell() if c else "-", c.time_cell() if c else "-", _note(row),
        ])
        for label, run in (("(a)", row.raw), ("(b)", b), ("(c)", c)):
            if run is not None and run.error:
                notes.append(f"- {row.name} {label}: {run.error}")
        if row.heirpy_error:
            notes.append(f"- {row.name} (b): {row.heirpy_error}")
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |" for line in [header, *body]]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    if notes:
        lines += ["", "First HEIR error per rejected run:", "", *notes]
    return "\n".join(lines)


def heir_version() -> str:
    try:
        out = subprocess.run([HEIR_OPT, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return " ".join(line.strip() for line in out.splitlines() if "version" in line.lower()) or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per heir-opt run")
    parser.add_argument("--only", nargs="*", default=None, help="net names (file stems) to run")
    parser.add_argument("--ckks-options", default="",
                        help="options for --torch-linalg-to-ckks, e.g. 'first-mod-bits=60'")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "heir_backend.md")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        models = sorted((ROOT / "examples").glob("*.mlir")) + export_generated(Path(tmp))
        if args.only:
            models = [m for m in models if m.stem in args.only]
        rows = [bench(path, args.timeout, args.ckks_options) for path in models]
    command = shlex.join(["heir-opt", *heir_pipeline("<entry>", args.ckks_options)])
    text = "\n".join([
        f"heir-opt: {HEIR_OPT} ({heir_version()})",
        f"command: {command}",
        f"(b) = after heirpy {HEIRPY_PIPELINE}; (c) = (b) with each 1xK matmul as a matvec "
        "(benchmark-only rewrite, values checked; '-' = no such matmul); "
        "levels = len(ckks.schemeParam Q) - 1",
        "",
        format_rows(rows),
    ])
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
