"""Wall time of heirpy's numpy evaluator on each example model, next to PyTorch's.

    PYTHONPATH=src python benchmarks/bench_interp.py [--repeats N] [--models a,b]
                                                    [--torch-python /work/genvenv/bin/python]

For every examples/<name>.mlir with its .npz, the evaluator runs @main (or the only
function) on the stored inputs; the table shows the best and median of N runs (parsing
excluded, shown apart) and the max abs error against PyTorch's stored outputs.

The PyTorch column rebuilds each model exactly as tools/export_examples.py does (its
`build`, same seed) and times `model(x)` under `torch.no_grad()` on the same input.
torch is not a heirpy dependency: when this Python has no torch, `--torch-python`
names one that has (the script reruns itself there with `--torch-only`); otherwise the
column says "torch not installed". Ratio = evaluator / PyTorch (best times).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
# Variants of one torch model exported by other routes.
TORCH_MODEL_OF = {"tiny_cnn_dense": "tiny_cnn", "tiny_cnn_onnx": "tiny_cnn"}


def timed(run: Callable[[], object], repeats: int, warmup: int = 1) -> tuple[float, float]:
    """(best, median) wall time in seconds of `run()` over `repeats` calls."""
    for _ in range(warmup):
        run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def load_npz(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    from heirpy.interp.npz_recipes import load_arrays  # the examples' inputs are drawn from seeds

    arrays = load_arrays(EXAMPLES / f"{name}.npz")
    count = lambda prefix: sum(key.startswith(prefix) for key in arrays)  # noqa: E731
    return [arrays[f"arg{i}"] for i in range(count("arg"))], [arrays[f"result{i}"] for i in range(count("result"))]


# ----------------------------------------------------------------------------- evaluator
def bench_evaluator(name: str, repeats: int) -> dict[str, float | str]:
    from xdsl.dialects.func import FuncOp

    from heirpy.interp import Evaluator, load_file

    start = time.perf_counter()
    loaded = load_file(EXAMPLES / f"{name}.mlir")
    parse = time.perf_counter() - start
    function = next(op.sym_name.data for op in loaded.module.ops if isinstance(op, FuncOp) and op.body.blocks)
    inputs, expected = load_npz(name)
    evaluator = Evaluator(loaded.module, loaded.resources)
    results = evaluator.call(function, inputs)
    error = max(float(np.max(np.abs(r.astype(np.float64) - e))) for r, e in zip(results, expected))
    best, median = timed(lambda: evaluator.call(function, inputs), repeats)
    shape = "x".join(map(str, inputs[0].shape))
    return {"parse": parse, "best": best, "median": median, "error": error, "input": shape}


# ----------------------------------------------------------------------------- torch
def torch_times_here(names: list[str], repeats: int) -> dict[str, float] | str:
    """Best time of each model in this process, or why there is none."""
    try:
        import torch
    except ImportError:
        return "torch not installed"
    sys.path.insert(0, str(REPO / "tools"))
    try:
        from export_examples import MODELS, build  # type: ignore[import-not-found]
    except Exception as err:  # torch-mlir or iree missing: the export script cannot load
        return f"cannot import tools/export_examples.py ({type(err).__name__}: {err})"
    times: dict[str, float] = {}
    for name in names:
        base = TORCH_MODEL_OF.get(name, name)
        if base not in MODELS:
            continue
        model, _ = build(base)
        inputs, expected = load_npz(name)
        tensors = [torch.from_numpy(a) for a in inputs]
        with torch.no_grad():
            out = model(*tensors).numpy()
            if not np.allclose(out, expected[0], rtol=1e-4, atol=1e-5):
                return f"rebuilt {base} does not reproduce {name}.npz"
            times[name] = timed(lambda model=model, tensors=tensors: model(*tensors), repeats, warmup=2)[0]
    return times


def torch_times(names: list[str], repeats: int, torch_python: str | None) -> dict[str, float] | str:
    here = torch_times_here(names, repeats)
    if not isinstance(here, str) or torch_python is None or here != "torch not installed":
        return here
    proc = subprocess.run(
        [torch_python, __file__, "--torch-only", "--repeats", str(repeats), "--models", ",".join(names)],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=""),
    )
    if proc.returncode != 0:
        return f"{torch_python} failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode}"
    result = json.loads(proc.stdout)
    return result if isinstance(result, dict) else str(result)


# ----------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--models", help="comma-separated example names (default: all)")
    parser.add_argument("--torch-python", help="a Python with torch, when this one has none")
    parser.add_argument("--torch-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = args.models.split(",") if args.models else sorted(
        p.stem for p in EXAMPLES.glob("*.mlir") if p.with_suffix(".npz").exists()
    )
    if args.torch_only:
        print(json.dumps(torch_times_here(names, args.repeats)))
        return

    torch = torch_times(names, args.repeats, args.torch_python)
    print(f"cores: {os.cpu_count()}, numpy {np.__version__}, repeats: {args.repeats} (best / median ms)")
    if isinstance(torch, str):
        print(f"PyTorch: {torch}")
    header = f"{'model':<14} {'input':<12} {'parse ms':>9} {'eval best':>10} {'eval med':>9} {'torch best':>11} {'ratio':>6} {'max abs err':>12}"
    print(header)
    print("-" * len(header))
    for name in names:
        row = bench_evaluator(name, args.repeats)
        torch_best = torch.get(name) if isinstance(torch, dict) else None
        torch_text = f"{torch_best * 1e3:11.2f}" if torch_best else f"{'-':>11}"
        ratio = f"{row['best'] / torch_best:6.2f}" if torch_best else f"{'-':>6}"
        print(
            f"{name:<14} {row['input']:<12} {row['parse'] * 1e3:9.1f} {row['best'] * 1e3:10.2f} "
            f"{row['median'] * 1e3:9.2f} {torch_text} {ratio} {row['error']:12.2e}"
        )


if __name__ == "__main__":
    main()
