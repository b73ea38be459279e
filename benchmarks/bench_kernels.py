"""Kernels and intermediate bytes: raw, after heirpy, after iree-opt's elementwise fusion.

    /work/venv/bin/python benchmarks/bench_kernels.py [--pipeline P] [--iree-opt PATH]

Cases: the YOLOv5s head with a 1x1 and a 3x3 conv (examples/yolo_head_k{1,3}.mlir),
a matmul -> reshape -> transpose -> add chain, and an add -> transpose -> add -> relu
chain. Counts are `heirpy.analysis.kernels` (views are free; a `tensor_ext.kernel` is
one kernel; a kernel result read by another kernel is materialised). The iree column
runs `iree-opt --linalg-generalize-named-ops --linalg-fuse-elementwise-ops` (from
iree-base-compiler: a benchmark-only tool, never a dependency) on the raw IR and counts
its output parsed by heirpy; "n/a" where iree-opt is not installed. The numerics column
checks heirpy's output against the raw IR with the evaluator (2 seeds).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from harness import markdown_table  # benchmarks/, the directory of this script
from heirpy.analysis.kernels import count_kernels, intermediate_bytes
from heirpy.api import parse, run_pipeline
from heirpy.interp.equivalence import check_equivalence
from heirpy.interp.resources import load_module

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"
IREE_FLAGS = ["--linalg-generalize-named-ops", "--linalg-fuse-elementwise-ops"]

MATMUL_CHAIN = """
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @main(%a: tensor<512x64xf32>, %b: tensor<64x256xf32>, %y: tensor<8x256x64xf32>) -> tensor<8x256x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<512x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<512x256xf32>) -> tensor<512x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<512x64xf32>, tensor<64x256xf32>) outs(%z : tensor<512x256xf32>) -> tensor<512x256xf32>
  %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [8, 64, 256] : tensor<512x256xf32> into tensor<8x64x256xf32>
  %e1 = tensor.empty() : tensor<8x256x64xf32>
  %t = linalg.transpose ins(%r : tensor<8x64x256xf32>) outs(%e1 : tensor<8x256x64xf32>) permutation = [0, 2, 1]
  %s = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t, %y : tensor<8x256x64xf32>, tensor<8x256x64xf32>) outs(%e1 : tensor<8x256x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<8x256x64xf32>
  return %s : tensor<8x256x64xf32>
}
"""

ADD_CHAIN = """
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<128x256xf32>, %y: tensor<128x256xf32>, %z: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x256xf32>
  %a = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<128x256xf32>, tensor<128x256xf32>) outs(%e0 : tensor<128x256xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<128x256xf32>
  %e1 = tensor.empty() : tensor<256x128xf32>
  %t = linalg.transpose ins(%a : tensor<128x256xf32>) outs(%e1 : tensor<256x128xf32>) permutation = [1, 0]
  %b = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%t, %z : tensor<256x128xf32>, tensor<256x128xf32>) outs(%e1 : tensor<256x128xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<256x128xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<256x128xf32>) outs(%e1 : tensor<256x128xf32>) {
  ^bb0(%p: f32, %o: f32):
    %v = arith.maximumf %p, %zero : f32
    linalg.yield %v : f32
  } -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
"""


def cases() -> list[tuple[str, str]]:
    return [
        ("yolo_head_k1 (1x1 conv)", (ROOT / "examples" / "yolo_head_k1.mlir").read_text()),
        ("yolo_head_k3 (3x3 conv)", (ROOT / "examples" / "yolo_head_k3.mlir").read_text()),
        ("matmul->reshape->transpose->add", MATMUL_CHAIN),
        ("add->transpose->add->relu", ADD_CHAIN),
    ]


def figures(text: str) -> str:
    module = parse(text)
    return f"{count_kernels(module)} / {intermediate_bytes(module):,}"


def heirpy_figures(text: str, pipeline: str) -> tuple[str, str]:
    before, after = load_module(text), load_module(text)
    run_pipeline(after.module, pipeline)
    report = check_equivalence(
        before.module, after.module, "main", (0, 1),
        resources_a=before.resources, resources_b=after.resources,
    )
    worst = max((r.max_abs_error for r in report.results), default=0.0)
    numerics = f"{'ok' if report.ok else 'MISMATCH'} ({worst:.1e})"
    module = after.module
    return f"{count_kernels(module)} / {intermediate_bytes(module):,}", numerics


def iree_figures(text: str, iree_opt: str | None) -> str:
    if iree_opt is None:
        return "n/a"
    result = subprocess.run(
        [iree_opt, *IREE_FLAGS], input=text, capture_output=True, text=True, timeout=600
    )
    if result.returncode != 0:
        return "iree-opt failed"
    return figures(result.stdout)


def find_iree_opt(given: str | None) -> str | None:
    if given:
        return given
    sibling = ROOT.parent / "genvenv" / "bin" / "iree-opt"
    return shutil.which("iree-opt") or (str(sibling) if sibling.exists() else None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    parser.add_argument("--iree-opt", default=None)
    args = parser.parse_args(argv)
    iree_opt = find_iree_opt(args.iree_opt)
    header = ["case", "raw", "heirpy", "iree-opt", "heirpy numerics"]
    rows = []
    for name, text in cases():
        fused, numerics = heirpy_figures(text, args.pipeline)
        rows.append([name, figures(text), fused, iree_figures(text, iree_opt), numerics])
    print(f"kernels / intermediate bytes; heirpy: {args.pipeline}; iree-opt: {' '.join(IREE_FLAGS)}")
    print(markdown_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
