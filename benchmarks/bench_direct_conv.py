"""A 3x3 conv on IREE's CPU back end with its best flags: the named op (im2col + matmul)
against the same conv as a generic (IREE's direct conv).

    python benchmarks/bench_direct_conv.py [--rounds 3] [--min-time 0.5] [--layouts 2]
        [--only f32|f16]

IREE's `--iree-global-opt-use-im2col-for-convs` turns each named conv into an im2col copy
and a data-tiled matmul; a conv written as a `linalg.generic` is left to IREE's direct conv
code. `generalize-direct-conv` (in `iree-prepare{im2col=true}`) writes a conv as a generic
where `direct_pays` says the direct form is faster. This script measures that rule: for each
case, a module holding a padded input's conv as torch-mlir writes it (named op, zero init,
bias and SiLU after; f16: f16 operands accumulated in f32, rounded after the SiLU) and the
same module with the conv generalised (whatever the rule says) are compiled
for llvm-cpu with `--iree-opt-data-tiling --iree-global-opt-use-im2col-for-convs`, checked
against each other and timed single-threaded (`iree-benchmark-module`, CPU time, medians of
alternating rounds; each side under `--layouts` source names, `harness.layout_names`).
The cases are the 3x3 layers of the zoo's networks (YOLO at 320, the classifiers at 64)
and the rule's edges: output widths on each side of a multiple of 8 with H and W apart,
filter counts from 24 to 128 (`filters_pay`), stride 2, the f16 form. Prints one markdown
row per case: both times, generic / named, and what the rule decides.
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
from heirpy.transforms.iree.generalize_direct_conv import (  # noqa: E402
    direct_pays,
    populate_generalize_direct_conv_patterns,
)
from heirpy.transforms.rewrite import apply_pattern_sets  # noqa: E402

# (input channels, filters, output H, output W, stride, dtype)
CASES = (
    # YOLOv5nu / YOLOv8n / YOLO11n at 320
    (16, 8, 80, 80, 1, "f32"), (16, 16, 80, 80, 1, "f32"), (32, 16, 40, 40, 1, "f32"),
    (32, 32, 40, 40, 1, "f32"), (64, 64, 40, 40, 1, "f32"), (80, 80, 40, 40, 1, "f32"),
    (64, 64, 20, 20, 1, "f32"), (80, 80, 20, 20, 1, "f32"), (128, 128, 10, 10, 1, "f32"),
    (64, 64, 10, 10, 1, "f32"), (256, 64, 10, 10, 1, "f32"),
    # the classifiers at 64 (ResNet-18 / -10t, DenseNet-121, RepVGG-A0, MobileViT)
    (64, 64, 16, 16, 1, "f32"), (24, 32, 32, 32, 1, "f32"), (32, 64, 32, 32, 1, "f32"),
    (128, 32, 16, 16, 1, "f32"), (128, 32, 8, 8, 1, "f32"), (64, 64, 8, 8, 1, "f32"),
    (128, 128, 8, 8, 1, "f32"), (48, 48, 16, 16, 1, "f32"), (96, 48, 8, 8, 1, "f32"),
    (96, 96, 8, 8, 1, "f32"), (256, 256, 4, 4, 1, "f32"),
    # the width on each side of a multiple of 8, H and W apart
    (64, 64, 16, 24, 1, "f32"), (64, 64, 16, 20, 1, "f32"), (64, 64, 20, 16, 1, "f32"),
    (64, 64, 8, 40, 1, "f32"), (64, 64, 40, 8, 1, "f32"), (64, 64, 16, 15, 1, "f32"),
    (64, 64, 16, 17, 1, "f32"), (64, 64, 16, 32, 1, "f32"), (64, 64, 32, 16, 1, "f32"),
    (64, 64, 24, 16, 1, "f32"),
    # the filters: powers of two and others under MIN_WIDE_FILTERS, then up to MAX_FILTERS and over
    (32, 32, 32, 32, 1, "f32"), (24, 24, 32, 32, 1, "f32"), (40, 40, 32, 32, 1, "f32"),
    (48, 48, 32, 32, 1, "f32"), (56, 56, 32, 32, 1, "f32"), (64, 64, 32, 32, 1, "f32"),
    (72, 72, 32, 32, 1, "f32"), (80, 80, 32, 32, 1, "f32"), (96, 96, 32, 32, 1, "f32"),
    (64, 80, 16, 16, 1, "f32"), (64, 96, 16, 16, 1, "f32"), (64, 96, 40, 40, 1, "f32"),
    (64, 128, 16, 16, 1, "f32"), (64, 128, 40, 40, 1, "f32"),
    # what the rule declines: stride 2, torch-mlir's f16 form
    (16, 32, 80, 80, 2, "f32"), (32, 64, 20, 20, 2, "f32"),
    (64, 64, 40, 40, 1, "f16"), (16, 16, 80, 80, 1, "f16"), (64, 64, 16, 16, 1, "f16"),
)


def hexed(array: np.ndarray) -> str:
    return 'dense<"0x' + array.tobytes().hex().upper() + '">'


def module_text(channels: int, filters: int, oh: int, ow: int, stride: int, dtype: str) -> str:
    """A 3x3 conv of a padded input (its output `oh` x `ow`), a bias and a SiLU, as torch-mlir
    writes them; f16: f16 operands, an f32 accumulator, the SiLU's result rounded."""
    rng = np.random.default_rng(channels * 1000 + filters * 10 + oh + ow + stride)
    store = "f16" if dtype == "f16" else "f32"
    weight = (rng.standard_normal((filters, channels, 3, 3)) * 0.1).astype(np.float16 if dtype == "f16" else np.float32)
    bias = rng.standard_normal(filters).astype(np.float32)
    ih, iw = (oh - 1) * stride + 3, (ow - 1) * stride + 3
    acc = f"tensor<1x{filters}x{oh}x{ow}xf32>"
    result = f"tensor<1x{filters}x{oh}x{ow}x{store}>"
    rounded = ("    %t = arith.truncf %y : f32 to f16\n    linalg.yield %t : f16" if dtype == "f16"
               else "    linalg.yield %y : f32")
    return f"""#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @main(%x: tensor<1x{channels}x{ih}x{iw}x{store}>) -> {result} {{
  %w = arith.constant {hexed(weight)} : tensor<{filters}x{channels}x3x3x{store}>
  %b = arith.constant {hexed(bias)} : tensor<{filters}xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : {acc}
  %f = linalg.fill ins(%zero : f32) outs(%e : {acc}) -> {acc}
  %c = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}} ins(%x, %w : tensor<1x{channels}x{ih}x{iw}x{store}>, tensor<{filters}x{channels}x3x3x{store}>) outs(%f : {acc}) -> {acc}
  %r = tensor.empty() : {result}
  %s = linalg.generic {{indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} ins(%c, %b : {acc}, tensor<{filters}xf32>) outs(%r : {result}) {{
  ^bb0(%v: f32, %bi: f32, %o: {store}):
    %a = arith.addf %v, %bi : f32
    %n = arith.negf %a : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %y = arith.divf %a, %d : f32
{rounded}
  }} -> {result}
  return %s : {result}
}}
"""


def generalized(text: str) -> str:
    """`text` with every conv written as its generic, whatever `direct_pays` says."""
    module = parse(text, "case.mlir")
    apply_pattern_sets(module, populate_generalize_direct_conv_patterns(everywhere=True))
    return print_module(module)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.5)
    parser.add_argument("--layouts", type=int, default=2)
    parser.add_argument("--only", choices=["f32", "f16"])
    args = parser.parse_args()
    tools = Tools.find(None)
    rows = []
    for channels, filters, oh, ow, stride, dtype in CASES:
        if args.only and dtype != args.only:
            continue
        text = module_text(channels, filters, oh, ow, stride, dtype)
        texts = {"named": text, "generic": generalized(text)}
        ih, iw = (oh - 1) * stride + 3, (ow - 1) * stride + 3
        with tempfile.TemporaryDirectory(prefix="direct_conv_") as tmp:
            work = Path(tmp)
            x = work / "x.npy"
            data = np.random.default_rng(0).standard_normal((1, channels, ih, iw))
            np.save(x, data.astype(np.float16 if dtype == "f16" else np.float32))
            ms = time_forms(tools, texts, BEST_CPU_FLAGS, work, x, args.rounds, args.min_time, args.layouts,
                            4e-3 if dtype == "f16" else 1e-4, "the generic computes something else: a bug in generalize-direct-conv")
        rule = direct_pays((1, channels, ih, iw), (filters, channels, 3, 3), (1, filters, oh, ow),
                           (stride, stride), (1, 1), dtype == "f32")
        row = [dtype, str(channels), str(filters), f"{oh}x{ow}", str(stride), f"{ms['named'] * 1e3:.0f}",
               f"{ms['generic'] * 1e3:.0f}", f"{ms['generic'] / ms['named']:.2f}", "generic" if rule else "named"]
        rows.append(row)
        print("| " + " | ".join(row) + " |", file=sys.stderr, flush=True)
    print(markdown_table(["dtype", "in ch", "filters", "output HxW", "stride", "named us", "generic us",
                          "generic / named", "rule"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
