"""A unit-stride depthwise conv on IREE's CPU back end: the named op against its unrolled form.

    python benchmarks/bench_depthwise_unroll.py [--rounds 3] [--min-time 0.5] [--layouts 2]
        [--kernels 3 5 7] [--dtypes f32 f16]

`unroll-depthwise-conv` (in `iree-prepare`) writes a unit-stride depthwise conv as one
elementwise generic over shifted slices of its input, up to `MAX_TAPS` taps. This script
measures that bound: for each window size and each layer shape the zoo's networks run at
64x64 (ConvNeXt's 7x7 stages, the 5x5 and 3x3 layers of MobileNetV3 / EfficientNet /
MnasNet), a module holding the padded input's conv as torch-mlir writes it (named op, zero
init, bias after; f16: an f16 conv accumulating in f32, then rounded) and the same module
after `unroll-depthwise-conv` with the bound lifted are compiled for llvm-cpu with IREE's
best CPU flags (the zoo's baseline, `--iree-opt-data-tiling
--iree-global-opt-use-im2col-for-convs`) and with its defaults, checked against each other,
and timed single-threaded (`iree-benchmark-module`, CPU time, medians of alternating
rounds; each side compiled under `--layouts` source names, `harness.layout_names`). Prints
one markdown row per case: both times and unrolled / named.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from bench_iree import BEST_CPU_FLAGS, time_forms  # noqa: E402
from harness import Tools, markdown_table  # noqa: E402
from heirpy.api import parse, print_module  # noqa: E402
from heirpy.ir.context import context_of  # noqa: E402
from heirpy.transforms.iree.unroll_depthwise_conv import UnrollDepthwiseConvPass  # noqa: E402

FLAG_SETS = {"best": BEST_CPU_FLAGS, "default": ()}
# (channels, output H = W): the unit-stride depthwise layers of the zoo's models at 64x64.
SHAPES = ((48, 16), (96, 8), (192, 4), (384, 2), (16, 32), (72, 16), (120, 8), (240, 4), (576, 2))


def module_text(channels: int, size: int, kernel: int, dtype: str) -> str:
    """A depthwise conv of a padded `channels` x (size + kernel - 1)^2 input, plus a bias."""
    rng = np.random.default_rng(channels * 100 + size * 10 + kernel)
    store = "f16" if dtype == "f16" else "f32"
    weight = rng.standard_normal((channels, kernel, kernel)).astype(np.float16 if dtype == "f16" else np.float32)
    bias = rng.standard_normal(channels).astype(np.float32)
    side = size + kernel - 1
    hexed = "0x" + weight.tobytes().hex().upper()
    bias_hex = "0x" + bias.astype("<f4").tobytes().hex().upper()
    out = f"tensor<1x{channels}x{size}x{size}xf32>"
    result = f"tensor<1x{channels}x{size}x{size}x{store}>"
    # torch-mlir's f16 conv: accumulated in f32, rounded to f16 after the bias.
    rounded = ("    %t = arith.truncf %s : f32 to f16\n    linalg.yield %t : f16" if dtype == "f16"
               else "    linalg.yield %s : f32")
    return f"""#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @main(%x: tensor<1x{channels}x{side}x{side}x{store}>) -> {result} {{
  %w = arith.constant dense<"{hexed}"> : tensor<{channels}x{kernel}x{kernel}x{store}>
  %b = arith.constant dense<"{bias_hex}"> : tensor<{channels}xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {out}
  %f = linalg.fill ins(%zero : f32) outs(%e : {out}) -> {out}
  %c = linalg.depthwise_conv_2d_nchw_chw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%x, %w : tensor<1x{channels}x{side}x{side}x{store}>, tensor<{channels}x{kernel}x{kernel}x{store}>) outs(%f : {out}) -> {out}
  %r = tensor.empty() : {result}
  %y = linalg.generic {{indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%c, %b : {out}, tensor<{channels}xf32>) outs(%r : {result}) {{
  ^bb0(%v: f32, %bi: f32, %o: {store}):
    %s = arith.addf %v, %bi : f32
{rounded}
  }} -> {result}
  return %y : {result}
}}
"""


def unrolled(text: str) -> str:
    """`text` after `unroll-depthwise-conv` with no bound on the window."""
    module = parse(text, "case.mlir")
    UnrollDepthwiseConvPass(max_taps=1 << 20).apply(context_of(module), module)
    return print_module(module)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.5)
    parser.add_argument("--layouts", type=int, default=2)
    parser.add_argument("--kernels", type=int, nargs="+", default=[3, 5, 7])
    parser.add_argument("--dtypes", nargs="+", default=["f32", "f16"])
    parser.add_argument("--flags", nargs="+", default=list(FLAG_SETS), choices=list(FLAG_SETS))
    args = parser.parse_args()
    tools = Tools.find(None)
    rows = []
    for dtype in args.dtypes:
        for kernel in args.kernels:
            for channels, size in SHAPES:
                text = module_text(channels, size, kernel, dtype)
                texts = {"named": text, "unrolled": unrolled(text)}
                side = size + kernel - 1
                for flag_name in args.flags:
                    with tempfile.TemporaryDirectory(prefix="dw_unroll_") as tmp:
                        work = Path(tmp)
                        x = work / "x.npy"
                        data = np.random.default_rng(0).standard_normal((1, channels, side, side))
                        np.save(x, data.astype(np.float16 if dtype == "f16" else np.float32))
                        tolerance = 4e-3 if dtype == "f16" else 1e-5
                        ms = time_forms(tools, texts, FLAG_SETS[flag_name], work, x, args.rounds,
                                        args.min_time, args.layouts, tolerance,
                                        "the unrolled conv computes something else: a bug in unroll-depthwise-conv")
                    row = [dtype, f"{kernel}x{kernel}", str(channels), f"{size}x{size}", flag_name,
                           f"{ms['named'] * 1e3:.1f}", f"{ms['unrolled'] * 1e3:.1f}",
                           f"{ms['unrolled'] / ms['named']:.2f}"]
                    rows.append(row)
                    print("| " + " | ".join(row) + " |", file=sys.stderr, flush=True)
    print(markdown_table(["dtype", "window", "channels", "output", "IREE flags", "named us", "unrolled us",
                          "unrolled / named"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
