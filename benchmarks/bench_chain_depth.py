"""Depth against the depth bound, and weight growth, on real models under the main
pipeline (`linalg-canonicalizations,linalg-fuse-ops`): where a linear chain crosses a
skip connection, a concat or a channel shuffle.

    python benchmarks/bench_chain_depth.py [--cache DIR] [--models a,b] [--pipeline P]

Models (random weights, batch-norm statistics randomised, 64x64 inputs, exported once
with torch-mlir's `fx.export_and_import(..., output_type="linalg-on-tensors")` and cached
in `--cache`, default /tmp/heirpy_chain_zoo; never committed): torchvision's
mobilenet_v2, shufflenet_v2_x0_5, densenet121, mobilenet_v3_small and timm's
ghostnet_100. Exports run in a subprocess (torch is a benchmark-only tool).

Columns: depth raw -> heirpy (bound) of the entry function (`heirpy.analysis.depth`;
`+`: a lower bound, relu and friends are outside the model), weight bytes (the
plaintext multiplicands of linear ops) and constant bytes (every constant of the
module, `heirpy.analysis.kernels.constant_bytes`) before -> after, and heirpy's time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from heirpy.analysis.depth import analyze_function, depth_bound
from heirpy.analysis.kernels import constant_bytes
from heirpy.api import clone_module, parse, run_pipeline
from heirpy.tools.heirpy_report import first_function, same_function

MODELS = ("mobilenet_v2", "shufflenet_v2_x0_5", "densenet121", "ghostnet_100", "mobilenet_v3_small")
PIPELINE = "linalg-canonicalizations,linalg-fuse-ops"

# torchvision 0.28's C++ ops do not load against the CPU torch wheel, and its import then
# fails registering fake kernels for `torchvision::` ops (nms, roi_align ...): the shim
# skips those registrations; the model definitions are pure Python and do not need them.
EXPORT_SCRIPT = r'''
import sys, torch, torch.library
_register_fake = torch.library.register_fake
def _skip_torchvision(op, *args, **kwargs):
    if isinstance(op, str) and op.startswith("torchvision::"):
        return lambda fn=None, *a, **k: fn if fn is not None else (lambda f: f)
    return _register_fake(op, *args, **kwargs)
torch.library.register_fake = _skip_torchvision
import torch_mlir.fx as fx
name, out = sys.argv[1], sys.argv[2]
torch.manual_seed(0)
if name == "ghostnet_100":
    import timm
    model = timm.create_model(name, pretrained=False)
else:
    import torchvision.models as tvm
    model = getattr(tvm, name)(weights=None)
for m in model.modules():
    if isinstance(m, torch.nn.BatchNorm2d):
        m.running_mean.uniform_(-0.5, 0.5); m.running_var.uniform_(0.5, 1.5)
        m.weight.data.uniform_(0.5, 1.5); m.bias.data.uniform_(-0.2, 0.2)
x = torch.randn(1, 3, 64, 64)
module = fx.export_and_import(model.eval(), x, output_type="linalg-on-tensors")
open(out, "w").write(str(module))
'''


def export(name: str, cache: Path) -> Path:
    path = cache / f"{name}.mlir"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        subprocess.run([sys.executable, "-c", EXPORT_SCRIPT, name, str(tmp)], check=True)
        tmp.rename(path)
    return path


def measure(path: Path, pipeline: str) -> dict[str, object]:
    before = parse(path.read_text(), str(path))
    after = clone_module(before)
    start = time.perf_counter()
    run_pipeline(after, pipeline)
    seconds = time.perf_counter() - start
    entry = first_function(before).sym_name.data
    b = analyze_function(first_function(before))
    a = analyze_function(same_function(after, entry))
    bound = depth_bound(first_function(before))
    return {
        "depth": f"{b.depth_text()} -> {a.depth_text()} ({bound.depth_text()})",
        "weights": f"{b.weight_bytes / 1e6:.2f} -> {a.weight_bytes / 1e6:.2f} MB "
                   f"({a.weight_bytes / max(b.weight_bytes, 1):.2f}x)",
        "constants": f"{constant_bytes(before) / 1e6:.2f} -> {constant_bytes(after) / 1e6:.2f} MB "
                     f"({constant_bytes(after) / max(constant_bytes(before), 1):.2f}x)",
        "seconds": f"{seconds:.1f}",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", type=Path, default=Path("/tmp/heirpy_chain_zoo"))
    p.add_argument("--models", default=",".join(MODELS))
    p.add_argument("--pipeline", default=PIPELINE)
    args = p.parse_args()
    print(f"pipeline: {args.pipeline}\n")
    print("| model | depth raw -> heirpy (bound) | weight bytes | constant bytes | heirpy s |")
    print("|---|---|---|---|---|")
    for name in args.models.split(","):
        row = measure(export(name, args.cache), args.pipeline)
        print(f"| {name} | {row['depth']} | {row['weights']} | {row['constants']} | {row['seconds']} |", flush=True)


if __name__ == "__main__":
    main()
