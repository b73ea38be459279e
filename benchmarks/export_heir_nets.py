"""Export the nets of the HEIR checks (issues 24 and 27) with torch-mlir.

    /work/exportenv/bin/python benchmarks/export_heir_nets.py

Needs torch 2.13 and torch-mlir (benchmark-only tools, never dependencies of heirpy or
its tests; the exported files are committed). Writes, each with a `.npz` of its input
and PyTorch's output (as tools/export_examples.py does):

  tests/filecheck/transforms/heir-prepare/Inputs/feature_map.mlir
      conv 3x3 (pad 1) -> x² -> AvgPool2d(2) -> conv 3x3, returning the 1x6x4x4
      feature map (depth bound 3)
  tests/filecheck/transforms/heir-prepare/Inputs/batch2_linear.mlir
      a batch of 2: conv 3x3 (stride 2, pad 1) -> AvgPool2d(2) -> flatten -> Linear ->
      Linear, no activation, input 2x2x40x40 (depth bound 1; the input alone holds
      6400 elements)

ResNet-20 (issue 27's HEIR check) is examples/resnet20.mlir, which tools/export_examples.py
writes with its calibrated batch norms.
Weights are `dense<...>` constants, so heir-opt reads the files as they are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from export_examples import (  # noqa: E402  (the examples' own exporter and helpers)
    Square,
    export_torch_mlir,
    save_npz,
    seeded_inputs,
    write_text,
)

HEIR_INPUTS = ROOT / "tests" / "filecheck" / "transforms" / "heir-prepare" / "Inputs"


def feature_map() -> nn.Module:
    return nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), Square(), nn.AvgPool2d(2), nn.Conv2d(4, 6, 3))


def batch2_linear() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(2, 4, 3, stride=2, padding=1), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(400, 16), nn.Linear(16, 10)
    )


def export(name: str, model: nn.Module, shape: tuple[int, ...], directory: Path) -> None:
    model = model.eval()
    x = seeded_inputs((shape,), "float32")[0]  # the .npz records the seed (heirpy.interp.npz_recipes)
    with torch.no_grad():
        y = model(x)
    directory.mkdir(parents=True, exist_ok=True)
    write_text(directory / f"{name}.mlir", export_torch_mlir(model, [x], dense_weights=True))
    save_npz(directory / f"{name}.npz", [x], [y], None)
    print(f"wrote {directory / name}.mlir", file=sys.stderr)


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    torch.manual_seed(0)
    export("feature_map", feature_map(), (1, 3, 12, 12), HEIR_INPUTS)
    torch.manual_seed(0)
    export("batch2_linear", batch2_linear(), (2, 2, 40, 40), HEIR_INPUTS)


if __name__ == "__main__":
    main()
