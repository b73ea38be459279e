"""Export the nets of the HEIR checks (issues 24 and 27) with torch-mlir.

    /work/exportenv/bin/python benchmarks/export_heir_nets.py [--resnet20 DIR]

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

and with `--resnet20 DIR` also DIR/resnet20.mlir: ResNet-20 for CIFAR (He et al. 2016,
3 stages of 3 basic blocks, 16/32/64 channels, a 1x1 conv + batch-norm shortcut where
the shape changes), x² for ReLU, 1x3x32x32 (depth bound 39). Its batch-norm statistics
are measured on random inputs and its affine parameters randomised around 0.25 times
the identity (`calibrate`): with random statistics, or unit-variance pre-activations,
the squarings along the identity shortcuts overflow float32 (PyTorch's own output is
NaN); so the largest activation is about 200.
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


class BasicBlock(nn.Module):
    """ResNet's basic block with x² for ReLU; a 1x1 conv + BN shortcut when the shape changes."""

    def __init__(self, inputs: int, outputs: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(outputs)
        self.conv2 = nn.Conv2d(outputs, outputs, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(outputs)
        self.shortcut: nn.Module = nn.Identity()
        if stride != 1 or inputs != outputs:
            self.shortcut = nn.Sequential(nn.Conv2d(inputs, outputs, 1, stride=stride, bias=False), nn.BatchNorm2d(outputs))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn1(self.conv1(x))
        y = self.bn2(self.conv2(y * y))
        y = y + self.shortcut(x)
        return y * y


class ResNet20(nn.Module):
    def __init__(self, classes: int = 10) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(16)
        blocks: list[nn.Module] = []
        channels = 16
        for stage, width in enumerate((16, 32, 64)):
            for index in range(3):
                blocks.append(BasicBlock(channels, width, 2 if stage > 0 and index == 0 else 1))
                channels = width
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn(self.conv(x))
        y = self.blocks(y * y)
        return self.fc(torch.flatten(self.pool(y), 1))


def calibrate(model: nn.Module, shape: tuple[int, ...], batches: int = 8, scale: float = 0.25) -> nn.Module:
    """Batch-norm running statistics measured on random inputs (cumulative averages),
    then affine parameters near `scale` * (1, 0): every pre-activation comes out with
    about `scale`² variance, so the x² along identity shortcuts stay in float32's range."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.reset_running_stats()
            module.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(batches):
            model(torch.randn(16, *shape[1:]))
        for module in model.modules():
            if isinstance(module, nn.BatchNorm2d):
                module.weight.copy_(scale * (1.0 + 0.1 * torch.randn(module.num_features)))
                module.bias.copy_(scale * 0.1 * torch.randn(module.num_features))
    return model.eval()


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resnet20", type=Path, default=None, help="also export ResNet-20 into this directory")
    args = parser.parse_args()
    torch.manual_seed(0)
    export("feature_map", feature_map(), (1, 3, 12, 12), HEIR_INPUTS)
    torch.manual_seed(0)
    export("batch2_linear", batch2_linear(), (2, 2, 40, 40), HEIR_INPUTS)
    if args.resnet20 is not None:
        torch.manual_seed(0)
        export("resnet20", calibrate(ResNet20(), (1, 3, 32, 32)), (1, 3, 32, 32), args.resnet20)


if __name__ == "__main__":
    main()
