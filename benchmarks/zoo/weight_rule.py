"""Weight growth against levels bought, per zoo model (issue 37 item 5): no IREE, no PyTorch.

For each cached f32 export (`/work/zoo-cache/<model>/f32/model.mlir` or `--cache`), the
main pipeline (`measure.MAIN_PIPELINE`) runs twice: as the zoo runs it (`default`, the
cost rule's defaults) and with `max-constant-growth=1.5` on `linalg-fuse-ops`
(`strict`: every fused chain's stored constants held to 1.5x per level it saves). The
table shows the depth of each beside the depth bound, the stored constants' growth
(`heirpy.analysis.kernels.constant_bytes`, output / raw) of each, the levels the
default buys over strict (strict depth - default depth) and whether the default is
within the rule: growth <= 1.5 ** max(levels bought, 0) (`fusion_cost.within_growth_rule`).

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
    "default": MAIN,
    "strict": "linalg-canonicalizations,linalg-fuse-ops{max-constant-growth=1.5}",
}


def measure(path: Path, variants: dict[str, str]) -> dict[str, Any]:
    before = parse(path.read_text(), str(path))
    entry = first_function(before).sym_name.data
    out: dict[str, Any] = {
        "raw_bytes": constant_bytes(before),
        "raw_depth": analyze_function(same_function(before, entry)).depth,
        "bound": depth_bound(same_function(before, entry)).depth,
    }
    for name, pipeline in variants.items():
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
    d, s = r[variants[0]], r[variants[-1]]
    bought = s["depth"] - d["depth"]
    growth = d["bytes"] / raw
    cells += [str(bought), "yes" if within_growth_rule(growth, bought) else "**no**"]
    return "| " + " | ".join(cells) + " |"


def table(results: dict[str, dict[str, Any]], variants: list[str]) -> str:
    head = ["model", *(f"depth {v}" for v in variants), "bound", *(f"growth {v}" for v in variants),
            f"levels bought ({variants[-1]} - {variants[0]})", "within rule"]
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
        results[m] = measure(args.cache / m / "f32/model.mlir", variants)
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1))
    print(table({m: results[m] for m in models}, list(variants)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
