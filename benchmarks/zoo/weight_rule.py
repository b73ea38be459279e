"""Weight growth against levels bought, per zoo model (issue 37 item 5): no IREE, no PyTorch.

For each cached f32 export (`/work/zoo-cache/<model>/f32/model.mlir` or `--cache`), the
main pipeline (`measure.MAIN_PIPELINE`) runs in four variants (`VARIANTS`): the cost rule
without the weight budget (`default`), with no chain that grows its constants
(`frugal`), each chain alone held to 1.5x per level it saves (`strict`), and as it runs
now, within `constant-budget=1.5` (`main`). The table shows the depth of each beside
the depth bound, the stored constants' growth (`heirpy.analysis.kernels.constant_bytes`,
output / raw) of each, the levels the growing chains buy (frugal depth - default depth)
and whether the default and the main pipeline are within the rule: growth <=
1.5 ** max(levels bought, 1) (`fusion_cost.within_growth_rule`).

    python benchmarks/zoo/weight_rule.py [--cache DIR] [--json OUT] [model ...]

One model at a time, results appended to `--json` (a run resumes from it).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
from pathlib import Path
from typing import Any

ZOO = Path(__file__).resolve().parent
sys.path.insert(0, str(ZOO))

from heirpy.analysis.depth import analyze_function, depth_bound  # noqa: E402
from heirpy.analysis.kernels import constant_bytes  # noqa: E402
from heirpy.api import clone_module, parse, run_pipeline  # noqa: E402
from heirpy.tools.heirpy_report import first_function, same_function  # noqa: E402
from heirpy.transforms.linear.fusion_cost import within_growth_rule  # noqa: E402

MAIN = "linalg-canonicalizations,linalg-fuse-ops"
VARIANTS = {
    # the cost rule without the budget: what the main pipeline did before it
    "default": "linalg-canonicalizations,linalg-fuse-ops{constant-budget=0}",
    # no chain that grows its constants: the depth the growing chains buy levels from
    "frugal": "linalg-canonicalizations,linalg-fuse-ops{constant-budget=0 max-constant-growth=1}",
    # each chain alone held to 1.5x per level it saves (the budget's fallback)
    "strict": "linalg-canonicalizations,linalg-fuse-ops{constant-budget=0 max-constant-growth=1.5}",
    # the main pipeline: the cost rule within constant-budget=1.5
    "main": MAIN,
}


def measure(path: Path, variants: dict[str, str], out: dict[str, Any]) -> dict[str, Any]:
    """Figures of each variant `out` lacks (the rest are kept)."""
    before = parse(path.read_text(), str(path))
    entry = first_function(before).sym_name.data
    if "bound" not in out:
        out["raw_bytes"] = constant_bytes(before)
        out["raw_depth"] = analyze_function(same_function(before, entry)).depth
        out["bound"] = depth_bound(same_function(before, entry)).depth
    for name, pipeline in variants.items():
        if name in out:
            continue
        after = clone_module(before)
        err = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stderr(err):
            run_pipeline(after, pipeline)
        remarks = [line for line in err.getvalue().splitlines() if "remark:" in line]
        out[name] = {
            "depth": analyze_function(same_function(after, entry)).depth,
            "bytes": constant_bytes(after),
            "seconds": round(time.perf_counter() - start, 1),
            "remarks": remarks,
        }
    return out


def row(name: str, r: dict[str, Any], variants: list[str]) -> str:
    raw = r["raw_bytes"]
    cells = [name, *(str(r[v]["depth"]) for v in variants), str(r["bound"])]
    cells += [f"{r[v]['bytes'] / raw:.2f}" for v in variants]
    if {"default", "frugal"} <= set(variants):
        bought = r["frugal"]["depth"] - r["default"]["depth"]
        cells += [str(bought), _yes(r["default"]["bytes"] / raw, bought)]
        if "main" in variants:
            cells.append(_yes(r["main"]["bytes"] / raw, r["frugal"]["depth"] - r["main"]["depth"]))
    return "| " + " | ".join(cells) + " |"


def _yes(growth: float, bought: int) -> str:
    return "yes" if within_growth_rule(growth, bought) else "**no**"


def table(results: dict[str, dict[str, Any]], variants: list[str]) -> str:
    head = ["model", *(f"depth {v}" for v in variants), "bound", *(f"growth {v}" for v in variants)]
    if {"default", "frugal"} <= set(variants):
        head += ["levels bought (frugal - default)", "default within rule"]
        if "main" in variants:
            head.append("main within rule")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += [row(n, results[n], variants) for n in sorted(results)]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*")
    ap.add_argument("--cache", type=Path, default=Path("/work/zoo-cache"))
    ap.add_argument("--json", type=Path, default=Path("/tmp/s3-weights/weight_rule.json"))
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=PIPELINE",
                    help="replace the variants (first = the one judged, last = the strict one)")
    args = ap.parse_args()
    variants = dict(v.split("=", 1) for v in args.variant) if args.variant else VARIANTS
    models = args.models or sorted(p.name for p in args.cache.iterdir() if (p / "f32/model.mlir").exists())
    results: dict[str, dict[str, Any]] = json.loads(args.json.read_text()) if args.json.exists() else {}
    for m in models:
        if m in results and all(v in results[m] for v in variants):
            continue
        print(f"{m} ...", file=sys.stderr, flush=True)
        results[m] = measure(args.cache / m / "f32/model.mlir", variants, results.get(m, {}))
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1))
    print(table({m: results[m] for m in models}, list(variants)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
