"""One grouped conv, IREE's named op against `im2col-grouped-conv`'s form, per layer shape.

    python benchmarks/bench_grouped_conv.py [--rounds 3] [--min-time 0.2]

Each row is one `linalg.conv_2d_ngchw_gfchw` as torch-mlir writes a grouped 3x3 conv (a
pad of 1, the channels split into groups): RegNetX-002's and RegNetX-400MF's layer shapes
at the zoo's 64x64 input, and channels per group 1 (a depthwise conv in grouped form, the
case the pass leaves alone), 2 (its limit) and 4. Both forms are compiled for llvm-cpu under
IREE's defaults and under the zoo's best flags (`--iree-opt-data-tiling
--iree-global-opt-use-im2col-for-convs`), checked against each other on random data, and
timed single-threaded with `iree-benchmark-module` (CPU time, median of `--rounds`
alternating runs). The table's ratio is heirpy's form over the named op's, same flags, same
run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_iree import BEST_CPU_FLAGS, Variant, benchmark  # noqa: E402
from harness import Tools, markdown_table, run  # noqa: E402
from heirpy.analysis.iree_dispatches import COMPILE_FLAGS  # noqa: E402
from heirpy.api import parse, print_module, run_pipeline  # noqa: E402

FLAG_SETS = {"default": (), "best": BEST_CPU_FLAGS}
# (groups, channels per group in, out, input H = W, stride): RegNetX-002 (8 per group) and
# RegNetX-400MF (16) at 64x64, then the channels-per-group limit.
SHAPES = [
    (3, 8, 8, 32, 2), (7, 8, 8, 16, 2), (19, 8, 8, 4, 1), (46, 8, 8, 2, 1),
    (2, 16, 16, 32, 2), (10, 16, 16, 4, 1),
    (48, 1, 1, 16, 1), (48, 2, 2, 16, 1), (24, 4, 4, 16, 1),
]


def grouped_conv(groups: int, c: int, f: int, size: int, stride: int) -> str:
    """torch-mlir's grouped 3x3 conv (pad 1) of a 1 x (groups*c) x size x size input."""
    padded, out = size + 2, (size - 1) // stride + 1
    x, p = f"tensor<1x{groups * c}x{size}x{size}xf32>", f"tensor<1x{groups * c}x{padded}x{padded}xf32>"
    xg, wg = f"tensor<1x{groups}x{c}x{padded}x{padded}xf32>", f"tensor<{groups}x{f}x{c}x3x3xf32>"
    og, o = f"tensor<1x{groups}x{f}x{out}x{out}xf32>", f"tensor<1x{groups * f}x{out}x{out}xf32>"
    w = f"tensor<{groups * f}x{c}x3x3xf32>"
    return f"""
func.func @main(%x: {x}, %w: {w}) -> {o} {{
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {{
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %z : f32
  }} : {x} to {p}
  %xg = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, {groups}, {c}, {padded}, {padded}] : {p} into {xg}
  %wg = tensor.expand_shape %w [[0, 1], [2], [3], [4]] output_shape [{groups}, {f}, {c}, 3, 3] : {w} into {wg}
  %e = tensor.empty() : {og}
  %i = linalg.fill ins(%z : f32) outs(%e : {og}) -> {og}
  %r = linalg.conv_2d_ngchw_gfchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}} ins(%xg, %wg : {xg}, {wg}) outs(%i : {og}) -> {og}
  %o = tensor.collapse_shape %r [[0], [1, 2], [3], [4]] : {og} into {o}
  return %o : {o}
}}
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.2)
    args = parser.parse_args(argv)
    tools = Tools.find(None)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_grouped_conv_") as scratch:
        work = Path(scratch)
        for shape in SHAPES:
            groups, c, f, size, stride = shape
            text = grouped_conv(*shape)
            sources = {"named": work / "named.mlir", "heirpy": work / "heirpy.mlir"}
            sources["named"].write_text(text)
            sources["heirpy"].write_text(print_module(run_pipeline(parse(text), "im2col-grouped-conv")))
            rng = np.random.default_rng(0)
            inputs = [work / "x.npy", work / "w.npy"]
            np.save(inputs[0], rng.standard_normal((1, groups * c, size, size)).astype(np.float32))
            np.save(inputs[1], rng.standard_normal((groups * f, c, 3, 3)).astype(np.float32))
            row = [f"{groups} x {c} -> {f}, {size}x{size}, stride {stride}"]
            for flags_name, flags in FLAG_SETS.items():
                variants, outputs = [], []
                for side, source in sources.items():
                    variant = Variant(side, source, work / f"{side}_{flags_name}.vmfb")
                    run([tools.compile, *COMPILE_FLAGS, *flags, str(source), "-o", str(variant.vmfb)])
                    got = work / f"{side}.npy"
                    subprocess.run([tools.run, "--device=local-task", f"--module={variant.vmfb}", "--function=main",
                                    *[f"--input=@{p}" for p in inputs], f"--output=@{got}"], check=True,
                                   capture_output=True)
                    outputs.append(np.load(got))
                    variants.append(variant)
                error = float(np.max(np.abs(outputs[0] - outputs[1])))
                for _ in range(args.rounds):
                    for variant in variants:
                        benchmark(tools, variant, inputs, "one", args.min_time)
                named, ours = (statistics.median(v.one_cpu) for v in variants)
                row += [f"{named:.3f}", f"{ours:.3f}", f"{ours / named:.2f}", f"{error:.1e}"]
            rows.append(row)
            print(f"{row[0]}: done", file=sys.stderr)
    header = ["grouped conv (groups x channels in -> out)"]
    for flags_name in FLAG_SETS:
        header += [f"named ms ({flags_name})", f"heirpy ms ({flags_name})", "heirpy/named", "max abs diff"]
    print(markdown_table(header, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
