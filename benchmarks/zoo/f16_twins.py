"""f16 zoo models against their f32 twins: depth and linear ops after the main pipeline.

    python benchmarks/zoo/f16_twins.py [--cache build/zoo] [--numerics] [MODEL ...]

For each model, reads `<cache>/<model>/{f32,f16}/model.mlir` (written by `run_zoo.py`'s
export step), runs `MAIN_PIPELINE` on each and prints one row: depth, linear ops and
depth bound (`heirpy.tools.heirpy_report.depth_figures`) as `f32/f16`, `=` when the
f16 model reaches its twin's depth and linear-op count (issue 34), and each one's weight
growth (the depth model's weight bytes, after / before). With `--numerics`,
the f16 output of heirpy's evaluator on the stored input is also judged against
PyTorch's f32 output (`measure.numerics`, the zoo's rule). No IREE needed. The default
models are the ones the f16 global pool kept one linear op short.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ZOO = Path(__file__).resolve().parent
sys.path.insert(0, str(ZOO))
sys.path.insert(0, str(ZOO.parent))

from measure import MAIN_PIPELINE, numerics  # noqa: E402

from heirpy.api import clone_module, parse, run_pipeline  # noqa: E402
from heirpy.tools.heirpy_report import depth_figures  # noqa: E402

POOL_GAP = ["resnet18", "resnet10t", "shufflenet_v2_x1_0", "mobilenet_v3_small",
            "mobilenet_v3_large", "mobilenetv3_small_050", "tinynet_e"]


def figures(path: Path, with_numerics: bool) -> dict[str, Any]:
    """Depth, linear ops and bound of `path` after the main pipeline (and numerics)."""
    before = parse(path.read_text(), str(path))
    after = clone_module(before)
    start = time.perf_counter()
    run_pipeline(after, MAIN_PIPELINE)
    out: dict[str, Any] = {"seconds": time.perf_counter() - start, **depth_figures(before, after)}
    if with_numerics:
        arrays = dict(np.load(path.with_name("model.npz")))
        out["numerics"] = numerics(after, arrays, before)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", default=POOL_GAP)
    parser.add_argument("--cache", type=Path, default=ZOO.parents[1] / "build" / "zoo")
    parser.add_argument("--numerics", action="store_true", help="judge the f16 output too")
    args = parser.parse_args()
    print("| model | depth f32/f16 | linear ops f32/f16 | bound f32/f16 | twin | weights f32/f16 (x raw) | f16 numerics |")
    print("|---|---|---|---|---|---|---|")
    for name in args.models:
        f32 = figures(args.cache / name / "f32" / "model.mlir", False)
        f16 = figures(args.cache / name / "f16" / "model.mlir", args.numerics)
        depth = (f32["depth"]["after"], f16["depth"]["after"])
        ops = (f32["linear_ops"]["after"], f16["linear_ops"]["after"])
        bound = (f32["depth"]["bound"], f16["depth"]["bound"])
        twin = "=" if depth[0] == depth[1] and ops[0] == ops[1] else "differs"
        growth = "/".join(f"{f['weight_bytes']['after'] / f['weight_bytes']['before']:.2f}" for f in (f32, f16))
        verdict = "-"
        if "numerics" in f16:
            cell = f16["numerics"]
            verdict = f"{cell['verdict']} {cell.get('max_abs_error', float('nan')):.2g}"
        print(f"| {name} | {depth[0]}/{depth[1]} | {ops[0]}/{ops[1]} | {bound[0]}/{bound[1]} | {twin} | {growth} | {verdict} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
